"""``--max-seconds``: a run that takes shards only while the next one is expected to end within its budget.

A campaign on machines lent for minutes (a preemptible GPU, a shared cluster's queue) advances in short
runs: each counts shards until the next would pass the budget, records each, and stops cleanly; the next
run, anywhere, resumes from the checkpoint.

A shard's expected seconds are ``overhead + rate × work × tuning.BUDGET_MARGIN``: ``work`` is what it really visits
(``Layout.shard_work``: a shard of non-representative borders visits nothing), ``overhead`` the least
seconds a shard without work took (a launch, a record) and ``rate`` the seconds per unit of work of the
shards with work: this run's once one of them is done, else the checkpoint's records', else the layout's
own estimate of the whole run.  Before anything is
known, one shard is taken while there is time.  A shard expected to take longer than the whole budget
would never fit: the first shard of a run is taken all the same (the campaign must advance; the warning
says to use more shard bits).

Pure Python and numpy; the layout's ``shard_work`` is numpy (``engines.enumeration``) or a compiled
kernel that a run which counts loads anyway.
"""

from __future__ import annotations

import logging
import time

import numpy as np

from .. import tuning

log = logging.getLogger("localcount")


class _Fit:
    """Seconds of shards against their work: the overhead (the least seconds of a shard with no work) and the
    seconds per unit of work above it (over the shards with work)."""

    def __init__(self):
        self.seconds = self.work = 0.0  # of the shards with work
        self.least = None  # the least seconds of a shard without work

    def add(self, seconds: float, work: float) -> None:
        if work > 0:
            self.seconds += seconds
            self.work += work
        else:
            self.least = seconds if self.least is None else min(self.least, seconds)

    def rate(self) -> float | None:
        """Seconds per unit of work (the overhead included: a little more than the truth), or None if no shard
        did work."""
        return self.seconds / self.work if self.work > 0 else None


class Budget:
    """Seconds a run may take from ``start`` (``time.monotonic()``), and the prediction of each shard's time."""

    def __init__(self, seconds: float, start: float | None = None):
        if not seconds > 0:
            raise ValueError(f"--max-seconds must be positive, got {seconds}")
        self.seconds = float(seconds)
        self.deadline = (time.monotonic() if start is None else start) + self.seconds
        self.work = None  # the layout's shard_work, or None: every shard alike
        self.one_core = None  # the layout's estimate of the whole run's seconds on one process, if any
        self.total_work = 1.0
        self.before = _Fit()  # the checkpoint's records
        self.now = _Fit()  # this run's shards
        self.taken = 0  # shards handed out by this run
        self.stopped = False  # a shard did not fit: the run ended on its budget

    def prepare(self, lay, records: dict) -> None:
        """Read the work of each shard and the times of the shards already recorded (``records``: shard -> Record)."""
        try:
            self.work = np.asarray(lay.shard_work(), dtype=np.float64)
            self.total_work = max(float(self.work.sum()), 1.0)
        except NotImplementedError:
            self.work, self.total_work = None, float(lay.shards)
        for shard, rec in records.items():
            if rec.seconds > 0:
                self.before.add(rec.seconds, self._work(shard))

    def _work(self, shard: int) -> float:
        return 1.0 if self.work is None else float(self.work[shard])

    def note(self, shard: int, seconds: float) -> None:
        """A shard of this run took ``seconds``."""
        self.now.add(seconds, self._work(shard))

    def expected(self, shard: int) -> float | None:
        """Expected seconds of ``shard`` on one process, or None if nothing is known yet."""
        least = self.now.least if self.now.least is not None else self.before.least
        overhead = least or 0.0
        fit = self.now if self.now.work > 0 else self.before
        rate = fit.rate()
        if rate is None and self.one_core:
            rate = self.one_core / self.total_work
        if self._work(shard) == 0:
            return least
        if rate is None:
            return None
        return overhead + rate * self._work(shard) * tuning.BUDGET_MARGIN

    def fits(self, shard: int, now: float | None = None) -> bool:
        """True if ``shard``, started now, is expected to end by the deadline (it is then counted as taken);
        False notes that the run ends on its budget."""
        now = time.monotonic() if now is None else now
        expected = self.expected(shard)
        if now >= self.deadline:
            ok = False
        elif expected is None:
            ok = True  # nothing known: one shard, while there is time
        elif expected > self.seconds and self.taken == 0:
            log.warning(f"shard {shard} is expected to take {expected:.0f} s, more than the whole budget of "
                        f"{self.seconds:g} s: taken all the same; give more --shard-bits for shorter shards")  # fmt: skip
            ok = True
        else:
            ok = now + expected <= self.deadline
        if ok:
            self.taken += 1
        else:
            self.stopped = True
        return ok

    def left(self, now: float | None = None) -> float:
        """Seconds left before the deadline (negative past it)."""
        return self.deadline - (time.monotonic() if now is None else now)
