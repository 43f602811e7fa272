"""The sampler's kernel: for each grid (rows as machine words), its clues, then local logic from all unknown.

``sample_grids`` writes each grid's steps (the half pass, rows first, in which
its last cell became known, as ``puzzle.solving.logic.difficulty`` counts
them; 0 when local logic leaves cells unknown) and whether local logic
decided nothing at all.  Local logic is ``lines.board.settle_board``; a grid's
own clues never contradict it.  ``tests/test_sample.py`` compares the steps
with ``logic.difficulty`` on random grids of many sizes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...lines.board import settle_board


@njit(cache=True)
def _runs_into(word, length, clues, at):
    """Append the run lengths of a line word's 1s (low bit first) to ``clues`` from ``at``; the next free index."""
    run = 0
    for i in range(length):
        if word >> np.uint64(i) & np.uint64(1):
            run += 1
        elif run:
            clues[at] = run
            at += 1
            run = 0
    if run:
        clues[at] = run
        at += 1
    return at


@njit(cache=True)
def sample_grids(rows, n, m, steps, stuck):
    """For grid g (``rows[g, r]``: row r, bit c = cell (r, c)): ``steps[g]`` and ``stuck[g]`` (module doc)."""
    one = np.uint64(1)
    cols = np.zeros(m, np.uint64)
    clues = np.zeros(n * ((m + 1) // 2) + m * ((n + 1) // 2) + 1, np.int64)
    starts = np.zeros(n + m + 1, np.int64)
    rows1, rows0 = np.zeros(n, np.uint64), np.zeros(n, np.uint64)
    cols1, cols0 = np.zeros(m, np.uint64), np.zeros(m, np.uint64)
    Q = np.zeros(max(n, m) // 2 + 3, np.uint64)
    trace = np.zeros((n * m + 1, 3), np.uint64)
    halves = np.zeros(2 * n * m + 4, np.int64)
    all_rows = (one << np.uint64(n)) - one
    all_cols = (one << np.uint64(m)) - one
    for g in range(rows.shape[0]):
        cols[:] = 0
        for r in range(n):
            for c in range(m):
                if rows[g, r] >> np.uint64(c) & one:
                    cols[c] |= one << np.uint64(r)
        at = 0
        for r in range(n):
            starts[r] = at
            at = _runs_into(rows[g, r], m, clues, at)
        for c in range(m):
            starts[n + c] = at
            at = _runs_into(cols[c], n, clues, at)
        starts[n + m] = at
        rows1[:] = 0
        rows0[:] = 0
        cols1[:] = 0
        cols0[:] = 0
        _, _, half, learnt = settle_board(n, m, rows1, rows0, cols1, cols0, clues, starts, False, all_rows, all_cols, Q,
                                     trace, halves)  # fmt: skip
        steps[g] = 0
        if learnt == n * m:
            for h in range(half):
                if halves[h] == n * m:
                    steps[g] = h + 1
                    break
        stuck[g] = learnt == 0
