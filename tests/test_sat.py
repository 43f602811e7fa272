"""--method sat: the CNF encoding agrees with the search and with brute force."""

import random

import pytest

from localcount.puzzle import examples, formats as F
from localcount.puzzle import search as solve
from localcount.clues import grid_clues, line_clue

pytest.importorskip("pysat")
from localcount.puzzle import sat  # noqa: E402


def test_line_patterns_are_exactly_the_fitting_lines():
    rng = random.Random(2)
    for length in range(0, 9):
        for _ in range(40):
            line = rng.getrandbits(length) if length else 0
            clue = line_clue(line, length)
            known = rng.getrandbits(length) if length else 0
            filled, empty = line & known, ~line & known & ((1 << length) - 1)
            expect = [q for q in range(1 << length) if line_clue(q, length) == clue and q & filled == filled and not q & empty]
            assert sorted(sat.line_patterns(clue, length, filled, empty)) == expect


@pytest.mark.parametrize("n,m", [(2, 2), (2, 3), (3, 3)])
def test_sat_finds_exactly_the_brute_force_solutions(n, m):
    by_clues = {}
    for g in range(1 << (n * m)):
        by_clues.setdefault(grid_clues(g, n, m), []).append(g)
    for (rows, cols), grids in by_clues.items():
        found = sat.search_sat(F.Puzzle(rows, cols), limit=1 << (n * m))
        assert sorted(found.solutions) == grids and found.verdict == (solve.UNIQUE if len(grids) == 1 else solve.MULTIPLE)


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
    assert b.verdict == solve.MULTIPLE and len(set(b.solutions)) == 2 and all(solve.is_solution(p, g) for g in b.solutions)


def test_sat_does_not_claim_a_level():
    import subprocess
    import sys

    found = sat.search_sat(F.from_grid(0b0110_1001_1001_0110, 4, 4))
    assert found.level == "" and found.verdict in (solve.UNIQUE, solve.MULTIPLE)
    res = subprocess.run([sys.executable, "-m", "localcount", "solve", "stuck12", "--method", "sat"], capture_output=True, text=True)
    assert res.returncode == 0 and "level:" not in res.stdout.split("sat:")[1].splitlines()[0]
