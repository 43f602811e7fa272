"""Belief propagation over the lines, and a dive it guides: a first solution for puzzles that have many.

Each line reads its cells with its clue's automaton (``automaton``).  Given
a weight for each value of each cell, forward-backward over the automaton
gives, for every cell, the total weight of the fitting patterns with the
cell filled and with it empty (``line_marginals``, the plain reference;
``Lines`` does the same for all the rows, or all the columns, at once
with numpy, the automata padded to one number of states: about 25 ms for
the 95 rows of an 80-cell-wide puzzle).  In belief propagation each line
sends each of its cells its opinion: those totals with the cell's own
weight from the crossing line divided out; the rows and the columns take
turns, damped, and a cell's belief is the product of its two opinions
(``Beliefs``).  It is a heuristic: on a grid the lines form cycles, so the
beliefs are not probabilities of anything.

A yesnogram's rows (``p.variant``) are nonogram rows complemented: a row
reads its cells with the weights of filled and empty swapped, and swaps
the totals back (``Beliefs._send``).

``dive`` fixes the unknown cells the beliefs are surest of (up to 20 a
step, those at least 0.999 sure, else the surest one), runs local logic
after each step, and updates the beliefs (starting from the last ones),
until the grid is full or both values of the surest cell contradict.  A
full grid is a solution (every line fits its clue, checked); the dive
never backtracks, so it says nothing about other solutions, but it keeps
the cells each step chose (``Dive.choices``), so that from a dead end the
SAT solver can start with most of them assumed (``sat``).  On "Knotty"
(webpbn's survey, 40×40, several solutions), which neither the search nor
the SAT solver decides in minutes, it finds one in about 0.6 s; on
"Faase" (95×80) it stops at a dead end after about 10 s with 4,000 of the
7,600 cells known, and the solver, assuming the first 40 of its 170 steps,
finds a solution in 2 s.
The idea of guiding a solver by belief propagation comes from the
nonosolve project's notes (github.com/hyouv/FastNonogramSolver); this code
is this project's own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..model import Puzzle
from .automaton import line_automaton
from .logic import Board, settle
from .search import is_solution


def line_marginals(clue, w1: list, w0: list) -> list:
    """For each cell, [weight of fitting patterns with it empty, ... with it filled] (each pattern weighs the
    product of its cells' weights), each cell's pair scaled by its own factor: only the pair's ratio means anything."""
    moves, accept = line_automaton(clue)
    length = len(w1)
    ahead = [{0: 1.0}]  # ahead[i][q]: weight of the first i cells ending in state q
    for i in range(length):
        nxt: dict = {}
        for q, a in ahead[i].items():
            for value, w in ((0, w0[i]), (1, w1[i])):
                to = moves[q][value]
                if to is not None and w:
                    nxt[to] = nxt.get(to, 0.0) + a * w
        total = sum(nxt.values()) or 1.0
        ahead.append({q: x / total for q, x in nxt.items()})
    behind = [None] * length + [{accept: 1.0}]  # behind[i][q]: weight of cells i.. from state q to the end
    for i in range(length - 1, -1, -1):
        here = {}
        for q in ahead[i]:
            weight = sum(
                w * behind[i + 1].get(moves[q][value], 0.0)
                for value, w in ((0, w0[i]), (1, w1[i]))
                if moves[q][value] is not None
            )
            if weight:
                here[q] = weight
        total = sum(here.values()) or 1.0
        behind[i] = {q: x / total for q, x in here.items()}
    out = []
    for i in range(length):
        both = [0.0, 0.0]
        for q, a in ahead[i].items():
            for value, w in ((0, w0[i]), (1, w1[i])):
                to = moves[q][value]
                if to is not None and w:
                    both[value] += a * w * behind[i + 1].get(to, 0.0)
        out.append(both)
    return out


class Lines:
    """The clue automata (``automaton``) of lines of one length, padded to one number of states, so that
    the marginals of all of them come from one pass of array operations per cell."""

    def __init__(self, clues, length: int):
        shortest = ["0".join("1" * a for a in clue) for clue in clues]
        states = max((len(s) for s in shortest), default=0) + 2  # one spare state: moves past a line's end land there
        k = len(clues)
        self.length = length
        self.one = np.zeros((k, states))  # one[l, q]: reading 1 moves q -> q + 1
        self.stay = np.zeros((k, states))  # stay[l, q]: reading 0 stays at q
        self.skip = np.zeros((k, states))  # skip[l, q]: reading 0 moves q -> q + 1 (the gap after a run)
        self.accept = np.zeros((k, states))
        for l, s in enumerate(shortest):
            for q in range(len(s) + 1):
                after_run = q > 0 and s[q - 1] == "1"
                if q < len(s) and s[q] == "1":
                    self.one[l, q] = 1.0
                if not after_run or q == len(s):
                    self.stay[l, q] = 1.0
                elif s[q] == "0":
                    self.skip[l, q] = 1.0
            self.accept[l, len(s)] = 1.0

    def marginals(self, w1, w0) -> tuple:
        """(m0, m1), arrays like ``w1``: for line l and cell i, the weight of the fitting patterns with the cell
        empty and with it filled, both scaled by one factor for each (l, i)."""
        k, states = self.one.shape
        length = self.length
        ahead = np.zeros((length + 1, k, states))
        ahead[0, :, 0] = 1.0
        for i in range(length):
            a = ahead[i]
            nxt = ahead[i + 1]
            nxt[:] = a * self.stay * w0[:, i, None]
            nxt[:, 1:] += a[:, :-1] * (self.one[:, :-1] * w1[:, i, None] + self.skip[:, :-1] * w0[:, i, None])
            total = nxt.sum(axis=1, keepdims=True)
            nxt /= np.where(total > 0, total, 1.0)
        m0 = np.zeros((k, length))
        m1 = np.zeros((k, length))
        behind = self.accept.copy()
        for i in range(length - 1, -1, -1):
            shifted = np.zeros_like(behind)
            shifted[:, :-1] = behind[:, 1:]  # shifted[q] = behind[q + 1]
            by0 = w0[:, i, None] * (self.stay * behind + self.skip * shifted)
            by1 = w1[:, i, None] * self.one * shifted
            a = ahead[i]
            m0[:, i] = (a * by0).sum(axis=1)
            m1[:, i] = (a * by1).sum(axis=1)
            behind = by0 + by1
            total = behind.sum(axis=1, keepdims=True)
            behind /= np.where(total > 0, total, 1.0)
        return m0, m1


def _bits(masks: list, width: int):
    """Bool array (len(masks), width): bit c of masks[r] at [r, c]."""
    if not width:
        return np.zeros((len(masks), 0), dtype=bool)
    data = b"".join(x.to_bytes((width + 7) // 8, "little") for x in masks)
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
    return bits.reshape(len(masks), -1)[:, :width].astype(bool)


class Beliefs:
    """The rows' and the columns' opinions of their cells (the chance of filled each gives), kept between updates."""

    def __init__(self, p: Puzzle, damping: float = 0.5):
        self.p, self.damping = p, damping
        self.rows, self.cols = Lines(p.rows, p.m), Lines(p.cols, p.n)
        self.row = np.full((p.n, p.m), 0.5)  # row[r, c]: row r's opinion of cell (r, c)
        self.col = np.full((p.n, p.m), 0.5)  # col[r, c]: column c's opinion of cell (r, c)

    def update(self, board: Board, rounds: int):
        """``rounds`` rounds (rows, then columns) on what ``board`` knows; each cell's belief (array n×m;
        a known cell's is its value)."""
        filled, empty = _bits(board.rows1, self.p.m), _bits(board.rows0, self.p.m)
        yes = self.p.yes
        for _ in range(rounds):
            self.row = self._send(self.rows, self.row, self.col, filled, empty, complemented=yes)
            self.col = self._send(self.cols, self.col.T, self.row.T, filled.T, empty.T).T
        a, b = self.row * self.col, (1 - self.row) * (1 - self.col)
        total = a + b
        out = np.where(total > 0, a / np.where(total > 0, total, 1.0), 0.5)
        out[filled] = 1.0
        out[empty] = 0.0
        return out

    def _send(self, lines: Lines, mine, theirs, filled, empty, complemented: bool = False):
        """The lines' new opinions (damped with ``mine``) from the crossing lines' (``theirs``) and the known cells.

        ``complemented``: the lines' clues count runs of 0s (a yesnogram's rows; module doc)."""
        w1 = np.where(empty, 0.0, theirs)
        w0 = np.where(filled, 0.0, 1 - theirs)
        if complemented:
            m1, m0 = lines.marginals(w0, w1)
        else:
            m0, m1 = lines.marginals(w1, w0)
        with np.errstate(divide="ignore", invalid="ignore"):
            a = np.where(w1 > 0, m1 / w1, 0.0)
            b = np.where(w0 > 0, m0 / w0, 0.0)
            new = np.where(a + b > 0, a / (a + b), 0.5)
        return self.damping * mine + (1 - self.damping) * new


@dataclass
class Dive:
    """Where a dive ended: ``solution`` (a checked Grid, or None at a dead end), the ``board`` it reached, the
    last ``belief`` of each cell (array n×m, chance of filled; a known cell's is its value; None if it took no
    step) and the cells
    each step fixed, ``choices`` (a list of lists of (r, c, value); local logic did the rest)."""

    solution: int | None
    board: Board
    belief: object
    choices: list


def dive(
    p: Puzzle, board: Board, clock=None, first_rounds: int = 8, rounds: int = 2, fix: int = 20, sure: float = 0.999
) -> Dive:
    """Fix the cells the beliefs are surest of until the grid is full (a solution) or a dead end (see module doc).

    ``board``: a fixpoint of local logic (not changed).  Each step fixes up
    to ``fix`` cells whose belief is at least ``sure`` sure (at least the
    surest one); if local logic then finds a contradiction, only the
    surest cell is fixed, to its other value if its value contradicts.
    The beliefs get ``first_rounds`` rounds before the first step and
    ``rounds`` more before each next one (they start from the last).
    ``clock.tick()`` (``probing.Clock``) is called at every step, with
    ``clock.state["known"]`` the cells known so far (of ``clock.state["cells"]``).
    """
    board = board.copy()
    beliefs = Beliefs(p)
    todo = first_rounds
    belief, choices = None, []
    while not board.solved():
        if clock is not None:
            clock.state.update(known=board.known_cells(), cells=p.n * p.m)
            clock.tick()
        belief = beliefs.update(board, todo)
        todo = rounds
        sureness = np.abs(belief - 0.5)
        sureness[_bits(board.rows1, p.m) | _bits(board.rows0, p.m)] = -1.0  # known cells
        order = np.argsort(-sureness, axis=None, kind="stable")[:fix]
        chosen = [
            (divmod(int(k), p.m), bool(belief.flat[k] > 0.5)) for k in order if sureness.flat[k] >= sure - 0.5
        ] or [(divmod(int(order[0]), p.m), bool(belief.flat[order[0]] > 0.5))]
        trial = board.copy()
        for (r, c), value in chosen:
            trial.set(r, c, int(value))
        if settle(trial, p.rows, p.cols, {r for (r, _), _ in chosen}, {c for (_, c), _ in chosen}) is None:
            board = trial
            choices.append([(r, c, int(value)) for (r, c), value in chosen])
            continue
        (r, c), value = chosen[0]
        for v in (int(value), 1 - int(value)):
            trial = board.copy()
            trial.set(r, c, v)
            if settle(trial, p.rows, p.cols, (r,), (c,)) is None:
                board = trial
                choices.append([(r, c, v)])
                break
        else:
            return Dive(None, board, belief, choices)
    grid = board.filled()
    if not is_solution(p, grid):  # cannot happen: local logic leaves a full grid only when every line fits
        raise AssertionError(f"the dive's grid is not a solution: {grid}")
    return Dive(grid, board, belief, choices)
