"""--method sat: the CNF encoding agrees with the search and with brute force."""

import pathlib
import random

import pytest

from localcount import tuning
from localcount.clues import grid_clues, line_clue
from localcount.puzzle import examples
from localcount.puzzle import formats as F
from localcount.puzzle.solving import search as solve

pytest.importorskip("pysat")
from localcount.puzzle.solving import sat


def test_line_patterns_are_exactly_the_fitting_lines():
    rng = random.Random(2)
    for length in range(0, 9):
        for _ in range(40):
            line = rng.getrandbits(length) if length else 0
            clue = line_clue(line, length)
            known = rng.getrandbits(length) if length else 0
            filled, empty = line & known, ~line & known & ((1 << length) - 1)
            expect = [
                q for q in range(1 << length) if line_clue(q, length) == clue and q & filled == filled and not q & empty
            ]
            assert sorted(sat.line_patterns(clue, length, filled, empty)) == expect


@pytest.mark.parametrize("n,m", [(2, 2), (2, 3), (3, 3)])
def test_sat_finds_exactly_the_brute_force_solutions(n, m):
    by_clues = {}
    for g in range(1 << (n * m)):
        by_clues.setdefault(grid_clues(g, n, m), []).append(g)
    for (rows, cols), grids in by_clues.items():
        found = sat.search_sat(F.Puzzle(rows, cols), limit=1 << (n * m))
        assert sorted(found.solutions) == grids and found.verdict == (
            solve.UNIQUE if len(grids) == 1 else solve.MULTIPLE
        )


def test_sat_and_search_agree_on_random_puzzles_and_the_examples():
    rng = random.Random(7)
    puzzles = [F.from_grid(rng.getrandbits(n * m), n, m) for n, m in [(5, 5)] * 20 + [(6, 7)] * 10]
    puzzles += [examples.load(name) for name in ("stuck8", "stuck12", "stuck20", "stuck30", "cat")]
    for p in puzzles:
        a, b = solve.search(p, limit=2), sat.search_sat(p, limit=2)
        assert a.verdict == b.verdict
        if a.verdict == solve.UNIQUE:
            assert a.solutions == b.solutions


def test_sat_no_solution_and_empty():
    assert sat.search_sat(F.Puzzle(((), (), (1, 1)), ((), (), (1, 1)))).verdict == solve.NO_SOLUTION
    assert sat.search_sat(F.Puzzle((), ())).verdict == solve.UNIQUE


def test_cli_method_sat():
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "solve", "stuck12", "--method", "sat"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=root), timeout=120,
    )  # fmt: skip
    assert res.returncode == 0 and "sat: unique" in res.stdout


def test_the_line_automaton_accepts_exactly_the_lines_of_the_clue():
    import itertools

    from pysat.solvers import Solver

    from localcount.clues import line_clue

    for length in range(0, 8):
        clues = {line_clue(x, length) for x in range(1 << length)} | {(length + 1,), (2, 2) if length < 5 else (9,)}
        for clue in clues:
            clauses, _ = sat.line_clauses(clue, list(range(1, length + 1)), length)
            for bits in itertools.product((0, 1), repeat=length):
                units = [[i + 1] if b else [-(i + 1)] for i, b in enumerate(bits)]
                with Solver(name="cadical153", bootstrap_with=clauses + units) as solver:
                    line = sum(b << i for i, b in enumerate(bits))
                    assert solver.solve() == (line_clue(line, length) == tuple(clue)), (clue, bits)


def test_sat_takes_lines_with_millions_of_fitting_patterns():
    import random

    rng = random.Random(3)
    n, m = 8, 90  # rows of 90 cells with many short runs: far more than 200,000 patterns each
    p = F.from_grid(sum(1 << k for k in range(n * m) if rng.random() < 0.3), n, m)
    b = sat.search_sat(p, limit=2)
    assert (
        b.verdict == solve.MULTIPLE and len(set(b.solutions)) == 2 and all(solve.is_solution(p, g) for g in b.solutions)
    )


def test_sat_does_not_claim_a_level():
    import subprocess
    import sys

    found = sat.search_sat(F.from_grid(0b0110_1001_1001_0110, 4, 4))
    assert found.level == "" and found.verdict in (solve.UNIQUE, solve.MULTIPLE)
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "solve", "stuck12", "--method", "sat"], capture_output=True, text=True
    )
    assert res.returncode == 0 and "level:" not in res.stdout.split("sat:")[1].splitlines()[0]


def _dom(k):
    """The clues of n-Dom (scripts/bench_solve.py builds the same, with its source): hard for probing, easy for SAT."""
    rows = [(3,), (1,)] + [(3, 1), (1,)] * (k - 1) + [(1,)]
    cols = [(1,), (1,)] + [(1, 3), (1,)] * (k - 1) + [(3,)]
    return F.Puzzle(tuple(rows), tuple(cols))


def test_auto_hands_a_puzzle_that_needs_branching_to_sat_and_agrees_with_the_search(monkeypatch):
    monkeypatch.setattr(tuning, "SAT_HANDOFF_PROBES", 1)
    rng = random.Random(5)
    puzzles = [_dom(5), _dom(6), examples.load("stuck20")] + [F.from_grid(rng.getrandbits(64), 8, 8) for _ in range(30)]
    handed = 0
    for p in puzzles:
        a, b = solve.search(p, limit=3), sat.solve_auto(p, limit=3)
        assert (a.verdict, a.complete, a.level) == (b.verdict, b.complete, b.level)
        assert (
            sorted(a.solutions) == sorted(b.solutions)
            if a.complete
            else all(solve.is_solution(p, g) for g in b.solutions)
        )
        if b.method == "search+sat":  # a second node would have started: the search had branched
            assert b.level == solve.BRANCHING and b.sat_calls >= 1 and b.nodes >= 1
            handed += 1
        else:
            assert b.method == "search" and b.sat_calls == 0 and a.nodes <= 1
    assert handed >= 4


def test_auto_is_the_search_without_python_sat_or_below_the_budget(monkeypatch):
    p = _dom(5)
    assert (
        sat.solve_auto(p).method == "search" and sat.solve_auto(p).level == solve.BRANCHING
    )  # 345 probes: under the budget
    monkeypatch.setattr(tuning, "SAT_HANDOFF_PROBES", 1)
    monkeypatch.setattr(sat, "available", lambda: False)
    found = sat.solve_auto(p)
    assert found.method == "search" and found.verdict == solve.UNIQUE


def test_sat_gives_up_at_its_timeout():
    import time

    start = time.perf_counter()
    found = sat.search_sat(_dom(18), timeout=0.3)
    assert time.perf_counter() - start < 5
    assert not found.complete and found.stopped == "time" and found.verdict in (solve.UNDECIDED, solve.SOME)
    with pytest.raises(ValueError):
        sat.search_sat(_dom(3), timeout=0)


def test_the_sat_solver_keeps_the_deadline_while_it_encodes():
    import time

    from localcount.puzzle.model import from_grid
    from localcount.puzzle.solving import logic, probing

    p = from_grid(random.Random(60).getrandbits(60 * 60), 60, 60)  # encoding its lines takes a second or more
    board = logic.Board(60, 60)
    with pytest.raises(probing.OutOfTime):
        sat.Session(p, board, probing.Clock(1e-9))
    start = time.perf_counter()
    found = sat.search_sat(p, timeout=0.2, start=board)  # what solve_auto hands over: a board, the time left
    took = time.perf_counter() - start
    assert found.stopped == "time" and not found.complete and not found.solutions
    assert took < 0.2 + 0.5, took  # the limit kept (before: the whole encoding first, 1.5 s and more)


def test_cli_auto_reports_the_hand_off_and_json_names_the_method():
    import json
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text = (
        "\n".join(
            ["19 19"] + [" ".join(map(str, c)) for c in _dom(9).cols] + [" ".join(map(str, r)) for r in _dom(9).rows]
        )
        + "\n"
    )
    env = dict(os.environ, PYTHONPATH=root)
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "solve", "-", "--format", "txt"],
        input=text,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 0 and "search+sat: unique (level: branching; " in res.stdout and "SAT call" in res.stdout
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "solve", "-", "--format", "txt", "--json"],
        input=text,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    answer = json.loads(res.stdout)
    assert (answer["verdict"], answer["level"], answer["method"]) == ("unique", "branching", "search+sat")
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "solve", "-", "--format", "txt", "--method", "search", "--max-nodes", "5"],
        input=text,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert "search: undecided (node limit reached)" in res.stdout


def test_a_hint_changes_what_sat_starts_from_not_what_it_finds():
    rng = random.Random(11)
    for _ in range(25):
        p = F.from_grid(rng.getrandbits(36), 6, 6)
        every = sat.search_sat(p, limit=10**6)
        hinted = sat.search_sat(p, limit=10**6, hint=p.goal)
        assert hinted.complete and sorted(hinted.solutions) == sorted(every.solutions) and hinted.solutions[0] == p.goal
        assert hinted.verdict == every.verdict
    with pytest.raises(ValueError):
        sat.search_sat(p, hint=p.goal ^ 1)


def test_auto_answers_knotty_with_two_verified_solutions():
    path = "tests/puzzles/webpbn-survey-knotty.xml"
    p = F.parse(pathlib.Path(path).read_text(), None, path)
    found = sat.solve_auto(
        p, limit=2, timeout=120
    )  # the search gives up, SAT alone does not answer for minutes: the dive
    assert found.verdict == solve.MULTIPLE and found.method == "search+sat" and found.level == solve.BRANCHING
    assert len(set(found.solutions)) == 2 and all(solve.is_solution(p, g) for g in found.solutions)


def test_the_line_encoding_of_a_partly_known_line_accepts_exactly_the_fitting_lines_that_agree():
    import itertools

    from pysat.solvers import Solver

    from localcount.clues import line_clue

    rng = random.Random(2)
    for _ in range(150):
        length = rng.randint(1, 7)
        clue = line_clue(rng.getrandbits(length), length)
        known = rng.getrandbits(length) & rng.getrandbits(length)
        value = rng.getrandbits(length)
        filled, empty = known & value, known & ~value
        clauses, _ = sat.line_clauses(clue, list(range(1, length + 1)), length, filled, empty)
        for bits in itertools.product((0, 1), repeat=length):
            line = sum(b << i for i, b in enumerate(bits))
            units = [[i + 1] if b else [-(i + 1)] for i, b in enumerate(bits)]
            agrees = line & filled == filled and not line & empty
            with Solver(name="cadical153", bootstrap_with=clauses + units) as solver:
                if agrees:  # a line that contradicts the known cells may go either way: the caller asserts them
                    assert solver.solve() == (line_clue(line, length) == tuple(clue)), (clue, filled, empty, bits)


def test_from_a_dead_end_the_solver_finds_a_solution_with_fewer_of_the_dives_choices():
    from localcount.puzzle.solving import beliefs, logic, probing

    rng = random.Random(1)
    dead = 0
    for _ in range(40):
        p = F.from_grid(sum(1 << k for k in range(225) if rng.random() < 0.5), 15, 15)
        root = logic.Board.from_masks(15, 15)
        logic.settle(root, p.rows, p.cols)
        ended = beliefs.dive(
            p, root, first_rounds=1, rounds=1, fix=10, sure=0.5
        )  # rash: reaches dead ends (test_beliefs)
        if ended.solution is not None:
            continue
        dead += 1
        assumed = None
        for _ in range(2):  # the solver that found the contradictions, then a fresh one given what it kept
            session = sat.Session(p, root)
            clock = probing.Clock(60)
            clock.state = {"nodes": 0}
            assumed = assumed or sat.Assumed(session, ended)
            grid = assumed.solve(session, clock)
            assert grid is not None and solve.is_solution(p, grid) and assumed.keep < len(ended.choices)
            kept = [cell for cells in ended.choices[: assumed.keep] for cell in cells]
            assert all(grid >> (r * 15 + c) & 1 == value for r, c, value in kept)  # the choices kept hold in it
            session.close()
    assert dead >= 1


def test_the_first_solution_is_the_dives_when_it_ends_in_one():
    from localcount.puzzle.solving import logic, probing

    p = F.from_grid(0b0110_1001_1001_0110, 4, 4)  # two solutions: local logic is stuck, the dive picks one
    root = logic.Board.from_masks(4, 4)
    logic.settle(root, p.rows, p.cols)
    clock = probing.Clock(10)
    clock.state = {"nodes": 0}
    session = sat.Session(p, root)
    grid, assumed = sat.first_solution(p, root, session, clock)
    session.close()
    assert assumed is None and solve.is_solution(p, grid)


def test_auto_answers_faase_with_two_verified_solutions():
    # webpbn survey's Faase (95x80): the dive reaches a dead end; the solver, given most of its choices, finds a solution
    path = "tests/puzzles/webpbn-survey-faase.xml"
    p = F.parse(pathlib.Path(path).read_text(), None, path)
    found = sat.solve_auto(p, limit=2, timeout=300)
    assert found.verdict == solve.MULTIPLE and found.method == "search+sat"
    assert len(set(found.solutions)) == 2 and all(solve.is_solution(p, g) for g in found.solutions)
