"""``design``: simple puzzles from pictures, checked against the naive reference, and the command."""

import random
import subprocess
import sys

import naive
import pytest

from localcount.clues import grid_clues
from localcount.puzzle import formats
from localcount.puzzle.making import design, generate
from localcount.puzzle.making.design import DesignError

SIZES = [(10, 10), (15, 15), (12, 20)]  # (rows, columns)


def noise(n: int, m: int, seed: int) -> list:
    """A picture of random grey levels (no Pillow needed)."""
    rng = random.Random(seed)
    return [[rng.random() for _ in range(m)] for _ in range(n)]


def assert_designed(d, grey, threshold=0.5):
    """What every design must be: simple, in the steps stated, the target the thresholded picture, changes counted."""
    n, m = len(grey), len(grey[0])
    assert (d.n, d.m) == (n, m)
    assert d.target == design.threshold_grid(grey, threshold)
    assert d.target == sum(1 << (r * m + c) for r in range(n) for c in range(m) if grey[r][c] < threshold)
    assert d.changes == bin(d.grid ^ d.target).count("1")
    assert generate.steps_of(d.grid, n, m) == d.steps
    if max(n, m) <= 15:  # the naive reference, independent of logic.settle
        assert naive.steps_to_solve(*grid_clues(d.grid, n, m)) == d.steps


def test_shipped_pictures_are_what_the_script_draws():
    pytest.importorskip("PIL")
    proc = subprocess.run([sys.executable, "scripts/make_pictures.py", "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert design.shipped() == ["heart", "moon", "smiley"]


@pytest.mark.parametrize("name", ["heart", "moon", "smiley"])
@pytest.mark.parametrize("n,m", SIZES)
def test_shipped_pictures_become_simple_puzzles_within_the_bound(name, n, m):
    """The bound: the repair only takes flips after which local logic knows strictly more cells, so it changes
    at most as many cells as local logic left unknown on the thresholded picture (``Design.bound``)."""
    pytest.importorskip("PIL")
    grey = design.load_grey(design.picture_path(name), n, m)
    d = design.design(grey, seed=1)
    assert_designed(d, grey)
    assert d.detours == 0 and d.changes <= d.bound


@pytest.mark.parametrize("seed", range(6))
def test_noise_becomes_simple_within_the_bound(seed):
    n, m = 8 + seed, 13 - seed
    grey = noise(n, m, seed)
    d = design.design(grey, seed=seed)
    assert_designed(d, grey)
    assert d.detours == 0 and d.changes <= d.bound


def test_the_repair_never_changes_what_is_already_simple():
    for grey in ([[1.0] * 7 for _ in range(5)], [[0.0] * 7 for _ in range(5)]):
        d = design.design(grey)
        assert d.changes == 0 and d.bound == 0
        assert_designed(d, grey)
    assert design.design([[0.2] * 4] * 3, threshold=0.1).grid == 0
    assert design.design([[0.2] * 4] * 3, threshold=0.3).grid == (1 << 12) - 1


def test_changes_prefer_cells_closest_to_the_threshold():
    """A picture whose only doubtful cells are the ones to change: a 2x2 checker needs one of its cells flipped,
    and the one whose grey level is nearest the threshold is chosen."""
    grey = [[0.0, 1.0], [0.55, 0.0]]  # filled / empty / empty (barely) / filled: two solutions
    d = design.design(grey)
    assert d.changes == 1 and d.changed == 1 << 2  # cell (1, 0), grey 0.55
    assert_designed(d, grey)


def test_design_is_deterministic_for_a_seed():
    grey = noise(12, 12, 7)
    assert design.design(grey, seed=3) == design.design(grey, seed=3)
    assert design.design(grey, steps=(9, 12), seed=3) == design.design(grey, steps=(9, 12), seed=3)


@pytest.mark.parametrize("steps", [(3, 5), (8, 10), (12, None), (0, 6)])
def test_a_difficulty_range_is_reached(steps):
    grey = noise(12, 12, 11)
    d = design.design(grey, steps=steps, seed=2)
    assert generate.within(d.steps, steps)
    assert_designed(d, grey)


def test_unreachable_or_too_costly_designs_raise():
    grey = noise(12, 12, 11)
    with pytest.raises(DesignError, match="no flip moves it"):
        design.design(grey, steps=(100, None))
    stuck = noise(12, 12, 24)
    assert design.design(stuck).changes == 3
    assert design.design(stuck, max_changes=3).changes == 3
    with pytest.raises(DesignError, match="max-changes 2"):
        design.design(stuck, max_changes=2)


@pytest.mark.parametrize(
    "args,message",
    [(([],), "at least 1x1"), (([[0.5, 0.5], [0.5]],), "grid"), (([[0.5]], 1.5), "threshold"),
     (([[0.5]], 0.5, (5, None)), "at most"), (([[0.5]], 0.5, None, 0), "pool")],
)  # fmt: skip
def test_bad_design_arguments(args, message):
    with pytest.raises(DesignError, match=message):
        design.validate(*args)


def test_parse_size_is_columns_by_rows():
    assert design.parse_size("20x15") == (15, 20) and design.parse_size("7") == (7, 7)
    for bad in ("", "x", "0x5", "5x5x5", "5 by 5", "-3"):
        with pytest.raises(ValueError, match="size"):
            design.parse_size(bad)


def test_load_grey_scales_by_averaging_and_puts_transparency_on_white(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    img = Image.new("RGBA", (40, 20), (0, 0, 0, 0))  # transparent
    img.paste((0, 0, 0, 255), (0, 0, 20, 20))  # left half opaque black
    img.paste((255, 0, 0, 255), (20, 0, 30, 10))  # a red patch
    img.save(tmp_path / "p.png")
    grey = design.load_grey(tmp_path / "p.png", 2, 4)
    assert [row[:2] for row in grey] == [[0.0, 0.0], [0.0, 0.0]]
    assert grey[1][2:] == [1.0, 1.0] and grey[0][3] == 1.0
    assert 0.2 < grey[0][2] < 0.4  # red is dark-ish grey (Pillow's luma: 0.299)
    Image.new("L", (30, 30), 40).save(tmp_path / "p.jpg")
    assert all(abs(v - 40 / 255) < 0.02 for row in design.load_grey(tmp_path / "p.jpg", 3, 3) for v in row)


def test_load_grey_errors_are_one_line_naming_the_file(tmp_path):
    pytest.importorskip("PIL")
    (tmp_path / "text.png").write_text("not a picture\n")
    for path, message in ((tmp_path / "missing.png", "no such file"), (tmp_path / "text.png", "not a picture")):
        with pytest.raises(DesignError, match=message) as err:
            design.load_grey(path, 3, 3)
        assert str(path) in str(err.value) and "\n" not in str(err.value)


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "localcount", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def test_design_pipes_into_solve_and_reports_what_it_changed():
    pytest.importorskip("PIL")
    made = run("design", "smiley", "--size", "20x15", "--seed", "1")
    assert made.returncode == 0, made.stderr
    assert "cells changed" in made.stderr and "difficulty" in made.stderr and "checked" in made.stderr
    assert made.stdout == run("design", "smiley", "--size", "20x15", "--seed", "1").stdout  # deterministic
    grey = design.load_grey(design.picture_path("smiley"), 15, 20)
    d = design.design(grey, seed=1)
    assert f"{d.changes} of 300 cells changed" in made.stderr and f"difficulty {d.steps} steps" in made.stderr
    assert formats.parse(made.stdout, "txt").rows == grid_clues(d.grid, 15, 20)[0]
    solved = run("solve", "-", stdin=made.stdout)
    assert solved.returncode == 0 and "unique" in solved.stdout and f"difficulty: {d.steps} steps" in solved.stdout


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_designed_puzzles_round_trip_through_every_format(fmt, tmp_path):
    pytest.importorskip("PIL")
    out = tmp_path / f"p.{fmt}"
    proc = run("design", "moon", "--size", "9x11", "--seed", "4", "--format", fmt, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    d = design.design(design.load_grey(design.picture_path("moon"), 11, 9), seed=4)
    p = formats.parse(out.read_text(), fmt)
    assert (p.rows, p.cols) == grid_clues(d.grid, 11, 9)
    assert p.goal in (None, d.grid)


def test_design_writes_the_side_by_side_picture(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    proc = run("design", "heart", "--size", "10x8", "--seed", "1", "--png", str(tmp_path / "s.png"))
    assert proc.returncode == 0, proc.stderr
    with Image.open(tmp_path / "s.png") as img:
        width, height = img.size
    assert width > 3 * 10 * 4 and height > 8 * 4  # three panels of 10x8 cells


@pytest.mark.parametrize(
    "args",
    [["heart", "--size", "0x5"], ["heart", "--size", "5y5"], ["missing.png", "--size", "5"],
     ["heart", "--size", "5", "--threshold", "2"], ["heart", "--size", "5", "--steps", "9-3"],
     ["heart", "--size", "5", "--steps", "40"], ["heart", "--size", "5", "--pool", "0"],
     ["heart", "--size", "5", "--max-changes", "-1"], ["README.md", "--size", "5"],
     ["heart", "--size", "5", "--timeout", "0"], ["heart", "--size", "5", "--timeout", "never"]],
)  # fmt: skip
def test_bad_design_arguments_exit_2_with_one_line(args):
    pytest.importorskip("PIL")
    proc = run("design", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith("localcount: error:")


def test_design_needs_a_size():
    proc = run("design", "heart")
    assert proc.returncode == 2 and "--size" in proc.stderr.strip().splitlines()[-1]


def test_a_design_that_cannot_be_made_exits_1():
    pytest.importorskip("PIL")
    proc = run("design", "smiley", "--size", "20", "--max-changes", "0", "--seed", "1")
    assert proc.returncode == 1 and proc.stdout == "" and "max-changes 0" in proc.stderr


def test_a_design_past_its_time_limit_exits_1_and_says_so():
    pytest.importorskip("PIL")
    proc = run("design", "smiley", "--size", "40", "--seed", "1", "--timeout", "0.001")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "gave up after 0.001 s" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
