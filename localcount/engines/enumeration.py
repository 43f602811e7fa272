"""The enumeration index layout, stated once; and the general kernel's enumeration in numpy: which index bits
are the border, which borders are counted.

The index layout (most significant bits first, so that the border is in the high bits; proved exact in
``engines.grid.kernel``'s module doc) is stated here and nowhere else, by the integer functions below:

* the rows layout (symmetry groups none and flips), ``row_shift`` and ``rows_low_bits``: row 0, then row
  n-1, then rows 1 .. n-2, each row's m cells with bit c = cell c; the border is row 0 and row n-1
  (``border_rows`` and ``border_code``: a border code's two rows and back);
* the square's layout (its group, n = m >= 2), ``square_border_shifts``, ``square_interior_shift`` and
  ``square_interior_bits``: the border code (the top row, the bottom row, the left and the right column),
  then the (n-2)² interior cells, row n-2 first.

They are plain integer arithmetic (no numpy, no numba), so that every consumer reads the one statement:
numpy here, numba's CPU kernel (``engines.grid.kernel`` jits them), the generated per-size kernels
(``engines.grid.specialize`` calls them and writes the numbers into its source) and the GPU kernels
(``engines.gpu.kernel`` computes its constants with them).  A change of layout is an edit here; the tests
(``tests/test_enumeration_layout.py``) decode indices by each consumer against a naive statement.

The top ``border_bits`` bits of an index are its border; a border is counted (weight > 0) only if it is the
least of its orbit under the group: for the flips the least border code, for the square the least grid mask
(bit r·n + c).  Here the same rules are written over every border at once with numpy, so that planning (the
work of each shard, ``shard_work``) needs no compiled kernel: ``status`` and ``--max-seconds`` read it.  The
tests compare ``representatives`` with the CPU kernel's own, border by border.

Imports numpy and ``tuning``.
"""

from __future__ import annotations

import numpy as np

from .. import tuning

# --- the index layout: the one statement of it (plain ints, so that numba can compile these too) ---


def row_shift(r, n, m):
    """The rows layout (groups none and flips): shift in the index of row r's m cells (bit c = cell c).

    Row 0, then row n-1, then rows 1 .. n-2, most significant first; with n = 1 the one row is at 0."""
    if r == 0:
        return (n - 1) * m
    if r == n - 1:
        return (n - 2) * m
    return (n - 2 - r) * m


def rows_low_bits(n, m):
    """The rows layout: index bits below the border (row 0 and row n-1), which rows 1 .. n-2 fill."""
    if n >= 2:
        return (n - 2) * m
    return 0


def border_rows(code, n, m):
    """The rows layout (n >= 2): (row 0, row n-1) of a border code (an index's top bits, ``border_bits``), each row's
    m cells with bit c = cell c; ints or numpy arrays."""
    low, full = rows_low_bits(n, m), (1 << m) - 1
    return (code >> (row_shift(0, n, m) - low)) & full, (code >> (row_shift(n - 1, n, m) - low)) & full


def border_code(top, bottom, n, m):
    """The rows layout (n >= 2): the border code of row 0 ``top`` and row n-1 ``bottom`` (``border_rows``' inverse)."""
    low = rows_low_bits(n, m)
    return (top << (row_shift(0, n, m) - low)) | (bottom << (row_shift(n - 1, n, m) - low))


def square_interior_bits(n):
    """The square's layout (n >= 2): index bits below the border, its (n-2)² interior cells."""
    return (n - 2) * (n - 2)


def square_border_shifts(n):
    """The square's layout (n >= 2): shifts of (top row, bottom row, left column, right column) in the border code
    (the index shifted right by ``square_interior_bits(n)``).

    The rows hold n cells (bit c = column c), the columns the n-2 cells of rows 1 .. n-2 (bit r-1 = row r);
    the top row is the most significant."""
    side = n - 2
    return 2 * side + n, 2 * side, side, 0


def square_interior_shift(r, n):
    """The square's layout: shift in the index of row r's interior cells (r in 1 .. n-2; its n-2 cells of columns
    1 .. n-2, bit c-1 = column c), row n-2 most significant."""
    return (r - 1) * (n - 2)


def low_bits(n: int, m: int, group: str) -> int:
    """Index bits below the border: the interior of a square (its group), else rows 1 .. n-2."""
    if group == "square":
        return square_interior_bits(n)
    return rows_low_bits(n, m)


def border_bits(n: int, m: int, group: str) -> int:
    """Index bits of the border (the top bits of an index)."""
    return n * m - low_bits(n, m, group)


def _reversed(length: int) -> np.ndarray:
    """Table: value -> its ``length`` bits in reverse order."""
    values = np.arange(1 << length, dtype=np.uint64)
    out = np.zeros_like(values)
    for i in range(length):
        out |= ((values >> np.uint64(i)) & np.uint64(1)) << np.uint64(length - 1 - i)
    return out


def _flips(codes: np.ndarray, n: int, m: int) -> np.ndarray:
    """True where a border code (row 0 and row n-1 as ``row_shift`` places them; row 0 alone if n = 1) is its
    orbit's least."""
    rev = _reversed(m)
    if n == 1:
        return rev[codes] >= codes
    a, b = border_rows(codes, n, m)
    images = (border_code(b, a, n, m), border_code(rev[a], rev[b], n, m), border_code(rev[b], rev[a], n, m))
    return np.logical_and.reduce([image >= codes for image in images])


def _square(codes: np.ndarray, n: int) -> np.ndarray:
    """True where a square's border code is its orbit's least under the 8 symmetries, compared as grid masks."""
    side = n - 2
    at_top, at_bottom, at_left, at_right = square_border_shifts(n)

    def part(shift, width):
        return (codes >> np.uint64(shift)) & np.uint64((1 << width) - 1)

    top, bottom, left, right = part(at_top, n), part(at_bottom, n), part(at_left, side), part(at_right, side)
    # the four sides as n-bit lines: rows by column (bit c), columns by row (bit r), corners in both
    one = np.uint64(1)
    col_left = (top & one) | (left << one) | ((bottom & one) << np.uint64(n - 1))
    col_right = (
        ((top >> np.uint64(n - 1)) & one) | (right << one) | (((bottom >> np.uint64(n - 1)) & one) << np.uint64(n - 1))
    )
    rev = _reversed(n)
    # a column's middle bits r (1 .. n-2) spread to grid bits r·n (left) and r·n + n-1 (right)
    values = np.arange(1 << n, dtype=np.uint64)
    spread = np.zeros_like(values)
    for r in range(1, n - 1):
        spread |= ((values >> np.uint64(r)) & one) << np.uint64(r * n)

    def mask(t, b, lft, rgt):
        return t | (b << np.uint64((n - 1) * n)) | spread[lft] | (spread[rgt] << np.uint64(n - 1))

    grid = mask(top, bottom, col_left, col_right)
    sides = (top, bottom, col_left, col_right)
    least = np.ones(codes.shape, bool)
    for image in _images(sides, rev):
        least &= mask(*image) >= grid
    return least


def _images(sides: tuple, rev: np.ndarray) -> list:
    """The seven other images of a square's border, as (top, bottom, left, right) lines."""
    t, b, lft, rgt = sides
    vertical = (b, t, rev[lft], rev[rgt])  # row r -> n-1-r
    horizontal = (rev[t], rev[b], rgt, lft)  # column c -> n-1-c
    both = (rev[b], rev[t], rev[rgt], rev[lft])
    out = [vertical, horizontal, both]
    for t2, b2, l2, r2 in [sides, vertical, horizontal, both]:
        out.append((l2, r2, t2, b2))  # the transposition of each
    return out


def representatives(n: int, m: int, group: str) -> np.ndarray:
    """uint8 over every border code: 1 where the kernels count it (its orbit's least under ``group``), else 0."""
    bits = border_bits(n, m, group)
    out = np.ones(1 << bits, np.uint8)
    if group == "none":
        return out
    chunk = tuning.ENUMERATION_CHUNK  # borders per numpy pass
    for start in range(0, 1 << bits, chunk):
        codes = np.arange(start, min(start + chunk, 1 << bits), dtype=np.uint64)
        least = _square(codes, n) if group == "square" else _flips(codes, n, m)
        out[start : start + len(codes)] = least
    return out


def shard_work(n: int, m: int, bits: int, group: str) -> np.ndarray:
    """Indices each of the 2^bits shards really visits (borders counted × the indices under each), int64."""
    cells = n * m
    if cells == 0:
        return np.ones(1, np.int64)
    low = low_bits(n, m, group)
    border = cells - low
    reps = representatives(n, m, group).astype(np.int64)
    if bits <= border:  # a shard is a run of whole borders
        return reps.reshape(1 << bits, -1).sum(axis=1) << low
    return np.repeat(reps, 1 << (bits - border)) << (cells - bits)  # a shard is a part of one border
