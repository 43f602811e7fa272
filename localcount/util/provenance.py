"""Provenance: which machine, code and command made a result."""

from __future__ import annotations

import datetime
import os
import pathlib
import platform
import shlex
import subprocess
import sys

from . import cores


def cpu_model() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux) and core count (and how many this process may use, if fewer)."""
    name = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    total, usable = os.cpu_count(), cores.usable()
    return f"{name}, {total} cores" + (f" ({usable} usable)" if total and usable < total else "")


#: What the tool itself writes into a checkout while it runs (``table`` records its runs in ``results/`` and
#: copies the tables into the package): changes there do not make the code that ran '+dirty'.
TOOL_OUTPUT = ("results", "localcount/results/shipped")


def git_commit(where=None) -> str:
    """The commit of the checkout holding ``where`` (default: this package), '+dirty' if changed.

    Changes to the tool's own output (``TOOL_OUTPUT``) do not count: the second path of a ``table`` run
    starts after the first has rewritten ``results/``, and it runs the same code.
    """
    here = pathlib.Path(where or pathlib.Path(__file__).resolve().parent)
    skip = [f":(top,exclude){path}" for path in TOOL_OUTPUT]
    try:
        commit = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no", "--", *skip],
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


#: The options whose value is a path, and what a recorded command shows for one outside the results folder.
PATH_OPTIONS = {"--results": "DIR", "--checkpoint-dir": "DIR", "--readme": "FILE"}


def relative_path(path: str, results, cwd=None, outside: str = "DIR") -> str:
    """``path`` (relative ones from ``cwd``, default the current directory) as seen from the folder ``results``.

    '.' for the folder itself, 'checkpoints' for a path in it, ``outside`` (a
    placeholder) for a path anywhere else; os.devnull is the same everywhere
    and stays.
    """
    if path == os.devnull:
        return path
    cwd = os.getcwd() if cwd is None else os.fspath(cwd)
    base = os.path.realpath(os.path.join(cwd, os.fspath(results)))
    target = os.path.realpath(os.path.join(cwd, path))
    if target != base and not target.startswith(base.rstrip(os.sep) + os.sep):
        return outside
    return os.path.relpath(target, base)


def _path_option(token: str):
    """The PATH_OPTIONS name ``token`` gives (whole or an unambiguous prefix, as argparse takes it), else None."""
    if not token.startswith("--") or len(token) < 3:
        return None
    found = [name for name in PATH_OPTIONS if name.startswith(token)]
    return found[0] if len(found) == 1 else None


def relative_paths(argv, results, cwd=None) -> list:
    """``argv`` with the value of every path option (PATH_OPTIONS; ``--opt VALUE`` or ``--opt=VALUE``) made
    ``relative_path`` to the results folder: what a results file records, with no path of the machine that ran it.

    >>> relative_paths(["table", "--results", "/w/results", "--checkpoint-dir=/w/results/ck", "--readme", "/dev/null",
    ...                 "--check", "/tmp/ck"], "/w/results")
    ['table', '--results', '.', '--checkpoint-dir=ck', '--readme', '/dev/null', '--check', 'DIR']
    """
    out = []
    argv = list(argv)
    i = 0
    while i < len(argv):
        token = argv[i]
        name, eq, value = token.partition("=")
        option = _path_option(name)
        if option and eq:
            out.append(f"{name}={relative_path(value, results, cwd, PATH_OPTIONS[option])}")
        elif option and i + 1 < len(argv):
            out += [token, relative_path(argv[i + 1], results, cwd, PATH_OPTIONS[option])]
            i += 1
        else:
            out.append(token)
        i += 1
    return out


def has_absolute_path(command: str) -> bool:
    """Whether a recorded command names an absolute path (os.devnull aside), in a word or after an '='."""
    words = shlex.split(command)
    return any(os.path.isabs(part) and part != os.devnull for word in words for part in (word, word.partition("=")[2]))
