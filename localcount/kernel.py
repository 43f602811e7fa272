"""Numba kernels: local-logic propagation on bit masks, and counting over index ranges.

No I/O and no validation here (``count.py`` does that).  Conventions:

* ``KR`` is the known mask in row layout (bit ``r*m + c``, the Grid layout);
  ``KC`` is the same knowledge in column layout (bit ``c*n + r``).  Both are
  kept up to date, so a line's known cells are one shift and mask away.
* A line's update is ``table[p << L | k]`` (``tables.line_table``) or, for
  lines too long for a table, the dynamic program ``linesolve._line_options``.
* Propagation stops when the grid is solved, or when a half pass (all rows or
  all columns) changes nothing after the other half has run: a line update is
  idempotent, so the other lines' inputs have not changed either and a full
  pass would change nothing.

Enumeration index layout (most significant first): row 0, row n-1, rows
1 .. n-2.  The border rows (0 and n-1) are thus the high bits: shards by index
prefix are shards by border, and the symmetry weight of a border is computed
once per block of interior grids.

Symmetry (``symmetric=True``): the group {identity, upside-down flip V,
left-right flip H, VH} maps grids to grids, preserves local solvability and
maps the grids with top/bottom rows (a, b) one-to-one onto those with
border g(a, b).  So the solvable count is the sum over orbit representatives
(a, b) (the least encoding ``a << m | b`` in its orbit) of
``orbit size * solvable grids with that border``.  With n = 1 the only row is
both borders and the group is {identity, H}.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .clues import _line_clue_into
from .linesolve import _line_options

STUCK = 0
SOLVED = 1

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _mask(length):
    """The mask of the low ``length`` bits (0 <= length <= 64) as uint64."""
    if length == 0:
        return np.uint64(0)
    return _ALL >> np.uint64(64 - length)


@njit(cache=True)
def _reverse(x, length):
    """The low ``length`` bits of x in reverse order (1 <= length <= 64)."""
    x = ((x >> np.uint64(1)) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << np.uint64(1))
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    return x >> np.uint64(64 - length)


@njit(cache=True)
def _border_weight(border, n, m):
    """Orbit size of a border if it is its orbit's representative, else 0."""
    if n == 1:
        rev = _reverse(border, m)
        if rev < border:
            return 0
        return 1 if rev == border else 2
    mm = np.uint64(m)
    a = border >> mm
    b = border & _mask(m)
    ra = _reverse(a, m)
    rb = _reverse(b, m)
    k_v = (b << mm) | a
    k_h = (ra << mm) | rb
    k_vh = (rb << mm) | ra
    if k_v < border or k_h < border or k_vh < border:
        return 0
    fixed = 1 + (k_v == border) + (k_h == border) + (k_vh == border)
    return 4 // fixed


@njit(cache=True)
def _spread(i, x, lines, length, spread, use_table):
    """Cells x of line i, moved to the crossing layout (bit c -> c*lines + i)."""
    if use_table:
        return spread[i, x]
    out = np.uint64(0)
    for c in range(length):
        if (x >> np.uint64(c)) & _ONE:
            out |= _ONE << np.uint64(c * lines + i)
    return out


@njit(cache=True)
def _update_line_dp(p, k, length, clue, F, G, bad, cover):
    """New known mask of a line whose true cells are p and known cells k, without a table."""
    full = _mask(length)
    t = _line_clue_into(p, length, clue)
    can0, can1 = _line_options(clue, t, length, p & k, ~p & k & full, F, G, bad, cover)
    return full & ~(can0 & can1)


@njit(cache=True)
def _propagate(rows, cols, n, m, rtab, ctab, rspread, cspread, flags, clue, F, G, bad, cover):
    """Local logic to the fixpoint: (SOLVED or STUCK, known mask in Grid layout).

    flags = (rows use a table, columns use a table, row spread table, column spread table).
    """
    mask_m = _mask(m)
    mask_n = _mask(n)
    total = _mask(n * m)
    KR = np.uint64(0)
    KC = np.uint64(0)
    first = True
    while True:
        changed = False
        for r in range(n):
            sh = np.uint64(r * m)
            k = (KR >> sh) & mask_m
            if flags[0]:  # the table lookup stays inline; the DP is the rare slow path
                nk = np.uint64(rtab[(rows[r] << np.uint64(m)) | k])
            else:
                nk = _update_line_dp(rows[r], k, m, clue, F, G, bad, cover)
            if nk != k:
                KR |= nk << sh
                KC |= _spread(r, nk & ~k, n, m, rspread, flags[2])
                changed = True
        if KR == total:
            return SOLVED, KR
        if not changed and not first:
            return STUCK, KR
        first = False
        changed = False
        for c in range(m):
            sh = np.uint64(c * n)
            k = (KC >> sh) & mask_n
            if flags[1]:  # the table lookup stays inline; the DP is the rare slow path
                nk = np.uint64(ctab[(cols[c] << np.uint64(n)) | k])
            else:
                nk = _update_line_dp(cols[c], k, n, clue, F, G, bad, cover)
            if nk != k:
                KC |= nk << sh
                KR |= _spread(c, nk & ~k, m, n, cspread, flags[3])
                changed = True
        if KR == total:
            return SOLVED, KR
        if not changed:
            return STUCK, KR


@njit(cache=True)
def _propagate_tables(rows, cols, n, m, rtab, ctab, rspread, cspread):
    """``_propagate`` when every line has a table and a spread table: the fast path.

    Same algorithm as ``_propagate`` with the slow branches removed, since
    their mere presence stops numba/LLVM from optimising the loop (measured
    8x slower).  Returns (status, known mask).
    """
    mask_m = _mask(m)
    mask_n = _mask(n)
    total = _mask(n * m)
    mm = np.uint64(m)
    nn = np.uint64(n)
    KR = np.uint64(0)
    KC = np.uint64(0)
    first = True
    while True:
        changed = False
        for r in range(n):
            sh = np.uint64(r * m)
            k = (KR >> sh) & mask_m
            nk = np.uint64(rtab[(rows[r] << mm) | k])
            if nk != k:
                KR |= nk << sh
                KC |= rspread[r, nk & ~k]
                changed = True
        if KR == total:
            return SOLVED, KR
        if not changed and not first:
            return STUCK, KR
        first = False
        changed = False
        for c in range(m):
            sh = np.uint64(c * n)
            k = (KC >> sh) & mask_n
            nk = np.uint64(ctab[(cols[c] << nn) | k])
            if nk != k:
                KC |= nk << sh
                KR |= cspread[c, nk & ~k]
                changed = True
        if KR == total:
            return SOLVED, KR
        if not changed:
            return STUCK, KR


@njit(cache=True)
def _scratch(n, m):
    """Per-thread work arrays: rows, cols, clue buffer and the line DP's arrays."""
    big = max(n, m)
    runs = (big + 1) // 2 + 1
    return (
        np.zeros(max(n, 1), np.uint64),
        np.zeros(max(m, 1), np.uint64),
        np.zeros(runs, np.int64),
        np.zeros((runs + 1, big + 3), np.uint8),
        np.zeros((runs + 1, big + 3), np.uint8),
        np.zeros(big + 3, np.int32),
        np.zeros(big + 3, np.int32),
    )


@njit(cache=True)
def _load_grid(grid, n, m, rows, cols, rspread, flags):
    """Fill rows and cols from a Grid-layout bit mask."""
    mask_m = _mask(m)
    mask_n = _mask(n)
    colword = np.uint64(0)
    for r in range(n):
        p = (grid >> np.uint64(r * m)) & mask_m
        rows[r] = p
        colword |= _spread(r, p, n, m, rspread, flags[2])
    for c in range(m):
        cols[c] = (colword >> np.uint64(c * n)) & mask_n


@njit(cache=True)
def _solve_grids(grids, n, m, rtab, ctab, rspread, cspread, flags):
    """Status and final known mask of each grid in an array of Grid bit masks."""
    rows, cols, clue, F, G, bad, cover = _scratch(n, m)
    status = np.zeros(len(grids), np.int64)
    known = np.zeros(len(grids), np.uint64)
    fast = flags[0] and flags[1] and flags[2] and flags[3]
    for i in range(len(grids)):
        _load_grid(grids[i], n, m, rows, cols, rspread, flags)
        if fast:
            status[i], known[i] = _propagate_tables(rows, cols, n, m, rtab, ctab, rspread, cspread)
        else:
            status[i], known[i] = _propagate(rows, cols, n, m, rtab, ctab, rspread, cspread, flags, clue, F, G, bad, cover)
    return status, known


@njit(cache=True)
def _count_unit(unit, inner_bits, n, m, symmetric, rtab, ctab, rspread, cspread, flags):
    """Weighted solvable count over enumeration indices [unit << inner_bits, (unit+1) << inner_bits)."""
    rows, cols, clue, F, G, bad, cover = _scratch(n, m)
    mask_m = _mask(m)
    mask_n = _mask(n)
    # row r's shift in the enumeration index (layout: row 0, row n-1, rows 1..n-2)
    shifts = np.zeros(max(n, 1), np.uint64)
    if n >= 2:
        shifts[0] = (n - 1) * m
        shifts[n - 1] = (n - 2) * m
        for r in range(1, n - 1):
            shifts[r] = (n - 2 - r) * m
    border_low = (n - 2) * m if n >= 2 else 0
    step_bits = min(border_low, inner_bits)
    base = np.uint64(unit) << np.uint64(inner_bits)
    fast = flags[0] and flags[1] and flags[2] and flags[3]
    total = 0
    for s in range(1 << (inner_bits - step_bits)):
        start = base | (np.uint64(s) << np.uint64(step_bits))
        weight = 1
        if symmetric:
            weight = _border_weight(start >> np.uint64(border_low), n, m)
            if weight == 0:
                continue
        solved = 0
        for j in range(1 << step_bits):
            index = start | np.uint64(j)
            colword = np.uint64(0)
            for r in range(n):
                p = (index >> shifts[r]) & mask_m
                rows[r] = p
                colword |= _spread(r, p, n, m, rspread, flags[2])
            for c in range(m):
                cols[c] = (colword >> np.uint64(c * n)) & mask_n
            if fast:
                status, _ = _propagate_tables(rows, cols, n, m, rtab, ctab, rspread, cspread)
            else:
                status, _ = _propagate(rows, cols, n, m, rtab, ctab, rspread, cspread, flags, clue, F, G, bad, cover)
            solved += status == SOLVED
        total += weight * solved
    return total


@njit(cache=True, parallel=True)
def _count_units(units, inner_bits, n, m, symmetric, rtab, ctab, rspread, cspread, flags):
    """``_count_unit`` for each unit of an array, spread over numba threads."""
    out = np.zeros(len(units), np.int64)
    for i in prange(len(units)):
        out[i] = _count_unit(units[i], inner_bits, n, m, symmetric, rtab, ctab, rspread, cspread, flags)
    return out
