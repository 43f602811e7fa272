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

from ...clues import check_variant
from ...lines import SPREAD_MAX_LEN, TABLE_MAX_LEN
from ..base import GROUP_SUFFIX, BitShards, bits_key_pattern, check_size, parse_bits_key, symmetry_group

#: Bump when a change to the GPU kernel could change a shard's count.
GPU_VERSION = 1
#: A default shard is about 2^SHARD_GRID_BITS indices: one launch of a fraction of a second on a GPU ...
SHARD_GRID_BITS = 32
#: ... and there are at least 2^MIN_SHARD_BITS shards where the size has that many indices (progress, resume).
MIN_SHARD_BITS = 4
MAX_SHARD_BITS = 24
_SUFFIX = GROUP_SUFFIX
_KEY = bits_key_pattern("gpu", ("flips", "none", "square"))


def default_bits(n: int, m: int) -> int:
    """Shard bits: about 2^SHARD_GRID_BITS indices per shard, at least 2^MIN_SHARD_BITS shards."""
    cells = n * m
    return min(cells, max(MIN_SHARD_BITS, cells - SHARD_GRID_BITS))


@dataclass(frozen=True)
class GpuLayout(BitShards):
    """Everything that determines the count of each shard of the GPU engine."""

    method: ClassVar[str] = "gpu"
    #: Shards are computed in the process that holds the device, one at a time (``orchestration.runner``).
    in_parent: ClassVar[bool] = True
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
            raise ValueError(f"the gpu method needs lines of at most {TABLE_MAX_LEN} cells (line tables), not {max(n, m)}")
        bits = default_bits(n, m) if bits is None else bits
        if not 0 <= bits <= min(n * m, MAX_SHARD_BITS):
            raise ValueError(f"shard bits must be between 0 and {min(n * m, MAX_SHARD_BITS)} for {n}x{m}, got {bits}")
        if check_variant(variant) == "nonogram":
            group = symmetry_group(n, m, symmetry)
        else:
            group = "flips" if symmetry in (True, "auto") else symmetry_group(n, m, symmetry)
            if group == "square":
                raise ValueError("a yesnogram's symmetry is flips or none, not square")
        reason = available()
        if reason:
            raise ValueError(f"--method gpu: {reason}; {simulator_hint()}")
        return cls(n, m, bits, group, variant=variant)

    @classmethod
    def from_key(cls, key: str):
        """The layout named by ``key``, or None."""
        parsed = parse_bits_key(_KEY, key)
        return None if parsed is None else cls(*parsed)

    @property
    def key(self) -> str:
        """E.g. '6x6-gpu1-s4-d4' ('-yes' for yesnograms)."""
        return f"{self.n}x{self.m}-gpu{self.version}-s{self.bits}-{_SUFFIX[self.symmetry]}{self.variant_suffix}"

    @property
    def code_path(self) -> str:
        """E.g. '6x6-gpu-d4'."""
        return f"{self.n}x{self.m}-gpu-{_SUFFIX[self.symmetry]}{self.variant_suffix}"

    @property
    def title(self) -> str:
        """E.g. '6x6-gpu'."""
        return f"{self.n}x{self.m}-gpu{self.variant_suffix}"

    @property
    def options(self) -> str:
        """The count command's options for this engine after the size."""
        default = "flips" if self.variant != "nonogram" else symmetry_group(self.n, self.m, True)
        return " --method gpu" + ("" if self.symmetry == default else f" --symmetry {self.symmetry}") + self.variant_option

    def shard_work(self):
        """Indices each shard propagates, estimated as its share of the group's orbits (the kernel skips the rest)."""
        import numpy as np

        share = {"none": 1, "flips": 4, "square": 8}[self.symmetry]
        return np.full(self.shards, max(1, self.grids_per_shard // share), np.int64)

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
        """Expected device seconds of the whole run: a sample launch, timed, scaled by the shards."""
        import time

        from .count import count_indices

        inner = self.n * self.m - self.bits
        sample = 1 << min(inner, 12 if _simulated() else 24)
        self.warm()
        start = time.perf_counter()
        count_indices(self.n, self.m, (self.shards // 2) << inner, sample, self.symmetry, self.variant)
        return (time.perf_counter() - start) * (1 << (self.n * self.m)) / sample

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(count, 1): every shard, one launch each, in this process."""
        total = 0
        for shard in range(self.shards):
            total += self.compute(shard)
            if progress is not None:
                progress((shard + 1) * self.grids_per_shard)
        return total, 1


def _simulated() -> bool:
    from .count import simulated

    return simulated()

