"""The GPU kernels behind validating functions: the device's tables, a shard as a kernel launch.

``available()`` says whether numba finds a CUDA GPU (or runs the CUDA simulator,
``NUMBA_ENABLE_CUDASIM=1``, which runs the same kernel on the CPU: for tests).  The line and
spread tables of a size are copied to the device once per process (``device_tables``).
"""

from __future__ import annotations

import functools
import os

import numpy as np

from ...lines.tables import line_table, row_table, spread_table
from ..base import GROUP_IDS

#: Indices per thread: a stretch of consecutive grids (2^PER_THREAD_BITS, fewer in small shards).
PER_THREAD_BITS = 10
SIMULATOR_ENV = "NUMBA_ENABLE_CUDASIM"
#: Threads per block in the simulator (a power of two, at most ``kernel.THREADS``).
SIMULATOR_THREADS = 8
#: The row and column tables go to each block's shared memory when they take at most this many bytes
#: (6x6: 16 KiB, 6x7: 40 KiB, 7x7: 64 KiB, read from global memory).  Tables of this size leave room
#: for several blocks per multiprocessor; on a device, compare with 0 (always global) before trusting it.
SHARED_TABLE_BYTES = 48 * 1024


def simulated() -> bool:
    """True when numba's CUDA simulator stands in for a GPU."""
    from numba import config

    return bool(config.ENABLE_CUDASIM)


@functools.lru_cache(maxsize=1)
def available() -> str:
    """'' if numba can run CUDA kernels here (a GPU, or the simulator), else the reason it cannot."""
    try:
        from numba import cuda
    except Exception as err:
        return f"numba's CUDA target cannot be loaded ({err.__class__.__name__}: {str(err).splitlines()[0][:100]})"
    try:
        if cuda.is_available():
            return ""
    except Exception as err:
        return f"the CUDA driver does not answer ({err.__class__.__name__})"
    return "no CUDA GPU found (numba.cuda.is_available() is False)"


def device_name() -> str:
    """The GPU's name, or 'numba CUDA simulator'."""
    if simulated():
        return "numba CUDA simulator"
    from numba import cuda

    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


@functools.lru_cache(maxsize=4)
def device_tables(n: int, m: int, variant: str = "nonogram") -> tuple:
    """(rtab, ctab, rspread, cspread) of n×m on the device (row table: the variant's)."""
    from numba import cuda

    tables = (row_table(m, variant), line_table(n), spread_table(n, m), spread_table(m, n))
    return tuple(cuda.to_device(np.ascontiguousarray(t).reshape(-1)) for t in tables)  # flat: the kernel indexes


def shared_bytes(n: int, m: int) -> int:
    """Bytes of shared memory a block takes for the row and column tables, or 0 if they do not fit."""
    size = 2 * ((1 << (2 * m)) + (1 << (2 * n)))
    return size if size <= SHARED_TABLE_BYTES else 0


def count_indices(n: int, m: int, base: int, count: int, group: str, variant: str = "nonogram") -> int:
    """Σ weight × solved over enumeration indices base .. base + count - 1 (one launch, block sums added)."""
    from numba import cuda

    from . import kernel

    if n * m == 0:
        return count  # the one empty grid: solved
    block = SIMULATOR_THREADS if simulated() else kernel.THREADS  # the simulator runs a Python thread per CUDA thread
    per = 1 << min(PER_THREAD_BITS, max(0, (count.bit_length() - 1) - (block.bit_length() - 1)))
    units = -(-count // per)  # ceiling divisions
    blocks = -(-units // block)
    out = cuda.to_device(np.zeros(blocks, np.int64))  # the threads add into it (kernel.count_kernel's kernel)
    tables = device_tables(n, m, variant)
    shared = shared_bytes(n, m)
    launch = kernel.count_kernel(n, m, GROUP_IDS[group], shared > 0)  # n, m and the group compiled in
    launch[blocks, block, 0, shared](np.uint64(base), np.uint64(per), np.uint64(count), *tables, out)
    return int(out.copy_to_host().sum(dtype=np.int64))


def simulator_hint() -> str:
    """What to do without a GPU: the one-line message's end."""
    return f"to test the GPU engine without one, run with {SIMULATOR_ENV}=1 (numba's CUDA simulator, slow)"


def use_simulator_in(env: dict | None = None) -> dict:
    """A copy of the environment that runs CUDA kernels in numba's simulator (for tests and scripts)."""
    return dict(os.environ if env is None else env, **{SIMULATOR_ENV: "1"})
