"""The GPU engine's kernels compiled by NVIDIA's own compilers, no GPU needed: every variant of
``scripts/gpu_ptx.py`` (sizes from 1x13 to 8x8, every symmetry group, the line tables in global memory, both in
shared memory and one shared table for squares, where they fit an H100's 227 KiB; 2 and 4 grids per thread for
the sizes a device times) compiled to PTX for sm_90 by numba-cuda and NVVM, then assembled by ptxas: it must
assemble, spill nothing and use no local memory (the rows, columns and lanes in registers).

Needs numba-cuda with the compilers (``pip install 'numba-cuda[cu12]'``, about 800 MB); the main suite
does without, so ``.ci/run`` runs this file in a virtualenv of its own that has them, and elsewhere it is
skipped.  numba's CUDA simulator compiles nothing, so the script runs in a process with it off."""

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("numba_cuda", reason="needs numba-cuda[cu12] (.ci/run installs it in a virtualenv of its own)")
pytest.importorskip("nvidia.cuda_nvcc", reason="needs NVIDIA's NVVM and ptxas: pip install 'numba-cuda[cu12]'")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_kernel_variant_assembles_for_sm_90_without_spills_or_local_memory():
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gpu_ptx.py"), "--cc", "9.0"], env=env,
                         capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if not line.startswith("#")]
    # one lane: global memory for each size, both tables in shared memory where they fit 227 KiB (not 1x13's 128 MiB,
    # nor 8x8's 256 KiB), one shared table for the squares (4x4, 5x5, 6x6 twice, 7x7, 8x8): 12 + 10 + 6; and
    # 2 and 4 lanes of each for LANE_SIZES (4x4, 6x6 square and flips, 6x7, 7x7, 6x8: 3+3+3+2+3+2 = 16 each)
    assert len(rows) == 12 + 10 + 6 + 2 * 16 == 60, out.stdout
    assert {row[0].rsplit("-", 1)[-1] for row in rows} >= {"global", "shared", "one"}
    for row in rows:
        registers, lanes = int(row[1]), 4 if "lanes4" in row[0] else 2 if "lanes2" in row[0] else 1
        assert 0 < registers <= (96 if lanes == 1 else 255), row  # a thread's registers: 255 at most on sm_90
        assert row[4] == "0/0" and row[6] == "0", row  # no spills, no stack
        assert row[8] == "0" and row[10] == "0" and "FAILED" not in row, row  # no local loads or stores
