"""The numbering's order, stated once: a grid's number and back (plain integer arithmetic, no imports).

A grid's number g reads its cells row by row, the top-left cell most significant
(``docs/numbering.md``): row r is the m bits of g at ``row_shift(n, m, r)``, its cell c at bit m − 1 − c
of them.  Every consumer reads it here: ``api.numbering`` (a grid's rows and number), ``vector`` (on numpy
arrays), ``kernel`` (numba compiles ``row_shift``) and ``fast`` (the generated kernels' constants).
"""

from __future__ import annotations


def row_shift(n, m, r):
    """The bit of an n×m grid's number where row r's m cells start (row 0 the most significant)."""
    return (n - 1 - r) * m


def number(rows, m: int):
    """The number of the grid whose rows, top to bottom, are the m-bit values ``rows`` (cell c at bit m − 1 − c)."""
    n = len(rows)
    return sum(row << row_shift(n, m, r) for r, row in enumerate(rows))


def rows(g, n: int, m: int) -> tuple:
    """The m-bit values of the rows of the n×m grid numbered g, top to bottom (``number``'s inverse); g may be a
    numpy array of numbers, then each row is an array."""
    return tuple((g >> row_shift(n, m, r)) & ((1 << m) - 1) for r in range(n))
