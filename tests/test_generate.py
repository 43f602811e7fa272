"""``generate``: random simple puzzles, their distribution against the exhaustive counts, and the command."""

import math
import subprocess
import sys
from collections import Counter

import naive
import pytest

from localcount.clues import grid_clues
from localcount.puzzle import formats
from localcount.puzzle.making import generate
from localcount.puzzle.making.generate import GenerateError, Made, parse_steps


def chi_square_critical(df: int, z: float = 3.09) -> float:
    """The chi-square value exceeded with probability about 0.001 (z = 3.09) for ``df`` degrees of freedom.

    Wilson and Hilferty's cube-root approximation (accurate to a few per cent from df = 3 on).
    """
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def chi_square(observed: Counter, expected_share: dict, samples: int) -> tuple:
    """(statistic, degrees of freedom), classes with an expected count under 5 pooled into one."""
    small = [k for k, p in expected_share.items() if p * samples < 5]
    pooled_obs = sum(observed[k] for k in small)
    pooled_exp = sum(expected_share[k] for k in small) * samples
    stat = sum((observed[k] - p * samples) ** 2 / (p * samples) for k, p in expected_share.items() if k not in small)
    classes = len(expected_share) - len(small)
    if small:
        stat += (pooled_obs - pooled_exp) ** 2 / pooled_exp
        classes += 1
    assert not set(observed) - set(expected_share), "a class that should not exist was drawn"
    return stat, classes - 1


def test_parse_steps():
    assert parse_steps("7") == (7, 7) and parse_steps("3-6") == (3, 6) and parse_steps(" 3 .. 6 ") == (3, 6)
    assert parse_steps("5-") == (5, None) and parse_steps("-4") == (0, 4)
    for bad in ("", "-", "x", "6-3", "1-2-3", "2.5"):
        with pytest.raises(ValueError, match="steps"):
            parse_steps(bad)
    assert generate.within(5, (5, None)) and not generate.within(4, (5, None)) and generate.within(0, None)


def test_the_steps_histogram_of_4x4_puzzles_matches_the_exhaustive_one():
    """Rejection at density 0.5 draws uniformly from the simple grids, so difficulties follow the exhaustive histogram."""
    from localcount.engines.stats.compute import stats

    exact = stats(4, 4)
    share = {k: v / exact.solvable for k, v in enumerate(exact.steps) if v}
    samples = 3000
    drawn = Counter(generate.generate(4, 4, seed=seed).steps for seed in range(samples))
    stat, df = chi_square(drawn, share, samples)
    assert stat < chi_square_critical(df), (stat, df, sorted(drawn.items()))
    assert drawn.keys() >= {k for k, p in share.items() if p * samples >= 5}  # every common class is hit


def test_every_simple_3x3_grid_is_equally_likely():
    simple = [g for g in range(1 << 9) if naive.steps_to_solve(*grid_clues(g, 3, 3)) is not None]
    assert len(simple) == 384
    samples = 384 * 12
    drawn = Counter(generate.generate(3, 3, seed=seed).grid for seed in range(samples))
    stat, df = chi_square(drawn, {g: 1 / len(simple) for g in simple}, samples)
    assert stat < chi_square_critical(df), (stat, df)


@pytest.mark.parametrize("steps", range(1, 10))
def test_each_4x4_difficulty_is_made_exactly(steps):
    made = generate.generate(4, 4, (steps, steps), seed=steps)
    assert made.steps == steps and made.method == "rejection"
    assert naive.steps_to_solve(*grid_clues(made.grid, 4, 4)) == steps


def test_same_seed_same_puzzle_and_seeds_differ():
    a, b = generate.generate(12, 9, (5, 8), seed=42), generate.generate(12, 9, (5, 8), seed=42)
    assert a == b and 5 <= a.steps <= 8
    assert len({generate.generate(12, 9, seed=s).grid for s in range(10)}) == 10


def test_density_changes_the_filled_share():
    sparse = [generate.generate(10, 10, density=0.25, seed=s).filled for s in range(30)]
    dense = [generate.generate(10, 10, density=0.75, seed=s).filled for s in range(30)]
    assert sum(sparse) / 3000 < 0.4 < 0.6 < sum(dense) / 3000
    assert generate.generate(5, 5, density=0.0, seed=1).grid == 0
    assert generate.generate(5, 5, density=1.0, seed=1).grid == (1 << 25) - 1


def test_rejection_gives_up_after_its_tries():
    """5×5 grids of 16 or 17 steps are 20 of 2^25: 50 draws do not find one."""
    with pytest.raises(GenerateError, match="among 50 random grids; try"):
        generate.generate(5, 5, (16, None), seed=1, tries=50, method="rejection")


def test_the_energy_is_zero_exactly_on_the_wanted_grids_and_orders_the_rest():
    """Every 3×3 grid against the naive solver: E = 0 iff simple in range, stuck grids above all simple ones,
    and a simple grid k steps short of the range has E in (k - 1, k]."""
    for grid in range(1 << 9):
        want = naive.steps_to_solve(*grid_clues(grid, 3, 3))
        for lo, hi in ((1, 1), (3, 4), (5, None)):
            e, found = generate.energy(grid, 3, 3, (lo, hi))
            assert found == want
            if want is None:
                assert e >= 9 + 2
            elif lo <= want and (hi is None or want <= hi):
                assert e == 0
            elif want < lo:
                assert lo - want - 1 < e <= lo - want
            else:
                assert want - hi <= e < want - hi + 1


@pytest.mark.parametrize("steps, seed", [((16, None), 1), ((17, 17), 2)])
def test_search_reaches_the_rarest_5x5_difficulties(steps, seed):
    """20 of the 2^25 grids take 16 or 17 steps (4 take 17): rejection would need millions of draws."""
    made = generate.generate(5, 5, steps, seed=seed)
    assert made.method == "search" and steps[0] <= made.steps
    assert made.steps == naive.steps_to_solve(*grid_clues(made.grid, 5, 5))
    assert made == generate.search(5, 5, steps, 0.5, seed, made.tries)  # deterministic, and it stops where it found


def test_search_gives_up_after_its_tries_and_auto_says_both():
    with pytest.raises(GenerateError, match="in a search of 30 grids"):
        generate.generate(5, 5, (17, None), seed=1, tries=30, method="search")
    with pytest.raises(GenerateError, match="among 30 random grids, nor in a search of 30 more"):
        generate.generate(5, 5, (17, None), seed=1, tries=30)


def test_auto_draws_by_rejection_when_rejection_finds_one():
    assert generate.generate(6, 6, (3, 5), seed=4) == generate.generate(6, 6, (3, 5), seed=4, method="rejection")


def test_impossible_requests_are_refused_before_any_work():
    for args, message in (
        ((0, 5), "at least 1x1"),
        ((4, 4, (18, None)), "at most 17"),
        ((4, 4, None, 1.5), "density"),
        ((4, 4, None, 0.5, 0), "tries"),
        ((4, 4, None, 0.5, 1, "guess"), "method"),
    ):
        with pytest.raises(GenerateError, match=message):
            generate.validate(*args)


def test_check_refuses_what_local_logic_does_not_solve():
    stuck = 0b0001_0010  # 2×4: .#.. / #... : both rows "1", columns "1" "1" "" "": two solutions
    assert generate.steps_of(stuck, 2, 4) is None
    with pytest.raises(AssertionError, match="not solved"):
        generate.check(Made(2, 4, stuck, 2, "rejection", 1))
    with pytest.raises(AssertionError, match="steps"):
        generate.check(Made(2, 2, 0b1111, 3, "rejection", 1))


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "localcount", *args], capture_output=True, text=True, input=stdin, timeout=120
    )


def test_generate_pipes_into_solve():
    made = run("generate", "10", "10", "--seed", "1")
    assert made.returncode == 0 and "seed 1" in made.stderr and "checked" in made.stderr
    assert made.stdout == run("generate", "10", "10", "--seed", "1").stdout  # deterministic
    solved = run("solve", "-", stdin=made.stdout)
    assert solved.returncode == 0 and "unique" in solved.stdout and "difficulty:" in solved.stdout


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_generated_puzzles_round_trip_through_every_format(fmt, tmp_path):
    out = tmp_path / f"p.{fmt}"
    proc = run("generate", "7", "9", "--seed", "5", "--steps", "3-", "--format", fmt, "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    made = generate.generate(7, 9, (3, None), seed=5)
    p = formats.parse(out.read_text(), fmt)
    assert (p.rows, p.cols) == grid_clues(made.grid, 7, 9)
    assert p.goal in (None, made.grid)


def test_generate_writes_a_png(tmp_path):
    pytest.importorskip("PIL")
    proc = run("generate", "5", "--seed", "2", "--png", str(tmp_path / "p.png"))
    assert proc.returncode == 0 and (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "args",
    [["0"], ["4", "x"], ["4", "4", "4"], ["4", "--steps", "9-3"], ["4", "--steps", "40"], ["4", "--density", "2"],
     ["4", "--tries", "0"], ["4", "--method", "guess"], ["4", "--timeout", "0"], ["4", "--timeout", "-1"],
     ["4", "--timeout", "nan"], ["4", "--timeout", "soon"]],
)  # fmt: skip
def test_bad_generate_arguments_exit_2_with_one_line(args):
    proc = run("generate", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and proc.stderr.startswith("localcount: error:")


def test_nothing_found_exits_1():
    proc = run("generate", "5", "--steps", "17", "--tries", "10", "--seed", "1")
    assert proc.returncode == 1 and proc.stdout == "" and "among 10 random grids" in proc.stderr
    proc = run("generate", "5", "--steps", "17", "--tries", "10", "--seed", "1", "--method", "rejection")
    assert proc.returncode == 1 and "random grids; try more --tries (seed 1)" in proc.stderr


def test_a_time_limit_stops_rejection_and_search_alike():
    import time

    for method in ("rejection", "search", "auto"):  # 6x6 grids of 25 steps or more: not met in 100,000 tries
        start = time.monotonic()
        with pytest.raises(generate.OutOfTime, match=r"no simple 6x6 grid of 25- steps found in 0\.5 s \(\d+ grids"):
            generate.generate(6, 6, (25, None), seed=1, tries=10**9, method=method, timeout=0.5)
        assert time.monotonic() - start < 0.5 + 1.5  # loose: a busy machine; a 6x6 grid takes well under 1 ms
    made = generate.generate(5, 5, (4, 4), seed=1, timeout=30)  # found well before its limit, and checked
    assert made.steps == 4


def test_nothing_found_in_time_exits_1_and_says_so():
    proc = run("generate", "6", "--steps", "25-", "--seed", "1", "--timeout", "0.5")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "found in 0.5 s" in proc.stderr and "try a longer --timeout" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_generate_says_when_a_puzzle_was_found_by_search():
    proc = run("generate", "5", "--steps", "16-", "--seed", "1")
    assert proc.returncode == 0 and "found by search, not uniform" in proc.stderr
    assert "difficulty 1" in proc.stderr
