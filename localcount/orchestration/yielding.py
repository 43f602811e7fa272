"""An idle run's workers step aside while other work keeps the machine busy (``--idle``).

Idle priority (``util.priority``) keeps an idle run's threads off a core that other work wants, but not
off the core beside it, and cores beside each other share caches, memory and, on many machines, the
physical core itself (SMT, a VM's vCPUs): on the 2-vCPU machine this project is built on, a count on one
core took 12 % more CPU time while an idle run counted on the other (docs/long-runs.md).  So while other
processes use more than ``tuning.IDLE_BUSY_CORES`` cores, the run's workers are stopped (SIGSTOP), and
they go on (SIGCONT) once the others have stayed under it for ``tuning.IDLE_QUIET_SECONDS``; the load is
read every ``tuning.IDLE_POLL_SECONDS`` from ``/proc/stat`` less the run's own processes' CPU time.  A
stopped worker keeps its shard: it finishes it later and the shard is recorded once, as after any SIGSTOP;
an idle run's record gives the shard's own CPU time (``runner._worker``), so the pauses count neither in the
work ``results/`` reports nor in the rate ``status`` projects from it (its recent rate is the wall clock's).  The workers are stopped again at every reading
while the others are busy, so a SIGCONT to the whole job (a campaign wrapper's resume) does not let them
in.  Where there is no ``/proc`` nothing is watched.

``$LOCALCOUNT_IDLE_BUSY_CORES`` (``ENV``) sets the cores others may use before the workers step aside
('off': never).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

from .. import tuning

ENV = "LOCALCOUNT_IDLE_BUSY_CORES"


def busy_cores() -> float | None:
    """The cores other processes may use before an idle run's workers step aside: ``ENV`` or
    ``tuning.IDLE_BUSY_CORES``; None when stepping aside is off or there is no ``/proc/stat`` to read."""
    text = os.environ.get(ENV, "").strip().lower()
    if text in ("off", "none", "never"):
        return None
    if not os.path.exists("/proc/stat"):
        return None
    try:
        return float(text) if text else tuning.IDLE_BUSY_CORES
    except ValueError:
        return tuning.IDLE_BUSY_CORES


class Gate:
    """The decision alone, fed the others' load (cores) at each poll: step aside at once when it is over
    ``busy``, go on once it has stayed at or under it for ``quiet`` seconds."""

    def __init__(self, busy: float, quiet: float):
        self.busy, self.quiet = busy, quiet
        self.stopped = False
        self._calm_since = None

    def update(self, others: float, now: float) -> bool:
        """True if the workers should be stopped from now on."""
        if others > self.busy:
            self.stopped, self._calm_since = True, None
        elif self.stopped:
            self._calm_since = now if self._calm_since is None else self._calm_since
            if now - self._calm_since >= self.quiet:
                self.stopped, self._calm_since = False, None
        return self.stopped


#: The columns of /proc/stat's ``cpu`` line that are this machine's own work: user (guests' time included),
#: nice, system, irq, softirq.  Not idle or iowait, nor steal: time a VM's host gave to others while a vCPU
#: here wanted to run, which an idle run's own work makes (stepping aside for it would only make it stop).
BUSY_COLUMNS = (0, 1, 2, 5, 6)


def machine_busy_ticks() -> int:
    """Clock ticks every core has spent on this machine's work since boot (``BUSY_COLUMNS`` of /proc/stat's
    first line)."""
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    return sum(int(fields[i]) for i in BUSY_COLUMNS if i < len(fields))


def stat_fields(pid: int) -> list | None:
    """The fields of /proc/PID/stat after the command's name (state, parent pid, ...; utime and stime at 11 and 12),
    or None for a process that is gone or a system without /proc."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _process_ticks(pid: int) -> int:
    """Clock ticks of user and system time of one process (all its threads); 0 once it is gone."""
    fields = stat_fields(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0  # utime, stime


class Yielder:
    """Watches the machine from a thread and stops or lets go of ``workers`` (process ids) as ``Gate`` says;
    ``close`` lets them go for good."""

    def __init__(self, workers: list, busy: float):
        self.workers = list(workers)
        self.gate = Gate(busy, tuning.IDLE_QUIET_SECONDS)
        self.pauses = 0  # how many times the workers stepped aside
        self._done = threading.Event()
        self._ours = [os.getpid(), *self.workers]
        self._hz = os.sysconf("SC_CLK_TCK")
        self._thread = threading.Thread(target=self._watch, name="localcount-yield", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        last = (time.monotonic(), machine_busy_ticks(), sum(map(_process_ticks, self._ours)))
        while not self._done.wait(tuning.IDLE_POLL_SECONDS):
            now = (time.monotonic(), machine_busy_ticks(), sum(map(_process_ticks, self._ours)))
            seconds = now[0] - last[0]
            others = max(0, (now[1] - last[1]) - (now[2] - last[2])) / self._hz / seconds if seconds > 0 else 0.0
            last = now
            was = self.gate.stopped
            stopped = self.gate.update(others, now[0])
            self.pauses += stopped and not was
            if stopped:  # again at every reading: a SIGCONT to the whole job (a campaign's resume) let them go
                self._signal(signal.SIGSTOP)
            elif was:
                self._signal(signal.SIGCONT)

    def _signal(self, sig) -> None:
        for pid in self.workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def close(self) -> None:
        """Stop watching and let every worker go on."""
        self._done.set()
        self._thread.join()
        self._signal(signal.SIGCONT)


def watch(workers: list, idle) -> Yielder | None:
    """A ``Yielder`` for the workers of a run at idle priority (``idle``: ``util.priority.current()``), else None."""
    busy = busy_cores() if idle is not None else None
    return None if busy is None else Yielder(workers, busy)
