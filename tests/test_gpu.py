"""The GPU engine (``engines.gpu``): its CUDA kernels, run here in numba's CUDA simulator (tests/conftest.py; on a
machine with a GPU, LOCALCOUNT_TEST_GPU=device runs it there), against tests/naive.py and the recorded counts."""

import json
import os
import pathlib
import subprocess
import sys
import types

import naive
import numpy as np
import pytest
from incli import cli

from localcount.engines import registry
from localcount.engines.gpu import count as gpu
from localcount.engines.gpu.layout import GpuLayout

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: Every size of 1 to 12 cells (lines of at most 12).
UP_TO_12 = [(n, m) for n in range(1, 13) for m in range(1, 13) if n * m <= 12]


def simulator_env() -> dict:
    """This environment, with CUDA kernels in numba's simulator and the project importable (for scripts)."""
    return dict(os.environ, **{gpu.SIMULATOR_ENV: "1"}, PYTHONPATH=str(ROOT))


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
    from localcount.engines.grid.count import count_shards, plan

    cpu = count_shards(plan(4, 4, shard_bits=5), range(32), "square", parallel=False)
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


#: Every kernel variant's name (where the line tables live × grids per thread).
KERNELS = [k.name for k in gpu.every_kernel()]


def rows_of(index, n, m):
    """The grid (bit r*m + c) at an enumeration index of the group "none": row 0, row n-1, then rows 1 .. n-2."""
    order = [0, n - 1, *range(1, n - 1)] if n > 1 else [0]
    rows = {r: (index >> ((len(order) - 1 - i) * m)) & ((1 << m) - 1) for i, r in enumerate(order)}
    return sum(rows[r] << (r * m) for r in range(n))


def naive_slice(n, m, base, count, variant="nonogram"):
    """tests/naive.py's count of the grids at indices base .. base + count - 1 (group "none")."""
    return sum(naive.solve_grid(rows_of(i, n, m), n, m, variant)[0] == "solved" for i in range(base, base + count))


@pytest.mark.parametrize("name", KERNELS)
def test_every_kernel_variant_counts_like_the_reference(name):
    """A square, a non-square whose border runs are one index long (every step of 2 or 4 lanes is ragged), a
    yesnogram, and a slice that starts and ends inside border runs and stretches (lanes left over at its ends)."""
    kernel = gpu.Kernel.parse(name)
    assert kernel.name == name
    cases = [(3, 3, "square", "nonogram"), (2, 5, "flips", "nonogram"), (3, 3, "flips", "yesnogram"),
             (4, 2, "none", "yesnogram")]  # fmt: skip
    for n, m, group, variant in cases:
        if gpu.fits(n, m, variant, kernel.place):
            assert gpu.count_indices(n, m, 0, 1 << (n * m), group, variant, kernel) == naive.count(n, m, variant)
    assert gpu.fits(3, 3, "nonogram", kernel.place) and gpu.fits(2, 5, "nonogram", kernel.place) != (
        kernel.place == "shared-one"
    )
    if gpu.fits(3, 4, "nonogram", kernel.place):
        assert gpu.count_indices(3, 4, 1001, 37, "none", kernel=name) == naive_slice(3, 4, 1001, 37) == 32
    if gpu.fits(4, 4, "nonogram", kernel.place):
        assert gpu.count_indices(4, 4, 40001, 29, "none", kernel=name) == naive_slice(4, 4, 40001, 29)


@pytest.mark.parametrize("name,n,m,symmetry,variant", [
    ("lanes4-shared-one", 4, 4, "square", "nonogram"), ("lanes2-shared", 4, 3, "flips", "yesnogram"),
    ("lanes4-global", 2, 7, "flips", "nonogram"), ("shared-one", 4, 4, "square", "nonogram"),
])  # fmt: skip
def test_kernel_variants_equal_the_recorded_counts(name, n, m, symmetry, variant):
    lay = GpuLayout.make(n, m, symmetry=symmetry, variant=variant)
    inner = n * m - lay.bits
    total = sum(gpu.count_indices(n, m, s << inner, 1 << inner, symmetry, variant, name) for s in range(lay.shards))
    assert total == recorded(n, m, variant)


@pytest.mark.parametrize("n,m,base", [(7, 7, 0x3C5F_414C_343C), (6, 8, 0x9D62_6B3A_5C2E)])
def test_large_tables_in_shared_memory_count_like_global_memory(n, m, base):
    """7x7's one shared table (32 KiB) and both its tables (64 KiB, opted in on a device), 6x8's two (136 KiB): a
    slice of indices, every variant that fits against the grids' naive count."""
    assert gpu.table_bytes(7, 7, "shared-one") == 32768 and gpu.table_bytes(7, 7, "shared") == 65536
    assert gpu.table_bytes(6, 8, "shared") == 139264 > gpu.DEFAULT_SHARED_BYTES
    expected = naive_slice(n, m, base, 13)
    assert 0 < expected < 13
    for name in ["global", "shared", "shared-one", "lanes4-shared", "lanes2-shared-one"]:
        if gpu.fits(n, m, "nonogram", gpu.Kernel.parse(name).place):
            assert gpu.count_indices(n, m, base, 13, "none", kernel=name) == expected, name


def test_one_line_table_serves_rows_and_columns_of_nonogram_squares_only():
    from localcount.lines.tables import line_table, row_table

    for length in range(1, 8):
        assert np.array_equal(row_table(length, "nonogram"), line_table(length))
    assert not np.array_equal(row_table(3, "yesnogram"), line_table(3))
    assert gpu.one_table(7, 7, "nonogram") and not gpu.one_table(7, 7, "yesnogram")
    assert not gpu.one_table(6, 7, "nonogram")
    assert [k.name for k in gpu.kernels(6, 7)] == [
        "global", "shared", "lanes2-global", "lanes2-shared", "lanes4-global", "lanes4-shared"
    ]  # fmt: skip
    with pytest.raises(ValueError, match="cannot count 6x7"):
        gpu.count_indices(6, 7, 0, 1, "flips", kernel="shared-one")
    with pytest.raises(ValueError, match="no GPU kernel named"):
        gpu.Kernel.parse("lanes3-global")
    assert {gpu.Kernel.parse(name) for name in KERNELS} == set(gpu.every_kernel()) and len(KERNELS) == 9


def test_the_default_kernel_is_the_designs(monkeypatch, tmp_path):
    """One shared table for nonogram squares, both tables in shared memory where they fit the device's opt-in limit,
    else global memory; one lane: the rule for a GPU model with no measured choice (here: every model's choice
    emptied, so that the test holds on a device whose choice is committed)."""
    (tmp_path / "none.json").write_text(json.dumps({gpu.device_name(): {}}))
    monkeypatch.setenv(gpu.CHOICES_ENV, str(tmp_path / "none.json"))
    assert gpu.table_bytes(6, 6, "shared") == 16384 and gpu.table_bytes(6, 7, "shared") == 40960
    assert gpu.table_bytes(5, 5, "global") == 0 and gpu.table_bytes(8, 8, "shared-one") == 131072
    names = lambda: {size: gpu.kernel_name(*size) for size in [(6, 6), (6, 7), (7, 7), (6, 8), (8, 8), (8, 9)]}
    assert gpu.shared_limit() == 227 * 1024 or os.environ.get("LOCALCOUNT_TEST_GPU") == "device"
    monkeypatch.setattr(gpu, "shared_limit", lambda: 227 * 1024)  # an H100's or H200's opt-in limit
    assert names() == {(6, 6): "shared-one", (6, 7): "shared", (7, 7): "shared-one", (6, 8): "shared",
                       (8, 8): "shared-one", (8, 9): "global"}  # fmt: skip
    assert gpu.kernel_name(7, 7, "flips", "yesnogram") == "shared"
    assert gpu.default_kernel(7, 7) == gpu.Kernel("shared-one")
    monkeypatch.setattr(gpu, "shared_limit", lambda: 48 * 1024)  # a device without the opt-in
    assert names() == {(6, 6): "shared-one", (6, 7): "shared", (7, 7): "shared-one", (6, 8): "global",
                       (8, 8): "global", (8, 9): "global"}  # fmt: skip
    assert gpu.kernel_name(7, 7, "flips", "yesnogram") == "global"
    assert GpuLayout.make(3, 3).in_process(1)[0] == 384  # the layout counts with the default kernel


def test_a_kernel_is_opted_in_to_more_than_48_kib_of_shared_memory_through_the_driver():
    calls = []
    driver = types.SimpleNamespace(cuKernelSetAttribute=lambda *args: calls.append(args))
    function = types.SimpleNamespace(handle="the CUkernel", device=types.SimpleNamespace(id=3))
    assert not gpu.opt_in_shared(function, 48 * 1024, driver) and calls == []
    assert gpu.opt_in_shared(function, 139264, driver)
    [(attribute, nbytes, handle, device)] = calls
    assert int(attribute) == 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    assert (nbytes, handle, device) == (139264, "the CUkernel", 3)
    assert gpu.block_threads(40960, 1024) == 128 and gpu.block_threads(139264, 1024) == 1024
    assert gpu.block_threads(139264, 640) == 512


def test_the_opt_in_attribute_is_the_driver_apis():
    binding = pytest.importorskip("cuda.bindings.driver", reason="numba-cuda's CUDA bindings (the gpu extra)")
    attribute = binding.CUfunction_attribute.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
    assert binding.CUfunction_attribute(gpu.MAX_DYNAMIC_SHARED_SIZE_BYTES) == attribute


def test_the_variants_script_times_every_variant_and_checks_its_counts():
    script = [sys.executable, str(ROOT / "scripts" / "gpu_variants.py"), "--sizes", "3x3,2x4"]
    proc = subprocess.run(script, capture_output=True, text=True, env=simulator_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line.split() for line in proc.stdout.splitlines() if not line.startswith(("#", "kernel"))]
    assert [(row[0], row[1]) for row in rows] == [(k, "3x3") for k in KERNELS] + [
        (k, "2x4") for k in KERNELS if "one" not in k
    ]
    assert {(row[-3], row[-2], row[-1]) for row in rows} == {("384", "384", "yes"), ("208", "208", "yes")}
    assert "default kernel shared-one" in proc.stdout


def test_shard_groups_of_a_gpu_count_merge_to_the_count(tmp_path):
    ck = tmp_path / "ck"
    parts = [cli("3", "4", "--method", "gpu", "--shard", f"{k}/2", "--checkpoint-dir", str(ck), "-q") for k in (0, 1)]
    assert all(code == 0 for code, _, _ in parts) and sum(int(out) for _, out, _ in parts) == 3116
    assert cli("merge", str(ck))[:2] == (0, "3116\n")


def test_bench_times_one_chosen_kernel_on_a_slice():
    script = [sys.executable, str(ROOT / "scripts" / "bench.py"), "--gpu", "--sizes", "3x3", "--warm-cache"]
    script += ["--kernel", "lanes2-shared-one", "--gpu-shards", "4"]
    proc = subprocess.run(script, capture_output=True, text=True, env=simulator_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "# kernels: 3x3 lanes2-shared-one\n" in proc.stdout
    [row] = [line.split() for line in proc.stdout.splitlines() if line.startswith("3x3")]
    assert row[1:3] == ["28", "128"]  # 4 of the 16 shards: 128 indices
