"""Simple puzzles that look like a picture: threshold a grey-level image, then change as few cells as needed.

``load_grey`` reads a PNG or JPEG (Pillow, the optional extra ``pictures``)
and scales it to n rows and m columns by averaging (grey 0 black .. 1
white; transparent parts count as white).  ``design`` then:

1. **threshold** — a cell is filled where its grey level is below
   ``threshold``: the *target* grid;
2. **repair** — while local logic leaves cells unknown, flip one of them:
   among the ``pool`` unknown cells whose grey level is closest to the
   threshold (the cells the picture cares least about; ties broken by the
   seed), the flip after which local logic knows the most cells.  Only
   flips that make local logic know strictly more cells are taken, and a
   cell is never flipped twice, so the repair ends, and it changes at most
   as many cells as local logic left unknown on the target (``bound``).  If
   no cell of the pool helps, the pool widens to every unknown cell; if no
   unknown cell helps at all, the best flip is taken anyway (a
   ``detour``, counted, after which the bound no longer holds);
3. **difficulty** (optional, ``steps`` = (lo, hi)) — while the difficulty
   is outside the range, flip the cell that keeps the puzzle simple and
   moves its difficulty furthest towards the range (fewer steps, or as
   many with fewer cells unknown on the way, when too hard; the reverse
   when too easy), tried among the ``pool`` cells closest to the threshold
   of those local logic decides in its last step (too hard) or last two
   steps (too easy), then among 2·``pool`` others, then among all cells
   not flipped yet.  Only moves towards the range are taken, so this ends
   too; it fails (DesignError) when no flip moves towards the range.

This is a greedy search in the spirit of Batenburg, Henstra, Kosters and
Palenstijn, "Constructing simple nonograms of varying difficulty" (2009),
who also flip undecided cells scored by how much local logic then decides;
the scoring, the pools and the difficulty moves here are this project's own.
Every result is checked (``generate.check``): local logic solves its clues
alone, to the grid returned, in the steps reported.

Imports ``clues``, ``tuning``, ``solving.logic`` and ``generate`` (Pillow lazily, in ``load_grey``).
"""

from __future__ import annotations

import pathlib
import random
import time
from dataclasses import dataclass

from ... import tuning
from ...clues import Grid, grid_clues
from ..solving import logic
from . import generate

#: The shipped pictures (drawn by ``scripts/make_pictures.py``).
PICTURES = pathlib.Path(__file__).resolve().parent.parent / "shipped" / "pictures"


class DesignError(ValueError):
    """No design as asked, or a picture that cannot be read (a one-line reason)."""


@dataclass(frozen=True)
class Design:
    """A designed puzzle: its solution ``grid`` beside the thresholded ``target``, and how it was reached."""

    n: int
    m: int
    grid: Grid
    target: Grid
    steps: int  # difficulty of the puzzle, in steps
    bound: int  # cells local logic left unknown on the target: the repair changes at most these many
    tried: int  # flips tried (local logic runs)
    detours: int = 0  # repair flips taken though they did not help (0: the bound holds)

    @property
    def changed(self) -> Grid:
        """Grid mask of the cells that differ from the thresholded picture."""
        return self.grid ^ self.target

    @property
    def changes(self) -> int:
        """How many cells differ from the thresholded picture."""
        return bin(self.changed).count("1")

    @property
    def filled(self) -> int:
        """Filled cells."""
        return bin(self.grid).count("1")


def shipped() -> list:
    """The names of the shipped pictures (``heart``, ...), sorted."""
    return sorted(p.stem for p in PICTURES.glob("*.png"))


def picture_path(name: str) -> pathlib.Path:
    """The file of a picture: a path, or the name of a shipped picture ('heart', or 'heart.png') when no such file exists."""
    path = pathlib.Path(name)
    if not path.exists() and name in shipped():
        return PICTURES / f"{name}.png"
    if (
        not path.exists()
        and path.parent == pathlib.Path(".")
        and path.suffix.lower() == ".png"
        and path.stem in shipped()
    ):
        return PICTURES / path.name  # 'heart.png' where no such file is: the shipped picture
    return path


def parse_size(text: str) -> tuple:
    """(n, m) = (rows, columns) from 'WxH' (W columns, H rows) or 'N' (a square)."""
    parts = (text or "").lower().split("x")
    if len(parts) > 2 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(f"size looks like 20x15 (columns x rows) or 20; got {text!r}")
    w, h = (int(p) for p in parts * (2 // len(parts)))
    if w < 1 or h < 1:
        raise ValueError(f"size must be at least 1x1, got {text!r}")
    return h, w


def load_grey(path, n: int, m: int) -> list:
    """The picture at ``path`` (or in a binary file object) scaled to n rows × m columns: n lists of m grey levels,
    0 black .. 1 white.  A picture over Pillow's decompression-bomb limit is refused."""
    try:
        from PIL import Image, UnidentifiedImageError
    except ImportError as err:
        raise DesignError("reading pictures needs Pillow: pip install 'localcount[pictures]'") from err
    name = path if isinstance(path, (str, pathlib.PurePath)) else getattr(path, "name", "picture")
    try:
        with Image.open(path) as img:
            img.load()
            rgba = img.convert("RGBA")
    except FileNotFoundError:
        raise DesignError(f"{name}: no such file (shipped pictures: {', '.join(shipped())})") from None
    except UnidentifiedImageError:
        raise DesignError(f"{name}: not a picture Pillow can read (PNG, JPEG, ...)") from None
    except Image.DecompressionBombError:
        raise DesignError(f"{name}: the picture has too many pixels (over {Image.MAX_IMAGE_PIXELS} x 2)") from None
    except (OSError, SyntaxError, ValueError) as err:
        raise DesignError(f"{name}: cannot read the picture ({err})") from None
    white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
    grey = Image.alpha_composite(white, rgba).convert("L")
    box = getattr(Image, "Resampling", Image).BOX  # the mean of the pixels each cell covers
    small = grey.resize((m, n), box)
    values = small.tobytes()  # one byte per pixel, row by row
    return [[values[r * m + c] / 255 for c in range(m)] for r in range(n)]


def threshold_grid(grey: list, threshold: float) -> Grid:
    """The grid filled where the grey level is below ``threshold``."""
    m = len(grey[0]) if grey else 0
    return sum(1 << (r * m + c) for r, row in enumerate(grey) for c, v in enumerate(row) if v < threshold)


def validate(grey: list, threshold: float = 0.5, steps=None, pool: int | None = None) -> None:
    """DesignError for arguments no design can meet (before any work); ``pool`` None: ``tuning.DESIGN_POOL``."""
    pool = tuning.DESIGN_POOL if pool is None else pool
    n, m = len(grey), len(grey[0]) if grey else 0
    if n < 1 or m < 1 or any(len(row) != m for row in grey):
        raise DesignError(f"the picture must be a grid of at least 1x1 grey levels, got {n} rows")
    if not 0.0 <= threshold <= 1.0:
        raise DesignError(f"threshold must be between 0 and 1, got {threshold}")
    if pool < 1:
        raise DesignError(f"pool must be at least 1, got {pool}")
    try:
        generate.validate(n, m, steps)
    except generate.GenerateError as err:
        raise DesignError(str(err)) from None


class _Search:
    """The state of one design: the grid, the cells not to flip again, the order cells are preferred in."""

    def __init__(self, grey: list, threshold: float, seed: int, pool: int, timeout: float | None = None):
        self.n, self.m = len(grey), len(grey[0])
        self.timeout = timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout
        rng = random.Random(seed)
        cells = range(self.n * self.m)
        near = {k: (abs(grey[k // self.m][k % self.m] - threshold), rng.random()) for k in cells}
        self.preferred = sorted(cells, key=near.__getitem__)  # closest to the threshold first
        self.pool = pool
        self.grid = threshold_grid(grey, threshold)
        self.frozen = 0  # cells flipped once already
        self.tried = 0

    def known(self, grid: Grid) -> logic.Outcome:
        """Local logic on a grid's clues."""
        self.count()
        return logic.propagate(*grid_clues(grid, self.n, self.m))

    def steps(self, grid: Grid) -> int | None:
        """The difficulty of a grid's clues in steps (None: not simple)."""
        self.count()
        return generate.steps_of(grid, self.n, self.m)

    def count(self) -> None:
        """One more grid tried; DesignError once the time limit has passed."""
        self.tried += 1
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise DesignError(f"gave up after {self.timeout:g} s and {self.tried} grids tried; try a smaller grid")

    def among(self, mask: int, limit: int | None) -> list:
        """Up to ``limit`` cells of ``mask`` not flipped yet, closest to the threshold first."""
        free = mask & ~self.frozen
        picked = [k for k in self.preferred if free >> k & 1]
        return picked if limit is None else picked[:limit]

    def flip(self, k: int) -> None:
        """Flip cell k for good."""
        self.grid ^= 1 << k
        self.frozen |= 1 << k


def _best_flip(s: _Search, unknown: int, known: int):
    """(cell, known after) of the flip among the pool (then all) unknown cells that most raises known cells."""
    best = None
    for limit in (s.pool, None):
        for k in s.among(unknown, limit):
            out = s.known(s.grid ^ 1 << k)
            score = out.known.bit_count() if out.status != logic.CONTRADICTION else -1
            if out.status == logic.SOLVED:
                return k, score
            if best is None or score > best[1]:
                best = (k, score)
        if best is not None and best[1] > known:
            return best
    return best


def repair(s: _Search) -> int:
    """Flip cells until local logic solves the grid (step 2 of the module docstring); the detours taken."""
    detours = 0
    while True:
        out = s.known(s.grid)
        if out.status == logic.SOLVED:
            return detours
        known = out.known.bit_count()
        best = _best_flip(s, ((1 << s.n * s.m) - 1) & ~out.known, known)
        if best is None:
            raise DesignError(f"no cell left to flip after {s.frozen.bit_count()} changes; try another --seed")
        detours += best[1] <= known
        s.flip(best[0])


def _late_cells(s: _Search, last: bool) -> int:
    """Grid mask of the cells local logic decides in its last step (``last``) or its last two steps."""
    n, m = s.n, s.m
    board, record, halves = logic.Board(n, m), [], []
    logic.settle(board, *grid_clues(s.grid, n, m), steps=record, halves=halves)
    total = halves.index(n * m) + 1
    first = total - (1 if last else 2)
    cells, known, step = 0, 0, 0
    for rec in record:
        known += (rec.filled | rec.empty).bit_count()
        while halves[step] < known:
            step += 1
        if step >= first:
            cells |= rec.filled | rec.empty
    return cells


def _profile(s: _Search, grid: Grid):
    """(steps, unknown) of a grid's clues: its difficulty, and the unknown cells summed over the steps
    before the last (how slowly local logic gets there); None if local logic does not solve it."""
    s.tried += 1
    n, m = s.n, s.m
    board, halves = logic.Board(n, m), []
    if logic.settle(board, *grid_clues(grid, n, m), halves=halves) is not None or not board.solved():
        return None
    steps = halves.index(n * m) + 1 if n * m else 0
    return steps, sum(n * m - h for h in halves[: steps - 1])


def reach(s: _Search, steps: tuple, now: int, limit: int) -> int:
    """Flip cells until the difficulty lies in ``steps`` (step 3 of the module docstring); the steps reached.

    A flip is taken only if the puzzle stays simple and its (steps,
    unknown) profile moves strictly towards the range: fewer steps, or as
    many with fewer cells unknown on the way, when it is too hard; the
    reverse when too easy (never past the other end of the range).
    """
    lo, hi = steps
    here = _profile(s, s.grid)
    while not generate.within(here[0], steps):
        if s.frozen.bit_count() >= limit:
            raise DesignError(f"difficulty {here[0]} steps, not {_range(steps)}, after {limit} changed cells")
        sign = -1 if hi is not None and here[0] > hi else 1  # -1: make it easier
        late = _late_cells(s, last=sign < 0)
        best = None
        for cells in (s.among(late, s.pool), s.among(~late, 2 * s.pool), s.among(-1, None)):
            for k in cells:
                found = _profile(s, s.grid ^ 1 << k)
                if found is None or (hi is not None and sign > 0 and found[0] > hi) or found[0] < lo and sign < 0:
                    continue
                score = (sign * found[0], sign * found[1])
                if score > (sign * here[0], sign * here[1]) and (best is None or score > best[1]):
                    best = (k, score, found)
            if best is not None:
                break
        if best is None:
            raise DesignError(
                f"difficulty {here[0]} steps and no flip moves it towards {_range(steps)}; try another --seed"
            )
        s.flip(best[0])
        here = best[2]
    return here[0]


def _range(steps: tuple) -> str:
    """'3-5 steps'."""
    lo, hi = steps
    return f"{lo} steps" if lo == hi else f"{lo}-{'' if hi is None else hi} steps"


def design(grey: list, threshold: float = 0.5, steps: tuple | None = None, seed: int = 0, max_changes: int | None = None,
           pool: int | None = None, timeout: float | None = None) -> Design:  # fmt: skip
    """A checked simple puzzle close to the picture ``grey`` (n rows of m grey levels; module docstring).

    ``steps``: (lo, hi) difficulty range (hi None: no upper bound), or None
    for any; ``max_changes``: give up (DesignError) past this many changed
    cells (default: no limit but the grid); ``pool``: unknown cells tried
    per flip (default ``tuning.DESIGN_POOL``); ``timeout``: give up
    (DesignError) after this many seconds (default: never).
    """
    pool = tuning.DESIGN_POOL if pool is None else pool
    validate(grey, threshold, steps, pool)
    s = _Search(grey, threshold, seed, pool, timeout)
    target, n, m = s.grid, s.n, s.m
    first = s.known(target)
    bound = n * m - first.known.bit_count()
    detours = repair(s)
    now = s.steps(s.grid)
    limit = n * m if max_changes is None else max_changes
    if s.frozen.bit_count() > limit:
        raise DesignError(f"local logic needs {s.frozen.bit_count()} changed cells, more than --max-changes {limit}")
    if steps is not None:
        now = reach(s, steps, now, limit)
    made = generate.check(generate.Made(n, m, s.grid, now, "design", s.tried))
    return Design(n, m, made.grid, target, made.steps, bound, s.tried, detours)
