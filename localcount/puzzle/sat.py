"""The SAT path: ``solve --method sat``, and the hand-off of ``--method auto`` (python-sat, an optional extra).

Variables: one per cell (cell r*m + c is variable r*m + c + 1, true =
filled), and for each line the automaton that reads its cells: the clue's
shortest line P (``1^a1 0 1^a2 0 ... 1^at``), state q after i cells = "q
characters of P are matched" (``line_automaton``).  Each state on some
accepting path gets a variable, and so does each move between two of them
(``line_clauses`` lists the clauses); unit propagation then finds every
cell that all fitting patterns of the line share, so the solver is at
least as strong as local logic before it guesses.  A line of L cells
costs O(L · |P|) variables, however many patterns fit it.  The cells that
local logic and probing decide first are unit clauses.  Solutions are
enumerated by blocking each one found (a clause that some cell differs);
every solution is checked by recomputing its clues.  (Earlier encodings:
one selector per fitting pattern, refused past 200,000 of them; then the
automaton with forward implications only, which left the solver weaker
than line logic.)

``solve_auto`` is the default method: the probing search, handing the
puzzle to the solver once it has made HANDOFF_PROBES probes.

    pip install 'localcount[sat]'
"""

from __future__ import annotations

import threading

from . import beliefs, logic, probing, search
from .automaton import line_automaton
from .model import Puzzle, PuzzleError
from .search import MULTIPLE, NO_SOLUTION, SOME, UNDECIDED, UNIQUE, Search, is_solution

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


def line_clauses(clue, cells: list, top: int) -> tuple:
    """(clauses, top): the automaton encoding of one line over the cell variables ``cells``; new variables above ``top``.

    Only the states on some accepting path get a variable (reachable from the
    start and able to reach the end in the cells left), and each move
    between two of them (state q at i reads value v, state q' at i+1) a
    transition variable t.  Clauses: t implies its two states and its cell
    value; a state and a cell value imply the move's t (no move: they
    exclude each other); every state but the last needs an outgoing t, every
    state but the first an incoming one, and every cell value a t that
    reads it; the start and the accepting end hold.  Unit propagation on
    these clauses finds every cell that all fitting patterns share (the
    decomposition of Bacchus, "GAC via unit propagation", CP 2007), so the
    SAT solver reasons at least as strongly as local logic before it
    guesses.
    """
    moves, accept = line_automaton(clue)
    length = len(cells)
    ahead = [{0}]  # states reachable after i cells
    for i in range(length):
        ahead.append({to for q in ahead[i] for to in moves[q] if to is not None})
    if accept not in ahead[length]:
        return [[]], top  # the clue does not fit: unsatisfiable
    alive = [set() for _ in range(length + 1)]  # ... that can still reach the accepting state
    alive[length] = {accept}
    for i in range(length - 1, -1, -1):
        alive[i] = {q for q in ahead[i] if any(to in alive[i + 1] for to in moves[q] if to is not None)}
    state = {}
    for i in range(length + 1):
        for q in sorted(alive[i]):
            top += 1
            state[(i, q)] = top
    clauses = [[state[(0, 0)]], [state[(length, accept)]]]
    incoming = {key: [] for key in state}
    for i, x in enumerate(cells):
        reads = {0: [], 1: []}
        for q in sorted(alive[i]):
            s, outgoing = state[(i, q)], []
            for value, literal in ((0, -x), (1, x)):
                to = moves[q][value]
                if to is None or to not in alive[i + 1]:
                    clauses.append([-s, -literal])
                    continue
                top += 1
                t = top
                clauses += [[-t, s], [-t, literal], [-t, state[(i + 1, to)]], [-s, -literal, t]]
                outgoing.append(t)
                incoming[(i + 1, to)].append(t)
                reads[value].append(t)
            clauses.append([-s] + outgoing)
        clauses += [[x] + reads[0], [-x] + reads[1]]
    clauses += [[-state[key]] + ts for key, ts in incoming.items() if key[0] > 0]
    return clauses, top


#: The SAT solver (python-sat's name): Glucose 4.1 (Audemard and Simon) can be interrupted, which gives a
#: deadline, progress and Ctrl-C; on webpbn #6574 and the 9- to 14-Dom puzzles it is as fast as CaDiCaL 1.9.5.
SOLVER = "glucose4"
#: Seconds the solver runs between looks at the clock.
SLICE = 0.5
#: ``solve_auto`` hands a puzzle to the SAT solver once the search has made this many probes ...
HANDOFF_PROBES = 20_000
#: ... and gives it this many seconds before it looks for a first solution with ``beliefs.dive``.
SAT_FIRST = 1.0


def available() -> bool:
    """True when python-sat can be imported."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


def _solve(solver, clock: probing.Clock) -> bool:
    """``solver.solve()`` in slices of SLICE seconds, ticking ``clock`` between them (OutOfTime past its deadline)."""
    while True:
        solver.clear_interrupt()
        timer = threading.Timer(SLICE, solver.interrupt)
        timer.start()
        try:
            found = solver.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
        if found is not None:
            return found
        clock.tick()


def search_sat(
    p: Puzzle, limit: int = 2, timeout: float | None = None, progress=None, start: logic.Board | None = None, hint: int | None = None
) -> Search:
    """Every solution up to ``limit``, by a SAT solver (python-sat); gives up after ``timeout`` seconds.

    ``start``: a board of what local logic and probing know (else they are run
    here first); ``hint``: a solution already found (checked), counted first
    and given to the solver as its starting values (every variable's, as
    unit propagation derives them from the cells), so that it looks for
    the others near it; ``progress(state, seconds)`` about once a second,
    ``state`` with ``sat`` (True), ``nodes`` (solver calls) and ``solutions``.
    """
    try:
        from pysat.solvers import Solver
    except ImportError:
        raise PuzzleError("--method sat needs python-sat: pip install 'localcount[sat]'") from None
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    clock = probing.Clock(timeout, progress)
    counts = clock.state = {"sat": True, "nodes": 0, "solutions": 0, "depth": 0, "probes": 0}
    n, m = p.n, p.m
    out = Search(NO_SOLUTION, level="", method="sat")  # SAT does not say what reasoning the puzzle needs
    board = start
    if board is None:
        board = logic.Board.from_masks(n, m, p.given_filled, p.given_empty)
        try:
            if p.given_filled & p.given_empty or logic.settle(board, p.rows, p.cols) is not None:
                return _finish(out, clock, True)
            if probing.probe(board, p.rows, p.cols, clock, counts)[0] == logic.CONTRADICTION:
                return _finish(out, clock, True)
        except probing.OutOfTime:
            return _finish(out, clock, False, "time")
    if n * m == 0:
        out.solutions.append(0)
        return _finish(out, clock, True)

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
    exhausted = False
    with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
        if hint is not None:
            if not is_solution(p, hint):
                raise ValueError("the hint is not a solution")
            cells = [k + 1 if hint >> k & 1 else -(k + 1) for k in range(n * m)]
            solver.set_phases(solver.propagate(assumptions=cells)[1] or cells)
            out.solutions.append(hint)
            counts["solutions"] = 1
            solver.add_clause([-x for x in cells])
        try:
            while True:
                counts["nodes"] += 1
                if not _solve(solver, clock):
                    exhausted = True
                    break
                if len(out.solutions) == limit:
                    break
                model = solver.get_model()
                grid = sum(1 << (v - 1) for v in model if 0 < v <= n * m)
                if not is_solution(p, grid):
                    raise AssertionError(f"the SAT model is not a solution: {grid}")
                out.solutions.append(grid)
                counts["solutions"] = len(out.solutions)
                solver.add_clause([-(k + 1) if grid >> k & 1 else k + 1 for k in range(n * m)])
        except probing.OutOfTime:
            return _finish(out, clock, False, "time")
    return _finish(out, clock, exhausted, "" if exhausted else "limit")


def _finish(out: Search, clock: probing.Clock, complete: bool, stopped: str = "") -> Search:
    """``out`` with its verdict, calls and time (``complete``: every solution was found)."""
    found = len(out.solutions)
    out.nodes = out.sat_calls = clock.state["nodes"]
    out.complete, out.stopped, out.seconds = complete, stopped, clock.elapsed()
    if complete:
        out.verdict = NO_SOLUTION if not found else UNIQUE if found == 1 else MULTIPLE
    else:
        out.verdict = UNDECIDED if not found else SOME if found == 1 else MULTIPLE
    return out


def solve_auto(p: Puzzle, limit: int = 2, max_nodes: int | None = None, timeout: float | None = None, progress=None) -> Search:
    """The search, handing the puzzle to the SAT solver after HANDOFF_PROBES probes when python-sat is installed.

    Without python-sat it is ``search.search``.  A puzzle handed over has
    needed branching (the search branched before the hand-off), so its
    level is BRANCHING.  The SAT solver starts from what probing knew at
    the root; if it has not decided the puzzle in SAT_FIRST seconds, a dive
    guided by belief propagation (``beliefs.dive``) looks for a first
    solution (unless the solver found one), and the solver starts again
    from it with what is left of ``timeout``.  ``max_nodes`` bounds the
    search as before.
    """
    if not available():
        return search.search(p, limit, max_nodes, timeout, progress)
    first = search.search(p, limit, max_nodes, timeout, progress, max_probes=HANDOFF_PROBES)
    if first.stopped != "probes":
        return first
    left = None if timeout is None else max(timeout - first.seconds, 1e-3)
    clock = probing.Clock(left, progress)  # what is left of the deadline
    found = search_sat(p, limit, SAT_FIRST if left is None else min(left, SAT_FIRST), progress, start=first.root)
    if not found.complete and len(found.solutions) < limit and (left is None or left > SAT_FIRST):
        calls = found.sat_calls
        try:
            clock.state = {"dive": True}
            hint = found.solutions[0] if found.solutions else beliefs.dive(p, first.root, clock)
            found = search_sat(p, limit, None if left is None else max(left - clock.elapsed(), 1e-3), progress, start=first.root, hint=hint)
            found.sat_calls += calls
        except probing.OutOfTime:
            pass  # the dive ran out of time: what the first SAT run found stands
    found.seconds = first.seconds + clock.elapsed()
    found.level = search.BRANCHING  # probing was stuck at the root
    found.method = "search+sat"
    found.nodes, found.probes = first.nodes, first.probes
    return found
