"""The recorded counts, with their provenance: ``known(n, m)`` reads the tables the package ships.

The tables are the project's ``results/local.csv`` and ``results/stats.csv``
(and those of ``results/yesnogram/``) as of this release: every size that two
independent code paths agree on.  Nothing is counted and nothing compiled.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..util.errors import usage_errors
from .counting import size
from .stats import Stats


@dataclass(frozen=True)
class Known:
    """A recorded count and where it comes from: the independent runs that agree on it, and the first one's provenance."""

    n: int
    m: int
    variant: str
    count: int
    grids: int
    runs: tuple  # the layout keys of the agreeing runs (independent code paths)
    date: str  # of the first run
    version: str
    commit: str
    command: str
    cpu: str
    wall_s: float
    #: The recorded stats of the size (``Stats``: uniquely solvable, stuck, steps and rounds), None if not recorded.
    #: They are of the recorded orientation, n ≤ m with rows first (``stats.n``, ``stats.m``): the steps and rounds
    #: of the transposed size may differ, the other measures are the same.
    stats: Stats | None = None


def known(n: int, m: int | None = None, *, variant: str = "nonogram") -> Known | None:
    """The recorded count of n×m (n alone: a square) with its provenance, or None if the table has none; with
    the recorded stats of the size in ``.stats`` (None where ``results/stats.csv`` has none).

    >>> known(5).count
    24976511
    >>> known(7, 6).runs
    ('6x7-v1-s20-sym', '7x6-v1-s20-sym')
    >>> s = known(5).stats
    >>> s.unique, s.stuck, s.max_steps, round(s.mean_steps, 4)
    (25309575, 100110, 17, 3.7513)
    >>> s = known(6, 5).stats                # recorded as 5x6, rows first
    >>> s.n, s.m, s.unique
    (5, 6, 794378773)
    >>> known(2, 20).stats is None           # counted, but its stats are not recorded
    True
    """
    from ..clues import check_variant
    from ..results import records

    n, m = size(n, m)
    with usage_errors():
        check_variant(variant)
    row = records.known(n, m, variant)
    if row is None:
        return None
    return Known(n, m, variant, row.count, row.grids, tuple(row.layouts.split(";")), row.date, row.version,
                 row.commit, row.command, row.cpu, row.wall_s, _stats(records, n, m, variant))  # fmt: skip


def _stats(records, n: int, m: int, variant: str) -> Stats | None:
    """The shipped stats table's row of n×m as a ``Stats`` (of the recorded orientation), or None."""
    row = records.known_stats(n, m, variant)
    if row is None:
        return None
    return Stats(row.n, row.m, variant, row.grids, row.solvable, row.unique, row.stuck_start,
                 records.parse_rounds(row.steps), records.parse_rounds(row.rounds))  # fmt: skip
