"""The count: ``python -m localcount [n [m]]`` prints the n×m count on stdout.

The size comes from the arguments or, when there are none, from stdin
(``echo "2 5" | python -m localcount``).  stdout holds the count alone;
progress, the time estimate and a summary line go to stderr.

Runs expected to take a second or more (or given ``--checkpoint-dir``,
``--shard``, ``--shard-bits`` or ``--fresh``) are split into shards counted
by a pool of worker processes and recorded in a checkpoint, so the same
command resumes after any stop; shorter ones run in this process.  Which
engine counts the size is ``engines.registry.count_layout``'s choice.

Exit status: 0 done; 1 a checkpoint problem or an error; 2 bad input;
130 / 143 interrupted by SIGINT / SIGTERM (progress kept).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

from .. import __version__
from ..engines import registry
from ..orchestration.checkpoint import ENV_DIR, CheckpointError, default_dir
from ..orchestration.cluster import ClusterError
from ..orchestration.groups import group_shards, parse_group
from ..orchestration.runner import Stopped, run, setup_logging
from ..util.messages import Parser, format_seconds, say
from .common import (
    UsageError,
    add_cluster_options,
    bar,
    check_jobs,
    cluster_args,
    parse_size,
    report_stop,
    said_if_slow,
    workers,
)

#: Sizes expected to take longer than this print their estimated time first.
ANNOUNCE_SECONDS = 60.0
#: Runs expected to take less than this skip shards and checkpoints.
CHECKPOINT_SECONDS = 1.0
#: Sizes with at most this many cells are not estimated: they take well under a second.
NO_ESTIMATE_CELLS = 20
#: Runs expected to take longer than this on the cores given are refused without --force (or --shard, --scheduler).
REFUSE_SECONDS = 365 * 86400.0


def parser() -> argparse.ArgumentParser:
    """The count command's arguments."""
    p = Parser(
        prog="python -m localcount",
        description="Count the n x m nonogram grids that local (line-by-line) logic solves.",
        epilog=(
            "With no size arguments the size is read from stdin, e.g. echo '2 5' | python -m localcount. "
            "Other commands: 'python -m localcount merge DIR...' adds up shard records; "
            "'python -m localcount status [DIR...]' shows checkpoints; "
            "'python -m localcount table --max-cells N' counts a range of sizes into results/ (see table --help); "
            "'python -m localcount stats N [M]' adds uniqueness, difficulty and stuck grids (see stats --help); "
            "'solve FILE', 'explain --grid ROWS', 'examples' and 'convert FILE --to FMT' work on single puzzles."
        ),
    )
    p.add_argument("size", nargs="*", help="n (square) or n m (n rows, m columns)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes or threads (default: all cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument(
        "--symmetry",
        choices=["auto", "none", "flips", "square"],
        default="auto",
        help="count one border per class of this symmetry group, weighted by class size: flips "
        "(up-down, left-right), square (also transposition; squares only), none (every grid), "
        "auto (square for squares, else flips). Groups are independent code paths for cross-checks.",
    )
    p.add_argument("--no-symmetry", action="store_true", help="same as --symmetry none")
    p.add_argument(
        "--method",
        choices=list(registry.METHODS),
        default="auto",
        help="grid: the general kernel; thin: the counter for 2 x m grids (localcount/engines/thin/), much faster "
        "there; auto (default): thin for 2 x m and m x 2 with m > 13, else grid",
    )
    p.add_argument(
        "--variant",
        default="nonogram",
        help="nonogram (default) or yesnogram: row clues count the runs of 0s, column clues the runs of 1s "
        "(OEIS A385862; symmetry flips or none)",
    )
    p.add_argument(
        "--thin-rows",
        choices=["table", "word"],
        default="table",
        help="how the thin counter updates the first row: its subset-OR table (default) or the word line "
        "solver, like the second row (an independent code path for cross-checks)",
    )
    p.add_argument(
        "--checkpoint-dir",
        help=f"where shard records are kept (default: ${ENV_DIR} or {default_dir()})",
    )
    p.add_argument("--shard", metavar="K/N", help="count only shard group K of N (shards s with s %% N == K)")
    p.add_argument("--shard-bits", type=int, default=None, help="split into 2^B shards (default: automatic)")
    p.add_argument("--fresh", action="store_true", help="discard this run's checkpoint and start over")
    p.add_argument("--log", metavar="FILE", help="append the log of every shard (all processes) to FILE")
    p.add_argument(
        "--force", action="store_true", help="start even when the estimated time is more than a year on the cores given"
    )
    add_cluster_options(p)
    p.add_argument("--version", action="version", version=f"localcount {__version__}")
    return p


#: Options that take a value: a negative number after one of them is that value.
_VALUED = {
    "-j", "--jobs", "--checkpoint-dir", "--shard", "--shard-bits", "--log", "--symmetry", "--scheduler", "--dask-local",
    "--method", "--thin-rows", "--variant",
}  # fmt: skip


def split_argv(argv) -> tuple:
    """(argv without negative sizes, the negative sizes): argparse would take them for options."""
    rest, negatives = [], []
    for i, a in enumerate(argv):
        if re.fullmatch(r"-\d+", a) and not (i and argv[i - 1] in _VALUED):
            negatives.append(a)
        else:
            rest.append(a)
    return rest, negatives


def main(argv) -> int:
    """The count command; returns the exit status."""
    rest, negatives = split_argv(argv)
    args = parser().parse_args(rest)
    try:
        if negatives:
            raise UsageError(f"size must be non-negative, got {negatives[0]}")
        tokens = args.size if args.size else sys.stdin.read().split()
        n, m = parse_size(tokens)
        check_jobs(args.jobs)
        group = _parse_group(args.shard)
        lay = _layout(n, m, args)
        dask = cluster_args(args)
    except UsageError as err:
        say(f"error: {err}")
        return 2
    try:
        return _run(lay, group, args, dask)
    except KeyboardInterrupt:
        say("interrupted")
        return 130


def _parse_group(text):
    if text is None:
        return None
    try:
        return parse_group(text)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _explicit(args, group=None, dask=None) -> bool:
    """True if the options ask for a sharded, checkpointed run whatever its size."""
    return bool(args.checkpoint_dir or group or args.fresh or args.shard_bits is not None or dask)


def _layout(n, m, args):
    """The layout of the run (``engines.registry.count_layout``); UsageError if the options do not fit."""
    symmetry = "none" if args.no_symmetry else args.symmetry
    checkpointed = _explicit(args, args.shard, args.scheduler or args.dask_local)
    try:
        return registry.count_layout(n, m, args.method, symmetry, args.shard_bits, args.thin_rows, checkpointed, args.variant)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _run(lay, group, args, dask=None) -> int:
    try:
        setup_logging(args.log, args.quiet)
    except OSError as err:
        say(f"error: cannot write the log file {args.log}: {err.strerror}")
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    if dask is not None:
        jobs = dask[1] or jobs  # for the estimate; the cluster's own size is read once connected
    explicit = _explicit(args, group, dask)
    est = None  # expected wall time on `jobs` cores
    compiling = f"compiling the kernels for {lay.n}x{lay.m} (once: they are cached on disk for later runs)"
    if lay.n * lay.m > NO_ESTIMATE_CELLS:
        # One thread, no numba thread pool: the parent may still fork workers.
        with said_if_slow(compiling, args.quiet):
            lay.warm(parallel=False)
        one_core = lay.estimate_one_core()
        est = None if one_core is None else one_core / jobs
    if est is not None and est > REFUSE_SECONDS and not (args.force or group or dask):
        say(
            f"error: {lay.n}x{lay.m} is 2^{lay.n * lay.m} grids; estimated time {format_seconds(est)} on {jobs} "
            "processes, more than a year: count it in pieces with --shard K/N on many machines, on a Dask "
            "cluster with --scheduler ADDRESS, or start anyway with --force"
        )
        return 2
    if explicit or (est is not None and est >= CHECKPOINT_SECONDS):
        return _run_sharded(lay, group or (0, 1), jobs, est, args, dask)
    with said_if_slow(compiling.replace("the kernels", "the threaded kernels"), args.quiet):
        lay.warm(parallel=True)
    return _run_in_process(lay, jobs, est, args.quiet)


def _grids(lay) -> str:
    """'grids', or 'yesnogram grids' for a yesnogram run."""
    return "grids" if lay.variant == "nonogram" else f"{lay.variant} grids"


def _announce(lay, est, jobs: int, fraction: float = 1.0, what: str = "threads") -> None:
    if est is not None and est * fraction > ANNOUNCE_SECONDS:
        say(f"{lay.n}x{lay.m} is 2^{lay.n * lay.m} grids; estimated time {format_seconds(est * fraction)} on {jobs} {what}")


def _run_in_process(lay, jobs: int, est, quiet: bool) -> int:
    """A short run in this process: the count on stdout, a summary on stderr."""
    n, m = lay.n, lay.m
    _announce(lay, est, jobs)
    progress_bar = bar(lay.shards * lay.grids_per_shard, f"{n}x{m}", quiet)
    start = time.perf_counter()
    with progress_bar:
        total, threads = lay.in_process(jobs, lambda grids: progress_bar.update(grids - progress_bar.n), est)
    print(total, flush=True)
    if not quiet:
        method = f" ({lay.method} method)" if lay.method else ""
        say(
            f"{n}x{m}: {total} of 2^{n * m} {_grids(lay)} locally solvable{method}; "
            f"{time.perf_counter() - start:.2f} s on {threads} thread{'s' if threads != 1 else ''}"
        )
    return 0


def _run_sharded(lay, group, jobs: int, est, args, dask=None) -> int:
    n, m = lay.n, lay.m
    directory = args.checkpoint_dir or default_dir()
    one_core = None if est is None else est * jobs  # est is the wall time on `jobs` cores
    start = time.perf_counter()
    try:
        with workers(dask, jobs) as pool:
            jobs, what = pool.jobs, pool.what
            progress_bar = bar(len(group_shards(lay, *group)) * lay.grids_per_shard, f"{n}x{m}", args.quiet)

            def progress(grids):
                progress_bar.update(grids - progress_bar.n)

            def announce(todo, shards):
                _announce(lay, None if one_core is None else one_core / jobs, jobs, todo / lay.shards, what)

            with progress_bar:
                out = run(lay, directory, jobs, group, args.fresh, progress, announce, pool.execute(lay, one_core))
    except Stopped as stop:
        return report_stop(stop)
    except (CheckpointError, ClusterError) as err:
        say(f"error: {err}")
        return 1
    wall = time.perf_counter() - start
    print(out.total, flush=True)
    if args.quiet:
        return 0
    reused = out.shards - out.computed
    where = f"; {reused} of {out.shards} shards from the checkpoint" if reused else ""
    if group != (0, 1):
        say(
            f"{n}x{m}: {out.total} is the count of shard group {group[0]}/{group[1]} only ({out.shards} of "
            f"{lay.shards} shards, recorded in {out.path}); add up all groups with: python -m localcount merge DIR..."
        )
    else:
        say(f"{n}x{m}: {out.total} of 2^{n * m} {_grids(lay)} locally solvable")
    say(f"{wall:.2f} s on {jobs} {what}{where}; checkpoint {out.path}")
    return 0
