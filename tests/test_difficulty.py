"""Difficulty of simple puzzles in steps and rounds (``puzzle.solving.logic.difficulty``): against a naive reference and the stats kernel."""

import collections
import json
import subprocess
import sys

import naive
import pytest

from localcount.clues import grid_clues, parse_grid
from localcount.puzzle import examples
from localcount.puzzle.solving import logic


@pytest.mark.parametrize("n,m", [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (3, 4)])
def test_steps_equal_the_naive_reference_on_every_grid(n, m):
    for g in range(1 << (n * m)):
        rows, cols = grid_clues(g, n, m)
        d, want = logic.difficulty(rows, cols), naive.steps_to_solve(rows, cols)
        assert (d.steps if d else None) == want, (g, n, m)
        if d:
            assert d.rounds == naive.rounds_to_solve(rows, cols) and 2 * d.rounds - 1 <= d.steps <= 2 * d.rounds


@pytest.mark.parametrize("n,m", [(3, 4), (4, 3), (2, 6), (4, 4)])
def test_rounds_add_up_to_the_stats_histogram(n, m):
    from localcount.engines.stats import compute

    hist = collections.Counter()
    for g in range(1 << (n * m)):
        d = logic.difficulty(*grid_clues(g, n, m))
        if d:
            hist[d.rounds] += 1
    assert dict(hist) == {k: v for k, v in enumerate(compute.stats(n, m).rounds) if v}


def test_empty_full_and_contradictory_starts():
    assert logic.difficulty((), ()) == logic.Difficulty(0)
    assert logic.difficulty(((1,),), ((1,),), filled=1) == logic.Difficulty(0)  # the givens fill it: nothing to do
    assert logic.difficulty(((1,),), ((1,),), empty=1) is None  # givens against the clues
    assert logic.difficulty(((1,),), ((1,),), filled=1, empty=1) is None
    assert logic.difficulty(((1,),), ((1,),)) == logic.Difficulty(1)  # the row step decides it
    assert logic.difficulty(((), ()), ((),)).steps == 1  # empty clues: the row step decides every cell
    assert logic.difficulty(((1,), (1,)), ((1,), (1,))) is None  # two solutions: stuck


def test_solve_and_explain_print_the_difficulty():
    p = examples.load("cat")
    want = logic.difficulty(p.rows, p.cols)
    out = subprocess.run([sys.executable, "-m", "localcount", "solve", "cat"], capture_output=True, text=True).stdout
    assert f"difficulty: {want.steps} steps ({want.rounds} rounds;" in out
    answer = json.loads(
        subprocess.run(
            [sys.executable, "-m", "localcount", "solve", "cat", "--json"], capture_output=True, text=True
        ).stdout
    )
    assert (answer["steps"], answer["rounds"], answer["level"]) == (want.steps, want.rounds, "line")
    answer = json.loads(
        subprocess.run(
            [sys.executable, "-m", "localcount", "solve", "stuck12", "--json"], capture_output=True, text=True
        ).stdout
    )
    assert "steps" not in answer  # not simple: no difficulty
    out = subprocess.run(
        [sys.executable, "-m", "localcount", "explain", "--grid", "1010/1111/0100"], capture_output=True, text=True
    ).stdout
    d = logic.difficulty(*grid_clues(*parse_grid("1010/1111/0100")[:1], 3, 4))
    assert d is not None and f"difficulty: {d.steps} step" in out
