"""``solve --method sat``: the puzzle as CNF, solved with python-sat (an optional extra).

Variables: one per cell (cell r*m + c is variable r*m + c + 1, true =
filled), and for each line the states of the automaton that reads its
cells: the clue's shortest line P (``1^a1 0 1^a2 0 ... 1^at``), and state q
after i cells = "q characters of P are matched" (``line_automaton``).
Clauses: the start state holds; a state and a cell value imply the next
state; a state cannot read a value it has no move for; the last state must
be the accepting one.  The states on the path of the true line are forced,
and a line that breaks its clue meets a clause it violates, so the models
are exactly the solutions; a line of L cells costs O(L · |P|) variables,
however many patterns fit it.  The cells that local logic and probing
decide first are unit clauses.  Solutions are enumerated by blocking each
one found (a clause that some cell differs); every solution is checked by
recomputing its clues.  (An earlier encoding had one selector per fitting
pattern and refused lines with more than 200,000 of them.)

    pip install 'localcount[sat]'
"""

from __future__ import annotations

from . import logic, probing
from .model import Puzzle, PuzzleError
from .search import MULTIPLE, NO_SOLUTION, SOME, UNIQUE, Search, is_solution

#: line_patterns stops past this many (it is the tests' reference, not the encoding).
MAX_PATTERNS = 200_000


def line_patterns(clue, length: int, filled: int, empty: int, cap: int = MAX_PATTERNS) -> list:
    """Every line (int, bit i = cell i) with this clue whose 1s avoid ``empty`` and cover ``filled``."""
    out = []
    runs = list(clue)
    # suffix_need[i]: cells the runs i.. need at least (with their gaps)
    need = [0] * (len(runs) + 1)
    for i in range(len(runs) - 1, -1, -1):
        need[i] = runs[i] + (1 if i + 1 < len(runs) else 0) + need[i + 1]

    def place(i: int, start: int, line: int) -> None:
        if len(out) > cap:
            return
        if i == len(runs):
            if filled & ~line == 0:
                out.append(line)
            return
        run = runs[i]
        for s in range(start, length - need[i] + 1):
            block = ((1 << run) - 1) << s
            gap = ((1 << s) - 1) & ~((1 << start) - 1)  # cells start..s-1 stay empty
            if gap & filled:
                break  # a filled cell would be left outside every run: later s only add to the gap
            if block & empty:
                continue
            if s + run < length and filled >> (s + run) & 1:
                continue  # the cell after the run must be empty
            place(i + 1, s + run + 1, line | block)

    place(0, 0, 0)
    if len(out) > cap:
        raise PuzzleError(f"a line has more than {cap} fitting patterns; too large for --method sat")
    return out


def line_automaton(clue) -> tuple:
    """(moves, accept): ``moves[q][b]`` is the state after reading cell value b in state q (None: no move).

    State q means the first q characters of the clue's shortest line
    ``1^a1 0 1^a2 ... 0 1^at`` are matched; zeros before, between (beyond the
    one required) and after the runs are read without moving.
    """
    shortest = "0".join("1" * a for a in clue)
    moves = []
    for q in range(len(shortest) + 1):
        after_run = q > 0 and shortest[q - 1] == "1"
        zero = q if not after_run or q == len(shortest) else q + 1 if shortest[q] == "0" else None
        one = q + 1 if q < len(shortest) and shortest[q] == "1" else None
        moves.append((zero, one))
    return moves, len(shortest)


def line_clauses(clue, cells: list, top: int) -> tuple:
    """(clauses, top): the automaton encoding of one line over the cell variables ``cells``; new variables above ``top``."""
    moves, accept = line_automaton(clue)
    length = len(cells)
    state = {}  # (i, q) -> variable, for the states reachable at i that can still accept

    def var(i, q):
        nonlocal top
        if (i, q) not in state:
            top += 1
            state[(i, q)] = top
        return state[(i, q)]

    clauses = [[var(0, 0)]]
    live = {0}
    for i, x in enumerate(cells):
        nxt = set()
        for q in sorted(live):
            s = var(i, q)
            for value, literal in ((0, -x), (1, x)):
                to = moves[q][value]
                if to is None or accept - to > length - i - 1:  # no move, or too little line left
                    clauses.append([-s, -literal])
                else:
                    clauses.append([-s, -literal, var(i + 1, to)])
                    nxt.add(to)
        live = nxt
    clauses += [[-var(length, q)] for q in live if q != accept]
    if accept not in live:
        clauses.append([])  # the clue does not fit: unsatisfiable
    return clauses, top


def search_sat(p: Puzzle, limit: int = 2) -> Search:
    """Every solution up to ``limit``, by a SAT solver (python-sat)."""
    try:
        from pysat.solvers import Solver
    except ImportError:
        raise PuzzleError("--method sat needs python-sat: pip install 'localcount[sat]'") from None
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    n, m = p.n, p.m
    out = Search(NO_SOLUTION, level="")  # SAT does not say what reasoning the puzzle needs
    board = logic.Board.from_masks(n, m, p.given_filled, p.given_empty)
    if p.given_filled & p.given_empty or logic.settle(board, p.rows, p.cols) is not None:
        return out
    if probing.probe(board, p.rows, p.cols)[0] == logic.CONTRADICTION:
        return out
    if n * m == 0:
        return Search(UNIQUE, [0], 0, level="")

    def cell(r, c):
        return r * m + c + 1

    filled, empty = board.filled(), board.empty()
    clauses = [[k + 1] for k in range(n * m) if filled >> k & 1] + [[-(k + 1)] for k in range(n * m) if empty >> k & 1]
    top = n * m
    lines = [(p.rows[r], [cell(r, c) for c in range(m)]) for r in range(n)]
    lines += [(p.cols[c], [cell(r, c) for r in range(n)]) for c in range(m)]
    for clue, cells in lines:
        more, top = line_clauses(clue, cells, top)
        clauses += more
    with Solver(name="cadical153", bootstrap_with=clauses) as solver:
        while len(out.solutions) < limit and solver.solve():
            model = solver.get_model()
            grid = sum(1 << (v - 1) for v in model if 0 < v <= n * m)
            if not is_solution(p, grid):
                raise AssertionError(f"the SAT model is not a solution: {grid}")
            out.solutions.append(grid)
            out.nodes += 1
            solver.add_clause([-(k + 1) if grid >> k & 1 else k + 1 for k in range(n * m)])
        exhausted = len(out.solutions) < limit or not solver.solve()
    found = len(out.solutions)
    out.complete = exhausted
    out.verdict = NO_SOLUTION if not found else (UNIQUE if found == 1 else MULTIPLE) if exhausted else (MULTIPLE if found >= 2 else SOME)
    return out
