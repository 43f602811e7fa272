"""Belief propagation over the lines, and a dive it guides: a first solution for puzzles that have many.

Each line reads its cells with its clue's automaton (``automaton``).  Given
a weight for each value of each cell, forward-backward over the automaton
gives, for every cell, the total weight of the fitting patterns with the
cell filled and with it empty (``line_marginals``).  In belief propagation
each line sends each of its cells its opinion: those totals with the
cell's own weight from the crossing line divided out; the rows and the
columns take turns, damped, and a cell's belief is the product of its two
opinions (``Beliefs``).  It is a heuristic: on a grid the lines form
cycles, so the beliefs are not probabilities of anything.

``dive`` fixes the unknown cells the beliefs are surest of, a few at a
time, runs local logic after each, and updates the beliefs (starting from
the last ones), until the grid is full or both values of the surest cell
contradict.  A full grid is a solution (every line fits its clue); the
dive never backtracks, so it says nothing about other solutions.  On
"Knotty" (webpbn's survey, 40×40, several solutions), which neither the
search nor the SAT solver decides in minutes, it finds one in about 4.5 s,
and the SAT solver, started on it, finds a second in 0.1 s (``sat``).
The idea of guiding a solver by belief propagation comes from the
nonosolve project's notes (github.com/hyouv/FastNonogramSolver); this code
is this project's own.
"""

from __future__ import annotations

from .automaton import line_automaton
from .logic import Board, settle
from .model import Puzzle


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
            weight = sum(w * behind[i + 1].get(moves[q][value], 0.0) for value, w in ((0, w0[i]), (1, w1[i])) if moves[q][value] is not None)
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


class Beliefs:
    """The rows' and the columns' opinions of their cells (the chance of filled each gives), kept between updates."""

    def __init__(self, p: Puzzle, damping: float = 0.5):
        self.p, self.damping = p, damping
        self.row = [[0.5] * p.m for _ in range(p.n)]  # row[r][c]: row r's opinion of cell (r, c)
        self.col = [[0.5] * p.n for _ in range(p.m)]  # col[c][r]: column c's opinion of cell (r, c)

    def update(self, board: Board, rounds: int) -> dict:
        """``rounds`` rounds (rows, then columns) on what ``board`` knows; the belief of each unknown cell."""
        p, n, m = self.p, self.p.n, self.p.m
        for _ in range(rounds):
            for r in range(n):
                self._send(p.rows[r], self.row[r], [self.col[c][r] for c in range(m)], board.rows1[r], board.rows0[r])
            for c in range(m):
                self._send(p.cols[c], self.col[c], [self.row[r][c] for r in range(n)], board.cols1[c], board.cols0[c])
        out = {}
        for r in range(n):
            unknown = ~(board.rows1[r] | board.rows0[r])
            for c in range(m):
                if unknown >> c & 1:
                    a, b = self.row[r][c] * self.col[c][r], (1 - self.row[r][c]) * (1 - self.col[c][r])
                    out[(r, c)] = a / (a + b) if a + b else 0.5
        return out

    def _send(self, clue, mine: list, theirs: list, filled: int, empty: int) -> None:
        """One line's new opinions (``mine``, in place) from the crossing lines' (``theirs``) and the known cells."""
        w1 = [0.0 if empty >> k & 1 else x for k, x in enumerate(theirs)]
        w0 = [0.0 if filled >> k & 1 else 1 - x for k, x in enumerate(theirs)]
        for k, (weight0, weight1) in enumerate(line_marginals(clue, w1, w0)):
            a = weight1 / w1[k] if w1[k] else 0.0
            b = weight0 / w0[k] if w0[k] else 0.0
            mine[k] = self.damping * mine[k] + (1 - self.damping) * (a / (a + b) if a + b else 0.5)


def dive(p: Puzzle, board: Board, clock=None, first_rounds: int = 8, rounds: int = 2, fix: int = 2, sure: float = 0.99):
    """A solution (Grid) found by fixing the cells the beliefs are surest of, or None at a dead end (see module doc).

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
    while not board.solved():
        if clock is not None:
            clock.state.update(known=board.known_cells(), cells=p.n * p.m)
            clock.tick()
        surest = sorted(((abs(x - 0.5), cell, x > 0.5) for cell, x in beliefs.update(board, todo).items()), reverse=True)
        todo = rounds
        chosen = [s for s in surest[:fix] if s[0] >= sure - 0.5] or surest[:1]
        trial = board.copy()
        for _, (r, c), value in chosen:
            trial.set(r, c, int(value))
        if settle(trial, p.rows, p.cols, {cell[0] for _, cell, _ in chosen}, {cell[1] for _, cell, _ in chosen}) is None:
            board = trial
            continue
        _, (r, c), value = chosen[0]
        for v in (int(value), 1 - int(value)):
            trial = board.copy()
            trial.set(r, c, v)
            if settle(trial, p.rows, p.cols, (r,), (c,)) is None:
                board = trial
                break
        else:
            return None
    return board.filled()
