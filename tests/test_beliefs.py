"""Belief propagation: line marginals against enumeration, and the dive's solutions are solutions."""

import random

import pytest

from localcount.clues import line_clue
from localcount.puzzle import beliefs, formats, logic, model
from localcount.puzzle import search as solve


def _patterns(clue, length):
    return [x for x in range(1 << length) if line_clue(x, length) == tuple(clue)]


def test_line_marginals_are_the_weighted_counts_of_the_fitting_patterns():
    rng = random.Random(4)
    for _ in range(300):
        length = rng.randint(1, 9)
        clue = line_clue(rng.getrandbits(length), length)
        w1 = [rng.choice([0.0, rng.random()]) for _ in range(length)]
        w0 = [rng.choice([0.0, rng.random()]) if w1[k] else rng.random() for k in range(length)]
        want = [[0.0, 0.0] for _ in range(length)]
        for x in _patterns(clue, length):
            weight = 1.0
            for k in range(length):
                weight *= w1[k] if x >> k & 1 else w0[k]
            for k in range(length):
                want[k][x >> k & 1] += weight
        got = beliefs.line_marginals(clue, w1, w0)
        for (a, b), (c, d) in zip(want, got):  # the same up to a factor for each cell
            if a + b == 0:
                assert c + d == 0
            else:
                assert a / (a + b) == pytest.approx(c / (c + d), abs=1e-9)


def test_a_dive_ends_in_a_solution_or_says_it_is_stuck():
    rng = random.Random(8)
    solved = 0
    for _ in range(40):
        n, m = rng.randint(4, 9), rng.randint(4, 9)
        p = model.from_grid(rng.getrandbits(n * m), n, m)
        board = logic.Board.from_masks(n, m)
        assert logic.settle(board, p.rows, p.cols) is None
        before = (board.rows1[:], board.rows0[:])
        grid = beliefs.dive(p, board)
        assert (board.rows1, board.rows0) == before  # the board given is not changed
        if grid is not None:
            assert solve.is_solution(p, grid) and grid & board.filled() == board.filled()
            solved += 1
    assert solved >= 30


def test_the_dive_finds_a_solution_of_knotty():
    # Knotty (webpbn survey): neither the search nor the SAT solver alone decides it in minutes
    path = "tests/puzzles/webpbn-survey-knotty.xml"
    p = formats.parse(open(path).read(), None, path)
    board = logic.Board.from_masks(p.n, p.m)
    logic.settle(board, p.rows, p.cols)
    grid = beliefs.dive(p, board)
    assert grid is not None and solve.is_solution(p, grid)
