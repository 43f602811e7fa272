"""Belief propagation: line marginals against enumeration, and the dive's solutions are solutions."""

import pathlib
import random

import numpy as np
import pytest

from localcount.clues import line_clue
from localcount.puzzle import formats, model
from localcount.puzzle.solving import beliefs, logic
from localcount.puzzle.solving import search as solve


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
        grid = beliefs.dive(p, board).solution
        assert (board.rows1, board.rows0) == before  # the board given is not changed
        if grid is not None:
            assert solve.is_solution(p, grid) and grid & board.filled() == board.filled()
            solved += 1
    assert solved >= 30


def test_the_dive_finds_a_solution_of_knotty():
    # Knotty (webpbn survey): neither the search nor the SAT solver alone decides it in minutes
    path = "tests/puzzles/webpbn-survey-knotty.xml"
    p = formats.parse(pathlib.Path(path).read_text(), None, path)
    board = logic.Board.from_masks(p.n, p.m)
    logic.settle(board, p.rows, p.cols)
    grid = beliefs.dive(p, board).solution
    assert grid is not None and solve.is_solution(p, grid)


def test_the_batched_marginals_are_the_line_marginals():
    rng = random.Random(6)
    for _ in range(60):
        length, k = rng.randint(1, 12), rng.randint(1, 6)
        clues = [line_clue(rng.getrandbits(length), length) for _ in range(k)]
        w1 = np.array([[rng.choice([0.0, rng.random()]) for _ in range(length)] for _ in range(k)])
        w0 = np.array(
            [[rng.choice([0.0, rng.random()]) if w1[l, i] else rng.random() for i in range(length)] for l in range(k)]
        )
        m0, m1 = beliefs.Lines(clues, length).marginals(w1, w0)
        for l, clue in enumerate(clues):
            for i, (a, b) in enumerate(beliefs.line_marginals(clue, list(w1[l]), list(w0[l]))):
                if a + b == 0:
                    assert m0[l, i] + m1[l, i] == 0
                else:
                    assert b / (a + b) == pytest.approx(m1[l, i] / (m0[l, i] + m1[l, i]), abs=1e-9)


@pytest.mark.parametrize("settings", [{}, {"first_rounds": 1, "rounds": 1, "fix": 10, "sure": 0.5}])
def test_a_dive_records_its_choices_and_local_logic_does_the_rest(settings):
    rng = random.Random(1)
    ended = {True: 0, False: 0}
    for _ in range(40):
        n = m = 15  # 15x15 at density 1/2: the rash settings reach a dead end now and then
        p = model.from_grid(sum(1 << k for k in range(n * m) if rng.random() < 0.5), n, m)
        board = logic.Board.from_masks(n, m)
        logic.settle(board, p.rows, p.cols)
        dived = beliefs.dive(p, board, **settings)
        replay = board.copy()
        for step in dived.choices:
            assert step and all(
                not (replay.rows1[r] | replay.rows0[r]) >> c & 1 for r, c, _ in step
            )  # each fixes unknown cells
            for r, c, value in step:
                replay.set(r, c, value)
            assert logic.settle(replay, p.rows, p.cols) is None
        assert (replay.rows1, replay.rows0) == (dived.board.rows1, dived.board.rows0)
        if dived.choices:
            assert dived.belief.shape == (n, m) and ((dived.belief >= 0) & (dived.belief <= 1)).all()
        else:  # no step, no beliefs: local logic had solved it
            assert dived.belief is None and board.solved()
        if dived.solution is not None:
            assert solve.is_solution(p, dived.solution) and dived.board.solved()
        ended[dived.solution is not None] += 1
    assert ended[True] >= 20 and (ended[False] >= 1 or not settings)  # the rash settings reach dead ends too
