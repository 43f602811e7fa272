"""Campaigns of short runs: ``verify``, the CPU's recount of the seeded sample of a GPU count's shards.

A count too long for one machine advances in runs of ``max_seconds`` (``run_count``), each resuming the
checkpoint the last one left.  A GPU count's shards are also recounted in part by the general kernel on
the CPU (``orchestration.verify``): ``verify(directory)`` fixes each such run's sample (if the GPU run
has not yet), recounts the sample shards the CPU has not, in that checkpoint directory (within
``max_seconds``, on ``jobs`` processes), and compares every shard both have recorded.  Any difference
raises ``orchestration.verify.Disagreement``, naming the shard; the count command stops on it too.

Nothing is printed on stdout; the command line's ``verify`` prints ``Comparison.line()``.
"""

from __future__ import annotations

import os
import time

from ..util import cores
from ..util.errors import UsageError
from .counting import check_jobs, lower_priority, make_budget
from .feedback import Feedback, said_if_slow


def verify(
    directory: str | os.PathLike,
    *,
    jobs: int | None = None,
    max_seconds: float | None = None,
    recount: bool = True,
    feedback: Feedback | None = None,
    idle: bool = False,
) -> list:
    """The sample comparison (``orchestration.verify.Comparison``) of every run in ``directory`` whose engine is
    verified by another (the GPU's), after recounting the missing sample shards unless ``recount`` is False.

    UsageError if ``directory`` holds no such run; ``Disagreement`` (a ``CheckpointError``) if a sample shard
    differs; ``Stopped`` if interrupted (every recounted shard is kept: the same call resumes).  ``idle``: the
    recount at idle priority (``counting.lower_priority``), for the cores a GPU's process leaves.
    """
    from ..orchestration import verify as verification
    from ..orchestration.checkpoint import find_logs, read_log
    from ..orchestration.runner import run, setup_logging

    start = time.monotonic()
    check_jobs(jobs)
    budget = make_budget(max_seconds, start)
    feedback = feedback or Feedback.library(False)
    if idle:
        lower_priority(feedback)
    if feedback.logging:
        setup_logging(None, feedback.quiet)
    if not os.path.isdir(directory):
        raise UsageError(f"no such checkpoint directory: {directory}")
    layouts = [log.layout for log in map(read_log, find_logs([directory])) if log.layout.verified_by]
    if not layouts:
        raise UsageError(f"{directory} holds no run whose shards another engine recounts (a --method gpu count)")
    out = []
    for lay in layouts:
        sample = verification.fix_sample(lay, directory)
        verification.check(lay, directory, sample)
        if recount:
            twin = verification.twin(lay)
            missing = set(sample) - set(verification.compare(lay, directory, sample).recounted_shards)
            if missing and (budget is None or budget.left() > 0):
                with said_if_slow(f"compiling the kernels for {twin.n}x{twin.m}", feedback.quiet):
                    twin.warm(parallel=False)
                run(twin, directory, jobs or cores.usable(), only=sorted(missing), budget=budget)
        out.append(verification.check(lay, directory, sample))
    return out
