"""The way down from the API to a layout's run: ``launch(lay, how)``, the one entry of every enumeration.

``how`` (``RunOptions``, every option checked by ``api.counting.run_options``) brings the run's concerns,
each made once up there and handed down here as one object: ``feedback``, what the run may say on stderr
(the caller's object: ``notices``, ``quiet``, ``estimates``, ``progress_bar(total, desc)`` and
``slow(message)``, a block that says so once it takes a second); ``budget`` (``budget.Budget`` of
``--max-seconds``, handed to the runner).  A GPU count's sample watch is made here, in one step
(``verify.watch``), and handed to the runner too.

``launch`` goes down in steps: it warms the layout and estimates it (``warm_and_estimate``, the one place),
refuses a run estimated at over ``REFUSE_SECONDS`` (unless forced, a shard group, Dask or a budget), then
runs it: in this process (``Layout.in_process``, the engine's threads) when it is short and nothing asked
for a checkpoint, else shard by shard (``runner.run``, each shard ``Layout.compute``) over
``cluster.workers`` (local processes or a Dask client), recorded in its checkpoint.

Imports ``runner``, ``checkpoint``, ``groups``, ``verify`` and ``cluster`` when a run needs them, and
``util``; nothing of the API.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass

from .. import tuning
from ..util.errors import UsageError
from ..util.messages import format_seconds, say

#: Sizes expected to take longer than this say their estimated time first.
ANNOUNCE_SECONDS = 60.0
#: Runs expected to take longer than this on the cores given are refused without ``force`` (or a shard group, or Dask).
REFUSE_SECONDS = 365 * 86400.0


@dataclass(frozen=True)
class RunOptions:
    """How a run of every grid goes, every option checked (``api.counting.run_options``); ``launch`` reads it."""

    n: int
    m: int
    jobs: int  # worker processes or threads (default: every usable core)
    group: tuple | None  # the shard group (K, N), if one was asked for
    dask: tuple | None  # (scheduler, local workers) of a Dask run, else None
    feedback: object  # what the run may say on stderr (``api.feedback.Feedback``)
    budget: object  # ``budget.Budget`` of ``max_seconds``, or None
    checkpointed: bool  # asked for a checkpoint (a directory, a shard group, a fresh start, shards, Dask, a budget)
    checkpoint_dir: str | os.PathLike | None = None
    fresh: bool = False
    force: bool = False


@dataclass(frozen=True)
class Enumeration:
    """How a run of every grid of a size went (``launch``): the layout's total, time and workers."""

    layout: object  # the run's engines.base.Layout
    total: object  # the layout's total: an int for a count, a vector for stats (``layout.finish`` reads it)
    seconds: float  # wall time of the run
    workers: int  # threads (in process), processes or Dask worker threads
    what: str  # 'thread(s)', 'processes' or 'Dask worker threads'
    feedback: object  # what the run may say on stderr
    group: tuple = (0, 1)  # the shard group K of N
    shards: int = 0  # shards of the group (0: run in this process, no checkpoint)
    computed: int = 0  # shards run this time (the rest came from the checkpoint)
    checkpoint: str | None = None  # the checkpoint file
    left: int = 0  # shards of the group not run yet: ``max_seconds`` ended the run (``total`` is partial)
    max_seconds: float | None = None  # the run's budget, if it had one
    sample: object = None  # ``verify.Comparison``: the sample recounted by another engine, if any


def launch(lay, how: RunOptions) -> Enumeration:
    """Run every grid of the layout ``lay`` (``engines.base.Layout``: a count, stats or a sample) as ``how`` says.

    A run expected to take ``tuning.CHECKPOINT_SECONDS`` or more (a size of over ``tuning.NO_ESTIMATE_CELLS`` cells
    whose layout cannot estimate is taken to), or ``how.checkpointed``, is sharded over ``how.jobs`` worker
    processes and recorded in its checkpoint (resumed if it has one); shorter ones run in this process on
    ``how.jobs`` threads.  A run estimated at over ``REFUSE_SECONDS`` is refused unless ``force``, a shard
    group, Dask or a budget; a shard group is for counts only (UsageError).  With a ``max_seconds`` budget a
    sharded run takes a shard only while it is expected to end within the budget, then returns with ``left``
    shards missing (``budget``).
    """
    if how.group and lay.kind != "count":
        raise UsageError(f"shard groups are for counts, not {lay.kind}: their values add up only over every shard")
    jobs = how.jobs
    if lay.in_parent and how.dask is None:
        jobs = 1  # one device, driven from this process (a GPU): its estimate is the device's time
    if how.dask is not None:
        jobs = how.dask[1] or jobs  # for the estimate; the cluster's own size is read once connected
    est, long, threads = warm_and_estimate(lay, jobs, how.feedback)
    if est is not None and est > REFUSE_SECONDS and not (how.force or how.group or how.dask or how.budget):
        pieces = "count it in pieces with --shard K/N on many machines, " if lay.kind == "count" else "run it "
        raise UsageError(
            f"{lay.what()}; estimated time {format_seconds(est)} on {jobs} "
            f"processes, more than a year ({_day_reach(lay, est)}): {pieces}on a Dask cluster with --scheduler "
            "ADDRESS, or start anyway with --force"
        )
    if not (how.checkpointed or long):
        if threads > 1:
            with how.feedback.slow(_compiling(lay, "the threaded kernels")):
                lay.warm(parallel=True)
        return _run_in_process(lay, threads, None if est is None else est * jobs / threads, how.feedback)
    return _run_sharded(lay, how, jobs, est)


def warm_and_estimate(lay, jobs: int, feedback) -> tuple:
    """(expected wall time on ``jobs`` cores or None, expected to take ``tuning.CHECKPOINT_SECONDS`` or more,
    threads of an in-process run): a size of over ``tuning.NO_ESTIMATE_CELLS`` cells is warmed (compiled, on
    one thread), estimated, and tuned (``Layout.tune``: the speed choices a run of that length pays for, such
    as measuring the CPU's kernel variant, said in one line); smaller ones are none of these, and short."""
    if lay.n * lay.m <= tuning.NO_ESTIMATE_CELLS:
        return None, False, jobs
    # One thread, no numba thread pool: the parent may still fork workers.
    with feedback.slow(_compiling(lay)):
        lay.warm(parallel=False)
    one_core = lay.estimate_one_core()
    threads = lay.tune(one_core, jobs, lambda line: None if feedback.quiet else say(line))
    est = None if one_core is None else one_core / jobs
    return est, est is None or est >= tuning.CHECKPOINT_SECONDS, threads


def _compiling(lay, what: str = "the kernels") -> str:
    return f"compiling {what} for {lay.n}x{lay.m} (once: they are cached on disk for later runs)"


def _day_reach(lay, est: float) -> str:
    """What a day does at the estimated rate: 'a day here does about 2^k grids, e.g. AxB' (the squarest size of at
    most k cells)."""
    cells = max(1, lay.n * lay.m - max(0, math.ceil(math.log2(est / 86400))))
    n = math.isqrt(cells)
    return f"a day here does about 2^{cells} grids, e.g. {n}x{cells // n}"


def _announce(lay, est, jobs: int, feedback, fraction: float = 1.0, what: str = "threads") -> None:
    if feedback.estimates and est is not None and est * fraction > ANNOUNCE_SECONDS:
        say(f"{lay.what()}; estimated time {format_seconds(est * fraction)} on {jobs} {what}")


def _label(lay) -> str:
    """The progress bar's name of a run: '5x5', or '5x5 stats' for a layout that is not a count."""
    return f"{lay.n}x{lay.m}" + ("" if lay.kind == "count" else f" {lay.kind}")


def _run_in_process(lay, jobs: int, est, feedback) -> Enumeration:
    """A short run in this process."""
    _announce(lay, est, jobs, feedback)
    progress_bar = feedback.progress_bar(lay.shards * lay.grids_per_shard, _label(lay))
    start = time.perf_counter()
    with progress_bar:
        total, threads = lay.in_process(jobs, lambda grids: progress_bar.update(grids - progress_bar.n), est)
    what = f"thread{'s' if threads != 1 else ''}"
    return Enumeration(lay, total, time.perf_counter() - start, threads, what, feedback)


def _run_sharded(lay, how: RunOptions, jobs: int, est) -> Enumeration:
    """A sharded run, recorded shard by shard in its checkpoint (resumed if it has one)."""
    from . import verify
    from .checkpoint import default_dir
    from .cluster import workers
    from .groups import group_shards
    from .runner import run

    directory = how.checkpoint_dir or default_dir()
    group, feedback, budget = how.group or (0, 1), how.feedback, how.budget
    one_core = None if est is None else est * jobs  # est is the wall time on `jobs` cores
    if budget is not None:
        budget.one_core = one_core
    watch = verify.watch(lay, directory)
    start = time.perf_counter()
    with workers(how.dask, jobs) as pool:
        jobs, what, execute = pool.jobs, pool.what, pool.execute(lay, one_core)
        progress_bar = feedback.progress_bar(len(group_shards(lay, *group)) * lay.grids_per_shard, _label(lay))

        def progress(grids):
            progress_bar.update(grids - progress_bar.n)

        def announce(todo, shards):  # the time the rest of the run needs, whatever this run's budget
            _announce(lay, None if one_core is None else one_core / jobs, jobs, feedback, todo / lay.shards, what)

        with progress_bar:
            out = run(lay, directory, jobs, group, how.fresh, progress, announce, execute, budget, watch=watch)
    return Enumeration(lay, out.total, time.perf_counter() - start, jobs, what, feedback, group, out.shards,
                       out.computed, out.path, out.left, None if budget is None else budget.seconds, out.sample)  # fmt: skip
