"""solve, explain, examples, convert: the shipped puzzles and the commands on single puzzles."""

import io
import os
import subprocess
import sys

import pytest

from localcount.puzzle import examples, formats
from localcount.puzzle.solving import search as solve

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "localcount", *map(str, args)],
        capture_output=True, text=True, input=stdin, env=dict(os.environ, PYTHONPATH=ROOT), timeout=120,
    )  # fmt: skip


def test_at_least_20_examples_from_5x5_to_30x30():
    cat = examples.catalogue()
    assert len(cat) >= 20
    sizes = [p.n * p.m for _, p in cat]
    assert min(sizes) == 25 and max(sizes) == 900


@pytest.mark.parametrize("name", examples.names())
def test_every_example_has_its_goal_as_its_only_solution(name):
    p = examples.load(name)
    assert p.goal is not None and solve.is_solution(p, p.goal)
    found = solve.search(p, limit=2)  # its time is measured by scripts/bench_solve.py, not here
    assert found.verdict == solve.UNIQUE and found.solutions == [p.goal]
    stuck = "stuck" in p.title
    assert (solve.local(p).status == "stuck") == stuck


def test_the_shipped_files_are_what_the_script_makes():
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "make_examples.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr


def test_solve_an_example_by_name_and_a_file(tmp_path):
    res = run("solve", "stuck8")
    assert res.returncode == 0
    assert "stuck: local logic leaves unknown cells" in res.stdout and "search: unique" in res.stdout
    path = tmp_path / "p.txt"
    path.write_text(formats.format_txt(examples.load("heart")))
    res = run("solve", path, "--trace")
    assert res.returncode == 0 and "solved by local logic" in res.stdout and "step 1: " in res.stdout


def test_solve_stdin_shows_two_solutions_and_all_lists_them():
    res = run("solve", "-", stdin="2\n1\n1\n1\n1\n")
    assert res.returncode == 0 and "search: 2 solutions, all of them" in res.stdout and "solution 2:" in res.stdout
    res = run("solve", "-", "--all", stdin="2\n1\n1\n1\n1\n")
    assert res.stdout.count("solution ") == 2 and "stopped at the limit" not in res.stdout
    res = run("solve", "-", stdin="3\n" + "1\n" * 6)  # the 6 permutation matrices
    assert "search: multiple (stopped at the limit of solutions)" in res.stdout and res.stdout.count("solution ") == 2
    res = run("solve", "-", "--all", stdin="3\n" + "1\n" * 6)
    assert "search: 6 solutions, all of them (level: branching; " in res.stdout and res.stdout.count("solution ") == 6
    res = run("solve", "-", stdin="2\n1\n1\n1\n1\n")
    assert "(level: branching; 1 node, 2 probes, " in res.stdout


def test_solve_gives_up_at_the_node_limit():
    res = run("solve", "-", "--max-nodes", "1", stdin="6\n" + "1\n" * 12)  # 720 solutions, nothing to deduce
    assert res.returncode == 0 and "search: undecided (node limit reached)" in res.stdout
    res = run("solve", "stuck20", "--method", "plain", "--max-nodes", "2")
    assert res.returncode == 0 and "plain: undecided (node limit reached)" in res.stdout
    assert run("solve", "stuck20", "--max-nodes", "0").returncode == 2
    res = run("solve", "stuck20", "--timeout", "0")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "--timeout" in res.stderr


def test_solve_reports_a_contradiction_naming_the_line():
    res = run("solve", "-", stdin="3\n0\n0\n1 1\n0\n0\n1 1\n")
    assert res.returncode == 0 and "contradiction: " in res.stdout and "search: no solution" in res.stdout


@pytest.mark.parametrize(
    "stdin,message",
    [
        ("2 6\n1\n1\n1\n1\n1\n1\n0\n4 2\n", "row 2: clue 4 2 needs 7 cells, line has 6"),
        ("2\n1\nx\n1\n1\n", "<stdin>:3: "),
    ],
)
def test_bad_puzzles_exit_2_with_the_line(stdin, message):
    res = run("solve", "-", stdin=stdin)
    assert res.returncode == 2 and message in res.stderr and not res.stdout


def test_missing_file_exits_2():
    res = run("solve", "no-such-puzzle")
    assert res.returncode == 2 and "not a shipped example" not in res.stderr and "nor a shipped example" in res.stderr


def test_explain_a_stuck_grid():
    res = run("explain", "--grid", "1010/0100/1010/0011")
    assert res.returncode == 0 and "4 cells unknown" in res.stdout
    assert "step 1: column 3: filled 1 3 4, empty 2" in res.stdout and "step 5: column 1: empty 2" in res.stdout
    assert run("explain", "--grid", "10/1").returncode == 2


def test_examples_lists_every_name():
    res = run("examples")
    assert res.returncode == 0 and [line.split()[0] for line in res.stdout.splitlines()] == examples.names()


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_convert_round_trips_through_files(tmp_path, fmt):
    out = tmp_path / f"cat.{fmt}"
    assert run("convert", "cat", "--to", fmt, "-o", out).returncode == 0
    back = formats.parse(out.read_text(), fmt)
    cat = examples.load("cat")
    assert (back.rows, back.cols) == (cat.rows, cat.cols)
    again = run("convert", out, "--to", "non", "--format", fmt)
    assert again.returncode == 0 and formats.parse_non(again.stdout).rows == cat.rows


def test_bench_solve_runs():
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench_solve.py"), "--names", "grow5,stuck8"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert [line.split()[0] for line in res.stdout.splitlines() if not line.startswith("#")][1:] == ["grow5", "stuck8"]


def test_png_and_gif_pictures(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    from localcount.puzzle.drawing import raster

    png, gif = tmp_path / "cat.png", tmp_path / "cat.gif"
    res = run("solve", "cat", "--png", png, "--gif", gif)
    assert res.returncode == 0, res.stderr
    steps = []
    solve.local(examples.load("cat"), steps)
    with Image.open(gif) as im:
        assert im.format == "GIF" and im.n_frames == len(steps) + 1
    with Image.open(png) as im:
        assert im.format == "PNG" and im.size[0] > 10 * raster.CELL_PX
    p = examples.load("stuck8")
    assert raster.png(p) == raster.png(p)  # deterministic
    res = run("solve", "stuck8", "--png", tmp_path / "no-such-dir" / "x.png")
    assert res.returncode == 1 and "cannot write" in res.stderr


def test_a_guessed_format_is_said_on_stderr_in_one_line(tmp_path):
    path = tmp_path / "puzzle"  # no suffix: the format is told from the content, and the guess is reported
    path.write_text(formats.format_non(examples.load("heart")))
    res = run("solve", path)
    assert res.returncode == 0 and "solved by local logic" in res.stdout
    assert res.stderr == f"localcount: guessed the format of {path}: non (give --format to choose)\n"
    assert run("solve", path, "--format", "non").stderr == ""
    named = tmp_path / "heart.non"
    named.write_text(path.read_text())
    assert run("solve", named).stderr == ""


def test_a_nin_file_without_suffix_is_read_as_txt_and_the_transposition_is_said(tmp_path):
    p = formats.Puzzle(((3,), (1,)), ((2,), (1,), (1,)))  # 2 rows, 3 columns: read transposed it has 3 rows
    path = tmp_path / "puzzle"
    path.write_text(formats.format_nin(p))
    res = run("convert", path, "--to", "nin")
    assert res.returncode == 0 and formats.parse_nin(res.stdout) != p
    assert (
        res.stderr
        == f"localcount: guessed the format of {path}: txt (nin would read it transposed; give --format to choose)\n"
    )
    res = run("convert", path, "--to", "nin", "--format", "nin")
    assert res.returncode == 0 and formats.parse_nin(res.stdout) == p and res.stderr == ""


def test_an_unknown_format_exits_2_with_one_line_naming_the_formats(tmp_path):
    path = tmp_path / "notes"
    path.write_text("shopping list\neggs\n")
    res = run("solve", path)
    assert res.returncode == 2 and not res.stdout
    assert (
        res.stderr
        == f"localcount: error: could not tell the format of {path}; these are supported: txt, non, nin, tatham, xml\n"
    )
    res = run("convert", "-", "--to", "txt", stdin="<puzzle>\n<clues type='rows'>\n</puzzle>\n")
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "<stdin>:3: not well-formed XML" in res.stderr


def test_convert_keeps_metadata_and_tatham_givens(tmp_path):
    src = tmp_path / "p.pattern"
    src.write_text("4x4:2/1/2/1/1.1/2/1/1,Ap\n")
    res = run("convert", src, "--to", "tatham")
    assert res.returncode == 0 and res.stdout == "4x4:2/1/2/1/1.1/2/1/1,Ap\n"
    non = tmp_path / "p.non"
    non.write_text('title "T &amp; U"\nby "me"\nlicense CC0-1.0\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n')
    for fmt in ("xml", "txt"):
        out = tmp_path / f"p.{fmt}"
        assert run("convert", non, "--to", fmt, "-o", out).returncode == 0
        back = formats.parse(out.read_text(), fmt)
        assert (back.title, back.author, back.licence) == ("T & U", "me", "CC0-1.0")


def test_pictures_of_wide_grids_and_gifs_that_end_at_the_solution(tmp_path):
    from localcount.puzzle import model
    from localcount.puzzle.drawing import raster
    from localcount.puzzle.drawing import text as drawn

    wide = model.from_grid((1 << 90) - 1, 1, 90)  # one row of 90 filled cells: column clues would need 180 characters
    text = drawn.draw(wide, 0, 0)
    assert max(len(line) for line in text.splitlines()) <= drawn.WIDE and "column clues not drawn" in text
    assert "?" * 90 in text
    Image = pytest.importorskip("PIL.Image")
    gif = tmp_path / "stuck8.gif"
    res = run("solve", "stuck8", "--gif", gif)
    assert res.returncode == 0, res.stderr
    steps = []
    solve.local(examples.load("stuck8"), steps)
    with Image.open(gif) as im:
        assert im.n_frames == len(steps) + 2  # the empty grid, each step, then the solution
    one, three = model.from_grid(1, 1, 1), model.from_grid((1 << 100) - 1, 100, 1)  # column clues 1 and 100
    width = lambda p: Image.open(io.BytesIO(raster.png(p))).size[0]
    assert width(three) - width(one) >= 6  # the cell widens for "100"


@pytest.mark.parametrize("method", ["search", "auto"])
def test_ctrl_c_stops_a_long_solve_in_one_line(method):
    import signal
    import time

    # the search alone leaves Knotty undecided for minutes; the default method takes about 35 s on Faase, and at 8 s
    # it is past the search (the SAT solver or the dive)
    name, wait = ("webpbn-survey-knotty.xml", 3) if method == "search" else ("webpbn-survey-faase.xml", 8)
    path = os.path.join(ROOT, "tests", "puzzles", name)
    proc = subprocess.Popen(
        [sys.executable, "-m", "localcount", "solve", path, "--method", method],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=ROOT),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background shell may have ignored it
    )  # fmt: skip
    time.sleep(wait)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.splitlines()[-1] == "localcount: interrupted" and "Traceback" not in err
