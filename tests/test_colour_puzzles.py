"""Colour puzzles: the search against brute force, the real colour puzzles, XML round trips and the command."""

import itertools
import json
import pathlib
import random
import subprocess
import sys

from localcount.puzzle import formats
from localcount.puzzle.solving import colour
from localcount.puzzle.solving import search as solve

HERE = pathlib.Path(__file__).resolve().parent / "puzzles"
PALETTE = (("white", ".", "FFFFFF"), ("black", "X", "000000"), ("red", "r", "FF0000"), ("green", "g", "00B000"))


def puzzle_of(cells, n, m, colours):
    rows = tuple(colour.line_clue(cells[r * m : (r + 1) * m]) for r in range(n))
    cols = tuple(colour.line_clue(cells[c::m]) for c in range(m))
    return colour.ColourPuzzle(rows, cols, PALETTE[: colours + 1])


def test_the_colour_search_finds_exactly_the_colourings_brute_force_finds():
    rng = random.Random(0)
    for _ in range(150):
        n, m, k = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
        while (k + 1) ** (n * m) > 5000:
            n, m = rng.randint(1, 3), rng.randint(1, 2)
        truth = tuple(rng.choice([0] + list(range(1, k + 1))) for _ in range(n * m))
        p = puzzle_of(truth, n, m, k)
        if rng.random() < 0.2:  # columns of another colouring: often no solution
            other = puzzle_of(tuple(rng.randint(0, k) for _ in range(n * m)), n, m, k)
            p = colour.ColourPuzzle(p.rows, other.cols, p.palette)
        want = {cells for cells in itertools.product(range(k + 1), repeat=n * m) if colour.is_solution(p, cells)}
        found = colour.search(p, limit=10**6)
        assert set(found.solutions) == want and len(found.solutions) == len(want) and found.complete, p
        assert found.verdict == (solve.NO_SOLUTION if not want else solve.UNIQUE if len(want) == 1 else solve.MULTIPLE)


def test_the_real_colour_puzzles_are_read_solved_and_written_back():
    files = [
        path
        for path in sorted(HERE.glob("*.xml"))
        if isinstance(formats.parse(path.read_text(), None, str(path)), colour.ColourPuzzle)
    ]
    assert len(files) == 8
    for path in files:
        p = formats.parse(path.read_text(), None, str(path))
        found = colour.search(p, limit=2, timeout=60)
        assert found.verdict == solve.UNIQUE and colour.is_solution(p, found.solutions[0]), path.name
        assert p.goal is None or found.solutions == [p.goal]
        assert formats.parse(formats.format_puzzle(p, "xml"), "xml") == p


def test_solve_and_convert_colour_puzzles_on_the_command_line(tmp_path):
    path = HERE / "webpbn-color-00047.xml"

    def run(*args):
        return subprocess.run([sys.executable, "-m", "localcount", *map(str, args)], capture_output=True, text=True)

    res = run("solve", path)
    assert res.returncode == 0 and "4 colours" in res.stdout and "(level: line)" in res.stdout
    got = json.loads(run("solve", path, "--json").stdout)
    assert got["verdict"] == "unique" and got["level"] == "line" and len(got["solutions"][0]) == 18
    assert [c["name"] for c in got["palette"]] == ["white", "black", "red", "green", "blue"]
    res = run("convert", path, "--to", "txt")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "xml or non only" in res.stderr
    res = run("convert", path, "--to", "non")
    assert res.returncode == 0 and "color * #ff0000" in res.stdout and "3*,1@,6*,4%,3X,1*,2*" in res.stdout
    res = run("solve", path, "--method", "sat")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "not --method sat" in res.stderr
    steps = []
    colour.local(formats.parse(path.read_text(), None, str(path)), steps)
    res = run("solve", path, "--trace")
    lines = [line for line in res.stdout.splitlines() if line.startswith("step ")]
    assert (
        res.returncode == 0
        and len(lines) == len(steps)
        and f"solved by local logic ({len(steps)} line steps)" in res.stdout
    )
    assert lines[4] == "step 5: row 5: X 4 26, % 11, @ 15; 27 cells narrowed"
    png = tmp_path / "x.png"
    res = run("solve", path, "--png", png)
    assert res.returncode == 0, res.stderr
    Image = __import__("pytest").importorskip("PIL.Image")
    with Image.open(png) as im:
        colours = {rgb for _, rgb in im.convert("RGB").getcolors(1 << 20)}
        assert {(255, 0, 0), (0, 176, 0), (64, 64, 255)} <= colours  # red, green and blue cells
    gif = tmp_path / "x.gif"
    assert run("solve", path, "--gif", gif).returncode == 0
    with Image.open(gif) as im:
        assert im.n_frames == len(steps) + 1  # the unknown grid, then a frame per step (solved: no solution frame)
    out = tmp_path / "back.xml"
    assert run("convert", path, "--to", "xml", "-o", out).returncode == 0
    assert formats.parse(out.read_text(), "xml") == formats.parse(path.read_text(), "xml")


def _same_but_names(a, b) -> bool:
    """Equal clues, goal, metadata and colours (hex); .non has no colour names, and a character such as '#' is changed."""
    return (a.rows, a.cols, a.goal, a.metadata()) == (b.rows, b.cols, b.goal, b.metadata()) and [
        p[2] for p in a.palette
    ] == [p[2] for p in b.palette]


def test_the_real_colour_puzzles_go_through_non_and_back():
    for path in sorted(HERE.glob("*.xml")):
        p = formats.parse(path.read_text(), None, str(path))
        if not isinstance(p, colour.ColourPuzzle):
            continue
        text = formats.format_puzzle(p, "non")
        q = formats.parse(text, "non")
        assert isinstance(q, colour.ColourPuzzle) and _same_but_names(p, q), path.name
        assert formats.format_puzzle(q, "non") == text
        assert _same_but_names(formats.parse(formats.format_puzzle(q, "xml"), "xml"), p)


NON_COLOUR = """title "two colours"
color a #ff0000
color b #00F
width 3
height 3

rows
1a,1b

3

columns
1a,1
1
1b,1
goal "a0b000111"
"""


def test_a_non_colour_file_is_read_as_nonogram_db_describes_it():
    p = formats.parse(NON_COLOUR, "non")
    # characters: a, b from the color lines, then 1 (a number without a character: black); a blank line: empty clue
    assert [(name, ch, hexa) for name, ch, hexa in p.palette] == [
        ("white", ".", "FFFFFF"), ("#ff0000", "a", "FF0000"), ("#0000ff", "b", "0000FF"), ("black", "1", "000000")
    ]  # fmt: skip
    a, b, black = 1, 2, 3
    assert p.rows == (((1, a), (1, b)), (), ((3, black),))
    assert p.cols == (((1, a), (1, black)), ((1, black),), ((1, b), (1, black)))
    assert p.goal == (a, 0, b, 0, 0, 0, black, black, black) and p.title == "two colours"
    found = colour.search(p, limit=3)
    assert found.verdict == solve.UNIQUE and found.solutions == [p.goal]
    assert formats.parse(formats.format_puzzle(p, "non"), "non") == p


def test_non_colour_goal_and_default_colours():
    import pytest

    text = "width 2\nheight 2\nrows\n1x,1y\n2x\ncolumns\n2x\n1y,1x\n"
    with pytest.raises(formats.PuzzleError, match="goal does not have the row clues"):
        formats.parse(text + "goal yxxx\n", "non")
    p = formats.parse(text + "goal xyxx\n", "non")
    assert [h for _, _, h in p.palette[1:]] == list(formats.NON_DEFAULT_HEX[:2])  # no color lines: the fixed list
    found = colour.search(p, limit=2)
    assert found.verdict == solve.UNIQUE and found.solutions == [p.goal] == [(1, 2, 1, 1)]
    one = formats.parse("width 2\nheight 1\nrows\n1a\ncolumns\n1a\n0\ngoal a0\n", "non")
    assert (
        not isinstance(one, colour.ColourPuzzle) and one.rows == ((1,),) and one.goal == 1
    )  # one colour: black and white


def test_bad_non_colour_lines_name_the_line():
    import pytest

    with pytest.raises(formats.PuzzleError, match="color line") as err:
        formats.parse("color a red\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n", "non", "f.non")
    assert err.value.line == 1
    with pytest.raises(formats.PuzzleError, match="row 1: the clue needs 3 cells"):
        formats.parse("width 2\nheight 1\nrows\n1a,1a\ncolumns\n1a\n1b\n", "non")
    with pytest.raises(formats.PuzzleError, match="goal must be 2 characters"):
        formats.parse("width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\ngoal ac\n", "non")


def test_colour_steps_replay_to_local_logics_board_and_describe_what_they_decided():
    for path in sorted(HERE.glob("*.xml")):
        p = formats.parse(path.read_text(), None, str(path))
        if not isinstance(p, colour.ColourPuzzle):
            continue
        steps = []
        status, board, _ = colour.local(p, steps)
        replayed = [(1 << len(p.palette)) - 1] * (p.n * p.m)
        for step in steps:
            assert step.cells and all(
                replayed[i] & mask == mask != replayed[i] for i, mask in step.cells
            )  # each narrows
            for i, mask in step.cells:
                replayed[i] = mask
        assert replayed == board, path.name
    p = colour.ColourPuzzle((((1, 1), (1, 2)),), (((1, 1),), ((1, 2),)), PALETTE[:3])
    steps = []
    assert colour.local(p, steps)[0] == colour.SOLVED
    assert colour.describe_step(p, steps[0]) == "X 1, r 2"


def test_a_colour_gif_ends_with_the_solution_when_local_logic_is_stuck():
    Image = __import__("pytest").importorskip("PIL.Image")
    import io

    from localcount.puzzle.drawing import raster

    cells = (1, 0, 0, 1)  # a 2x2 diagonal: its turn fits the clues too, so local logic is stuck
    p = puzzle_of(cells, 2, 2, 2)
    steps = []
    assert colour.local(p, steps)[0] == colour.STUCK
    found = colour.search(p, limit=1)
    with Image.open(io.BytesIO(raster.colour_gif(p, steps, solution=found.solutions[0]))) as im:
        assert im.n_frames == len(steps) + 2
