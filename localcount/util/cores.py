"""How many cores this process may run on: what the default number of worker processes is."""

from __future__ import annotations

import os


def usable() -> int:
    """The cores this process may use: its CPU affinity (``taskset``, a container's cpuset), else all of them.

    ``os.cpu_count()`` counts the machine's cores whatever the process is allowed: a count run under
    ``taskset -c 0,1`` on a 16-core machine started 16 worker processes on 2 cores.
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1
