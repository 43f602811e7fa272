"""Line tables for counting: ``table[true line, known mask] -> new known mask``.

While counting, the true grid is known, so a known cell always holds its true
value and the whole state of a line is its known mask k.  The lines fitting
the clue and the knowledge are the q with clue(q) == clue(p) and
(q ^ p) & k == 0; a cell becomes known iff no fitting q differs from p there:

    new_known(p, k) = full & ~ OR{ q ^ p : clue(q) == clue(p), (q ^ p) & k == 0 }.

With d = q ^ p the condition is d ⊆ ~k, so for each p the OR over all d ⊆ s
(a subset-OR "zeta transform" over s) gives every k at once in O(L 2^L):
the whole table costs O(L 4^L) numpy work instead of one pass per (p, k).
Tables are flat ``uint16`` arrays indexed by ``p << L | k``.

``row_table(L, variant)``: the table for a variant's rows.  A yesnogram row's
clue counts its runs of 0s, so the rows fitting it are the complements of
the nonogram rows fitting the same clue, and complementing every candidate
keeps the differences q ^ p: its row p is updated as the nonogram row
~p, ``row_table[p, k] = line_table[full ^ p, k]`` (the table's rows reversed).
"""

from __future__ import annotations

import functools

import numpy as np

from ..clues import line_clue, rows_count_zeros
from . import SPREAD_MAX_LEN, TABLE_MAX_LEN


def clue_ids(length: int) -> np.ndarray:
    """For each line of the given length, a small int naming its clue."""
    ids: dict = {}
    return np.array(
        [ids.setdefault(line_clue(p, length), len(ids)) for p in range(1 << length)],
        dtype=np.int64,
    )


@functools.cache
def line_table(length: int) -> np.ndarray:
    """The flat known-mask table for lines of ``length`` cells (see module doc)."""
    if not 0 <= length <= TABLE_MAX_LEN:
        raise ValueError(f"no line table for length {length} (max {TABLE_MAX_LEN})")
    size = 1 << length
    full = size - 1
    cid = clue_ids(length)
    d = np.arange(size, dtype=np.int64)
    # orred[p, s] starts as s when p ^ s has p's clue (s is a fitting difference).
    orred = np.zeros((size, size), dtype=np.uint16)
    chunk = max(1, (1 << 22) // size)
    for lo in range(0, size, chunk):
        p = np.arange(lo, min(size, lo + chunk), dtype=np.int64)[:, None]
        orred[lo : lo + len(p)] = np.where(cid[p ^ d] == cid[p], d, 0)
    # Subset-OR over s, one bit at a time: afterwards orred[p, s] = OR{d ⊆ s}.
    for bit in range(length):
        view = orred.reshape(size, -1, 2, 1 << bit)
        view[:, :, 1, :] |= view[:, :, 0, :]
    # table[p, k] = full & ~orred[p, full ^ k]; full ^ k runs backwards over s.
    table = (~orred[:, ::-1]) & np.uint16(full)
    table = np.ascontiguousarray(table).reshape(-1)
    table.flags.writeable = False
    return table


@functools.cache
def row_table(length: int, variant: str = "nonogram") -> np.ndarray:
    """The known-mask table for the rows of a variant (module doc): ``line_table`` for nonograms."""
    table = line_table(length)
    if not rows_count_zeros(variant):
        return table
    size = 1 << length
    out = np.ascontiguousarray(table.reshape(size, size)[::-1]).reshape(-1)  # row p -> row full ^ p = size - 1 - p
    out.flags.writeable = False
    return out


@functools.cache
def spread_table(lines: int, length: int) -> np.ndarray:
    """``spread[i, x]``: line i's cells x, written as bits of the crossing encoding.

    For rows (``lines`` = n rows of ``length`` = m cells) bit c of x goes to
    bit ``c*n + i`` of the column-major word, and symmetrically for columns.
    """
    if length > SPREAD_MAX_LEN:
        raise ValueError(f"no spread table for length {length} (max {SPREAD_MAX_LEN})")
    x = np.arange(1 << length, dtype=np.uint64)
    out = np.zeros((max(lines, 1), 1 << length), dtype=np.uint64)
    for i in range(lines):
        for c in range(length):
            out[i] |= ((x >> np.uint64(c)) & np.uint64(1)) << np.uint64(c * lines + i)
    out.flags.writeable = False
    return out
