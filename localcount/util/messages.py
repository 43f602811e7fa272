"""Messages for people: one line on stderr each, prefixed ``localcount:``; durations.

stdout carries data only (counts, tables, puzzles); everything else goes
through ``say``.
"""

from __future__ import annotations

import sys


def say(msg: str) -> None:
    """One diagnostic line on stderr."""
    print(f"localcount: {msg}", file=sys.stderr, flush=True)


def format_seconds(s: float) -> str:
    """A duration for people: '45 s', '17 min', '9.3 h', '86 days'."""
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.0f} days"
