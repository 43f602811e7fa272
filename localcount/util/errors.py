"""The error every layer raises for bad input: one line, the command line's exit status 2.

``UsageError`` is a ``ValueError``, so callers of the Python API may catch
either; its message is the line the command line prints after ``error:``.
(A puzzle that cannot be read or used is ``puzzle.model.PuzzleError``, also a ``ValueError``.)
``usage_errors`` turns the ``ValueError`` of a check below into one.
"""

import contextlib


class UsageError(ValueError):
    """Bad input (a size, an option, a file): one line, said by the command line with exit status 2."""


@contextlib.contextmanager
def usage_errors(prefix: str = "", error: type = UsageError):
    """A ValueError raised in the block is bad input: raised again as ``error`` (UsageError), after ``prefix``."""
    try:
        yield
    except ValueError as err:
        raise error(f"{prefix}{err}") from None
