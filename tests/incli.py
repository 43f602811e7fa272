"""The command line run in this process, for tests: (exit status, stdout, stderr), stdin given as text."""

import contextlib
import io
import sys

from localcount.cli import main


def cli(*argv, stdin: str = "") -> tuple:
    """(exit status, stdout, stderr) of ``python -m localcount ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(list(argv))
            except SystemExit as stop:
                status = stop.code
    finally:
        sys.stdin = old
    return status, out.getvalue(), err.getvalue()
