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

A yesnogram's row (``p.variant``) is the complement of a nonogram row
with the same clue, so its automaton reads the negated cell literals
(and what is known of it swapped); its columns are encoded as usual.

``solve_auto`` is the default method: the probing search, handing the
puzzle to the solver once it has made ``tuning.SAT_HANDOFF_PROBES``
probes.  One solver (``Session``) holds the clauses from what probing knew at the root; the
cells known there also leave moves out of each line's encoding.  If it
finds no solution in ``tuning.SAT_FIRST`` seconds, a dive guided by belief
propagation (``beliefs.dive``) looks for one; from a dead end the solver
tries again with the choices of the dive's steps assumed; when they
contradict, the solver names a set of them that does (its core), and the
last step in that set and those after it are dropped, until it finds a
solution (each contradiction takes it about 0.1 s on Faase, where it
keeps 42 of the dive's 170 steps) or nothing is assumed.  A fresh solver then
starts from that solution to look for the others near it (on Knotty the
solver that had already searched took over a minute for the second
solution, a fresh one 0.6 s).  A yesnogram dives the same way (belief
propagation reads its rows complemented).

    pip install 'localcount[sat]'
"""

from __future__ import annotations

import threading
import time

from ... import tuning
from ..model import Puzzle, PuzzleError
from . import logic, probing, search
from .automaton import line_automaton
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


def line_clauses(clue, cells: list, top: int, filled: int = 0, empty: int = 0) -> tuple:
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
    guesses.  ``filled``/``empty``: cells already known (bit i: ``cells[i]``):
    moves that read the other value are left out, which makes the encoding
    of a line that is partly known smaller (the caller asserts the cells).
    """
    moves, accept = line_automaton(clue)
    length = len(cells)
    allowed = [(not filled >> i & 1, not empty >> i & 1) for i in range(length)]  # may cell i read 0, read 1
    ahead = [{0}]  # states reachable after i cells
    for i in range(length):
        ahead.append({to for q in ahead[i] for v, to in enumerate(moves[q]) if to is not None and allowed[i][v]})
    if accept not in ahead[length]:
        return [[]], top  # the clue does not fit: unsatisfiable
    alive = [set() for _ in range(length + 1)]  # ... that can still reach the accepting state
    alive[length] = {accept}
    for i in range(length - 1, -1, -1):
        alive[i] = {
            q
            for q in ahead[i]
            if any(to in alive[i + 1] for v, to in enumerate(moves[q]) if to is not None and allowed[i][v])
        }
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
                if to is None or not allowed[i][value] or to not in alive[i + 1]:
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


def available() -> bool:
    """True when python-sat can be imported."""
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


def _within(clock: probing.Clock, seconds: float) -> probing.Clock:
    """A clock that runs out after ``seconds`` or at ``clock``'s deadline, whichever is first (same progress and state)."""
    sub = probing.Clock(None, clock.progress)
    sub.start, sub.next_report, sub.state = (
        clock.start,
        clock.next_report,
        clock.state,
    )  # reports count from clock's start
    until = time.perf_counter() + seconds
    sub.deadline = until if clock.deadline is None else min(until, clock.deadline)
    return sub


class Session:
    """A SAT solver loaded once with a puzzle's clauses, from a board of what is already known, for every call."""

    def __init__(self, p: Puzzle, board: logic.Board, clock: probing.Clock | None = None):
        """Encode the lines one by one, looking at ``clock`` after each (a 60x60 takes a second or two in all):
        OutOfTime past its deadline, the solver then deleted."""
        from pysat.solvers import Solver

        self.p, n, m = p, p.n, p.m
        filled, empty = board.filled(), board.empty()
        self.solver = solver = Solver(name=SOLVER)
        try:
            solver.append_formula([[k + 1] for k in range(n * m) if filled >> k & 1])
            solver.append_formula([[-(k + 1)] for k in range(n * m) if empty >> k & 1])
            top = n * m
            sign = -1 if p.yes else 1  # a yesnogram row is read complemented: negated cells ...
            lines = [(p.rows[r], [sign * (r * m + c + 1) for c in range(m)],
                      (board.rows0[r], board.rows1[r]) if sign < 0 else (board.rows1[r], board.rows0[r]))  # ... swapped
                     for r in range(n)]  # fmt: skip
            lines += [
                (p.cols[c], [r * m + c + 1 for r in range(n)], (board.cols1[c], board.cols0[c])) for c in range(m)
            ]
            for clue, cells, known in lines:
                more, top = line_clauses(clue, cells, top, *known)
                solver.append_formula(more)
                if clock is not None:
                    clock.tick()
        except BaseException:
            solver.delete()
            raise

    def close(self) -> None:
        self.solver.delete()

    def literals(self, cells) -> list:
        """The literals saying that each (r, c, value) of ``cells`` holds."""
        return [r * self.p.m + c + 1 if value else -(r * self.p.m + c + 1) for r, c, value in cells]

    def solve(self, clock: probing.Clock, assumptions: list = ()) -> bool:
        """Whether the clauses (and ``assumptions``) have a model: solved in slices of ``tuning.SAT_SLICE`` seconds,
        ticking ``clock`` between them (OutOfTime past its deadline)."""
        solver = self.solver
        while True:
            solver.clear_interrupt()
            left = tuning.SAT_SLICE if clock.deadline is None else clock.deadline - time.perf_counter()
            # a slice ends at the deadline
            timer = threading.Timer(min(tuning.SAT_SLICE, max(left, 0.0)), solver.interrupt)
            timer.start()
            try:
                found = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                timer.cancel()
            if found is not None:
                return found
            clock.tick()

    def grid(self) -> int:
        """The last model's grid, checked against the clues."""
        cells = self.p.n * self.p.m
        grid = sum(1 << (v - 1) for v in self.solver.get_model() if 0 < v <= cells)
        if not is_solution(self.p, grid):
            raise AssertionError(f"the SAT model is not a solution: {grid}")
        return grid

    def _cells(self, grid: int) -> list:
        return [k + 1 if grid >> k & 1 else -(k + 1) for k in range(self.p.n * self.p.m)]

    def near(self, grid: int) -> None:
        """Start the next search from ``grid`` (every variable's value, as unit propagation derives them from the cells)."""
        cells = self._cells(grid)
        self.solver.set_phases(self.solver.propagate(assumptions=cells)[1] or cells)

    def exclude(self, grid: int) -> None:
        """No more models with this grid."""
        self.solver.add_clause([-x for x in self._cells(grid)])

    def enumerate(self, out: Search, limit: int, clock: probing.Clock) -> bool:
        """Solutions into ``out.solutions`` (each excluded once found) until ``limit`` are found and one more
        call says whether there are others; True when there are no others (OutOfTime past ``clock``'s deadline)."""
        counts = clock.state
        while True:
            counts["nodes"] += 1
            if not self.solve(clock):
                return True
            if len(out.solutions) >= limit:
                return False
            grid = self.grid()
            out.solutions.append(grid)
            counts["solutions"] = len(out.solutions)
            self.exclude(grid)

    def take(self, out: Search, grid: int) -> None:
        """Count ``grid`` (a solution found elsewhere: checked) and look for the others near it."""
        if not is_solution(self.p, grid):
            raise ValueError("the hint is not a solution")
        self.near(grid)
        out.solutions.append(grid)
        self.exclude(grid)


def search_sat(
    p: Puzzle,
    limit: int = 2,
    timeout: float | None = None,
    progress=None,
    start: logic.Board | None = None,
    hint: int | None = None,
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
        import pysat.solvers  # noqa: F401
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
        board = logic.Board.from_masks(n, m, p.given_filled, p.given_empty, p.variant)
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
    try:
        session = Session(p, board, clock)
    except probing.OutOfTime:
        return _finish(out, clock, False, "time")
    try:
        if hint is not None:
            session.take(out, hint)
            counts["solutions"] = 1
        exhausted = session.enumerate(out, limit, clock)
    except probing.OutOfTime:
        return _finish(out, clock, False, "time")
    finally:
        session.close()
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


class Assumed:
    """The dive's choices that a solver is asked to keep: those of its first ``keep`` steps."""

    def __init__(self, session: Session, ended):
        self.choices, self.keep = ended.choices, len(ended.choices)
        self.phases = session.literals(
            (r, c, ended.belief[r, c] > 0.5) for r in range(session.p.n) for c in range(session.p.m)
        )

    def solve(self, session: Session, clock: probing.Clock) -> int | None:
        """A solution with as many of the first steps' choices assumed as the solver allows (the last step of
        each contradiction it finds, and those after it, are dropped); None: there is no solution."""
        step = {x: k for k, cells in enumerate(self.choices) for x in session.literals(cells)}
        session.solver.set_phases(self.phases)
        while True:
            clock.state["nodes"] += 1
            if session.solve(clock, session.literals([cell for cells in self.choices[: self.keep] for cell in cells])):
                return session.grid()
            blamed = [step[x] for x in session.solver.get_core() or () if x in step]
            if not blamed:
                return None  # no solution even with none of the choices assumed
            self.keep = max(blamed)


def first_solution(p: Puzzle, root: logic.Board, session: Session, clock: probing.Clock) -> tuple:
    """(solution, None) by the dive (``beliefs.dive``) or, from its dead end, by ``session`` with the dive's
    choices assumed (see the module doc); (None, None): there is none; (None, assumed): ``session`` ran past
    ``tuning.SAT_ASSUMED_FIRST`` seconds on one try, and a fresh solver should go on with ``assumed`` (an
    ``Assumed``)."""
    from . import beliefs  # numpy: loaded only for a dive

    counts = clock.state
    clock.state = {"dive": True}
    try:
        ended = beliefs.dive(p, root, clock)
    finally:
        clock.state = counts
    if ended.solution is not None:
        return ended.solution, None
    assumed = Assumed(session, ended)
    try:
        return assumed.solve(session, _within(clock, tuning.SAT_ASSUMED_FIRST)), None
    except probing.OutOfTime:
        clock.tick()  # OutOfTime again if the whole deadline has passed
        return None, assumed


def solve_auto(
    p: Puzzle, limit: int = 2, max_nodes: int | None = None, timeout: float | None = None, progress=None
) -> Search:
    """The search, handing the puzzle to the SAT solver after ``tuning.SAT_HANDOFF_PROBES`` probes when python-sat
    is installed.

    Without python-sat it is ``search.search``.  A puzzle handed over has
    needed branching (the search branched before the hand-off), so its
    level is BRANCHING.  The SAT solver starts from what probing knew at
    the root.  If it has found no solution in ``tuning.SAT_FIRST`` seconds, a
    dive guided by belief propagation looks for one (``first_solution``); a
    fresh solver then starts from the solution found (its starting values)
    to find the others, with what is left of ``timeout``.  ``max_nodes``
    bounds the search as before.
    """
    if not available():
        return search.search(p, limit, max_nodes, timeout, progress)
    first = search.search(p, limit, max_nodes, timeout, progress, max_probes=tuning.SAT_HANDOFF_PROBES)
    if first.stopped != "probes":
        return first
    clock = probing.Clock(None if timeout is None else max(timeout - first.seconds, 1e-3), progress)  # what is left
    clock.state = {"sat": True, "nodes": 0, "solutions": 0, "depth": 0, "probes": 0}
    out = Search(NO_SOLUTION, method="search+sat")
    exhausted, stopped = False, ""
    session = None
    try:
        session = Session(p, first.root, clock)
        try:
            exhausted = session.enumerate(out, limit, _within(clock, tuning.SAT_FIRST))
        except probing.OutOfTime:
            clock.tick()
            assumed = None
            if not out.solutions:
                grid, assumed = first_solution(p, first.root, session, clock)
                out.solutions += [] if grid is None else [grid]
            session.close()
            session = None
            session = Session(p, first.root, clock)  # fresh, it finds the others near a solution sooner (Knotty: 0.6 s)
            if assumed is not None:
                grid = assumed.solve(session, clock)
                out.solutions += [] if grid is None else [grid]
            found, out.solutions = out.solutions, []
            for grid in found:
                session.take(out, grid)
            clock.state["solutions"] = len(out.solutions)
            exhausted = session.enumerate(out, limit, clock)
        stopped = "" if exhausted else "limit"
    except probing.OutOfTime:
        stopped = "time"
    finally:
        if session is not None:
            session.close()
    found = _finish(out, clock, exhausted, stopped)
    found.seconds = first.seconds + clock.elapsed()
    found.level = search.BRANCHING  # probing was stuck at the root
    found.nodes, found.probes = first.nodes, first.probes
    return found
