"""The general kernel's enumeration, in numpy: which index bits are the border, which borders are counted.

The index layout (proved exact in ``engines.grid.kernel``'s module doc, and run by the CPU and GPU
kernels): with the flips or no group, row 0, then row n-1, then rows 1 .. n-2 fill the index from its
most significant bits; with the square's group, the top row, the bottom row, the left and the right
column (rows 1 .. n-2) and then the interior.  The top ``border_bits`` bits of an index are its
border; a border is counted (weight > 0) only if it is the least of its orbit under the group: for the
flips the least border code, for the square the least grid mask (bit r·n + c).

Here the same rules are written over every border at once with numpy, so that planning (the work of
each shard, ``shard_work``) needs no compiled kernel: ``status`` and ``--max-seconds`` read it.  The
tests compare ``representatives`` with the CPU kernel's own, border by border.

Imports only numpy.
"""

from __future__ import annotations

import numpy as np

#: Borders handled per numpy pass (memory: a few arrays of this many uint64).
CHUNK = 1 << 20


def low_bits(n: int, m: int, group: str) -> int:
    """Index bits below the border: the interior of a square (its group), else rows 1 .. n-2."""
    if group == "square":
        return (n - 2) ** 2
    return (n - 2) * m if n >= 2 else 0


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
    """True where a border code (row 0 above row n-1, m bits each; row 0 alone if n = 1) is its orbit's least."""
    rev = _reversed(m)
    if n == 1:
        return rev[codes] >= codes
    mm = np.uint64(m)
    a, b = codes >> mm, codes & np.uint64((1 << m) - 1)
    images = ((b << mm) | a, (rev[a] << mm) | rev[b], (rev[b] << mm) | rev[a])
    return np.logical_and.reduce([image >= codes for image in images])


def _square(codes: np.ndarray, n: int) -> np.ndarray:
    """True where a square's border code is its orbit's least under the 8 symmetries, compared as grid masks."""
    side = n - 2
    full = np.uint64((1 << n) - 1)
    right = codes & np.uint64((1 << side) - 1)
    left = (codes >> np.uint64(side)) & np.uint64((1 << side) - 1)
    bottom = (codes >> np.uint64(2 * side)) & full
    top = codes >> np.uint64(2 * side + n)
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
    for start in range(0, 1 << bits, CHUNK):
        codes = np.arange(start, min(start + CHUNK, 1 << bits), dtype=np.uint64)
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
