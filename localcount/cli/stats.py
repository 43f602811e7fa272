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
import json
import os
import time

from ..engines import registry
from ..engines.stats.measures import format_json, format_table
from ..orchestration.checkpoint import ENV_DIR, CheckpointError, default_dir
from ..orchestration.cluster import ClusterError
from ..orchestration.runner import Stopped, run, setup_logging
from ..util.messages import Parser, say
from .common import UsageError, add_cluster_options, bar, check_jobs, cluster_args, parse_size, report_stop, workers

#: Sizes up to this many cells run in this process without a checkpoint (4x5: about a second).
IN_PROCESS_CELLS = 20
#: ``--path`` and ``--symmetry`` choices (``engines.stats.prepare.PATHS``; the stats kernel's groups).
PATHS = ("rows", "transposed")
SYMMETRIES = ("flips", "none")


def parser() -> argparse.ArgumentParser:
    """The stats command's arguments."""
    p = Parser(
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
    p.add_argument("--symmetry", choices=SYMMETRIES, default="flips", help="flips (default) or none (every grid)")
    p.add_argument("--variant", default="nonogram", help="nonogram (default) or yesnogram: row clues count the runs "
                   "of 0s (the JSON then has \"variant\": \"yesnogram\")")  # fmt: skip
    p.add_argument("--checkpoint-dir", help=f"where shard records are kept (default: ${ENV_DIR} or {default_dir()})")
    p.add_argument("--fresh", action="store_true", help="discard this run's checkpoint and start over")
    p.add_argument("--depth", type=int, default=None, help="shards fix the clues of this many rows (default: automatic)")
    add_cluster_options(p)
    return p


def main(argv) -> int:
    """Entry point of ``stats``; returns the exit status."""
    args = parser().parse_args(argv)
    try:
        n, m = parse_size(args.size)
        check_jobs(args.jobs)
        lay = registry.engine("stats").make(n, m, args.depth, args.path, args.symmetry, args.variant)
        dask = cluster_args(args)
    except (UsageError, ValueError) as err:
        say(f"error: {err}")
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    start = time.perf_counter()
    try:
        if n * m <= IN_PROCESS_CELLS and not (args.checkpoint_dir or args.fresh or dask):
            total, threads = lay.in_process(jobs)
            where = f"{threads} threads"
        else:
            stopped, total, where = _sharded(lay, jobs, args, dask)
            if stopped is not None:
                return stopped
        result = lay.finish(total)
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    print(_json(result, lay.variant) if args.json else format_table(result), flush=True)
    if not args.quiet:
        what = "stats" if lay.variant == "nonogram" else f"{lay.variant} stats"
        say(f"{n}x{m} {what} ({args.path}, {args.symmetry}): {time.perf_counter() - start:.2f} s on {where}")
    return 0


def _json(result, variant: str) -> str:
    """``format_json``, with the variant first for a yesnogram (a nonogram's JSON is as it always was)."""
    if variant == "nonogram":
        return format_json(result)
    return json.dumps({"variant": variant, **json.loads(format_json(result))})


def _sharded(lay, jobs, args, dask=None):
    """(None, or the exit status if the run stopped; the total vector of the checkpointed run; what computed it)."""
    setup_logging(None, args.quiet)
    progress_bar = bar(lay.shards * lay.grids_per_shard, f"{lay.n}x{lay.m} stats", args.quiet)
    where = f"{jobs} processes"
    try:
        with workers(dask, jobs) as pool, progress_bar:
            if pool.client is not None:
                where = f"{pool.jobs} {pool.what}"
            progress = lambda g: progress_bar.update(g - progress_bar.n)  # noqa: E731
            out = run(lay, args.checkpoint_dir or default_dir(), pool.jobs, (0, 1), args.fresh, progress, None, pool.execute(lay))
    except Stopped as stop:
        return report_stop(stop), None, where
    except (CheckpointError, ClusterError) as err:
        say(f"error: {err}")
        return 1, None, where
    if not args.quiet and out.computed < out.shards:
        say(f"{out.shards - out.computed} of {out.shards} shards from the checkpoint {out.path}")
    return None, out.total, where
