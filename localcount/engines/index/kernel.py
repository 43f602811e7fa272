"""Numba kernels of the numbering engine: local logic's steps for every grid in a range of numbers.

No I/O and no validation here (``layout`` and ``api.every`` do that).  A grid's number g reads the
cells row by row, the top-left cell most significant, so row r is the m bits of g at
``(n - 1 - r) * m``, its cell c at bit ``m - 1 - c``; the kernels turn it into the line tables'
layout (bit c is cell c) with a reversal table ``rev``.

Code of a grid (``_code``): 0 when local logic leaves a cell unknown, else 1 + its steps.  Steps
are the halves of local logic from all-unknown, rows first: odd halves update every row, even
halves every column; a solved grid's steps are the halves up to the one that made its last cell
known; a half other than the first that changes nothing is the fixpoint (stuck).  This is the
definition of ``tests/naive.py``'s ``steps_to_solve``, written here on words with its own loop.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...lines.bits import _mask


@njit(cache=True)
def _code(rows, cols, n, m, rtab, ctab, rspread, cspread):
    """0 if local logic does not solve the grid (rows ``rows``, columns ``cols``), else 1 + its steps."""
    full = _mask(n * m)
    mask_m = _mask(m)
    mask_n = _mask(n)
    mm = np.uint64(m)
    nn = np.uint64(n)
    KR = np.uint64(0)  # known cells, bit r*m + c
    KC = np.uint64(0)  # the same, bit c*n + r
    half = 0
    while True:
        half += 1
        learnt = np.uint64(0)
        if half & 1:
            for r in range(n):
                sh = np.uint64(r * m)
                k = (KR >> sh) & mask_m
                new = np.uint64(rtab[(rows[r] << mm) | k]) & ~k
                if new:
                    KR |= new << sh
                    KC |= rspread[r, new]
                    learnt |= new
        else:
            for c in range(m):
                sh = np.uint64(c * n)
                k = (KC >> sh) & mask_n
                new = np.uint64(ctab[(cols[c] << nn) | k]) & ~k
                if new:
                    KC |= new << sh
                    KR |= cspread[c, new]
                    learnt |= new
        if KR == full:
            return half + 1
        if learnt == 0 and half > 1:
            return 0


@njit(cache=True)
def _load(g, n, m, rev, rspread, rows, cols):
    """Fill ``rows`` and ``cols`` (line-table layout) with the grid numbered g."""
    mask_m = _mask(m)
    mask_n = _mask(n)
    colword = np.uint64(0)
    for r in range(n):
        p = np.uint64(rev[(g >> np.uint64((n - 1 - r) * m)) & mask_m])
        rows[r] = p
        colword |= rspread[r, p]
    for c in range(m):
        cols[c] = (colword >> np.uint64(c * n)) & mask_n


@njit(cache=True)
def _codes_into(g0, count, n, m, rev, rtab, ctab, rspread, cspread, out):
    """``out[j]`` = the code of grid g0 + j for j < count."""
    rows = np.zeros(max(n, 1), np.uint64)
    cols = np.zeros(max(m, 1), np.uint64)
    for j in range(count):
        _load(np.uint64(g0 + j), n, m, rev, rspread, rows, cols)
        out[j] = _code(rows, cols, n, m, rtab, ctab, rspread, cspread)


@njit(cache=True)
def _hist_into(g0, count, n, m, rev, rtab, ctab, rspread, cspread, hist):
    """Add 1 to ``hist[code]`` for each grid g0 .. g0 + count - 1."""
    rows = np.zeros(max(n, 1), np.uint64)
    cols = np.zeros(max(m, 1), np.uint64)
    for j in range(count):
        _load(np.uint64(g0 + j), n, m, rev, rspread, rows, cols)
        hist[_code(rows, cols, n, m, rtab, ctab, rspread, cspread)] += 1


@njit(cache=True, parallel=True)
def _codes(g0, count, chunk, n, m, rev, rtab, ctab, rspread, cspread):
    """The codes of grids g0 .. g0 + count - 1 (int8), in chunks of ``chunk`` over numba threads."""
    out = np.zeros(count, np.int8)
    pieces = (count + chunk - 1) // chunk
    for i in prange(pieces):
        lo = i * chunk
        hi = min(count, lo + chunk)
        _codes_into(g0 + lo, hi - lo, n, m, rev, rtab, ctab, rspread, cspread, out[lo:hi])
    return out

