"""Thin grids: a counter for 2×m built on what two rows allow.

In a 2×m grid (rows ``a`` and ``b``, m-bit Lines) a column is empty, full
or holds one filled cell; its clue says which, so local logic knows the
empty and full columns after one look, and in a one-cell column the two
cells are complements: knowing either knows both.  So the knowledge of a
2×m grid at any moment is one set ``U`` of unknown columns, the same in
both rows, starting from ``U = a ^ b``, and each row update shrinks it.

A row update is the set of its unknown cells that stay unknown: the cells
where some other pattern with the row's clue, agreeing with the row off
``U``, differs.  For row ``a`` that is ``T_a[U]``, the OR of every
*difference* ``a ^ p`` (p a line with a's clue) that lies inside ``U``: a
subset-OR (zeta) transform over the 2^m sets, built once per row ``a`` in
O(m·2^m) word operations and then a single lookup per update.  The other
row uses the word-operation line solver (``lines.solvers.line_options_bits_kernel``).
Updates alternate until ``U`` is empty (solved) or a row changes nothing
after the other (stuck: a line update is idempotent, so nothing else can
change; the fixpoint does not depend on the order, see ``engines.grid.kernel``).

Two ways to update the first row make two code paths (``ROW_MODES``):
``table`` (the zeta table) and ``word`` (the line solver for both rows).

Symmetry: ``flips`` counts one grid per orbit of {identity, swap the rows,
reverse both rows, both} (the upside-down and left-right flips of 2×m) —
the pair (a, b) whose index ``a << m | b`` is least — times the orbit's
size; ``none`` counts every grid.  Both preserve local solvability.

Enumeration index ``a << m | b``; shard s (of 2^bits, bits ≤ m) is every
grid whose first row ``a`` has s in its top ``bits`` bits, so shards never
talk, any can be re-run alone, and their counts add up to the total.
No I/O and no validation in the kernels; ``layout.ThinLayout`` is the
public face (``count_thin_shard`` and ``estimate_thin_seconds`` below are
what it calls).
"""

from __future__ import annotations

import functools
import time

import numpy as np
from numba import njit

from ...lines.bits import line_clue_into, reverse_bits
from ...lines.solvers import line_options_bits_kernel


@njit(cache=True)
def _clue_keys(m):
    """Per line x of m cells, a number naming its clue: the runs packed to the left, one empty cell apart."""
    keys = np.empty(1 << m, np.int64)
    runs = np.zeros(m + 1, np.int64)
    for x in range(1 << m):
        t = line_clue_into(np.uint64(x), m, runs)
        key = 0
        pos = 0
        for i in range(t):
            key |= ((1 << runs[i]) - 1) << pos
            pos += runs[i] + 1
        keys[x] = key
    return keys


@functools.lru_cache(maxsize=2)
def clue_groups(m: int) -> tuple:
    """(order, start, end): the lines with x's clue are order[start[x]:end[x]]."""
    keys = _clue_keys(m)
    order = np.argsort(keys, kind="stable").astype(np.int32)
    ranked = keys[order]
    start = np.searchsorted(ranked, keys, "left").astype(np.int32)
    end = np.searchsorted(ranked, keys, "right").astype(np.int32)
    return order, start, end


@njit(cache=True)
def _or_into(dst, src, n):
    """dst[i] |= src[i] for i < n (two views: a loop the compiler vectorises)."""
    for i in range(n):
        dst[i] |= src[i]


@njit(cache=True)
def zeta_table(a, m, order, lo, hi, T):
    """T[U] = OR of the differences a ^ p inside U, p over order[lo:hi] (the lines with a's clue).

    Level j of the transform ORs T[U without bit j] into T[U] for every U with
    bit j.  Levels 0-2 run on 8 entries at a time in registers; each higher
    level ORs one half of every 2^(j+1) block into the other, as two views so
    that the loop vectorises (about 4x faster than one loop over the array).
    """
    size = 1 << m
    T[:] = 0
    for k in range(lo, hi):
        d = order[k] ^ a
        T[d] = d
    step = 1
    if m >= 3:
        for base in range(0, size, 8):
            t0 = T[base]
            t1 = T[base + 1] | t0
            t2 = T[base + 2] | t0
            t3 = T[base + 3] | t2 | t1
            t4 = T[base + 4] | t0
            t5 = T[base + 5] | t4 | t1
            t6 = T[base + 6] | t4 | t2
            T[base + 1] = t1
            T[base + 2] = t2
            T[base + 3] = t3
            T[base + 4] = t4
            T[base + 5] = t5
            T[base + 6] = t6
            T[base + 7] = T[base + 7] | t6 | t5 | t3
        step = 8
    while step < size:
        for base in range(0, size, 2 * step):
            _or_into(T[base + step : base + 2 * step], T[base : base + step], step)
        step *= 2


@njit(cache=True)
def still_unknown(x, U, clue, t, m, Q):
    """The cells of U that the line x (clue[:t]) leaves unknown when it knows every cell off U."""
    full = np.uint64((1 << m) - 1)
    known = full & ~np.uint64(U)
    can0, can1 = line_options_bits_kernel(clue, t, m, np.uint64(x) & known, ~np.uint64(x) & known, Q)
    return np.int64(np.uint64(U) & can0 & can1)


@njit(cache=True)
def orbit_weight(a, b, ra, rb, m):
    """The orbit size of (a, b) if its index is the least of its orbit, else 0 (ra, rb: the reversed rows)."""
    me = (a << m) | b
    swap = (b << m) | a
    flip = (ra << m) | rb
    both = (rb << m) | ra
    if swap < me or flip < me or both < me:
        return 0
    return 1 + (swap != me) + (flip != me and flip != swap) + (both != me and both != swap and both != flip)


@njit(cache=True)
def _count_rows(a_lo, a_hi, m, table, symmetric, order, start, end):
    """Solvable 2×m grids with first row in [a_lo, a_hi), weighted by orbit if ``symmetric``."""
    T = np.zeros(1 << m if table else 1, np.int32)  # masks of m <= 25 bits
    clue_a = np.zeros(m + 1, np.int64)
    clue_b = np.zeros(m + 1, np.int64)
    Q = np.zeros(m + 2, np.uint64)
    total = 0
    for a in range(a_lo, a_hi):
        ra = np.int64(reverse_bits(np.uint64(a), m))
        if symmetric and ra < a:
            continue  # (ra, rb) has the smaller index for every b
        if table:
            zeta_table(a, m, order, start[a], end[a], T)
        ta = line_clue_into(np.uint64(a), m, clue_a)
        for b in range(a if symmetric else 0, 1 << m):
            w = 1
            if symmetric:
                rb = np.int64(reverse_bits(np.uint64(b), m))
                w = orbit_weight(a, b, ra, rb, m)
                if w == 0:
                    continue
            U = a ^ b
            U = np.int64(T[U]) if table else still_unknown(a, U, clue_a, ta, m, Q)
            if U:
                tb = line_clue_into(np.uint64(b), m, clue_b)
                while True:
                    after_b = still_unknown(b, U, clue_b, tb, m, Q)
                    if after_b == U:
                        break  # row b changed nothing after row a: stuck
                    U = np.int64(T[after_b]) if table else still_unknown(a, after_b, clue_a, ta, m, Q)
                    if U == after_b or U == 0:
                        break
            if U == 0:
                total += w
    return total


def count_thin_shard(lay, shard: int) -> int:
    """The (orbit-weighted) count of solvable 2×m grids in one shard (serial, this process)."""
    if not 0 <= shard < lay.shards:
        raise ValueError(f"shard {shard} is not one of the {lay.shards} shards of {lay.key}")
    m = lay.m
    width = 1 << (m - lay.bits)
    order, start, end = clue_groups(m)
    return int(
        _count_rows(
            shard * width, (shard + 1) * width, m, lay.rows == "table", lay.symmetry == "flips", order, start, end
        )
    )


def estimate_thin_seconds(lay, samples: int = 8) -> float:
    """Expected seconds of the whole layout on one core, from timing a random sample of first rows."""
    m = lay.m
    order, start, end = clue_groups(m)
    table, symmetric = lay.rows == "table", lay.symmetry == "flips"
    _count_rows(0, 1, m, table, symmetric, order, start, end)  # compile / load from the cache first
    rows = np.random.default_rng(1).integers(0, 1 << m, size=min(samples, 1 << m))
    begin = time.perf_counter()
    for a in rows:
        _count_rows(int(a), int(a) + 1, m, table, symmetric, order, start, end)
    return (time.perf_counter() - begin) * (1 << m) / len(rows)
