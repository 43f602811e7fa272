"""Local logic on an array of grids at once: numpy, the line tables, no compiled code.

The state of every grid is its known mask in two layouts, as the kernels
keep it (``engines.grid.kernel``): ``KR`` row-major (bit ``r*m + c``) and
``KC`` column-major (bit ``c*n + r``).  A row update is one table lookup per
grid, ``rtab[row << m | known]`` (``lines.tables.line_table``), written back
to ``KR`` by a shift and to ``KC`` through the spread table; columns alike.
A full pass is every row, then every column.  Each line update is monotone
and idempotent, so the grids reach the same fixpoint as in any other order;
a grid leaves the array once it is solved or a full pass changed nothing.
"""

from __future__ import annotations

import numpy as np

from ...lines.tables import line_table, spread_table

#: Grids propagated together: arrays of this many uint64 (8 MiB each).
CHUNK = 1 << 20


def solved_count(n: int, m: int, lo: int, hi: int) -> int:
    """How many of the n×m grids with index (= Grid value) in [lo, hi) local logic solves."""
    if n * m == 0:
        return hi - lo  # the one empty grid: solved
    total = 0
    for start in range(lo, hi, CHUNK):
        total += _solved(n, m, np.arange(start, min(hi, start + CHUNK), dtype=np.uint64))
    return total


def _solved(n: int, m: int, grids: np.ndarray) -> int:
    rtab, ctab = line_table(m).astype(np.uint64), line_table(n).astype(np.uint64)
    rspread, cspread = spread_table(n, m), spread_table(m, n)
    m64, n64 = np.uint64(m), np.uint64(n)
    rows = [(grids >> np.uint64(r * m)) & np.uint64((1 << m) - 1) for r in range(n)]
    by_cols = np.zeros_like(grids)
    for r in range(n):
        by_cols |= rspread[r][rows[r]]
    cols = [(by_cols >> np.uint64(c * n)) & np.uint64((1 << n) - 1) for c in range(m)]
    rows, cols = np.stack(rows), np.stack(cols)
    known_r = np.zeros_like(grids)
    known_c = np.zeros_like(grids)
    full = np.uint64((1 << (n * m)) - 1)
    solved = 0
    while len(known_r):
        before = known_r.copy()
        for r in range(n):
            shift = np.uint64(r * m)
            new = rtab[(rows[r] << m64) | ((known_r >> shift) & np.uint64((1 << m) - 1))]
            known_r |= new << shift
            known_c |= rspread[r][new]
        for c in range(m):
            shift = np.uint64(c * n)
            new = ctab[(cols[c] << n64) | ((known_c >> shift) & np.uint64((1 << n) - 1))]
            known_c |= new << shift
            known_r |= cspread[c][new]
        done = known_r == full
        solved += int(done.sum())
        keep = ~done & (known_r != before)  # neither solved nor at its fixpoint
        rows, cols, known_r, known_c = rows[:, keep], cols[:, keep], known_r[keep], known_c[keep]
    return solved
