"""Random simple puzzles made to order: a size, a difficulty in steps, a density of filled cells, a seed.

One way to draw a grid, deterministic for a seed:

* ``rejection`` — draw grids whose cells are filled independently with
  probability ``density`` (Python's ``random.Random(seed)``), and keep the
  first one local logic solves in the wanted number of steps.  The result
  is distributed exactly as such a random grid *conditioned* on being
  simple with that difficulty; with the default density 0.5 that is the
  **uniform distribution over the simple n×m grids of that difficulty**
  (every grid equally likely).  Fast while such grids are not rare: a
  random grid is simple with probability about 0.74 at 5×5, 0.5 at 10×10,
  0.09 at 20×20 and 0.005 at 30×30; the hardest difficulties of a size are
  far rarer than that.
Every grid returned has been checked (``check``): local logic solves its
clues alone, the solution it reaches is the grid, in the steps stated.
Imports ``clues`` and ``logic`` only.  (A local search for the difficulties too rare to draw,
and ``design`` from a picture, are still to come: issue 28.)
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from ..clues import Grid, grid_clues
from . import logic

#: Cells drawn by ``rejection`` before it gives up: TRIES_CELLS // (n·m) grids, at least MIN_TRIES.
TRIES_CELLS = 1_000_000
MIN_TRIES = 1000
METHODS = ("rejection",)


class GenerateError(ValueError):
    """No puzzle as asked (a one-line reason)."""


@dataclass(frozen=True)
class Made:
    """A generated puzzle's solution, its difficulty, and how it was drawn."""

    n: int
    m: int
    grid: Grid
    steps: int
    method: str  # how it was drawn: 'rejection'
    tries: int  # grids drawn (rejection) before it, this one included

    @property
    def filled(self) -> int:
        """Filled cells."""
        return bin(self.grid).count("1")


def parse_steps(text: str) -> tuple:
    """(lo, hi) from '7' (exactly 7 steps), '3-6' or '3..6' (3 to 6), '5-' (at least 5) or '-4' (at most 4)."""
    match = re.fullmatch(r"\s*(\d*)\s*(?:(-|\.\.)\s*(\d*))?\s*", text or "")
    if not match or not (match.group(1) or match.group(3)):
        raise ValueError(f"steps look like 7, 3-6, 5- or -4; got {text!r}")
    lo = int(match.group(1)) if match.group(1) else 0
    hi = lo if not match.group(2) else int(match.group(3)) if match.group(3) else None
    if hi is not None and hi < lo:
        raise ValueError(f"steps {text!r}: the range is empty ({lo} > {hi})")
    return lo, hi


def within(steps: int, wanted: tuple | None) -> bool:
    """Whether a difficulty in steps lies in the range (lo, hi); hi None: no upper bound; None: any."""
    return wanted is None or (steps >= wanted[0] and (wanted[1] is None or steps <= wanted[1]))


def steps_of(grid: Grid, n: int, m: int) -> int | None:
    """The difficulty in steps of a grid's clues, or None if local logic does not solve them."""
    hard = logic.difficulty(*grid_clues(grid, n, m))
    return None if hard is None else hard.steps


def random_grid(rng: random.Random, n: int, m: int, density: float) -> Grid:
    """A grid whose cells are filled independently with probability ``density`` (``getrandbits`` at 0.5)."""
    if density == 0.5:
        return rng.getrandbits(n * m) if n * m else 0
    return sum(1 << k for k in range(n * m) if rng.random() < density)


def check(made: Made) -> Made:
    """``made``, after checking from its clues alone that local logic solves it, to its grid, in its steps."""
    n, m = made.n, made.m
    out = logic.propagate(*grid_clues(made.grid, n, m))
    if out.status != logic.SOLVED:
        raise AssertionError(f"made {n}x{m} grid {made.grid:#x} is not solved by local logic")
    if out.filled != made.grid:
        raise AssertionError(f"local logic solved the {n}x{m} clues to another grid than {made.grid:#x}")
    if steps_of(made.grid, n, m) != made.steps:
        raise AssertionError(f"the {n}x{m} grid {made.grid:#x} does not take {made.steps} steps")
    return made


def default_tries(n: int, m: int) -> int:
    """Grids ``rejection`` draws by default: about a million cells' worth (a few seconds at most)."""
    return max(MIN_TRIES, TRIES_CELLS // max(1, n * m))


def validate(n: int, m: int, steps=None, density: float = 0.5, tries: int = 1, method: str = "rejection") -> None:
    """GenerateError for arguments no puzzle can meet (bad input, before any work)."""
    if n < 1 or m < 1:
        raise GenerateError(f"size must be at least 1x1, got {n}x{m}")
    if not 0.0 <= density <= 1.0:
        raise GenerateError(f"density must be between 0 and 1, got {density}")
    if tries < 1:
        raise GenerateError(f"tries must be at least 1, got {tries}")
    if method not in METHODS:
        raise GenerateError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    # Only the first step may learn nothing (a pass after one that learnt nothing repeats the pass before it),
    # so a solvable grid takes at most n·m + 1 steps.
    most = n * m + 1
    if steps is not None and steps[0] > most:
        raise GenerateError(f"no {n}x{m} puzzle takes {steps[0]} steps or more (at most {most})")


def generate(n: int, m: int, steps: tuple | None = None, density: float = 0.5, seed: int = 0,
             tries: int | None = None, method: str = "rejection") -> Made:  # fmt: skip
    """A checked random simple n×m puzzle with difficulty in ``steps`` (lo, hi) (see the module docstring).

    ``tries``: grids ``rejection`` draws (default ``default_tries``).  GenerateError when the arguments are
    impossible or no puzzle was found.
    """
    tries = default_tries(n, m) if tries is None else tries
    validate(n, m, steps, density, tries, method)
    rng = random.Random(seed)
    for k in range(1, tries + 1):
        grid = random_grid(rng, n, m, density)
        found = steps_of(grid, n, m)
        if found is not None and within(found, steps):
            return check(Made(n, m, grid, found, "rejection", k))
    raise GenerateError(f"no simple {n}x{m} grid{_wanted(steps)} among {tries} random grids; try more --tries")


def _wanted(steps) -> str:
    """' of 3-5 steps' for messages ('' for any)."""
    if steps is None:
        return ""
    lo, hi = steps
    return f" of {lo} steps" if lo == hi else f" of {lo}-{hi if hi is not None else ''} steps"
