"""CUDA kernels (numba.cuda): the general kernel's count on a GPU, one thread per stretch of enumeration indices.

No I/O here, and no checks of sizes but the variant's own (``count.py`` and ``layout.py`` check them).  The
enumeration index, the symmetry groups and their weights are the general kernel's (``engines.grid.kernel``,
whose module doc proves the reduction).  The index order is stated in ``engines.enumeration`` (NONE and FLIPS:
the rows order; SQUARE: the square's; ``border_low``): its integer functions give the constants the kernels are
built with (``rows_loader``) and are compiled as device functions for the weights and the rows.  A border's
weight is its orbit's size if it is the least of its orbit, else 0 (``enumeration.orbit_weight``), and the count
is the sum of weight × solved over the indices.  Written again here for the device (device functions cannot call CPU kernels), and checked against the
CPU engines and ``tests/naive.py`` in numba's CUDA simulator.

Thread mapping: a launch covers 2^inner indices (one shard); thread t takes indices
[t·per, (t+1)·per), a stretch of consecutive grids that shares its border most of the time, so the
weight is computed once per border and a stretch of a non-representative border is skipped whole.
Each thread propagates its grids, adds weight × solved into a register, and adds its sum atomically
into ``out[block]`` (zeroed by the host, which adds the blocks): one atomic per thread against its
stretch of up to 2^10 grids.  No static shared array: numba's CUDA simulator allocates one on first
use per block without a lock, so two of its threads could each get their own (a block sum of
uninitialised memory, seen once in CI).

Variants (``count_kernel(n, m, group, place, lanes)``), the same count from each:

* where the line tables (uint16, 4^m row entries, 4^n column entries) live, ``PLACES``: GLOBAL, read
  with ordinary loads (cached in L1 on sm_70 and later; numba-cuda has no load of the read-only path,
  ``ld.global.nc``, since ``cuda.ldg`` went); SHARED, both copied into each block's dynamic shared
  memory (above 48 KiB the host opts the kernel in first: ``count.opt_in_shared``); SHARED_ONE, for
  squares of the nonogram family, whose row and column tables are the same table: one copy serves
  both (7x7: 32 KiB where two take 64).  The spread tables (uint64, n·2^m, flattened) stay in global
  memory.
* ``lanes`` grids per thread (``LANE_CHOICES``): 1 propagates one grid at a time and stops at its fixpoint;
  2 or 4 propagate consecutive grids of a border's run in lockstep, each lane with its own rows,
  columns and known words, the loop running while any lane has not stopped (``solved_lanes``), as
  the CPU's generated kernels do (``engines.grid.specialize``): independent table lookups a thread
  can have in flight together, against one longer chain.

Specialised: each kernel is built for one size, symmetry group, place and lanes, with all of them
constants of the compiled code (as the CPU engine's generated per-size kernels are), so the loops over
rows, columns and lanes unroll and a grid's rows and columns live in registers.  ``scripts/gpu_ptx.py``
compiles every variant to PTX for sm_90 and runs ptxas on it without a GPU (``tests/test_gpu_ptx.py``,
run by ``.ci/run``): no spills, no stack, no local memory (before the specialisation: one generic
kernel, 80 registers, a 256-byte stack frame, 84 local stores and 56 local loads for the rows and
columns indexed by the runtime n and m).
"""

from __future__ import annotations

import functools

import numpy as np
from numba import cuda, uint16, uint64

from .. import enumeration
from ..base import GROUP_IDS

NONE, FLIPS, SQUARE = GROUP_IDS["none"], GROUP_IDS["flips"], GROUP_IDS["square"]  # symmetry groups
#: Most lines a size may have in one direction (the GPU layout's limit).
MAX_LINES = 16
#: Where the line tables live: global memory, both in shared memory, one shared copy for rows and columns.
GLOBAL, SHARED, SHARED_ONE = "global", "shared", "shared-one"
PLACES = (GLOBAL, SHARED, SHARED_ONE)
#: The lane counts a kernel may be compiled for: grids a thread propagates in lockstep (``tuning.GPU_LANES`` picks one).
LANE_CHOICES = (1, 2, 4)

_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)

# The enumeration index order, as engines.enumeration states it (plain integer functions compiled for the device).
_ORDER = enumeration.compiled(
    cuda.jit(device=True),
    ("row_shift", "rows_low_bits", "square_border_shifts", "square_edge_shifts", "square_border_row",
     "square_interior_shift", "orbit_weight"),
)  # fmt: skip
_row_shift, _rows_low_bits, _orbit_weight = _ORDER["row_shift"], _ORDER["rows_low_bits"], _ORDER["orbit_weight"]
_square_edge_shifts, _square_border_row = _ORDER["square_edge_shifts"], _ORDER["square_border_row"]
_square_interior_shift = _ORDER["square_interior_shift"]


@cuda.jit(device=True, inline=True)
def _mask(length):
    if length == 0:
        return uint64(0)
    return (uint64(0xFFFFFFFFFFFFFFFF)) >> uint64(64 - length)


@cuda.jit(device=True)
def _reverse(x, length):
    out = uint64(0)
    for i in range(length):
        out |= ((x >> uint64(i)) & uint64(1)) << uint64(length - 1 - i)
    return out


@cuda.jit(device=True)
def border_weight(border, n, m):
    """Orbit size of a border (row 0, row n-1) under the flips if it is the least of its orbit, else 0 (with
    n = 1 the one row: the upside-down flip keeps it)."""
    low = _rows_low_bits(n, m)
    at_top = uint64(_row_shift(0, n, m) - low)
    at_bottom = uint64(_row_shift(n - 1, n, m) - low)
    a = (border >> at_top) & _mask(m)
    b = (border >> at_bottom) & _mask(m)
    ra = _reverse(a, m)
    rb = _reverse(b, m)
    k_v = (b << at_top) | (a << at_bottom)
    k_h = (ra << at_top) | (rb << at_bottom)
    k_vh = (rb << at_top) | (ra << at_bottom)
    return _orbit_weight(border, (border, k_v, k_h, k_vh))


@cuda.jit(device=True)
def square_border_mask(border, n):
    """The border code of an n×n square (the square's order, ``engines.enumeration``) as a Grid mask (bit r*n + c)."""
    grid = uint64(0)
    for r in range(n):
        grid |= uint64(_square_border_row(border, r, n)) << uint64(r * n)
    return grid


@cuda.jit(device=True)
def _bit(x, y, n):
    return uint64(1) << uint64(x * n + y)


@cuda.jit(device=True)
def square_weight(border, n):
    """Orbit size of a square's border under its 8 symmetries if it is the least of its orbit, else 0: the border's
    images as eight scalars (registers: an array passed on would live in local memory)."""
    grid = square_border_mask(border, n)
    i0 = i1 = i2 = i3 = i4 = i5 = i6 = i7 = uint64(0)
    for r in range(n):
        for c in range(n):
            if (grid >> uint64(r * n + c)) & uint64(1):
                i0 |= _bit(r, c, n)
                i1 |= _bit(n - 1 - r, c, n)
                i2 |= _bit(r, n - 1 - c, n)
                i3 |= _bit(n - 1 - r, n - 1 - c, n)
                i4 |= _bit(c, r, n)
                i5 |= _bit(n - 1 - c, r, n)
                i6 |= _bit(c, n - 1 - r, n)
                i7 |= _bit(n - 1 - c, n - 1 - r, n)
    return _orbit_weight(grid, (i0, i1, i2, i3, i4, i5, i6, i7))


def count_kernel(n: int, m: int, group: int, place: str = GLOBAL, lanes: int = 1):
    """``count_range`` for n×m (n, m >= 1), one symmetry group, one place of the line tables (``PLACES``) and
    ``lanes`` grids per thread (``LANE_CHOICES``), compiled on first launch (and kept: ``functools.cache``).  n, m, the
    group, the lanes and every shift and mask are constants of the compiled code, so the rows and columns of a
    grid are indexed by constants once the loops over them are unrolled, and live in registers
    (``scripts/gpu_ptx.py`` shows what ptxas makes of it)."""
    if place not in PLACES:
        raise ValueError(f"no place of the line tables {place!r}: one of {', '.join(PLACES)}")
    if lanes not in LANE_CHOICES:
        raise ValueError(f"lanes must be one of {LANE_CHOICES}, not {lanes}")
    if place == SHARED_ONE and n != m:
        raise ValueError(f"one line table serves rows and columns of squares only, not {n}x{m}")
    return _count_kernel(n, m, group, place, lanes)


@functools.cache
def _count_kernel(n: int, m: int, group: int, place: str, lanes: int):
    """``count_kernel``'s kernel, built from device functions each specialised to these arguments."""
    load_rows = rows_loader(n, m, group)
    solved = _solver(n, m)
    solved_lanes = _lanes_solver(n, m, lanes)
    count_stretch = _stretch_counter(n, m, group, lanes, load_rows, solved, solved_lanes)
    return _range_kernel(n, m, place, count_stretch)


def _line_constants(n: int, m: int) -> tuple:
    """(row mask, column mask, the full grid's mask, a row's and a column's entries in its spread table)."""
    return np.uint64((1 << m) - 1), np.uint64((1 << n) - 1), np.uint64((1 << (n * m)) - 1), 1 << m, 1 << n


def _part_mask(shift: int, bits: int, word_bits: int) -> np.uint64:
    """The mask of the ``bits`` bits at ``shift`` of a ``word_bits``-bit word: all ones (no mask: the compiler drops
    it) where the part reaches the word's top."""
    return _ALL if shift + bits >= word_bits else np.uint64((1 << bits) - 1)


def rows_loader(n: int, m: int, group: int):
    """Device function ``load_rows(index, rows, at)`` for n×m and the group's index order (``engines.enumeration``:
    the square's for SQUARE, else the rows order), its shifts and masks constants of the compiled code."""
    N, M, GROUP = n, m, group
    MASK_M, MASK_N = _line_constants(n, m)[:2]
    if group == SQUARE:
        SIDE, INNER, CODE = n - 2, enumeration.border_low(n, n, group), enumeration.border_bits(n, n, "square")
        AT_TOP, AT_BOTTOM, AT_LEFT, AT_RIGHT = enumeration.square_border_shifts(n)
        MASK_TOP, MASK_BOTTOM = _part_mask(AT_TOP, n, CODE), _part_mask(AT_BOTTOM, n, CODE)
        MASK_LEFT, MASK_RIGHT = _part_mask(AT_LEFT, SIDE, CODE), _part_mask(AT_RIGHT, SIDE, CODE)
    else:  # never read: the square's branch is compiled out
        SIDE = INNER = AT_TOP = AT_BOTTOM = AT_LEFT = AT_RIGHT = 0
        MASK_TOP = MASK_BOTTOM = MASK_LEFT = MASK_RIGHT = np.uint64(0)
    MASK_SIDE = np.uint64((1 << SIDE) - 1)

    @cuda.jit(device=True)
    def load_rows(index, rows, at):
        """Rows (bit c = cell c) of the grid at an enumeration index, into rows[at .. at + N - 1]."""
        if GROUP == SQUARE:
            border = index >> uint64(INNER)
            right = (border >> uint64(AT_RIGHT)) & MASK_RIGHT
            left = (border >> uint64(AT_LEFT)) & MASK_LEFT
            rows[at + N - 1] = (border >> uint64(AT_BOTTOM)) & MASK_BOTTOM
            rows[at] = (border >> uint64(AT_TOP)) & MASK_TOP
            for r in range(1, N - 1):
                middle = (index >> uint64(_square_interior_shift(r, N))) & MASK_SIDE
                edge_left, edge_right = _square_edge_shifts(r, N)
                rows[at + r] = (
                    ((left >> uint64(edge_left - AT_LEFT)) & uint64(1))
                    | (middle << uint64(1))
                    | (((right >> uint64(edge_right - AT_RIGHT)) & uint64(1)) << uint64(N - 1))
                )
        else:
            for r in range(N):
                rows[at + r] = (index >> uint64(_row_shift(r, N, M))) & MASK_M

    return load_rows


def _solver(n: int, m: int):
    """Device function ``solved(rows, rtab, ctab, rspread, cspread)`` for n×m: one grid to its fixpoint."""
    N, M = n, m
    MASK_M, MASK_N, FULL, WIDTH_R, WIDTH_C = _line_constants(n, m)

    @cuda.jit(device=True)
    def solved(rows, rtab, ctab, rspread, cspread):
        """1 if local logic solves the grid with these rows (line tables, to the fixpoint), else 0."""
        cols = cuda.local.array(M, uint64)
        colword = uint64(0)
        for r in range(N):
            colword |= rspread[r * WIDTH_R + rows[r]]
        for c in range(M):
            cols[c] = (colword >> uint64(c * N)) & MASK_N
        KR = uint64(0)
        KC = uint64(0)
        first = True
        while True:
            changed = False
            for r in range(N):
                sh = uint64(r * M)
                k = (KR >> sh) & MASK_M
                nk = uint64(rtab[(rows[r] << uint64(M)) | k])
                if nk != k:
                    KR |= nk << sh
                    KC |= rspread[r * WIDTH_R + (nk & ~k)]
                    changed = True
            if KR == FULL:
                return 1
            if not changed and not first:
                return 0
            first = False
            changed = False
            for c in range(M):
                sh = uint64(c * N)
                k = (KC >> sh) & MASK_N
                nk = uint64(ctab[(cols[c] << uint64(N)) | k])
                if nk != k:
                    KC |= nk << sh
                    KR |= cspread[c * WIDTH_C + (nk & ~k)]
                    changed = True
            if KR == FULL:
                return 1
            if not changed:
                return 0

    return solved


def _lanes_solver(n: int, m: int, lanes: int):
    """Device function ``solved_lanes(rows, live, rtab, ctab, rspread, cspread)`` for n×m and ``lanes`` lanes."""
    N, M, L = n, m, lanes
    MASK_M, MASK_N, FULL, WIDTH_R, WIDTH_C = _line_constants(n, m)
    ALL_STOPPED = (1 << lanes) - 1  # every lane's bit in ``stopped``
    LANE_COLS = lanes * m  # the lanes' columns, lane after lane: a local array's size

    @cuda.jit(device=True)
    def solved_lanes(rows, live, rtab, ctab, rspread, cspread):
        """How many of lanes 0 .. live - 1 (rows[g·N .. g·N + N - 1]: lane g's grid) local logic solves.

        The L grids are propagated in lockstep: each half pass updates every lane, and the loop runs while
        a lane has not stopped.  A lane stops where ``solved`` returns: solved, or a half pass (not the
        first) that changed nothing.  A stopped lane is solved or at a fixpoint, so the passes it still
        makes change nothing: no lane's result depends on another's.  Lanes from ``live`` on are stopped
        from the start and not counted (a stretch's last step)."""
        cols = cuda.local.array(LANE_COLS, uint64)
        KR = cuda.local.array(L, uint64)
        KC = cuda.local.array(L, uint64)
        stopped = 0
        for g in range(L):
            colword = uint64(0)
            for r in range(N):
                colword |= rspread[r * WIDTH_R + rows[g * N + r]]
            for c in range(M):
                cols[g * M + c] = (colword >> uint64(c * N)) & MASK_N
            KR[g] = uint64(0)
            KC[g] = uint64(0)
            if g >= live:
                stopped |= 1 << g
        first = True
        while True:
            for g in range(L):
                changed = False
                for r in range(N):
                    sh = uint64(r * M)
                    k = (KR[g] >> sh) & MASK_M
                    nk = uint64(rtab[(rows[g * N + r] << uint64(M)) | k])
                    if nk != k:
                        KR[g] |= nk << sh
                        KC[g] |= rspread[r * WIDTH_R + (nk & ~k)]
                        changed = True
                if KR[g] == FULL or (not changed and not first):
                    stopped |= 1 << g
            first = False
            if stopped == ALL_STOPPED:
                break
            for g in range(L):
                changed = False
                for c in range(M):
                    sh = uint64(c * N)
                    k = (KC[g] >> sh) & MASK_N
                    nk = uint64(ctab[(cols[g * M + c] << uint64(N)) | k])
                    if nk != k:
                        KC[g] |= nk << sh
                        KR[g] |= cspread[c * WIDTH_C + (nk & ~k)]
                        changed = True
                if KR[g] == FULL or not changed:
                    stopped |= 1 << g
            if stopped == ALL_STOPPED:
                break
        found = 0
        for g in range(L):
            found += g < live and KR[g] == FULL
        return found

    return solved_lanes


def _stretch_counter(n: int, m: int, group: int, lanes: int, load_rows, solved, solved_lanes):
    """Device function ``count_stretch(base, per, count, rtab, ctab, rspread, cspread, out)``: one thread's
    stretch of indices, border by border, from the device functions of ``rows_loader``, ``_solver`` and
    ``_lanes_solver``."""
    N, M, GROUP, L = n, m, group, lanes
    LOW = enumeration.border_low(n, m, group)
    LANE_ROWS = lanes * n  # the lanes' rows, lane after lane: a local array's size

    @cuda.jit(device=True)
    def count_border(start, end, rtab, ctab, rspread, cspread):
        """How many of the indices start .. end - 1 (one border's) local logic solves, L grids at a time."""
        rows = cuda.local.array(LANE_ROWS, uint64)
        found = np.int64(0)
        j = start
        while j < end:
            if L == 1:
                load_rows(j, rows, 0)
                found += solved(rows, rtab, ctab, rspread, cspread)
            else:
                for g in range(L):
                    load_rows(min(j + uint64(g), end - uint64(1)), rows, g * N)  # past the end: a copy, not counted
                found += solved_lanes(rows, np.int64(min(uint64(L), end - j)), rtab, ctab, rspread, cspread)
            j += uint64(L)
        return found

    @cuda.jit(device=True)
    def count_stretch(base, per, count, rtab, ctab, rspread, cspread, out):
        t = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        total = np.int64(0)
        lo = uint64(t) * uint64(per)
        hi = min(lo + uint64(per), uint64(count))
        j = lo
        while j < hi:
            index = uint64(base) + j
            border = index >> uint64(LOW)
            weight = 1
            if GROUP == FLIPS:
                weight = border_weight(border, N, M)
            elif GROUP == SQUARE:
                weight = square_weight(border, N)
            # the rest of this border's indices in the stretch
            end = min(hi, ((border + uint64(1)) << uint64(LOW)) - uint64(base))
            if weight != 0:
                found = count_border(uint64(base) + j, uint64(base) + end, rtab, ctab, rspread, cspread)
                total += np.int64(weight) * found
            j = end
        cuda.atomic.add(out, cuda.blockIdx.x, total)

    return count_stretch


def _range_kernel(n: int, m: int, place: str, count_stretch):
    """The kernel ``count_range`` for n×m with the line tables in ``place``, over ``count_stretch``."""
    PLACE = place
    RSIZE = 1 << (2 * m)  # entries of the row table (the column table follows it in shared memory)
    CSIZE = 0 if place == SHARED_ONE else 1 << (2 * n)  # entries of the column table copied after it

    @cuda.jit
    def count_range(base, per, count_, rtab, ctab, rspread, cspread, out):
        """Block sums of weight × solved over indices base + [t·per, min((t+1)·per, count_)) for each thread t.

        With the tables in shared memory, the block first copies them into its dynamic shared memory (launched
        with that many bytes): the row table, then the column table (SHARED), or the row table alone, which
        serves the columns too (SHARED_ONE: squares of the nonogram family)."""
        if PLACE == GLOBAL:
            count_stretch(base, per, count_, rtab, ctab, rspread, cspread, out)
        else:
            tables = cuda.shared.array(0, uint16)
            for i in range(cuda.threadIdx.x, RSIZE + CSIZE, cuda.blockDim.x):
                tables[i] = rtab[i] if i < RSIZE else ctab[i - RSIZE]
            cuda.syncthreads()
            if PLACE == SHARED_ONE:
                count_stretch(base, per, count_, tables[:RSIZE], tables[:RSIZE], rspread, cspread, out)
            else:
                count_stretch(base, per, count_, tables[:RSIZE], tables[RSIZE:], rspread, cspread, out)

    return count_range
