"""Measures beyond the count, from one enumeration: uniqueness, difficulty, stuck grids.

``stats(n, m)`` enumerates every n×m grid grouped by its row clues
(``statskernel``) and returns a ``Stats``:

* ``grids``: 2^(n·m); ``solvable``: locally solvable (the count);
* ``unique``: uniquely solvable, i.e. no other grid has the same row and
  column clues.  Every locally solvable grid is uniquely solvable (local
  logic only deduces what every grid with these clues shares); the kernel
  checks this on every grid and a violation is an error, never a number;
* ``rounds``: the histogram of the locally solvable grids by difficulty, the
  number of rounds of local logic they need.  Round k is every row once,
  then every column once (rows first); a grid's difficulty is the number of
  the round in which its last cell becomes known, even if that happens in
  the round's rows; the extra pass that would confirm a fixpoint is not
  counted.  The empty grid (n·m = 0) needs 0 rounds;
* ``stuck_start``: grids on which local logic deduces nothing at all (no
  row and no column has a cell common to all patterns fitting its clue).

Two code paths give the same ``Stats``: ``path="rows"`` groups the n×m grids
by their row clues; ``path="transposed"`` enumerates the m×n transposes
grouped by *their* row clues (the columns of n×m) and runs local logic
columns first, which is the same rounds on the transposed grid.  Symmetry:
"flips" (default) or "none" (every grid).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field

import numpy as np

from . import kernel, statskernel
from .clues import line_clue
from .count import check_size
from .tables import TABLE_MAX_LEN, clue_ids, line_table, spread_table

#: Names of the output vector's first entries (``statskernel``); the round histogram follows.
VECTOR = ("grids", "solvable", "unique", "stuck_start", "solved_not_unique")
PATHS = ("rows", "transposed")
SYMMETRIES = {"flips": kernel.FLIPS, "none": kernel.NONE}
#: Largest row-clue group (grids sharing all row clues) a kernel sorts at once: 8 bytes each.
MAX_GROUP = 1 << 26
#: Aim for shards of at most about 2^SHARD_GRID_BITS grids, and at least MIN_SHARDS of them.
SHARD_GRID_BITS = 24
MIN_SHARDS = 64


class InconsistentStats(RuntimeError):
    """The enumeration broke an invariant (a bug): no number is reported."""


@dataclass(frozen=True)
class Stats:
    """The measures of one size (see module doc)."""

    n: int
    m: int
    grids: int
    solvable: int
    unique: int
    stuck_start: int
    rounds: tuple = field(default_factory=tuple)  # rounds[k]: locally solvable grids needing k rounds

    @property
    def not_solvable(self) -> int:
        """Grids that local logic leaves with unknown cells."""
        return self.grids - self.solvable

    @property
    def max_rounds(self) -> int:
        """Most rounds any locally solvable grid needs (0 when there is none)."""
        return max((k for k, v in enumerate(self.rounds) if v), default=0)

    @property
    def mean_rounds(self) -> float:
        """Mean rounds over the locally solvable grids."""
        return sum(k * v for k, v in enumerate(self.rounds)) / self.solvable if self.solvable else 0.0

    def as_dict(self) -> dict:
        """Plain data for JSON: every measure, the histogram trimmed after its last non-zero entry."""
        return {
            "n": self.n,
            "m": self.m,
            "grids": self.grids,
            "solvable": self.solvable,
            "not_solvable": self.not_solvable,
            "unique": self.unique,
            "stuck_start": self.stuck_start,
            "rounds": {str(k): v for k, v in enumerate(self.rounds) if v},
            "mean_rounds": self.mean_rounds,
            "max_rounds": self.max_rounds,
        }


def from_vector(n: int, m: int, vec) -> Stats:
    """The Stats of a finished enumeration's vector; InconsistentStats if an invariant fails."""
    vec = [int(v) for v in vec]
    grids, solvable, unique, stuck, bad = vec[: len(VECTOR)]
    hist = tuple(vec[len(VECTOR) :])
    problems = []
    if bad:
        problems.append(f"{bad} locally solvable grids share their clues with another grid")
    if grids != 1 << (n * m):
        problems.append(f"{grids} grids enumerated, not 2^{n * m}")
    if sum(hist) != solvable:
        problems.append(f"the round histogram adds up to {sum(hist)}, not {solvable}")
    if not solvable <= unique <= grids or stuck > grids - solvable:
        problems.append(f"solvable {solvable}, unique {unique}, stuck {stuck} of {grids} are out of order")
    if problems:
        raise InconsistentStats(f"{n}x{m}: " + "; ".join(problems) + " (a bug: please report it)")
    return Stats(n, m, grids, solvable, unique, stuck, hist)


def width(n: int, m: int) -> int:
    """Length of a size's output vector: the counters and rounds 0 .. n·m."""
    return len(VECTOR) + n * m + 1


@dataclass(frozen=True)
class Prepared:
    """The kernel's read-only inputs for one enumerated orientation (n rows of m cells)."""

    n: int
    m: int
    pat_start: np.ndarray  # clue id c's row patterns are pats[pat_start[c]:pat_start[c + 1]]
    pats: np.ndarray
    rev: np.ndarray  # clue id of the reversed clue
    cid_n: np.ndarray  # column pattern -> clue id
    base: int  # number of column clues
    max_group: int  # the largest product of pattern counts over the rows
    tables: tuple  # rtab, ctab, rspread, cspread

    @property
    def clues(self) -> int:
        """Number of row clues (C: shards are numbered in base C)."""
        return len(self.pat_start) - 1


def check_stats_size(n: int, m: int) -> None:
    """Raise ValueError unless ``stats`` supports n×m (either orientation must fit)."""
    check_size(n, m)
    if max(n, m) > TABLE_MAX_LEN:
        raise ValueError(f"stats needs lines of at most {TABLE_MAX_LEN} cells (line tables); {n}x{m} has {max(n, m)}")


@functools.lru_cache(maxsize=8)
def prepare(n: int, m: int) -> Prepared:
    """Row patterns by clue, clue ids and line tables for enumerating n×m by row clues."""
    check_stats_size(n, m)
    rid = clue_ids(m)
    C = int(rid.max()) + 1
    order = np.argsort(rid, kind="stable")
    counts = np.bincount(rid, minlength=C)
    pat_start = np.zeros(C + 1, np.int64)
    pat_start[1:] = np.cumsum(counts)
    first = {}
    for p in range(1 << m):
        first.setdefault(int(rid[p]), p)
    clue_of = {c: line_clue(p, m) for c, p in first.items()}
    by_clue = {v: c for c, v in clue_of.items()}
    rev = np.array([by_clue[tuple(reversed(clue_of[c]))] for c in range(C)], np.int64)
    cid_n = clue_ids(n)
    base = int(cid_n.max()) + 1
    if 2 * base**m >= 1 << 63:
        raise ValueError(f"{n}x{m}: column-clue keys ({base}^{m}) do not fit in 63 bits")
    max_group = int(counts.max()) ** n
    if max_group > MAX_GROUP:
        raise ValueError(f"{n}x{m}: a row-clue group has {max_group} grids, more than {MAX_GROUP}; try the transposed path")
    tables = (line_table(m), line_table(n), spread_table(n, m), spread_table(m, n))
    return Prepared(n, m, pat_start, order.astype(np.uint64), rev, cid_n, base, max_group, tables)


def _oriented(n: int, m: int, path: str) -> tuple:
    """(enumerated rows, columns, columns first) of a path."""
    if path not in PATHS:
        raise ValueError(f"path must be one of {', '.join(PATHS)}, got {path!r}")
    return (m, n, True) if path == "transposed" else (n, m, False)


def default_depth(n: int, m: int, path: str = "rows") -> int:
    """Rows whose clues a shard fixes: enough for MIN_SHARDS shards of at most ~2^SHARD_GRID_BITS grids."""
    rows, cols, _ = _oriented(n, m, path)
    C = prepare(rows, cols).clues
    depth = 0
    while depth < rows and (C**depth < MIN_SHARDS or (1 << (n * m)) // C**depth > 1 << SHARD_GRID_BITS):
        depth += 1
    return depth


def shard_count(n: int, m: int, path: str, depth: int) -> int:
    """Number of shards: C^depth, C the number of clues of an enumerated row."""
    rows, cols, _ = _oriented(n, m, path)
    return prepare(rows, cols).clues ** depth


def stats_shards(n: int, m: int, shards, path: str = "rows", symmetry: str = "flips", depth: int | None = None, parallel: bool = True) -> np.ndarray:
    """The output vectors of the given shards, one row each (``statskernel``; add the rows for the total)."""
    check_stats_size(n, m)
    if symmetry not in SYMMETRIES:
        raise ValueError(f"stats symmetry must be one of {', '.join(SYMMETRIES)}, got {symmetry!r}")
    rows, cols, cols_first = _oriented(n, m, path)
    if depth is None:
        depth = default_depth(n, m, path)
    arr = np.asarray(shards, np.int64).reshape(-1)
    out_width = width(n, m)
    if n * m == 0:
        # The one empty grid: solved in 0 rounds, unique; a single shard.
        out = np.zeros((len(arr), out_width), np.int64)
        out[:, [statskernel.GRIDS, statskernel.SOLVABLE, statskernel.UNIQUE, statskernel.HIST]] = 1
        return out
    prep = prepare(rows, cols)
    if not 0 <= depth <= rows:
        raise ValueError(f"depth must be between 0 and {rows}, got {depth}")
    total = prep.clues**depth
    if len(arr) and (arr.min() < 0 or arr.max() >= total):
        raise ValueError(f"shards must be between 0 and {total - 1}")
    args = (depth, rows, cols, SYMMETRIES[symmetry], cols_first, prep.pat_start, prep.pats, prep.rev, prep.cid_n, prep.base, prep.max_group, *prep.tables)
    if parallel:
        return statskernel._stats_shards(arr, *args, out_width)
    out = np.zeros((len(arr), out_width), np.int64)
    for i, s in enumerate(arr):
        statskernel._stats_shard(s, *args, out[i])
    return out


def stats(n: int, m: int, *, path: str = "rows", symmetry: str = "flips", depth: int | None = None) -> Stats:
    """Every measure of n×m in this process (numba threads over shards)."""
    check_stats_size(n, m)
    if n * m == 0:
        return from_vector(n, m, stats_shards(n, m, [0], path, symmetry)[0])
    if depth is None:
        depth = default_depth(n, m, path)
    vec = stats_shards(n, m, np.arange(shard_count(n, m, path, depth)), path, symmetry, depth).sum(axis=0, dtype=object)
    return from_vector(n, m, vec)


def format_table(s: Stats) -> str:
    """The measures as a small aligned table for people."""

    def pct(v):
        return f"{100 * v / s.grids:.4g} %"

    lines = [
        f"{s.n}x{s.m}: 2^{s.n * s.m} grids",
        f"  {'grids':<22} {s.grids:>16}",
        f"  {'locally solvable':<22} {s.solvable:>16}  {pct(s.solvable)}",
        f"  {'not locally solvable':<22} {s.not_solvable:>16}  {pct(s.not_solvable)}",
        f"  {'uniquely solvable':<22} {s.unique:>16}  {pct(s.unique)}",
        f"  {'stuck at the start':<22} {s.stuck_start:>16}  {pct(s.stuck_start)}",
        f"  rounds of local logic (rows, then columns) of the locally solvable grids: mean {s.mean_rounds:.4f}, max {s.max_rounds}",
    ]
    for k, v in enumerate(s.rounds):
        if v:
            share = f"{100 * v / s.solvable:.4g} %"
            lines.append(f"  {'':<4}{k:>3} round{'s' if k != 1 else ' '} {v:>16}  {share}")
    return "\n".join(lines)


def format_json(s: Stats) -> str:
    """The measures as one JSON object."""
    return json.dumps(s.as_dict())
