"""``solve --method sat``: the puzzle as CNF, solved with python-sat (an optional extra).

Variables: one per cell (cell r*m + c is variable r*m + c + 1, true =
filled) and one selector per line pattern that fits the line's clue and
the cells local logic has already decided.  Clauses: a selector implies each
of its pattern's cells, and each line has at least one selector.  At most
one selector per line needs no clauses of its own: two patterns differ in
some cell and each forces that cell its way.  The decided cells are unit
clauses.  Solutions are enumerated by blocking each one found (a clause
that some cell differs); every solution is checked by recomputing its clues.

    pip install 'localcount[sat]'
"""

from __future__ import annotations

from . import logic
from .model import Puzzle, PuzzleError
from .search import MULTIPLE, NO_SOLUTION, SOME, UNIQUE, Search, is_solution

#: A line with more fitting patterns than this is refused (the CNF would not fit in memory).
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


def search_sat(p: Puzzle, limit: int = 2) -> Search:
    """Every solution up to ``limit``, by a SAT solver (python-sat)."""
    try:
        from pysat.solvers import Solver
    except ImportError:
        raise PuzzleError("--method sat needs python-sat: pip install 'localcount[sat]'") from None
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    n, m = p.n, p.m
    start = logic.propagate(p.rows, p.cols)
    out = Search(NO_SOLUTION)
    if start.status == logic.CONTRADICTION:
        return out
    if n * m == 0:
        return Search(UNIQUE, [0], 0)

    def cell(r, c):
        return r * m + c + 1

    clauses = [[cell(k // m, k % m) if start.filled >> k & 1 else -cell(k // m, k % m)] for k in range(n * m) if start.known >> k & 1]
    top = n * m
    lines = [(p.rows[r], m, [cell(r, c) for c in range(m)]) for r in range(n)]
    lines += [(p.cols[c], n, [cell(r, c) for r in range(n)]) for c in range(m)]
    for clue, length, cells in lines:
        f = sum(1 << i for i, v in enumerate(cells) if start.filled >> (v - 1) & 1)
        e = sum(1 << i for i, v in enumerate(cells) if start.empty >> (v - 1) & 1)
        selectors = []
        for pattern in line_patterns(clue, length, f, e):
            top += 1
            selectors.append(top)
            clauses.extend([-top, v if pattern >> i & 1 else -v] for i, v in enumerate(cells))
        clauses.append(selectors)  # at least one (empty: no pattern fits, unsatisfiable)
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
