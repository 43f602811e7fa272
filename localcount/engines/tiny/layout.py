"""The tiny-size counter's runs: the grids of a size in index order, cut into 2^bits ranges.

A grid's index is its value (bit ``r*m + c`` is cell (r, c)); shard s holds
the indices whose top ``bits`` bits are s.  Every grid is counted once (no
symmetry).  No numba anywhere in this engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ..base import Layout, check_size

#: Bump when a change could change a shard's count (checkpoints are keyed by it).
TINY_VERSION = 1
#: Largest size it takes: 2^18 grids propagate in well under a second as numpy arrays ...
MAX_CELLS = 18
#: ... and lines up to this long: their table (4^L entries) builds in milliseconds (4^13 takes seconds).
MAX_LINE = 10
_KEY = re.compile(r"^(\d+)x(\d+)-tiny(\d+)-s(\d+)-all$")


@dataclass(frozen=True)
class TinyLayout(Layout):
    """Every grid of a small n×m, as 2^bits ranges of grid values."""

    n: int
    m: int
    bits: int = 0
    version: int = TINY_VERSION
    method: ClassVar[str] = "tiny"
    MAX_CELLS: ClassVar[int] = MAX_CELLS
    MAX_LINE: ClassVar[int] = MAX_LINE

    @classmethod
    def make(cls, n: int, m: int, bits: int | None = None) -> TinyLayout:
        """A checked layout; ValueError if n×m is too large or its lines too long for the line tables."""
        check_size(n, m)
        if n * m > MAX_CELLS or max(n, m) > MAX_LINE:
            raise ValueError(f"the tiny method takes sizes of at most {MAX_CELLS} cells and lines of at most {MAX_LINE}, not {n}x{m}")
        bits = 0 if bits is None else bits
        if not 0 <= bits <= n * m:
            raise ValueError(f"shard bits must be between 0 and {n * m} for {n}x{m}, got {bits}")
        return cls(n, m, bits)

    @classmethod
    def from_key(cls, key: str):
        """The layout named by ``key``, or None."""
        match = _KEY.match(key)
        if not match:
            return None
        n, m, version, bits = map(int, match.groups())
        return cls(n, m, bits, version)

    @property
    def key(self) -> str:
        """E.g. '4x4-tiny1-s0-all'."""
        return f"{self.n}x{self.m}-tiny{self.version}-s{self.bits}-all"

    @property
    def code_path(self) -> str:
        """E.g. '4x4-tiny-all'."""
        return f"{self.n}x{self.m}-tiny-all"

    @property
    def title(self) -> str:
        """E.g. '4x4-tiny'."""
        return f"{self.n}x{self.m}-tiny"

    @property
    def options(self) -> str:
        """The count command's options for this counter."""
        return " --method tiny"

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.bits

    @property
    def grids_per_shard(self) -> int:
        """Grids per shard."""
        return 1 << (self.n * self.m - self.bits)

    def compute(self, shard: int) -> int:
        """Locally solvable grids of one shard."""
        from .propagate import solved_count

        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is not one of the {self.shards} shards of {self.key}")
        return solved_count(self.n, self.m, shard * self.grids_per_shard, (shard + 1) * self.grids_per_shard)

    def warm(self, parallel: bool = False) -> None:
        """Nothing to compile: build the line tables."""
        from ...lines.tables import line_table

        if self.n * self.m:
            line_table(self.m), line_table(self.n)

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(count, 1): every shard in this process."""
        total = 0
        for shard in range(self.shards):
            total += self.compute(shard)
            if progress is not None:
                progress((shard + 1) * self.grids_per_shard)
        return total, 1

    def shard_work(self):
        """Grids per shard: all of them are propagated."""
        import numpy as np

        return np.full(self.shards, self.grids_per_shard, np.int64)
