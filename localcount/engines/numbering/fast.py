"""The numbering kernels generated for one size: the same codes as ``kernel``, several times faster.

With n and m constants of the module, every loop is unrolled and every shift is a constant.  The
grids of a range are taken 2^m at a time (the last row runs through every value, the rows above it
are fixed), so the first half — every row from nothing known, which depends on each row alone — is
done once for the fixed rows, and ``tuning.LANES`` grids that differ in their last row are propagated in
lockstep by the statements every generated kernel propagates with (``engines.codegen.lockstep``,
the count's and the statistics' source): their table lookups are independent loads the CPU
overlaps.  A lane that has stopped (solved, or a half other than the first taught it nothing)
rides along unchanged until every lane has stopped; the lockstep counts each lane's half passes,
so a solved lane's code is 1 + the half passes up to the one that solved it (``kernel``'s code).

Lanes: the count's ``tuning.LANES`` (4; ``docs/measurements.md``, "Tunables", has this kernel's
measurements).

Ranges must start at a multiple of 2^m and hold a multiple of 2^m grids (``aligned``); the tests
compare every code with ``kernel``'s.  The source is written to the kernel cache and compiled
once (``util.generated``).
"""

from __future__ import annotations

import functools

from ... import tuning
from ...util import generated
from ..codegen import block, first_row_pass, lockstep, module_source, u64
from .order import row_shift


def source(n: int, m: int, lanes: int | None = None) -> str:
    """The generated module's source for n×m (n, m >= 1): ``lanes`` lanes (``tuning.LANES``; fewer where 2^m is)."""
    lanes = min(tuning.LANES if lanes is None else lanes, 1 << m)
    mask_m = u64((1 << m) - 1)
    mask_n = u64((1 << n) - 1)
    fixed = list(range(n - 1))  # the rows above the last: the same for the 2^m grids of a run
    last = n - 1
    fixed_rows = [f"r{r} = np.uint64(rev[(g >> {u64(row_shift(n, m, r))}) & {mask_m}])" for r in fixed]
    fixed_rows.append("colbase = " + " | ".join(["np.uint64(0)"] + [f"rspread[{r}, r{r}]" for r in fixed]))
    fixed_rows += first_row_pass(fixed, m, lambda r: f"r{r}", "blockC", None)
    step = []
    for g in range(lanes):
        step += [f"r{r}_{g} = r{r}" for r in fixed]
        step.append(f"r{last}_{g} = np.uint64(rev[base + {g}])")
        step.append(f"colword = colbase | rspread[{last}, r{last}_{g}]")
        for j in range(m):
            sh = f" >> {u64(j * n)}" if j else ""
            step.append(f"c{j}_{g} = (colword{sh}) & {mask_n}")
        step += first_row_pass([last], m, lambda r, g=g: f"r{r}_{g}", f"KC{g}", "blockC")
    step += lockstep(n, m, lanes, steps=True, done="rows", check="half")
    for g in range(lanes):
        step += [
            f"code = (st{g} + 1) * (1 - u{g})",  # 0 stuck, else 1 + its steps
            "if write:",
            f"    out[(top << {m}) + base + {g}] = code",
            "else:",
            "    hist[code] += 1",
        ]
    kernels = f'''

@njit(cache=True)
def run(g0, count, rev, rtab, ctab, rspread, cspread, hist, out):
    """The codes of grids g0 .. g0 + count - 1: added into hist[code], or written to out[j] if out is not empty."""
    write = len(out) > 0
    for top in range(count >> {m}):
        g = np.uint64(g0) + (np.uint64(top) << {u64(m)})
{block(fixed_rows, " " * 8)}
        for base in range(0, {1 << m}, {lanes}):
{block(step, " " * 12)}


@njit(cache=True, parallel=True)
def codes(g0, count, chunk, rev, rtab, ctab, rspread, cspread):
    """The codes of grids g0 .. g0 + count - 1 (int8), in chunks of ``chunk`` grids over numba threads."""
    out = np.zeros(count, np.int8)
    none = np.zeros(1, np.int64)
    pieces = (count + chunk - 1) // chunk
    for i in prange(pieces):
        lo = i * chunk
        hi = min(count, lo + chunk)
        run(g0 + lo, hi - lo, rev, rtab, ctab, rspread, cspread, none, out[lo:hi])
    return out


@njit(cache=True)
def hist_into(g0, count, rev, rtab, ctab, rspread, cspread, hist):
    """Add 1 to hist[code] for each grid g0 .. g0 + count - 1."""
    run(g0, count, rev, rtab, ctab, rspread, cspread, hist, np.zeros(0, np.int8))
'''
    # lines/bits.py, whose ``popcount`` the generated code calls: imported here, as ``aligned`` is asked
    # before numpy answers a small range, and loads no numba.
    from ...lines import bits

    return module_source(__name__, f"{n}x{m}", (bits,), ["from localcount.lines.bits import popcount"], kernels)


@functools.lru_cache(maxsize=8)
def module(n: int, m: int):
    """The compiled module for n×m (generated and compiled on first use, then loaded from the cache)."""
    return generated.load(f"numbering_{n}x{m}", source(n, m))


def aligned(n: int, m: int, g0: int, count: int) -> bool:
    """True if the grids g0 .. g0 + count - 1 are whole runs of the last row, as the generated kernels need."""
    step = 1 << m
    return n * m > 0 and g0 % step == 0 and count % step == 0


def pays(n: int, m: int, g0: int, count: int) -> bool:
    """True if the grids g0 .. g0 + count - 1 go to the kernels generated for the size: ``aligned`` ones of a size
    of ``tuning.NUMBERING_GENERATED_MIN_CELLS`` cells or more (smaller sizes take milliseconds in the plain
    kernel, less than the seconds a compilation of their own costs)."""
    return n * m >= tuning.NUMBERING_GENERATED_MIN_CELLS and aligned(n, m, g0, count)
