"""The stats kernel generated per size (vector version 3): the count's lockstep propagation, grouped by row clues.

One enumeration gives every measure.  The grids of a row-clue group (the
product of each row clue's patterns, as in ``kernel``) are enumerated by
nested loops over the first rows and a flat odometer over the last two or three (``flat_count``),
``tuning.STATS_LANES`` grids at a time; each lane runs the lockstep propagation that the
count's generated kernels run (``engines.codegen.lockstep``, the
same source), here counting its half passes: a solved lane's steps.  Rows
first, the first row pass knows nothing yet, so it depends on the row clues
alone: it is done once per group, and the first column pass reads a table
made for the group (``_group_source``).

Uniqueness needs keys only for the grids that local logic does not solve:
a locally solvable grid is uniquely solvable (local logic deduces only what
every grid with these clues shares), and two grids with the same clues
reach the same fixpoint, so a twin of a stuck grid is stuck too and is in
the same row-clue group.  So a lane that ends unsolved writes its
column-clue key; the group's keys are sorted and the singletons are the
uniquely solvable stuck grids.  unique = solvable + those.  (Unlike version
2, the kernel no longer checks that no solvable grid has a twin: it never
meets the solvable grids' keys; the tests check it against the brute-force
reference.)

``first``: "rows" for the rows path; "columns" for the transposed path,
which enumerates the m×n transposes and runs local logic columns first.

The source is written to the kernel cache and imported from there
(``util.generated``), like the count's.
"""

from __future__ import annotations

import functools

import numpy as np

from ... import tuning
from ...lines import bits
from ...lines.tables import clue_ids
from ...util import generated
from ..codegen import block, lockstep, module_source, or_tree, u64
from . import kernel
from .measures import GRIDS, HIST, SOLVABLE, STUCK_START, UNIQUE, steps_at

#: The modules the generated code calls (``codegen.module_source``'s digest): kernel.py and lines/bits.py.
CALLED = (kernel, bits)


def key_columns(n: int) -> int:
    """How many columns of n cells one lookup of the key table covers."""
    return max(1, tuning.KEY_TABLE_BITS // n)


def key_table(cid_n: np.ndarray, n: int, base: int) -> np.ndarray:
    """The key of ``key_columns(n)`` columns of n cells (bits of a column word) in base ``base``.

    Entry w is the sum over those columns i of cid_n[column i of w] * base^i;
    the empty column's clue id is 0, so a last chunk of fewer columns reads
    the same table.
    """
    k = key_columns(n)
    words = np.arange(1 << (k * n), dtype=np.int64)
    mask = (1 << n) - 1
    out = np.zeros(len(words), np.int64)
    for i in range(k):
        out += cid_n[(words >> (i * n)) & mask].astype(np.int64) * base**i
    return out


def shard_args(prep, depth: int, group: int) -> tuple:
    """The arguments of a generated module's ``stats_shard``/``stats_shards`` after the shard(s), before ``out``/``width``."""
    ktab = key_table(prep.cid_n, prep.n, prep.base)
    return (depth, group, prep.pat_start, prep.pats, prep.rev, ktab, prep.max_group, *prep.tables)


def flat_count(n: int, most: int) -> int:
    """How many last rows of an n-row group run flat, when a row clue has at most ``most`` patterns (at least 2)."""
    k = min(2, n)
    while k < min(tuning.FLAT_MAX, n) and most ** (k + 1) <= tuning.FLAT_CAP:
        k += 1
    return k


def _group_source(n: int, m: int, base: int, first: str, lanes: int, nflat: int) -> str:
    """``_group``: add the measures of one row-clue group into ``acc`` (unweighted); its last ``nflat`` rows flat.

    Every lane starts after its first two half passes, its knowledge in ``KR{g}``, so the lockstep runs
    rows first (``codegen.lockstep``'s done="columns").  Rows first, the first row pass depends on the row clues alone
    (nothing known yet: the cells common to every pattern of each clue), the same for every grid of the
    group: ``k1``; the first column pass then updates column j from its cells and k1's column j alone, read
    from ``fc[j, column cells]``, filled once per group.  Columns first (the transposed path), ``fc``
    is the first column pass from nothing, the same for every group (filled by ``stats_shard``).
    """
    ind = "    "
    flat = list(range(max(0, n - nflat), n))
    nested = list(range(n - len(flat)))
    rows_first = first == "rows"
    out = _group_start(n, m, rows_first) + _flat_table(flat, lanes)
    loops, prev_w, depth = _nested_loops(nested, ind)
    out += loops
    out.append(f"{depth}for t in range(0, tot, {lanes}):")
    body = _lane_start(n, m, lanes, flat, nested, prev_w)
    # Rows first, a lane has run two half passes before the loop (the lockstep counts one).
    # After the loop each valid lane (v, 0 or 1) that ends solved adds 1 to the counter of its steps.
    before = " + 1" if rows_first else ""
    body += lockstep(n, m, lanes, steps=True, done="columns", check=tuning.STATS_CHECK)
    body += [f"hist[w, st{g}{before}] += v{g} & (1 - u{g})" for g in range(lanes)]
    body += _lane_end(n, m, base, lanes)
    out += [depth + ind + x for x in body]
    tail = f"""
single = count_singletons(keys, nk, tmp, {(base**m - 1).bit_length()})
sums[{GRIDS}] += w * size
sums[{SOLVABLE}] += w * solved
sums[{UNIQUE}] += w * (solved + single)
sums[{STUCK_START}] += w * stuck"""
    out += tail.strip("\n").split("\n")
    return block(out, ind)


def _group_start(n: int, m: int, rows_first: bool) -> list:
    """A group's counters and size; rows first, its first row pass ``k1`` (and a group it solves, whole)."""
    full = (1 << (n * m)) - 1
    out = ["nk = 0", "solved = 0", "stuck = 0", "size = 1"]
    out += [f"size *= pat_start[clue[{r}] + 1] - pat_start[clue[{r}]]" for r in range(n)]
    out.append("w_ = np.uint64(0)")
    if rows_first:
        out.append(
            "k1 = "
            + " | ".join(f"rspread[{r}, np.uint64(rtab[pats[pat_start[clue[{r}]]] << {u64(m)}])]" for r in range(n))
        )
        out += [
            f"if k1 == {u64(full)}:",  # every row clue fixes its row: one grid, solved by the first row pass
            f"    sums[{GRIDS}] += w * size",
            f"    sums[{SOLVABLE}] += w * size",
            f"    sums[{UNIQUE}] += w * size",
            "    hist[w, 1] += size",
            "    return",
            "_first_columns(fc, k1, ctab, cspread)",
        ]
    return out


def _flat_table(flat: list, lanes: int) -> list:
    """The last rows' combinations, once per group: their rows and column bits, padded to whole lane steps."""
    out = [f"s{r} = pat_start[clue[{r}]]" for r in flat]
    out += [f"p{r} = pat_start[clue[{r}] + 1] - s{r}" for r in flat]
    out += [f"d{r} = 0" for r in flat]
    out.append("tot = " + " * ".join(f"p{r}" for r in flat))
    out.append(f"for t in range(tot + {lanes - 1}):")
    out.append("    u = t if t < tot else 0")
    out += ["    " + x for x in _decode(flat)]
    out += [f"    flat_rows[{k}, t] = pats[s{r} + d{r}]" for k, r in enumerate(flat)]
    out.append("    flat_w[t] = " + " | ".join(f"rspread[{r}, flat_rows[{k}, t]]" for k, r in enumerate(flat)))
    return out


def _nested_loops(nested: list, ind: str) -> tuple:
    """(statements, the innermost column word's name, its indent): one loop per nested row's patterns."""
    out = []
    prev_w = "w_"
    depth = ""
    for r in nested:
        out.append(f"{depth}for i{r} in range(pat_start[clue[{r}]], pat_start[clue[{r}] + 1]):")
        d = depth + ind
        out.append(f"{d}r{r} = pats[i{r}]")
        out.append(f"{d}w{r} = {prev_w} | rspread[{r}, r{r}]")
        prev_w = f"w{r}"
        depth = d
    return out, prev_w, depth


def _lane_start(n: int, m: int, lanes: int, flat: list, nested: list, prev_w: str) -> list:
    """Each lane's rows, columns and knowledge after the first column pass (``fc``); ``v{g}``: a real grid."""
    mask_n = (1 << n) - 1
    body = []
    for g in range(lanes):
        body += [f"r{r}_{g} = flat_rows[{k}, t + {g}]" for k, r in enumerate(flat)]
        body.append(f"colword{g} = {prev_w} | flat_w[t + {g}]")
        for j in range(m):
            sh = f" >> {u64(j * n)}" if j else ""
            body.append(f"c{j}_{g} = (colword{g}{sh}) & {u64(mask_n)}")
        body.append(f"KR{g} = " + or_tree([f"fc[{j}, c{j}_{g}]" for j in range(m)]))
    # The nested rows of lane g are the shared ones.
    for r in nested:
        body += [f"r{r}_{g} = r{r}" for g in range(lanes)]
    body += [f"v{g} = np.int64(t + {g} < tot)" for g in range(lanes)]
    return body


def _lane_end(n: int, m: int, base: int, lanes: int) -> list:
    """Each lane's verdict counted, and a stuck lane's column-clue key kept (``keys[nk]``)."""
    k = key_columns(n)
    mask_k = (1 << (k * n)) - 1

    def key(g: int) -> str:
        """Lane g's column-clue key: one lookup per ``k`` columns."""
        chunks = []
        for j in range(0, m, k):
            word = f"(colword{g} >> {u64(j * n)})" if j else f"colword{g}"
            chunks.append(f"np.int64(ktab[{word} & {u64(mask_k)}]) * {base**j}")
        return " + ".join(chunks)

    # Branch-free: a lane past the group's end (v 0) counts nowhere; a stuck lane's key
    # is kept by moving nk on (each solved lane added its steps to hist[w] after the lockstep loop).
    body = []
    for g in range(lanes):
        body += [
            f"s{g} = v{g} & np.int64(known{g} == {n * m})",
            f"solved += s{g}",
            f"stuck += v{g} & np.int64(known{g} == 0)",
            f"keys[nk] = {key(g)}",
            f"nk += v{g} - s{g}",
        ]
    return body


def _decode(flat: list) -> list:
    """Statements setting the flat rows' pattern numbers d{r} of flat index ``u`` (last row fastest)."""
    out = []
    rest = "u"
    for r in reversed(flat[1:]):
        out.append(f"d{r} = {rest} % p{r}")
        out.append(f"q{r} = {rest} // p{r}")
        rest = f"q{r}"
    out.append(f"d{flat[0]} = {rest}")
    return out


def source(n: int, m: int, base: int, first: str = "rows", lanes: int | None = None) -> str:
    """The generated stats module for enumerating n×m grids (n, m >= 1; lines that fit the tables).

    ``base``: the number of column clues (keys are base-``base`` numbers); ``first``: "rows" or "columns";
    ``lanes``: grids in lockstep (``tuning.STATS_LANES``).
    """
    lanes = tuning.STATS_LANES if lanes is None else lanes
    if first not in ("rows", "columns"):
        raise ValueError(f"first must be 'rows' or 'columns', not {first!r}")
    flat = flat_count(n, int(np.bincount(clue_ids(m)).max()))
    group = _group_source(n, m, base, first, lanes, flat)
    rows_first = first == "rows"
    imports = [
        "from localcount.engines.stats.kernel import count_singletons, row_order, tuple_weight_full",
        "from localcount.lines.bits import popcount",
    ]
    groups = f'''

@njit(cache=True)
def _first_columns(fc, known, ctab, cspread):
    """``fc[j, c]``: what column j of cells c deduces from ``known`` (column encoding: bit j*n + r), spread to the row encoding."""
    for j in range({m}):
        kj = (known >> np.uint64(j * {n})) & np.uint64({(1 << n) - 1})
        for c in range({1 << n}):
            fc[j, c] = cspread[j, np.uint64(ctab[(np.uint64(c) << np.uint64({n})) | kj])]


@njit(cache=True)
def _group(clue, w, pat_start, pats, ktab, rtab, ctab, rspread, cspread, keys, tmp, flat_rows, flat_w, fc, sums, hist):
    """Add the measures of one row-clue group of weight w: counters times w into ``sums``, steps into ``hist[w]``."""
{group}


'''
    shards = _shard_source(n, m, flat, lanes, rows_first)
    return module_source(__name__, f"{n}x{m}, {first} first", CALLED, imports, groups, shards)


def _shard_source(n: int, m: int, flat: int, lanes: int, rows_first: bool) -> str:
    """``stats_shard`` (the groups of one shard: their row clues, weights and measures) and ``stats_shards``."""
    first_columns = ""
    if not rows_first:
        first_columns = (
            "    _first_columns(fc, np.uint64(0), ctab, cspread)  # nothing known yet: the same for every group\n"
        )
    return f'''@njit(cache=True)
def stats_shard(shard, depth, group, pat_start, pats, rev, ktab, max_group, rtab, ctab, rspread, cspread, out):
    """Add the symmetry-weighted measures of one shard into ``out`` (``kernel.stats_shard``'s enumeration)."""
    C = len(pat_start) - 1
    order = row_order({n})
    clue = np.zeros({n}, np.int64)
    s = shard
    for i in range(depth - 1, -1, -1):
        clue[order[i]] = s % C
        s //= C
    # Uninitialised (a key is written before it is read, ``count_singletons`` fills what it reads of tmp): a shard
    # touches only as much as its groups need (np.zeros cleared 2 x 16 MB for each of 6x6's 9261 shards).
    keys = np.empty(max_group, np.int64)
    tmp = np.empty(max_group, np.int64)
    most = 0
    for c in range(C):
        most = max(most, pat_start[c + 1] - pat_start[c])
    flat_rows = np.zeros(({flat}, most**{flat} + {lanes}), np.uint64)
    flat_w = np.zeros(most**{flat} + {lanes}, np.uint64)
    fc = np.zeros(({m}, {1 << n}), np.uint64)
{first_columns}    sums = np.zeros({HIST}, np.int64)
    hist = np.zeros((5, {2 * n * m + 2}), np.int64)
    tuples = 1
    for _ in range({n} - depth):
        tuples *= C
    for t in range(tuples):
        x = t
        for i in range({n - 1}, depth - 1, -1):
            clue[order[i]] = x % C
            x //= C
        w = tuple_weight_full(clue, {n}, C, rev, group, order)
        if w == 0:
            continue
        _group(clue, w, pat_start, pats, ktab, rtab, ctab, rspread, cspread, keys, tmp, flat_rows, flat_w, fc, sums, hist)
    for i in range({HIST}):
        out[i] += sums[i]
    for k in range({2 * n * m + 1}):
        grids = hist[1, k] + 2 * hist[2, k] + 4 * hist[4, k]
        out[{steps_at(n, m)} + k] += grids
        out[{HIST} + (k + 1) // 2] += grids


@njit(cache=True, parallel=True)
def stats_shards(shards, depth, group, pat_start, pats, rev, ktab, max_group, rtab, ctab, rspread, cspread, width):
    """``stats_shard`` for each shard of an array (one output row each), over numba threads."""
    out = np.zeros((len(shards), width), np.int64)
    for i in prange(len(shards)):
        stats_shard(shards[i], depth, group, pat_start, pats, rev, ktab, max_group, rtab, ctab, rspread, cspread, out[i])
    return out
'''


@functools.cache
def module(n: int, m: int, base: int, first: str = "rows"):
    """The compiled stats module for n×m (generated and written on first use)."""
    return generated.load(f"stats_{n}x{m}_{first}", source(n, m, base, first))
