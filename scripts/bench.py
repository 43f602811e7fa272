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

Modes: ``threads`` counts in-process over numba threads (``count.count``);
``shards`` runs the sharded, checkpointed path of the command line (worker
processes, a fresh checkpoint directory per size, every shard fsynced), so
the two modes' times give the overhead of sharding and checkpointing.
``dask`` runs the same sharded path with the shards as tasks on a Dask
LocalCluster of ``--threads`` single-thread worker processes (``cluster``),
started and warmed up (every worker loads the size's kernel) outside the
timing: against ``shards`` it gives Dask's overhead, and ``--threads 1``
against ``--threads 2`` its speed-up.
``--measure stats`` times ``stats`` instead of the count (its ``count``
column is then the locally solvable count; symmetry flips or none).
``--measure thin`` times the thin counter on 2×m sizes (``thin-word``: its
first row by the word line solver; symmetry flips or none); in ``threads``
mode it runs in-process on one thread.

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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="5x5,4x6,5x6", help="comma-separated n x m sizes")
    ap.add_argument("--long", action="store_true", help="add 6x6 (2^36 grids: minutes)")
    ap.add_argument("--threads", type=int, default=None, help="numba threads or worker processes (default: all cores)")
    ap.add_argument("--symmetry", default="auto", choices=["auto", "none", "flips", "square"], help="symmetry group")
    ap.add_argument("--warm-cache", action="store_true", help="do not use a fresh numba cache directory")
    ap.add_argument("--mode", choices=["threads", "shards", "dask"], default="threads",
                    help="in-process threads, sharded processes or shards as Dask tasks")
    ap.add_argument("--measure", choices=["count", "stats", "thin", "thin-word"], default="count",
                    help="time the count, the stats enumeration or the thin counter (2 x m sizes)")
    ap.add_argument("--out", help="also write the output to this file (e.g. results/bench-5x6.txt)")
    args = ap.parse_args()
    sizes = parse_sizes(args.sizes) + ([(6, 6)] if args.long else [])
    if not args.warm_cache:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="localcount-bench-")

    import numba

    import localcount
    from localcount.count import count, count_units, plan, solve_grids

    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    if args.mode == "threads":
        numba.set_num_threads(threads)
    symmetry = args.symmetry
    thin_rows = {"thin": "table", "thin-word": "word"}.get(args.measure)
    if thin_rows:
        from localcount import thin

        symmetry = "none" if symmetry == "none" else "flips"
        try:
            for n, m in sizes:
                thin.chosen(n, m, "thin")
        except ValueError as err:
            ap.error(str(err))
        if args.mode == "threads":
            threads = 1  # the thin counter runs in-process on one thread

        def thin_layout(n, m, bits=None):
            return thin.thin_layout(max(n, m), bits, thin_rows, symmetry)
    if args.measure == "stats":
        symmetry = "none" if symmetry == "none" else "flips"
        from localcount import stats as S
        from localcount.shards import StatsLayout

        def stats_layout(n, m):
            return StatsLayout(n, m, S.default_depth(n, m) if n * m else 0, "rows", symmetry)

    from localcount.runner import run as run_sharded
    from localcount.shards import count_shard, layout
    from localcount import results

    client = None
    if args.mode == "dask":
        import contextlib

        from localcount import cluster

        start = time.perf_counter()
        stack = contextlib.ExitStack()
        client = stack.enter_context(cluster.connect(local_workers=threads))
        cluster_s = time.perf_counter() - start

    start = time.perf_counter()
    if args.measure == "stats":
        S.stats_shards(2, 3, [0], symmetry=symmetry, depth=0, parallel=args.mode == "threads")
    elif thin_rows:
        thin.count_thin(3, thin_rows, symmetry)
    elif args.mode == "threads":
        count(2, 3, symmetry=symmetry)  # compiles (or loads) every kernel the sizes use
        solve_grids([0], 2, 3)
    else:  # no numba thread pool in the parent: it forks the workers
        count_shard(layout(2, 3, symmetry=symmetry), 0)
    compile_s = time.perf_counter() - start

    def warm(n, m):
        """Build the tables and compile (or load) this size's kernel; on every Dask worker too."""
        if args.measure == "stats":
            S.stats_shards(n, m, [0], symmetry=symmetry, depth=n, parallel=args.mode == "threads")
        elif thin_rows:
            thin.count_thin_shard(thin_layout(n, m, max(n, m)), 0)  # clue groups, kernel
        else:
            count_units(plan(n, m, unit_prefix_bits=n * m), [0], symmetry, parallel=args.mode == "threads")

    def timed_count(n, m):
        if thin_rows and args.mode == "threads":
            return thin.count_thin(max(n, m), thin_rows, symmetry)
        if thin_rows:
            execute = cluster.executor(client) if args.mode == "dask" else None
            with tempfile.TemporaryDirectory() as ckdir:
                return run_sharded(thin_layout(n, m), ckdir, threads, execute=execute).total
        if args.mode == "dask":
            lay = stats_layout(n, m) if args.measure == "stats" else layout(n, m, symmetry=symmetry)
            with tempfile.TemporaryDirectory() as ckdir:
                total = run_sharded(lay, ckdir, threads, execute=cluster.executor(client)).total
            return S.from_vector(n, m, total).solvable if args.measure == "stats" else total
        if args.measure == "stats" and args.mode == "threads":
            return S.stats(n, m, symmetry=symmetry).solvable
        if args.measure == "stats":
            with tempfile.TemporaryDirectory() as ckdir:
                return S.from_vector(n, m, run_sharded(stats_layout(n, m), ckdir, threads).total).solvable
        if args.mode == "threads":
            return count(n, m, symmetry=symmetry)
        with tempfile.TemporaryDirectory() as ckdir:
            return run_sharded(layout(n, m, symmetry=symmetry), ckdir, threads).total

    out = open(args.out, "w") if args.out else None

    def emit(line: str) -> None:
        print(line, flush=True)
        if out:
            print(line, file=out, flush=True)

    emit(f"# command: python scripts/bench.py {' '.join(sys.argv[1:])}")
    emit(f"# date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}, git commit: {results.git_commit(os.path.dirname(os.path.abspath(__file__)))}")
    emit(f"# localcount {localcount.__version__}, python {platform.python_version()}, numba {numba.__version__}")
    emit(
        f"# machine: {results.cpu_model()}; mode={args.mode}, "
        f"{'threads' if args.mode == 'threads' else 'processes'}={threads}, symmetry={symmetry}, measure={args.measure}"
    )
    if client is not None:
        import distributed

        emit(f"# dask {distributed.__version__}: LocalCluster of {threads} single-thread workers started in {cluster_s:.2f} s (not timed below)")
    emit(f"# compile {'(fresh cache)' if not args.warm_cache else '(warm cache)'}: {compile_s:.2f} s common kernels; compile_s: per size")
    emit(f"{'size':>6} {'count':>12} {'grids':>14} {'wall_s':>8} {'grids/s':>10} {'ns/grid':>8} {'grids/s/core':>15} {'workers':>7} {'compile_s':>9}")
    for n, m in sizes:
        t0 = time.perf_counter()
        warm(n, m)  # outside the timing
        if client is not None:
            client.run(warm, n, m)
        size_compile = time.perf_counter() - t0
        t0 = time.perf_counter()
        total = timed_count(n, m)
        wall = time.perf_counter() - t0
        grids = 2 ** (n * m)
        rate = grids / wall
        emit(
            f"{n}x{m:<4} {total:>12} {grids:>14} {wall:>8.3f} {rate:>10.3g} {1e9 / rate:>8.2f} "
            f"{rate / threads:>15.3g} {threads:>7} {size_compile:>9.2f}"
        )
    if client is not None:
        stack.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
