"""What every command shares: usage errors, sizes, the worker pool (local or Dask), progress bars, stops.

The rules live here once: a size is one or two whole numbers (``parse_size``);
bad input is a ``UsageError``, said in one line with exit status 2; a run
that stops reports how to resume and exits with ``Stopped.exit_status`` (1,
or 128 + the signal); runs go to local worker processes or to a Dask cluster
through ``Workers``.  Imported by the commands that count (numpy, no numba).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import threading
import time

from ..engines.base import check_size
from ..orchestration import cluster
from ..util.messages import say


class UsageError(Exception):
    """Bad input: reported as one line on stderr with exit status 2."""


def parse_size(tokens) -> tuple:
    """(n, m) from one or two integer tokens; one number means a square; UsageError if not a size the counters take."""
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
    try:
        check_size(n, m)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return n, m


def check_jobs(jobs) -> None:
    """UsageError unless ``--jobs`` is unset or positive."""
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """--scheduler and --dask-local: shards as Dask tasks (``orchestration.cluster``) instead of local processes."""
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


class Workers:
    """Where a command's runs go: ``jobs`` local processes, or a Dask ``client``'s cluster."""

    def __init__(self, jobs: int, client=None):
        self.client = client
        self.jobs = cluster.threads(client) if client else jobs  # recorded as the run's processes
        self.what = "Dask worker threads" if client else "processes"

    def execute(self, lay, one_core=None):
        """``runner.run``'s execute: None for local processes, else Dask tasks (sized from one core's seconds)."""
        if self.client is None:
            return None
        return cluster.executor(self.client, cluster.shard_seconds(lay, one_core))


@contextlib.contextmanager
def workers(dask, jobs: int):
    """Workers for a whole command: one Dask client for every run, if ``dask`` (``cluster_args``) asks for one."""
    if dask is None:
        yield Workers(jobs)
        return
    with cluster.connect(*dask) as client:
        yield Workers(jobs, client)


def bar(total: int, desc: str, quiet: bool):
    """A tqdm progress bar on stderr, in grids; silent when quiet or when stderr is not a terminal."""
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit="grid",
        unit_scale=True,
        file=sys.stderr,
        disable=quiet or not sys.stderr.isatty(),
        desc=desc,
    )


@contextlib.contextmanager
def said_if_slow(message: str, quiet: bool, seconds: float = 1.0):
    """Say ``message`` once the block has taken ``seconds`` (a compile, say), and then how long it took."""
    said = threading.Event()

    def announce():
        said.set()
        say(message)

    timer = threading.Timer(seconds, announce)
    timer.daemon = True
    if not quiet:
        timer.start()
    start = time.perf_counter()
    try:
        yield
    finally:
        timer.cancel()
        if said.is_set():
            say(f"done in {time.perf_counter() - start:.1f} s")


def report_stop(stop) -> int:
    """Say how a sharded run stopped and how to resume it; its exit status (130 / 143 for signals, else 1)."""
    what = f"interrupted by {stop}" if hasattr(stop, "signum") else f"error: {stop}"
    say(f"{what}; {stop.saved} of {stop.shards} shards are saved in {stop.path}; run the same command again to resume")
    return stop.exit_status
