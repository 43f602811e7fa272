"""Local logic on a board of machine words, compiled (numba): a board settled to its fixpoint, line by line.

A board of n×m cells (each side at most ``solvers.MAX_BITS_LINE``) is four
arrays of line words: ``rows1[r]``/``rows0[r]`` (bit c: cell (r, c) known
filled/empty) and ``cols1[c]``/``cols0[c]`` (bit r).  ``settle_board`` runs
local logic to the fixpoint as ``puzzle.solving.logic.settle`` does, pass
for pass: full passes, rows then columns, lines in order, a line skipped
when none of its cells changed since its last update, a contradiction
returned at the first line with no fitting pattern, a yesnogram's rows
solved complemented; each line by ``solvers.line_options_bits_kernel``.  What it
did is written into arrays: the line updates that decided cells
(``trace``) and the cells known after each half pass (``halves``).

Its users: ``puzzle.solving.compiled`` (single puzzles: local logic and
probing, compared with the interpreted ``logic.settle`` by
``tests/test_compiled_logic.py``) and ``engines.sample`` (random grids).

Imports ``solvers`` only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .solvers import line_options_bits_kernel


@njit(cache=True)
def _pass(todo, count, length, base, ones, zeros, cross_ones, cross_zeros, clues, starts, complemented, Q, trace, at):
    """One half pass over the lines of one direction in ``todo`` (bit i: line i), lowest first, in place.

    Returns (the bad line's index, or -1; the crossing lines it decided cells of, as bits; the cells it
    decided; the next free entry of ``trace``).  Line i's clue is ``clues[starts[base + i]:starts[base + i +
    1]]``; ``trace[at] = (base + i, new filled, new empty)`` for every line update that decides a cell.
    """
    one = np.uint64(1)
    full = (one << np.uint64(length)) - one
    crossing = np.uint64(0)
    learnt = 0
    for i in range(count):
        bit = one << np.uint64(i)
        if todo & bit == 0:
            continue
        clue = clues[starts[base + i] : starts[base + i + 1]]
        if complemented:  # the complemented row is a nonogram row: its 1s are our 0s
            can1, can0 = line_options_bits_kernel(clue, clue.size, length, zeros[i], ones[i], Q)
        else:
            can0, can1 = line_options_bits_kernel(clue, clue.size, length, ones[i], zeros[i], Q)
        if (can0 | can1) != full:
            return i, crossing, learnt, at
        new1 = can1 & ~can0 & ~ones[i]
        new0 = can0 & ~can1 & ~zeros[i]
        if new1 | new0:
            ones[i] |= new1
            zeros[i] |= new0
            new = new1 | new0
            crossing |= new
            x = new
            while x:
                learnt += 1
                x &= x - one
            for k in range(length):
                kb = one << np.uint64(k)
                if new1 & kb:
                    cross_ones[k] |= bit
                elif new0 & kb:
                    cross_zeros[k] |= bit
            trace[at, 0] = np.uint64(base + i)
            trace[at, 1] = new1
            trace[at, 2] = new0
            at += 1
    return -1, crossing, learnt, at


@njit(cache=True)
def settle_board(n, m, rows1, rows0, cols1, cols0, clues, starts, yes, rows_todo, cols_todo, Q, trace, halves):
    """``logic.settle`` on the line arrays: (bad line code or -1, trace entries, halves entries, cells learnt).

    A line code is a row's index, or n + a column's."""
    at = 0
    half = 0
    learnt = 0
    while rows_todo != 0 or cols_todo != 0:
        bad, crossing, gained, at = _pass(rows_todo, n, m, 0, rows1, rows0, cols1, cols0, clues, starts, yes, Q,
                                          trace, at)  # fmt: skip
        rows_todo = np.uint64(0)
        cols_todo |= crossing
        learnt += gained
        if bad >= 0:
            return bad, at, half, learnt
        halves[half] = learnt
        half += 1
        bad, crossing, gained, at = _pass(cols_todo, m, n, n, cols1, cols0, rows1, rows0, clues, starts, False, Q,
                                          trace, at)  # fmt: skip
        cols_todo = np.uint64(0)
        rows_todo |= crossing
        learnt += gained
        if bad >= 0:
            return n + bad, at, half, learnt
        halves[half] = learnt
        half += 1
    return -1, at, half, learnt
