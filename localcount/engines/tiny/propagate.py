"""Local logic on an array of grids at once: numpy, the line tables, no compiled code.

The state of every grid is its known mask in two encodings, as the kernels
keep it (``engines.grid.kernel``): ``KR`` row-major (bit ``r*m + c``) and
``KC`` column-major (bit ``c*n + r``).  A row update is one table lookup per
grid, ``rtab[row << m | known]`` (``lines.tables.line_table``), written back
to ``KR`` by a shift and to ``KC`` through the spread table; columns alike.
A pass updates every line of the shorter direction, then every line of the
longer one.  Each line update is monotone and idempotent, so the grids reach
the same fixpoint as in any other order; a grid leaves the array once it is
solved or a pass changed nothing.  The longer lines' table is built only if
some grid is left after the shorter lines: a 1×20 grid is decided by its
one-cell columns, so its row table (4^20 entries) is never needed.

With ``flips``, only grids that are the least of their orbit under reversing
the row order and each row's cells are propagated, each weighted by its
orbit's size (4, 2 or 1): local solvability does not change under these
reflections, and ranges of grid values can still be cut anywhere.

Yesnograms (``variant``): the rows look up ``lines.tables.row_table``; the
flips keep the family (``engines.grid.layout``).
"""

from __future__ import annotations

import functools

import numpy as np

from ... import tuning
from ...lines.tables import row_table, spread_table


def solved_count(n: int, m: int, lo: int, hi: int, flips: bool = False, variant: str = "nonogram") -> int:
    """How many of the n×m grids with value in [lo, hi) local logic solves (``flips``: counted by orbits)."""
    if n * m == 0:
        return hi - lo  # the one empty grid: solved
    total = 0
    chunk = tuning.TINY_CHUNK
    for start in range(lo, hi, chunk):
        grids = np.arange(start, min(hi, start + chunk), dtype=np.int64)
        weights = orbit_weights(n, m, grids) if flips else np.ones_like(grids)
        keep = weights > 0
        total += _solved(n, m, grids[keep], weights[keep], variant)
    return total


@functools.cache
def _permutation_tables(destinations: tuple, bits: int) -> tuple:
    """For each run of ``bits`` bits, ``table[x]``: those bits of x (shifted down) moved to ``destinations``."""
    tables = []
    for lo in range(0, len(destinations), bits):
        part = destinations[lo : lo + bits]
        x = np.arange(1 << len(part), dtype=np.int64)
        table = np.zeros_like(x)
        for b, to in enumerate(part):
            table |= ((x >> b) & 1) << to
        tables.append(table)
    return tuple(tables)


def permute(words: np.ndarray, destinations: tuple) -> np.ndarray:
    """Each word with bit i moved to bit ``destinations[i]``: one table lookup per ``tuning.TINY_PERMUTE_BITS``."""
    bits = tuning.TINY_PERMUTE_BITS
    out = np.zeros_like(words)
    for k, table in enumerate(_permutation_tables(destinations, bits)):
        out |= table[(words >> (k * bits)) & (len(table) - 1)]
    return out


def _cells(n: int, m: int) -> list:
    return [(r, c) for r in range(n) for c in range(m)]  # bit r*m + c


def transposed(n: int, m: int) -> tuple:
    """Destinations that turn a row-major word into the column-major one (bit ``c*n + r``)."""
    return tuple(c * n + r for r, c in _cells(n, m))


def flips(n: int, m: int) -> list:
    """Destinations of the three reflections: each row's cells reversed, the rows' order reversed, both."""
    return [
        tuple(r * m + (m - 1 - c) for r, c in _cells(n, m)),
        tuple((n - 1 - r) * m + c for r, c in _cells(n, m)),
        tuple((n - 1 - r) * m + (m - 1 - c) for r, c in _cells(n, m)),
    ]


def orbit_weights(n: int, m: int, grids: np.ndarray) -> np.ndarray:
    """The size of each grid's orbit under the flips if it is the least of its orbit, else 0."""
    images = [permute(grids, f) for f in flips(n, m)]
    least = np.logical_and.reduce([grids <= image for image in images])
    stabiliser = 1 + sum((grids == image).astype(np.int64) for image in images)
    return np.where(least, 4 // stabiliser, 0)


class _Lines:
    """One direction's lines: ``count`` lines of ``length`` cells, line i at bits ``i*length`` of its layout's word."""

    def __init__(self, count: int, length: int, words: np.ndarray, variant: str = "nonogram"):
        self.count, self.length, self.variant = count, length, variant
        self.mask = (1 << length) - 1
        self.cells = [((words >> (i * length)) & self.mask) << length for i in range(count)]
        self._tables = None

    @property
    def tables(self) -> tuple:
        """(line table, spread into the crossing word), built on first use."""
        if self._tables is None:
            spread = spread_table(self.count, self.length).astype(np.int64)
            self._tables = row_table(self.length, self.variant).astype(np.int64), spread
        return self._tables

    def update(self, own: np.ndarray, crossing: np.ndarray) -> None:
        """Every line once: new knowledge into ``own`` (this layout) and ``crossing`` (the other)."""
        (table, spread), mask, length = self.tables, self.mask, self.length
        for i in range(self.count):
            new = table[self.cells[i] | ((own >> (i * length)) & mask)]
            own |= new << (i * length)
            crossing |= spread[i][new]

    def keep(self, which: np.ndarray) -> None:
        self.cells = [cells[which] for cells in self.cells]


def _solved(n: int, m: int, grids: np.ndarray, weights: np.ndarray, variant: str = "nonogram") -> int:
    """The summed weights of the grids (values, int64) that local logic solves (rows: ``variant``'s table)."""
    rows, cols = _Lines(n, m, grids, variant), _Lines(m, n, permute(grids, transposed(n, m)))
    known_r, known_c = np.zeros_like(grids), np.zeros_like(grids)
    full = (1 << (n * m)) - 1
    solved = 0
    while len(known_r):
        before = known_r.copy()
        if n <= m:  # columns are the shorter lines
            cols.update(known_c, known_r)
            if not (known_r == full).all():
                rows.update(known_r, known_c)
        else:
            rows.update(known_r, known_c)
            if not (known_r == full).all():
                cols.update(known_c, known_r)
        done = known_r == full
        solved += int(weights[done].sum())
        keep = ~done & (known_r != before)  # neither solved nor at its fixpoint
        rows.keep(keep), cols.keep(keep)
        known_r, known_c, weights = known_r[keep], known_c[keep], weights[keep]
    return solved
