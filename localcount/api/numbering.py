"""Every locally solvable puzzle by its number: ``nth``, ``rank``, ``iter_puzzles``, and the stored numbering behind them.

The order (``docs/numbering.md``; stated once in ``engines.numbering.order``): a grid's number is g = Σ cell(r, c) · 2^(n·m − 1 − (r·m + c)),
cells read row by row with the top-left most significant; the locally solvable n×m grids are
puzzles #1, #2, ... in increasing g (#1 is the empty grid).  With ``steps`` (a number d, or a range
``(a, b)`` or ``"a-b"``) only the puzzles local logic solves in those steps are numbered, in the
same order: "the k-th puzzle of d steps".

Answers come from the stored numbering (its files are the *index*): each block of grids (those
sharing their top rows) with its histogram of steps, counted once by the numbering engine
(``engines.numbering``) and kept in a file (``results.numberings``): the package ships some sizes, others are built on first use in the data
directory — sharded and checkpointed like a count, so an interrupted build resumes — and checked
against the recorded count of the size before they are used.  A query then finds the block by its
cumulative counts and runs local logic over that one block.

Errors: ``UsageError`` (bad size, number or steps: one line), ``NotNumbered`` (a grid that local
logic does not solve, or not in the steps asked: it has no number), ``NumberingFileError``, ``Stopped``.
"""

from __future__ import annotations

import functools
import os
import pathlib
import time
from dataclasses import dataclass

from .. import tuning
from ..util import cores
from ..util.errors import UsageError, usage_errors
from .counting import check_jobs, size
from .feedback import Feedback, said_if_slow


class NotNumbered(ValueError):
    """A grid with no number in the order asked for: local logic does not solve it (or not in those steps)."""


@dataclass(frozen=True)
class Numbered:
    """Puzzle #k of the order: its grid (rows as '0'/'1' strings), its steps, and how many the order has."""

    n: int
    m: int
    variant: str
    k: int  # its number, from 1
    of: int  # how many puzzles the order has
    number: int  # the grid's number g among all 2^(n·m) grids, from 0
    steps: int  # local logic's steps to solve it
    rows: tuple  # '0'/'1' strings, top to bottom
    filter: tuple | None = None  # (a, b): the order numbers only puzzles of a..b steps; None: every puzzle

    @property
    def grid(self):
        """The grid as an n×m numpy array of bools."""
        import numpy as np

        return np.array([[c == "1" for c in row] for row in self.rows], dtype=bool).reshape(self.n, self.m)

    @property
    def title(self) -> str:
        """E.g. '5x5 puzzle #1234 of 24976511 (3 steps)', or '5x5 puzzle #5 of 633400 with 7 steps'."""
        family = f"{self.n}x{self.m}{_family(self.variant)}"
        if self.filter is None:
            return f"{family} puzzle #{self.k} of {self.of} ({_count_steps(self.steps)})"
        within = f"with {_steps_text(self.filter)}" + (
            "" if self.filter[0] == self.filter[1] else f" ({_count_steps(self.steps)})"
        )
        return f"{family} puzzle #{self.k} of {self.of} {within}"

    @property
    def puzzle(self):
        """The puzzle (``Puzzle``): the grid's clues, the grid as its goal, its number in the title and catalogue."""
        import dataclasses

        from ..puzzle.model import from_grid
        from .puzzles import Puzzle

        model = from_grid(grid_of_number(self.number, self.n, self.m), self.n, self.m, self.title, self.variant)
        return Puzzle.of(
            dataclasses.replace(model, catalogue=f"localcount {self.n}x{self.m}{_family(self.variant)} #{self.k}")
        )

    def to_json(self) -> dict:
        """What ``nth --json`` prints."""
        out = {"k": self.k, "of": self.of, "n": self.n, "m": self.m, "variant": self.variant, "grid": list(self.rows),
               "steps": self.steps, "number": self.number}  # fmt: skip
        if self.filter is not None:
            out["within_steps"] = list(self.filter)
        return out


def _family(variant: str) -> str:
    return "" if variant == "nonogram" else f" {variant}"


def _count_steps(d: int) -> str:
    return f"{d} step{'' if d == 1 else 's'}"


def _steps_text(steps: tuple) -> str:
    a, b = steps
    return _count_steps(a) if a == b else f"{a}-{b} steps"


# --- the order ---


def number_of(rows) -> int:
    """The number g of a grid given as rows of 0/1 cells (``engines.numbering.order``: the top-left cell most significant)."""
    from ..engines.numbering.order import number

    words = ["".join(str(int(v)) for v in row) for row in rows]
    return number([int(w or "0", 2) for w in words], len(words[0]) if words else 0)


def rows_of_number(g: int, n: int, m: int) -> tuple:
    """The rows ('0'/'1' strings, the left cell first) of the n×m grid numbered g (``engines.numbering.order``)."""
    from ..engines.numbering.order import rows

    return tuple(format(row, f"0{m}b") if m else "" for row in rows(g, n, m))


def grid_of_number(g: int, n: int, m: int) -> int:
    """The Grid mask (``clues.Grid``: bit r·m + c is cell (r, c)) of the grid numbered g."""
    from ..clues import grid_from_rows

    return grid_from_rows([int(row[::-1] or "0", 2) for row in rows_of_number(g, n, m)], m)


def steps_range(steps) -> tuple | None:
    """(a, b) from None, d, (a, b) or the text 'd' / 'a-b'; UsageError if it is none of them."""
    if steps is None:
        return None
    text = steps if isinstance(steps, str) else "-".join(map(str, steps)) if isinstance(steps, (tuple, list)) else steps
    try:
        if isinstance(text, str):
            parts = [int(p) for p in text.split("-")] if text.strip() else []
            a, b = (parts[0], parts[0]) if len(parts) == 1 else parts
        else:
            if isinstance(text, bool) or not hasattr(text, "__index__"):
                raise TypeError
            a = b = int(text)
    except (ValueError, TypeError):
        raise UsageError(f"steps must be a number d or a range a-b, got {steps!r}") from None
    if not 1 <= a <= b:
        raise UsageError(f"steps must be at least 1, with a <= b in a range a-b; got {steps!r}")
    return a, b


def numbering_size(n, m=None) -> tuple:
    """(n, m) of a size that can be numbered; UsageError if none can (too many grids, lines too long)."""
    from ..engines.numbering.prepare import check_numbering_size

    with usage_errors():
        check_numbering_size(n, n if m is None else m)
    return size(n, m)


# --- the stored numbering: loaded, or built on first use ---


class Numbering:
    """The stored numbering of one size and family, and the queries on it (``nth``, ``rank``, ``puzzles``)."""

    def __init__(self, idx):
        import numpy as np

        self.file = idx
        self.n, self.m, self.variant = idx.n, idx.m, idx.variant
        self.bits = idx.block_bits
        counts = np.zeros((len(idx.counts), self.n * self.m + 3), np.int64)
        counts[:, : idx.counts.shape[1]] = idx.counts
        self.counts = counts
        self._cumulative = {}

    def cumulative(self, steps: tuple | None):
        """Puzzles (of ``steps``) in blocks 0 .. i, for each block i."""
        if steps not in self._cumulative:
            lo, hi = (
                (1, self.counts.shape[1] - 1)
                if steps is None
                else (steps[0] + 1, min(steps[1] + 1, self.counts.shape[1] - 1))
            )
            per_block = self.counts[:, lo : hi + 1].sum(axis=1) if lo <= hi else self.counts[:, 0] * 0
            self._cumulative[steps] = per_block.cumsum()
        return self._cumulative[steps]

    def total(self, steps: tuple | None = None) -> int:
        """How many puzzles the order has."""
        return int(self.cumulative(steps)[-1])

    @functools.lru_cache(maxsize=32)  # noqa: B019 (a Numbering lives as long as the process's cache of them)
    def piece_codes(self, block: int, piece: int):
        """The codes of one piece (2^``tuning.EVERY_PIECE_BITS`` grids at most) of a block: 0 stuck, 1 + steps if
        solved.  The last 32 pieces are kept: the next and previous puzzles are usually in one of them."""
        from ..engines.numbering.count import codes

        bits = min(self.bits, tuning.EVERY_PIECE_BITS)
        return codes(self.n, self.m, (block << self.bits) + (piece << bits), 1 << bits, self.variant)

    def _pieces(self, block: int):
        """(first grid number, codes) of each piece of a block, in order (computed as they are asked for)."""
        bits = min(self.bits, tuning.EVERY_PIECE_BITS)
        for piece in range(1 << (self.bits - bits)):
            yield (block << self.bits) + (piece << bits), self.piece_codes(block, piece)

    @staticmethod
    def _matches(codes, steps: tuple | None):
        return codes > 0 if steps is None else (codes >= steps[0] + 1) & (codes <= steps[1] + 1)

    def numbered(self, k: int, g: int, code: int, steps) -> Numbered:
        return Numbered(
            self.n, self.m, self.variant, k, self.total(steps), g, code - 1, rows_of_number(g, self.n, self.m), steps
        )

    def nth(self, k: int, steps: tuple | None = None) -> Numbered:
        """Puzzle #k (from 1) of the order; UsageError if there is none."""
        import numpy as np

        cum = self.cumulative(steps)
        total = int(cum[-1])
        if isinstance(k, bool) or not hasattr(k, "__index__"):
            raise UsageError(f"k must be an integer, got {k!r}")
        if total == 0:
            raise UsageError(f"there are no {self.n}x{self.m}{_family(self.variant)} puzzles of {_steps_text(steps)}")
        if not 1 <= k <= total:
            raise UsageError(f"k must be between 1 and {total} ({self.n}x{self.m}{_family(self.variant)} puzzles"
                             f"{'' if steps is None else ' of ' + _steps_text(steps)}), got {k}")  # fmt: skip
        block = int(np.searchsorted(cum, k))
        left = k - (int(cum[block - 1]) if block else 0)  # the left-th puzzle of the block
        for first, codes in self._pieces(block):
            found = np.flatnonzero(self._matches(codes, steps))
            if left <= len(found):
                j = int(found[left - 1])
                return self.numbered(k, first + j, int(codes[j]), steps)
            left -= len(found)
        raise AssertionError(
            f"block {block} of the {self.n}x{self.m} index has fewer puzzles than it says"
        )  # pragma: no cover

    def rank(self, g: int, steps: tuple | None = None) -> Numbered:
        """The puzzle whose grid is numbered g; NotNumbered if local logic does not solve it (in ``steps``)."""
        from ..engines.numbering.count import codes as range_codes

        if isinstance(g, bool) or not hasattr(g, "__index__") or not 0 <= g < 1 << (self.n * self.m):
            raise UsageError(f"a {self.n}x{self.m} grid's number is between 0 and 2^{self.n * self.m} - 1, got {g!r}")
        code = int(range_codes(self.n, self.m, g, 1, self.variant, parallel=False)[0])
        if code == 0:
            raise NotNumbered("local logic does not solve this grid's clues: it has no number")
        if steps is not None and not steps[0] <= code - 1 <= steps[1]:
            raise NotNumbered(f"local logic solves this grid in {_count_steps(code - 1)}, not {_steps_text(steps)}: "
                              "it has no number there")  # fmt: skip
        block = g >> self.bits
        cum = self.cumulative(steps)
        k = (int(cum[block - 1]) if block else 0) + 1
        for first, codes in self._pieces(block):
            if g < first + len(codes):
                return self.numbered(k + int(self._matches(codes[: g - first], steps).sum()), g, code, steps)
            k += int(self._matches(codes, steps).sum())
        raise AssertionError("a grid outside its block")  # pragma: no cover

    def puzzles(self, start: int = 1, steps: tuple | None = None):
        """Puzzles #start, #start + 1, ... of the order, one block at a time (UsageError now if there is no #start)."""
        return self._from(self.nth(start, steps), steps)

    def _from(self, first: Numbered, steps: tuple | None):
        import numpy as np

        start = first.k
        block = first.number >> self.bits
        k = start
        cum = self.cumulative(steps)
        while block < len(cum):
            if cum[block] == (cum[block - 1] if block else 0):  # nothing of these steps here
                block += 1
                continue
            for start, codes in self._pieces(block):
                if start + len(codes) <= first.number:
                    continue
                for j in np.flatnonzero(self._matches(codes, steps)):
                    if start + int(j) >= first.number:
                        yield self.numbered(k, start + int(j), int(codes[j]), steps)
                        k += 1
            block += 1


@functools.lru_cache(maxsize=8)
def _numbering(path: str, mtime: float) -> Numbering:
    from ..results.numberings import read

    return Numbering(read(path))


def numbering(n, m=None, *, variant: str = "nonogram", build: bool = True, jobs: int | None = None,
              checkpoint_dir=None, progress: bool = False, feedback: Feedback | None = None) -> Numbering:  # fmt: skip
    """The stored numbering of n×m (loaded, or built on first use unless ``build`` is false: then UsageError)."""
    from ..results.numberings import find

    n, m = numbering_size(n, m)
    variant = _check_variant(variant)
    path = find(n, m, variant)
    if path is None:
        if not build:
            raise UsageError(f"{n}x{m}{_family(variant)} has no index yet: build it with "
                             f"python -m localcount index {n} {m}{'' if variant == 'nonogram' else ' --variant ' + variant}")  # fmt: skip
        path = build_numbering(
            n, m, variant=variant, jobs=jobs, checkpoint_dir=checkpoint_dir, progress=progress, feedback=feedback
        )
    return _numbering(str(path), os.path.getmtime(path))


def _check_variant(variant: str) -> str:
    from ..clues import check_variant

    with usage_errors():
        return check_variant(variant)


class NumberingMismatch(Exception):
    """A built numbering that disagrees with the recorded count of its size: not kept, never used."""


def build_numbering(n, m=None, *, variant: str = "nonogram", symmetry: str = "mirror", jobs: int | None = None,
                checkpoint_dir=None, fresh: bool = False, directory=None, progress: bool = False,
                feedback: Feedback | None = None):  # fmt: skip
    """Count the numbering of n×m with the numbering engine and write its file (``directory``, else the data directory).

    Runs expected to take more than ``tuning.EVERY_IN_PROCESS_SECONDS`` are sharded and checkpointed (``checkpoint_dir``,
    else the default), so an interrupted build resumes.  The numbering's total must equal the recorded
    count of the size (``known``), when there is one: NumberingMismatch otherwise, and nothing is written.
    Returns the file's path.
    """
    from ..engines.registry import engine
    from ..results import numberings
    from ..util.provenance import cpu_model

    n, m = numbering_size(n, m)
    variant = _check_variant(variant)
    check_jobs(jobs)
    feedback = feedback or Feedback.library(progress)
    with usage_errors():
        lay = engine("numbering").make(n, m, symmetry=symmetry, variant=variant)
    jobs = jobs or cores.usable()
    with said_if_slow(f"compiling the numbering kernels for {n}x{m} (once: they are cached on disk)", feedback.quiet):
        lay.warm()
    est = lay.estimate_one_core() / jobs
    start = time.perf_counter()
    if est < tuning.EVERY_IN_PROCESS_SECONDS and not (checkpoint_dir or fresh):
        bar = feedback.progress_bar(int(lay.shard_work().sum()), f"{n}x{m} index")
        with bar:
            total, threads = lay.in_process(jobs, lambda grids: bar.update(grids - bar.n))
        seconds = time.perf_counter() - start
        run = {
            "where": f"{threads} threads",
            "computed": lay.shards,
            "compute_s": round(seconds * threads, 3),
            "cpu": cpu_model(),
        }
    else:
        total, run = _sharded(lay, jobs, checkpoint_dir, fresh, feedback, est)
    counts = lay.finish(total)
    idx = numberings.NumberingFile(n, m, variant, lay.rows, counts, {})
    checked = _check_against_records(idx)
    meta = _provenance(lay, idx, dict(run, seconds=round(time.perf_counter() - start, 3)), checked)
    path = pathlib.Path(directory or numberings.data_dir()) / numberings.name(n, m, variant)
    numberings.write(path, numberings.NumberingFile(n, m, variant, lay.rows, counts, meta))
    return path


def _sharded(lay, jobs: int, directory, fresh: bool, feedback: Feedback, est: float) -> tuple:
    """(total, where, shards computed): a checkpointed build over ``jobs`` worker processes."""
    from ..orchestration.checkpoint import default_dir, work_and_machines
    from ..orchestration.runner import run, setup_logging
    from ..util.messages import format_seconds, say

    if feedback.logging:
        setup_logging(None, feedback.quiet)

    def announce(todo: int, shards: int) -> None:  # once the checkpoint has said what is left
        if feedback.estimates and est * todo / shards > 60:
            say(f"building the {lay.n}x{lay.m} index: 2^{lay.n * lay.m} grids, {todo} of {shards} shards to go, "
                f"estimated {format_seconds(est * todo / shards)} on {jobs} processes")  # fmt: skip

    bar = feedback.progress_bar(lay.shards * lay.grids_per_shard, f"{lay.n}x{lay.m} index")
    with bar:
        out = run(lay, directory or default_dir(), jobs, (0, 1), fresh, lambda g: bar.update(g - bar.n), announce)
    if feedback.notices and out.computed < out.shards:
        say(f"{out.shards - out.computed} of {out.shards} shards from the checkpoint {out.path}")
    compute_s, machines = work_and_machines(out.path)
    return out.total, {"where": f"{jobs} processes", "computed": out.computed, "compute_s": round(compute_s, 3),
                       "cpu": machines, "checkpoint": out.path}  # fmt: skip


def _check_against_records(idx) -> list:
    """What the numbering agrees with: the recorded count of its size (NumberingMismatch if it disagrees)."""
    from ..results import records

    row = records.known(idx.n, idx.m, idx.variant)
    if row is None:
        return []
    if idx.solvable != row.count:
        raise NumberingMismatch(f"the {idx.n}x{idx.m} index has {idx.solvable} solvable grids, the recorded count is "
                            f"{row.count}: the index is wrong and was not kept")  # fmt: skip
    return [f"count {row.count} ({row.layouts})"]


def _provenance(lay, idx, run: dict, checked: list) -> dict:
    """The numbering file's meta: totals, this run (``run``: where, computed shards, seconds, shard seconds, cpu), checks."""
    from ..util.provenance import git_commit, utc_now
    from ..util.version import __version__

    run = {"key": lay.key, "code_path": lay.code_path, "shards": lay.shards, **run, "version": __version__,
           "commit": git_commit(), "date": utc_now()}  # fmt: skip
    return {"grids": 1 << (lay.n * lay.m), "solvable": idx.solvable, "steps": {str(k): v for k, v in idx.steps().items()},
            "runs": [run], "checked": checked}  # fmt: skip


def first_row_counts(n: int, m: int, variant: str = "nonogram"):
    """Locally solvable n×m grids per value of the top row (numbered as grids are), by the *grid* engine.

    An independent path for a numbering's numbers (``check_first_rows``): the general counting kernel with
    the flips, one shard per border (row 0, row n−1), each shard's weighted count divided by its orbit's
    size and given to every border of the orbit.  n >= 2.
    """
    import numpy as np

    from ..engines.enumeration import border_code, border_values
    from ..engines.grid.count import count_shards, plan
    from ..engines.numbering.prepare import mirror

    if n < 2 or n * m == 0:
        raise ValueError("first_row_counts needs two rows or more")
    shards = np.arange(1 << (2 * m), dtype=np.int64)
    order = np.random.default_rng(0).permutation(len(shards))  # the borders that count are the low ones: spread them
    values = np.zeros(len(shards), np.int64)
    values[order] = count_shards(plan(n, m, shard_bits=2 * m), shards[order], "flips", variant=variant)
    a, b = border_values(shards, n, m)  # a shard of 2m bits is one border: row 0 and row n-1
    ra, rb = mirror(a, m, 1), mirror(b, m, 1)
    images = np.stack([shards, border_code(b, a, n, m), border_code(ra, rb, n, m), border_code(rb, ra, n, m)])
    rep = images.min(axis=0)
    orbit = np.array([len(set(col)) for col in images.T.tolist()])
    per_border = values[rep] // orbit[rep]
    if not (values[rep] == per_border * orbit[rep]).all():
        raise NumberingMismatch(f"{n}x{m}: a border's weighted count is not a multiple of its orbit's size")
    out = np.zeros(1 << m, np.int64)
    np.add.at(
        out, mirror(a, m, 1), per_border
    )  # the kernel's row 0 has cell c at bit c; a grid's number reads it from the left
    return out


def check_first_rows(idx) -> str:
    """Compare a numbering (``results.numberings.NumberingFile``) with ``first_row_counts``: NumberingMismatch if they differ; what was checked."""
    import numpy as np

    if idx.rows < 1:
        raise ValueError("the index has one block: it has no per-row numbers to compare")
    ours = np.zeros(1 << idx.m, np.int64)
    np.add.at(ours, np.arange(len(idx.counts)) >> ((idx.rows - 1) * idx.m), idx.counts[:, 1:].sum(axis=1))
    theirs = first_row_counts(idx.n, idx.m, idx.variant)
    if not np.array_equal(ours, theirs):
        bad = int(np.flatnonzero(ours != theirs)[0])
        raise NumberingMismatch(f"{idx.n}x{idx.m}: top row {bad:0{idx.m}b}: the index has {int(ours[bad])} solvable grids, "
                            f"the grid engine {int(theirs[bad])}")  # fmt: skip
    return f"solvable grids per top row: the grid engine with the flips ({1 << idx.m} rows agree)"


def check_steps(idx, steps: dict, source: str) -> str:
    """Compare a numbering's steps histogram with a recorded one ({d: grids}): NumberingMismatch if they differ."""
    ours = idx.steps()
    if ours != {int(k): int(v) for k, v in steps.items()}:
        raise NumberingMismatch(f"{idx.n}x{idx.m}: the index's steps {ours} differ from {source}'s {steps}")
    return f"steps histogram: {source}"


# --- the public functions ---


def nth(
    n: int, m: int, k: int, *, variant: str = "nonogram", steps=None, build: bool = True, progress: bool = False
) -> Numbered:
    """Puzzle #k of the n×m locally solvable puzzles in the order (``steps``: of those steps only).

    >>> nth(5, 5, 1).rows
    ('00000', '00000', '00000', '00000', '00000')
    >>> nth(5, 5, 24976511).rows[0], nth(2, 5, 810).of
    ('11111', 810)
    """
    return numbering(n, m, variant=variant, build=build, progress=progress).nth(k, steps_range(steps))


def rank(grid, *, variant: str | None = None, steps=None, build: bool = True, progress: bool = False) -> Numbered:
    """The number of a grid (rows of 0/1 as lists, strings '1001/0001/...' or an array) or of a ``Puzzle`` (its goal,
    else what local logic solves it to) in the order; NotNumbered if local logic does not solve it.

    >>> rank("00000/00000/00000/00000/00001").k
    2
    """
    n, m, g, variant = grid_number(grid, variant)
    return numbering(n, m, variant=variant, build=build, progress=progress).rank(g, steps_range(steps))


def grid_number(grid, variant: str | None = None) -> tuple:
    """(n, m, g, variant) of a grid (rows of 0/1 as lists, strings or an array: PuzzleError if not) or of a
    ``Puzzle`` (its goal, else the grid local logic solves it to: NotNumbered if it does not)."""
    rows, variant = _grid_rows(grid, variant)
    return len(rows), len(rows[0]) if rows else 0, number_of(rows), variant


def _grid_rows(grid, variant) -> tuple:
    """(rows of 0/1 ints, variant) of a grid or a Puzzle."""
    from ..puzzle.solving import logic
    from .puzzles import Puzzle, cells_of, grid_cells

    if isinstance(grid, Puzzle):
        model = grid.model
        if getattr(model, "palette", None) is not None:
            raise UsageError("colour puzzles have no number: the order is of black-and-white grids")
        variant = variant or model.variant
        n, m = len(model.rows), len(model.cols)
        mask = model.goal
        if mask is None:
            out = logic.propagate(model.rows, model.cols, model.given_filled, model.given_empty, variant=model.variant)
            if out.status != logic.SOLVED:
                raise NotNumbered("local logic does not solve this puzzle: it has no number")
            mask = out.filled
        filled = set(cells_of(mask, m))
        return [[int((r, c) in filled) for c in range(m)] for r in range(n)], variant
    return grid_cells(grid), variant or "nonogram"


def iter_puzzles(n: int, m: int | None = None, start: int = 1, *, variant: str = "nonogram", steps=None, build: bool = True,
                 progress: bool = False):  # fmt: skip
    """Puzzles #start, #start + 1, ... of n×m in the order (``Numbered``), lazily, one block of grids at a time.

    >>> [p.k for p in iter_puzzles(3, 3, 383)]
    [383, 384]
    """
    order = numbering(n, m, variant=variant, build=build, progress=progress)
    window = steps_range(steps)
    if isinstance(start, bool) or not hasattr(start, "__index__") or start < 1:
        raise UsageError(f"start must be an integer of at least 1, got {start!r}")
    return order.puzzles(int(start), window)
