"""Random simple puzzles made to order: a size, a difficulty in steps, a density of filled cells, a seed.

Two ways to draw a grid, deterministic for a seed (``auto``, the default,
tries ``rejection`` and, if it finds nothing, ``search``):

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
* ``search`` — for difficulties too rare to draw: a Metropolis walk over
  grids.  It starts from a random grid (at ``density``) and proposes
  flipping one cell chosen uniformly; a proposal is accepted with
  probability min(1, r · exp(-(E' - E) / TEMPERATURE)), where r is the
  ratio of the density weights (density / (1 - density) for a cell
  filled, its inverse for a cell emptied: 1 at 0.5) and the energy E
  (``energy``) is 0 exactly for the simple grids of the wanted difficulty,
  small for simple grids near it and large for grids local logic does not
  solve.  The walk's stationary law is proportional to the density weight
  times exp(-E / TEMPERATURE); it stops at the first grid of energy 0, and
  restarts from a new random grid every ``tuning.GENERATE_WALK_MOVES``
  moves.  The puzzle is therefore **not** uniform over the grids of that difficulty: it is the
  first such grid a walk meets, which favours grids close to many others
  of that difficulty.
Every grid returned has been checked (``check``): local logic solves its
clues alone, the solution it reaches is the grid, in the steps stated.
Imports ``clues``, ``tuning`` and ``solving.logic`` only.
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass

from ... import tuning
from ...clues import Grid, grid_clues
from ..solving import logic

METHODS = ("auto", "rejection", "search")
#: The largest puzzle made (generate and design): 200 x 200 cells.
MAX_CELLS = 40_000
#: The temperature of ``search``'s walk.
TEMPERATURE = 1.0


class GenerateError(ValueError):
    """No puzzle as asked (a one-line reason)."""


class OutOfTime(GenerateError):
    """No puzzle as asked found before the time limit."""


def _clock(deadline: float | None, timeout: float | None, n: int, m: int, steps, k: int) -> None:
    """OutOfTime once ``deadline`` (``time.monotonic``) has passed, after ``k`` grids."""
    if deadline is not None and time.monotonic() > deadline:
        raise OutOfTime(f"no simple {n}x{m} grid{_wanted(steps)} found in {timeout:g} s ({k} grids tried); "
                        "try a longer --timeout, or other --steps")  # fmt: skip


@dataclass(frozen=True)
class Made:
    """A generated puzzle's solution, its difficulty, and how it was drawn."""

    n: int
    m: int
    grid: Grid
    steps: int
    method: str  # how it was drawn: 'rejection' or 'search'
    tries: int  # grids drawn (rejection) or tried (search) before it, this one included

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
    """Grids ``rejection`` draws by default: about a million cells' worth (a few seconds at most;
    ``tuning.GENERATE_TRIES_CELLS``, ``tuning.GENERATE_MIN_TRIES``)."""
    return max(tuning.GENERATE_MIN_TRIES, tuning.GENERATE_TRIES_CELLS // max(1, n * m))


def validate(n: int, m: int, steps=None, density: float = 0.5, tries: int = 1, method: str = "auto",
             timeout: float | None = None) -> None:  # fmt: skip
    """GenerateError for arguments no puzzle can meet (bad input, before any work)."""
    if timeout is not None and not (isinstance(timeout, int | float) and timeout > 0 and math.isfinite(timeout)):
        raise GenerateError(f"timeout must be a number of seconds more than 0, got {timeout!r}")
    if n < 1 or m < 1:
        raise GenerateError(f"size must be at least 1x1, got {n}x{m}")
    if n * m > MAX_CELLS:
        raise GenerateError(f"{n}x{m} has {n * m} cells; puzzles are made of at most {MAX_CELLS} cells (200x200)")
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
             tries: int | None = None, method: str = "auto", timeout: float | None = None) -> Made:  # fmt: skip
    """A checked random simple n×m puzzle with difficulty in ``steps`` (lo, hi) (see the module docstring).

    ``tries``: grids ``rejection`` draws, and grids ``search`` tries
    (default: ``default_tries`` and ``tuning.GENERATE_SEARCH_FACTOR`` times
    as many; ``auto`` may spend both).  ``timeout``: seconds for both together, looked at
    after each grid (OutOfTime).  GenerateError when the arguments are
    impossible or no puzzle was found.
    """
    searched = tuning.GENERATE_SEARCH_FACTOR * default_tries(n, m) if tries is None else tries
    tries = default_tries(n, m) if tries is None else tries
    validate(n, m, steps, density, tries, method, timeout)
    deadline = None if timeout is None else time.monotonic() + timeout
    if method in ("auto", "rejection"):
        try:
            return rejection(n, m, steps, density, seed, tries, deadline, timeout)
        except OutOfTime:
            raise
        except GenerateError:
            if method == "rejection":
                raise
    try:
        return search(n, m, steps, density, seed, searched, deadline, timeout)
    except GenerateError as err:
        if method == "search" or isinstance(err, OutOfTime):
            raise
        raise GenerateError(f"no simple {n}x{m} grid{_wanted(steps)} among {tries} random grids, nor in a search "
                            f"of {searched} more; try more --tries") from err  # fmt: skip


def rejection(n: int, m: int, steps: tuple | None, density: float, seed: int, tries: int,
              deadline: float | None = None, timeout: float | None = None) -> Made:  # fmt: skip
    """The first of ``tries`` random grids that is simple with difficulty in ``steps`` (module docstring); OutOfTime
    past ``deadline``."""
    rng = random.Random(seed)
    for k in range(1, tries + 1):
        _clock(deadline, timeout, n, m, steps, k - 1)
        grid = random_grid(rng, n, m, density)
        found = steps_of(grid, n, m)
        if found is not None and within(found, steps):
            return check(Made(n, m, grid, found, "rejection", k))
    raise GenerateError(f"no simple {n}x{m} grid{_wanted(steps)} among {tries} random grids; try more --tries")


def energy(grid: Grid, n: int, m: int, steps: tuple | None) -> tuple:
    """(E, difficulty in steps or None) of a grid for ``search``: E = 0 exactly when the grid is simple with
    difficulty in ``steps``; for a simple grid outside the range, the steps it is short of (or over) the
    range, less (plus) the share of cells still unknown on the way, so that slower grids count as closer
    (harder); for a grid local logic does not solve, n·m + 2 plus the cells it leaves unknown."""
    cells = n * m
    board, halves = logic.Board(n, m), []
    logic.settle(board, *grid_clues(grid, n, m), halves=halves)
    if board.known < cells:
        return cells + 2 + cells - board.known, None
    found = halves.index(cells) + 1
    lo, hi = steps if steps is not None else (0, None)
    slow = sum(cells - h for h in halves[: found - 1]) / (cells * (found + 1))  # in [0, 1)
    if found < lo:
        return lo - found - slow, found
    if hi is not None and found > hi:
        return found - hi + slow, found
    return 0.0, found


def _density_ratio(density: float, filling: bool) -> float:
    """How much more likely at ``density`` the grid is after filling (``filling``) or emptying one cell."""
    if density in (0.0, 1.0):
        return math.inf if filling == (density == 1.0) else 0.0
    return density / (1 - density) if filling else (1 - density) / density


def _accept(rng: random.Random, ratio: float, rise: float) -> bool:
    """Metropolis: accept a move with probability min(1, ratio · exp(-rise / TEMPERATURE))."""
    if ratio == 0.0 or ratio == math.inf:
        return ratio == math.inf
    x = math.log(ratio) - rise / TEMPERATURE
    return x >= 0 or rng.random() < math.exp(x)


def search(n: int, m: int, steps: tuple | None, density: float, seed: int, tries: int,
           deadline: float | None = None, timeout: float | None = None) -> Made:  # fmt: skip
    """The first grid of energy 0 that the Metropolis walk of the module docstring meets within ``tries`` grids;
    OutOfTime past ``deadline``."""
    rng = random.Random(seed)
    grid, k = random_grid(rng, n, m, density), 1
    e, found = energy(grid, n, m, steps)
    while e > 0:
        _clock(deadline, timeout, n, m, steps, k)
        if k >= tries:
            raise GenerateError(
                f"no simple {n}x{m} grid{_wanted(steps)} in a search of {tries} grids; try more --tries"
            )
        k += 1
        if k % tuning.GENERATE_WALK_MOVES == 0:
            grid = random_grid(rng, n, m, density)
            e, found = energy(grid, n, m, steps)
            continue
        cell = rng.randrange(n * m)
        new = grid ^ 1 << cell
        f, new_found = energy(new, n, m, steps)
        if _accept(rng, _density_ratio(density, bool(new >> cell & 1)), f - e):
            grid, e, found = new, f, new_found
    return check(Made(n, m, grid, found, "search", k))


def _wanted(steps) -> str:
    """' of 3-5 steps' for messages ('' for any)."""
    if steps is None:
        return ""
    lo, hi = steps
    return f" of {lo} steps" if lo == hi else f" of {lo}-{hi if hi is not None else ''} steps"
