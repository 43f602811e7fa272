"""Counting from Python: ``count`` (one number), ``run_count`` (the number and how the run went), and
``run_options``, the door of the one enumeration of every grid of a size (``orchestration.launch``) behind
a count, its stats and a sample.

The route from ``lc.count`` to the kernel, each step once:

1. ``count`` -> ``run_count``, which checks the size and every option once (``run_options``, the door:
   ``size``; the budget, ``make_budget``, and the feedback are made here, the log opened);
2. ``engines.registry.count_layout`` picks the engine and makes its layout, whose ``make`` checks its own
   arguments (for direct callers) and chooses the symmetry group: ``engines.base.variant_group`` ->
   ``symmetry_group`` turns ``auto`` into ``square`` (the square's 8 symmetries, n = m >= 2) or ``flips``
   (the others, and every yesnogram), and ``none`` into every grid: e.g. ``engines.grid.layout.GridLayout``;
3. ``run_count`` hands the layout down to ``orchestration.launch.launch``, which does the rest downward:
   it warms, estimates and tunes the layout (``warm_and_estimate``: ``Layout.warm``, ``estimate_one_core``,
   ``tune``, where a grid count of 20 minutes or more measures this CPU's kernel variant first and one under
   half a second takes one thread), then runs it in this process
   (``Layout.in_process``: for the grid, ``engines.grid.count.count_threaded`` -> ``count`` ->
   ``count_shards``, the engine's threads or the serial kernel) or shard by shard (``orchestration.runner.run`` with its
   checkpoint, the budget and a GPU count's sample watch; each shard ``Layout.compute``:
   ``engines.grid.count.count_shard``);
4. the grid's ``count_shard(s)`` run the kernel generated for the size (``engines.grid.specialize``, the
   variant of ``engines.grid.choice``: "lanes" until measured; the square's group has entry points of its own)
   or, for sizes of under ``tuning.GRID_SPECIALIZE_MIN_CELLS`` cells or without one, the plain
   ``engines.grid.kernel``.

Below the layout nothing checks the size again.

The command line's count is ``run_count`` with its options: the same
engine choice (``engines.registry.count_layout``), the same shards,
checkpoint keys and files, so a run started from Python resumes from the
command line and the other way round.  Runs expected to take a second or
more (or asked for a checkpoint, a shard group, shard bits, a fresh start
or Dask) are sharded and checkpointed; shorter ones run in this process.
``api.stats`` runs the stats layout through the same ``launch``:
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

from ..util import cores
from ..util.errors import UsageError, usage_errors
from .feedback import Feedback


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
    ``fresh``, ``scheduler``, ``dask_local``, ``log``, ``max_seconds``, ``idle``):
    ``run_options`` and ``orchestration.launch``.  A run stopped by ``max_seconds`` returns with
    ``left`` > 0 and the partial ``total`` of the shards counted so far.
    """
    from ..engines import registry
    from ..orchestration.launch import launch

    how = run_options(n, m, shard=shard, sharded=shard_bits is not None, force=force, **options)
    with usage_errors():
        lay = registry.count_layout(how.n, how.m, method, symmetry, shard_bits, thin_rows, how.checkpointed, variant)
    out = launch(lay, how)
    total = int(lay.finish(out.total)) if not out.left else int(out.total)  # partial: not checked as a whole
    return CountRun(lay.n, lay.m, lay.variant, total, lay.method, out.seconds, out.workers, out.what, out.group,
                    out.shards, lay.shards if out.shards else 0, out.computed, out.checkpoint, out.left,
                    out.max_seconds, out.sample)  # fmt: skip


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
    idle: bool = False,
):
    """The door of every enumeration: the size and every option checked once (UsageError, one line).

    ``sized(n, m)``: (n, m), checked (default ``size``: what the counters take; a sample takes larger grids).
    A run asked for ``checkpoint_dir``, a shard group (``shard`` 'K/N'), a ``fresh`` start, Dask
    (``scheduler`` or ``dask_local`` N workers), shards (``sharded``) or a ``max_seconds`` budget is
    ``checkpointed``; ``orchestration.launch.launch`` says what the others do.  ``log`` is opened here (every
    shard's log is appended to it; an unwritable file is bad input).  ``idle``: this process and every worker
    it starts run at idle priority from here on (``lower_priority``).  Returns ``orchestration.launch.RunOptions``.
    """
    from ..orchestration.launch import RunOptions

    start = time.monotonic()
    n, m = (sized or size)(n, m)
    budget = make_budget(max_seconds, start)
    check_jobs(jobs)
    group = shard_group(shard)
    dask = dask_target(scheduler, dask_local)
    if budget is not None and dask is not None:
        raise UsageError("--max-seconds is for runs on this machine's processes or GPU, not on Dask")
    checkpointed = bool(checkpoint_dir or group or fresh or sharded or dask or budget)
    feedback = feedback or Feedback.library(progress)
    if idle:
        if dask is not None and dask[0] is not None:
            raise UsageError("--idle lowers this machine's processes; a Dask scheduler's workers run elsewhere: "
                             "start them at idle priority there (chrt -i 0 dask worker ...)")  # fmt: skip
        lower_priority(feedback)
    if log is not None or feedback.logging:  # the command line configures logging; the library when asked
        from ..orchestration.runner import setup_logging

        try:
            setup_logging(log, feedback.quiet)
        except OSError as err:
            raise UsageError(f"cannot write the log file {log}: {err.strerror}") from None
    return RunOptions(n, m, jobs or cores.usable(), group, dask, feedback, budget, checkpointed, checkpoint_dir,
                      fresh, force)  # fmt: skip


def lower_priority(feedback: Feedback) -> None:
    """This process, its threads and every process it starts from now on at idle priority
    (``util.priority.lower``: SCHED_IDLE, nice 19, autogroup nice 19; for the rest of the process's life),
    said in one line when the feedback gives estimates (the command line's first line); the sessions file of
    each run records it."""
    from ..util import priority
    from ..util.messages import say

    idle = priority.lower()
    if feedback.estimates:
        say(idle.line())


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
