#!/usr/bin/env python
"""Throughput benchmark of the counting engine: compare runs as ratios.

    python scripts/bench.py                       # 5x5, 4x6, 5x6
    python scripts/bench.py --sizes 4x4 --threads 1
    python scripts/bench.py --warm-cache          # reuse numba's on-disk cache
    python scripts/bench.py --sizes 5x6 --mode shards   # sharded, checkpointed runs
    python scripts/bench.py --long --mode shards        # and 6x6 (minutes)
    python scripts/bench.py --measure stats             # the stats enumeration (uniqueness, rounds)
    python scripts/bench.py --sizes 5x6 --mode dask --threads 2   # shards as tasks on a Dask LocalCluster
    python scripts/bench.py --sizes 2x14,2x16 --measure thin --mode shards   # the thin counter (thin-word: its other path)
    python scripts/bench.py --cold --sizes 2x5,4x4,5x5   # what a new user waits: whole processes, empty caches, then warm
    python scripts/bench.py --compile                    # compile time of each kernel family, empty caches
    python scripts/bench.py --gpu --sizes 5x5,6x6,6x7    # the GPU engine (a CUDA GPU): grids/s, projected 7x7, 6x8
    python scripts/bench.py --gpu --sizes 6x6,7x7 --kernel lanes2-shared-one   # one kernel variant; 7x7: a slice

Modes: ``threads`` counts in-process (``Layout.in_process``: numba threads);
``shards`` runs the sharded, checkpointed path of the command line (worker
processes, a fresh checkpoint directory per size, every shard fsynced), so
the two modes' times give the overhead of sharding and checkpointing.
``dask`` runs the same sharded path with the shards as tasks on a Dask
LocalCluster of ``--threads`` single-thread worker processes (``orchestration.cluster``),
started and warmed up (every worker loads the size's kernel) outside the
timing: against ``shards`` it gives Dask's overhead, and ``--threads 1``
against ``--threads 2`` its speed-up.
``--measure stats`` times ``stats`` instead of the count (its ``count``
column is then the locally solvable count; symmetry flips or none).
``--measure thin`` times the thin counter on 2×m sizes (``thin-word``: its
first row by the word line solver; symmetry flips or none); in ``threads``
mode it runs in-process on one thread.

``--cold`` times what a person waits instead: ``python -m localcount N M``
as a whole process, first with empty numba and kernel caches (new temporary
directories), then twice more with the caches it filled; the median of
``--repeat`` such rounds.

``--compile`` times each kernel family's first run: for one layout of each
(the general kernel plain and generated for its size, the thin counter with
either row mode, stats), a new process with empty caches imports numba,
warms the serial kernels (``Layout.warm``) and then the threaded ones; a
second process with the caches so filled does the same, which is what
loading them costs later.  ``--sizes`` is ignored.

``--gpu`` times the GPU engine (``engines.gpu``: the count with ``--method gpu``, one launch per
shard, in this process) with its default kernel variant (``count.default_kernel``) or the one
``--kernel NAME`` names (``count.Kernel``: ``global``, ``shared-one``, ``lanes2-shared``, ...), and
projects 7x7 (2^49 grids) and 6x8 (2^48) from the rate of each size timed among 6x6, 6x7, 7x7 and
6x8, as ``scripts/campaign.py`` projects from the CPU's.  Sizes of more than 2^GPU_WHOLE_BITS grids
(7x7, 6x8) are timed on a slice, ``--gpu-shards`` of their shards spread evenly (their ``count`` is
the slice's), with the kernel built for them (where their tables live differs from 6x7's); a
projection from a slice is rough, since its share of symmetric borders varies.  Under numba's CUDA
simulator (``NUMBA_ENABLE_CUDASIM=1``) it runs, but its figures are the simulator's, not a GPU's:
the header says which.  ``scripts/gpu_variants.py`` times every variant side by side.

Prints, per size: wall seconds, grids per second (grids = all 2^(n*m) of the
size, whatever the kernel skips by symmetry), ns per grid, grids per second
per thread, and the threads used.  Compile time is measured once, separately,
in a fresh numba cache directory (unless --warm-cache).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time


def parse_sizes(text: str) -> list:
    """'5x5,4x6' -> [(5, 5), (4, 6)]."""
    out = []
    for item in text.split(","):
        n, _, m = item.strip().partition("x")
        out.append((int(n), int(m or n)))
    return out


def cold_start(sizes, repeat: int) -> int:
    """Whole-process wall seconds of the count command per size: with empty caches, and warm (medians)."""
    import statistics
    import subprocess

    print(f"# command: python scripts/bench.py {' '.join(sys.argv[1:])}")
    print(f"# date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; {repeat} rounds per size, medians; each round new caches")
    print(f"{'size':>6} {'count':>14} {'cold_s':>8} {'warm_s':>8}")
    for n, m in sizes:
        cold, warm, out = [], [], ""
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                env = dict(os.environ, NUMBA_CACHE_DIR=f"{tmp}/numba", LOCALCOUNT_KERNEL_DIR=f"{tmp}/kernels",
                           LOCALCOUNT_CHECKPOINT_DIR=f"{tmp}/checkpoints")  # fmt: skip
                for times in (cold, warm, warm):
                    start = time.perf_counter()
                    out = subprocess.run([sys.executable, "-m", "localcount", str(n), str(m)], env=env,
                                         capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
                    times.append(time.perf_counter() - start)
        print(f"{n}x{m:<4} {out:>14} {statistics.median(cold):>8.2f} {statistics.median(warm):>8.2f}", flush=True)
    return 0


#: (family, checkpoint key of the layout timed) for --compile.
FAMILIES = [
    ("grid, plain kernel", "3x6-v1-s0-sym"),
    ("grid, generated for 5x5", "5x5-v1-s8-d4"),
    ("grid, generated for 4x6", "4x6-v1-s8-sym"),
    ("thin, table rows", "2x14-thin1-tab-s10-sym"),
    ("thin, word rows", "2x14-thin1-word-s10-sym"),
    ("stats", "4x4-stats1-d2-rows-sym"),
]

_COMPILE_CHILD = """
import json, sys, time
start = time.perf_counter()
import numba
from localcount.engines import registry
lay = registry.parse_key(sys.argv[1])
out = {"import": time.perf_counter() - start}
for name, parallel in (("serial", False), ("threaded", True)):
    start = time.perf_counter()
    lay.warm(parallel)
    out[name] = time.perf_counter() - start
print(json.dumps(out))
"""


def compile_times() -> int:
    """Seconds to import numba and to warm each family's serial and threaded kernels: empty caches, then filled."""
    import json
    import subprocess

    print(f"# command: python scripts/bench.py {' '.join(sys.argv[1:])}")
    print(f"# date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; each family in new processes with new caches")
    print(f"{'family':<26} {'layout':<26} {'import_s':>8} {'serial_s':>8} {'thread_s':>8} {'load_s':>7}")
    for family, key in FAMILIES:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, NUMBA_CACHE_DIR=f"{tmp}/numba", LOCALCOUNT_KERNEL_DIR=f"{tmp}/kernels")
            runs = [
                json.loads(
                    subprocess.run(
                        [sys.executable, "-c", _COMPILE_CHILD, key], env=env, capture_output=True, text=True, check=True
                    ).stdout
                )  # fmt: skip
                for _ in range(2)
            ]
        cold, warm = runs
        print(f"{family:<26} {key:<26} {cold['import']:>8.2f} {cold['serial']:>8.2f} {cold['threaded']:>8.2f} "
              f"{warm['serial'] + warm['threaded']:>7.2f}", flush=True)  # fmt: skip
    return 0


#: --gpu: sizes of more than 2^GPU_WHOLE_BITS grids are timed on a slice of GPU_SLICE_SHARDS shards (unless told).
GPU_WHOLE_BITS = 44
GPU_SLICE_SHARDS = 16
#: --gpu: the sizes projected from every rate timed among GPU_PROJECT_FROM.
GPU_PROJECTED = [(7, 7), (6, 8)]
GPU_PROJECT_FROM = [(6, 6), (6, 7), (7, 7), (6, 8)]


def gpu_slice(lay, shards: int | None) -> list:
    """The shards --gpu times: all of them, or ``shards`` (default GPU_SLICE_SHARDS above 2^GPU_WHOLE_BITS grids)
    spread evenly."""
    if shards is None:
        shards = GPU_SLICE_SHARDS if lay.n * lay.m > GPU_WHOLE_BITS else lay.shards
    if shards >= lay.shards:
        return list(range(lay.shards))
    return [i * lay.shards // shards for i in range(shards)]


def gpu_count(lay, picked: list, kernel: str | None) -> int:
    """The GPU layout's weighted total over the picked shards, one launch each, with one kernel variant."""
    from localcount.engines.gpu.count import count_indices

    inner = lay.n * lay.m - lay.bits
    return sum(count_indices(lay.n, lay.m, s << inner, 1 << inner, lay.symmetry, lay.variant, kernel) for s in picked)


def layout_for(measure: str, n: int, m: int, symmetry: str):
    """The layout a measure times for n×m: the general kernel, the thin counter (two row modes) or stats."""
    from localcount.engines import registry

    if measure == "stats":
        return registry.engine("stats").make(n, m, symmetry="none" if symmetry == "none" else "flips")
    if measure == "gpu":
        return registry.count_layout(n, m, "gpu", symmetry)
    if measure in ("thin", "thin-word"):
        group = "none" if symmetry == "none" else "flips"
        return registry.count_layout(n, m, "thin", group, thin_rows="word" if measure == "thin-word" else "table")
    return registry.count_layout(n, m, "grid", symmetry)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="5x5,4x6,5x6", help="comma-separated n x m sizes")
    ap.add_argument("--long", action="store_true", help="add 6x6 (2^36 grids: minutes)")
    ap.add_argument("--threads", type=int, default=None, help="numba threads or worker processes (default: all cores)")
    ap.add_argument("--symmetry", default="auto", choices=["auto", "none", "flips", "square"], help="symmetry group")
    ap.add_argument("--warm-cache", action="store_true", help="do not use a fresh numba cache directory")
    ap.add_argument(
        "--mode",
        choices=["threads", "shards", "dask"],
        default="threads",
        help="in-process threads, sharded processes or shards as Dask tasks",
    )
    ap.add_argument(
        "--measure",
        choices=["count", "stats", "thin", "thin-word"],
        default="count",
        help="time the count, the stats enumeration or the thin counter (2 x m sizes)",
    )
    ap.add_argument("--out", help="also write the output to this file (e.g. results/bench-5x6.txt)")
    ap.add_argument("--cold", action="store_true", help="time whole processes of the count command, cold and warm")
    ap.add_argument("--repeat", type=int, default=3, help="with --cold: rounds per size (default 3)")
    ap.add_argument("--compile", action="store_true", help="time each kernel family's compile with empty caches")
    ap.add_argument("--gpu", action="store_true", help="time the GPU engine (--method gpu) and project 7x7 and 6x8")
    ap.add_argument("--kernel", help="with --gpu: the kernel variant, e.g. shared-one (default: count.default_kernel)")
    ap.add_argument("--gpu-shards", type=int, help=f"with --gpu: time this many shards of each size, spread evenly "
                    f"(default: all, {GPU_SLICE_SHARDS} above 2^{GPU_WHOLE_BITS} grids)")  # fmt: skip
    args = ap.parse_args()
    if (args.kernel or args.gpu_shards) and not args.gpu:
        ap.error("--kernel and --gpu-shards go with --gpu")
    if args.gpu:
        args.measure, args.mode = "gpu", "threads"
    sizes = parse_sizes(args.sizes) + ([(6, 6)] if args.long else [])
    if args.cold:
        return cold_start(sizes, args.repeat)
    if args.compile:
        return compile_times()
    if not args.warm_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="localcount-bench-")
        os.environ["LOCALCOUNT_KERNEL_DIR"] = tempfile.mkdtemp(prefix="localcount-bench-kernels-")

    import numba

    import localcount
    from localcount.orchestration.runner import run as run_sharded
    from localcount.util import provenance

    try:
        layouts = {(n, m): layout_for(args.measure, n, m, args.symmetry) for n, m in [(2, 3), *sizes]}
        if args.gpu:
            from localcount.engines.gpu.count import resolve

            kernels = {
                size: resolve(*size, layouts[size].symmetry, layouts[size].variant, args.kernel).name for size in sizes
            }
    except ValueError as err:
        ap.error(str(err))
    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    in_process = args.mode == "threads"  # the sharded modes fork workers: no numba thread pool in this process

    client = None
    if args.mode == "dask":
        import contextlib

        from localcount.orchestration import cluster

        start = time.perf_counter()
        stack = contextlib.ExitStack()
        client = stack.enter_context(cluster.connect(local_workers=threads))
        cluster_s = time.perf_counter() - start

    start = time.perf_counter()
    layouts[(2, 3)].warm(in_process)  # compiles (or loads) the kernels every size shares
    compile_s = time.perf_counter() - start

    def timed_count(lay):
        """(locally solvable grids, threads used) of the whole layout, by the mode's path (--gpu: of its slice)."""
        if args.gpu:
            return gpu_count(lay, gpu_slice(lay, args.gpu_shards), args.kernel), 1
        if in_process:
            total, used = lay.in_process(threads)
            return lay.solvable(total), used
        execute = cluster.executor(client) if client is not None else None
        with tempfile.TemporaryDirectory() as ckdir:
            return lay.solvable(run_sharded(lay, ckdir, threads, execute=execute).total), threads

    out = open(args.out, "w") if args.out else None  # noqa: SIM115 (lives as long as the process)

    def emit(line: str) -> None:
        print(line, flush=True)
        if out:
            print(line, file=out, flush=True)

    symmetry = getattr(layouts[(2, 3)], "symmetry", args.symmetry) if args.measure != "count" else args.symmetry
    emit(f"# command: python scripts/bench.py {' '.join(sys.argv[1:])}")
    emit(
        f"# date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, git commit: {provenance.git_commit(os.path.dirname(os.path.abspath(__file__)))}"
    )
    emit(f"# localcount {localcount.__version__}, python {platform.python_version()}, numba {numba.__version__}")
    emit(
        f"# machine: {provenance.cpu_model()}; mode={args.mode}, "
        f"{'threads' if in_process else 'processes'}={threads}, symmetry={symmetry}, measure={args.measure}"
    )
    if client is not None:
        import distributed

        emit(
            f"# dask {distributed.__version__}: LocalCluster of {threads} single-thread workers started in {cluster_s:.2f} s (not timed below)"
        )
    if args.gpu:
        from localcount.engines.gpu.count import device_name, simulated

        emit(
            f"# device: {device_name()}"
            + (" (numba's CUDA simulator on the CPU: NOT a GPU's figures)" if simulated() else "")
        )
        emit("# kernels: " + ", ".join(f"{n}x{m} {kernels[(n, m)]}" for n, m in sizes)
             + ("" if args.kernel else " (count.default_kernel's, chosen by design)"))  # fmt: skip
    emit(
        f"# compile {'(fresh cache)' if not args.warm_cache else '(warm cache)'}: {compile_s:.2f} s common kernels; compile_s: per size"
    )
    emit(
        f"{'size':>6} {'count':>12} {'grids':>14} {'wall_s':>8} {'grids/s':>10} {'ns/grid':>8} {'grids/s/core':>15} {'workers':>7} {'compile_s':>9}"
    )
    rates = {}
    for n, m in sizes:
        lay = layouts[(n, m)]
        t0 = time.perf_counter()
        if args.gpu:
            from localcount.engines.gpu.count import count_indices

            count_indices(n, m, 0, 1, lay.symmetry, lay.variant, args.kernel)  # compiles the variant, copies the tables
        else:
            lay.warm(in_process)  # outside the timing
        if client is not None:
            client.run(lay.warm)
        size_compile = time.perf_counter() - t0
        t0 = time.perf_counter()
        total, used = timed_count(lay)
        wall = time.perf_counter() - t0
        grids = 2 ** (n * m) if not args.gpu else len(gpu_slice(lay, args.gpu_shards)) << (n * m - lay.bits)
        rate = grids / wall
        emit(
            f"{n}x{m:<4} {total:>12} {grids:>14} {wall:>8.3f} {rate:>10.3g} {1e9 / rate:>8.2f} "
            f"{rate / used:>15.3g} {used:>7} {size_compile:>9.2f}"
        )
        rates[(n, m)] = rate
    if client is not None:
        stack.close()
    if args.gpu:
        for target in GPU_PROJECTED:
            for n, m in [size for size in GPU_PROJECT_FROM if size in rates]:
                emit(f"# projected {target[0]}x{target[1]} (2^{target[0] * target[1]} grids) at the {n}x{m} rate "
                     f"{rates[(n, m)]:.3g} grids/s ({kernels[(n, m)]}): {2 ** (target[0] * target[1]) / rates[(n, m)] / 3600:.1f} h")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
