#!/usr/bin/env python
"""The GPU engine's kernels compiled to PTX and assembled by ptxas, without a GPU: registers, spills, local memory.

    python scripts/gpu_ptx.py                      # every variant of VARIANTS, for sm_90
    python scripts/gpu_ptx.py --sizes 6x6,7x7 --cc 8.0 --keep /tmp/ptx
    python scripts/gpu_ptx.py --sizes 7x7 --kernels shared-one,lanes4-shared-one

Needs numba-cuda with NVIDIA's compilers (``pip install 'numba-cuda[cu12]'``: NVVM and ptxas, no driver, no
GPU) and numba's CUDA simulator off.  For each variant (size, symmetry group, kernel: where the line tables
live and grids per thread, ``count.Kernel``; the kernels that fit ``--shared-limit``, an H100's by default) it
compiles ``kernel.count_kernel``'s kernel with ``numba.cuda.compile_ptx`` for the compute
capability ``--cc``, runs ``ptxas -v`` on the PTX and prints the registers per thread, the spill bytes, the
stack frame, and the PTX's local loads and stores (``ld.local``/``st.local``: arrays that did not become
registers).  Exit status 1 if ptxas fails, anything spills, or a kernel uses local memory.  Compiling device functions asks numba for the
current device's compute capability; with no device a stand-in answers ``--cc``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import types

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

#: (n, m, group) of the kernels checked: every group, sizes from one line to 8x8, each with every place of the line
#: tables that fits (one shared table for the squares) and one lane.
VARIANTS = [(1, 13, "flips"), (2, 7, "flips"), (3, 5, "none"), (4, 4, "square"), (5, 5, "none"), (5, 8, "flips"),
            (6, 6, "square"), (6, 6, "flips"), (6, 7, "flips"), (7, 7, "square"), (6, 8, "flips"),
            (8, 8, "square")]  # fmt: skip
#: The sizes whose kernels are also checked with 2 and 4 lanes: the ones a device times (scripts/gpu_variants.py).
LANE_SIZES = {(4, 4), (6, 6), (6, 7), (7, 7), (6, 8)}
#: Shared memory a block may opt in to on sm_90 (H100, H200): which places of the tables fit.
SM90_SHARED_LIMIT = 227 * 1024


def kernels_of(n: int, m: int, limit: int) -> list:
    """The kernels checked for n×m: every one that fits, with more than one lane only for LANE_SIZES."""
    from localcount.engines.gpu import count

    return [k for k in count.kernels(n, m, "nonogram", limit) if k.lanes == 1 or (n, m) in LANE_SIZES]


def ptxas_path() -> pathlib.Path:
    """ptxas from the nvidia-cuda-nvcc wheel that numba-cuda[cu12] installs."""
    import nvidia.cuda_nvcc

    return pathlib.Path(nvidia.cuda_nvcc.__path__[0]) / "bin" / "ptxas"


def compile_variant(n: int, m: int, group: str, chosen, cc: tuple) -> str:
    """The PTX of one variant's kernel (``chosen``: a ``count.Kernel``)."""
    import numba.types as T
    from numba.cuda import compile_ptx

    from localcount.engines.base import GROUP_IDS
    from localcount.engines.gpu import kernel

    fn = kernel.count_kernel(n, m, GROUP_IDS[group], chosen.place, chosen.lanes).py_func
    words, tables = T.Array(T.uint64, 1, "C"), T.Array(T.uint16, 1, "C")
    sig = (T.uint64, T.uint64, T.uint64, tables, tables, words, words, T.Array(T.int64, 1, "C"))
    ptx, _ = compile_ptx(fn, sig, cc=cc)
    return ptx


def assemble(ptx: str, cc: tuple, keep: pathlib.Path | None, name: str) -> dict:
    """ptxas -v on the PTX: {'rc', 'registers', 'spill_stores', 'spill_loads', 'stack', 'log'}."""
    directory = keep or pathlib.Path(tempfile.mkdtemp())
    path = directory / f"{name}.ptx"
    path.write_text(ptx)
    arch = f"sm_{cc[0]}{cc[1]}"
    out = subprocess.run([str(ptxas_path()), f"-arch={arch}", "-v", str(path), "-o", os.devnull],
                         capture_output=True, text=True)  # fmt: skip
    log = out.stdout + out.stderr
    num = lambda pattern: int(m.group(1)) if (m := re.search(pattern, log)) else -1
    return {"rc": out.returncode, "registers": num(r"Used (\d+) registers"), "stack": num(r"(\d+) bytes stack frame"),
            "spill_stores": num(r"(\d+) bytes spill stores"), "spill_loads": num(r"(\d+) bytes spill loads"),
            "log": log}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cc", default="9.0", help="compute capability, e.g. 9.0 (H100) or 8.0 (A100); default 9.0")
    ap.add_argument("--sizes", help="only these sizes, e.g. 6x6,7x7 (default: every variant of VARIANTS)")
    ap.add_argument("--kernels", help="only these kernels, e.g. shared-one,lanes4-global (default: all that fit)")
    limit_help = f"bytes of shared memory a block may opt in to (default {SM90_SHARED_LIMIT}: sm_90)"
    ap.add_argument("--shared-limit", type=int, default=SM90_SHARED_LIMIT, help=limit_help)
    ap.add_argument("--keep", type=pathlib.Path, help="write the PTX files into this folder")
    args = ap.parse_args()
    if os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0"):
        ap.error("numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM): it compiles nothing; run with it unset")
    cc = tuple(int(x) for x in args.cc.split("."))
    import numba.cuda.dispatcher

    numba.cuda.dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=cc)  # the stand-in
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    wanted = None if not args.sizes else {tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")}
    names = None if not args.kernels else set(args.kernels.split(","))
    failed = 0
    print(f"# ptxas for sm_{cc[0]}{cc[1]}: variant, registers, spill stores/loads (bytes), stack frame, the PTX's "
          "ld.local and st.local")  # fmt: skip
    for n, m, group in VARIANTS:
        if wanted is not None and (n, m) not in wanted:
            continue
        for chosen in kernels_of(n, m, args.shared_limit):
            if names is not None and chosen.name not in names:
                continue
            name = f"{n}x{m}-{group}-{chosen.name}"
            ptx = compile_variant(n, m, group, chosen, cc)
            r = assemble(ptx, cc, args.keep, name)
            local = ptx.count("ld.local") + ptx.count("st.local") + max(r["stack"], 0)
            bad = r["rc"] != 0 or r["spill_stores"] != 0 or r["spill_loads"] != 0 or local > 0
            failed += bad
            print(f"{name:<32} {r['registers']:>4} regs  spills {r['spill_stores']}/{r['spill_loads']}  stack "
                  f"{r['stack']:>4}  ld.local {ptx.count('ld.local'):>3}  st.local {ptx.count('st.local'):>3}"
                  f"{'  FAILED' if bad else ''}", flush=True)  # fmt: skip
            if r["rc"]:
                print(r["log"], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
