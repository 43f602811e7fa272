"""The error every layer raises for bad input: one line, the command line's exit status 2.

``UsageError`` is a ``ValueError``, so callers of the Python API may catch
either; its message is the line the command line prints after ``error:``.
(A puzzle that cannot be read or used is ``puzzle.model.PuzzleError``, also a ``ValueError``.)
"""


class UsageError(ValueError):
    """Bad input (a size, an option, a file): one line, said by the command line with exit status 2."""
