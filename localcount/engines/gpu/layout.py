"""The GPU engine's runs: the general kernel's shards (``engines.grid.layout``), each a kernel launch.

Shard s is every enumeration index whose top ``bits`` bits equal s, in the general kernel's index
layout and with its symmetry groups, so shards compose with the symmetry reduction exactly as there.
Keys and code paths name the engine (``6x6-gpu1-s4-d4``, ``6x6-gpu-d4``): a GPU count and a CPU
count of a size are two independent code paths.  Shards run in the process that holds the device
(``in_parent``: a CUDA context does not survive ``fork``), one launch at a time, recorded in the same
checkpoints as every run; Dask workers with a GPU run them as tasks.

No numba here: ``count`` and ``kernel`` are imported when a shard is computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ...clues import check_variant
from ...lines import SPREAD_MAX_LEN, TABLE_MAX_LEN
from .. import enumeration
from ..base import BitShards, check_bits, check_size, default_shard_bits, symmetry_group, variant_group

#: Bump when a change to the GPU kernel could change a shard's count.
GPU_VERSION = 1


def default_bits(n: int, m: int) -> int:
    """Shard bits: about 2^``tuning.GPU_SHARD_GRID_BITS`` indices per shard, at least 2^``GPU_MIN_SHARD_BITS`` shards."""
    return default_shard_bits(n, m, tuning.GPU_SHARD_GRID_BITS, tuning.GPU_MIN_SHARD_BITS)


@dataclass(frozen=True)
class GpuLayout(BitShards):
    """Everything that determines the count of each shard of the GPU engine."""

    method: ClassVar[str] = "gpu"
    KEY: ClassVar[str] = "{n}x{m}-gpu{version}-s{bits}-{symmetry}"  # e.g. '6x6-gpu1-s4-d4'
    CODE_PATH: ClassVar[str] = "{n}x{m}-gpu-{symmetry}"  # '6x6-gpu-d4': a GPU count and a CPU count are two paths
    TITLE: ClassVar[str] = "{n}x{m}-gpu"
    #: Shards are computed in the process that holds the device, one at a time (``orchestration.runner``).
    in_parent: ClassVar[bool] = True
    #: A seeded sample of the shards is recounted by the general kernel on the CPU (``orchestration.verify``):
    #: the same index order and groups, so a shard's value is the same number.
    verified_by: ClassVar[str] = "grid"
    n: int
    m: int
    bits: int
    symmetry: str = "flips"  # "none", "flips" or "square" (base.symmetry_group)
    version: int = GPU_VERSION
    variant: str = "nonogram"

    @classmethod
    def make(cls, n: int, m: int, bits: int | None = None, symmetry=True, variant: str = "nonogram") -> GpuLayout:
        """A checked layout; ValueError if the size does not fit the kernel or no GPU (nor the simulator) is there."""
        from .count import available, simulator_hint

        check_size(n, m)
        if max(n, m) > min(TABLE_MAX_LEN, SPREAD_MAX_LEN):
            raise ValueError(
                f"the gpu method needs lines of at most {TABLE_MAX_LEN} cells (line tables), not {max(n, m)}"
            )
        bits = check_bits(n, m, default_bits(n, m) if bits is None else bits, tuning.GPU_MAX_SHARD_BITS)
        group = variant_group(n, m, symmetry, check_variant(variant))
        reason = available()
        if reason:
            raise ValueError(f"--method gpu: {reason}; {simulator_hint()}")
        return cls(n, m, bits, group, variant=variant)

    @property
    def options(self) -> str:
        """The count command's options for this engine after the size."""
        default = "flips" if self.variant != "nonogram" else symmetry_group(self.n, self.m, True)
        return (
            " --method gpu" + ("" if self.symmetry == default else f" --symmetry {self.symmetry}") + self.variant_option
        )

    def shard_work(self):
        """Indices each shard really propagates: those under its borders that are their orbits' least (the kernel
        skips the rest), as in the general kernel (``engines.enumeration``)."""
        return enumeration.shard_work(self.n, self.m, self.bits, self.symmetry)

    def kernel_note(self) -> str:
        """The device and the kernel variant, for the run's provenance (the sessions file)."""
        from .count import device_name, kernel_name

        return f"{device_name()}, kernel {kernel_name(self.n, self.m, self.symmetry, self.variant)}"

    def compute(self, shard: int) -> int:
        """Symmetry-weighted count of one shard: one kernel launch."""
        from .count import count_indices

        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is not one of the {self.shards} shards of {self.key}")
        inner = self.n * self.m - self.bits
        return count_indices(self.n, self.m, shard << inner, 1 << inner, self.symmetry, self.variant)

    def warm(self, parallel: bool = False) -> None:
        """Compile the kernel (and copy the tables to the device) on one index."""
        from .count import count_indices

        count_indices(self.n, self.m, 0, 1, self.symmetry, self.variant)

    def estimate_one_core(self) -> float:
        """Expected device seconds of the whole run: a sample launch from the middle representative border on,
        timed, scaled from the indices it propagated to those the whole run propagates (``shard_work``)."""
        import time

        import numpy as np

        from .count import count_indices

        cells = self.n * self.m
        low = enumeration.low_bits(self.n, self.m, self.symmetry)
        reps = enumeration.representatives(self.n, self.m, self.symmetry)
        chosen = np.flatnonzero(reps)
        border = int(chosen[len(chosen) // 2]) if len(chosen) else 0
        sample = 1 << min(cells, 12 if _simulated() else 24)
        start = min(border << low, (1 << cells) - sample)
        if sample >= 1 << low:  # whole borders: the representatives among them
            first = start >> low
            propagated = int(reps[first : first + (sample >> low)].sum()) << low
        else:  # a part of one border
            propagated = sample * int(reps[start >> low])
        self.warm()
        began = time.perf_counter()
        count_indices(self.n, self.m, start, sample, self.symmetry, self.variant)
        seconds = time.perf_counter() - began
        return seconds * float(int(reps.sum()) << low) / max(propagated, 1)

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(count, 1): every shard, one launch each, in this process."""
        return self.shard_by_shard(progress)


def _simulated() -> bool:
    from .count import simulated

    return simulated()
