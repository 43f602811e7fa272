"""The benchmark script runs and prints its table (speed itself is not tested)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("mode", ["threads", "shards", "dask"])
def test_bench_runs(mode):
    res = subprocess.run(
        [
            sys.executable,
            os.path.join(ROOT, "scripts", "bench.py"),
            "--sizes",
            "3x3,2x5",
            "--warm-cache",
            "--mode",
            mode,
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT),
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    assert "ns/grid" in res.stdout
    lines = [line.split() for line in res.stdout.splitlines() if not line.startswith("#")]
    assert lines[1][:2] == ["3x3", "384"] and lines[2][:2] == ["2x5", "810"]


@pytest.mark.parametrize("mode", ["threads", "shards"])
def test_bench_runs_the_stats_measure(mode):
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench.py"), "--sizes", "3x3,2x5", "--warm-cache", "--mode", mode,
         "--measure", "stats"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    lines = [line.split() for line in res.stdout.splitlines() if not line.startswith("#")]
    assert lines[1][:2] == ["3x3", "384"] and lines[2][:2] == ["2x5", "810"] and "measure=stats" in res.stdout


@pytest.mark.parametrize("mode,measure", [("threads", "thin"), ("shards", "thin-word")])
def test_bench_runs_the_thin_counter(mode, measure):
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench.py"), "--sizes", "2x5,5x2", "--warm-cache", "--mode", mode,
         "--measure", measure],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    lines = [line.split() for line in res.stdout.splitlines() if not line.startswith("#")]
    assert lines[1][:2] == ["2x5", "810"] and lines[2][:2] == ["5x2", "810"] and f"measure={measure}" in res.stdout


def test_campaign_projects_and_writes_its_plan(tmp_path):
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "campaign.py"), "--size", "4x4", "--sample", "3", "--jobs", "2",
         "--write", str(tmp_path / "results"), "--results", str(tmp_path / "none")],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "core-hours" in res.stdout and "| 256 |" in res.stdout
    assert "--scheduler tcp://HOST:8786" in res.stdout and "dask worker tcp://HOST:8786" in res.stdout
    plan = (tmp_path / "results" / "campaign-4x4.md").read_text()
    assert plan.startswith("# Campaign plan: 4x4") and "python scripts/campaign.py --size 4x4" in plan


def test_campaign_plans_a_thin_run(tmp_path):
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "campaign.py"), "--size", "2x14", "--sample", "3", "--jobs", "2",
         "--thin-rows", "word", "--write", str(tmp_path / "results")],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    plan = (tmp_path / "results" / "campaign-2x14-thin-word.md").read_text()
    assert "2x14-thin1-word-s10-sym" in plan and "--thin-rows word" in res.stdout


def test_thin_shard_work_counts_the_loops():
    from localcount.engines.thin.layout import ThinLayout

    lay = ThinLayout.make(6, 2)
    rows = [a for a in range(64) if int(f"{a:06b}"[::-1], 2) >= a]
    assert lay.shard_work().tolist() == [sum(64 - a for a in rows if a >> 4 == s) for s in range(4)]
    assert ThinLayout.make(6, 2, symmetry="none").shard_work().tolist() == [16 * 64] * 4


def test_campaign_interval_comes_from_the_sample_spread():
    import importlib.util

    spec = importlib.util.spec_from_file_location("campaign", os.path.join(ROOT, "scripts", "campaign.py"))
    campaign = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(campaign)
    total, low, high = campaign.projection(1000, [1.0, 1.0, 1.0])
    assert total == low == high == 1000.0  # no spread, no doubt
    total, low, high = campaign.projection(100, [1.0, 3.0])
    assert total == 200.0 and low == 0.0 and round(high, 1) == round(100 * (2 + 12.71 * 2**0.5 / 2**0.5), 1)
    assert campaign.t95(1000) == 1.98 and campaign.t95(11) == 2.23


def test_bench_times_the_cold_start_of_whole_processes():
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench.py"), "--cold", "--sizes", "2x3,0x0", "--repeat", "1"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.splitlines() if not line.startswith("#")]
    assert rows[0] == ["size", "count", "cold_s", "warm_s"]
    assert rows[1][:2] == ["2x3", "52"] and rows[2][:2] == ["0x0", "1"] and float(rows[1][2]) > 0


def _kernel_bench(*args):
    return subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench_stats_kernel.py"), *args],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT), timeout=600,
    )  # fmt: skip


def test_kernel_bench_compares_the_counts_variants_and_their_sums():
    res = _kernel_bench("4x5", "--engine", "count", "--every", "7", "--rounds", "1",
                        "--set", "LANES=2", "--set", "COUNT_CHECK=round")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "# 4x5 count: " in res.stdout and "of 4096 shards (one in 7)" in res.stdout
    assert "LANES=2: median ratio" in res.stdout and "COUNT_CHECK=round: median ratio" in res.stdout


def test_kernel_bench_compares_the_stats_variants():
    res = _kernel_bench("3x4", "--every", "3", "--rounds", "1", "--set", "STATS_CHECK=half")
    assert res.returncode == 0, res.stderr
    assert "# 3x4 stats: " in res.stdout and "STATS_CHECK=half: median ratio" in res.stdout


@pytest.mark.parametrize(
    "args,said",
    [
        (["4x5", "--engine", "count", "--set", "STATS_LANES=1"], "not a tunable of the count kernel"),
        (["4x5", "--engine", "count", "--set", "LANES=3"], "want a power of two"),
        (["3x4", "--set", "LANES=2"], "not a tunable of the stats kernel"),
        (["4x5", "--set", "NOSUCH=1"], "--set wants NAME=VALUE"),
    ],
)
def test_kernel_bench_refuses_a_setting_its_kernel_does_not_have(args, said):
    res = _kernel_bench(*args)
    assert res.returncode != 0 and said in res.stderr


def _idle_bench(*args, delay="0"):
    # ``delay``: the campaign outlasts the round; the idle runs never step aside for the tests beside them
    env = dict(os.environ, PYTHONPATH=ROOT, LOCALCOUNT_TEST_SHARD_DELAY=delay, LOCALCOUNT_IDLE_BUSY_CORES="off")
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_idle.py"), *args],
                          capture_output=True, text=True, env=env, timeout=300)  # fmt: skip


@pytest.mark.parametrize("session", ["own", "shared"])
def test_idle_bench_times_the_foreground_alone_and_beside_an_idle_campaign(session):
    res = _idle_bench("--foreground", "2 3", "--campaign", "5 5", "--session", session, "--rounds", "1", delay="0.2")
    assert res.returncode == 0, res.stderr
    assert "round 1: alone " in res.stdout and "round 1: beside " in res.stdout
    assert "beside the idle campaign" in res.stdout and ": ratio " in res.stdout


def test_idle_bench_times_a_count_with_and_without_idle():
    res = _idle_bench("--rate", "2 3", "--rounds", "1")
    assert res.returncode == 0, res.stderr
    assert "round 1: normal " in res.stdout and "round 1: --idle " in res.stdout and "of the normal one" in res.stdout
