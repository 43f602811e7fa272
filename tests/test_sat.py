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
