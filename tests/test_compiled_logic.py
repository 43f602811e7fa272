"""The compiled local logic (``puzzle.solving.compiled``) against the interpreted ``logic.settle``: the same
verdict, board, known count, steps and half passes on random puzzles of both variants, from all unknown and
from givens (right and wrong), contradictions included, on sides up to the compiled limit."""

import random

import pytest

from localcount import tuning
from localcount.clues import grid_clues
from localcount.puzzle.solving import compiled, logic


def settled(board, rows, cols, dirty, on: bool) -> tuple:
    """(verdict, the board's lines and known count, steps, halves) of ``settle`` on a copy, compiled or not."""
    b = board.copy()
    steps, halves = [], []
    logic.use_compiled(on)
    try:
        bad = logic.settle(b, rows, cols, *dirty, steps=steps, halves=halves)
    finally:
        logic.use_compiled(False)
    return bad, (b.rows1, b.rows0, b.cols1, b.cols0, b.known), steps, halves


def random_case(rng: random.Random, n: int, m: int) -> tuple:
    """(board, row clues, column clues, dirty lines): the clues of a random grid, sometimes one clue changed (a
    contradiction, or another puzzle), some cells given (some of them wrong), a yesnogram now and then."""
    variant = rng.choice(("nonogram", "nonogram", "yesnogram"))
    density = rng.choice((0.3, 0.5, 0.7))
    grid = sum(1 << i for i in range(n * m) if rng.random() < density)
    rows, cols = (list(x) for x in grid_clues(grid, n, m, variant))
    if rng.random() < 0.3:  # another clue for one line: the puzzle may have no solution
        k = rng.randrange(n + m)
        target, length = (rows, m) if k < n else (cols, n)
        k = k if k < n else k - n
        runs = [b for b in (rng.randint(1, max(1, length // 2)) for _ in range(rng.randint(0, 3)))]
        while runs and sum(runs) + len(runs) - 1 > length:
            runs.pop()
        target[k] = tuple(runs)
    filled = empty = 0
    if rng.random() < 0.5:
        for i in range(n * m):
            if rng.random() < 0.1:
                truth = grid >> i & 1
                if rng.random() < 0.1:
                    truth = 1 - truth  # a wrong given
                if truth:
                    filled |= 1 << i
                else:
                    empty |= 1 << i
    board = logic.Board.from_masks(n, m, filled, empty, variant)
    dirty = (None, None)
    if filled | empty and rng.random() < 0.5:
        dirty = ({rng.randrange(n) for _ in range(2)}, {rng.randrange(m) for _ in range(2)})
    return board, tuple(rows), tuple(cols), dirty


@pytest.mark.parametrize("seed", range(6))
def test_compiled_settle_is_the_interpreted_one(seed):
    rng = random.Random(seed)
    sizes = [(rng.randint(1, 9), rng.randint(1, 9)) for _ in range(150)]
    sizes += [(rng.randint(10, 40), rng.randint(10, 40)) for _ in range(25)]
    sizes += [(compiled.MAX_SIDE, rng.randint(1, compiled.MAX_SIDE)), (rng.randint(1, 5), compiled.MAX_SIDE)]
    verdicts = set()
    for n, m in sizes:
        board, rows, cols, dirty = random_case(rng, n, m)
        slow = settled(board, rows, cols, dirty, False)
        fast = settled(board, rows, cols, dirty, True)
        assert fast == slow, (n, m, rows, cols, dirty, board.yes)
        verdicts.add("contradiction" if slow[0] else "solved" if slow[1][4] == n * m else "stuck")
    assert verdicts == {"contradiction", "solved", "stuck"}  # the cases reach every verdict


def test_sides_past_the_compiled_limit_run_interpreted():
    n, m = 3, compiled.MAX_SIDE + 1
    grid = int("10" * (n * m // 2 + 1), 2) & ((1 << (n * m)) - 1)
    rows, cols = grid_clues(grid, n, m)
    board = logic.Board(n, m)
    assert settled(board, rows, cols, (None, None), True) == settled(board, rows, cols, (None, None), False)


def test_the_api_answers_alike_compiled():
    import localcount as lc

    for name in lc.examples():
        p = lc.Puzzle.read(name)
        if p.palette is not None:
            continue
        plain = (p.explain(), p.difficulty, p.solve().verdict)  # steps, verdicts, levels
        logic.use_compiled()
        try:
            fast = (p.explain(), p.difficulty, p.solve().verdict)
        finally:
            logic.use_compiled(False)
        assert fast == plain, name


def test_settle_switches_itself_to_compiled_once_work_is_slow():
    import time

    rows, cols = grid_clues(0b1011_0110_1101, 3, 4)
    told = []
    try:
        logic.compile_when_slow(0.0, None, told.append)
        assert logic.compiled_for(3, 4) is None  # not before a settle finds its time has come
        logic.settle(logic.Board(3, 4), rows, cols)
        assert logic.compiled_for(3, 4) is compiled and not logic.switch_planned()
        assert len(told) == 1 and told[0].startswith("long work: local logic compiled")
    finally:
        logic.use_compiled(False)
    # a deadline too near for numba's load: no switch, and none planned any more
    logic.compile_when_slow(0.0, time.monotonic() + tuning.LOGIC_LOAD_SECONDS / 2, told.append)
    logic.settle(logic.Board(3, 4), rows, cols)
    assert logic.compiled_for(3, 4) is None and not logic.switch_planned() and len(told) == 1
    # planned, then cancelled (what the command line does when a command ends)
    logic.compile_when_slow(0.0, None, told.append)
    logic.compile_when_slow(None)
    logic.settle(logic.Board(3, 4), rows, cols)
    assert logic.compiled_for(3, 4) is None and len(told) == 1


def test_no_switch_that_must_compile_when_the_time_left_is_shorter_than_compiling(monkeypatch):
    """numba's cache without the code (``compiled.cached`` False): a deadline nearer than LOGIC_COMPILE_SECONDS keeps
    local logic interpreted, and says so; with the cache warm, the same deadline switches."""
    import time

    rows, cols = grid_clues(0b1011_0110_1101, 3, 4)
    told = []
    monkeypatch.setattr(compiled, "cached", lambda: False)
    logic.compile_when_slow(0.0, time.monotonic() + tuning.LOGIC_COMPILE_SECONDS / 2, told.append)
    logic.settle(logic.Board(3, 4), rows, cols)
    assert logic.compiled_for(3, 4) is None and not logic.switch_planned()
    assert len(told) == 1 and told[0].startswith("local logic stays interpreted: compiling it")
    monkeypatch.setattr(compiled, "cached", lambda: True)
    try:
        logic.compile_when_slow(0.0, time.monotonic() + tuning.LOGIC_COMPILE_SECONDS / 2, told.append)
        logic.settle(logic.Board(3, 4), rows, cols)
        assert logic.compiled_for(3, 4) is compiled and told[-1].startswith("long work: local logic compiled")
    finally:
        logic.use_compiled(False)


def test_a_solve_with_a_time_limit_holds_it_with_numbas_cache_empty(tmp_path):
    """``solve --timeout 5`` of a random 100x100 drawing in a process whose numba cache is empty (a fresh
    virtualenv): it does not stop to compile local logic, and answers within the limit and half a second (and
    the interpreter's start); ``compiled.cached`` says the empty cache holds nothing, a filled one the code."""
    import os
    import subprocess
    import sys
    import time

    import localcount

    rng = random.Random(70)
    path = tmp_path / "random100.txt"
    localcount.Puzzle.from_grid(["".join(rng.choice("01") for _ in range(100)) for _ in range(100)]).write(path)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "localcount", "solve", str(path), "--timeout", "5"], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    wall = time.perf_counter() - start
    assert "undecided" in done.stdout or done.returncode in (0, 1), done.stderr
    assert "stays interpreted: compiling it" in done.stderr, done.stderr
    assert wall < 5 + 0.5 + 1.0, f"answered after {wall:.1f} s"  # 1 s: the interpreter's start and imports
    probe = "from localcount.puzzle.solving import compiled; print(compiled.cached())"
    assert subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True).stdout == "False\n"


def test_a_long_generate_says_it_switched_and_a_short_one_stays_interpreted():
    import subprocess
    import sys

    def run(*args):
        return subprocess.run([sys.executable, "-m", "localcount", *args], capture_output=True, text=True, timeout=120)

    # none found: 4 s of search (tries beyond reach, or a fast machine ends on its tries before the clock)
    slow = run("generate", "6", "--steps", "25-", "--seed", "1", "--timeout", "4", "--tries", "100000000")
    lines = slow.stderr.strip().splitlines()
    assert slow.returncode == 1 and len(lines) == 2, slow.stderr
    assert "long work: local logic compiled from now on" in lines[0] and "found in 4 s" in lines[1]
    quick = run("generate", "5", "--seed", "1")
    assert quick.returncode == 0 and "long work" not in quick.stderr
    # a long one that finds its puzzle: compiled, ended without numba's teardown, its output whole
    found = run("generate", "10", "--steps", "27-", "--seed", "2", "--timeout", "60")  # 4 s of work interpreted
    assert found.returncode == 0 and "long work" in found.stderr, found.stderr
    assert found.stdout.startswith("// title: random 10x10, seed 2") and found.stdout.endswith("\n"), found.stdout
    from localcount.puzzle import formats

    made = formats.parse(found.stdout, None, "stdout")  # every clue line written
    assert (made.n, made.m, len(made.rows), len(made.cols)) == (10, 10, 10, 10)


def test_only_puzzle_commands_end_without_the_teardown():
    from localcount.cli import quick_exit

    assert quick_exit(["solve", "x.non"]) and quick_exit(["generate", "5"]) and quick_exit(["design", "cat"])
    assert not any(quick_exit(argv) for argv in ([], ["5"], ["table", "--stats"], ["serve"], ["stats", "5"]))
