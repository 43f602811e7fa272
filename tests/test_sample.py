"""``sample``: the kernel against the interpreted local logic (``logic.difficulty``) grid by grid, the layout's
key and values, the same numbers on one process and on two (and from a checkpoint), the exact fractions of
small squares inside the sample's interval, and the command line's answers and errors."""

import json
import subprocess
import sys

import numpy as np
import pytest

from localcount.api.sample import run_sample, sample
from localcount.clues import grid_clues
from localcount.engines import registry
from localcount.engines.sample.kernel import sample_grids
from localcount.engines.sample.layout import SHARD_GRIDS, SampleLayout, format_sample
from localcount.puzzle.solving import logic
from localcount.util.errors import UsageError


@pytest.mark.parametrize(
    "n,m,density",
    [(1, 1, 0.5), (1, 9, 0.5), (9, 1, 0.3), (3, 4, 0.5), (5, 5, 0.5), (6, 6, 0.7), (8, 13, 0.5), (12, 12, 0.6),
     (25, 20, 0.5), (62, 3, 0.5), (4, 62, 0.5), (30, 30, 0.8)],
)  # fmt: skip
def test_the_kernel_is_local_logic_grid_by_grid(n, m, density):
    lay = SampleLayout.make(n, m, density, 150, 3)
    rows = lay.grids(0)
    steps, stuck = np.zeros(len(rows), np.int64), np.zeros(len(rows), np.bool_)
    sample_grids(rows, n, m, steps, stuck)
    for g in range(len(rows)):
        grid = sum(int(rows[g, r]) << (r * m) for r in range(n))
        assert grid >> (n * m) == 0 and all(int(rows[g, r]) >> m == 0 for r in range(n))
        row_clues, col_clues = grid_clues(grid, n, m)
        hard = logic.difficulty(row_clues, col_clues)
        known = logic.propagate(row_clues, col_clues).known
        assert (steps[g], stuck[g]) == (0 if hard is None else hard.steps, known == 0), (n, m, grid)


def test_a_shard_draws_its_own_grids_at_the_density():
    lay = SampleLayout.make(10, 10, 0.3, 2500, 7)
    assert lay.shards == 3 and [lay.grids_in(s) for s in range(3)] == [SHARD_GRIDS, SHARD_GRIDS, 500]
    a, b = lay.grids(1), lay.grids(1)
    assert (a == b).all() and not (lay.grids(0) == a).all()  # reproducible, and shards differ
    filled = sum(bin(int(x)).count("1") for x in a.ravel()) / (1000 * 100)
    assert 0.28 < filled < 0.32
    assert not (SampleLayout.make(10, 10, 0.3, 2500, 8).grids(1) == a).all()  # another seed, other grids


def test_the_key_and_the_values():
    lay = SampleLayout.make(30, 20, 0.25, 12345, 9)
    assert lay.key == "30x20-sample1-d250-r9-c12345-u0" and registry.parse_key(lay.key) == lay
    searched = SampleLayout.make(30, 20, 0.25, 12345, 9, 500)
    assert searched.key.endswith("-u500") and registry.parse_key(searched.key) == searched != lay
    assert lay.shards == 13 and lay.density == 0.25
    a, b = (1000, 7, 2, 0, 0, 3, 4, 9, 3), (345, 2, 0, 0, 0, 3, 1, 4, 1)
    total = lay.add([a, b])
    assert total == (1345, 9, 2, 0, 0, 3, 5, 4, 1, 9, 3) and lay.parse_value(lay.format_value(total)) == total
    for bad in ("1,2,3,4", "1,2,3,4,5,6", "1,-2,3,0,0"):
        with pytest.raises(ValueError):
            lay.parse_value(bad)
    with pytest.raises(ValueError):  # not the whole sample
        lay.finish(total)


@pytest.mark.parametrize(
    "args,word",
    [((63, 5, 0.5, 10, 0), "62"), ((5, 5, 1.5, 10, 0), "density"), ((5, 5, 0.1234, 10, 0), "1/1000"),
     ((5, 5, 0.5, 0, 0), "count"), ((5, 5, 0.5, 10, -1), "seed"), ((0, 5, 0.5, 10, 0), "n"),
     ((5, 5, 0.5, 10, 0, -1), "nodes")],
)  # fmt: skip
def test_bad_samples_are_refused_naming_the_argument(args, word):
    with pytest.raises(ValueError, match=word):
        SampleLayout.make(*args)


def test_one_process_two_processes_and_the_checkpoint_agree(tmp_path):
    here = run_sample(12, 9, density=0.5, count=3500, seed=4)
    assert here.shards == 0  # short: in this process
    sharded = run_sample(12, 9, density=0.5, count=3500, seed=4, jobs=2, checkpoint_dir=tmp_path)
    assert sharded.shards == 4 and sharded.from_checkpoint == 0 and sharded.sample == here.sample
    again = run_sample(12, 9, density=0.5, count=3500, seed=4, jobs=2, checkpoint_dir=tmp_path)
    assert again.from_checkpoint == 4 and again.sample == here.sample
    s = here.sample
    assert s.grids == 3500 and sum(s.steps.values()) == s.simple and s.simple + s.stuck <= s.grids


@pytest.mark.parametrize("n,count", [(2, 14), (3, 384), (4, 51234), (5, 24976511)])
def test_the_exact_fraction_of_a_small_square_is_inside_the_interval(n, count):
    s = sample(n, density=0.5, count=20000, seed=11)
    low, high = s.interval
    assert low <= count / 2 ** (n * n) <= high and low < s.fraction < high


def test_the_interval_at_the_edges():
    every = sample(1, density=0.5, count=500, seed=0)  # a 1x1 grid is always simple
    assert every.fraction == 1 and every.interval[1] == 1.0 and every.interval[0] < 1
    assert every.steps == {1: 500} and "500 of 500 simple" in format_sample(every)


def test_uniqueness_is_that_of_the_clues():
    from collections import Counter

    n = 4
    twins = Counter(grid_clues(g, n, n) for g in range(1 << (n * n)))  # how many grids share each grid's clues
    lay = SampleLayout.make(n, n, 0.5, 1500, 5, nodes=100)
    want = sum(twins[grid_clues(sum(int(x) << (r * n) for r, x in enumerate(row)), n, n)] == 1
               for s in range(lay.shards) for row in lay.grids(s))  # fmt: skip
    s = sample(n, count=1500, seed=5, nodes=100)
    assert (s.unique, s.undecided, s.nodes) == (want, 0, 100) and s.simple < s.unique < s.grids
    assert "found unique by the search" in format_sample(s)
    assert sample(n, count=1500, seed=5).unique is None  # not asked: not searched
    assert not logic.compiled_for(4, 4)  # the search's compiled probing switched back off


def test_a_search_over_its_nodes_is_undecided():
    s = sample(25, count=40, seed=1, nodes=1)
    assert s.undecided > 0 and s.unique + s.undecided <= s.grids


def test_api_errors_are_usage_errors():
    with pytest.raises(UsageError, match="62"):
        sample(70, count=10)
    with pytest.raises(UsageError, match="shard"):
        sample(5, count=10, shard="0/2")


def run(*args):
    return subprocess.run([sys.executable, "-m", "localcount", "sample", *args], capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_the_command_line():
    out = run("7", "9", "--count", "2000", "--seed", "2", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    want = sample(7, 9, density=0.5, count=2000, seed=2)
    assert (got["n"], got["m"], got["grids"], got["simple"], got["stuck"]) == (7, 9, 2000, want.simple, want.stuck)
    assert {int(k): v for k, v in got["steps"].items()} == want.steps and got["interval"] == list(want.interval)
    text = run("7", "9", "--count", "2000", "--seed", "2", "--quiet")
    assert text.returncode == 0 and text.stdout == format_sample(want) + "\n" and text.stderr == ""
    searched = json.loads(run("4", "--count", "300", "--unique", "--max-nodes", "50", "--json", "-q").stdout)
    assert searched["unique"] == sample(4, count=300, nodes=50).unique and searched["undecided"] == 0
    for bad in (["63"], ["5", "--density", "x"], ["5", "--density", "0.1234"], ["5", "x"], ["5", "--count", "0"],
                ["5", "6", "7"], ["5", "--unique", "--max-nodes", "0"]):  # fmt: skip
        out = run(*bad)
        assert out.returncode == 2 and out.stdout == "" and len(out.stderr.strip().splitlines()) == 1, (bad, out.stderr)
