"""Colour puzzles: the search against brute force, the real colour puzzles, XML round trips and the command."""

import itertools
import json
import pathlib
import random
import subprocess
import sys

from localcount.puzzle import colour, formats
from localcount.puzzle import search as solve

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
    files = [path for path in sorted(HERE.glob("*.xml")) if isinstance(formats.parse(path.read_text(), None, str(path)), colour.ColourPuzzle)]
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
    res = run("convert", path, "--to", "non")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "xml only" in res.stderr
    res = run("solve", path, "--gif", tmp_path / "x.gif")
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    png = tmp_path / "x.png"
    res = run("solve", path, "--png", png)
    assert res.returncode == 0, res.stderr
    Image = __import__("pytest").importorskip("PIL.Image")
    with Image.open(png) as im:
        colours = {rgb for _, rgb in im.convert("RGB").getcolors(1 << 20)}
        assert {(255, 0, 0), (0, 176, 0), (64, 64, 255)} <= colours  # red, green and blue cells
    out = tmp_path / "back.xml"
    assert run("convert", path, "--to", "xml", "-o", out).returncode == 0
    assert formats.parse(out.read_text(), "xml") == formats.parse(path.read_text(), "xml")
