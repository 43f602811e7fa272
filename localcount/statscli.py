"""``python -m localcount stats N [M]``: uniqueness, difficulty and stuck grids of one size.

stdout gets a small table (or, with ``--json``, one JSON object); progress
and a summary go to stderr.  Sizes with more than IN_PROCESS_CELLS cells (or
given ``--checkpoint-dir`` / ``--fresh``) are split into shards counted by
worker processes and recorded in a checkpoint, like the plain count: the
same command resumes after any stop.  Exit status as for the count: 0 done,
1 a checkpoint problem or an error, 2 bad input, 130 / 143 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .checkpoint import ENV_DIR, CheckpointError, default_dir

#: Sizes up to this many cells run in this process without a checkpoint (4x5: about a second).
IN_PROCESS_CELLS = 20


def _say(msg: str) -> None:
    print(f"localcount: {msg}", file=sys.stderr, flush=True)


def _parser() -> argparse.ArgumentParser:
    from .stats import PATHS, SYMMETRIES

    p = argparse.ArgumentParser(
        prog="python -m localcount stats",
        description="Locally solvable, uniquely solvable and stuck-at-the-start grids of one size, and the "
        "rounds (every row, then every column) local logic needs: by enumerating every grid.",
    )
    p.add_argument("size", nargs="+", help="n (square) or n m (n rows, m columns)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout instead of a table")
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes or threads (default: all cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument(
        "--path",
        choices=PATHS,
        default="rows",
        help="rows: group the n x m grids by row clues; transposed: enumerate the m x n transposes, columns "
        "first (an independent code path with the same results)",
    )
    p.add_argument("--symmetry", choices=list(SYMMETRIES), default="flips", help="flips (default) or none (every grid)")
    p.add_argument("--checkpoint-dir", help=f"where shard records are kept (default: ${ENV_DIR} or {default_dir()})")
    p.add_argument("--fresh", action="store_true", help="discard this run's checkpoint and start over")
    p.add_argument("--depth", type=int, default=None, help="shards fix the clues of this many rows (default: automatic)")
    from .cli import add_cluster_options

    add_cluster_options(p)
    return p


def main(argv) -> int:
    """Entry point of ``stats``; returns the exit status."""
    from .cli import UsageError, cluster_args, parse_size
    from .stats import check_stats_size, default_depth

    args = _parser().parse_args(argv)
    try:
        n, m = parse_size(args.size)
        check_stats_size(n, m)
        if args.jobs is not None and args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
        depth = args.depth
        if n * m and depth is None:
            depth = default_depth(n, m, args.path)
        rows = m if args.path == "transposed" else n
        if depth is not None and not 0 <= depth <= rows:
            raise UsageError(f"--depth must be between 0 and {rows} for {n}x{m} ({args.path}), got {depth}")
        dask = cluster_args(args)
    except (UsageError, ValueError) as err:
        _say(f"error: {err}")
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    start = time.perf_counter()
    try:
        if n * m <= IN_PROCESS_CELLS and not (args.checkpoint_dir or args.fresh or dask):
            result = _in_process(n, m, depth, jobs, args)
            where = f"{jobs} threads"
        else:
            result, where = _sharded(n, m, depth, jobs, args, dask)
            if isinstance(result, int):
                return result
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    from .stats import format_json, format_table

    print(format_json(result) if args.json else format_table(result), flush=True)
    if not args.quiet:
        _say(f"{n}x{m} stats ({args.path}, {args.symmetry}): {time.perf_counter() - start:.2f} s on {where}")
    return 0


def _in_process(n, m, depth, jobs, args):
    import numba

    from .stats import stats

    numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))
    return stats(n, m, path=args.path, symmetry=args.symmetry, depth=depth)


def _sharded(n, m, depth, jobs, args, dask=None):
    """(the Stats of a checkpointed run, or an exit status if it stopped; what computed it)."""
    from .cli import _bar, _executor, report_stop
    from .cluster import ClusterError
    from .runner import Stopped, run, setup_logging
    from .shards import StatsLayout
    from .stats import from_vector

    setup_logging(None, args.quiet)
    lay = StatsLayout(n, m, depth, args.path, args.symmetry)
    bar = _bar(lay.shards * lay.grids_per_shard, f"{n}x{m} stats", args.quiet)
    where = f"{jobs} processes"
    try:
        with _executor(lay, None, dask) as (execute, workers), bar:
            if execute is not None:
                jobs, where = workers, f"{workers} Dask worker threads"
            out = run(lay, args.checkpoint_dir or default_dir(), jobs, (0, 1), args.fresh, lambda g: bar.update(g - bar.n), None, execute)
    except Stopped as stop:
        return report_stop(stop), where
    except (CheckpointError, ClusterError) as err:
        _say(f"error: {err}")
        return 1, where
    if not args.quiet and out.computed < out.shards:
        _say(f"{out.shards - out.computed} of {out.shards} shards from the checkpoint {out.path}")
    return from_vector(n, m, out.total), where
