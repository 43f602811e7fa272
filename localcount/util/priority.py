"""Idle priority (``--idle``): a long run that takes only the cores nothing else wants.

``lower()`` puts this process, each of its threads and every process or thread it starts from then on
at idle priority, as far as the OS allows, and returns what it set (``Idle``):

* ``SCHED_IDLE`` (Linux): the scheduler runs these threads only when no normal thread wants the core;
* nice 19, everywhere it exists (the only step where there is no SCHED_IDLE; ``Idle.note`` says so);
* autogroup nice 19 where ``/proc/self/autogroup`` exists (Linux with autogroups on).  Such a kernel first
  shares a core between sessions (a terminal, a service) and only then between the threads of one, so a
  SCHED_IDLE count alone in its session would still take half a core from a terminal's work.  A process
  that leads its session (started with ``setsid``, as a campaign wrapper starts it) lowers its session's
  autogroup.  One that shares its terminal's session must not (that would lower every job of the terminal):
  the worker processes it starts each take a session of their own (``in_worker``; they ignore Ctrl-C in
  any case, and the run stops them), and the run's own process, which only hands out and records shards,
  keeps the terminal's autogroup.

Priorities only go down: an unprivileged process cannot raise its nice value again, so the API's
``idle=True`` lowers the calling process for the rest of its life, and ``lower`` acts once per process.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

#: The nice value of an idle run: the lowest priority.
NICE = 19
#: Where Linux keeps this process's autogroup (``"/autogroup-343 nice 0"``; write a nice value to set it).
AUTOGROUP = "/proc/self/autogroup"
#: 0 here turns autogroups off on a kernel that has them.
AUTOGROUP_SWITCH = "/proc/sys/kernel/sched_autogroup_enabled"
#: ``Idle.autogroup``: the run's own session was lowered, or each worker's.
OWN_SESSION, EACH_WORKER = "this session", "each worker's own session"


@dataclass(frozen=True)
class Idle:
    """What ``lower`` set: the policy ('SCHED_IDLE' or ''), the nice value, whose autogroup took nice 19
    (``OWN_SESSION``, ``EACH_WORKER`` or ''), and what could not be set ('' when nothing is missing)."""

    policy: str
    nice: int | None
    autogroup: str
    note: str = ""

    def describe(self) -> str:
        """'SCHED_IDLE, nice 19, autogroup nice 19 (this session)': the sessions file's column."""
        parts = [self.policy, "" if self.nice is None else f"nice {self.nice}"]
        parts.append(f"autogroup nice {NICE} ({self.autogroup})" if self.autogroup else "")
        return ", ".join(p for p in parts if p) or "unchanged"

    def line(self) -> str:
        """The first line of an idle run: what was set, and what could not be."""
        return f"idle priority: {self.describe()}" + (f" ({self.note})" if self.note else "")


_lowered: Idle | None = None
_workers_take_sessions = False


def lower() -> Idle:
    """Lower this process to idle priority (module doc), once; what was set."""
    global _lowered
    if _lowered is None:
        missing: list = []
        tasks = _threads()
        nice = _nice(tasks, missing)
        policy = _idle_policy(tasks, missing)
        autogroup = _autogroup(missing)
        _lowered = Idle(policy, nice, autogroup, "; ".join(missing))
    return _lowered


def current() -> Idle | None:
    """What ``lower`` set in this process (or the process it was forked from), else None."""
    return _lowered


def in_worker() -> None:
    """A worker process's first step: its own session at autogroup nice 19 when the run's process could not
    lower its own (it shares a terminal's session); nothing otherwise."""
    if _workers_take_sessions:
        with contextlib.suppress(OSError):
            os.setsid()
            _write_autogroup()


def _threads() -> list:
    """This process's thread ids (Linux: nice and the policy are per thread), else [0]: the calling one."""
    try:
        return [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        return [0]


def _nice(tasks: list, missing: list) -> int | None:
    """Nice 19 for each thread; the nice value now (None where the OS has none)."""
    if not hasattr(os, "setpriority"):
        missing.append("no nice values on this OS")
        return None
    for tid in tasks:
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            os.setpriority(os.PRIO_PROCESS, tid, NICE)
    return os.getpriority(os.PRIO_PROCESS, 0)


def _idle_policy(tasks: list, missing: list) -> str:
    """SCHED_IDLE for each thread where the OS has it: 'SCHED_IDLE', else ''."""
    if not hasattr(os, "SCHED_IDLE"):
        missing.append("SCHED_IDLE: not on this OS")
        return ""
    try:
        for tid in tasks:
            with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
                os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))
    except OSError as err:
        missing.append(f"SCHED_IDLE: {err.strerror}")
        return ""
    return "SCHED_IDLE"


def _autogroup(missing: list) -> str:
    """Autogroup nice 19 for this session if it leads it, else for each worker's (``in_worker``): whose."""
    global _workers_take_sessions
    if not os.path.exists(AUTOGROUP):
        missing.append("autogroup: not in this kernel")
        return ""
    try:
        with open(AUTOGROUP_SWITCH) as f:
            if f.read().strip() == "0":
                missing.append(f"autogroup: off ({AUTOGROUP_SWITCH} is 0)")
                return ""
    except OSError:
        pass
    if os.getsid(0) != os.getpid():
        _workers_take_sessions = True
        return EACH_WORKER
    try:
        _write_autogroup()
    except OSError as err:
        missing.append(f"autogroup: {err.strerror}")
        return ""
    return OWN_SESSION


def _write_autogroup() -> None:
    with open(AUTOGROUP, "w") as f:
        f.write(f"{NICE}\n")
