"""Numba kernels of the numbering engine: local logic's steps for every grid in a range of numbers.

No I/O and no validation here (``layout`` and ``api.numbering`` do that).  A grid's number g reads the
cells row by row, the top-left cell most significant: row r is the m bits of g at
``order.row_shift``, its cell c at bit ``m - 1 - c``; the kernels turn it into the line tables' bit
order (bit c is cell c) with a reversal table ``rev``.

Code of a grid (``_code``): 0 when local logic leaves a cell unknown, else 1 + its steps.  Steps
are the halves of local logic from all-unknown, rows first: odd halves update every row, even
halves every column; a solved grid's steps are the halves up to the one that made its last cell
known; a half other than the first that changes nothing is the fixpoint (stuck).  This is the
definition of ``tests/naive.py``'s ``steps_to_solve``, written here on words with its own loop.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...lines.bits import low_mask
from . import order

# Where row r sits in a grid's number, as ``order`` states it (compiled for the kernels).
_row_shift = njit(cache=True)(order.row_shift)


@njit(cache=True, inline="always")
def _half(lines, count, length, tab, spread, K, other):
    """One half: each of ``count`` lines of ``length`` cells (true cells ``lines[i]``) updated from its table.

    ``K`` is the known mask in this direction's bit order, ``other`` in the crossing one; returns (K, other,
    the cells it learnt, or-ed over the lines: 0 if it learnt none).
    """
    mask = low_mask(length)
    shift = np.uint64(length)
    learnt = np.uint64(0)
    for i in range(count):
        sh = np.uint64(i * length)
        k = (K >> sh) & mask
        new = np.uint64(tab[(lines[i] << shift) | k]) & ~k
        if new:
            K |= new << sh
            other |= spread[i, new]
            learnt |= new
    return K, other, learnt


@njit(cache=True)
def _code(rows, cols, n, m, rtab, ctab, rspread, cspread):
    """0 if local logic does not solve the grid (rows ``rows``, columns ``cols``), else 1 + its steps."""
    full = low_mask(n * m)
    KR = np.uint64(0)  # known cells, bit r*m + c
    KC = np.uint64(0)  # the same, bit c*n + r
    half = 1  # odd halves update the rows, even ones the columns
    while True:
        KR, KC, learnt = _half(rows, n, m, rtab, rspread, KR, KC)
        if KR == full:
            return half + 1
        if learnt == 0 and half > 1:
            return 0
        half += 1
        KC, KR, learnt = _half(cols, m, n, ctab, cspread, KC, KR)
        if KR == full:
            return half + 1
        if learnt == 0:
            return 0
        half += 1


@njit(cache=True)
def _load(g, n, m, rev, rspread, rows, cols):
    """Fill ``rows`` and ``cols`` (the line tables' bit order) with the grid numbered g."""
    mask_m = low_mask(m)
    mask_n = low_mask(n)
    colword = np.uint64(0)
    for r in range(n):
        p = np.uint64(rev[(g >> np.uint64(_row_shift(n, m, r))) & mask_m])
        rows[r] = p
        colword |= rspread[r, p]
    for c in range(m):
        cols[c] = (colword >> np.uint64(c * n)) & mask_n


@njit(cache=True)
def _run(g0, count, n, m, rev, rtab, ctab, rspread, cspread, hist, out):
    """The codes of grids g0 .. g0 + count - 1: added into hist[code], or written to out[j] if out is not empty."""
    write = len(out) > 0
    rows = np.zeros(max(n, 1), np.uint64)
    cols = np.zeros(max(m, 1), np.uint64)
    for j in range(count):
        _load(np.uint64(g0 + j), n, m, rev, rspread, rows, cols)
        code = _code(rows, cols, n, m, rtab, ctab, rspread, cspread)
        if write:
            out[j] = code
        else:
            hist[code] += 1


@njit(cache=True)
def codes_into(g0, count, n, m, rev, rtab, ctab, rspread, cspread, out):
    """``out[j]`` = the code of grid g0 + j for j < count."""
    _run(g0, count, n, m, rev, rtab, ctab, rspread, cspread, np.zeros(1, np.int64), out)


@njit(cache=True)
def hist_into(g0, count, n, m, rev, rtab, ctab, rspread, cspread, hist):
    """Add 1 to ``hist[code]`` for each grid g0 .. g0 + count - 1."""
    _run(g0, count, n, m, rev, rtab, ctab, rspread, cspread, hist, np.zeros(0, np.int8))


@njit(cache=True, parallel=True)
def codes_threaded(g0, count, chunk, n, m, rev, rtab, ctab, rspread, cspread):
    """The codes of grids g0 .. g0 + count - 1 (int8), in chunks of ``chunk`` over numba threads."""
    out = np.zeros(count, np.int8)
    pieces = (count + chunk - 1) // chunk
    for i in prange(pieces):
        lo = i * chunk
        hi = min(count, lo + chunk)
        codes_into(g0 + lo, hi - lo, n, m, rev, rtab, ctab, rspread, cspread, out[lo:hi])
    return out
