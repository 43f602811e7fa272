"""Kernels specialised per size: generated Python source, compiled by numba, cached on disk.

``kernel._count_unit`` loops over rows and columns; with n and m known the
loops can be unrolled and every shift becomes a constant.  Beyond that the
generated code changes one thing in the algorithm's *order*, not its
result: within a half pass every row (or column) reads the knowledge as it
was at the start of the half pass.  Rows never touch each other's cells, so
this is exactly what the sequential loop computes, and the n table lookups
become independent loads the CPU can overlap.  A half pass that leaves the
knowledge unchanged ends the propagation as in ``kernel._propagate``.  And
LANES grids are propagated in lockstep, inline in the enumeration loop: a
lane that has stopped is solved or at a fixpoint, so the extra passes it
rides along for change nothing, and the exit branch is taken once per
LANES grids.  The first row pass, where nothing is known yet, depends on
each row alone; the lanes of a step share every row but the lowest one, so
that pass is done once per block for the border rows, once per step for the
other shared rows and once per lane only for the rows the lanes differ in
(measured on 6x6, one thread: 1.27x).  Tall sizes whose columns are too
long for tables (16x2, 33x1) keep the table rows and update each column
with the word line solver (``COLUMN_MODES``); a grid that the first row
pass decides, like every m x 1 grid, never reaches it.

The source is written to ``<cache>/kernels/count_<n>x<m>_<hash>.py`` (temp
file + ``os.replace``) and imported from there, so numba's ``cache=True``
keeps the machine code beside it and later runs load it instead of
compiling.  The hash covers the source, so a changed generator never meets
a stale cache.  Tests compare these kernels with the plain one.
"""

from __future__ import annotations

import functools
import hashlib
import pathlib

from ...lines import bits, solvers
from ...util import generated
from ..lockstep import LANE_BITS, LANES, _half_pass, _lockstep, _solver_half_pass, _u  # noqa: F401 (LANES: part of this module's API)
from . import kernel

#: Where the count's lanes ask whether to stop (``lockstep.CHECKS``): after every half pass.  Its four
#: lanes gained nothing from "round" on an AMD EPYC (1.014, medians of 5 rounds on every 128th unit of 6x6).
COUNT_CHECK = "half"


def _solve_lines(n: int, m: int, lanes: int, columns: str = "table") -> list:
    """``_lockstep`` after a first row pass, then the solved lanes added to ``solved``."""
    body = _lockstep(n, m, lanes, columns, check=COUNT_CHECK)
    body.append("solved += " + " + ".join(f"np.int64(known{g} == {n * m})" for g in range(lanes)))
    return body


def _first_pass(rows, m: int, name, kc: str, base: str) -> list:
    """Statements for the first row pass of ``rows`` (nothing known yet: the entry is table[p << m]).

    Sets ``kc`` (column layout) to ``base`` (None: nothing) plus what these rows deduce.
    """
    out = [f"f{r} = np.uint64(rtab[{name(r)} << {_u(m)}])" for r in rows]
    out.append(f"{kc} = " + " | ".join([base or "np.uint64(0)"] + [f"rspread[{r}, f{r}]" for r in rows]))
    return out


def _lane_loop(decode: dict, fixed, lane_rows, n: int, m: int, indent: str, columns: str = "table") -> str:
    """The enumeration loop over a block: LANES grids at a time if the block allows, else one.

    ``decode``: row -> expression of its cells from ``{index}``, for the rows
    that vary in the block; ``fixed``: the rows fixed for the block (their
    cells in ``r{r}``, their first pass in ``blockC``, their
    column bits in ``colbase``); ``lane_rows``: the rows that differ between
    the lanes of one step.  The first row pass of every row the lanes share
    is done once per step, so the shared rows cost one table lookup per
    LANES grids there.
    """
    mask_n = (1 << n) - 1
    shared = [r for r in decode if r not in lane_rows]

    def step(lanes: int, index: str) -> list:
        out = [f"r{r}_s = {decode[r].format(index=index)}" for r in shared]
        out.append("colshared = " + " | ".join(["colbase"] + [f"rspread[{r}, r{r}_s]" for r in shared]))
        out += _first_pass(shared, m, lambda r: f"r{r}_s", "stepC", "blockC")
        for g in range(lanes):
            lane_index = f"({index} | np.uint64({g}))" if lanes > 1 else index
            out += [f"r{r}_{g} = r{r}" for r in fixed]
            out += [f"r{r}_{g} = r{r}_s" for r in shared]
            out += [f"r{r}_{g} = {decode[r].format(index=lane_index)}" for r in lane_rows]
            out.append("colword = " + " | ".join(["colshared"] + [f"rspread[{r}, r{r}_{g}]" for r in lane_rows]))
            for j in range(m):
                sh = f" >> {_u(j * n)}" if j else ""
                out.append(f"c{j}_{g} = (colword{sh}) & {_u(mask_n)}")
                if columns != "table":
                    out.append(f"l{j}_{g} = ALL")
                    out.append(f"t{j}_{g} = 0")
            out += _first_pass(lane_rows, m, lambda r, g=g: f"r{r}_{g}", f"KC{g}", "stepC")
        return out + _solve_lines(n, m, lanes, columns)

    lines = [f"if step_bits >= {LANES.bit_length() - 1}:"]
    lines.append(f"    for j in range(0, 1 << step_bits, {LANES}):")
    lines += ["        " + x for x in step(LANES, "(start | np.uint64(j))")]
    lines.append("else:")
    lines.append("    for j in range(1 << step_bits):")
    lines += ["        " + x for x in step(1, "(start | np.uint64(j))")]
    return "\n".join(indent + x for x in lines)


#: How the generated kernels update columns: by the line table, or by the word
#: line solver with or without a spread table (columns longer than the tables).
COLUMN_MODES = ("table", "solver+spread", "solver")


def source(n: int, m: int, columns: str = "table") -> str:
    """The generated module for n×m (n, m >= 1; rows short enough for tables,
    columns updated as ``columns`` says, one of COLUMN_MODES)."""
    if columns not in COLUMN_MODES:
        raise ValueError(f"columns must be one of {COLUMN_MODES}, not {columns!r}")
    mask_m = (1 << m) - 1
    # Enumeration index layout as in kernel.py: row 0, row n-1, rows 1..n-2 (most significant first).
    shifts = {0: (n - 1) * m} if n >= 2 else {0: 0}
    if n >= 2:
        shifts[n - 1] = (n - 2) * m
        for r in range(1, n - 1):
            shifts[r] = (n - 2 - r) * m
    border_low = (n - 2) * m if n >= 2 else 0
    fixed = [0, n - 1] if n >= 2 else []
    decode = {r: f"(({{index}} >> {_u(shifts[r])}) & {_u(mask_m)})" for r in range(n) if r not in fixed}
    lane_rows = [r for r in decode if shifts[r] < LANE_BITS]
    border = [f"r{r} = (start >> {_u(shifts[r])}) & {_u(mask_m)}" for r in fixed]
    border.append("colbase = " + " | ".join(["np.uint64(0)"] + [f"rspread[{r}, r{r}]" for r in fixed]))
    border += _first_pass(fixed, m, lambda r: f"r{r}", "blockC", None)
    border = "\n".join(" " * 8 + x for x in border)
    loop = _lane_loop(decode, fixed, lane_rows, n, m, "        ", columns)
    square = _square_source(n) if n == m >= 2 and columns == "table" else ""
    scratch = ""
    if columns != "table":
        runs = (n + 1) // 2 + 1
        scratch = (
            f"    _rows, _cols, _clues, _nruns, _last, F, G, bad, cover, Q = _scratch({n}, {m})\n"
            f"    clues = np.zeros(({LANES * m}, {runs}), np.int64)\n"
        )

    return f'''"""Generated by localcount.specialize for {n}x{m}; do not edit (see that module)."""

# Digest of the modules called here {_kernel_digest()}: a change there makes a new file, so no stale numba cache.
import numpy as np
from numba import njit, prange

from localcount.engines.grid.kernel import _border_weight, _scratch, _spread, _square_weight, _update_line_by_solver
from localcount.lines.bits import _line_clue_into, _popcount

ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def _count_rows(unit, inner_bits, group, rtab, ctab, rspread, cspread):
    """count_unit for the NONE (0) and FLIPS (1) groups: index layout row 0, row n-1, rows 1..n-2.

    Columns: {columns}.
    """
{scratch}    step_bits = min({border_low}, inner_bits)
    base = np.uint64(unit) << np.uint64(inner_bits)
    total = 0
    for s in range(1 << (inner_bits - step_bits)):
        start = base | (np.uint64(s) << np.uint64(step_bits))
        weight = 1
        if group == 1:
            weight = _border_weight(start >> {_u(border_low)}, {n}, {m})
            if weight == 0:
                continue
{border}
        solved = 0
{loop}
        total += weight * solved
    return total
{square}

@njit(cache=True)
def count_unit(unit, inner_bits, group, rtab, ctab, rspread, cspread):
    """Weighted solvable count over enumeration indices [unit << inner_bits, (unit+1) << inner_bits)."""
    return _count_rows(unit, inner_bits, group, rtab, ctab, rspread, cspread)


@njit(cache=True, parallel=True)
def count_units(units, inner_bits, group, rtab, ctab, rspread, cspread):
    """count_unit for each unit of an array, spread over numba threads."""
    out = np.zeros(len(units), np.int64)
    for i in prange(len(units)):
        out[i] = _count_rows(units[i], inner_bits, group, rtab, ctab, rspread, cspread)
    return out
'''


def _square_source(n: int) -> str:
    """count_unit for the SQUARE group's index layout (kernel.py): border code, then the interior."""
    side = n - 2
    interior_bits = side * side
    mask_side = (1 << side) - 1
    mask = (1 << n) - 1
    fixed = []
    for r in range(1, n - 1):
        left = f"((left >> {_u(r - 1)}) & np.uint64(1))"
        right = f"(((right >> {_u(r - 1)}) & np.uint64(1)) << {_u(n - 1)})"
        fixed.append(f"        e{r} = {left} | {right}")
    decode = {}
    for r in range(1, n - 1):
        sh = f" >> {_u((r - 1) * side)}" if r > 1 else ""
        decode[r] = f"(e{r} | ((({{index}}{sh}) & {_u(mask_side)}) << np.uint64(1)))"
    lane_rows = [r for r in decode if (r - 1) * side < LANE_BITS]
    first = _first_pass([0, n - 1], n, lambda r: f"r{r}", "blockC", None)
    fixed.append("        colbase = rspread[0, r0] | rspread[" + str(n - 1) + f", r{n - 1}]")
    fixed += ["        " + x for x in first]
    loop = _lane_loop(decode, [0, n - 1], lane_rows, n, n, "        ")
    fixed_src = "\n".join(fixed)
    return f'''

@njit(cache=True)
def _count_square(unit, inner_bits, rtab, ctab, rspread, cspread):
    """count_unit for the SQUARE group (2): border code in the high bits, interior below."""
    step_bits = min({interior_bits}, inner_bits)
    base = np.uint64(unit) << np.uint64(inner_bits)
    total = 0
    for s in range(1 << (inner_bits - step_bits)):
        start = base | (np.uint64(s) << np.uint64(step_bits))
        border = start >> {_u(interior_bits)}
        weight = _square_weight(border, {n})
        if weight == 0:
            continue
        right = border & {_u(mask_side)}
        left = (border >> {_u(side)}) & {_u(mask_side)}
        r{n - 1} = (border >> {_u(2 * side)}) & {_u(mask)}
        r0 = border >> {_u(2 * side + n)}
{fixed_src}
        solved = 0
{loop}
        total += weight * solved
    return total


@njit(cache=True)
def count_unit_square(unit, inner_bits, group, rtab, ctab, rspread, cspread):
    """count_unit for the SQUARE group (``group`` is 2)."""
    return _count_square(unit, inner_bits, rtab, ctab, rspread, cspread)


@njit(cache=True, parallel=True)
def count_units_square(units, inner_bits, group, rtab, ctab, rspread, cspread):
    """count_units for the SQUARE group (``group`` is 2)."""
    out = np.zeros(len(units), np.int64)
    for i in prange(len(units)):
        out[i] = _count_square(units[i], inner_bits, rtab, ctab, rspread, cspread)
    return out
'''


def _kernel_digest() -> str:
    """Digest of kernel.py, lines/bits.py and lines/solvers.py, whose functions the generated modules call
    (numba's cache only notices changes to a function's own file)."""
    h = hashlib.sha256()
    for mod in (kernel, bits, solvers):
        h.update(pathlib.Path(mod.__file__).read_bytes())
    return h.hexdigest()[:16]


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
def module(n: int, m: int, columns: str = "table"):
    """The compiled specialised module for n×m (generated and written on first use)."""
    return generated.load(f"count_{n}x{m}", source(n, m, columns))
