"""Measures beyond the count from Python: ``stats`` (uniqueness, difficulty, stuck grids) and ``run_stats``.

The command line's ``stats`` is ``run_stats`` with its options.  It is the
count's enumeration (``counting.run_options`` and ``orchestration.launch.launch``) with the stats layout:
short runs (sizes up to ``tuning.NO_ESTIMATE_CELLS`` cells, or expected to take less
than a second) run in this process, longer ones (or asked for a checkpoint,
a fresh start or Dask) are sharded and checkpointed under the same keys as
the command line's runs.  Errors as ``count``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..util.errors import usage_errors
from ..util.messages import say
from .counting import lower_priority, run_options
from .feedback import Feedback

#: ``path`` and ``symmetry`` choices (``engines.stats.prepare.PATHS``; the stats kernel's groups).
PATHS = ("rows", "transposed")
SYMMETRIES = ("flips", "none")


def _mean_of(histogram: str) -> property:
    """The mean of a difficulty histogram ({steps: grids} or {rounds: grids}) over the locally solvable grids."""

    def mean(self) -> float:
        hist = getattr(self, histogram)
        return sum(k * v for k, v in hist.items()) / self.solvable if self.solvable else 0.0

    return property(mean, doc=f"Mean {histogram} over the locally solvable grids.")


def _max_of(histogram: str) -> property:
    """The most a difficulty histogram holds: the hardest locally solvable grid's steps or rounds."""

    def most(self) -> int:
        return max(getattr(self, histogram), default=0)

    return property(most, doc=f"Most {histogram} any locally solvable grid needs (0 when there is none).")


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

    mean_steps = _mean_of("steps")
    max_steps = _max_of("steps")
    mean_rounds = _mean_of("rounds")
    max_rounds = _max_of("rounds")

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


def stats(n: int, m: int | None = None, **options) -> Stats:
    """Uniqueness, difficulty (steps, rounds) and stuck grids of every n×m grid (n alone: a square).

    Options as ``run_stats``'s.

    >>> s = stats(3)
    >>> s.solvable, s.unique, s.max_steps
    (384, 384, 3)
    """
    return run_stats(n, m, **options).stats


def run_stats(
    n: int,
    m: int | None = None,
    *,
    variant: str = "nonogram",
    path: str = "rows",
    symmetry: str = "flips",
    depth: int | None = None,
    **options,
) -> StatsRun:
    """``stats`` and how the run went (``StatsRun``); ``path`` rows or transposed and ``symmetry`` flips or none
    are independent code paths; ``depth``: shards fix the clues of this many rows.  How it runs (``jobs``,
    ``checkpoint_dir``, ``progress``, ``fresh``, ``scheduler``, ``dask_local``, ``log``): the count's
    ``counting.run_options`` and ``orchestration.launch``."""
    from ..engines import registry
    from ..orchestration.launch import launch

    if options.get("max_seconds") is not None:
        from ..util.errors import UsageError

        raise UsageError("max_seconds is for counts: statistics are read only from every shard at once")
    how = run_options(n, m, **options)
    with usage_errors():
        lay = registry.engine("stats").make(how.n, how.m, depth, path, symmetry, variant)
    out = launch(lay, how)
    if out.feedback.notices and out.computed < out.shards:
        say(f"{out.shards - out.computed} of {out.shards} shards from the checkpoint {out.checkpoint}")
    measures = out.layout.finish(out.total)
    return StatsRun(Stats.of(measures, out.layout.variant), measures, out.seconds, f"{out.workers} {out.what}",
                    out.shards - out.computed, out.shards, out.checkpoint)  # fmt: skip


#: ``unique``'s methods: the stats enumeration, the column walk of thin sizes (a side of at most THIN_SIDE cells).
UNIQUE_METHODS = ("auto", "enumeration", "thin")
THIN_SIDE = 2


def unique_method(n: int, m: int, method: str = "auto") -> str:
    """Which method counts the uniquely solvable n×m grids: auto takes the thin walk for a side of at most
    THIN_SIDE cells whose other side is past the enumeration's line tables, else the enumeration."""
    from ..lines import TABLE_MAX_LEN
    from ..util.errors import UsageError

    if method not in UNIQUE_METHODS:
        raise UsageError(f"method must be one of {', '.join(UNIQUE_METHODS)}, got {method!r}")
    if method == "auto":
        return "thin" if min(n, m) <= THIN_SIDE and max(n, m) > TABLE_MAX_LEN else "enumeration"
    if method == "thin" and min(n, m) > THIN_SIDE:
        raise UsageError(f"the thin method counts sizes with a side of at most {THIN_SIDE} cells, not {n}x{m}")
    return method


def unique(n: int, m: int | None = None, *, variant: str = "nonogram", method: str = "auto", **options) -> int:
    """The uniquely solvable n×m grids (n alone: a square): no other grid has their row and column clues.

    ``method``: "thin" walks the columns of a 2×m (m×2, 1×m) size over the would-be twins
    (``engines.thin.unique``: 2×30 in minutes, with no other measure), "enumeration" is ``stats``' (every
    measure, options as ``run_stats``'s), "auto" the thin walk where the enumeration's tables end.

    >>> unique(2, 5), unique(2, 18)
    (816, 40164144690)
    """
    from ..clues import check_variant
    from .counting import size

    n, m = size(n, m)
    with usage_errors():
        check_variant(variant)
    if unique_method(n, m, method) == "thin":
        from ..engines.thin.unique import unique_thin

        if options.get("idle"):
            lower_priority(options.get("feedback") or Feedback.library(False))

        with usage_errors():
            return unique_thin(n, m, variant)
    return run_stats(n, m, variant=variant, **options).stats.unique
