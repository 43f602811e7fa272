"""Numba kernels for ``stats``: grids grouped by their row clues.

No I/O and no validation here (``compute.py`` does that).  The grids whose rows
have the clues (c_0, ..., c_{n-1}) are the product of each clue's row
patterns; two grids share all their clues exactly when they are in the same
group and have the same column clues.  So a grid is *uniquely solvable* (its
clues belong to no other grid) when its column-clue key is met once in its
group: the kernel enumerates a group, writes one key per grid, sorts the
keys and counts the singletons.  Each grid also runs local logic (line
tables, as in ``engines.grid.kernel._propagate_tables``) counting rounds.

Rounds: round k is every row once, then every column once (steps 2k - 1
and 2k).  Rows are
independent of each other within a half (a row update reads only the
row's own cells), so a half's result does not depend on the order of its
lines.  A solved grid's difficulty is the number of the round in which its
last cell became known, whether that happened in the round's rows or its
columns; a round that only confirms the fixpoint is not counted.

A shard fixes the clues of the first ``depth`` rows of the order row 0,
row n-1, row 1, row 2, ..., row n-2 (its index in base C, the number of
clues of a row, first row most significant); the kernel runs through the
clues of the other rows.  Symmetry FLIPS {id, V, H, VH} acts on the pair
(clue of row 0, clue of row n-1): V swaps them, H reverses both clues.  It
maps groups to groups and preserves every measure (V reverses the order of
the rows and of each column's cells, H of each row's cells: a round maps to
a round), so as in ``engines.grid.kernel`` each clue tuple whose border pair is the least
of its orbit counts orbit-size times and the others not at all (``engines.enumeration.orbit_weight``,
compiled here; numba's cache watches this file only, so ``ORDER_DIGEST`` is a digest of that function's
source, checked by tests/test_index_order.py).

Output vector (int64, added into ``out``): see ``measures.VECTOR``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ...lines.bits import low_mask
from .. import enumeration
from ..base import GROUP_IDS
from .measures import GRIDS, HIST, SOLVABLE, SOLVED_NOT_UNIQUE, STUCK_START, UNIQUE

SOLVED = 1
FLIPS = GROUP_IDS["flips"]

#: ``util.generated.digest`` of ``ORDER_FUNCTIONS`` in ``engines.enumeration`` (module doc): renew it when they change.
ORDER_DIGEST = "7a469747d2c4fe5b"
ORDER_FUNCTIONS = ("orbit_weight",)
_orbit_weight = enumeration.compiled(njit(cache=True), ORDER_FUNCTIONS)["orbit_weight"]


@njit(cache=True)
def _half_pass(pats, lines, length, K, other, tab, spread):
    """Every line of one direction updated from ``K`` (its encoding; line i's cells ``pats[i]``) by ``tab``:
    (K, other, changed), the new cells spread into ``other``, the crossing encoding."""
    mask = low_mask(length)
    shift = np.uint64(length)
    changed = False
    for i in range(lines):
        sh = np.uint64(i * length)
        k = (K >> sh) & mask
        nk = np.uint64(tab[(pats[i] << shift) | k])
        if nk != k:
            K |= nk << sh
            other |= spread[i, nk & ~k]
            changed = True
    return K, other, changed


@njit(cache=True)
def _propagate_rounds(rows, cols, n, m, rtab, ctab, rspread, cspread):
    """Local logic to the fixpoint, rows first: (solved 0/1, steps, known mask in Grid layout).

    Steps are the halves: 2k - 1 after round k's rows, 2k after its columns;
    a solved grid's steps are those up to the half that solved it (its rounds:
    (steps + 1) // 2), a stuck grid's those up to the round that changed nothing.
    The plain kernel's loop (version 2); version 3 runs the count's generated
    lockstep passes instead (``specialize``).
    """
    total = low_mask(n * m)
    KR = np.uint64(0)
    KC = np.uint64(0)
    rounds = 0
    while True:
        rounds += 1
        KR, KC, by_rows = _half_pass(rows, n, m, KR, KC, rtab, rspread)
        if KR == total:
            return 1, 2 * rounds - 1, KR
        KC, KR, by_columns = _half_pass(cols, m, n, KC, KR, ctab, cspread)
        if KR == total:
            return 1, 2 * rounds, KR
        if not (by_rows or by_columns):
            return 0, 2 * rounds, KR


@njit(cache=True)
def tuple_weight(clue, n, C, rev, group):
    """Orbit size of a row-clue tuple's border pair (clue codes of row 0 and row n-1, the one row if n = 1) under
    the flips if it is its orbit's least, else 0 (``engines.enumeration.orbit_weight``)."""
    if group != FLIPS:
        return 1
    a = clue[0]
    b = clue[n - 1]
    code = a * C + b
    return _orbit_weight(code, (code, b * C + a, rev[a] * C + rev[b], rev[b] * C + rev[a]))


@njit(cache=True)
def tuple_weight_full(clue, n, C, rev, group, order):
    """Orbit size of a whole row-clue tuple under FLIPS if it is its orbit's least, else 0 (vector version 3).

    Tuples are compared in shard order (``order``: row 0, row n-1, rows 1 ..
    n-2), so a tuple whose border pair is not its orbit's least is never the
    least either, and whole shards are still skipped.  Unlike
    ``tuple_weight`` the middle rows break ties: H fixes every pair of
    one-run clues, and weighing by the border pair alone enumerated both a
    tuple and its mirror image whenever the border clues were palindromes.
    """
    if group != FLIPS:
        return 1
    fixed = 1
    for g in range(1, 4):
        cmp = 0
        for i in range(n):
            r = order[i]
            a = clue[r]
            src = n - 1 - r if g & 1 else r
            b = clue[src]
            if g & 2:
                b = rev[b]
            if b != a:
                cmp = -1 if b < a else 1
                break
        if cmp < 0:
            return 0
        fixed += cmp == 0
    return 4 // fixed


@njit(cache=True)
def row_order(n):
    """Rows in shard order: row 0, row n-1, rows 1 .. n-2."""
    order = np.zeros(max(n, 1), np.int64)
    if n >= 2:
        order[1] = n - 1
        for i in range(2, n):
            order[i] = i - 1
    return order


@njit(cache=True)
def _group_stats(
    clue, n, m, cols_first, pat_start, pats, cid_n, base, rtab, ctab, rspread, cspread, keys, rows, cols, acc
):
    """Add the measures of one row-clue group (unweighted) into ``acc``."""
    mask_n = low_mask(n)
    pick = np.zeros(n, np.int64)
    size = 1
    for r in range(n):
        size *= pat_start[clue[r] + 1] - pat_start[clue[r]]
        rows[r] = pats[pat_start[clue[r]]]
    for g in range(size):
        colword = np.uint64(0)
        for r in range(n):
            colword |= rspread[r, rows[r]]
        key = 0
        mult = 1
        for c in range(m):
            col = (colword >> np.uint64(c * n)) & mask_n
            cols[c] = col
            key += cid_n[col] * mult
            mult *= base
        if cols_first:
            solved, steps, known = _propagate_rounds(cols, rows, m, n, ctab, rtab, cspread, rspread)
        else:
            solved, steps, known = _propagate_rounds(rows, cols, n, m, rtab, ctab, rspread, cspread)
        if solved:
            acc[SOLVABLE] += 1
            acc[HIST + (steps + 1) // 2] += 1
            acc[HIST + n * m + 1 + steps] += 1
        elif known == 0:
            acc[STUCK_START] += 1
        keys[g] = key * 2 + solved
        # next grid of the group: an odometer over each row's patterns, last row fastest
        r = n - 1
        while r >= 0:
            pick[r] += 1
            if pick[r] < pat_start[clue[r] + 1] - pat_start[clue[r]]:
                rows[r] = pats[pat_start[clue[r]] + pick[r]]
                break
            pick[r] = 0
            rows[r] = pats[pat_start[clue[r]]]
            r -= 1
    acc[GRIDS] += size
    part = keys[:size]
    part.sort()
    i = 0
    while i < size:
        j = i + 1
        while j < size and (part[j] >> 1) == (part[i] >> 1):
            j += 1
        if j == i + 1:
            acc[UNIQUE] += 1
        else:
            for t in range(i, j):
                acc[SOLVED_NOT_UNIQUE] += part[t] & 1
        i = j


@njit(cache=True)
def stats_shard(shard, depth, n, m, group, cols_first, pat_start, pats, rev, cid_n, base, max_group, rtab, ctab, rspread, cspread, out):  # fmt: skip
    """Add the symmetry-weighted measures of one shard into ``out`` (see module doc)."""
    C = len(pat_start) - 1
    order = row_order(n)
    clue = np.zeros(n, np.int64)
    s = shard
    for i in range(depth - 1, -1, -1):
        clue[order[i]] = s % C
        s //= C
    free = n - depth
    keys = np.zeros(max_group, np.int64)
    rows = np.zeros(n, np.uint64)
    cols = np.zeros(m, np.uint64)
    acc = np.zeros(len(out), np.int64)
    tuples = 1
    for _ in range(free):
        tuples *= C
    for t in range(tuples):
        x = t
        for i in range(n - 1, depth - 1, -1):
            clue[order[i]] = x % C
            x //= C
        w = tuple_weight(clue, n, C, rev, group)
        if w == 0:
            continue
        acc[:] = 0
        _group_stats(
            clue, n, m, cols_first, pat_start, pats, cid_n, base, rtab, ctab, rspread, cspread, keys, rows, cols, acc
        )
        for i in range(len(out)):
            out[i] += w * acc[i]


@njit(cache=True, parallel=True)
def stats_shards(shards, depth, n, m, group, cols_first, pat_start, pats, rev, cid_n, base, max_group, rtab, ctab, rspread, cspread, width):  # fmt: skip
    """``stats_shard`` for each shard of an array (one output row each), over numba threads."""
    out = np.zeros((len(shards), width), np.int64)
    for i in prange(len(shards)):
        stats_shard(
            shards[i],
            depth,
            n,
            m,
            group,
            cols_first,
            pat_start,
            pats,
            rev,
            cid_n,
            base,
            max_group,
            rtab,
            ctab,
            rspread,
            cspread,
            out[i],
        )
    return out


#: Widest digit of the radix sort in ``count_singletons`` (a 2^RADIX_BITS histogram stays in the L1 cache);
#: fewer keys take narrower digits, so that clearing the histogram costs no more than a pass.
RADIX_BITS = 12
#: Fewer keys than this are sorted by comparison instead.
RADIX_MIN = 256


@njit(cache=True)
def _bit_length(x):
    """Bits of a non-negative integer (0 for 0)."""
    b = 0
    while x:
        x >>= 1
        b += 1
    return b


#: Groups with at most this many keys count their singletons in a hash table (one pass, no sort),
#: larger ones by the radix sort (whose passes stream through memory).
HASH_MAX = 1 << 14
#: Smallest hash table (entries); a table is at least twice its keys, so probes stay short.
HASH_MIN = 64


@njit(cache=True)
def _singletons_hashed(keys, nk, table, size):
    """How many of ``keys[:nk]`` (non-negative) occur exactly once, by open addressing in ``table[:size]``.

    ``size``: a power of two of at least 2 nk.  An entry is key * 2 + (met
    twice), -1 when empty; the keys are left as they are.
    """
    table[:size] = -1
    mask = np.uint64(size - 1)
    shift = np.uint64(64 - _bit_length(size - 1))
    single = 0
    for i in range(nk):
        k = keys[i]
        h = (np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> shift
        while True:
            e = table[h]
            if e < 0:
                table[h] = k << 1
                single += 1
                break
            if (e >> 1) == k:
                if (e & 1) == 0:
                    table[h] = e | 1
                    single -= 1
                break
            h = (h + np.uint64(1)) & mask
    return single


@njit(cache=True)
def count_singletons(keys, nk, tmp, key_bits):
    """How many of ``keys[:nk]`` (non-negative, below 2^key_bits) occur exactly once.

    Up to HASH_MAX keys (and a ``tmp`` of at least twice as many entries) by
    a hash table in ``tmp`` (``_singletons_hashed``), the keys left as they
    are; more by an LSD radix sort (digits of RADIX_BITS bits, ``tmp`` as
    large as ``keys``) that sorts them in place, then one scan of the runs.
    """
    part = keys[:nk]
    size = HASH_MIN
    while size < 2 * nk:
        size <<= 1
    if nk <= HASH_MAX and size <= len(tmp):
        return _singletons_hashed(keys, nk, tmp, size)
    if nk < RADIX_MIN:
        part.sort()
    else:
        widest = min(RADIX_BITS, max(6, _bit_length(nk)))
        digits = max(1, (key_bits + widest - 1) // widest)
        width = (key_bits + digits - 1) // digits
        buckets = 1 << width
        mask = buckets - 1
        count = np.zeros(buckets + 1, np.int64)
        src = part
        dst = tmp[:nk]
        for d in range(digits):
            shift = d * width
            count[:] = 0
            for i in range(nk):
                count[((src[i] >> shift) & mask) + 1] += 1
            for b in range(buckets):
                count[b + 1] += count[b]
            for i in range(nk):
                b = (src[i] >> shift) & mask
                dst[count[b]] = src[i]
                count[b] += 1
            src, dst = dst, src
        if digits % 2:
            part[:] = src
    single = 0
    i = 0
    while i < nk:
        j = i + 1
        while j < nk and part[j] == part[i]:
            j += 1
        single += j == i + 1
        i = j
    return single
