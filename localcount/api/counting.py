"""Counting from Python: ``count`` (one number), ``run_count`` (the number and how the run went), and
``run_options`` and ``run_layout``, the one enumeration of every grid of a size behind a count, its stats
and a sample.

The route from ``count`` to the kernel: ``run_count`` checks the size and every option once
(``run_options``, the door: ``size``), picks the engine's layout (``engines.registry.count_layout``, whose
``make`` validates its own arguments for direct callers), and runs it (``run_layout``): in this process
(``Layout.in_process``, the engine's threads) or shard by shard (``orchestration.runner.run``, each shard
``Layout.count``).  Below the layout nothing checks the size again.

The command line's count is ``run_count`` with its options: the same
engine choice (``engines.registry.count_layout``), the same shards,
checkpoint keys and files, so a run started from Python resumes from the
command line and the other way round.  Runs expected to take a second or
more (or asked for a checkpoint, a shard group, shard bits, a fresh start
or Dask) are sharded and checkpointed; shorter ones run in this process.
``api.stats`` runs the stats layout through the same ``run_layout``:
a count and its statistics are one enumeration with two outputs.

Errors: ``UsageError`` (bad input, one line), ``CheckpointError``,
``ClusterError``, ``Stopped`` (interrupted or a worker died: every finished
shard is kept, the same call resumes).  Nothing is printed on stdout.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass

from .. import tuning
from ..util import cores
from ..util.errors import UsageError, usage_errors
from ..util.messages import format_seconds, say
from .feedback import Feedback, said_if_slow, workers

#: Sizes expected to take longer than this say their estimated time first.
ANNOUNCE_SECONDS = 60.0
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
    left: int = 0  # shards of the group not counted yet: the run stopped on its ``max_seconds``; ``total`` is partial
    max_seconds: float | None = None  # the run's budget, if it had one
    sample: object = None  # ``orchestration.verify.Comparison`` of a GPU run: its sample recounted on the CPU so far

    @property
    def complete(self) -> bool:
        """True if every shard of the group is counted (``total`` is the count)."""
        return self.left == 0


def size(n, m=None) -> tuple:
    """(n, m) for a size given as n (a square) or n, m; UsageError unless the counters take it."""
    from ..engines.base import check_size

    m = n if m is None else m
    with usage_errors():
        check_size(n, m)
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
    text = (
        shard
        if isinstance(shard, str)
        else "/".join(map(str, shard))
        if isinstance(shard, (tuple, list))
        else repr(shard)
    )
    with usage_errors():
        return parse_group(text)


def count(n: int, m: int | None = None, **options) -> int:
    """The number of n×m grids (n alone: a square) that local logic solves.

    Raises ``Unfinished`` if a ``max_seconds`` budget ended the run first
    (every counted shard is recorded: the same call resumes; ``run_count``
    returns the partial run instead).

    ``variant="yesnogram"`` counts yesnograms (row clues count runs of 0s).
    ``checkpoint_dir`` records every shard there (resumable; the command
    line's keys and files); ``jobs`` worker processes (default: every core);
    ``progress=True`` draws a bar and says what takes long on stderr.  Further
    options as ``run_count``'s.

    >>> count(2, 5)
    810
    """
    out = run_count(n, m, **options)
    if not out.complete:
        raise Unfinished(out)
    return out.total


class Unfinished(Exception):
    """A count whose ``max_seconds`` ended it before every shard was counted (``run``: its ``CountRun``)."""

    def __init__(self, run):
        super().__init__(f"{run.n}x{run.m}: {run.shards - run.left} of {run.shards} shards counted within "
                         f"{run.max_seconds:g} s, {run.left} left in {run.checkpoint}; the same call resumes")  # fmt: skip
        self.run = run


def run_count(
    n: int,
    m: int | None = None,
    *,
    variant: str = "nonogram",
    method: str = "auto",
    symmetry: str = "auto",
    thin_rows: str = "table",
    shard: str | tuple | None = None,
    shard_bits: int | None = None,
    force: bool = False,
    **options,
) -> CountRun:
    """Count n×m (see ``count``) and say how the run went: a ``CountRun``.

    ``method`` auto, grid, thin or tiny; ``symmetry`` auto, flips, square or
    none (independent code paths for cross-checks); ``shard`` 'K/N' counts
    shard group K of N only (add the groups up with ``merge``);
    ``shard_bits`` splits into 2^B shards; ``force`` starts a run estimated
    at over a year.  How it runs (``jobs``, ``checkpoint_dir``, ``progress``,
    ``fresh``, ``scheduler``, ``dask_local``, ``log``, ``max_seconds``):
    ``run_options`` and ``run_layout``.  A run stopped by ``max_seconds`` returns with
    ``left`` > 0 and the partial ``total`` of the shards counted so far.
    """
    from ..engines import registry

    how = run_options(n, m, shard=shard, sharded=shard_bits is not None, force=force, **options)
    with usage_errors():
        lay = registry.count_layout(how.n, how.m, method, symmetry, shard_bits, thin_rows, how.checkpointed, variant)
    out = run_layout(lay, how)
    total = int(lay.finish(out.total)) if not out.left else int(out.total)  # partial: not checked as a whole
    return CountRun(lay.n, lay.m, lay.variant, total, lay.method, out.seconds, out.workers, out.what, out.group,
                    out.shards, lay.shards if out.shards else 0, out.computed, out.checkpoint, out.left,
                    out.max_seconds, out.sample)  # fmt: skip


@dataclass(frozen=True)
class Enumeration:
    """How a run of every grid of a size went (``run_layout``): the layout's total, time and workers."""

    layout: object  # the run's engines.base.Layout
    total: object  # the layout's total: an int for a count, a vector for stats (``layout.finish`` reads it)
    seconds: float  # wall time of the run
    workers: int  # threads (in process), processes or Dask worker threads
    what: str  # 'thread(s)', 'processes' or 'Dask worker threads'
    feedback: Feedback  # what the run may say on stderr
    group: tuple = (0, 1)  # the shard group K of N
    shards: int = 0  # shards of the group (0: run in this process, no checkpoint)
    computed: int = 0  # shards run this time (the rest came from the checkpoint)
    checkpoint: str | None = None  # the checkpoint file
    left: int = 0  # shards of the group not run yet: ``max_seconds`` ended the run (``total`` is partial)
    max_seconds: float | None = None  # the run's budget, if it had one
    sample: object = None  # ``orchestration.verify.Comparison``: the sample recounted by another engine, if any


@dataclass(frozen=True)
class RunOptions:
    """How a run of every grid goes, every option checked (``run_options``); ``run_layout`` reads it."""

    n: int
    m: int
    jobs: int  # worker processes or threads (default: every usable core)
    group: tuple | None  # the shard group (K, N), if one was asked for
    dask: tuple | None  # (scheduler, local workers) of a Dask run, else None
    feedback: Feedback  # what the run may say on stderr
    budget: object  # ``orchestration.budget.Budget`` of ``max_seconds``, or None
    checkpointed: bool  # asked for a checkpoint (a directory, a shard group, a fresh start, shards, Dask, a budget)
    checkpoint_dir: str | os.PathLike | None = None
    fresh: bool = False
    force: bool = False
    log: str | os.PathLike | None = None


def run_options(
    n: int,
    m: int | None = None,
    *,
    jobs: int | None = None,
    checkpoint_dir: str | os.PathLike | None = None,
    progress: bool = False,
    fresh: bool = False,
    scheduler: str | None = None,
    dask_local: int | None = None,
    log: str | os.PathLike | None = None,
    feedback: Feedback | None = None,
    shard: str | tuple | None = None,
    sharded: bool = False,
    force: bool = False,
    sized=None,
    max_seconds: float | None = None,
) -> RunOptions:
    """The door of every enumeration: the size and every option checked once (UsageError, one line).

    ``sized(n, m)``: (n, m), checked (default ``size``: what the counters take; a sample takes larger grids).
    A run asked for ``checkpoint_dir``, a shard group (``shard`` 'K/N'), a ``fresh`` start, Dask
    (``scheduler`` or ``dask_local`` N workers), shards (``sharded``) or a ``max_seconds`` budget is
    ``checkpointed``; ``run_layout`` says what the others do.
    """
    start = time.monotonic()
    n, m = (sized or size)(n, m)
    budget = make_budget(max_seconds, start)
    check_jobs(jobs)
    group = shard_group(shard)
    dask = dask_target(scheduler, dask_local)
    if budget is not None and dask is not None:
        raise UsageError("--max-seconds is for runs on this machine's processes or GPU, not on Dask")
    checkpointed = bool(checkpoint_dir or group or fresh or sharded or dask or budget)
    return RunOptions(n, m, jobs or cores.usable(), group, dask, feedback or Feedback.library(progress), budget,
                      checkpointed, checkpoint_dir, fresh, force, log)  # fmt: skip


def run_layout(lay, how: RunOptions) -> Enumeration:
    """Run every grid of the layout ``lay`` (``engines.base.Layout``: a count, stats or a sample) as ``how`` says.

    A run expected to take ``tuning.CHECKPOINT_SECONDS`` or more (a size of over ``tuning.NO_ESTIMATE_CELLS`` cells
    whose layout cannot estimate is taken to), or ``how.checkpointed``, is sharded over ``how.jobs`` worker
    processes and recorded in its checkpoint (resumed if it has one); shorter ones run in this process on
    ``how.jobs`` threads.  A run estimated at over ``REFUSE_SECONDS`` is refused unless ``force``, a shard
    group or Dask.  ``log`` appends every shard's log to a file.  With a ``max_seconds`` budget a sharded run
    takes a shard only while it is expected to end within the budget, then returns with ``left`` shards
    missing (``orchestration.budget``).
    """
    from ..orchestration.runner import setup_logging

    if how.group and lay.kind != "count":
        raise UsageError(f"shard groups are for counts, not {lay.kind}: their values add up only over every shard")
    if how.log is not None or how.feedback.logging:  # the command line configures logging; the library when asked
        try:
            setup_logging(how.log, how.feedback.quiet)
        except OSError as err:
            raise UsageError(f"cannot write the log file {how.log}: {err.strerror}") from None
    return _run(lay, how.group, how.jobs, how.checkpointed, how.checkpoint_dir, how.fresh, how.force, how.dask,
                how.feedback, how.budget)  # fmt: skip


def make_budget(max_seconds, start: float | None = None):
    """The ``orchestration.budget.Budget`` of ``max_seconds`` from ``start`` (monotonic), or None if unset;
    UsageError unless it is a positive number."""
    if max_seconds is None:
        return None
    if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float)) or not max_seconds > 0:
        raise UsageError(f"--max-seconds must be a positive number of seconds, got {max_seconds!r}")
    if not math.isfinite(max_seconds):
        return None
    from ..orchestration.budget import Budget

    return Budget(max_seconds, start)


def _run(lay, group, jobs: int, checkpointed: bool, directory, fresh: bool, force: bool, dask, feedback,
         budget=None) -> Enumeration:  # fmt: skip
    if lay.in_parent and dask is None:
        jobs = 1  # one device, driven from this process (a GPU): its estimate is the device's time
    if dask is not None:
        jobs = dask[1] or jobs  # for the estimate; the cluster's own size is read once connected
    est = None  # expected wall time on `jobs` cores
    threads = jobs  # of an in-process run
    long = False  # expected to take ``tuning.CHECKPOINT_SECONDS`` or more
    compiling = f"compiling the kernels for {lay.n}x{lay.m} (once: they are cached on disk for later runs)"
    if lay.n * lay.m > tuning.NO_ESTIMATE_CELLS:
        # One thread, no numba thread pool: the parent may still fork workers.
        with said_if_slow(compiling, feedback.quiet):
            lay.warm(parallel=False)
        one_core = lay.estimate_one_core()
        threads = lay.tune(one_core, jobs, lambda line: None if feedback.quiet else say(line))  # speed choices
        est = None if one_core is None else one_core / jobs
        long = est is None or est >= tuning.CHECKPOINT_SECONDS
    if est is not None and est > REFUSE_SECONDS and not (force or group or dask or budget):
        pieces = "count it in pieces with --shard K/N on many machines, " if lay.kind == "count" else "run it "
        raise UsageError(
            f"{lay.what()}; estimated time {format_seconds(est)} on {jobs} "
            f"processes, more than a year ({_day_reach(lay, est)}): {pieces}on a Dask cluster with --scheduler "
            "ADDRESS, or start anyway with --force"
        )
    if checkpointed or long:
        return _run_sharded(lay, group or (0, 1), jobs, est, directory, fresh, dask, feedback, budget)
    if threads > 1:
        with said_if_slow(compiling.replace("the kernels", "the threaded kernels"), feedback.quiet):
            lay.warm(parallel=True)
    return _run_in_process(lay, threads, None if est is None else est * jobs / threads, feedback)


def _day_reach(lay, est: float) -> str:
    """What a day does at the estimated rate: 'a day here does about 2^k grids, e.g. AxB' (the squarest size of at
    most k cells)."""
    cells = max(1, lay.n * lay.m - max(0, math.ceil(math.log2(est / 86400))))
    n = math.isqrt(cells)
    return f"a day here does about 2^{cells} grids, e.g. {n}x{cells // n}"


def _announce(lay, est, jobs: int, feedback: Feedback, fraction: float = 1.0, what: str = "threads") -> None:
    if feedback.estimates and est is not None and est * fraction > ANNOUNCE_SECONDS:
        say(f"{lay.what()}; estimated time {format_seconds(est * fraction)} on {jobs} {what}")


def _label(lay) -> str:
    """The progress bar's name of a run: '5x5', or '5x5 stats' for a layout that is not a count."""
    return f"{lay.n}x{lay.m}" + ("" if lay.kind == "count" else f" {lay.kind}")


def _run_in_process(lay, jobs: int, est, feedback: Feedback) -> Enumeration:
    """A short run in this process."""
    _announce(lay, est, jobs, feedback)
    progress_bar = feedback.progress_bar(lay.shards * lay.grids_per_shard, _label(lay))
    start = time.perf_counter()
    with progress_bar:
        total, threads = lay.in_process(jobs, lambda grids: progress_bar.update(grids - progress_bar.n), est)
    what = f"thread{'s' if threads != 1 else ''}"
    return Enumeration(lay, total, time.perf_counter() - start, threads, what, feedback)


def _run_sharded(lay, group, jobs: int, est, directory, fresh: bool, dask, feedback: Feedback,
                 budget=None) -> Enumeration:  # fmt: skip
    """A sharded run, recorded shard by shard in its checkpoint (resumed if it has one)."""
    from ..orchestration.checkpoint import default_dir
    from ..orchestration.groups import group_shards
    from ..orchestration.runner import run

    directory = directory or default_dir()
    one_core = None if est is None else est * jobs  # est is the wall time on `jobs` cores
    watch = _sample_watch(lay, directory)
    start = time.perf_counter()
    with workers(dask, jobs) as pool:
        jobs, what = pool.jobs, pool.what
        progress_bar = feedback.progress_bar(len(group_shards(lay, *group)) * lay.grids_per_shard, _label(lay))

        def progress(grids):
            progress_bar.update(grids - progress_bar.n)

        def announce(todo, shards):  # the time the rest of the run needs, whatever this run's budget
            _announce(lay, None if one_core is None else one_core / jobs, jobs, feedback, todo / lay.shards, what)

        if budget is not None:
            budget.one_core = one_core
        with progress_bar:
            out = run(lay, directory, jobs, group, fresh, progress, announce, pool.execute(lay, one_core), budget,
                      watch=watch)  # fmt: skip
    sample = None
    if watch is not None:  # the twin may have recorded more while this ran
        from ..orchestration.verify import check

        sample = check(lay, directory, sorted(watch.sample))
    return Enumeration(lay, out.total, time.perf_counter() - start, jobs, what, feedback, group, out.shards,
                       out.computed, out.path, out.left, None if budget is None else budget.seconds, sample)  # fmt: skip


def _sample_watch(lay, directory):
    """For an engine whose shards another recounts (``Layout.verified_by``, the GPU's): its sample, fixed in the
    checkpoint directory before the first shard is counted, checked against the twin's records now and after each
    sample shard (``orchestration.verify``: a disagreement stops the run); None for the others."""
    if not lay.verified_by:
        return None
    from ..orchestration import verify

    sample = verify.fix_sample(lay, directory)
    verify.check(lay, directory, sample)
    return verify.Watch(lay, directory, sample)
