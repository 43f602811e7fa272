"""What the numbering kernels read for one size: the line tables and the row-reversal table (numpy only)."""

from __future__ import annotations

import functools

import numpy as np

from ...clues import check_variant
from ...lines import SPREAD_MAX_LEN, TABLE_MAX_LEN
from ...lines.tables import line_table, row_table, spread_table

#: Sizes with more cells than this are not numbered: 2^42 grids (6x7) is the most the issue asks for.
MAX_NUMBERING_CELLS = 42


def check_numbering_size(n: int, m: int) -> None:
    """ValueError unless n×m can be numbered: lines with tables, at most MAX_NUMBERING_CELLS cells."""
    for name, v in (("n", n), ("m", m)):
        if isinstance(v, bool) or not hasattr(v, "__index__") or v < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {v!r}")
    if n * m > MAX_NUMBERING_CELLS:
        raise ValueError(f"{n}x{m} has 2^{n * m} grids; puzzles are numbered up to 2^{MAX_NUMBERING_CELLS} grids")
    if max(n, m) > min(TABLE_MAX_LEN, SPREAD_MAX_LEN):
        raise ValueError(f"numbering needs lines of at most {TABLE_MAX_LEN} cells, not {max(n, m)}")


@functools.lru_cache(maxsize=8)
def prepare(n: int, m: int, variant: str = "nonogram") -> tuple:
    """(rev, rtab, ctab, rspread, cspread): the kernels' tables for n×m (n, m ≥ 1)."""
    check_variant(variant)
    x = np.arange(1 << m, dtype=np.uint64)
    rev = np.zeros(1 << m, np.uint64)
    for c in range(m):
        rev |= ((x >> np.uint64(c)) & np.uint64(1)) << np.uint64(m - 1 - c)
    rev.flags.writeable = False
    return rev, row_table(m, variant), line_table(n), spread_table(n, m), spread_table(m, n)


def mirror(values, m: int, rows: int):
    """Each top-rows value (``rows`` rows of m bits, numbered as grids are) with every row reversed: the flip H."""
    values = np.asarray(values, np.int64)
    out = np.zeros_like(values)
    for c in range(m * rows):
        r, col = divmod(c, m)
        out |= ((values >> (r * m + col)) & 1) << (r * m + m - 1 - col)
    return out
