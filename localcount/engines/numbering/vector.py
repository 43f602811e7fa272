"""The codes of a range of grids with numpy alone: small ranges (a query on a 5x5 block) load no numba.

The same definition as ``kernel`` (0 stuck, else 1 + steps; halves rows first), on arrays: every
grid of the range takes one half at a time, and leaves the arrays once it is solved or a half other
than the first taught it nothing.  A third implementation of the codes, which the tests compare
with the other two and with ``tests/naive.py``.
"""

from __future__ import annotations

import numpy as np

from . import order
from .prepare import prepare


def codes(n: int, m: int, g0: int, count: int, variant: str = "nonogram") -> np.ndarray:
    """The codes (int8) of grids g0 .. g0 + count - 1 (n, m >= 1; unchecked: ``count.codes`` checks)."""
    rev, rtab, ctab, rspread, cspread = prepare(n, m, variant)
    rev, rtab, ctab = rev.astype(np.int64), rtab.astype(np.int64), ctab.astype(np.int64)
    rspread, cspread = rspread.astype(np.int64), cspread.astype(np.int64)  # uint64 | int64 would be float
    mask_n, full = (1 << n) - 1, (1 << (n * m)) - 1
    grids = np.arange(g0, g0 + count, dtype=np.int64)
    rows = [rev[row] for row in order.rows(grids, n, m)]
    colword = np.zeros(count, np.int64)
    for r in range(n):
        colword |= rspread[r][rows[r]]
    cols = [(colword >> (c * n)) & mask_n for c in range(m)]
    known_r, known_c = np.zeros(count, np.int64), np.zeros(count, np.int64)
    out, alive = np.zeros(count, np.int8), np.arange(count)
    half = 0
    while len(alive):
        half += 1
        if half % 2:
            learnt = _half(rows, m, rtab, rspread, known_r, known_c)
        else:
            learnt = _half(cols, n, ctab, cspread, known_c, known_r)
        solved = known_r == full
        out[alive[solved]] = half + 1
        keep = ~solved & ((learnt != 0) | (half == 1))
        alive, known_r, known_c = alive[keep], known_r[keep], known_c[keep]
        rows, cols = [x[keep] for x in rows], [x[keep] for x in cols]
    return out


def _half(lines, length: int, tab, spread, known, crossing):
    """One half on arrays: each line of one direction (``lines``, of ``length`` cells) updated from its table, in
    place (``known`` in this direction's bit order, ``crossing`` in the other's); the cells it learnt, by grid."""
    mask = (1 << length) - 1
    learnt = np.zeros(len(known), np.int64)
    for i, line in enumerate(lines):
        k = (known >> (i * length)) & mask
        new = tab[(line << length) | k] & ~k
        known |= new << (i * length)
        crossing |= spread[i][new]
        learnt |= new
    return learnt
