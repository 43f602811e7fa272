"""What the stats enumeration needs for one size, before any kernel runs: clue ids, patterns, tables, depth.

numpy only (the line tables of ``lines.tables``); ``compute`` runs the kernels on it.

Yesnograms (``variant``): a row's clue counts its runs of 0s, so the row
patterns of clue id c are the complements of the nonogram ones and the rows'
table is ``tables.row_table``; the kernel reads rows only through these.
The ``transposed`` path of a yesnogram enumerates the m×n yesnograms,
columns first: a grid's complement-transpose has the grid's column clues
as row clues (runs of 0s of a complemented column are its runs of 1s) and
vice versa, so local logic on it is the grid's with rows and columns
swapped, and every measure agrees.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from ... import tuning
from ...clues import row_clue, rows_count_zeros
from ...lines import TABLE_MAX_LEN
from ...lines.tables import clue_ids, line_table, row_table, spread_table
from ..base import check_size

PATHS = ("rows", "transposed")


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
        thin = (
            "; a side of 1 or 2 cells: the uniquely solvable count alone with --method thin" if min(n, m) <= 2 else ""
        )
        raise ValueError(f"stats enumerates lines of at most {TABLE_MAX_LEN} cells (line tables); {n}x{m} has "
                         f"{max(n, m)}: the largest with a side of {min(n, m)} is {min(n, m)}x{TABLE_MAX_LEN}{thin}")  # fmt: skip


@functools.lru_cache(maxsize=8)
def prepare(n: int, m: int, variant: str = "nonogram") -> Prepared:
    """Row patterns by clue, clue ids and line tables for enumerating n×m by row clues (module doc)."""
    check_stats_size(n, m)
    rid = clue_ids(m)
    if rows_count_zeros(variant):
        rid = rid[::-1]  # row p has the clue id of the nonogram row full ^ p = 2^m - 1 - p
    C = int(rid.max()) + 1
    order = np.argsort(rid, kind="stable")
    counts = np.bincount(rid, minlength=C)
    pat_start = np.zeros(C + 1, np.int64)
    pat_start[1:] = np.cumsum(counts)
    first = {}
    for p in range(1 << m):
        first.setdefault(int(rid[p]), p)
    clue_of = {c: row_clue(p, m, variant) for c, p in first.items()}
    by_clue = {v: c for c, v in clue_of.items()}
    rev = np.array([by_clue[tuple(reversed(clue_of[c]))] for c in range(C)], np.int64)
    cid_n = clue_ids(n)
    base = int(cid_n.max()) + 1
    if 2 * base**m >= 1 << 63:
        raise ValueError(f"{n}x{m}: column-clue keys ({base}^{m}) do not fit in 63 bits")
    max_group = int(counts.max()) ** n
    if max_group > tuning.STATS_MAX_GROUP:
        fits = n != m and max(n, m) <= TABLE_MAX_LEN and _largest_group(m, n) <= tuning.STATS_MAX_GROUP
        other = f"; the transposed path ({m}x{n} by rows) fits: --path transposed" if fits else ""
        k = _largest_square()
        raise ValueError(f"{n}x{m}: a row-clue group has {max_group} grids, more than the {tuning.STATS_MAX_GROUP} a kernel sorts at "
                         f"once (the largest square within reach is {k}x{k}){other}")  # fmt: skip
    tables = (row_table(m, variant), line_table(n), spread_table(n, m), spread_table(m, n))
    return Prepared(n, m, pat_start, order.astype(np.uint64), rev, cid_n, base, max_group, tables)


def default_version(n: int, m: int) -> int:
    """The kernel version a new run of n×m uses: 3 (generated per size) from
    ``tuning.STATS_SPECIALIZE_MIN_CELLS`` cells, else 2."""
    return 3 if n * m >= tuning.STATS_SPECIALIZE_MIN_CELLS else 2


def _largest_group(n: int, m: int) -> int:
    """Grids in the largest row-clue group of n×m: the most patterns of any m-cell clue, to the n-th power."""
    return int(np.bincount(clue_ids(m)).max()) ** n


def _largest_square() -> int:
    """The largest k whose k×k groups fit ``tuning.STATS_MAX_GROUP`` (6)."""
    k = 1
    while k < TABLE_MAX_LEN and _largest_group(k + 1, k + 1) <= tuning.STATS_MAX_GROUP:
        k += 1
    return k


def oriented(n: int, m: int, path: str) -> tuple:
    """(enumerated rows, columns, columns first) of a path."""
    if path not in PATHS:
        raise ValueError(f"path must be one of {', '.join(PATHS)}, got {path!r}")
    return (m, n, True) if path == "transposed" else (n, m, False)


def default_depth(n: int, m: int, path: str = "rows") -> int:
    """Rows whose clues a shard fixes: enough for ``tuning.STATS_MIN_SHARDS`` shards of at most
    ~2^``STATS_SHARD_GRID_BITS`` grids (any variant), but not more than ``STATS_MAX_SHARDS`` shards (a checkpoint
    line each: 6x7 keeps 9261 of them, not 194481)."""
    rows, cols, _ = oriented(n, m, path)
    C = prepare(rows, cols).clues
    depth = 0
    least, most, grid_bits = tuning.STATS_MIN_SHARDS, tuning.STATS_MAX_SHARDS, tuning.STATS_SHARD_GRID_BITS
    while depth < rows and (C**depth < least or (1 << (n * m)) // C**depth > 1 << grid_bits):
        if C ** (depth + 1) > most and C**depth >= least:
            break
        depth += 1
    return depth


def shard_count(n: int, m: int, path: str, depth: int) -> int:
    """Number of shards: C^depth, C the number of clues of an enumerated row."""
    rows, cols, _ = oriented(n, m, path)
    return prepare(rows, cols).clues ** depth
