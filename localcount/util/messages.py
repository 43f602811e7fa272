"""Messages for people: one line on stderr each, prefixed ``localcount:``; durations.

stdout carries data only (counts, tables, puzzles); everything else goes
through ``say``.  ``Parser``: argparse whose usage errors are one line too.
"""

from __future__ import annotations

import argparse
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


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on stderr naming it (exit 2), not the usage text; --help has that."""

    def error(self, message: str):
        command = self.prog.split()[-1]
        where = "" if command == "localcount" else f"{command}: "
        say(f"error: {where}{message} (see --help)")
        sys.exit(2)
