"""Table-free exact line solver: which cells can be empty / filled in some fitting pattern.

This is the dynamic program used for lines too long for a line table
(4^L entries), by the numba kernels, and as an
independent check of the tables in the tests.  It runs in O(L * runs).

The line is padded with one virtual empty cell in front, so a pattern is a
sequence of *tokens*: ``0`` (an empty cell) or ``0 1^b`` (an empty cell then
a run of b filled cells); the runs appear in clue order.  ``F[j, i]`` says the
first i padded cells can be split into tokens holding the first j runs,
``G[j, i]`` that the padded cells from i on can be split into tokens holding
runs j.. of the clue.  Every empty cell starts a token, so a cell can be empty
iff ``F[j, i] and G[j, i]`` for some j; it can be filled iff it lies inside a
run token that fits with a matching prefix and suffix.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_LINE = 64
#: Longest line ``line_options_bits_kernel`` handles: positions 0..L+1 must fit a uint64.
MAX_BITS_LINE = 62


def make_scratch(max_len: int = MAX_LINE) -> tuple:
    """Work arrays for ``line_options_kernel`` on lines up to max_len cells."""
    runs = (max_len + 1) // 2 + 1
    return (
        np.zeros((runs + 1, max_len + 3), np.uint8),
        np.zeros((runs + 1, max_len + 3), np.uint8),
        np.zeros(max_len + 3, np.int32),
        np.zeros(max_len + 3, np.int32),
    )


@njit(cache=True)
def line_options_kernel(clue, t, length, known1, known0, F, G, bad, cover):
    """(can0, can1): masks of the cells that are 0 / 1 in some pattern fitting
    the first t entries of ``clue`` and the known cells (known1 filled, known0
    empty).  A cell in neither mask means no pattern fits (a contradiction)."""
    one = np.uint64(1)
    P = length + 1  # padded length; padded cell i is real cell i - 1
    # bad[i] = number of padded cells before i that cannot be filled.
    bad[0] = 0
    bad[1] = 1  # the virtual cell is empty
    for i in range(1, P):
        bad[i + 1] = bad[i] + ((known0 >> np.uint64(i - 1)) & one)
    for j in range(t + 1):
        for i in range(P + 1):
            F[j, i] = 0
            G[j, i] = 0
    F[0, 0] = 1
    for i in range(1, P + 1):
        # can padded cell i-1 be empty?
        empty_ok = i - 1 == 0 or ((known1 >> np.uint64(i - 2)) & one) == 0
        for j in range(t + 1):
            v = empty_ok and F[j, i - 1] == 1
            if not v and j > 0:
                s = i - clue[j - 1] - 1  # token start (its empty cell)
                if s >= 0 and F[j - 1, s] == 1 and bad[i] - bad[s + 1] == 0:
                    v = s == 0 or ((known1 >> np.uint64(s - 1)) & one) == 0
            F[j, i] = v
    G[t, P] = 1
    for i in range(P - 1, -1, -1):
        if i > 0 and ((known1 >> np.uint64(i - 1)) & one):
            continue  # a token cannot start on a filled cell
        for j in range(t + 1):
            v = G[j, i + 1] == 1
            if not v and j < t:
                e = i + 1 + clue[j]
                v = e <= P and bad[e] - bad[i + 1] == 0 and G[j + 1, e] == 1
            G[j, i] = v
    can0 = np.uint64(0)
    can1 = np.uint64(0)
    if F[t, P] == 0:
        return can0, can1
    for i in range(P + 2):
        cover[i] = 0
    for i in range(1, P):
        for j in range(t + 1):
            if F[j, i] and G[j, i]:
                can0 |= one << np.uint64(i - 1)
                break
    for j in range(t):
        b = clue[j]
        for s in range(0, P - b):
            # G[j, s] here stands for "padded cell s may be empty": it holds
            # whenever the run token fits at s, and never on a filled cell.
            if F[j, s] and G[j, s] and bad[s + 1 + b] - bad[s + 1] == 0 and G[j + 1, s + 1 + b]:
                cover[s + 1] += 1
                cover[s + 1 + b] -= 1
    run = 0
    for i in range(1, P):
        run += cover[i]
        if run > 0:
            can1 |= one << np.uint64(i - 1)
    return can0, can1


def line_options(clue, length: int, known1: int = 0, known0: int = 0) -> tuple:
    """(can0, can1) for a clue on a line of ``length`` cells with some cells known."""
    if length > MAX_LINE:
        raise ValueError(f"line of {length} cells is longer than {MAX_LINE}")
    if sum(clue) + len(clue) - 1 > length:
        return 0, 0  # cannot fit (and would overrun the DP's arrays, sized for clues that fit)
    arr = np.zeros(max(1, len(clue)), np.int64)
    arr[: len(clue)] = clue
    F, G, bad, cover = make_scratch(length)
    can0, can1 = line_options_kernel(arr, len(clue), length, np.uint64(known1), np.uint64(known0), F, G, bad, cover)
    return int(can0), int(can1)


# --- The same answer with word operations: O(runs) instead of O(L * runs). ---
#
# Bit i of a word is cell i (or *position* i: the boundary before cell i;
# position L is the line's end).  A virtual empty cell L follows the line.
# E = cells that may be empty (not known filled, plus the virtual cell),
# Z = cells that may not be filled (known empty, and every bit >= L).
# Forward, a pattern is split into tokens "run j, then one empty cell"; R_j
# is the set of positions p such that cells [0, p) can hold runs 0..j-1 as
# tokens and empty cells.  Backward, tokens are "one empty cell, then run";
# Q_k is the set of positions p such that cells [p, L) can hold the last k
# runs as such tokens and empty cells.  Run j can start at s iff s in R_j,
# cells s..s+b-1 can be filled, and s+b in Q_{t-1-j} (Q_0 holds the line's
# end L).  Cell x can be empty iff it follows such a run (s+b = x), or
# x in R_j and x in Q_{t-j} for some j (an empty cell outside any token
# of one direction).  The line has a fitting pattern iff L+1 in R_t.


@njit(cache=True)
def _smear_up(x, width):
    """OR of x << i for 0 <= i < width (width >= 1)."""
    w = 1
    while w * 2 <= width:
        x |= x << np.uint64(w)
        w *= 2
    if w < width:
        x |= x << np.uint64(width - w)
    return x


@njit(cache=True)
def _smear_down(x, width):
    """OR of x >> i for 0 <= i < width (width >= 1)."""
    w = 1
    while w * 2 <= width:
        x |= x >> np.uint64(w)
        w *= 2
    if w < width:
        x |= x >> np.uint64(width - w)
    return x


@njit(cache=True)
def _reach_up(x, a):
    """Positions p >= some q in x with every cell of [q, p) in a (one addition:
    the carry runs from the lowest seed of each run of a to one past its end)."""
    return x | ((a + (x & a)) ^ a)


@njit(cache=True)
def _reach_down(x, a, steps):
    """Positions p <= some q in x with every cell of [p, q) in a, for q - p < 2^steps."""
    d = np.uint64(1)
    for _ in range(steps):
        x |= (x >> d) & a
        a &= a >> d
        d <<= np.uint64(1)
    return x


@njit(cache=True)
def line_options_bits_kernel(clue, t, length, known1, known0, Q):
    """``line_options_kernel`` for lines up to MAX_BITS_LINE cells by word operations.

    Q: scratch of at least t + 1 uint64 words.
    """
    one = np.uint64(1)
    L = np.uint64(length)
    full = (one << L) - one
    E = (~known1 & full) | (one << L)
    Z = ~(~known0 & full)
    steps = 0
    while (1 << steps) <= length:
        steps += 1
    Q[0] = _reach_down(one << L, E, steps)
    for k in range(1, t + 1):
        b = np.uint64(clue[t - k])
        starts = ~_smear_down(Z, clue[t - k]) & (E << one) & (Q[k - 1] >> b)
        Q[k] = _reach_down(starts >> one, E, steps)
    R = _reach_up(one, E)
    can0 = np.uint64(0)
    can1 = np.uint64(0)
    for j in range(t):
        b = np.uint64(clue[j])
        can0 |= R & Q[t - j]
        starts = R & ~_smear_down(Z, clue[j]) & (E >> b)
        fits = starts & (Q[t - 1 - j] >> b)
        can1 |= _smear_up(fits, clue[j])
        can0 |= fits << b  # the empty cell after the run
        R = _reach_up(starts << (b + one), E)
    can0 |= R & Q[0]
    if (R >> (L + one)) & one == 0:
        return np.uint64(0), np.uint64(0)
    return can0 & full, can1 & full


def line_options_bits(clue, length: int, known1: int = 0, known0: int = 0) -> tuple:
    """(can0, can1) as ``line_options``, by the word-operation solver."""
    if length > MAX_BITS_LINE:
        raise ValueError(f"line of {length} cells is longer than {MAX_BITS_LINE}")
    arr = np.zeros(max(1, len(clue)), np.int64)
    arr[: len(clue)] = clue
    Q = np.zeros(len(clue) + 1, np.uint64)
    can0, can1 = line_options_bits_kernel(arr, len(clue), length, np.uint64(known1), np.uint64(known0), Q)
    return int(can0), int(can1)
