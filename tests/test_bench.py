"""The benchmark script runs and prints its table (speed itself is not tested)."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("mode", ["threads", "shards"])
def test_bench_runs(mode):
    res = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench.py"), "--sizes", "3x3,2x5", "--warm-cache", "--mode", mode],
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
