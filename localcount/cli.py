"""Command line: ``python -m localcount [n [m]]`` prints the n×m count on stdout.

The size comes from the arguments or, when there are none, from stdin
(``echo "2 5" | python -m localcount``).  stdout holds the count alone;
progress, the time estimate and a summary line go to stderr.

Runs expected to take a second or more (or given ``--checkpoint-dir``,
``--shard``, ``--shard-bits`` or ``--fresh``) are split into shards counted
by a pool of worker processes and recorded in a checkpoint, so the same
command resumes after any stop.  ``merge`` adds up shard records from several
directories; ``status`` shows what the checkpoints hold; ``table`` counts a
range of sizes into results/ (``table.py``).

Exit status: 0 done; 1 a checkpoint problem, an incomplete merge or an
error; 2 bad input; 130 / 143 interrupted by SIGINT / SIGTERM (progress kept).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import time

from . import __version__
from .checkpoint import ENV_DIR, default_dir
from .report import format_seconds

#: Sizes expected to take longer than this print their estimated time first.
ANNOUNCE_SECONDS = 60.0
#: Aim for progress updates about this often.
BATCH_SECONDS = 3.0
#: Runs expected to take less than this skip shards and checkpoints.
CHECKPOINT_SECONDS = 1.0


class UsageError(Exception):
    """Bad input: reported as one line on stderr with exit status 2."""


def parse_size(tokens) -> tuple:
    """(n, m) from one or two integer tokens; one number means a square."""
    if not tokens:
        raise UsageError("no size given: expected 'n' (a square) or 'n m' (n rows, m columns)")
    if len(tokens) > 2:
        raise UsageError(f"expected one or two numbers (n or n m), got {len(tokens)}: {' '.join(tokens)}")
    sizes = []
    for tok in tokens:
        if not re.fullmatch(r"[+-]?\d+", tok):
            raise UsageError(f"size must be a whole number, got {tok!r}")
        v = int(tok)
        if v < 0:
            raise UsageError(f"size must be non-negative, got {v}")
        sizes.append(v)
    n, m = sizes if len(sizes) == 2 else sizes * 2
    from .count import MAX_CELLS

    if n * m > MAX_CELLS:
        raise UsageError(f"{n}x{m} has {n * m} cells; at most {MAX_CELLS} cells are supported")
    return n, m


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
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
        choices=["auto", "grid", "thin"],
        default="auto",
        help="grid: the general kernel; thin: the counter for 2 x m grids (localcount/thin.py), much faster "
        "there; auto (default): thin for 2 x m and m x 2 with m > 13, else grid",
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
    add_cluster_options(p)
    p.add_argument("--version", action="version", version=f"localcount {__version__}")
    return p


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """--scheduler and --dask-local: shards as Dask tasks (``cluster``) instead of local processes."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count the shards as tasks on the Dask cluster of this scheduler (e.g. tcp://host:8786); "
        "recorded in the same checkpoint as local runs (needs the extra localcount[dask])",
    )
    where.add_argument(
        "--dask-local", type=int, metavar="N", help="count on a Dask LocalCluster of N worker processes on this machine"
    )


def cluster_args(args):
    """(scheduler, local workers) if the run goes to Dask, else None; UsageError if --dask-local is not positive."""
    if args.dask_local is not None and args.dask_local < 1:
        raise UsageError(f"--dask-local must be at least 1, got {args.dask_local}")
    if args.scheduler is None and args.dask_local is None:
        return None
    return args.scheduler, args.dask_local


def _say(msg: str) -> None:
    print(f"localcount: {msg}", file=sys.stderr, flush=True)


#: Options that take a value: a negative number after one of them is that value.
_VALUED = {
    "-j", "--jobs", "--checkpoint-dir", "--shard", "--shard-bits", "--log", "--symmetry", "--scheduler", "--dask-local",
    "--method", "--thin-rows",
}  # fmt: skip


def _split_argv(argv):
    """Pull negative sizes out of argv before argparse takes them for options."""
    rest, negatives = [], []
    for i, a in enumerate(argv):
        if re.fullmatch(r"-\d+", a) and not (i and argv[i - 1] in _VALUED):
            negatives.append(a)
        else:
            rest.append(a)
    return rest, negatives


def main(argv=None) -> int:
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("merge", "status"):
        from . import report

        return report.main(argv[0], argv[1:])
    if argv and argv[0] == "table":
        from . import table

        return table.main(argv[1:])
    if argv and argv[0] in ("solve", "explain", "examples", "convert"):
        from . import puzzlecli

        return puzzlecli.COMMANDS[argv[0]](argv[1:])
    if argv and argv[0] == "stats":
        from . import statscli

        return statscli.main(argv[1:])
    rest, negatives = _split_argv(argv)
    args = _parser().parse_args(rest)
    try:
        if negatives:
            raise UsageError(f"size must be non-negative, got {negatives[0]}")
        tokens = args.size if args.size else sys.stdin.read().split()
        n, m = parse_size(tokens)
        if args.jobs is not None and args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
        group = _parse_group(args.shard)
        lay = _layout(n, m, args)
        dask = cluster_args(args)
    except UsageError as err:
        _say(f"error: {err}")
        return 2
    try:
        return _run(n, m, lay, group, args, dask)
    except KeyboardInterrupt:
        _say("interrupted")
        return 130


def _parse_group(text):
    from .shards import parse_group

    if text is None:
        return None
    try:
        return parse_group(text)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _layout(n, m, args):
    """The shard layout of the run: a grid Layout or, for the thin method, a thin.ThinLayout."""
    from . import thin
    from .shards import layout

    symmetry = "none" if args.no_symmetry else args.symmetry
    try:
        if thin.chosen(n, m, args.method):
            if symmetry == "square":
                raise ValueError("the thin method's symmetry is flips or none, not square")
            group = "none" if symmetry == "none" else "flips"
            return thin.thin_layout(max(n, m), args.shard_bits, args.thin_rows, group)
        return layout(n, m, args.shard_bits, symmetry=symmetry)
    except ValueError as err:
        raise UsageError(str(err)) from None


def _run(n: int, m: int, lay, group, args, dask=None) -> int:
    from .runner import setup_logging

    try:
        setup_logging(args.log, args.quiet)
    except OSError as err:
        _say(f"error: cannot write the log file {args.log}: {err.strerror}")
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    if dask is not None:
        jobs = dask[1] or jobs  # for the estimate; the cluster's own size is read once connected
    explicit = args.checkpoint_dir or group or args.fresh or args.shard_bits is not None or dask
    est = None
    if n * m > 20:
        from .shards import estimate_one_core

        # One thread, no numba thread pool: the parent may still fork workers.
        est = estimate_one_core(lay) / jobs
    if explicit or (est is not None and est >= CHECKPOINT_SECONDS):
        return _run_sharded(lay, group or (0, 1), jobs, est, args, dask)
    from .thin import ThinLayout

    if isinstance(lay, ThinLayout):
        return _run_thin_in_process(lay, args.quiet)
    return _run_in_process(n, m, lay.symmetry, jobs, est, args.quiet)


def _run_thin_in_process(lay, quiet: bool) -> int:
    """A short thin count in this process (one thread): the count on stdout, a summary on stderr."""
    from .thin import count_thin

    start = time.perf_counter()
    total = count_thin(lay.m, lay.rows, lay.symmetry)
    print(total, flush=True)
    if not quiet:
        _say(f"2x{lay.m}: {total} of 2^{2 * lay.m} grids locally solvable (thin method); {time.perf_counter() - start:.2f} s on 1 thread")
    return 0


def _bar(total: int, desc: str, quiet: bool):
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit="grid",
        unit_scale=True,
        file=sys.stderr,
        disable=quiet or not sys.stderr.isatty(),
        desc=desc,
    )


def _announce(n: int, m: int, est, jobs: int, fraction: float = 1.0, what: str = "threads") -> None:
    if est is not None and est * fraction > ANNOUNCE_SECONDS:
        _say(f"{n}x{m} is 2^{n * m} grids; estimated time {format_seconds(est * fraction)} on {jobs} {what}")


def _run_in_process(n: int, m: int, symmetry: str, jobs: int, est, quiet: bool) -> int:
    import numba

    from .count import count, plan

    threads = min(jobs, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(threads)
    p = plan(n, m)
    _announce(n, m, est, threads)
    batch = 64
    if est is not None:
        per_unit = est * threads / p.units  # one thread's seconds per unit
        batch = max(threads, min(p.units, int(threads * BATCH_SECONDS / max(per_unit, 1e-9))))
    bar = _bar(2 ** (n * m), f"{n}x{m}", quiet)
    start = time.perf_counter()
    with bar:
        total = count(n, m, symmetry=symmetry, batch=batch, progress=lambda done, *_: bar.update((done << p.inner_bits) - bar.n))
    print(total, flush=True)
    if not quiet:
        _say(f"{n}x{m}: {total} of 2^{n * m} grids locally solvable; {time.perf_counter() - start:.2f} s on {threads} threads")
    return 0


def report_stop(stop) -> int:
    """Say how a sharded run stopped and how to resume it; its exit status (130 / 143 for signals, else 1)."""
    from .runner import Interrupted

    what = f"interrupted by {stop}" if isinstance(stop, Interrupted) else f"error: {stop}"
    _say(f"{what}; {stop.saved} of {stop.shards} shards are saved in {stop.path}; run the same command again to resume")
    return 128 + stop.signum if isinstance(stop, Interrupted) else 1


def _run_sharded(lay, group, jobs: int, est, args, dask=None) -> int:
    from .checkpoint import CheckpointError
    from .cluster import ClusterError
    from .runner import Stopped, run
    from .shards import group_shards

    n, m = lay.n, lay.m
    directory = args.checkpoint_dir or default_dir()
    one_core = None if est is None else est * jobs  # est is the wall time on `jobs` cores
    what = "processes"
    start = time.perf_counter()
    try:
        with _executor(lay, one_core, dask) as (execute, workers):
            if execute is not None:
                jobs, what = workers, "Dask worker threads"
            bar = _bar(len(group_shards(lay, *group)) * lay.grids_per_shard, f"{n}x{m}", args.quiet)

            def progress(grids):
                bar.update(grids - bar.n)

            def announce(todo, shards):
                _announce(n, m, None if one_core is None else one_core / jobs, jobs, todo / lay.shards, what)

            with bar:
                out = run(lay, directory, jobs, group, args.fresh, progress, announce, execute)
    except Stopped as stop:
        return report_stop(stop)
    except CheckpointError as err:
        _say(f"error: {err}")
        return 1
    except ClusterError as err:
        _say(f"error: {err}")
        return 1
    wall = time.perf_counter() - start
    print(out.total, flush=True)
    if args.quiet:
        return 0
    reused = out.shards - out.computed
    where = f"; {reused} of {out.shards} shards from the checkpoint" if reused else ""
    if group != (0, 1):
        _say(
            f"{n}x{m}: {out.total} is the count of shard group {group[0]}/{group[1]} only ({out.shards} of "
            f"{lay.shards} shards, recorded in {out.path}); add up all groups with: python -m localcount merge DIR..."
        )
    else:
        _say(f"{n}x{m}: {out.total} of 2^{n * m} grids locally solvable")
    _say(f"{wall:.2f} s on {jobs} {what}{where}; checkpoint {out.path}")
    return 0


@contextlib.contextmanager
def _executor(lay, one_core, dask):
    """(execute, worker threads) for runner.run: (None, None) for local processes, Dask tasks if asked."""
    if dask is None:
        yield None, None
        return
    from . import cluster

    with cluster.connect(*dask) as client:
        yield cluster.executor(client, cluster.shard_seconds(lay, one_core)), cluster.threads(client)
