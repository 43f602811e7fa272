"""Single yesnograms (row clues count runs of 0s): local logic, difficulty, the search, SAT, the formats that say
so (and those that cannot), and the commands, against the reference (``naive``) and brute force."""

import dataclasses
import functools
import itertools
import json
import os
import subprocess
import sys

import naive
import pytest

from localcount import tuning
from localcount.clues import grid_clues, parse_grid
from localcount.puzzle import formats as F
from localcount.puzzle.solving import logic, sat
from localcount.puzzle.solving import search as solve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
YES = "yesnogram"
#: The A385862 example: rows 0111/0101/1100 (left cell first), row clues 1 / 1 1 / 2, column clues 1 3 1 2.
EXAMPLE = "0111/0101/1100"


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "localcount", *map(str, args)],
        capture_output=True, text=True, input=stdin, env=dict(os.environ, PYTHONPATH=ROOT), timeout=120,
    )  # fmt: skip


def one_error_line(res):
    """The one stderr line of a failed command (exit 2), checked."""
    assert res.returncode == 2, (res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("localcount: error: "), res.stderr
    return lines[0]


@functools.cache
def grids_by_clues(n, m):
    """{yesnogram clues: every n×m grid with them, in order}."""
    out = {}
    for g in range(1 << (n * m)):
        out.setdefault(grid_clues(g, n, m, YES), []).append(g)
    return out


def brute_force(p):
    """Every grid whose yesnogram clues are the puzzle's."""
    return grids_by_clues(p.n, p.m).get((tuple(p.rows), tuple(p.cols)), [])


def puzzle(grid, n, m):
    return F.from_grid(grid, n, m, variant=YES)


@pytest.mark.parametrize("n,m", [(3, 3), (2, 4), (4, 2)])
def test_local_logic_on_every_grid_matches_the_reference(n, m):
    for grid in range(1 << (n * m)):
        rows, cols = naive.clues_of(grid, n, m, YES)
        assert (rows, cols) == grid_clues(grid, n, m, YES)
        out = logic.propagate(rows, cols, variant=YES)
        status, known = naive.solve_grid(grid, n, m, YES)
        assert (out.status, out.known) == (status, known), (n, m, grid)
        if status == logic.SOLVED:
            assert out.filled == grid
        steps = naive.steps_to_solve(rows, cols, YES)
        hard = logic.difficulty(rows, cols, variant=YES)
        assert (hard.steps if hard else None) == steps, (n, m, grid)
        if hard:
            assert hard.rounds == naive.rounds_to_solve(rows, cols, YES)


def test_the_variant_matters():
    """Some 3x3 grid is solved as a yesnogram and not as a nonogram, and the other way round."""
    yes = {g for g in range(1 << 9) if naive.solve_grid(g, 3, 3, YES)[0] == "solved"}
    no = {g for g in range(1 << 9) if naive.solve_grid(g, 3, 3)[0] == "solved"}
    assert yes - no and no - yes
    for g in (min(yes - no), min(no - yes)):
        assert (logic.propagate(*grid_clues(g, 3, 3, YES), variant=YES).status == logic.SOLVED) == (g in yes)


def test_random_clues_with_contradictions_match_the_reference():
    import random

    rng = random.Random(7)
    seen = set()
    for _ in range(800):
        n, m = rng.randint(0, 4), rng.randint(0, 4)
        rows = [tuple(rng.randint(1, 2) for _ in range(rng.randint(0, 2))) for _ in range(n)]
        cols = [tuple(rng.randint(1, 2) for _ in range(rng.randint(0, 2))) for _ in range(m)]
        out = logic.propagate(rows, cols, variant=YES)
        status, cells = naive.solve_clues(rows, cols, YES)
        assert out.status == status, (rows, cols)
        if status != logic.CONTRADICTION:
            assert out.known == naive.known_mask(cells, m)
        seen.add(status)
    assert seen == {"solved", "stuck", "contradiction"}


@pytest.mark.parametrize("n,m", [(3, 3), (2, 4), (3, 4)])
def test_the_search_finds_every_solution_of_stuck_yesnograms(n, m):
    tried = 0
    for (rows, cols), want in grids_by_clues(n, m).items():
        p = F.Puzzle(rows, cols, variant=YES)
        if solve.local(p).status == logic.SOLVED:
            assert len(want) == 1
            continue
        for found in (solve.search(p, limit=1 << (n * m)), solve.plain_search(p, limit=1 << (n * m))):
            assert sorted(found.solutions) == want and found.complete
            assert found.verdict == (solve.UNIQUE if len(want) == 1 else solve.MULTIPLE)
        tried += 1
    assert tried > 10


def test_a_yesnogram_that_needs_more_than_local_logic_but_has_one_solution():
    stuck = (p for p in (puzzle(g, 3, 4) for g in range(1 << 12)) if solve.local(p).status == logic.STUCK)
    p = next(p for p in stuck if len(brute_force(p)) == 1)
    out = solve.search(p)
    assert out.verdict == solve.UNIQUE and out.solutions == [p.goal] and out.level == solve.PROBING


@pytest.mark.skipif(not sat.available(), reason="python-sat is not installed")
def test_sat_finds_every_solution_of_yesnograms():
    for n, m in ((3, 3), (2, 4)):
        for grid in range(0, 1 << (n * m), 3):
            p = puzzle(grid, n, m)
            found = sat.search_sat(p, limit=1 << (n * m))
            assert sorted(found.solutions) == brute_force(p) and found.complete
    rows, cols = grid_clues(0b101_010_101, 3, 3, YES)
    broken = F.Puzzle(rows, ((1,), (1,), (3,)), variant=YES)  # the clues of no grid
    assert sat.search_sat(broken).verdict == solve.NO_SOLUTION == solve.search(broken).verdict


@pytest.mark.skipif(not sat.available(), reason="python-sat is not installed")
def test_the_default_method_hands_a_hard_yesnogram_to_sat(monkeypatch):
    monkeypatch.setattr(tuning, "SAT_HANDOFF_PROBES", 1)
    p = puzzle(5510, 4, 4)  # the first 4x4 grid whose yesnogram the search branches on below the root
    assert solve.search(p, limit=100).level == solve.BRANCHING
    out = sat.solve_auto(p, limit=100)
    assert out.method == "search+sat" and sorted(out.solutions) == brute_force(p)


def test_the_example_solves_uniquely_through_explain_and_solve(tmp_path):
    res = run("explain", "--grid", EXAMPLE, "--variant", YES)
    assert res.returncode == 0, res.stderr
    assert "yesnogram" in res.stdout.splitlines()[0]
    assert "4\n1\n3\n1\n2\n1\n1 1\n2\n" in res.stdout  # column clues 1 3 1 2, then row clues 1 / 1 1 / 2
    assert "solved by local logic" in res.stdout
    hard = naive.steps_to_solve(*naive.clues_of(parse_grid(EXAMPLE)[0], 3, 4, YES), YES)
    assert f"difficulty: {hard} steps" in res.stdout
    p = puzzle(*parse_grid(EXAMPLE))
    assert (p.rows, p.cols) == (((1,), (1, 1), (2,)), ((1,), (3,), (1,), (2,)))
    path = tmp_path / "example.txt"
    path.write_text(F.format_txt(p))
    res = run("solve", path)
    assert res.returncode == 0, res.stderr
    assert "yesnogram" in res.stdout.splitlines()[0] and "unique" in res.stdout
    answer = json.loads(run("solve", path, "--json").stdout)
    assert answer["variant"] == YES and answer["verdict"] == "unique" and answer["solutions"] == [EXAMPLE.split("/")]
    assert answer["steps"] == hard
    # the same grid read as a nonogram has other clues
    plain = run("explain", "--grid", EXAMPLE)
    assert plain.returncode == 0 and "yesnogram" not in plain.stdout


def stuck_yesnogram():
    """A 3x4 yesnogram that local logic leaves stuck with several solutions, and its solutions by brute force."""
    for grid in range(1 << 12):
        p = puzzle(grid, 3, 4)
        if solve.local(p).status == logic.STUCK:
            want = brute_force(p)
            if len(want) >= 2:
                return p, want


@pytest.mark.parametrize("method", ["auto", "search", "plain", "sat"])
def test_solve_lists_every_solution_of_a_stuck_yesnogram(tmp_path, method):
    if method == "sat" and not sat.available():
        pytest.skip("python-sat is not installed")
    p, want = stuck_yesnogram()
    path = tmp_path / "stuck.non"
    path.write_text(F.format_non(dataclasses.replace(p, goal=None)))
    res = run("solve", path, "--all", "--method", method, "--json")
    assert res.returncode == 0, res.stderr
    answer = json.loads(res.stdout)
    grids = sorted(parse_grid("/".join(rows))[0] for rows in answer["solutions"])
    assert grids == want and answer["complete"] and answer["verdict"] == "multiple"
    res = run("solve", path, "--all", "--method", method)
    assert f"{len(want)} solutions, all of them" in res.stdout and "yesnogram" in res.stdout.splitlines()[0]


def yesnograms():
    for n, m in ((1, 1), (2, 3), (3, 4), (4, 7), (5, 5), (3, 0), (0, 3), (0, 0)):
        for grid in (0, (1 << (n * m)) - 1, 0b1011_0110_1101_0010_1110_0101_1001 & ((1 << (n * m)) - 1)):
            p = puzzle(grid, n, m)
            yield dataclasses.replace(p, title=f"yes {n}x{m}", author="Tom & Jerry", licence="CC-BY-4.0")


@pytest.mark.parametrize("fmt", F.VARIANT_FORMATS)
def test_formats_that_hold_a_yesnogram_round_trip(fmt):
    for p in yesnograms():
        text = F.format_puzzle(p, fmt)
        assert "yesnogram" in text
        back = F.parse(text, fmt)
        assert back.variant == YES and (back.rows, back.cols) == (p.rows, p.cols)
        if fmt in ("non", "xml"):
            assert back == p
        else:
            assert back == dataclasses.replace(p, goal=None)
        assert F.format_puzzle(back, fmt) == text
        assert F.guess_format(text) == fmt
        assert F.read(text, fmt, variant=YES)[0] == back
        if p.n * p.m and p.rows != grid_clues(p.goal, p.n, p.m)[0]:
            with pytest.raises(F.PuzzleError, match="not a nonogram"):
                F.read(text, fmt, variant="nonogram")


def test_nonograms_are_written_without_a_variant_mark():
    p = F.from_grid(0b101_010_111, 3, 3, "plain")
    for fmt in F.FORMATS:
        assert "variant" not in F.format_puzzle(p, fmt)
        assert F.parse(F.format_puzzle(p, fmt), fmt).variant == "nonogram"


@pytest.mark.parametrize("fmt", ["nin", "tatham"])
def test_formats_without_room_refuse_a_yesnogram_and_read_one_when_told(fmt):
    p = puzzle(*parse_grid(EXAMPLE))
    with pytest.raises(F.PuzzleError, match=f"{fmt} cannot say"):
        F.format_puzzle(p, fmt)
    text = F.format_puzzle(dataclasses.replace(p, variant="nonogram", goal=None), fmt)  # the same clues, unmarked
    read = F.read(text, fmt, variant=YES)[0]
    assert read.variant == YES and (read.rows, read.cols) == (p.rows, p.cols)
    with pytest.raises(F.PuzzleError):
        F.parse(text, fmt)  # as a nonogram its clues do not add up


def test_the_variant_marks_read_back_and_bad_ones_are_errors():
    txt = "// title: t\n// Variant: YESNOGRAM\n3 4\n1\n3\n1\n2\n1\n1 1\n2\n"
    assert F.parse(txt, "txt").variant == YES and F.parse(txt, "txt").title == "t"
    with pytest.raises(F.PuzzleError, match="variant must be one of") as err:
        F.parse("// variant: maybe\n1\n1\n1\n", "txt")
    assert err.value.line == 1
    non = "variant yesnogram\nwidth 4\nheight 3\nrows\n1\n1,1\n2\ncolumns\n1\n3\n1\n2\n"
    assert F.parse(non, "non").variant == YES
    with pytest.raises(F.PuzzleError, match="variant must be one of"):
        F.parse(non.replace("variant yesnogram", "variant no"), "non")
    xml = F.format_xml(puzzle(*parse_grid(EXAMPLE)))
    with pytest.raises(F.PuzzleError, match="variant must be one of"):
        F.parse(xml.replace('variant="yesnogram"', 'variant="x"'), "xml")
    with pytest.raises(
        F.PuzzleError, match="leave 6 cells empty and the column clues fill 8"
    ):  # clues that do not add up
        F.parse(txt.replace("\n2\n", "\n3\n"), "txt")


def test_convert_round_trips_and_refuses_formats_without_room(tmp_path):
    source = tmp_path / "example.xml"
    source.write_text(F.format_xml(puzzle(*parse_grid(EXAMPLE))))
    for fmt in F.VARIANT_FORMATS:
        res = run("convert", source, "--to", fmt)
        assert res.returncode == 0, res.stderr
        assert F.parse(res.stdout, fmt).variant == YES
    for fmt in ("nin", "tatham"):
        assert "cannot say that a puzzle is a yesnogram" in one_error_line(run("convert", source, "--to", fmt))
    nin = tmp_path / "example.nin"
    nin.write_text("4 3\n1\n1 1\n2\n1\n3\n1\n2\n")
    res = run("convert", nin, "--to", "txt", "--variant", YES)
    assert res.returncode == 0 and res.stdout.startswith("// variant: yesnogram\n3 4\n")
    res = run("solve", nin, "--variant", YES)
    assert res.returncode == 0 and "unique" in res.stdout


def test_bad_or_contradicting_variant_exits_2_with_one_line(tmp_path):
    assert "--variant" in one_error_line(run("explain", "--grid", EXAMPLE, "--variant", "maybe"))
    path = tmp_path / "p.txt"
    path.write_text(F.format_txt(puzzle(*parse_grid(EXAMPLE))))
    assert "--variant" in one_error_line(run("solve", path, "--variant", "nonagram"))
    assert "not a nonogram" in one_error_line(run("solve", path, "--variant", "nonogram"))
    assert "--variant" in one_error_line(run("convert", path, "--to", "non", "--variant", ""))
    assert "not a yesnogram" in one_error_line(run("solve", "cat", "--variant", YES))  # a shipped nonogram
    plain = tmp_path / "plain.txt"
    plain.write_text("3\n1\n1\n1\n1\n1\n1\n")
    assert "variant: yesnogram" in one_error_line(run("solve", plain, "--variant", YES))


def test_every_small_yesnogram_solves_to_its_brute_force_solutions():
    """The whole pipeline (local logic, then the search) on every 2x3 grid's yesnogram clues; a solution is checked
    with the yesnogram's clues, not the nonogram's."""
    for (rows, cols), want in grids_by_clues(2, 3).items():
        p = F.Puzzle(rows, cols, variant=YES)
        assert sorted(solve.search(p, limit=100).solutions) == want
        assert all(solve.is_solution(p, g) for g in want)
        assert not any(solve.is_solution(F.Puzzle(rows, cols), g) for g in want if grid_clues(g, 2, 3) != (rows, cols))


def test_a_yesnogram_of_every_shape_has_a_consistent_check():
    for n, m in itertools.product(range(4), repeat=2):
        for grid in range(0, 1 << (n * m), 5):
            assert F.check(puzzle(grid, n, m)).variant == YES


@pytest.mark.parametrize("length", [3, 5, 6])
def test_belief_propagation_reads_a_yesnogram_row_complemented(length):
    """With uniform crossing opinions and no damping, a row's opinion of a cell is the share of its fitting
    patterns (counted by the reference: runs of 0s) that fill the cell."""
    np = pytest.importorskip("numpy")
    from localcount.puzzle.solving import beliefs

    for clue, pats in naive.all_patterns(length, 0).items():
        p = F.Puzzle((clue,), ((),) * length, variant=YES)
        b = beliefs.Beliefs(p, damping=0.0)
        half, none = np.full((1, length), 0.5), np.zeros((1, length), bool)
        got = b._send(b.rows, half, half, none, none, complemented=True)[0]
        want = [sum(pat[c] for pat in pats) / len(pats) for c in range(length)]
        assert np.allclose(got, want), (clue, got, want)


def test_the_dive_finds_checked_yesnogram_solutions():
    from localcount.puzzle.solving import beliefs

    found = 0
    for grid in range(0, 1 << 16, 97):
        p = puzzle(grid, 4, 4)
        board = logic.Board.from_masks(4, 4, variant=YES)
        assert logic.settle(board, p.rows, p.cols) is None
        if board.solved():
            continue
        out = beliefs.dive(p, board)
        if out.solution is not None:
            found += 1
            assert out.solution in brute_force(p)
    assert found > 50
