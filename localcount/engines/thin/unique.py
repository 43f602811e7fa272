"""Uniquely solvable 2×m grids (and m×2, 1×m), counted without listing the 4^m grids.

Which grids a 2×m grid cannot be told apart from.  A column of two cells has
the clue ``()``, ``(1)`` or ``(2)``: empty, one cell, full.  So every grid
with the same column clues as a grid ``g`` has the same empty and full
columns as ``g`` and differs from it only in which of the one-cell columns
have their cell on top.  ``g`` is uniquely solvable when no such other grid,
a *twin*, also has both of ``g``'s row clues.

A walk along the columns.  Read ``g`` column by column (each column is one
of four kinds: empty, full, top only, bottom only) and keep, beside it, every
would-be twin ``g'`` that has differed from ``g`` somewhere so far and could
still end with the same row clues.  A would-be twin is kept only as its
*comparison* with ``g``, row by row: the runs one of the two rows has closed
and the other has not matched yet (the row that is *ahead* and the list of
its pending runs), how many more cells the row that is behind needs to
finish the pending run it is in, and the length of the open run of the row
that is ahead.  Lengths are kept relative to ``g``'s open runs, so ``g``
itself contributes only whether each of its two rows is inside a run.  The
state of the walk is those two bits and the *set* of comparisons (this set
is what makes the count exact: ``g`` is unique when no member of it ends
with both rows' pending lists empty).  Grids are counted per state, so the
work is the number of distinct states, not the number of grids.  A
comparison that is back in step in both rows (nothing pending, equal open
runs) proves a twin (copy ``g`` from there on), and the grid's state is
dropped; a comparison that cannot end in step in the columns left (an exact,
memoised search over both grids' futures) is forgotten.  Swapping the two
rows maps states to states with the same counts, so a state and its mirror
are stored once.

Why the lists.  A twin can run many runs ahead of ``g`` in one row (swap
the rows of a grid whose two rows have the same clue, or reverse a grid
whose clues are palindromes), so the pending lists have no bound: a walk
that kept at most two pending runs per row would already miss the twins of
some 2×11 grids (at most one: 2×7).  Counting pairs (grid, twin) would not
do either: that gives the sum of s·(s - 1) over the classes of s grids with
the same clues, not the number of classes with s = 1.  The number of states
still grows exponentially, but slowly: measured, about 1.65^m at the widest
column against 4^m grids, and the time about 1.9^m (2×22 in seconds, 2×30
in minutes and a few GB).

The other shapes.  An m×2 nonogram is the transpose of a 2×m one.  In a
yesnogram the rows count runs of 0s.  A 2×m yesnogram is the complement of a
2×m nonogram (complementing maps a row's 0-run clue to its 1-run clue, and
maps the three classes of two-cell columns, {00}, {11}, {01, 10}, onto
themselves), and an m×2 yesnogram transposed is a 2×m grid whose m-cell
lines count 1s and whose two-cell lines count 0s, which again tell apart
exactly {00}, {11}, {01, 10}; so all four counts are the same number (as
OEIS A383345 notes for the m×2 yesnogram).  A grid with one row or one
column is determined by its one-cell lines: 2^m.  The tests check every one
of these cases against brute force.

Layer: an engine (``engines.thin``), which may import ``localcount.clues``,
``localcount.lines``, ``localcount.util`` and numpy; this module is pure
Python and imports only ``localcount.clues`` (no numba, nothing compiled).
"""

from __future__ import annotations

from collections import defaultdict

from localcount.clues import check_variant

# The four kinds of column, as (top cell, bottom cell): empty, full, top only, bottom only.
_KINDS = ((0, 0), (1, 1), (1, 0), (0, 1))
#: The kinds a twin may have where ``g`` has kind k (same column clue).
_SAME_CLUE = ((0,), (1,), (2, 3), (2, 3))

# A row's comparison of g with a would-be twin g' is a tuple (side, r, rest, ahead_open, lag_open):
#   side 0:  nothing pending; r = (g's open run) - (g''s open run); lag_open = g' is inside a run.
#   side 1:  g is ahead: g' must finish r more cells of its current pending run, then produce the
#            runs ``rest``; ahead_open = length of g's open run; lag_open = g' is inside a run.
#   side -1: g' is ahead: g must finish r more cells, then produce ``rest``; ahead_open = length of
#            g''s open run; lag_open = g is inside a run.
# ``g_open`` (is g inside a run in this row) is kept once per state, not per comparison.


def _g_cell(st: tuple, x: int, g_open: int):
    """The comparison after g's next cell x (None: it can no longer end in step)."""
    side, r, rest, ao, lo = st
    if side == 0:
        if x:
            return (0, r + 1, rest, ao, lo)
        if g_open:  # g closes a run of length a: g' (open run b) owes a - b = r more cells
            return (1, r, (), 0, lo)
        return st
    if side == 1:
        if x:
            return (1, r, rest, ao + 1, lo)
        if ao:
            return (1, r, rest + (ao,), 0, lo)
        return st
    if x:
        return (-1, r - 1, rest, ao, 1)
    if g_open:  # g closes the run it owed: it must be exactly finished
        if r:
            return None
        if rest:
            return (-1, rest[0], rest[1:], ao, 0)
        return (0, -ao, (), 0, 1 if ao else 0)
    return st


def _twin_cell(st: tuple, y: int, g_open_now: int):
    """The comparison after g''s next cell y (g's cell already applied)."""
    side, r, rest, ao, lo = st
    if side == 0:
        if y:
            return (0, r - 1, rest, ao, 1)
        if lo:  # g' closes a run of length b: g (open run a) owes b - a = -r more cells
            return (-1, -r, (), 0, g_open_now)
        return st
    if side == 1:
        if y:
            return (1, r - 1, rest, ao, 1)
        if lo:
            if r:
                return None
            if rest:
                return (1, rest[0], rest[1:], ao, 0)
            return (0, ao, (), 0, 0)
        return st
    if y:
        return (-1, r, rest, ao + 1, lo)
    if ao:
        return (-1, r, rest + (ao,), 0, lo)
    return st


def _row_step(st: tuple, g_open: int, x: int, y: int):
    """One column of one row: g's cell x, then g''s cell y (None: dead)."""
    s = _g_cell(st, x, g_open)
    if s is None:
        return None
    s = _twin_cell(s, y, x)
    if s is None or (s[0] and s[1] < 0):  # the row behind is already past its pending run
        return None
    if s[0] == -1 and s[4] != x:
        s = (-1, s[1], s[2], s[3], x)
    return s


def _next_columns(t: tuple, b: tuple, gt: int, gb: int):
    """(k, top, bottom) for each kind k of g's next column and each kind of the twin's with the same clue
    after which both rows' comparisons (``t``, ``b``; g inside a run: ``gt``, ``gb``) can still end in step."""
    for k, (x, xb) in enumerate(_KINDS):
        for k2 in _SAME_CLUE[k]:
            y, yb = _KINDS[k2]
            nt = _row_step(t, gt, x, y)
            if nt is None:
                continue
            nb = _row_step(b, gb, xb, yb)
            if nb is not None:
                yield k, nt, nb


def _need(st: tuple) -> int:
    """Cells the row that is behind needs at least to produce what it owes."""
    if st[0] == 0:
        return 0
    rest = st[2]
    return st[1] + sum(rest) + len(rest)


def _in_step(t: tuple, b: tuple) -> bool:
    return t[0] == 0 and t[1] == 0 and b[0] == 0 and b[1] == 0


class _Walk:
    """The memo tables of one count: comparisons interned as small ints, their successors."""

    def __init__(self):
        self.rows: dict = {}
        self.row_list: list = []
        self.pairs: dict = {}
        self.top: list = []
        self.bottom: list = []
        self.mirror: list = []
        self.viable_memo: dict = {}

    def row(self, st: tuple) -> int:
        i = self.rows.get(st)
        if i is None:
            i = self.rows[st] = len(self.row_list)
            self.row_list.append(st)
        return i

    def pair(self, t: tuple, b: tuple) -> int:
        """The id of the comparison (top row t, bottom row b), and of its mirror (rows swapped)."""
        ti, bi = self.row(t), self.row(b)
        e = self.pairs.get((ti, bi))
        if e is None:
            e = self.pairs[(ti, bi)] = len(self.top)
            self.top.append(ti)
            self.bottom.append(bi)
            self.mirror.append(e)
            if ti != bi:
                f = self.pairs[(bi, ti)] = len(self.top)
                self.top.append(bi)
                self.bottom.append(ti)
                self.mirror.append(e)
                self.mirror[e] = f
        return e

    def viable(self, e: int, flags: int, rem: int) -> bool:
        """Whether some futures of g and g' (rem columns, same column clues) end comparison e in step."""
        key = (e * 4 + flags) * 64 + rem if rem < 64 else (e, flags, rem)
        got = self.viable_memo.get(key)
        if got is not None:
            return got
        t, b = self.row_list[self.top[e]], self.row_list[self.bottom[e]]
        gt, gb = flags >> 1, flags & 1
        ok = False
        if rem == 0:
            nt, nb = _row_step(t, gt, 0, 0), _row_step(b, gb, 0, 0)
            ok = bool(nt and nb and nt[0] == 0 and nb[0] == 0)
        else:
            for k, nt, nb in _next_columns(t, b, gt, gb):
                x, xb = _KINDS[k]
                if _in_step(nt, nb) or (_need(nt) < rem and _need(nb) < rem
                                        and self.viable(self.pair(nt, nb), x * 2 + xb, rem - 1)):  # fmt: skip
                    ok = True
                    break
        self.viable_memo[key] = ok
        return ok

    def successors(self, e: int, flags: int, rem: int) -> list:
        """Per column kind of g: None when some g' is certainly a twin, else the surviving comparisons."""
        t, b = self.row_list[self.top[e]], self.row_list[self.bottom[e]]
        gt, gb = flags >> 1, flags & 1
        out = [[] for _ in _KINDS]
        for k, nt, nb in _next_columns(t, b, gt, gb):
            if out[k] is None:
                continue
            if _in_step(nt, nb):
                out[k] = None
                continue
            if _need(nt) > rem or _need(nb) > rem:
                continue
            f = self.pair(nt, nb)
            x, xb = _KINDS[k]
            if self.viable(f, x * 2 + xb, rem):
                out[k].append(f)
        return [None if nxt is None else tuple(nxt) for nxt in out]

    def spawn(self, flags: int, k: int, rem: int) -> tuple:
        """A twin that starts to differ here: g has one-cell kind k, g' the other one."""
        gt, gb = flags >> 1, flags & 1
        x, xb = _KINDS[k]
        y, yb = _KINDS[5 - k]
        nt = _row_step((0, 0, (), 0, gt), gt, x, y)
        nb = _row_step((0, 0, (), 0, gb), gb, xb, yb)
        if nt is None or nb is None or _need(nt) > rem or _need(nb) > rem:
            return ()
        f = self.pair(nt, nb)
        return (f,) if self.viable(f, x * 2 + xb, rem) else ()

    def count(self, m: int) -> int:
        """Uniquely solvable 2×m nonograms."""
        mirror = self.mirror
        layer = {(0, ()): 1}  # (flags = 2·top_open + bottom_open, sorted comparison ids) -> grids
        for col in range(m):
            rem = m - col - 1
            succ_memo: dict = {}
            spawns = {(fl, k): self.spawn(fl, k, rem) for fl in range(4) for k in (2, 3)}
            new: dict = defaultdict(int)
            for (flags, comps), n in layer.items():
                # the comparisons after an empty, full, top-only, bottom-only column of g
                s0, s1, s2, s3 = set(), set(), set(), set()
                twin0 = twin1 = twin2 = twin3 = False
                for e in comps:
                    key = e * 4 + flags
                    s = succ_memo.get(key)
                    if s is None:
                        s = succ_memo[key] = self.successors(e, flags, rem)
                    a, b, c, d = s
                    if a is None:
                        twin0 = True
                    else:
                        s0.update(a)
                    if b is None:
                        twin1 = True
                    else:
                        s1.update(b)
                    if c is None:
                        twin2 = True
                    else:
                        s2.update(c)
                    if d is None:
                        twin3 = True
                    else:
                        s3.update(d)
                # a twin is certain: g is not unique whatever comes next, and is dropped
                for flags2, comps2, twin in ((0, s0, twin0), (3, s1, twin1)):
                    if not twin:
                        t = tuple(sorted(comps2))
                        if t:  # the row-swapped state has the same count: keep the smaller one
                            u = tuple(sorted([mirror[f] for f in t]))
                            if u < t:
                                t = u
                        new[(flags2, t)] += n
                if not twin2:  # top only: stored as its mirror, bottom only
                    s2.update(spawns[(flags, 2)])
                    new[(1, tuple(sorted([mirror[f] for f in s2])))] += n
                if not twin3:
                    s3.update(spawns[(flags, 3)])
                    new[(1, tuple(sorted(s3)))] += n
            layer = new
        # With no column left, a comparison is kept only if it ends in step: then g has a twin.
        return sum(n for (_, comps), n in layer.items() if not comps)


def unique_2xm(m: int, variant: str = "nonogram") -> int:
    """The number of uniquely solvable 2×m grids of a variant (the same for both, see the module doc)."""
    check_variant(variant)
    if m < 0:
        raise ValueError(f"m must be >= 0, got {m}")
    return _Walk().count(m)


def unique_thin(n: int, m: int, variant: str = "nonogram") -> int:
    """Uniquely solvable n×m grids when n or m is at most 2 (ValueError for other shapes)."""
    check_variant(variant)
    if n < 0 or m < 0:
        raise ValueError(f"a size must be >= 0, got {n}x{m}")
    if n == 0 or m == 0:
        return 1
    if n == 1 or m == 1:
        return 2 ** (n * m)  # every line of one cell gives its cell away
    if n == 2:
        return unique_2xm(m, variant)
    if m == 2:
        return unique_2xm(n, variant)  # transpose (the module doc: also for yesnograms)
    raise ValueError(f"unique_thin counts n×m grids with n or m at most 2, got {n}x{m}")
