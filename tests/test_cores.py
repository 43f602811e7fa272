"""The default number of worker processes follows the CPU affinity, not the machine's core count."""

import os
import subprocess
import sys

import pytest

from localcount.util import cores, provenance

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
needs_affinity = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")


def test_usable_cores_are_this_process_affinity():
    allowed = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert cores.usable() == allowed


@needs_affinity
def test_a_count_on_one_allowed_core_starts_one_process(tmp_path):
    one = min(os.sched_getaffinity(0))
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "3", "3", "--fresh", "--checkpoint-dir", str(tmp_path)],
        capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT),
        preexec_fn=lambda: os.sched_setaffinity(0, {one}), timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "384" and "on 1 process;" in res.stderr


@needs_affinity
def test_the_recorded_machine_says_how_many_cores_were_usable():
    one = min(os.sched_getaffinity(0))
    res = subprocess.run(
        [sys.executable, "-c", "from localcount.util.provenance import cpu_model; print(cpu_model())"],
        capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT),
        preexec_fn=lambda: os.sched_setaffinity(0, {one}), timeout=60,
    )  # fmt: skip
    total = os.cpu_count()
    assert res.stdout.strip().endswith(f"{total} cores" + (" (1 usable)" if total > 1 else ""))
    assert provenance.cpu_model().endswith(f"{total} cores") == (cores.usable() == total)
