"""Kernels specialised per size: generated Python source, compiled by numba, cached on disk.

``kernel.kernel_shard`` loops over rows and columns; with n and m known the
loops can be unrolled and every shift becomes a constant: the shifts of the
enumeration index order, stated in ``engines.enumeration``, whose functions
the generator calls and writes the numbers of into the source.  Beyond that the
generated code changes one thing in the algorithm's *order*, not its
result: within a half pass every row (or column) reads the knowledge as it
was at the start of the half pass.  Rows never touch each other's cells, so
this is exactly what the sequential loop computes, and the n table lookups
become independent loads the CPU can overlap.  A half pass that leaves the
knowledge unchanged ends the propagation as in ``kernel._propagate``.  And
``tuning.LANES`` grids are propagated in lockstep, inline in the enumeration loop: a
lane that has stopped is solved or at a fixpoint, so the extra passes it
rides along for change nothing, and the exit branch is taken once per
``tuning.LANES`` grids.  The first row pass, where nothing is known yet, depends on
each row alone; the lanes of a step share every row but the lowest one, so
that pass is done once per block for the border rows, once per step for the
other shared rows and once per lane only for the rows the lanes differ in
(measured on 6x6, one thread: 1.27x).  Tall sizes whose columns are too
long for tables (16x2, 33x1) keep the table rows and update each column
with the word line solver (``COLUMN_MODES``); a grid that the first row
pass decides, like every m x 1 grid, never reaches it.

The kernel has variants (KERNELS) that count the same grids in the same
order: "lanes", the scalar lanes above, and "gather4"/"gather8", whose 4
or 8 lanes run each half pass as vector gathers (``gather``,
``codegen.gather_lockstep``) over 64-bit gather tables; their entry
points take those two tables after the others.  ``choice`` picks one per
CPU; the lanes source is the same with or without the variants.

The source is written to ``<cache>/kernels/count_<n>x<m>_<hash>.py`` (temp
file + ``os.replace``) and imported from there, so numba's ``cache=True``
keeps the machine code beside it and later runs load it instead of
compiling (a gather variant's name ends in ``_gather4`` or ``_gather8``).
The hash covers the source, so a changed generator never meets a stale
cache.  Tests compare these kernels with the plain one.
"""

from __future__ import annotations

import functools

from ... import tuning
from ...lines import bits, solvers
from ...util import generated
from .. import enumeration
from ..base import GROUP_IDS
from ..codegen import (
    COLUMN_MODES,
    block,
    first_row_pass,
    gather_lockstep,
    lockstep,
    module_source,
    u64,
)
from . import gather, kernel

#: The modules the generated code calls (``codegen.module_source``'s digest; the gather variants name
#: ``gather``'s too): kernel.py, lines/bits.py, lines/solvers.py and engines/enumeration.py (the index layout).
CALLED = (kernel, bits, solvers, enumeration)

#: The generated kernels' variants (``docs/internals.md``, "Gather variants, chosen per CPU"): "lanes" looks up every lane's
#: lines with scalar loads (``tuning.LANES`` lanes); "gather4" and "gather8" run 4 or 8 lanes whose half passes are
#: vector gathers (``gather``).  Same counts; ``choice`` picks one per CPU.
KERNELS = ("lanes", "gather4", "gather8", "gather16")


def width(kernel_name: str) -> int:
    """The lanes of a variant (KERNELS)."""
    if kernel_name not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}, not {kernel_name!r}")
    return tuning.LANES if kernel_name == "lanes" else int(kernel_name.removeprefix("gather"))


def _entry_args(kernel_name: str) -> str:
    """The generated entry points' table arguments: a gather variant's end with its gather tables."""
    return "rtab, ctab, rspread, cspread" + (", rgat, cgat, rfirst" if kernel_name != "lanes" else "")


def _solve_lines(n: int, m: int, lanes: int, columns: str = "table", gathers: bool = False) -> list:
    """``codegen.lockstep`` (or ``codegen.gather_lockstep``) after a first row pass, then the solved lanes added to ``solved``."""
    if gathers and lanes > 1:
        body = gather_lockstep(n, m, lanes)
    else:
        body = lockstep(n, m, lanes, columns, done="rows", check=tuning.COUNT_CHECK)
    body.append("solved += " + " + ".join(f"np.int64(known{g} == {n * m})" for g in range(lanes)))
    return body


def _gather_start(fixed, shared, lane_spec: dict, m: int, setup: str, index: str) -> list:
    """The statement starting the lanes of a gather step: ``setup`` (``gather.lane_setup``) of the lane
    rows, from the rows the lanes share (fixed: ``r{r}``; shared: ``r{r}_s``)."""
    words = [f"(r{r} << {u64(r * m)})" for r in fixed] + [f"(r{r}_s << {u64(r * m)})" for r in shared]
    extra = "(" + ", ".join(spec[3] for spec in lane_spec.values()) + ",)"
    grid = " | ".join(["np.uint64(0)"] + words)
    return [f"GR, GC, KCs, knowns = {setup}(rspread, rfirst, {index}, {extra}, {grid}, colshared, stepC)"]


def _lane_spec_source(name: str, m: int, lanes: int, lane_spec: dict) -> str:
    """The generated module's line defining the lane set-up intrinsic ``name`` (``gather.lane_setup``)."""
    spec = tuple((r, *lane_spec[r][:3]) for r in lane_spec)
    return f"{name} = lane_setup({m}, {lanes}, {spec!r})\n"


def _lane_loop(decode: dict, fixed, lane_rows, n: int, m: int, indent: str, columns: str = "table",
               kernel_name: str = "lanes", lane_spec: dict | None = None, setup: str = "") -> str:  # fmt: skip
    """The enumeration loop over a block: ``width(kernel_name)`` grids at a time if the block allows, else one.

    ``decode``: row -> its cells' expression as a function of the index's, for the rows
    that vary in the block; ``fixed``: the rows fixed for the block (their
    cells in ``r{r}``, their first pass in ``blockC``, their
    column bits in ``colbase``); ``lane_rows``: the rows that differ between
    the lanes of one step.  The first row pass of every row the lanes share
    is done once per step, so the shared rows cost one table lookup per
    ``tuning.LANES`` grids there.  The gather variants start their lanes as vectors (``_gather_start``: the
    intrinsic ``setup``; ``lane_spec``: row -> (shift, mask, left shift, extra cells) of each lane row,
    its cells ``((index >> shift) & mask) << left shift | extra``).
    """
    mask_n = (1 << n) - 1
    lanes_n = width(kernel_name)
    gathers = kernel_name != "lanes"
    shared = [r for r in decode if r not in lane_rows]

    def step(lanes: int, index: str) -> list:
        out = [f"r{r}_s = {decode[r](index)}" for r in shared]
        out.append("colshared = " + " | ".join(["colbase"] + [f"rspread[{r}, r{r}_s]" for r in shared]))
        out += first_row_pass(shared, m, lambda r: f"r{r}_s", "stepC", "blockC")
        if gathers and lanes > 1:
            out += _gather_start(fixed, shared, lane_spec, m, setup, index)
            return out + _solve_lines(n, m, lanes, columns, gathers)
        for g in range(lanes):
            lane_index = f"({index} | np.uint64({g}))" if lanes > 1 else index
            out += [f"r{r}_{g} = r{r}" for r in fixed]
            out += [f"r{r}_{g} = r{r}_s" for r in shared]
            out += [f"r{r}_{g} = {decode[r](lane_index)}" for r in lane_rows]
            out.append("colword = " + " | ".join(["colshared"] + [f"rspread[{r}, r{r}_{g}]" for r in lane_rows]))
            for j in range(m):
                sh = f" >> {u64(j * n)}" if j else ""
                out.append(f"c{j}_{g} = (colword{sh}) & {u64(mask_n)}")
                if columns != "table":
                    out.append(f"l{j}_{g} = ALL")
                    out.append(f"t{j}_{g} = 0")
            out += first_row_pass(lane_rows, m, lambda r, g=g: f"r{r}_{g}", f"KC{g}", "stepC")
        return out + _solve_lines(n, m, lanes, columns, gathers)

    if gathers and not lane_rows:  # no row varies in a block (n <= 2): one grid a step, no lanes to set up
        single = ["for j in range(1 << step_bits):"] + ["    " + x for x in step(1, "(start | np.uint64(j))")]
        return block(single, indent)
    lines = [f"if step_bits >= {lanes_n.bit_length() - 1}:"]
    lines.append(f"    for j in range(0, 1 << step_bits, {lanes_n}):")
    lines += ["        " + x for x in step(lanes_n, "(start | np.uint64(j))")]
    lines.append("else:")
    lines.append("    for j in range(1 << step_bits):")
    lines += ["        " + x for x in step(1, "(start | np.uint64(j))")]
    return block(lines, indent)


def _gather_header(n: int, m: int, kernel_name: str) -> str:
    """The gather variants' imports and half-pass intrinsics ('' for "lanes")."""
    if kernel_name == "lanes":
        return ""
    lanes = width(kernel_name)
    return (
        f"\n# Digest of engines/grid/gather.py: {generated.digest(gather)}.\n"
        "from localcount.engines.grid.gather import half_pass, lane_setup\n\n"
        f"_rows_half = half_pass({n}, {m}, {lanes})\n"
        f"_cols_half = half_pass({m}, {n}, {lanes})\n"
    )


def _rows_parts(n: int, m: int, columns: str, kernel_name: str) -> tuple:
    """The NONE and FLIPS kernel's parts for the rows order of the index (``engines.enumeration``; its border is
    ``border_rows``): (bits below the border, the gather lane set-up line, the border rows' statements, the loop)."""
    lane_bits = width(kernel_name).bit_length() - 1
    mask_m = (1 << m) - 1
    shifts = {r: enumeration.row_shift(r, n, m) for r in range(n)}
    border_low = enumeration.rows_low_bits(n, m)
    # the border rows are fixed for a block; with n = 1 a block is one grid, whose row the loop decodes
    fixed = list(enumeration.border_rows(n)) if n >= 2 else []
    decode = {r: lambda i, s=shifts[r]: f"(({i} >> {u64(s)}) & {u64(mask_m)})" for r in range(n) if r not in fixed}
    lane_rows = [r for r in decode if shifts[r] < lane_bits]
    lane_spec = {r: (shifts[r], mask_m, 0, "np.uint64(0)") for r in lane_rows}
    setup = ""
    if kernel_name != "lanes" and lane_rows:
        setup = _lane_spec_source("_rows_setup", m, width(kernel_name), lane_spec)
    border = [f"r{r} = (start >> {u64(shifts[r])}) & {u64(mask_m)}" for r in fixed]
    border.append("colbase = " + " | ".join(["np.uint64(0)"] + [f"rspread[{r}, r{r}]" for r in fixed]))
    border += first_row_pass(fixed, m, lambda r: f"r{r}", "blockC", None)
    border = "\n".join(" " * 8 + x for x in border)
    loop = _lane_loop(decode, fixed, lane_rows, n, m, "        ", columns, kernel_name, lane_spec, "_rows_setup")
    return border_low, setup, border, loop


def source(n: int, m: int, columns: str = "table", kernel_name: str = "lanes") -> str:
    """The generated module for n×m (n, m >= 1; rows short enough for tables,
    columns updated as ``columns`` says, one of COLUMN_MODES; the variant
    ``kernel_name`` of KERNELS, a gather one with table columns only).

    A gather variant's entry points take two more arguments, the gather tables
    ``rgat`` and ``cgat`` (``gather.gather_table``)."""
    if columns not in COLUMN_MODES:
        raise ValueError(f"columns must be one of {COLUMN_MODES}, not {columns!r}")
    if kernel_name != "lanes" and columns != "table":
        raise ValueError(f"the gather kernels need table columns, not {columns!r}")
    args = _entry_args(kernel_name)
    border_low, setup, border, loop = _rows_parts(n, m, columns, kernel_name)
    square = _square_source(n, kernel_name) if n == m >= 2 and columns == "table" else ""
    scratch = ""
    if columns != "table":
        runs = (n + 1) // 2 + 1
        scratch = (
            f"    _rows, _cols, _clues, _nruns, _last, F, G, bad, cover, Q = scratch_arrays({n}, {m})\n"
            f"    clues = np.zeros(({tuning.LANES * m}, {runs}), np.int64)\n"
        )

    imports = [
        "from localcount.engines.grid.kernel import border_weight, scratch_arrays, spread_line, square_weight, "
        "update_line_by_solver",
        "from localcount.lines.bits import line_clue_into, popcount",
    ]
    rows = f'''
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
{setup}

@njit(cache=True)
def _count_rows(shard, inner_bits, group, {args}):
    """kernel_shard for the NONE ({GROUP_IDS["none"]}) and FLIPS ({GROUP_IDS["flips"]}) groups: the rows order of the index (engines.enumeration).

    Columns: {columns}.
    """
{scratch}    step_bits = min({border_low}, inner_bits)
    base = np.uint64(shard) << np.uint64(inner_bits)
    total = 0
    for s in range(1 << (inner_bits - step_bits)):
        start = base | (np.uint64(s) << np.uint64(step_bits))
        weight = 1
        if group == {GROUP_IDS["flips"]}:
            weight = border_weight(start >> {u64(border_low)}, {n}, {m})
            if weight == 0:
                continue
{border}
        solved = 0
{loop}
        total += weight * solved
    return total
{square}

@njit(cache=True)
def kernel_shard(shard, inner_bits, group, {args}):
    """Weighted solvable count over enumeration indices [shard << inner_bits, (shard+1) << inner_bits)."""
    return _count_rows(shard, inner_bits, group, {args})


@njit(cache=True, parallel=True)
def kernel_shards(shards, inner_bits, group, {args}):
    """kernel_shard for each shard of an array, spread over numba threads."""
    out = np.zeros(len(shards), np.int64)
    for i in prange(len(shards)):
        out[i] = _count_rows(shards[i], inner_bits, group, {args})
    return out
'''
    return module_source(__name__, f"{n}x{m}", CALLED, imports, _gather_header(n, m, kernel_name), rows)


def _part(word: str, shift: int, bits: int, word_bits: int) -> str:
    """The source of the ``bits`` bits at ``shift`` of ``word`` (a ``word_bits``-bit word): no shift by 0, and no
    mask where the part reaches the word's top."""
    out = f"{word} >> {u64(shift)}" if shift else word
    if shift + bits >= word_bits:
        return out
    return f"({out}) & {u64((1 << bits) - 1)}" if shift else f"{out} & {u64((1 << bits) - 1)}"


def _square_source(n: int, kernel_name: str = "lanes") -> str:
    """kernel_shard for the SQUARE group: the square's order of the index (engines.enumeration), border code then
    the interior."""
    args = _entry_args(kernel_name)
    lane_bits = width(kernel_name).bit_length() - 1
    side = n - 2
    interior_bits = enumeration.square_interior_bits(n)
    code_bits = enumeration.border_bits(n, n, "square")
    at_top, at_bottom, at_left, at_right = enumeration.square_border_shifts(n)
    interior = {r: enumeration.square_interior_shift(r, n) for r in range(1, n - 1)}
    mask_side = (1 << side) - 1
    whole = list(enumeration.border_rows(n))  # the rows whole in the border code; the others' edge cells:
    fixed = []
    for r in range(1, n - 1):
        edge_left, edge_right = enumeration.square_edge_shifts(r, n)
        left = f"((left >> {u64(edge_left - at_left)}) & np.uint64(1))"
        right = f"(((right >> {u64(edge_right - at_right)}) & np.uint64(1)) << {u64(n - 1)})"
        fixed.append(f"        e{r} = {left} | {right}")
    decode = {}
    for r in range(1, n - 1):
        sh = f" >> {u64(interior[r])}" if interior[r] else ""
        decode[r] = lambda index, r=r, sh=sh: f"(e{r} | ((({index}{sh}) & {u64(mask_side)}) << np.uint64(1)))"
    lane_rows = [r for r in decode if interior[r] < lane_bits]
    lane_spec = {r: (interior[r], mask_side, 1, f"e{r}") for r in lane_rows}
    setup = ""
    if kernel_name != "lanes" and lane_rows:
        setup = "\n" + _lane_spec_source("_square_setup", n, width(kernel_name), lane_spec)
    first = first_row_pass(whole, n, lambda r: f"r{r}", "blockC", None)
    fixed.append("        colbase = " + " | ".join(f"rspread[{r}, r{r}]" for r in whole))
    fixed += ["        " + x for x in first]
    loop = _lane_loop(decode, whole, lane_rows, n, n, "        ", "table", kernel_name, lane_spec, "_square_setup")
    fixed_src = "\n".join(fixed)
    right, left = _part("border", at_right, side, code_bits), _part("border", at_left, side, code_bits)
    bottom, top = _part("border", at_bottom, n, code_bits), _part("border", at_top, n, code_bits)
    return f'''
{setup}
@njit(cache=True)
def _count_square(shard, inner_bits, {args}):
    """kernel_shard for the SQUARE group ({GROUP_IDS["square"]}): border code in the high bits, interior below."""
    step_bits = min({interior_bits}, inner_bits)
    base = np.uint64(shard) << np.uint64(inner_bits)
    total = 0
    for s in range(1 << (inner_bits - step_bits)):
        start = base | (np.uint64(s) << np.uint64(step_bits))
        border = start >> {u64(interior_bits)}
        weight = square_weight(border, {n})
        if weight == 0:
            continue
        right = {right}
        left = {left}
        r{n - 1} = {bottom}
        r0 = {top}
{fixed_src}
        solved = 0
{loop}
        total += weight * solved
    return total


@njit(cache=True)
def kernel_shard_square(shard, inner_bits, group, {args}):
    """kernel_shard for the SQUARE group (``group`` is {GROUP_IDS["square"]})."""
    return _count_square(shard, inner_bits, {args})


@njit(cache=True, parallel=True)
def kernel_shards_square(shards, inner_bits, group, {args}):
    """kernel_shards for the SQUARE group (``group`` is {GROUP_IDS["square"]})."""
    out = np.zeros(len(shards), np.int64)
    for i in prange(len(shards)):
        out[i] = _count_square(shards[i], inner_bits, {args})
    return out
'''


def column_mode(n: int, m: int, table_max: int, spread_max: int):
    """How a specialised kernel for n×m updates its columns (COLUMN_MODES), or None if
    there is none: rows need a table and a spread table; columns longer than the
    tables use the word line solver."""
    if not (n >= 1 and m >= 1 and m <= min(table_max, spread_max)):
        return None
    if n <= table_max:
        return "table" if n <= spread_max else None
    return "solver+spread" if n <= spread_max else "solver"


def supported(n: int, m: int, table_max: int, spread_max: int) -> bool:
    """Whether a specialised kernel exists for n×m."""
    return column_mode(n, m, table_max, spread_max) is not None


@functools.cache
def module(n: int, m: int, columns: str = "table", kernel_name: str = "lanes"):
    """The compiled specialised module for n×m in variant ``kernel_name`` (generated and written on first use)."""
    suffix = "" if kernel_name == "lanes" else f"_{kernel_name}"
    return generated.load(f"count_{n}x{m}{suffix}", source(n, m, columns, kernel_name))
