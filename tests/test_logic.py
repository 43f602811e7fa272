"""Local logic on clues alone, including contradictions, against the reference."""

import random

import naive

from localcount.clues import grid_clues
from localcount.puzzle.solving.logic import CONTRADICTION, SOLVED, propagate


def test_random_grids_match_reference():
    rng = random.Random(5)
    for _ in range(1500):
        n, m = rng.randint(0, 6), rng.randint(0, 6)
        grid = rng.getrandbits(n * m) if n * m else 0
        rows, cols = grid_clues(grid, n, m)
        out = propagate(rows, cols)
        status, cells = naive.solve_clues(rows, cols)
        assert out.status == status
        assert out.known == naive.known_mask(cells, m)
        if status == SOLVED:
            assert out.filled == grid


def test_random_clues_match_reference_including_contradictions():
    rng = random.Random(6)
    contradictions = 0
    for _ in range(1500):
        n, m = rng.randint(0, 5), rng.randint(0, 5)
        rows = [tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2))) for _ in range(n)]
        cols = [tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2))) for _ in range(m)]
        out = propagate(rows, cols)
        status, cells = naive.solve_clues(rows, cols)
        assert out.status == status, (rows, cols)
        if status != CONTRADICTION:
            assert out.known == naive.known_mask(cells, m)
        contradictions += status == CONTRADICTION
    assert contradictions > 100


def test_contradiction_names_the_line():
    out = propagate([(3,), ()], [(1,), (1,)])  # a 3-run in a 2-cell row
    assert out.status == CONTRADICTION and out.line == "row 1"
    out = propagate([], [(1,)])  # a clue on a 0-cell column
    assert out.status == CONTRADICTION and out.line == "column 1"
