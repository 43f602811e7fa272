"""The compiled probing (``compiled._probe``, driven by ``probing.probe`` once local logic is compiled) against the
interpreted one: the same verdict, board, best branch (cell, score, both boards) and probe count on random
fixpoints of both variants, with and without givens; the same searches (nodes, probes, solutions) on random
and real puzzles; the same result when it pauses after every cell to look at the clock; and a deadline kept."""

import pathlib
import random

import pytest
from test_compiled_logic import random_case

from localcount import tuning
from localcount.puzzle import formats
from localcount.puzzle.solving import compiled, logic, probing, search

PUZZLES = pathlib.Path(__file__).parent / "puzzles"


def lines(board) -> tuple:
    return board.rows1, board.rows0, board.cols1, board.cols0, board.known


def probed(board, rows, cols, on: bool, clock=None) -> tuple:
    """(verdict, the board after, the branch as plain data, probes) of ``probe`` on a copy, compiled or not."""
    b, counts = board.copy(), {}
    logic.use_compiled(on)
    try:
        verdict, branch = probing.probe(b, rows, cols, clock, counts)
    finally:
        logic.use_compiled(False)
    if branch is not None:
        branch = (branch.r, branch.c, branch.score, lines(branch.filled), lines(branch.empty))
    return verdict, lines(b), branch, counts.get("probes", 0)


def fixpoints(seed: int, count: int):
    """Random boards at a fixpoint of local logic (no contradiction yet), with their clues."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        n, m = (rng.randint(2, 9), rng.randint(2, 9)) if made % 4 else (rng.randint(10, 30), rng.randint(10, 30))
        board, rows, cols, _ = random_case(rng, n, m)
        if logic.settle(board, rows, cols) is None:
            made += 1
            yield board, rows, cols


@pytest.mark.parametrize("seed", range(4))
def test_compiled_probe_is_the_interpreted_one(seed):
    verdicts, branched = set(), 0
    for board, rows, cols in fixpoints(seed, 120):
        slow = probed(board, rows, cols, False)
        assert probed(board, rows, cols, True) == slow, (rows, cols, board.yes, lines(board))
        verdicts.add(slow[0])
        branched += slow[2] is not None
    assert verdicts == {logic.SOLVED, logic.STUCK, logic.CONTRADICTION} and branched


def test_pausing_for_the_clock_after_every_cell_changes_nothing(monkeypatch):
    monkeypatch.setattr(tuning, "PROBING_TICK_CELLS", 1)
    ticks = []
    for board, rows, cols in fixpoints(7, 40):
        clock = probing.Clock(None, lambda state, seconds: ticks.append(seconds), every=0.0)
        assert probed(board, rows, cols, True, clock) == probed(board, rows, cols, False)
    assert ticks  # the clock was looked at between the pauses


def test_a_passed_deadline_stops_compiled_probing():
    rng = random.Random(3)
    while True:  # a 25x25 fixpoint that probing has work on
        board, rows, cols, _ = random_case(rng, 25, 25)
        if logic.settle(board, rows, cols) is None and not board.solved():
            break
    clock = probing.Clock(1e-9)
    before = lines(board.copy())
    logic.use_compiled()
    try:
        with pytest.raises(probing.OutOfTime):
            probing.probe(board, rows, cols, clock, {})
    finally:
        logic.use_compiled(False)
    assert lines(board) == before  # stopped before its first try


def searched(p, on: bool) -> tuple:
    logic.use_compiled(on)
    try:
        s = search.search(p, limit=2)
    finally:
        logic.use_compiled(False)
    return s.verdict, s.level, s.nodes, s.probes, s.solutions


@pytest.mark.parametrize("seed", range(3))
def test_compiled_search_is_the_interpreted_one_on_random_puzzles(seed):
    from localcount.puzzle.model import from_grid

    rng = random.Random(seed)
    verdicts = set()
    for _ in range(40):
        n, m = rng.randint(4, 12), rng.randint(4, 12)
        p = from_grid(rng.getrandbits(n * m), n, m)
        slow = searched(p, False)
        assert searched(p, True) == slow, (p.rows, p.cols)
        verdicts.add(slow[0])
    assert verdicts == {search.UNIQUE, search.MULTIPLE}


@pytest.mark.parametrize("name", ["webpbn-00023.non", "webpbn-00436.non", "jwilk-091-owl.non", "webpbn-00803.xml"])
def test_compiled_search_is_the_interpreted_one_on_real_puzzles(name):
    path = PUZZLES / name
    p = formats.parse(path.read_text(), None, str(path))
    slow = searched(p, False)
    assert slow[2] >= 1 and slow[3] > 0  # probing had work to do
    assert searched(p, True) == slow


def test_sides_past_the_compiled_limit_probe_interpreted():
    from localcount.puzzle.model import from_grid

    n, m = 3, compiled.MAX_SIDE + 1
    p = from_grid(int("110" * m, 2), n, m)
    assert searched(p, True) == searched(p, False)
