"""Counting from Python: ``count`` (one number) and ``run_count`` (the number and how the run went).

The command line's count is ``run_count`` with its options: the same
engine choice (``engines.registry.count_layout``), the same shards,
checkpoint keys and files, so a run started from Python resumes from the
command line and the other way round.  Runs expected to take a second or
more (or asked for a checkpoint, a shard group, shard bits, a fresh start
or Dask) are sharded and checkpointed; shorter ones run in this process.

Errors: ``UsageError`` (bad input, one line), ``CheckpointError``,
``ClusterError``, ``Stopped`` (interrupted or a worker died: every finished
shard is kept, the same call resumes).  Nothing is printed on stdout.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..util.errors import UsageError
from ..util.messages import format_seconds, say
from .feedback import Feedback, said_if_slow, workers

#: Sizes expected to take longer than this say their estimated time first.
ANNOUNCE_SECONDS = 60.0
#: Runs expected to take less than this skip shards and checkpoints.
CHECKPOINT_SECONDS = 1.0
#: Sizes with at most this many cells are not estimated: they take well under a second.
NO_ESTIMATE_CELLS = 20
#: Runs expected to take longer than this on the cores given are refused without ``force`` (or a shard group, or Dask).
REFUSE_SECONDS = 365 * 86400.0


@dataclass(frozen=True)
class CountRun:
    """How a count went: the number, what counted it, and where it is recorded."""

    n: int
    m: int
    variant: str
    total: int  # the count (of the shard group only, when ``group`` is not (0, 1))
    method: str  # the counter's name in messages when it is not the general kernel ('thin', 'tiny'), else ''
    seconds: float  # wall time of the count
    workers: int  # threads (in process), processes or Dask worker threads
    what: str  # 'thread(s)', 'processes' or 'Dask worker threads'
    group: tuple = (0, 1)  # the shard group K of N
    shards: int = 0  # shards of the group (0: counted in this process, no checkpoint)
    layout_shards: int = 0  # shards of the whole run
    computed: int = 0  # shards counted by this run (the rest came from the checkpoint)
    checkpoint: str | None = None  # the checkpoint file


def size(n, m=None) -> tuple:
    """(n, m) for a size given as n (a square) or n, m; UsageError unless the counters take it."""
    from ..engines.base import check_size

    m = n if m is None else m
    try:
        check_size(n, m)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return int(n), int(m)


def check_jobs(jobs) -> None:
    """UsageError unless ``jobs`` is unset or a positive integer."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise UsageError(f"--jobs must be at least 1, got {jobs}")


def dask_target(scheduler=None, dask_local=None):
    """(scheduler, local workers) if the run goes to Dask, else None; UsageError if ``dask_local`` is not positive."""
    if dask_local is not None and (isinstance(dask_local, bool) or not isinstance(dask_local, int) or dask_local < 1):
        raise UsageError(f"--dask-local must be at least 1, got {dask_local}")
    if scheduler is not None and dask_local is not None:
        raise UsageError("give a scheduler or a local Dask cluster, not both")
    if scheduler is None and dask_local is None:
        return None
    return scheduler, dask_local


def shard_group(shard):
    """(K, N) from 'K/N' or a pair, or None; UsageError if it is not a group."""
    from ..orchestration.groups import parse_group

    if shard is None:
        return None
    text = shard if isinstance(shard, str) else "/".join(map(str, shard)) if isinstance(shard, (tuple, list)) else repr(shard)
    try:
        return parse_group(text)
    except ValueError as err:
        raise UsageError(str(err)) from None


def count(
    n: int,
    m: int | None = None,
    *,
    variant: str = "nonogram",
    jobs: int | None = None,
    checkpoint_dir: str | os.PathLike | None = None,
    progress: bool = False,
    **options,
) -> int:
    """The number of n×m grids (n alone: a square) that local logic solves.

    ``variant="yesnogram"`` counts yesnograms (row clues count runs of 0s).
    ``checkpoint_dir`` records every shard there (resumable; the command
    line's keys and files); ``jobs`` worker processes (default: every core);
    ``progress=True`` draws a bar and says what takes long on stderr.  Further
    options as ``run_count``'s.

    >>> count(2, 5)
    810
    """
    return run_count(n, m, variant=variant, jobs=jobs, checkpoint_dir=checkpoint_dir, progress=progress, **options).total


def run_count(
    n: int,
    m: int | None = None,
    *,
    variant: str = "nonogram",
    jobs: int | None = None,
    checkpoint_dir: str | os.PathLike | None = None,
    progress: bool = False,
    method: str = "auto",
    symmetry: str = "auto",
    shard: str | tuple | None = None,
    shard_bits: int | None = None,
    fresh: bool = False,
    force: bool = False,
    thin_rows: str = "table",
    scheduler: str | None = None,
    dask_local: int | None = None,
    log: str | os.PathLike | None = None,
    feedback: Feedback | None = None,
) -> CountRun:
    """Count n×m (see ``count``) and say how the run went: a ``CountRun``.

    ``method`` auto, grid, thin or tiny; ``symmetry`` auto, flips, square or
    none (independent code paths for cross-checks); ``shard`` 'K/N' counts
    shard group K of N only (add the groups up with ``merge``);
    ``shard_bits`` splits into 2^B shards; ``fresh`` discards the run's
    checkpoint; ``force`` starts a run estimated at over a year;
    ``scheduler`` (an address) or ``dask_local`` (N workers) runs the shards
    as Dask tasks; ``log`` appends every shard's log to a file.
    """
    from ..engines import registry
    from ..orchestration.runner import setup_logging

    n, m = size(n, m)
    check_jobs(jobs)
    group = shard_group(shard)
    dask = dask_target(scheduler, dask_local)
    feedback = feedback or Feedback.library(progress)
    checkpointed = bool(checkpoint_dir or group or fresh or shard_bits is not None or dask)
    try:
        lay = registry.count_layout(n, m, method, symmetry, shard_bits, thin_rows, checkpointed, variant)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if log is not None or feedback.logging:  # the command line configures logging; the library only when asked
        try:
            setup_logging(log, feedback.quiet)
        except OSError as err:
            raise UsageError(f"cannot write the log file {log}: {err.strerror}") from None
    return _run(lay, group, jobs or os.cpu_count() or 1, checkpointed, checkpoint_dir, fresh, force, dask, feedback)


def _run(lay, group, jobs: int, checkpointed: bool, directory, fresh: bool, force: bool, dask, feedback) -> CountRun:
    if lay.in_parent and dask is None:
        jobs = 1  # one device, driven from this process (a GPU): its estimate is the device's time
    if dask is not None:
        jobs = dask[1] or jobs  # for the estimate; the cluster's own size is read once connected
    est = None  # expected wall time on `jobs` cores
    compiling = f"compiling the kernels for {lay.n}x{lay.m} (once: they are cached on disk for later runs)"
    if lay.n * lay.m > NO_ESTIMATE_CELLS:
        # One thread, no numba thread pool: the parent may still fork workers.
        with said_if_slow(compiling, feedback.quiet):
            lay.warm(parallel=False)
        one_core = lay.estimate_one_core()
        est = None if one_core is None else one_core / jobs
    if est is not None and est > REFUSE_SECONDS and not (force or group or dask):
        raise UsageError(
            f"{lay.n}x{lay.m} is 2^{lay.n * lay.m} grids; estimated time {format_seconds(est)} on {jobs} "
            "processes, more than a year: count it in pieces with --shard K/N on many machines, on a Dask "
            "cluster with --scheduler ADDRESS, or start anyway with --force"
        )
    if checkpointed or (est is not None and est >= CHECKPOINT_SECONDS):
        return _run_sharded(lay, group or (0, 1), jobs, est, directory, fresh, dask, feedback)
    with said_if_slow(compiling.replace("the kernels", "the threaded kernels"), feedback.quiet):
        lay.warm(parallel=True)
    return _run_in_process(lay, jobs, est, feedback)


def _announce(lay, est, jobs: int, feedback: Feedback, fraction: float = 1.0, what: str = "threads") -> None:
    if feedback.estimates and est is not None and est * fraction > ANNOUNCE_SECONDS:
        say(f"{lay.n}x{lay.m} is 2^{lay.n * lay.m} grids; estimated time {format_seconds(est * fraction)} on {jobs} {what}")


def _result(lay, total, seconds: float, workers: int, what: str, **more) -> CountRun:
    return CountRun(lay.n, lay.m, lay.variant, int(total), lay.method, seconds, workers, what, **more)


def _run_in_process(lay, jobs: int, est, feedback: Feedback) -> CountRun:
    """A short run in this process."""
    _announce(lay, est, jobs, feedback)
    progress_bar = feedback.progress_bar(lay.shards * lay.grids_per_shard, f"{lay.n}x{lay.m}")
    start = time.perf_counter()
    with progress_bar:
        total, threads = lay.in_process(jobs, lambda grids: progress_bar.update(grids - progress_bar.n), est)
    what = f"thread{'s' if threads != 1 else ''}"
    return _result(lay, total, time.perf_counter() - start, threads, what)


def _run_sharded(lay, group, jobs: int, est, directory, fresh: bool, dask, feedback: Feedback) -> CountRun:
    """A sharded run, recorded shard by shard in its checkpoint (resumed if it has one)."""
    from ..orchestration.checkpoint import default_dir
    from ..orchestration.groups import group_shards
    from ..orchestration.runner import run

    directory = directory or default_dir()
    one_core = None if est is None else est * jobs  # est is the wall time on `jobs` cores
    start = time.perf_counter()
    with workers(dask, jobs) as pool:
        jobs, what = pool.jobs, pool.what
        progress_bar = feedback.progress_bar(len(group_shards(lay, *group)) * lay.grids_per_shard, f"{lay.n}x{lay.m}")

        def progress(grids):
            progress_bar.update(grids - progress_bar.n)

        def announce(todo, shards):
            _announce(lay, None if one_core is None else one_core / jobs, jobs, feedback, todo / lay.shards, what)

        with progress_bar:
            out = run(lay, directory, jobs, group, fresh, progress, announce, pool.execute(lay, one_core))
    return _result(lay, out.total, time.perf_counter() - start, jobs, what, group=group, shards=out.shards,
                   layout_shards=lay.shards, computed=out.computed, checkpoint=out.path)  # fmt: skip
