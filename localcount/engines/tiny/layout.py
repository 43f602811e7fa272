"""The tiny-size counter's runs: the grids of a size in index order, cut into 2^bits ranges.

A grid's index is its value (bit ``r*m + c`` is cell (r, c)); shard s holds
the indices whose top ``bits`` bits are s.  With the group ``none`` every
grid is propagated; with ``flips`` only the least grid of each orbit under
the row and column reflections, weighted by its orbit's size
(``propagate.orbit_weights``).  Yesnograms: ``variant``, keys ending in
``-yes``.  No numba anywhere in this engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ...clues import check_variant
from ..base import GROUP_SUFFIX, BitShards, check_bits, check_size

#: Bump when a change could change a shard's count (checkpoints are keyed by it).
TINY_VERSION = 1


def takes(n: int, m: int) -> bool:
    """True if the tiny counter takes n×m (``tuning.TINY_MAX_CELLS``, ``TINY_MAX_LINE``): a single row or column
    may be longer (its one-cell crossing lines decide it; the long table is never built)."""
    return n * m <= tuning.TINY_MAX_CELLS and (max(n, m) <= tuning.TINY_MAX_LINE or min(n, m) <= 1)


@dataclass(frozen=True)
class TinyLayout(BitShards):
    """Every grid of a small n×m, as 2^bits ranges of grid values."""

    n: int
    m: int
    bits: int = 0
    symmetry: str = "flips"
    version: int = TINY_VERSION
    variant: str = "nonogram"
    method: ClassVar[str] = "tiny"
    takes: ClassVar = staticmethod(takes)
    KEY: ClassVar[str] = "{n}x{m}-tiny{version}-s{bits}-{symmetry}"  # e.g. '4x4-tiny1-s0-sym'
    CODE_PATH: ClassVar[str] = "{n}x{m}-tiny-{symmetry}"  # '4x4-tiny-sym' (its orbits) or '4x4-tiny-all' (every grid)
    TITLE: ClassVar[str] = "{n}x{m}-tiny"
    WORDS: ClassVar[dict] = {"symmetry": {g: GROUP_SUFFIX[g] for g in ("none", "flips")}}

    @classmethod
    def make(cls, n: int, m: int, bits: int | None = None, symmetry="flips", variant: str = "nonogram") -> TinyLayout:
        """A checked layout; ValueError if n×m is too large, its lines too long for the line tables, or the group unknown."""
        check_size(n, m)
        if not takes(n, m):
            raise ValueError(
                f"the tiny method takes sizes of at most {tuning.TINY_MAX_CELLS} cells whose lines have at most "
                f"{tuning.TINY_MAX_LINE} cells "
                f"(or a single row or column), not {n}x{m}"
            )
        bits = check_bits(n, m, 0 if bits is None else bits, n * m)
        if symmetry not in cls.WORDS["symmetry"]:
            raise ValueError(f"the tiny method's symmetry is flips or none, not {symmetry}")
        return cls(n, m, bits, symmetry, variant=check_variant(variant))

    @property
    def options(self) -> str:
        """The count command's options for this counter."""
        return " --method tiny" + (" --symmetry none" if self.symmetry == "none" else "") + self.variant_option

    def compute(self, shard: int) -> int:
        """Locally solvable grids of one shard."""
        from .propagate import solved_count

        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is not one of the {self.shards} shards of {self.key}")
        lo = shard * self.grids_per_shard
        return solved_count(self.n, self.m, lo, lo + self.grids_per_shard, self.symmetry == "flips", self.variant)

    def warm(self, parallel: bool = False) -> None:
        """Nothing to compile."""

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(count, 1): every shard in this process."""
        return self.shard_by_shard(progress)

    def shard_work(self):
        """Grids propagated per shard: all of them, or about a quarter with the flips."""
        import numpy as np

        share = 4 if self.symmetry == "flips" else 1
        return np.full(self.shards, -(-self.grids_per_shard // share), np.int64)
