"""Local logic compiled (numba): ``logic.settle``'s passes, skips and steps on boards of at most 62 cells a side.

The same algorithm as ``logic.settle`` and ``logic._pass``, statement for
statement: full passes, rows then columns, lines in order, a line skipped
when none of its cells changed since its last update, a contradiction
returned at the first line that has no fitting pattern (the board as it is
then), a yesnogram's rows solved complemented.  A line is a machine word
(bit j: cell j), so a side may have at most ``lines.solvers.MAX_BITS_LINE``
cells, and a line is solved by ``lines.solvers._line_options_bits``, the
word solver that ``lines.words`` runs on Python ints.  What it does is
written into arrays: the board's four line arrays, the line updates that
decided cells (``trace``) and the known cells after each half pass
(``halves``); ``logic`` turns them into its own records, so this module
imports nothing of ``logic``'s (``settle`` below takes and returns plain
lists and ints).

Loaded only by ``logic.use_compiled()`` (the page's worker processes call
it at their start), so the command line's single-puzzle commands still load
no numba.  ``tests/test_compiled_logic.py`` compares it with the
interpreted ``logic.settle`` on random puzzles of both variants, with and
without givens, contradictions included.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ...lines.solvers import MAX_BITS_LINE, _line_options_bits

#: The longest side a compiled board may have (a line is one machine word).
MAX_SIDE = MAX_BITS_LINE


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
            can1, can0 = _line_options_bits(clue, clue.size, length, zeros[i], ones[i], Q)
        else:
            can0, can1 = _line_options_bits(clue, clue.size, length, ones[i], zeros[i], Q)
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
def _settle(n, m, rows1, rows0, cols1, cols0, clues, starts, yes, rows_todo, cols_todo, Q, trace, halves):
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


@functools.lru_cache(maxsize=64)
def _clue_arrays(row_clues: tuple, col_clues: tuple) -> tuple:
    """(every run length, rows first; where each line's runs start, and the end) as int64 arrays."""
    lines = row_clues + col_clues
    starts = np.zeros(len(lines) + 1, np.int64)
    starts[1:] = np.cumsum([len(c) for c in lines])
    flat = np.array([b for c in lines for b in c] or [0], np.int64)
    return flat, starts


def settle(rows1: list, rows0: list, cols1: list, cols0: list, row_clues, col_clues, yes: bool, rows_todo: int,
           cols_todo: int) -> tuple:  # fmt: skip
    """Local logic to the fixpoint on a board's line lists (in place), from the lines in ``rows_todo`` and
    ``cols_todo`` (bits): (the bad line's code or -1 (a row's index, or n + a column's), the line updates that
    decided cells as (code, new filled, new empty) line masks, the cells learnt after each half pass, the
    cells learnt in all).  Sides of at most ``MAX_SIDE`` cells."""
    n, m = len(rows1), len(cols1)
    flat, starts = _clue_arrays(tuple(map(tuple, row_clues)), tuple(map(tuple, col_clues)))
    arrays = [np.array(x, np.uint64) for x in (rows1, rows0, cols1, cols0)]
    Q = np.zeros(max(n, m) // 2 + 3, np.uint64)
    trace = np.zeros((n * m + 1, 3), np.uint64)
    halves = np.zeros(2 * n * m + 4, np.int64)
    bad, at, half, learnt = _settle(n, m, *arrays, flat, starts, bool(yes), np.uint64(rows_todo),
                                    np.uint64(cols_todo), Q, trace, halves)  # fmt: skip
    for lines, array in zip((rows1, rows0, cols1, cols0), arrays):
        lines[:] = array.tolist()
    return int(bad), trace[:at].tolist(), halves[:half].tolist(), int(learnt)


def load() -> None:
    """Load the compiled code now (from numba's disk cache, or compiling it), not on the first board: a 1x1 one."""
    settle([0], [0], [0], [0], ((1,),), ((1,),), False, 1, 1)
