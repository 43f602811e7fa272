"""``stats``: uniqueness, rounds and stuck grids against the brute-force reference, and its runs."""

import json
import os
import signal
import subprocess
import sys
import time

import naive
import numpy as np
import pytest

from localcount.engines.grid.count import count
from localcount.engines.registry import parse_key
from localcount.engines.stats import compute as S
from localcount.engines.stats import measures as M
from localcount.engines.stats import prepare as P
from localcount.engines.stats.layout import StatsLayout
from localcount.orchestration.checkpoint import Checkpoint, header_line, read_log, record_line
from localcount.orchestration.runner import DELAY_ENV

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMALL = [(n, m) for n in range(1, 13) for m in range(1, 13) if n * m <= 12] + [(4, 4)]
MEDIUM = [(n, m) for n in range(1, 14) for m in range(1, 14) if 12 < n * m <= 20 and (n, m) != (4, 4)]


def check_against_naive(n, m):
    expect = naive.stats(n, m)
    for path in P.PATHS:
        for symmetry in S.SYMMETRIES:
            assert naive.shaped(S.stats(n, m, path=path, symmetry=symmetry)) == expect, (n, m, path, symmetry)


@pytest.mark.parametrize("n,m", SMALL)
def test_every_path_and_group_equals_the_reference(n, m):
    check_against_naive(n, m)


@pytest.mark.slow
@pytest.mark.parametrize("n,m", MEDIUM)
def test_every_path_and_group_equals_the_reference_up_to_20_cells(n, m):
    check_against_naive(n, m)


def test_known_values():
    assert S.stats(2, 2).unique == S.stats(2, 2).solvable == 14
    assert S.stats(3, 3).unique == S.stats(3, 3).solvable == 384
    four = S.stats(4, 4)
    assert four.solvable == 51234 and four.unique > four.solvable


def test_known_value_of_5x5():  # long: the generated stats kernel of 5x5, then 2^25 grids
    assert S.stats(5, 5).solvable == 24976511


@pytest.mark.parametrize("n,m", [(0, 0), (0, 3), (3, 0)])
def test_the_empty_grid(n, m):
    s = S.stats(n, m)
    assert (s.grids, s.solvable, s.unique, s.stuck_start, s.rounds, s.max_rounds) == (1, 1, 1, 0, (1,), 0)


@pytest.mark.parametrize("n,m", [(4, 5), (5, 4), (3, 7), (2, 10)])
def test_paths_groups_and_shard_depths_agree_and_solvable_is_the_count(n, m):
    first = S.stats(n, m)
    assert first.solvable == count(n, m)
    assert S.stats(n, m, path="transposed") == first
    assert S.stats(n, m, symmetry="none") == first
    for depth in (0, 1, n):
        assert S.stats(n, m, depth=depth) == first


def test_shard_vectors_add_up_to_the_whole():
    n, m = 4, 4
    whole = S.stats(n, m)
    shards = np.arange(P.shard_count(n, m, "rows", 2))
    parallel = S.stats_shards(n, m, shards, depth=2)
    serial = S.stats_shards(n, m, shards, depth=2, parallel=False)
    assert (parallel == serial).all()
    assert M.from_vector(n, m, parallel.sum(axis=0)) == whole


def test_broken_invariants_are_errors_not_numbers():
    good = list(S.stats_shards(2, 2, np.arange(P.shard_count(2, 2, "rows", 2)), depth=2).sum(axis=0))
    assert M.from_vector(2, 2, good).unique == 14
    for index, delta in ((0, -1), (4, 1), (len(M.VECTOR) + 1, 1), (2, -1)):
        bad = list(good)
        bad[index] += delta
        with pytest.raises(M.InconsistentStats, match="a bug"):
            M.from_vector(2, 2, bad)


@pytest.mark.parametrize(
    "args,message",
    [((14, 2), "at most 13 cells"), ((9, 9), "at most 64"), ((-1, 2), "non-negative")],
)
def test_unsupported_sizes_are_refused(args, message):
    with pytest.raises(ValueError, match=message):
        S.stats(*args)


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="path"):
        S.stats(2, 2, path="columns")
    with pytest.raises(ValueError, match="symmetry"):
        S.stats(2, 2, symmetry="square")
    with pytest.raises(ValueError, match="depth"):
        S.stats(2, 2, depth=3)


def test_table_and_json_say_the_same():
    s = S.stats(3, 4)
    data = json.loads(M.format_json(s))
    assert data["unique"] == s.unique and data["not_solvable"] == s.grids - s.solvable
    assert (
        data["rounds"] == {"1": 1584, "2": 1504, "3": 28} == {str(k): v for k, v in naive.stats(3, 4)["rounds"].items()}
    )
    assert data["max_rounds"] == 3 and data["mean_rounds"] == pytest.approx((1584 + 2 * 1504 + 3 * 28) / 3116)
    text = M.format_table(s)
    for v in (s.grids, s.solvable, s.unique, s.stuck_start, 1584, 1504, 28):
        assert str(v) in text


def test_stats_layout_keys_and_records_round_trip(tmp_path):
    lay = StatsLayout(5, 5, 2, "transposed", "none")
    assert parse_key(lay.key) == lay and lay.shards == 13**2
    vec = tuple(range(lay.width))
    with Checkpoint(tmp_path, lay) as ck:
        ck.open()
        ck.record(7, vec, 0.5)
    assert read_log(tmp_path / f"{lay.key}.log").records[7].count == vec
    short = record_line(lay.key, 8, vec[:-1], 0.1, 1.0)  # a vector of the wrong length is damage
    (tmp_path / "x.log").write_text(header_line(lay.key) + short)
    assert read_log(tmp_path / "x.log").damaged == 1


def run_cli(*args, env=None, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "localcount", "stats", *map(str, args)],
        capture_output=True,
        text=True,
        env=env or dict(os.environ, PYTHONPATH=ROOT),
        timeout=timeout,
    )


def test_cli_table_json_and_bad_input():
    res = run_cli(3, 4)
    assert res.returncode == 0 and "3116" in res.stdout and "3152" in res.stdout
    res = run_cli(4, 3, "--json", "--path", "transposed")
    assert res.returncode == 0
    assert json.loads(res.stdout) == json.loads(M.format_json(S.stats(4, 3)))
    for bad, message in (("x", "whole number"), ("14 3", "at most 13 cells"), ("2 2 2", "one or two numbers")):
        res = run_cli(*bad.split())
        assert res.returncode == 2 and message in res.stderr and not res.stdout


def test_cli_sharded_run_is_killed_then_resumed_and_merged(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    lay = StatsLayout(4, 5, P.default_depth(4, 5))
    log = tmp_path / f"{lay.key}.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "localcount",
            "stats",
            "4",
            "5",
            "--jobs",
            "2",
            "--json",
            "--checkpoint-dir",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**env, DELAY_ENV: "0.02"},
        start_new_session=True,
    )
    deadline = time.time() + 120
    while not log.exists() or len(log.read_text().splitlines()) < 10:
        assert proc.poll() is None and time.time() < deadline
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = len(read_log(log).records)
    assert 0 < kept < lay.shards
    res = run_cli(4, 5, "--json", "--checkpoint-dir", tmp_path, env=env)
    assert res.returncode == 0, res.stderr
    assert f"{kept} of {lay.shards} shards from the checkpoint" in res.stderr
    assert json.loads(res.stdout) == json.loads(M.format_json(S.stats(4, 5)))
    merged = subprocess.run(
        [sys.executable, "-m", "localcount", "merge", str(tmp_path)], capture_output=True, text=True, env=env
    )
    assert merged.returncode == 0 and json.loads(merged.stdout) == json.loads(res.stdout)


def test_steps_match_rounds_and_version_1_vectors_are_still_read():
    s = S.stats(3, 4)
    assert sum(s.steps) == s.solvable and s.max_steps in (2 * s.max_rounds - 1, 2 * s.max_rounds)
    assert all(s.rounds[r] == (s.steps[2 * r - 1] if r else 0) + s.steps[2 * r] for r in range(len(s.rounds)))
    data = json.loads(M.format_json(s))
    assert (
        data["steps"] == {str(k): v for k, v in naive.stats(3, 4)["steps"].items()} and data["max_steps"] == s.max_steps
    )
    assert "steps (a pass over every row or every column, rows first)" in M.format_table(s)
    vec = S.stats_vector(3, 4)
    assert len(vec) == M.width(3, 4) == StatsLayout.make(3, 4).width
    old = vec[: M.width(3, 4, 1)]  # a checkpoint of kernel version 1: no step histogram
    assert StatsLayout.from_key("3x4-stats1-d2-rows-sym").width == len(old)
    v1 = M.from_vector(3, 4, old)
    assert v1.steps == () and v1.max_steps is None and (v1.rounds, v1.unique) == (s.rounds, s.unique)
    assert json.loads(M.format_json(v1))["steps"] is None and "steps (" not in M.format_table(v1)
    broken = list(vec)
    broken[M.steps_at(3, 4) + 1] += 1
    broken[M.steps_at(3, 4) + 2] -= 1  # same total, but 1 step and 2 steps are both 1 round: still consistent
    M.from_vector(3, 4, broken)
    broken[M.steps_at(3, 4) + 3] += 1
    broken[M.steps_at(3, 4) + 2] -= 1  # moves a grid from round 1 to round 2 without the round histogram
    with pytest.raises(M.InconsistentStats):
        M.from_vector(3, 4, broken)
