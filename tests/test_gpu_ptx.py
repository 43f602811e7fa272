"""The GPU engine's kernels compiled by NVIDIA's own compilers, no GPU needed: every variant of
``scripts/gpu_ptx.py`` (sizes from 1x13 to 8x8, every symmetry group, line tables in shared and in global
memory) compiled to PTX for sm_90 by numba-cuda and NVVM, then assembled by ptxas: it must assemble, spill
nothing and use no local memory (the rows and columns in registers).

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
    sys.path.insert(0, str(ROOT / "scripts"))
    from gpu_ptx import VARIANTS

    from localcount.engines.gpu.count import shared_bytes

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gpu_ptx.py"), "--cc", "9.0"], env=env,
                         capture_output=True, text=True, timeout=1200)  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    rows = [line.split() for line in out.stdout.splitlines() if not line.startswith("#")]
    want = sum(1 + (shared_bytes(n, m) > 0) for n, m, _ in VARIANTS)  # global, and shared where the tables fit
    assert len(rows) == want, out.stdout
    for row in rows:
        registers = int(row[1])
        assert 0 < registers <= 96 and row[4] == "0/0" and row[6] == "0", row  # no spills, no stack
        assert row[8] == "0" and row[10] == "0" and "FAILED" not in row, row  # no local loads or stores
