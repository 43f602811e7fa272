"""Numba kernels: local-logic propagation on bit masks, and counting over index ranges.

No I/O and no validation here (``count.py`` does that).  Word helpers
(clues, masks, bit counts) come from ``lines.bits``.  Conventions:

* ``KR`` is the known mask in row layout (bit ``r*m + c``, the Grid layout);
  ``KC`` is the same knowledge in column layout (bit ``c*n + r``).  Both are
  kept up to date, so a line's known cells are one shift and mask away.
* A line's update is ``table[p << L | k]`` (``tables.line_table``) or, for
  lines too long for a table, ``lines.solvers.line_options_bits_kernel`` (word
  operations; the dynamic program ``line_options_kernel`` beyond 62 cells).
* Propagation stops when the grid is solved, or when a half pass (all rows or
  all columns) changes nothing after the other half has run: a line update is
  idempotent, so the other lines' inputs have not changed either and a full
  pass would change nothing.
* The final knowledge does not depend on the order of the line updates
  (each update is monotone and only adds knowledge, so all orders reach the
  same least fixpoint); ``kernel_shard`` therefore starts with the columns
  when only the rows need the (slower) line solver.

Symmetry groups (``group``): NONE enumerates every grid.  FLIPS uses
{identity, upside-down flip V, left-right flip H, VH}; SQUARE (n = m only)
adds the transposition T, the 8 symmetries of the square.  Each group maps
grids to grids, preserves local solvability (T swaps row and column clues,
and local logic treats rows and columns alike) and maps border cells to
border cells.  So the grids with a given border B and those with border g(B)
correspond one to one, the number of solvable grids with border B depends
only on B's orbit, and the count is the sum over orbit representatives (the
least encoding in the orbit) of ``orbit size * solvable grids with that
border``: exact (the weight, ``enumeration.orbit_weight``).

Enumeration index orders: stated in ``engines.enumeration`` (its integer
functions named in ``ORDER_FUNCTIONS``, compiled here with ``njit``), and
nowhere else.  The border is in the high bits, so shards by index prefix are
shards by border, and a border's weight is computed once per block of
interior grids.  NONE and FLIPS use the rows order (row 0 and row n-1 are the
border; FLIPS acts on it; with n = 1 the only row is both and the group is
{id, H}); SQUARE uses the square's order (the border code: top row, bottom
row, left and right column; then the interior): ``enumeration.border_low``.
numba's cache watches this file only, so ``ORDER_DIGEST`` below is a digest of
those functions' source: a change of order fails a test until the digest here
is renewed, and that change of this file makes numba recompile these kernels.

Entry points: ``kernel_shard`` and ``kernel_shards`` take the size first,
then what the generated kernels' entry points of the same names take
(``engines.grid.specialize``): shard(s), inner bits, group id, tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...lines.bits import ALL, line_clue_into, low_mask, reverse_bits
from ...lines.solvers import MAX_BITS_LINE, line_options_bits_kernel, line_options_kernel
from .. import enumeration
from ..base import GROUP_IDS

STUCK = 0
SOLVED = 1

NONE, FLIPS, SQUARE = GROUP_IDS["none"], GROUP_IDS["flips"], GROUP_IDS["square"]  # symmetry groups

_ONE = np.uint64(1)

#: sha256 (16 hex digits) of the source of ``ORDER_FUNCTIONS`` in ``engines.enumeration``: a change there must change
#: this file too, or numba would keep the kernels compiled with the old order (tests/test_index_order.py).
ORDER_DIGEST = "bde33969e629823f"
ORDER_FUNCTIONS = (
    "row_shift",
    "rows_low_bits",
    "square_interior_bits",
    "square_border_shifts",
    "square_edge_shifts",
    "square_border_row",
    "square_interior_shift",
    "square_row",
    "border_low",
    "orbit_weight",
)
# The enumeration index order, as engines.enumeration states it (plain integer functions compiled for the kernels).
_ORDER = enumeration.compiled(njit(cache=True), ORDER_FUNCTIONS)
_row_shift, _rows_low_bits, _border_low = _ORDER["row_shift"], _ORDER["rows_low_bits"], _ORDER["border_low"]
_square_border_row, _square_row = _ORDER["square_border_row"], _ORDER["square_row"]
_orbit_weight = _ORDER["orbit_weight"]


@njit(cache=True)
def border_weight(border, n, m):
    """Orbit size of a border (row 0 and row n-1) under the flips if it is its orbit's representative, else 0
    (with n = 1 the one row: the upside-down flip keeps it)."""
    low = _rows_low_bits(n, m)
    at_top = np.uint64(_row_shift(0, n, m) - low)
    at_bottom = np.uint64(_row_shift(n - 1, n, m) - low)
    a = (border >> at_top) & low_mask(m)
    b = (border >> at_bottom) & low_mask(m)
    ra = reverse_bits(a, m)
    rb = reverse_bits(b, m)
    k_v = (b << at_top) | (a << at_bottom)
    k_h = (ra << at_top) | (rb << at_bottom)
    k_vh = (rb << at_top) | (ra << at_bottom)
    return _orbit_weight(border, (border, k_v, k_h, k_vh))


@njit(cache=True)
def _cell_images(r, c, n):
    """The 8 images of cell (r, c) of an n×n square under its symmetries, as Grid bits."""
    out = np.zeros(8, np.uint64)
    k = 0
    for a, b in ((r, c), (c, r)):
        for x, y in ((a, b), (n - 1 - a, b), (a, n - 1 - b), (n - 1 - a, n - 1 - b)):
            out[k] = _ONE << np.uint64(x * n + y)
            k += 1
    return out


@njit(cache=True)
def square_border_mask(border, n):
    """The border code of an n×n square (the square's order, ``engines.enumeration``) as a Grid mask."""
    grid = np.uint64(0)
    for r in range(n):
        grid |= np.uint64(_square_border_row(border, r, n)) << np.uint64(r * n)
    return grid


@njit(cache=True)
def square_weight(border, n):
    """Orbit size of a square's border under its 8 symmetries if it is the least, else 0."""
    grid = square_border_mask(border, n)
    images = np.zeros(8, np.uint64)
    for r in range(n):
        for c in range(n):
            if (grid >> np.uint64(r * n + c)) & _ONE:
                images |= _cell_images(r, c, n)
    return _orbit_weight(grid, images)


@njit(cache=True)
def representatives(border_bits, n, m, group):
    """1 for each border code (of ``border_bits`` bits) the kernel counts (its orbit's least), else 0."""
    out = np.zeros(1 << border_bits, np.uint8)
    for b in range(1 << border_bits):
        w = 1
        if group == FLIPS:
            w = border_weight(np.uint64(b), n, m)
        elif group == SQUARE:
            w = square_weight(np.uint64(b), n)
        out[b] = w > 0
    return out


@njit(cache=True)
def square_rows(index, n, rows):
    """Rows of the n×n grid at an enumeration index of the square's order (``engines.enumeration``)."""
    for r in range(n):
        rows[r] = _square_row(index, r, n)


@njit(cache=True)
def spread_line(i, x, lines, length, spread, use_table):
    """Cells x of line i, moved to the crossing layout (bit c -> c*lines + i)."""
    if use_table:
        return spread[i, x]
    out = np.uint64(0)
    for c in range(length):
        if (x >> np.uint64(c)) & _ONE:
            out |= _ONE << np.uint64(c * lines + i)
    return out


@njit(cache=True)
def update_line_by_solver(p, k, length, clue, t, F, G, bad, cover, Q):
    """New known mask of a line whose true cells are p (clue: t runs) and known cells k, without a table."""
    full = low_mask(length)
    if length <= MAX_BITS_LINE:
        can0, can1 = line_options_bits_kernel(clue, t, length, p & k, ~p & k & full, Q)
    else:
        can0, can1 = line_options_kernel(clue, t, length, p & k, ~p & k & full, F, G, bad, cover)
    return full & ~(can0 & can1)


@njit(cache=True)
def _propagate(rows, cols, n, m, rtab, ctab, rspread, cspread, flags, clues, nruns, last, F, G, bad, cover, Q):
    """Local logic to the fixpoint: (SOLVED or STUCK, known mask in Grid layout).

    flags = (rows use a table, columns use a table, row spread table, column
    spread table).  A line without a table gets its clue on its first update
    (row r in ``clues[r]``, column c in ``clues[n + c]``) and skips the line solver
    when its known cells are what the solver last returned for it (``last``):
    a line update is idempotent.
    """
    mask_m = low_mask(m)
    mask_n = low_mask(n)
    total = low_mask(n * m)
    if not flags[0]:
        for r in range(n):
            last[r] = ALL
    if not flags[1]:
        for c in range(m):
            last[n + c] = ALL
    KR = np.uint64(0)
    KC = np.uint64(0)
    first = True
    while True:
        changed = False
        for r in range(n):
            sh = np.uint64(r * m)
            k = (KR >> sh) & mask_m
            if flags[0]:  # the table lookup stays inline; the line solver is the rare slow path
                nk = np.uint64(rtab[(rows[r] << np.uint64(m)) | k])
            elif k == last[r] or k == mask_m:
                continue
            else:
                if last[r] == ALL:
                    nruns[r] = line_clue_into(rows[r], m, clues[r])
                nk = update_line_by_solver(rows[r], k, m, clues[r], nruns[r], F, G, bad, cover, Q)
                last[r] = nk
            if nk != k:
                KR |= nk << sh
                KC |= spread_line(r, nk & ~k, n, m, rspread, flags[2])
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
            if flags[1]:  # the table lookup stays inline; the line solver is the rare slow path
                nk = np.uint64(ctab[(cols[c] << np.uint64(n)) | k])
            elif k == last[n + c] or k == mask_n:
                continue
            else:
                if last[n + c] == ALL:
                    nruns[n + c] = line_clue_into(cols[c], n, clues[n + c])
                nk = update_line_by_solver(cols[c], k, n, clues[n + c], nruns[n + c], F, G, bad, cover, Q)
                last[n + c] = nk
            if nk != k:
                KC |= nk << sh
                KR |= spread_line(c, nk & ~k, m, n, cspread, flags[3])
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
    mask_m = low_mask(m)
    mask_n = low_mask(n)
    total = low_mask(n * m)
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
def scratch_arrays(n, m):
    """Per-thread work arrays: rows, cols, each line's clue, run count and last
    solver result, and the line solvers' arrays."""
    big = max(n, m)
    runs = (big + 1) // 2 + 1
    return (
        np.zeros(max(n, 1), np.uint64),
        np.zeros(max(m, 1), np.uint64),
        np.zeros((n + m, runs), np.int64),
        np.zeros(n + m, np.int64),
        np.zeros(n + m, np.uint64),
        np.zeros((runs + 1, big + 3), np.uint8),
        np.zeros((runs + 1, big + 3), np.uint8),
        np.zeros(big + 3, np.int32),
        np.zeros(big + 3, np.int32),
        np.zeros(runs + 1, np.uint64),
    )


@njit(cache=True)
def _load_grid(grid, n, m, rows, cols, rspread, flags):
    """Fill rows and cols from a Grid-layout bit mask."""
    mask_m = low_mask(m)
    mask_n = low_mask(n)
    colword = np.uint64(0)
    for r in range(n):
        p = (grid >> np.uint64(r * m)) & mask_m
        rows[r] = p
        colword |= spread_line(r, p, n, m, rspread, flags[2])
    for c in range(m):
        cols[c] = (colword >> np.uint64(c * n)) & mask_n


@njit(cache=True)
def solve_grids(grids, n, m, rtab, ctab, rspread, cspread, flags):
    """Status and final known mask of each grid in an array of Grid bit masks."""
    rows, cols, clues, nruns, last, F, G, bad, cover, Q = scratch_arrays(n, m)
    status = np.zeros(len(grids), np.int64)
    known = np.zeros(len(grids), np.uint64)
    fast = flags[0] and flags[1] and flags[2] and flags[3]
    for i in range(len(grids)):
        _load_grid(grids[i], n, m, rows, cols, rspread, flags)
        if fast:
            status[i], known[i] = _propagate_tables(rows, cols, n, m, rtab, ctab, rspread, cspread)
        else:
            status[i], known[i] = _propagate(
                rows, cols, n, m, rtab, ctab, rspread, cspread, flags, clues, nruns, last, F, G, bad, cover, Q
            )
    return status, known


@njit(cache=True)
def kernel_shard(n, m, shard, inner_bits, group, rtab, ctab, rspread, cspread, flags):
    """Weighted solvable count over enumeration indices [shard << inner_bits, (shard+1) << inner_bits)."""
    rows, cols, clues, nruns, last, F, G, bad, cover, Q = scratch_arrays(n, m)
    mask_m = low_mask(m)
    mask_n = low_mask(n)
    # row r's shift in the enumeration index (the rows order, engines.enumeration)
    shifts = np.zeros(max(n, 1), np.uint64)
    for r in range(n):
        shifts[r] = _row_shift(r, n, m)
    border_low = _border_low(n, m, group)
    step_bits = min(border_low, inner_bits)
    base = np.uint64(shard) << np.uint64(inner_bits)
    fast = flags[0] and flags[1] and flags[2] and flags[3]
    # When only the rows need the line solver, propagate columns first: the table
    # lookups then give the solver knowledge to start from, and thin grids (1×m)
    # are solved before any line solver runs.  Local logic's fixpoint does not depend
    # on the order of the line updates, so neither does the verdict.
    cols_first = not flags[0] and flags[1]
    tflags = (flags[1], flags[0], flags[3], flags[2])
    total = 0
    for s in range(1 << (inner_bits - step_bits)):
        start = base | (np.uint64(s) << np.uint64(step_bits))
        weight = 1
        if group == FLIPS:
            weight = border_weight(start >> np.uint64(border_low), n, m)
        elif group == SQUARE:
            weight = square_weight(start >> np.uint64(border_low), n)
        if weight == 0:
            continue
        solved = 0
        for j in range(1 << step_bits):
            index = start | np.uint64(j)
            if group == SQUARE:
                square_rows(index, n, rows)
            else:
                for r in range(n):
                    rows[r] = (index >> shifts[r]) & mask_m
            colword = np.uint64(0)
            for r in range(n):
                colword |= spread_line(r, rows[r], n, m, rspread, flags[2])
            for c in range(m):
                cols[c] = (colword >> np.uint64(c * n)) & mask_n
            if fast:
                status, _ = _propagate_tables(rows, cols, n, m, rtab, ctab, rspread, cspread)
            elif cols_first:
                status, _ = _propagate(
                    cols, rows, m, n, ctab, rtab, cspread, rspread, tflags, clues, nruns, last, F, G, bad, cover, Q
                )
            else:
                status, _ = _propagate(
                    rows, cols, n, m, rtab, ctab, rspread, cspread, flags, clues, nruns, last, F, G, bad, cover, Q
                )
            solved += status == SOLVED
        total += weight * solved
    return total


@njit(cache=True, parallel=True)
def kernel_shards(n, m, shards, inner_bits, group, rtab, ctab, rspread, cspread, flags):
    """``kernel_shard`` for each shard of an array, spread over numba threads."""
    out = np.zeros(len(shards), np.int64)
    for i in prange(len(shards)):
        out[i] = kernel_shard(n, m, shards[i], inner_bits, group, rtab, ctab, rspread, cspread, flags)
    return out
