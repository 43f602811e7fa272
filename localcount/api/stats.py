"""Measures beyond the count from Python: ``stats`` (uniqueness, difficulty, stuck grids) and ``run_stats``.

The command line's ``stats`` is ``run_stats`` with its options: sizes up
to ``IN_PROCESS_CELLS`` cells run in this process, larger ones (or asked
for a checkpoint, a fresh start or Dask) are sharded and checkpointed
under the same keys as the command line's runs.  Errors as ``count``'s.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from ..util.errors import UsageError
from ..util.messages import say
from .counting import check_jobs, dask_target, size
from .feedback import Feedback, workers

#: Sizes up to this many cells run in this process without a checkpoint (4x5: about a second).
IN_PROCESS_CELLS = 20
#: ``path`` and ``symmetry`` choices (``engines.stats.prepare.PATHS``; the stats kernel's groups).
PATHS = ("rows", "transposed")
SYMMETRIES = ("flips", "none")


def _mean(hist: dict, total: int) -> float:
    return sum(k * v for k, v in hist.items()) / total if total else 0.0


@dataclass(frozen=True)
class Stats:
    """The measures of one size, from one enumeration of every grid.

    ``solvable``: locally solvable; ``unique``: uniquely solvable (no other
    grid has the same clues); ``stuck``: grids on which local logic deduces
    nothing at all; ``steps`` and ``rounds``: the locally solvable grids by
    difficulty, {steps: grids} (a step is a pass over every row or every
    column, rows first) and {rounds: grids} (every row, then every column).
    """

    n: int
    m: int
    variant: str
    grids: int
    solvable: int
    unique: int
    stuck: int
    steps: dict
    rounds: dict

    @property
    def mean_steps(self) -> float:
        """Mean steps over the locally solvable grids."""
        return _mean(self.steps, self.solvable)

    @property
    def max_steps(self) -> int:
        """Most steps any locally solvable grid needs (0 when there is none)."""
        return max(self.steps, default=0)

    @property
    def mean_rounds(self) -> float:
        """Mean rounds over the locally solvable grids."""
        return _mean(self.rounds, self.solvable)

    @property
    def max_rounds(self) -> int:
        """Most rounds any locally solvable grid needs (0 when there is none)."""
        return max(self.rounds, default=0)

    @classmethod
    def of(cls, measures, variant: str = "nonogram") -> Stats:
        """The API's view of an engine's ``engines.stats.measures.Stats``."""
        return cls(measures.n, measures.m, variant, measures.grids, measures.solvable, measures.unique,
                   measures.stuck_start, {k: v for k, v in enumerate(measures.steps) if v},
                   {k: v for k, v in enumerate(measures.rounds) if v})  # fmt: skip


@dataclass(frozen=True)
class StatsRun:
    """How a stats run went: its ``Stats``, the engine's measures (for the command line's table), time and workers."""

    stats: Stats
    measures: object  # engines.stats.measures.Stats
    seconds: float
    where: str  # e.g. '2 threads' or '2 processes'
    from_checkpoint: int = 0  # shards that came from the checkpoint
    shards: int = 0
    checkpoint: str | None = None


def stats(
    n: int,
    m: int | None = None,
    *,
    variant: str = "nonogram",
    jobs: int | None = None,
    checkpoint_dir: str | os.PathLike | None = None,
    progress: bool = False,
    **options,
) -> Stats:
    """Uniqueness, difficulty (steps, rounds) and stuck grids of every n×m grid (n alone: a square).

    >>> s = stats(3)
    >>> s.solvable, s.unique, s.max_steps
    (384, 384, 3)
    """
    return run_stats(n, m, variant=variant, jobs=jobs, checkpoint_dir=checkpoint_dir, progress=progress, **options).stats


def run_stats(
    n: int,
    m: int | None = None,
    *,
    variant: str = "nonogram",
    jobs: int | None = None,
    checkpoint_dir: str | os.PathLike | None = None,
    progress: bool = False,
    path: str = "rows",
    symmetry: str = "flips",
    depth: int | None = None,
    fresh: bool = False,
    scheduler: str | None = None,
    dask_local: int | None = None,
    feedback: Feedback | None = None,
) -> StatsRun:
    """``stats`` and how the run went (``StatsRun``); ``path`` rows or transposed and ``symmetry`` flips or none
    are independent code paths; ``depth``: shards fix the clues of this many rows."""
    from ..engines import registry

    n, m = size(n, m)
    check_jobs(jobs)
    feedback = feedback or Feedback.library(progress)
    try:
        lay = registry.engine("stats").make(n, m, depth, path, symmetry, variant)
    except ValueError as err:
        raise UsageError(str(err)) from None
    dask = dask_target(scheduler, dask_local)
    jobs = jobs or os.cpu_count() or 1
    start = time.perf_counter()
    if n * m <= IN_PROCESS_CELLS and not (checkpoint_dir or fresh or dask):
        total, threads = lay.in_process(jobs)
        measures = lay.finish(total)
        return StatsRun(Stats.of(measures, lay.variant), measures, time.perf_counter() - start, f"{threads} threads")
    return _sharded(lay, jobs, checkpoint_dir, fresh, dask, feedback, start)


def _sharded(lay, jobs: int, directory, fresh: bool, dask, feedback: Feedback, start: float) -> StatsRun:
    """A checkpointed stats run (resumed if it has a checkpoint)."""
    from ..orchestration.checkpoint import default_dir
    from ..orchestration.runner import run, setup_logging

    if feedback.logging:  # the command line's logging (the library leaves logging alone)
        setup_logging(None, feedback.quiet)
    progress_bar = feedback.progress_bar(lay.shards * lay.grids_per_shard, f"{lay.n}x{lay.m} stats")
    where = f"{jobs} processes"
    with workers(dask, jobs) as pool, progress_bar:
        if pool.client is not None:
            where = f"{pool.jobs} {pool.what}"
        progress = lambda g: progress_bar.update(g - progress_bar.n)  # noqa: E731
        out = run(lay, directory or default_dir(), pool.jobs, (0, 1), fresh, progress, None, pool.execute(lay))
    if feedback.notices and out.computed < out.shards:
        say(f"{out.shards - out.computed} of {out.shards} shards from the checkpoint {out.path}")
    measures = lay.finish(out.total)
    return StatsRun(Stats.of(measures, lay.variant), measures, time.perf_counter() - start, where,
                    out.shards - out.computed, out.shards, out.path)  # fmt: skip
