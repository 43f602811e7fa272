"""This machine's speed choices: ``tune``, which CPU kernel variant counts fastest here.

A count uses the sure variant ("lanes") until this CPU's choice is measured;
a count expected to take long measures it first by itself
(``engines.grid.choice``, ``tuning.PROBE_PAYS_SECONDS``).  ``tune`` measures
when asked: ``python -m localcount tune``.  Nothing is printed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tuning:
    """This CPU's kernel choice: the variant counts use, and how it was decided."""

    kernel: str  # the variant counts use here ("lanes", "gather4", ...)
    how: str  # "forced" ($LOCALCOUNT_CPU_KERNEL), "measured" or "default" (not measured yet)
    record: dict | None = None  # the measurement (best seconds, median ratios, probe, cpu, date), if any
    path: str = ""  # the file that keeps it


def tune(measure: bool = True) -> Tuning:
    """Which CPU kernel variant counts fastest here: measured now if ``measure`` (even if measured before, in
    5 to 25 s on 2 cores), else as known (``how`` "default" when never measured).  A variant forced by
    $LOCALCOUNT_CPU_KERNEL is reported as such, and nothing is measured."""
    from ..engines.grid import choice

    forced = choice.forced()
    path = str(choice.cache_path())
    if forced:
        return Tuning(forced, "forced", choice.record(), path)
    record = choice.tune() if measure else choice.record()
    if record is None:
        return Tuning(choice.DEFAULT, "default", None, path)
    return Tuning(record["kernel"], "measured", record, path)
