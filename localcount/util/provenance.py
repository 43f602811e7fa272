"""Provenance: which machine, code and command made a result."""

from __future__ import annotations

import datetime
import os
import pathlib
import platform
import shlex
import subprocess
import sys


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux) and core count."""
    name = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{name}, {os.cpu_count()} cores"


def git_commit(where=None) -> str:
    """The commit of the checkout holding ``where`` (default: this package), '+dirty' if changed."""
    here = pathlib.Path(where or pathlib.Path(__file__).resolve().parent)
    try:
        commit = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + ("+dirty" if dirty else "")


def utc_now() -> str:
    """The current UTC time, e.g. '2026-11-22 04:30:00 UTC'."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def this_command(argv=None) -> str:
    """The command line of this process, as a user would type it."""
    argv = sys.argv[1:] if argv is None else argv
    return shlex.join(["python", "-m", "localcount", *argv])
