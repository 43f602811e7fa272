"""The GPU engine (``engines.gpu``): its CUDA kernel, run here in numba's CUDA simulator (tests/conftest.py; on a
machine with a GPU, LOCALCOUNT_TEST_GPU=device runs it there), against tests/naive.py and the recorded counts."""

import os
import pathlib
import subprocess
import sys

import naive
import pytest
from incli import cli

from localcount.engines import registry
from localcount.engines.gpu import count as gpu
from localcount.engines.gpu.layout import GpuLayout

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: Every size of 1 to 12 cells (lines of at most 12).
UP_TO_12 = [(n, m) for n in range(1, 13) for m in range(1, 13) if n * m <= 12]


def recorded(n, m, variant="nonogram"):
    from localcount.api.known import known

    return known(n, m, variant=variant).count


@pytest.mark.parametrize("variant", ["nonogram", "yesnogram"])
@pytest.mark.parametrize("n,m", UP_TO_12)
def test_every_size_up_to_12_cells_equals_the_reference(n, m, variant):
    """The default group (the square's for squares, else the flips; the flips for yesnograms) and every grid."""
    expected = naive.count(n, m, variant)
    lay = registry.count_layout(n, m, "gpu", variant=variant)
    assert lay.method == "gpu" and lay.in_process(1)[0] == expected
    if n * m <= 8 or n == m:
        every = GpuLayout.make(n, m, bits=min(2, n * m), symmetry="none", variant=variant)
        assert sum(every.compute(s) for s in range(every.shards)) == expected


@pytest.mark.parametrize("n,m,symmetry,variant", [
    (4, 4, "square", "nonogram"), (4, 4, "flips", "yesnogram"), (3, 5, "flips", "nonogram"), (5, 3, "flips", "yesnogram"),
    (2, 7, "flips", "nonogram"), (1, 13, "flips", "nonogram"),
])  # fmt: skip
def test_larger_sizes_equal_the_recorded_counts(n, m, symmetry, variant):
    assert GpuLayout.make(n, m, symmetry=symmetry, variant=variant).in_process(1)[0] == recorded(n, m, variant)


@pytest.mark.slow
@pytest.mark.parametrize("n,m,symmetry,variant", [
    (4, 4, "none", "nonogram"), (4, 5, "flips", "nonogram"), (5, 4, "flips", "yesnogram"), (2, 10, "flips", "yesnogram"),
])  # fmt: skip
def test_larger_sizes_the_simulator_can_afford(n, m, symmetry, variant):
    assert GpuLayout.make(n, m, symmetry=symmetry, variant=variant).in_process(1)[0] == recorded(n, m, variant)


def test_shards_add_up_to_the_count_whatever_their_number():
    counts = {bits: sum(GpuLayout.make(3, 4, bits=bits).compute(s) for s in range(1 << bits)) for bits in (0, 3, 6)}
    assert set(counts.values()) == {3116}
    # a shard's value is the general kernel's for the same index range and group
    from localcount.engines.grid.count import count_units, plan

    cpu = count_units(plan(4, 4, unit_prefix_bits=5), range(32), "square", parallel=False)
    assert [GpuLayout.make(4, 4, bits=5, symmetry="square").compute(s) for s in range(32)] == [int(v) for v in cpu]


def test_keys_and_code_paths_are_the_gpu_engines_own():
    lay = GpuLayout.make(4, 4)
    assert lay.key == "4x4-gpu1-s4-d4" and lay.code_path == "4x4-gpu-d4" and lay.options == " --method gpu"
    assert registry.parse_key(lay.key) == lay and registry.parse_key("3x4-gpu1-s2-sym-yes").variant == "yesnogram"
    assert registry.count_layout(4, 4, "grid").code_path != lay.code_path  # an independent path from the CPU kernel
    yes = GpuLayout.make(3, 3, symmetry="none", variant="yesnogram")
    assert yes.options == " --method gpu --symmetry none --variant yesnogram"
    for bad in [dict(n=1, m=14), dict(n=3, m=3, bits=10), dict(n=3, m=3, variant="yesnogram", symmetry="square"),
                dict(n=3, m=4, symmetry="square")]:  # fmt: skip
        with pytest.raises(ValueError):
            GpuLayout.make(**bad)


def test_the_count_command_counts_on_the_gpu_and_resumes(tmp_path):
    code, out, err = cli("3", "4", "--method", "gpu")
    assert (code, out) == (0, "3116\n") and "gpu method" in err
    ck = tmp_path / "ck"
    assert cli("4", "3", "--method", "gpu", "--checkpoint-dir", str(ck), "--variant", "yesnogram", "-q")[:2] == (
        0,
        "2956\n",
    )
    log = ck / "4x3-gpu1-s4-sym-yes.log"
    assert log.exists() and len(log.read_text().splitlines()) == 1 + 16
    code, out, err = cli("4", "3", "--method", "gpu", "--checkpoint-dir", str(ck), "--variant", "yesnogram")
    assert (code, out) == (0, "2956\n") and "16 of 16 shards" in err


def test_without_a_gpu_the_gpu_method_is_one_line_naming_the_simulator(tmp_path):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="0", CUDA_VISIBLE_DEVICES="", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "localcount", "3", "3", "--method", "gpu"], capture_output=True, text=True,
                          env=env, cwd=tmp_path)  # fmt: skip
    if proc.returncode == 0:  # pragma: no cover - a machine with a GPU counts
        assert proc.stdout == "384\n"
        return
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
    assert "--method gpu" in proc.stderr and "NUMBA_ENABLE_CUDASIM=1" in proc.stderr


def test_the_simulator_is_what_runs_here():
    assert gpu.available() == "" and (gpu.simulated() or os.environ.get("LOCALCOUNT_TEST_GPU") == "device")
    assert gpu.device_name() == "numba CUDA simulator" or os.environ.get("LOCALCOUNT_TEST_GPU") == "device"


@pytest.mark.parametrize("n,m,symmetry", [(3, 4, "flips"), (4, 4, "square"), (2, 5, "none")])
def test_tables_in_shared_or_global_memory_count_the_same(n, m, symmetry, monkeypatch):
    assert gpu.shared_bytes(n, m) > 0  # small tables go to shared memory by default
    shared = GpuLayout.make(n, m, symmetry=symmetry).in_process(1)[0]
    monkeypatch.setattr(gpu, "SHARED_TABLE_BYTES", 0)
    assert gpu.shared_bytes(n, m) == 0 and GpuLayout.make(n, m, symmetry=symmetry).in_process(1)[
        0
    ] == shared == naive.count(n, m)


def test_which_tables_fit_in_shared_memory():
    assert gpu.shared_bytes(6, 6) == 16384 and gpu.shared_bytes(6, 7) == 40960 and gpu.shared_bytes(7, 7) == 0


def test_shard_groups_of_a_gpu_count_merge_to_the_count(tmp_path):
    ck = tmp_path / "ck"
    parts = [cli("3", "4", "--method", "gpu", "--shard", f"{k}/2", "--checkpoint-dir", str(ck), "-q") for k in (0, 1)]
    assert all(code == 0 for code, _, _ in parts) and sum(int(out) for _, out, _ in parts) == 3116
    assert cli("merge", str(ck))[:2] == (0, "3116\n")
