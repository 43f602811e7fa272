"""Random grids from Python: ``sample`` (how many of ``count`` random n×m grids local logic solves) and
``run_sample``.

The command line's ``sample`` is ``run_sample`` with its options.  It is
the count's machinery (``counting.run_options`` and ``orchestration.launch.launch``) with the sample's
layout (``engines.sample``): short samples run in this process, long ones
(or asked for a checkpoint or a fresh start) are sharded over worker
processes and checkpointed, so an interrupted sample resumes.  Every shard
draws its grids from its own random stream (the seed and the shard's
number), so the numbers depend on the seed, not on the processes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..util.errors import UsageError, usage_errors
from ..util.messages import say
from .counting import check_jobs, run_options


@dataclass(frozen=True)
class SampleRun:
    """How a sample went: its ``engines.sample.layout.Sample``, and the run (``orchestration.launch.Enumeration``), whose
    time, workers and checkpoint the properties read."""

    sample: object  # engines.sample.layout.Sample
    run: object = field(repr=False)  # orchestration.launch.Enumeration

    seconds = property(lambda self: self.run.seconds, doc="Wall seconds of the run.")
    where = property(lambda self: f"{self.run.workers} {self.run.what}", doc="E.g. '1 thread' or '2 processes'.")
    shards = property(lambda self: self.run.shards, doc="Shards of a checkpointed run (0: run in this process).")
    from_checkpoint = property(lambda self: self.run.shards - self.run.computed, doc="Shards read back, not run.")
    checkpoint = property(lambda self: self.run.checkpoint, doc="The checkpoint file, or None.")


def sample(n: int, m: int | None = None, *, density: float = 0.5, count: int = 10_000, seed: int = 0, nodes: int = 0,
           **options):  # fmt: skip
    """``count`` random n×m grids (n alone: a square), each cell filled with probability ``density``: how many
    local logic solves (``fraction``, ``interval``: a 95 % Wilson interval), in how many steps (``steps``), and
    how many it cannot start on (``stuck``); with ``nodes`` > 0 also how many are uniquely solvable (``unique``:
    the others searched for a second solution, at most ``nodes`` nodes each; ``undecided``: gave up).  Options
    as ``run_sample``'s.

    >>> s = sample(4, density=0.5, count=2000, seed=1)
    >>> s.grids, 0.74 < s.fraction < 0.82
    (2000, True)
    """
    return run_sample(n, m, density=density, count=count, seed=seed, nodes=nodes, **options).sample


def run_sample(n: int, m: int | None = None, *, density: float = 0.5, count: int = 10_000, seed: int = 0,
               nodes: int = 0, **options) -> SampleRun:  # fmt: skip
    """``sample`` and how the run went (``SampleRun``).  How it runs (``jobs``, ``checkpoint_dir``,
    ``progress``, ``fresh``, ``log``): the count's ``counting.run_options`` and ``orchestration.launch``; UsageError (one line naming
    the argument) for values it cannot take."""
    from ..engines import registry
    from ..orchestration.launch import launch

    if options.get("shard") or options.get("scheduler") or options.get("dask_local"):
        raise UsageError("a sample runs on this machine's processes: no --shard, --scheduler or --dask-local")
    check_jobs(options.get("jobs"))

    def sized(n, m):
        m = n if m is None else m
        with usage_errors():
            registry.engine("sample").make(n, m, density, count, seed, nodes)
        return n, m

    how = run_options(n, m, sized=sized, **options)
    with usage_errors():
        lay = registry.engine("sample").make(how.n, how.m, density, count, seed, nodes)
    out = launch(lay, how)
    if out.feedback.notices and out.computed < out.shards:
        say(f"{out.shards - out.computed} of {out.shards} shards from the checkpoint {out.checkpoint}")
    return SampleRun(out.layout.finish(out.total), out)
