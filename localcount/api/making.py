"""Making puzzles from Python: ``generate`` (a random simple puzzle of a chosen difficulty) and ``design``
(a simple puzzle like a picture).

The command line's ``generate`` and ``design`` are ``make_random`` and
``make_design`` with their options: they print the puzzle and say on stderr
what these return beside it.  Every puzzle made is checked: local logic
solves it from its clues alone, to the grid made, in the steps reported.
Bad arguments are ``UsageError``; no puzzle found is ``GenerateError`` or
``DesignError`` (``ValueError``s too), whose message ends with the seed.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from .. import tuning
from ..puzzle.model import from_grid
from ..util.errors import UsageError, usage_errors
from .puzzles import Puzzle


@dataclass(frozen=True)
class Made:
    """A made puzzle and how it was made: ``made`` is the maker's record (``generate.Made`` or ``design.Design``)."""

    puzzle: Puzzle
    made: object
    seed: int
    seconds: float
    grey: list | None = None  # design: the picture scaled to the grid
    picture: str = ""  # design: the picture's file name


def _seed(seed) -> int:
    """The seed given, or a fresh random one."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise UsageError(f"seed must be a whole number, got {seed!r}")
    return random.SystemRandom().randrange(1 << 32) if seed is None else seed


def steps_range(steps):
    """(lo, hi) from None, a number of steps, a pair, or text ('7', '3-6', '5-', '-4'); UsageError otherwise."""
    from ..puzzle.making import generate

    if steps is None:
        return None
    if isinstance(steps, str):
        with usage_errors():
            return generate.parse_steps(steps)
    if isinstance(steps, int) and not isinstance(steps, bool):
        return generate.parse_steps(str(steps)) if steps >= 0 else _bad_steps(steps)
    if isinstance(steps, (tuple, list)) and len(steps) == 2:
        lo, hi = steps
        text = f"{'' if lo is None else lo}-{'' if hi is None else hi}"
        if all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 0) for v in steps):
            with usage_errors():
                return generate.parse_steps(text)
    return _bad_steps(steps)


def _bad_steps(steps):
    raise UsageError(f"steps is a number, a pair (lo, hi) or text such as '3-6', got {steps!r}")


def _size(n, m) -> tuple:
    m = n if m is None else m
    for name, v in (("n", n), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise UsageError(f"{name} must be a whole number, got {v!r}")
    return n, m


def make_random(n: int, m: int | None = None, *, steps=None, seed: int | None = None, density: float = 0.5,
                tries: int | None = None, method: str = "auto", timeout: float | None = None) -> Made:  # fmt: skip
    """``generate`` and how it went (a ``Made``)."""
    from ..puzzle.making import generate as maker

    n, m = _size(n, m)
    wanted = steps_range(steps)
    with usage_errors():
        maker.validate(n, m, wanted, density, 1 if tries is None else tries, method, timeout)
    seed, start = _seed(seed), time.perf_counter()
    try:
        made = maker.generate(n, m, wanted, density, seed, tries, method, timeout)
    except maker.GenerateError as err:
        raise maker.GenerateError(f"{err} (seed {seed})") from None
    p = replace(
        from_grid(made.grid, n, m, f"random {n}x{m}, seed {seed}, {made.steps} steps"), author="localcount generate"
    )
    return Made(Puzzle.of(p), made, seed, time.perf_counter() - start)


def generate(n: int, m: int | None = None, *, steps=None, seed: int | None = None, density: float = 0.5,
             tries: int | None = None, method: str = "auto", timeout: float | None = None) -> Puzzle:  # fmt: skip
    """A random simple n×m puzzle (n alone: a square) whose difficulty is ``steps`` (a number, (lo, hi) or '3-6').

    Drawn uniformly from the simple grids of that difficulty at ``density``
    by rejection, or (``method`` auto or search) found by a walk that is not
    uniform; ``seed``: the same seed, the same puzzle.  ``timeout``: give up
    after that many seconds (looked at after each grid tried), a
    ``GenerateError`` that says so.

    >>> generate(5, steps=4, seed=1).difficulty
    4
    """
    return make_random(n, m, steps=steps, seed=seed, density=density, tries=tries, method=method,
                       timeout=timeout).puzzle  # fmt: skip


def _design_size(size) -> tuple:
    """(rows, columns) from a number (a square), a pair (rows, columns) or the command line's text 'WxH'."""
    from ..puzzle.making import design as maker

    if isinstance(size, str):
        with usage_errors():
            return maker.parse_size(size)
    if isinstance(size, int) and not isinstance(size, bool):
        size = (size, size)
    if not (
        isinstance(size, (tuple, list))
        and len(size) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in size)
    ):
        raise UsageError(f"size is (rows, columns), a number or 'WxH', got {size!r}")
    if min(size) < 1:
        raise UsageError(f"size must be at least 1x1, got {size[0]}x{size[1]} (rows x columns)")
    return tuple(size)


def _picture(picture):
    """(what Pillow opens, the picture's name) for a path, a shipped picture's name, or a picture's bytes."""
    import io

    from ..puzzle.making import design as maker

    if isinstance(picture, (bytes, bytearray)):
        data = io.BytesIO(bytes(picture))
        data.name = "picture"
        return data, "picture"
    path = maker.picture_path(str(picture))
    return path, path.name


def make_design(picture, size, *, steps=None, seed: int | None = None, threshold: float = 0.5,
                max_changes: int | None = None, pool: int | None = None, timeout: float | None = None) -> Made:  # fmt: skip
    """``design`` and how it went (a ``Made`` with the scaled picture); ``picture`` a path, a shipped picture's
    name or a PNG/JPEG file's bytes."""
    from ..puzzle.making import design as maker
    from ..puzzle.making import generate as gen

    n, m = _design_size(size)
    wanted = steps_range(steps)
    pool = tuning.DESIGN_POOL if pool is None else pool
    with usage_errors():  # DesignError too: a picture that cannot be read is bad input
        if max_changes is not None and max_changes < 0:
            raise ValueError(f"--max-changes must be at least 0, got {max_changes}")
        gen.validate(n, m, wanted, timeout=timeout)
        source, name = _picture(picture)
        grey = maker.load_grey(source, n, m)
        maker.validate(grey, threshold, wanted, pool)
    return _designed(grey, n, m, f"{name}, {m}x{n} (columns x rows)", name, wanted, seed, threshold, max_changes, pool,
                     timeout)  # fmt: skip


def _designed(grey, n, m, title, name, wanted, seed, threshold, max_changes, pool, timeout=None) -> Made:
    from ..puzzle.making import design as maker

    seed, start = _seed(seed), time.perf_counter()
    try:
        made = maker.design(grey, threshold, wanted, seed, max_changes, pool, timeout)
    except maker.DesignError as err:
        raise maker.DesignError(f"{err} (seed {seed})") from None
    p = replace(from_grid(made.grid, n, m, title), author="localcount design")
    return Made(Puzzle.of(p), made, seed, time.perf_counter() - start, grey, name)


def simplify(grid, *, seed: int | None = None, steps=None, timeout: float | None = None) -> Made:
    """A simple puzzle close to a drawing (lists of 0/1, strings or an array): ``design``'s repair on the drawing,
    changing as few cells as local logic needs; ``made.made.changed`` is the mask of the cells it changed.
    ``timeout``: give up (DesignError) after this many seconds."""
    from ..puzzle.making import generate as gen
    from .puzzles import grid_cells

    rows = grid_cells(grid)
    n, m = len(rows), len(rows[0]) if rows else 0
    wanted = steps_range(steps)
    with usage_errors():
        gen.validate(n, m, wanted, timeout=timeout)
    grey = [[0.0 if v else 1.0 for v in row] for row in rows]
    return _designed(grey, n, m, f"drawing, {m}x{n} (columns x rows)", "drawing", wanted, seed, 0.5, None,
                     tuning.DESIGN_POOL, timeout)  # fmt: skip


def design(picture, size, *, steps=None, seed: int | None = None, threshold: float = 0.5,
           max_changes: int | None = None, timeout: float | None = None) -> Puzzle:  # fmt: skip
    """A simple puzzle that looks like a picture (a PNG or JPEG file, or a shipped picture's name such as 'heart'),
    ``size`` (rows, columns) or a number for a square: the picture scaled and thresholded, then as few cells
    changed as local logic needs; ``timeout``: give up (``DesignError``) after that many seconds.  Needs the
    ``pictures`` extra (Pillow)."""
    return make_design(picture, size, steps=steps, seed=seed, threshold=threshold, max_changes=max_changes,
                       timeout=timeout).puzzle  # fmt: skip
