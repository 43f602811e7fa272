"""Probing and the search built on it, against brute force over every grid; levels; long lines; --json."""

import json
import random
import subprocess
import sys

import pytest

from localcount.clues import grid_clues
from localcount.puzzle import model
from localcount.puzzle.model import Puzzle
from localcount.puzzle.solving import logic, probing
from localcount.puzzle.solving import search as solve


def every_solution(rows, cols) -> set:
    """Brute force: every grid with these clues."""
    n, m = len(rows), len(cols)
    return {g for g in range(1 << (n * m)) if grid_clues(g, n, m) == (tuple(rows), tuple(cols))}


def random_puzzles(count: int, seed: int):
    """Clues of random grids up to 12 cells, and now and then rows of one grid with columns of another."""
    rng = random.Random(seed)
    for _ in range(count):
        n, m = rng.randint(1, 4), rng.randint(1, 4)
        while n * m > 12:
            n, m = rng.randint(1, 4), rng.randint(1, 4)
        rows, cols = grid_clues(rng.getrandbits(n * m), n, m)
        if rng.random() < 0.3:
            cols = grid_clues(rng.getrandbits(n * m), n, m)[1]
        yield Puzzle(rows, cols)


@pytest.mark.parametrize("seed", range(4))
def test_the_search_finds_exactly_the_solutions_brute_force_finds(seed):
    for p in random_puzzles(60, seed):
        want = every_solution(p.rows, p.cols)
        for found in (solve.search(p, limit=5000), solve.plain_search(p, limit=5000)):
            assert set(found.solutions) == want and len(found.solutions) == len(want), p
            assert (
                found.complete and found.verdict == (solve.NO_SOLUTION, solve.UNIQUE)[len(want)]
                if len(want) < 2
                else found.verdict == solve.MULTIPLE
            )
        capped = solve.search(p, limit=1)
        assert len(capped.solutions) == min(1, len(want)) and set(capped.solutions) <= want


@pytest.mark.parametrize("seed", range(3))
def test_probing_only_sets_what_every_solution_shares(seed):
    rng = random.Random(seed)
    for _ in range(40):
        n, m = rng.randint(2, 4), rng.randint(2, 4)
        p = model.from_grid(rng.getrandbits(n * m), n, m)
        sols = every_solution(p.rows, p.cols)
        board = logic.Board(n, m)
        assert logic.settle(board, p.rows, p.cols) is None
        status, branch = probing.probe(board, p.rows, p.cols)
        filled, empty = board.filled(), board.empty()
        assert all(g & filled == filled and not g & empty for g in sols), (p, filled, empty)
        shared1 = ~0
        shared0 = ~0
        for g in sols:
            shared1 &= g
            shared0 &= ~g
        assert filled & ~shared1 == 0 and empty & ~shared0 == 0
        assert status == (logic.SOLVED if len(sols) == 1 and (filled | empty) == (1 << (n * m)) - 1 else status)
        if status == logic.STUCK and branch is not None:
            assert not (filled | empty) >> (branch.r * m + branch.c) & 1  # it branches on an unknown cell


def test_the_board_keeps_rows_and_columns_alike():
    rng = random.Random(5)
    for _ in range(50):
        n, m = rng.randint(0, 7), rng.randint(0, 7)
        filled = rng.getrandbits(n * m) if n * m else 0
        empty = rng.getrandbits(n * m) & ~filled if n * m else 0
        b = logic.Board.from_masks(n, m, filled, empty)
        assert b.filled() == filled and b.empty() == empty
        for c in range(m):
            assert b.cols1[c] == sum((filled >> (r * m + c) & 1) << r for r in range(n))
            assert b.cols0[c] == sum((empty >> (r * m + c) & 1) << r for r in range(n))
        copy = b.copy()
        if n and m:
            copy.set(0, 0, 1)
            assert b.filled() == filled  # independent


def test_levels_name_the_reasoning_a_puzzle_needs():
    from localcount.puzzle import examples

    assert solve.search(examples.load("heart")).level == solve.LINE
    found = solve.search(examples.load("stuck30"))
    assert found.level == solve.PROBING and found.verdict == solve.UNIQUE and found.nodes == 1
    perms = Puzzle(((1,),) * 5, ((1,),) * 5)
    assert solve.search(perms, limit=200).level == solve.BRANCHING
    assert len(solve.search(perms, limit=200).solutions) == 120
    assert solve.search(Puzzle(((2,),), ((1,),))).verdict == solve.NO_SOLUTION  # clue longer than the line


def test_a_512_by_512_picture_is_solved_by_line_logic():
    n = m = 512
    grid = sum(1 << (r * m + c) for r in range(n) for c in range(m) if (r - 256) ** 2 + (c - 256) ** 2 < 200**2)
    p = model.from_grid(grid, n, m)
    out = solve.local(p)
    assert out.status == logic.SOLVED and out.filled == grid
    found = solve.search(p)
    assert found.verdict == solve.UNIQUE and found.solutions == [grid] and found.level == solve.LINE


def test_solve_json_is_one_object_with_the_verdict_level_and_solutions(tmp_path):
    from localcount.puzzle import examples, formats

    def run(*args, stdin=None):
        res = subprocess.run(
            [sys.executable, "-m", "localcount", "solve", *args], input=stdin, capture_output=True, text=True
        )
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout)

    got = run("stuck30", "--json")
    p = examples.load("stuck30")
    assert got["verdict"] == "unique" and got["level"] == "probing" and got["complete"] is True
    assert got["rows"] == p.n and got["columns"] == p.m and got["nodes"] >= 1 and got["seconds"] >= 0
    (rows,) = got["solutions"]
    grid = sum(int(row[::-1], 2) << (r * p.m) for r, row in enumerate(rows))
    assert solve.is_solution(p, grid)
    assert run("heart", "--json")["level"] == "line"
    many = run("-", "--json", stdin="3\n" + "1\n" * 6)
    assert many["verdict"] == "multiple" and len(many["solutions"]) == 2 and many["complete"] is False
    none = run("-", "--json", stdin="3\n1 1\n2\n1\n2\n1\n2\n")  # local logic finds a contradiction
    assert none["verdict"] == "none" and none["solutions"] == [] and none["level"] == "line"
    path = tmp_path / "p.txt"
    path.write_text(formats.format_txt(Puzzle(((1,),) * 6, ((1,),) * 6)))
    stopped = run(str(path), "--json", "--max-nodes", "1")
    assert stopped["verdict"] == "undecided" and stopped["level"] is None


def test_given_cells_are_where_the_search_starts():
    from localcount.puzzle import formats

    p = formats.parse("4x4:2/1/2/1/1.1/2/1/1,Ap", "tatham")  # Simon Tatham's own example ID with a given cell
    assert p.given_filled or p.given_empty
    found = solve.search(p, limit=5)
    assert found.solutions and all(solve.is_solution(p, g) for g in found.solutions)
    free = Puzzle(p.rows, p.cols)
    assert set(found.solutions) <= set(solve.search(free, limit=50).solutions)
    assert set(solve.plain_search(p, limit=5).solutions) == set(found.solutions)
    rows, cols = ((1,), (1,)), ((1,), (1,))  # two solutions, the diagonals; a given cell picks one
    both = solve.search(Puzzle(rows, cols), limit=5).solutions
    one = solve.search(Puzzle(rows, cols, given_filled=1), limit=5).solutions
    assert len(both) == 2 and one == [g for g in both if g & 1]


def test_the_search_stops_at_a_probe_budget_only_after_the_root():
    from localcount.puzzle import examples

    rng = random.Random(3)
    p = next(p for p in (model.from_grid(rng.getrandbits(64), 8, 8) for _ in range(200)) if solve.search(p).nodes >= 2)
    full = solve.search(p)
    assert full.level == solve.BRANCHING and full.probes > 1
    cut = solve.search(p, max_probes=1)
    assert (cut.stopped, cut.level, cut.nodes, cut.complete) == ("probes", solve.BRANCHING, 1, False)
    assert cut.root is not None and cut.root.known_cells() >= solve.local(p).known.bit_count()
    easy = solve.search(examples.load("stuck8"), max_probes=10**9)
    assert easy.stopped == "" and easy.complete
