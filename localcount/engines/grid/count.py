"""Public counting API: validate sizes, prepare tables, run the kernels.

``count(n, m)`` is the number of n×m grids whose clues are locally solvable.
``solve_grids(grids, n, m)`` runs the same propagation on given grids and
returns each verdict and final known mask (used by the tests against the
pure-Python reference, and by anyone inspecting single grids).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import numpy as np

from ... import tuning
from ...clues import check_variant
from ...lines.tables import SPREAD_MAX_LEN, TABLE_MAX_LEN, line_table, row_table, spread_table
from ..base import GROUP_IDS, MAX_CELLS, check_size, symmetry_group  # noqa: F401 (MAX_CELLS: part of this API)
from . import kernel, specialize

#: Symmetry groups by name (see kernel.py): "auto" is "square" for squares, else "flips".
GROUPS = GROUP_IDS

_NO_TABLE = np.zeros(1, np.uint16)
_NO_SPREAD = np.zeros((1, 1), np.uint64)


@dataclass(frozen=True)
class Context:
    """The kernel's read-only inputs for one size: tables and which ones exist."""

    n: int
    m: int
    rtab: np.ndarray
    ctab: np.ndarray
    rspread: np.ndarray
    cspread: np.ndarray
    flags: tuple
    specialized: bool  # count with the kernel generated for this size
    columns: str | None = None  # its column mode (specialize.COLUMN_MODES)
    kernel: str | None = None  # its variant (specialize.KERNELS); None: ``choice.chosen()`` on first use

    @functools.cached_property
    def kernel_name(self) -> str:
        """The generated kernel's variant: ``kernel``, else the CPU's choice (measured once); "lanes" when the
        columns are not updated by their table (the gather variants need one), "" for the plain kernel."""
        if not self.specialized:
            return ""
        if self.columns != "table":
            return "lanes"
        from . import choice

        return choice.resolve(self.kernel)

    @property
    def spec(self):
        """The generated module for this size (compiled on first use), or None."""
        return specialize.module(self.n, self.m, self.columns, self.kernel_name) if self.specialized else None

    def spec_kernel(self, group: int, parallel: bool):
        """The generated module's entry point for a group id: the square's own (GROUPS["square"]) or the rows'.

        Separate entry points, so a size compiles only the enumeration its group uses.
        """
        name = "kernel_shards" if parallel else "kernel_shard"
        return getattr(self.spec, name + "_square" if group == GROUPS["square"] else name)

    def spec_args(self) -> tuple:
        """Arguments of the generated kernels after (shard(s), inner_bits, group): a gather variant's also
        take the gather tables."""
        if self.kernel_name == "lanes":
            return self.rtab, self.ctab, self.rspread, self.cspread
        return self.rtab, self.ctab, self.rspread, self.cspread, *self._gather_tables

    @functools.cached_property
    def _gather_tables(self) -> tuple:
        """(rgat, cgat, rfirst): ``gather.gather_table`` of the rows' and the columns' line tables, and
        ``gather.first_table`` of the rows'."""
        from .gather import first_table, gather_table

        rgat, cgat = gather_table(self.rtab, self.rspread), gather_table(self.ctab, self.cspread)
        return rgat, cgat, first_table(self.rtab, self.rspread, self.m)

    def args(self) -> tuple:
        """The plain kernel's arguments after (n, m, shard(s), inner_bits, group): ``kernel.kernel_shard``."""
        return self.rtab, self.ctab, self.rspread, self.cspread, self.flags


@functools.lru_cache(maxsize=16)
def context(
    n: int,
    m: int,
    table_max: int = TABLE_MAX_LEN,
    spread_max: int = SPREAD_MAX_LEN,
    specialized: bool | None = None,
    variant: str = "nonogram",
    kernel: str | None = None,
) -> Context:
    """Tables for counting n×m grids; lines longer than table_max use the line solvers (``lines.solvers``).

    ``specialized``: count with the kernel generated for n×m (None: when the
    size has ``tuning.GRID_SPECIALIZE_MIN_CELLS`` cells or more and ``specialize.column_mode`` allows it).
    ``variant``: the rows' table is ``tables.row_table`` (the kernels only ever
    update a row through it), so a yesnogram's rows need a table: m <= table_max.
    ``kernel``: the generated kernel's variant (``specialize.KERNELS``; None or "auto": the CPU's choice,
    ``choice.resolve``, made when the kernel is first needed).
    """
    check_size(n, m)
    flags = (m <= table_max, n <= table_max, m <= spread_max, n <= spread_max)
    if check_variant(variant) != "nonogram" and not flags[0]:
        raise ValueError(
            f"{variant} rows need a line table (at most {table_max} cells), not {m}: count {m}x{n} instead"
        )
    columns = specialize.column_mode(n, m, table_max, spread_max)
    can = columns is not None
    if specialized is None:
        specialized = can and n * m >= tuning.GRID_SPECIALIZE_MIN_CELLS
    elif specialized and not can:
        raise ValueError(f"no specialised kernel for {n}x{m} with table_max={table_max}, spread_max={spread_max}")
    return Context(
        n,
        m,
        row_table(m, variant) if flags[0] else _NO_TABLE,
        line_table(n) if flags[1] else _NO_TABLE,
        spread_table(n, m) if flags[2] else _NO_SPREAD,
        spread_table(m, n) if flags[3] else _NO_SPREAD,
        flags,
        specialized,
        columns if specialized else None,
        _check_kernel(kernel),
    )


def _check_kernel(kernel: str | None) -> str | None:
    """A requested variant (``specialize.KERNELS``), or None for the CPU's choice ("auto" too)."""
    if kernel in (None, "auto"):
        return None
    specialize.width(kernel)  # raises on an unknown name
    return kernel


def solve_grids(grids, n: int, m: int, **table_opts) -> tuple:
    """(status array, known-mask array) for Grid bit masks; status 1 solved, 0 stuck."""
    ctx = context(n, m, **table_opts)
    arr = np.asarray([int(g) for g in grids], dtype=np.uint64)
    if n * m == 0:
        return np.ones(len(arr), np.int64), np.zeros(len(arr), np.uint64)
    return kernel.solve_grids(arr, n, m, *ctx.args())


@dataclass(frozen=True)
class ShardPlan:
    """How the 2^(n·m) enumeration indices of a size are cut into shards."""

    n: int
    m: int
    shard_bits: int  # the index's top shard_bits bits name the shard
    inner_bits: int  # each shard covers 2^inner_bits indices

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.shard_bits


def plan(n: int, m: int, shard_bits: int | None = None) -> ShardPlan:
    """Split the index space of n×m into at most 2^shard_bits shards (``tuning.THREAD_SHARD_BITS``).

    The size is checked here and in ``context``, the two ways into this module's kernels: ``count``,
    ``count_threaded`` and ``estimate_seconds`` come through ``plan``, ``solve_grids`` through ``context``.
    """
    shard_bits = tuning.THREAD_SHARD_BITS if shard_bits is None else shard_bits
    check_size(n, m)
    cells = n * m
    shard_bits = min(cells, shard_bits)
    return ShardPlan(n, m, shard_bits, cells - shard_bits)


def count_shards(p: ShardPlan, shards, symmetry=True, parallel: bool = True, **table_opts) -> np.ndarray:
    """Weighted solvable counts of the given shards, over numba threads if ``parallel``.

    A shard's count depends on the symmetry group (its index order and
    weights); only the sum over all shards is the same for every group.
    """
    ctx = context(p.n, p.m, **table_opts)
    group = GROUPS[symmetry_group(p.n, p.m, symmetry)]
    arr = np.asarray(shards, dtype=np.int64)
    if not parallel:
        return np.array([count_shard(p, u, symmetry, **table_opts) for u in arr], dtype=np.int64)
    if ctx.specialized:
        return ctx.spec_kernel(group, parallel=True)(arr, p.inner_bits, group, *ctx.spec_args())
    return kernel.kernel_shards(p.n, p.m, arr, p.inner_bits, group, *ctx.args())


def count_shard(p: ShardPlan, shard: int, symmetry=True, **table_opts) -> int:
    """Weighted solvable count of one shard, in this thread (no numba thread pool)."""
    ctx = context(p.n, p.m, **table_opts)
    group = GROUPS[symmetry_group(p.n, p.m, symmetry)]
    if ctx.specialized:
        return int(ctx.spec_kernel(group, parallel=False)(shard, p.inner_bits, group, *ctx.spec_args()))
    return int(kernel.kernel_shard(p.n, p.m, shard, p.inner_bits, group, *ctx.args()))


def estimate_seconds(
    n: int, m: int, symmetry=True, parallel: bool = True, samples: int = 64, block_bits: int = 12, **table_opts
) -> float:
    """Expected wall time of ``count`` with the current numba threads, or of
    one thread if not ``parallel`` (compile excluded).

    Times the kernel on a random sample of small blocks of consecutive
    enumeration indices (2^block_bits each), so the sample sees the same
    symmetry skips and the same locality as the real run.
    """
    fine = plan(n, m, shard_bits=max(0, n * m - block_bits))  # checks the size
    if n * m == 0:
        return 0.0
    rng = np.random.default_rng(1)
    shards = rng.integers(0, fine.shards, size=min(samples, fine.shards))
    count_shards(fine, shards[:1], symmetry, parallel, **table_opts)  # compile / load from cache first
    start = time.perf_counter()
    count_shards(fine, shards, symmetry, parallel, **table_opts)
    return (time.perf_counter() - start) * fine.shards / len(shards)


def count(
    n: int,
    m: int,
    *,
    symmetry=True,
    batch: int = 64,
    progress=None,
    shard_bits: int | None = None,
    parallel: bool = True,
    **table_opts,
) -> int:
    """Number of n×m grids whose clues are locally solvable.

    ``symmetry``: True or "auto" (the square's 8 symmetries for squares, the
    flips otherwise), "flips", "square", or False / "none" (every grid).
    ``progress(done_units, total_units, elapsed_seconds)`` is called after
    each batch of shards.  Shards run in a fixed shuffled order so that every
    batch is a fair sample and early rates predict the total time.  ``parallel``:
    over numba's threads (the threaded kernel), else the serial kernel in this thread.
    """
    p = plan(n, m, shard_bits)  # checks the size
    if n * m == 0:
        return 1  # the one empty grid has no unknown cell: solved
    order = np.random.default_rng(0).permutation(p.shards)
    total = 0
    start = time.perf_counter()
    for lo in range(0, p.shards, batch):
        counts = count_shards(p, order[lo : lo + batch], symmetry, parallel, **table_opts)
        total += sum(int(c) for c in counts)  # Python ints: no overflow
        if progress is not None:
            progress(min(lo + batch, p.shards), p.shards, time.perf_counter() - start)
    return total


def count_threaded(
    n: int, m: int, symmetry, jobs: int, progress=None, estimate=None, variant: str = "nonogram"
) -> tuple:
    """(count, threads): ``count`` on min(jobs, numba's threads) threads, batches of about ``tuning.BATCH_SECONDS``;
    on one thread the serial kernel, in ``tuning.SERIAL_SHARD_BITS`` shards (no thread pool, no threaded kernel).

    ``progress(grids_done)``; ``estimate``: expected wall time on ``jobs`` threads, if known.
    """
    import numba

    threads = min(jobs, numba.config.NUMBA_NUM_THREADS)
    if n * m == 0:
        return count(n, m, symmetry=symmetry, variant=variant), threads
    parallel = threads > 1
    p = plan(n, m, None if parallel else tuning.SERIAL_SHARD_BITS)
    batch = 64 if parallel else 1
    if parallel:
        numba.set_num_threads(threads)
    if parallel and estimate is not None:
        per_shard = estimate * threads / p.shards  # one thread's seconds per shard
        batch = max(threads, min(p.shards, int(threads * tuning.BATCH_SECONDS / max(per_shard, 1e-9))))

    def units_done(done, *_):
        if progress is not None:
            progress(done << p.inner_bits)

    total = count(n, m, symmetry=symmetry, batch=batch, progress=units_done, shard_bits=p.shard_bits,
                  parallel=parallel, variant=variant)  # fmt: skip
    return total, threads
