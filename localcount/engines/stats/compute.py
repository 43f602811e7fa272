"""The stats enumeration in this process: shards of row-clue groups through the numba kernels.

``version`` picks the kernel: 3 the generated lockstep kernel of
``specialize`` (keys only for the grids local logic does not solve), 2 the
plain loop of ``kernel`` (every grid's key sorted: no compilation per size,
version-2 checkpoints resume on it, and the tests compare the two); by
default ``prepare.default_version`` (3 from 20 cells).
"""

from __future__ import annotations

import numpy as np

from ..base import GROUP_IDS
from . import kernel, specialize
from .measures import GRIDS, HIST, SOLVABLE, UNIQUE, Stats, from_vector, steps_at, width
from .prepare import check_stats_size, default_depth, default_version, oriented, prepare, shard_count

SYMMETRIES = {"flips": GROUP_IDS["flips"], "none": GROUP_IDS["none"]}
#: The kernel versions (``layout.STATS_VERSION`` is the newest); version 1 vectors are read, not computed.
VERSIONS = (2, 3)


def stats_shards(n: int, m: int, shards, path: str = "rows", symmetry: str = "flips", depth: int | None = None, parallel: bool = True,
                 variant: str = "nonogram", version: int | None = None) -> np.ndarray:  # fmt: skip
    """The output vectors of the given shards, one row each (``kernel``; add the rows for the total)."""
    check_stats_size(n, m)
    version = default_version(n, m) if version is None else version
    if version not in VERSIONS:
        raise ValueError(f"stats kernel version must be one of {VERSIONS}, got {version}")
    if symmetry not in SYMMETRIES:
        raise ValueError(f"stats symmetry must be one of {', '.join(SYMMETRIES)}, got {symmetry!r}")
    rows, cols, cols_first = oriented(n, m, path)
    if depth is None:
        depth = default_depth(n, m, path)
    arr = np.asarray(shards, np.int64).reshape(-1)
    out_width = width(n, m)
    if n * m == 0:
        # The one empty grid: solved in 0 rounds and 0 steps, unique; a single shard.
        out = np.zeros((len(arr), out_width), np.int64)
        out[:, [GRIDS, SOLVABLE, UNIQUE, HIST, steps_at(n, m)]] = 1
        return out
    prep = prepare(rows, cols, variant)
    if not 0 <= depth <= rows:
        raise ValueError(f"depth must be between 0 and {rows}, got {depth}")
    total = prep.clues**depth
    if len(arr) and (arr.min() < 0 or arr.max() >= total):
        raise ValueError(f"shards must be between 0 and {total - 1}")
    if version == 3:
        mod = specialize.module(rows, cols, prep.base, "columns" if cols_first else "rows")
        one, many = mod.stats_shard, mod.stats_shards
        args = specialize.shard_args(prep, depth, SYMMETRIES[symmetry])
    else:
        one, many = kernel.stats_shard, kernel.stats_shards
        args = (depth, rows, cols, SYMMETRIES[symmetry], cols_first, prep.pat_start, prep.pats, prep.rev, prep.cid_n,
                prep.base, prep.max_group, *prep.tables)  # fmt: skip
    if parallel:
        return many(arr, *args, out_width)
    out = np.zeros((len(arr), out_width), np.int64)
    for i, s in enumerate(arr):
        one(s, *args, out[i])
    return out


def stats_vector(n: int, m: int, path: str = "rows", symmetry: str = "flips", depth: int | None = None,
                 variant: str = "nonogram", version: int | None = None) -> tuple:  # fmt: skip
    """The summed output vector of every shard of n×m (numba threads over shards), as Python ints."""
    check_stats_size(n, m)
    if n * m == 0:
        return tuple(int(v) for v in stats_shards(n, m, [0], path, symmetry, variant=variant, version=version)[0])
    if depth is None:
        depth = default_depth(n, m, path)
    shards = np.arange(shard_count(n, m, path, depth))
    vec = stats_shards(n, m, shards, path, symmetry, depth, variant=variant, version=version).sum(axis=0, dtype=object)
    return tuple(int(v) for v in vec)


def stats(n: int, m: int, *, path: str = "rows", symmetry: str = "flips", depth: int | None = None,
          variant: str = "nonogram", version: int | None = None) -> Stats:  # fmt: skip
    """Every measure of n×m in this process (numba threads over shards)."""
    return from_vector(n, m, stats_vector(n, m, path, symmetry, depth, variant, version))
