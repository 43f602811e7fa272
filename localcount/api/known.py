"""The recorded counts, with their provenance: ``known(n, m)`` reads the table the package ships.

The table is the project's ``results/local.csv`` (and ``results/yesnogram/``)
as of this release: every size that two independent code paths agree on.
Nothing is counted and nothing compiled.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..util.errors import UsageError
from .counting import size


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


def known(n: int, m: int | None = None, *, variant: str = "nonogram") -> Known | None:
    """The recorded count of n×m (n alone: a square) with its provenance, or None if the table has none.

    >>> known(5).count
    24976511
    >>> known(7, 6).runs
    ('6x7-v1-s20-sym', '7x6-v1-s20-sym')
    """
    from ..clues import check_variant
    from ..results import records

    n, m = size(n, m)
    try:
        check_variant(variant)
    except ValueError as err:
        raise UsageError(str(err)) from None
    row = records.known(n, m, variant)
    if row is None:
        return None
    return Known(n, m, variant, row.count, row.grids, tuple(row.layouts.split(";")), row.date, row.version,
                 row.commit, row.command, row.cpu, row.wall_s)  # fmt: skip
