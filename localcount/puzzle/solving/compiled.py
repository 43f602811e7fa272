"""Local logic and probing compiled (numba): ``logic.settle``'s passes, skips and steps, and ``probing.probe``'s
tries, on boards of at most 62 cells a side.

Local logic is ``lines.board.settle_board``: the same algorithm as ``logic.settle``
and ``logic._pass``, statement for statement: full passes, rows then columns, lines in order, a line skipped
when none of its cells changed since its last update, a contradiction
returned at the first line that has no fitting pattern (the board as it is
then), a yesnogram's rows solved complemented.  A line is a machine word
(bit j: cell j), so a side may have at most ``lines.solvers.MAX_BITS_LINE``
cells, and a line is solved by ``lines.solvers.line_options_bits_kernel``, the
word solver that ``lines.words`` runs on Python ints.  What it does is
written into arrays: the board's four line arrays, the line updates that
decided cells (``trace``) and the known cells after each half pass
(``halves``); ``logic`` turns them into its own records, so this module
imports nothing of ``logic``'s (``settle`` below takes and returns plain
lists and ints).

``_probe`` is ``probing.probe`` statement for statement on one vector of the board's lines (rows filled,
rows empty, columns filled, columns empty): the same cells tried in the same order, the same adoptions and
agreed cells, the same best branch and probe count; it pauses every so many tried cells so that its caller
can look at the clock, and resumes where it stopped (``Prober`` keeps its arrays between the calls).

Loaded only by ``logic.use_compiled()`` (the page's worker processes call
it at their start), so the command line's single-puzzle commands still load
no numba.  ``tests/test_compiled_logic.py`` compares it with the
interpreted ``logic.settle`` on random puzzles of both variants, with and
without givens, contradictions included; ``tests/test_compiled_probing.py``
compares the probing and the search.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from ...lines.board import settle_board
from ...lines.solvers import MAX_BITS_LINE

#: The longest side a compiled board may have (a line is one machine word).
MAX_SIDE = MAX_BITS_LINE


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
    bad, at, half, learnt = settle_board(n, m, *arrays, flat, starts, bool(yes), np.uint64(rows_todo),
                                    np.uint64(cols_todo), Q, trace, halves)  # fmt: skip
    for lines, array in zip((rows1, rows0, cols1, cols0), arrays):
        lines[:] = array.tolist()
    return int(bad), trace[:at].tolist(), halves[:half].tolist(), int(learnt)


def cached() -> bool:
    """True when numba's disk cache holds this source's compiled kernels, so that ``load`` reads them (about a
    second); False when ``load`` would compile them (seconds more, ``tuning.LOGIC_COMPILE_SECONDS``) or it cannot
    tell (numba's cache index is read through its internals; a numba that changed them answers False)."""
    try:
        return all(bool(kernel._cache._cache_file._load_index()) for kernel in (_settle_vector, _probe))
    except Exception:  # any numba whose cache works otherwise: not known to be cached
        return False


def load() -> None:
    """Load the compiled code now (from numba's disk cache, or compiling it), not on the first board: a 1x1 one,
    settled and probed."""
    settle([0], [0], [0], [0], ((1,),), ((1,),), False, 1, 1)
    Prober([0, 0, 0, 0], 0, 1, 1, ((1,),), ((1,),), False).run(-1)


#: ``_probe``'s verdicts (``probing`` names them).
PROBE_SOLVED, PROBE_CONTRADICTION, PROBE_STUCK, PROBE_PAUSED = 0, 1, 2, 3
#: ``_probe``'s state vector: the board's known cells, the next cell, cells looked at since something was
#: decided, whether a best branch is kept, its cell, its score, its boards' known cells, probes made.
KNOWN, AT, QUIET, HAS_BEST, BEST_R, BEST_C, BEST_LOW, BEST_HIGH, BEST_KNOWN1, BEST_KNOWN0, PROBES = range(11)
STATE = 11


@njit(cache=True)
def _set(b, n, r, c, value):
    """Cell (r, c) of the board vector ``b`` (rows1, rows0, cols1, cols0) is known to be ``value``."""
    one = np.uint64(1)
    if value:
        b[r] |= one << np.uint64(c)
        b[2 * n + c] |= one << np.uint64(r)
    else:
        b[n + r] |= one << np.uint64(c)
        b[n + b.size // 2 + c] |= one << np.uint64(r)


@njit(cache=True)
def _settle_vector(b, n, m, clues, starts, yes, rows_todo, cols_todo, Q, trace, halves):
    """``settle_board`` on a board vector: (contradiction?, cells learnt)."""
    bad, _, _, learnt = settle_board(n, m, b[:n], b[n : 2 * n], b[2 * n : 2 * n + m], b[2 * n + m :], clues, starts, yes,
                                rows_todo, cols_todo, Q, trace, halves)  # fmt: skip
    return bad >= 0, learnt


@njit(cache=True)
def _try(b, t, n, m, r, c, value, known, clues, starts, yes, Q, trace, halves):
    """``probing.try_cell`` into ``t``: the known cells of the settled try, or -1 for a contradiction."""
    t[:] = b
    _set(t, n, r, c, value)
    one = np.uint64(1)
    bad, learnt = _settle_vector(t, n, m, clues, starts, yes, one << np.uint64(r), one << np.uint64(c), Q, trace,
                                 halves)  # fmt: skip
    return -1 if bad else known + 1 + learnt


@njit(cache=True, inline="always")
def _adopt_agreed(b, t1, t0, n, m):
    """Set on ``b`` the unknown cells both tries ``t1`` and ``t0`` agree on: (cells set, their rows, their columns)."""
    one = np.uint64(1)
    rows_todo = cols_todo = np.uint64(0)
    agreed = 0
    for rr in range(n):
        kn = b[rr] | b[n + rr]
        a1 = t1[rr] & t0[rr] & ~kn
        a0 = t1[n + rr] & t0[n + rr] & ~kn
        if a1 | a0:
            rows_todo |= one << np.uint64(rr)
            cols_todo |= a1 | a0
            x = a1 | a0
            for cc in range(m):
                if x >> np.uint64(cc) & one:
                    _set(b, n, rr, cc, 1 if a1 >> np.uint64(cc) & one else 0)
                    agreed += 1
    return agreed, rows_todo, cols_todo


@njit(cache=True, inline="always")
def _imply(implied, t, n):
    """Add the try ``t``'s known cells (rows filled, rows empty) to ``implied``."""
    for rr in range(n):
        implied[rr] |= t[rr]
        implied[n + rr] |= t[n + rr]


@njit(cache=True, inline="always")
def _keep_if_best(state, r, c, known, k1, k0, t1, t0, best1, best0):
    """Keep the tries of cell (r, c) as the best branch in ``state``/``best1``/``best0`` when they score better."""
    low, high = min(k1 - known, k0 - known), max(k1 - known, k0 - known)
    better = state[HAS_BEST] == 0 or low > state[BEST_LOW] or (low == state[BEST_LOW] and high > state[BEST_HIGH])
    if better:
        state[HAS_BEST], state[BEST_R], state[BEST_C] = 1, r, c
        state[BEST_LOW], state[BEST_HIGH] = low, high
        state[BEST_KNOWN1], state[BEST_KNOWN0] = k1, k0
        best1[:] = t1
        best0[:] = t0


@njit(cache=True)
def _probe(n, m, b, clues, starts, yes, Q, trace, halves, t1, t0, best1, best0, implied, state, budget):
    """``probing.probe`` on the board vector ``b`` (in place), statement for statement, resumable.

    ``implied`` (2n words: rows filled, rows empty) and ``state`` (``STATE`` entries) carry the round from one
    call to the next; the call returns PROBE_PAUSED before trying the unknown cell after ``budget`` tried
    ones (the caller looks at its clock, then calls again), else the verdict, with the best branch's boards in
    ``best1``/``best0`` when ``state[HAS_BEST]``."""
    one = np.uint64(1)
    cells = n * m
    known = state[KNOWN]
    at, quiet = state[AT], state[QUIET]
    looked = 0
    while quiet < cells:
        if known == cells:
            state[KNOWN] = known
            return PROBE_SOLVED
        r, c = at // m, at % m
        if (b[r] | b[n + r]) >> np.uint64(c) & one:
            at, quiet = (at + 1) % cells, quiet + 1
            continue
        if looked == budget:
            state[KNOWN], state[AT], state[QUIET] = known, at, quiet
            return PROBE_PAUSED
        looked += 1
        at, quiet = (at + 1) % cells, quiet + 1
        bit = one << np.uint64(c)
        tried1 = implied[r] & bit == 0
        tried0 = implied[n + r] & bit == 0
        k1 = k0 = -1
        if tried1:
            k1 = _try(b, t1, n, m, r, c, 1, known, clues, starts, yes, Q, trace, halves)
            state[PROBES] += 1
        if tried0:
            k0 = _try(b, t0, n, m, r, c, 0, known, clues, starts, yes, Q, trace, halves)
            state[PROBES] += 1
        failed1, failed0 = tried1 and k1 < 0, tried0 and k0 < 0
        if failed1 and failed0:
            state[KNOWN] = known
            return PROBE_CONTRADICTION
        rows_todo = cols_todo = np.uint64(0)
        if failed1 or failed0:
            if failed0 and tried1:
                b[:] = t1
                known = k1
            elif failed1 and tried0:
                b[:] = t0
                known = k0
            else:
                _set(b, n, r, c, 0 if failed1 else 1)
                known += 1
                rows_todo, cols_todo = one << np.uint64(r), bit
        elif tried1 and tried0:
            agreed, rows_todo, cols_todo = _adopt_agreed(b, t1, t0, n, m)
            known += agreed
        if failed1 or failed0 or rows_todo:
            if rows_todo:
                bad, learnt = _settle_vector(b, n, m, clues, starts, yes, rows_todo, cols_todo, Q, trace, halves)
                known += learnt
                if bad:
                    state[KNOWN] = known
                    return PROBE_CONTRADICTION
            implied[:] = 0
            state[HAS_BEST] = 0
            quiet = 0
            continue
        if tried1:
            _imply(implied, t1, n)
        if tried0:
            _imply(implied, t0, n)
        if tried1 and tried0:
            _keep_if_best(state, r, c, known, k1, k0, t1, t0, best1, best0)
    state[KNOWN] = known
    return PROBE_SOLVED if known == cells else PROBE_STUCK


class Prober:
    """``_probe``'s work arrays for one board of n×m, and the calls around it (``probing.probe`` drives it)."""

    def __init__(self, lines: list, known: int, n: int, m: int, row_clues, col_clues, yes: bool):
        self.n, self.m, self.yes = n, m, bool(yes)
        self.clues = _clue_arrays(tuple(map(tuple, row_clues)), tuple(map(tuple, col_clues)))
        self.board = np.array(lines, np.uint64)
        size = self.board.size
        self.t1, self.t0 = np.zeros(size, np.uint64), np.zeros(size, np.uint64)
        self.best1, self.best0 = np.zeros(size, np.uint64), np.zeros(size, np.uint64)
        self.implied = np.zeros(2 * n, np.uint64)
        self.state = np.zeros(STATE, np.int64)
        self.state[KNOWN] = known
        self.Q = np.zeros(max(n, m) // 2 + 3, np.uint64)
        self.trace = np.zeros((n * m + 1, 3), np.uint64)
        self.halves = np.zeros(2 * n * m + 4, np.int64)

    def run(self, budget: int) -> int:
        """Probe on for at most ``budget`` tried cells: a PROBE_ verdict."""
        return int(_probe(self.n, self.m, self.board, *self.clues, self.yes, self.Q, self.trace, self.halves, self.t1,
                          self.t0, self.best1, self.best0, self.implied, self.state, budget))  # fmt: skip
