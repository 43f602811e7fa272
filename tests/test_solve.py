"""Single puzzles: local logic with a trace, and the complete search against brute force."""

import random

import naive
import pytest

from localcount.clues import grid_clues, parse_grid
from localcount.puzzle import formats as F
from localcount.puzzle.solving import logic
from localcount.puzzle.solving import search as solve


def brute_force_solutions(p):
    """Every grid with the puzzle's clues, by trying all 2^(n*m)."""
    return [g for g in range(1 << (p.n * p.m)) if grid_clues(g, p.n, p.m) == (p.rows, p.cols)]


@pytest.mark.parametrize("n,m", [(2, 2), (2, 3), (3, 3), (2, 5)])
def test_search_finds_exactly_the_brute_force_solutions(n, m):
    by_clues = {}
    for g in range(1 << (n * m)):
        by_clues.setdefault(grid_clues(g, n, m), []).append(g)
    for (rows, cols), grids in by_clues.items():
        p = F.Puzzle(rows, cols)
        found = solve.search(p, limit=1 << (n * m))
        assert sorted(found.solutions) == grids and found.complete
        assert found.verdict == (solve.UNIQUE if len(grids) == 1 else solve.MULTIPLE)


def test_search_with_a_limit_on_random_4x4_puzzles_matches_brute_force():
    by_clues = {}
    for g in range(1 << 16):
        by_clues.setdefault(grid_clues(g, 4, 4), []).append(g)
    rng = random.Random(3)
    for _ in range(60):
        grid = rng.getrandbits(16)
        p = F.from_grid(grid, 4, 4)
        found = solve.search(p, limit=3)
        expect = by_clues[(p.rows, p.cols)]
        assert len(found.solutions) == min(3, len(expect)) and set(found.solutions) <= set(expect)
        assert found.verdict == (solve.UNIQUE if len(expect) == 1 else solve.MULTIPLE)


def test_limits_and_verdicts():
    p = F.from_grid(parse_grid("10/01")[0], 2, 2)  # two solutions: the diagonals
    assert solve.search(p, limit=1).verdict == solve.SOME
    both = solve.search(p, limit=2)
    assert both.verdict == solve.MULTIPLE and sorted(both.solutions) == sorted(
        [parse_grid("10/01")[0], parse_grid("01/10")[0]]
    )
    assert solve.search(F.Puzzle(((1,),), ((1,),)), limit=1).verdict == solve.UNIQUE
    with pytest.raises(ValueError):
        solve.search(p, limit=0)


def test_no_solution():
    # every clue fits its line and the totals agree, yet no grid has these clues
    p = F.Puzzle(((), (), (1, 1)), ((), (), (1, 1)))
    assert brute_force_solutions(p) == []
    assert solve.search(p).verdict == solve.NO_SOLUTION


def test_local_trace_replays_to_the_outcome_and_matches_the_reference():
    rng = random.Random(5)
    for _ in range(40):
        n, m = rng.randint(1, 5), rng.randint(1, 5)
        grid = rng.getrandbits(n * m)
        p = F.from_grid(grid, n, m)
        steps = []
        out = solve.local(p, steps)
        status, known = naive.solve_grid(grid, n, m)
        assert out.status == status and out.known == known
        filled = empty = 0
        for s in steps:
            assert s.filled & filled == 0 and s.empty & empty == 0 and (s.filled or s.empty)
            filled |= s.filled
            empty |= s.empty
        assert (filled, empty) == (out.filled, out.empty)
        assert filled == grid & out.known  # deductions are true of the grid


def test_propagate_from_a_start_and_contradictions():
    p = F.from_grid(parse_grid("10/01")[0], 2, 2)
    out = logic.propagate(p.rows, p.cols, filled=1)  # cell (0, 0) filled: the rest follows
    assert out.status == logic.SOLVED and out.filled == parse_grid("10/01")[0]
    bad = logic.propagate(p.rows, p.cols, filled=0b11)  # row 1 has clue 1 but two filled cells
    assert bad.status == logic.CONTRADICTION and bad.line == "row 1"


PERMUTATIONS = "6\n" + "1\n" * 12  # every 6x6 permutation matrix: 720 solutions, nothing to deduce


def test_a_node_limit_gives_up_honestly():
    from localcount.puzzle import examples

    p = examples.load("stuck20")
    capped = solve.plain_search(p, limit=2, max_nodes=3)
    assert capped.verdict == solve.UNDECIDED and not capped.complete and capped.nodes == 3 and capped.stopped == "nodes"
    assert solve.plain_search(p, limit=2).verdict == solve.UNIQUE == solve.search(p, limit=2).verdict
    perms = F.parse(PERMUTATIONS, "txt")
    capped = solve.search(perms, limit=2, max_nodes=1)
    assert (
        capped.verdict == solve.UNDECIDED and capped.nodes == 1 and capped.stopped == "nodes" and not capped.solutions
    )
    timed = solve.search(perms, limit=800, timeout=1e-9)
    assert timed.verdict == solve.UNDECIDED and timed.stopped == "time" and not timed.complete
    assert len(solve.search(perms, limit=800).solutions) == 720
    for bad in (dict(max_nodes=0), dict(timeout=0), dict(limit=0)):
        with pytest.raises(ValueError):
            solve.search(p, **bad)
