"""The GPU kernels behind validating functions: the device's tables, a shard as a kernel launch, the kernel chosen.

``available()`` says whether numba finds a CUDA GPU (or runs the CUDA simulator,
``NUMBA_ENABLE_CUDASIM=1``, which runs the same kernel on the CPU: for tests).  The line and
spread tables of a size are copied to the device once per process (``device_tables``).

Kernel variants (``Kernel``: where the line tables live × grids per thread, ``kernel.py``'s module doc)
all give the same count; ``count_indices(..., kernel=NAME)`` runs one, and without a name the default
(``default_kernel``): the variant chosen by measurement for this GPU model and size where ``choices.json``
(beside this module; ``CHOICES_ENV`` names a further file) has one, else the design's rule: one shared
table for the squares of the nonogram family, else both tables in shared memory where they fit the
device's opt-in limit (above 48 KiB the kernel is opted in through the driver first, ``opt_in_shared``),
else global memory; one lane.  ``scripts/gpu_variants.py`` times every variant on a device, and
``scripts/gpu_campaign.py`` writes its choice for a model that has none in the file's shape.
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
from dataclasses import dataclass

import numpy as np

from ... import tuning
from ...lines.tables import line_table, row_table, spread_table
from ..base import GROUP_IDS

SIMULATOR_ENV = "NUMBA_ENABLE_CUDASIM"
#: Dynamic shared memory a block may take without opting in (every CUDA device since sm_20).
DEFAULT_SHARED_BYTES = 48 * 1024
#: The driver API's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (``CUfunction_attribute``): the opt-in above.
MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
#: The opt-in limit the simulator stands in with: an H100's or H200's (227 KiB a block, sm_90).
SIMULATOR_SHARED_LIMIT = 227 * 1024
#: The kernel's parameters (``kernel.count_kernel``'s ``count_range``), as numba types them at a launch.
KERNEL_SIGNATURE = "void(uint64, uint64, uint64, uint16[::1], uint16[::1], uint64[::1], uint64[::1], int64[::1])"
#: The kernel variants chosen by measurement, per GPU model (``device_name``): {name: {"kernels": {size_key: variant},
#: "kernel": a variant for the sizes not listed (optional), "measured": when, "how": by what, ...}}.
CHOICES_FILE = pathlib.Path(__file__).with_name("choices.json")
#: A further file of the same shape whose models replace the committed file's (a measurement not committed yet).
CHOICES_ENV = "LOCALCOUNT_GPU_CHOICES"


@dataclass(frozen=True)
class Kernel:
    """One kernel variant: where the line tables live (``kernel.PLACES``) and grids per thread (``kernel.LANE_CHOICES``).

    Named ``global``, ``shared``, ``shared-one`` with one lane and ``lanes2-shared-one`` etc. with more."""

    place: str = "global"
    lanes: int = 1

    @property
    def name(self) -> str:
        return self.place if self.lanes == 1 else f"lanes{self.lanes}-{self.place}"

    @classmethod
    def parse(cls, name: str) -> Kernel:
        """The variant a name gives; ValueError for a name that is none."""
        from . import kernel

        lanes, place = 1, name
        head, _, rest = name.partition("-")
        if head.startswith("lanes") and head[5:].isdigit():
            lanes, place = int(head[5:]), rest
        if place not in kernel.PLACES or lanes not in kernel.LANE_CHOICES:
            names = ", ".join(k.name for k in every_kernel())
            raise ValueError(f"no GPU kernel named {name!r}: one of {names}")
        return cls(place, lanes)


def every_kernel() -> list:
    """Every variant, whatever the size: each place of the tables with each number of lanes."""
    from . import kernel

    return [Kernel(place, lanes) for lanes in kernel.LANE_CHOICES for place in kernel.PLACES]


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


@functools.lru_cache(maxsize=1)
def device_name() -> str:
    """The GPU's name, or 'numba CUDA simulator'."""
    if simulated():
        return "numba CUDA simulator"
    from numba import cuda

    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


@functools.lru_cache(maxsize=1)
def shared_limit() -> int:
    """Bytes of dynamic shared memory a block may take once opted in: the device's
    MAX_SHARED_MEMORY_PER_BLOCK_OPTIN (227 KiB on an H100 or H200), SIMULATOR_SHARED_LIMIT in the simulator."""
    if simulated():
        return SIMULATOR_SHARED_LIMIT
    from numba import cuda

    return int(cuda.get_current_device().MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)


@functools.lru_cache(maxsize=4)
def device_tables(n: int, m: int, variant: str = "nonogram") -> tuple:
    """(rtab, ctab, rspread, cspread) of n×m on the device (row table: the variant's)."""
    from numba import cuda

    tables = (row_table(m, variant), line_table(n), spread_table(n, m), spread_table(m, n))
    return tuple(cuda.to_device(np.ascontiguousarray(t).reshape(-1)) for t in tables)  # flat: the kernel indexes


def one_table(n: int, m: int, variant: str) -> bool:
    """True where the row table is the column table (squares of the nonogram family), so one copy serves both."""
    return n == m and variant == "nonogram"


def table_bytes(n: int, m: int, place: str) -> int:
    """Bytes of shared memory a block takes for the line tables with them in ``place`` (0: global memory)."""
    from . import kernel

    if place == kernel.SHARED_ONE:
        return 2 << (2 * n)
    return 0 if place == kernel.GLOBAL else 2 * ((1 << (2 * m)) + (1 << (2 * n)))


def fits(n: int, m: int, variant: str, place: str, limit: int | None = None) -> bool:
    """Whether the tables can be in ``place`` for n×m: one table for squares of the nonogram family only, and
    shared tables within ``limit`` bytes (default: the device's opt-in limit, ``shared_limit``)."""
    from . import kernel

    if place == kernel.SHARED_ONE and not one_table(n, m, variant):
        return False
    return table_bytes(n, m, place) <= (shared_limit() if limit is None else limit)


def kernels(n: int, m: int, variant: str = "nonogram", limit: int | None = None) -> list:
    """The variants that can count n×m here (``fits``), in ``every_kernel``'s order."""
    return [k for k in every_kernel() if fits(n, m, variant, k.place, limit)]


def size_key(n: int, m: int, variant: str = "nonogram") -> str:
    """A size's key in the stored choices: '7x7', '7x7-yesnogram'."""
    return f"{n}x{m}" + ("" if variant == "nonogram" else f"-{variant}")


@functools.lru_cache(maxsize=4)
def _read_choices(path: str) -> dict:
    """A choices file's models ({} if there is no file); ValueError if it is not a JSON object."""
    try:
        data = json.loads(pathlib.Path(path).read_text())
    except FileNotFoundError:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: GPU kernel choices must be a JSON object keyed by GPU model")
    return data


def stored_choices() -> dict:
    """{GPU model: its choice}: ``CHOICES_FILE``'s, with the models of the file $LOCALCOUNT_GPU_CHOICES names over them."""
    extra = os.environ.get(CHOICES_ENV)
    return {**_read_choices(str(CHOICES_FILE)), **(_read_choices(extra) if extra else {})}


def chosen_kernel(n: int, m: int, variant: str = "nonogram", device: str | None = None) -> Kernel | None:
    """The variant measured fastest for n×m on this GPU model (``device``: default ``device_name``), or the model's
    one variant for every size, if stored (``stored_choices``) and it can count n×m here; else None."""
    entry = stored_choices().get(device or device_name()) or {}
    name = entry.get("kernels", {}).get(size_key(n, m, variant)) or entry.get("kernel")
    if name is None:
        return None
    chosen = Kernel.parse(name)
    return chosen if fits(n, m, variant, chosen.place) else None


def default_kernel(n: int, m: int, group: str = "flips", variant: str = "nonogram") -> Kernel:
    """The variant a count uses unless told: the one measured for this GPU model and size (``chosen_kernel``), else
    the design's rule.

    One table in shared memory for squares of the nonogram family (7x7: 32 KiB, no opt-in); else both tables
    in shared memory where they fit the device's opt-in limit (6x8: 136 KiB, opted in); else global memory;
    ``tuning.GPU_LANES`` grids per thread.  The symmetry group does not enter the choice (yet)."""
    from . import kernel

    measured = chosen_kernel(n, m, variant)
    if measured is not None:
        return measured
    for place in (kernel.SHARED_ONE, kernel.SHARED):
        if fits(n, m, variant, place):
            return Kernel(place, tuning.GPU_LANES)
    return Kernel(kernel.GLOBAL, tuning.GPU_LANES)


def kernel_name(n: int, m: int, group: str = "flips", variant: str = "nonogram") -> str:
    """The default variant's name for n×m (``default_kernel``), e.g. 'shared-one': for a run's provenance."""
    return default_kernel(n, m, group, variant).name


def resolve(n: int, m: int, group: str, variant: str, kernel: Kernel | str | None) -> Kernel:
    """The variant to run: ``kernel`` (a Kernel or its name) if it can count n×m here, the default if None."""
    if kernel is None:
        return default_kernel(n, m, group, variant)
    chosen = Kernel.parse(kernel) if isinstance(kernel, str) else kernel
    if not fits(n, m, variant, chosen.place):
        raise ValueError(
            f"the GPU kernel {chosen.name!r} cannot count {n}x{m} ({variant}) here: one of "
            f"{', '.join(k.name for k in kernels(n, m, variant))}"
        )
    return chosen


def opt_in_shared(function, nbytes: int, driver=None) -> bool:
    """Let a compiled kernel launch with ``nbytes`` of dynamic shared memory: above DEFAULT_SHARED_BYTES the driver
    refuses the launch unless the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES was raised first.
    True if it raised it.  ``function``: numba-cuda's CUDA function (``.handle``, a CUkernel, and ``.device``);
    ``driver``: numba-cuda's driver API (a stand-in in tests)."""
    if nbytes <= DEFAULT_SHARED_BYTES:
        return False
    if driver is None:
        from cuda.bindings import driver as binding  # numba-cuda's bindings (the gpu extra)
        from numba.cuda.cudadrv.driver import driver

        attribute = binding.CUfunction_attribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)
    else:
        attribute = MAX_DYNAMIC_SHARED_SIZE_BYTES
    driver.cuKernelSetAttribute(attribute, nbytes, function.handle, function.device.id)
    return True


def block_threads(nbytes: int, max_threads: int) -> int:
    """Threads per block: ``tuning.GPU_BLOCK_THREADS`` for tables of at most DEFAULT_SHARED_BYTES (several blocks
    share a multiprocessor), else the largest power of two up to ``tuning.GPU_LARGE_BLOCK_THREADS`` and the
    kernel's ``max_threads``."""
    if nbytes <= DEFAULT_SHARED_BYTES:
        return tuning.GPU_BLOCK_THREADS
    return 1 << (min(tuning.GPU_LARGE_BLOCK_THREADS, max_threads).bit_length() - 1)


@functools.cache
def _prepared(launch, nbytes: int) -> int:
    """Threads per block for a kernel on the device, opted in to ``nbytes`` of shared memory first (once per kernel)."""
    if simulated():  # the simulator runs a Python thread per CUDA thread, and ignores the opt-in
        return tuning.GPU_SIMULATOR_THREADS
    if nbytes <= DEFAULT_SHARED_BYTES:
        return tuning.GPU_BLOCK_THREADS
    function = launch.compile(KERNEL_SIGNATURE)._codelibrary.get_cufunc()  # numba-cuda 0.30: the loaded CUkernel
    opt_in_shared(function, nbytes)
    return block_threads(nbytes, function.attrs.maxthreads)


def count_indices(
    n: int, m: int, base: int, count: int, group: str, variant: str = "nonogram", kernel: Kernel | str | None = None
) -> int:
    """Σ weight × solved over enumeration indices base .. base + count - 1 (one launch, block sums added).

    ``kernel``: the variant (a ``Kernel`` or its name, e.g. 'lanes2-shared-one'); None: ``default_kernel``'s.
    Every variant gives the same sum."""
    from numba import cuda

    from . import kernel as device

    chosen = resolve(n, m, group, variant, kernel)
    if n * m == 0:
        return count  # the one empty grid: solved
    nbytes = table_bytes(n, m, chosen.place)
    launch = device.count_kernel(n, m, GROUP_IDS[group], chosen.place, chosen.lanes)  # all compiled in
    block = _prepared(launch, nbytes)
    per = 1 << min(tuning.PER_THREAD_BITS, max(0, (count.bit_length() - 1) - (block.bit_length() - 1)))
    units = -(-count // per)  # ceiling divisions
    blocks = -(-units // block)
    out = cuda.to_device(np.zeros(blocks, np.int64))  # the threads add into it
    tables = device_tables(n, m, variant)
    launch[blocks, block, 0, nbytes](np.uint64(base), np.uint64(per), np.uint64(count), *tables, out)
    return int(out.copy_to_host().sum(dtype=np.int64))


def simulator_hint() -> str:
    """What to do without a GPU: the one-line message's end."""
    return f"to test the GPU engine without one, run with {SIMULATOR_ENV}=1 (numba's CUDA simulator, slow)"
