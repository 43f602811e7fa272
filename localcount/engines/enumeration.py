"""The enumeration index order, stated once; and the general kernel's enumeration in numpy: which index bits
are the border, which borders are counted.

The index order (most significant bits first, so that the border is in the high bits; proved exact in
``engines.grid.kernel``'s module doc) is stated here and nowhere else, by the integer functions below:

* the rows order (symmetry groups none and flips), ``border_rows``, ``row_shift`` and ``rows_low_bits``: row 0,
  then row n-1, then rows 1 .. n-2, each row's m cells with bit c = cell c; the border is row 0 and row n-1
  (``border_values`` and ``border_code``: a border code's two rows and back);
* the square's order (its group, n = m >= 2), ``square_border_shifts``, ``square_edge_shifts``,
  ``square_border_row``, ``square_interior_shift``, ``square_interior_bits`` and ``square_row``: the border
  code (the top row, the bottom row, the left and the right column), then the (n-2)² interior cells, row n-2
  first;
* which order a symmetry group uses, ``border_low`` (by the group's id, ``engines.base.GROUP_IDS``);
* the weight of a border, ``orbit_weight``: its orbit's size if it is the least of its orbit, else 0.

They are plain integer arithmetic (no numpy, no numba), so that every consumer reads the one statement:
numpy here, numba's CPU kernel (``engines.grid.kernel`` jits them: ``compiled``), the generated per-size kernels
(``engines.grid.specialize`` calls them and writes the numbers into its source) and the GPU kernels
(``engines.gpu.kernel`` computes its constants with them and compiles them as device functions).  A change of
order is an edit here; the tests (``tests/test_index_order.py``) decode indices by each consumer against a
naive statement.

The top ``border_bits`` bits of an index are its border; a border is counted (weight > 0) only if it is the
least of its orbit under the group: for the flips the least border code, for the square the least grid mask
(bit r·n + c).  Here the same rules are written over every border at once with numpy, so that planning (the
work of each shard, ``shard_work``) needs no compiled kernel: ``status`` and ``--max-seconds`` read it.  The
tests compare ``representatives`` with the CPU kernel's own, border by border.

Imports numpy, ``tuning`` and ``engines.base`` (the group ids).
"""

from __future__ import annotations

import types

import numpy as np

from .. import tuning
from .base import GROUP_IDS

# --- the index order: the one statement of it (plain ints, so that numba can compile these too) ---

SQUARE = GROUP_IDS["square"]


def border_rows(n):
    """The rows order: the rows of the border, most significant first (row 0, then row n-1; with n = 1 row 0)."""
    return (0, n - 1) if n >= 2 else (0,)


def row_shift(r, n, m):
    """The rows order (groups none and flips): shift in the index of row r's m cells (bit c = cell c).

    Row 0, then row n-1, then rows 1 .. n-2, most significant first; with n = 1 the one row is at 0."""
    if r == 0:
        return (n - 1) * m
    if r == n - 1:
        return (n - 2) * m
    return (n - 2 - r) * m


def rows_low_bits(n, m):
    """The rows order: index bits below the border (row 0 and row n-1), which rows 1 .. n-2 fill."""
    if n >= 2:
        return (n - 2) * m
    return 0


def border_values(code, n, m):
    """The rows order: (row 0, row n-1) of a border code (an index's top bits, ``border_bits``), each row's m cells
    with bit c = cell c; ints or numpy arrays (with n = 1 both are the one row)."""
    low, full = rows_low_bits(n, m), (1 << m) - 1
    return (code >> (row_shift(0, n, m) - low)) & full, (code >> (row_shift(n - 1, n, m) - low)) & full


def border_code(top, bottom, n, m):
    """The rows order: the border code of row 0 ``top`` and row n-1 ``bottom`` (``border_values``' inverse)."""
    low = rows_low_bits(n, m)
    return (top << (row_shift(0, n, m) - low)) | (bottom << (row_shift(n - 1, n, m) - low))


def square_interior_bits(n):
    """The square's order (n >= 2): index bits below the border, its (n-2)² interior cells."""
    return (n - 2) * (n - 2)


def square_border_shifts(n):
    """The square's order (n >= 2): shifts of (top row, bottom row, left column, right column) in the border code
    (the index shifted right by ``square_interior_bits(n)``).

    The rows hold n cells (bit c = column c), the columns the n-2 cells of rows 1 .. n-2 (``square_edge_shifts``);
    the top row is the most significant."""
    side = n - 2
    return 2 * side + n, 2 * side, side, 0


def square_edge_shifts(r, n):
    """The square's order: shifts in the border code of row r's cells in column 0 and column n-1 (r in 1 .. n-2):
    bit r-1 of the left and of the right column."""
    _, _, at_left, at_right = square_border_shifts(n)
    return at_left + r - 1, at_right + r - 1


def square_border_row(border, r, n):
    """The square's order: row r's cells on the border (bit c = column c) from a border code: the top and the
    bottom row whole, the rows between their cells in column 0 and column n-1."""
    if r == 0 or r == n - 1:
        at_top, at_bottom, _, _ = square_border_shifts(n)
        return (border >> (at_top if r == 0 else at_bottom)) & ((1 << n) - 1)
    at_left, at_right = square_edge_shifts(r, n)
    return ((border >> at_left) & 1) | (((border >> at_right) & 1) << (n - 1))


def square_interior_shift(r, n):
    """The square's order: shift in the index of row r's interior cells (r in 1 .. n-2; its n-2 cells of columns
    1 .. n-2, bit c-1 = column c), row n-2 most significant."""
    return (r - 1) * (n - 2)


def square_row(index, r, n):
    """The square's order: row r (bit c = column c) of the grid at an index: its border cells, and between
    them its interior cells."""
    row = square_border_row(index >> square_interior_bits(n), r, n)
    if r == 0 or r == n - 1:
        return row
    return row | (((index >> square_interior_shift(r, n)) & ((1 << (n - 2)) - 1)) << 1)


def border_low(n, m, group):
    """Index bits below the border for a symmetry group's id (``GROUP_IDS``): the interior of a square in the
    square's order for its group, else rows 1 .. n-2 in the rows order."""
    if group == SQUARE:
        return square_interior_bits(n)
    return rows_low_bits(n, m)


def orbit_weight(code, images):
    """The weight of a border: its orbit's size if it is its orbit's least, else 0.

    ``images``: the border's images under every element of the group, the identity's too, compared as ``code``
    is (a border code for the flips, a grid mask for the square).  The orbit's size is the group's over the
    images equal to the border (orbit-stabiliser).  Plain arithmetic: numba compiles it for scalars, and numpy
    runs it on arrays of borders."""
    least = True
    fixed = 0
    for image in images:
        least = least & (image >= code)
        fixed = fixed + (image == code)
    return least * (len(images) // fixed)


def compiled(jit, names) -> dict:
    """The functions ``names`` of this module compiled by ``jit`` (``numba.njit(cache=True)``,
    ``cuda.jit(device=True)``), by name; where they call each other they call the compiled ones, so ``names``
    must hold every function that one of them calls."""
    namespace = dict(globals())
    for name in names:
        f = globals()[name]
        namespace[name] = jit(types.FunctionType(f.__code__, namespace, name, f.__defaults__, f.__closure__))
    return {name: namespace[name] for name in names}


def low_bits(n: int, m: int, group: str) -> int:
    """Index bits below the border for a group's name: ``border_low``."""
    return border_low(n, m, GROUP_IDS[group])


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
    """True where a border code (row 0 and row n-1 as ``row_shift`` places them; row 0 alone if n = 1, which the
    upside-down flip keeps) is its orbit's least."""
    rev = _reversed(m)
    a, b = border_values(codes, n, m)
    images = (codes, border_code(b, a, n, m), border_code(rev[a], rev[b], n, m), border_code(rev[b], rev[a], n, m))
    return orbit_weight(codes, images) > 0


def _square(codes: np.ndarray, n: int) -> np.ndarray:
    """True where a square's border code is its orbit's least under the 8 symmetries, compared as grid masks."""
    one = np.uint64(1)
    rows = [square_border_row(codes, r, n) for r in range(n)]
    # the four sides as n-bit lines: rows by column (bit c), columns by row (bit r), corners in both
    col_left = np.bitwise_or.reduce([(row & one) << np.uint64(r) for r, row in enumerate(rows)])
    col_right = np.bitwise_or.reduce([((row >> np.uint64(n - 1)) & one) << np.uint64(r) for r, row in enumerate(rows)])
    rev = _reversed(n)
    # a column's middle bits r (1 .. n-2) spread to grid bits r·n (left) and r·n + n-1 (right)
    values = np.arange(1 << n, dtype=np.uint64)
    spread = np.zeros_like(values)
    for r in range(1, n - 1):
        spread |= ((values >> np.uint64(r)) & one) << np.uint64(r * n)

    def mask(t, b, lft, rgt):
        return t | (b << np.uint64((n - 1) * n)) | spread[lft] | (spread[rgt] << np.uint64(n - 1))

    sides = (rows[0], rows[n - 1], col_left, col_right)
    return orbit_weight(mask(*sides), [mask(*image) for image in [sides, *_images(sides, rev)]]) > 0


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
