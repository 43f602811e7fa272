"""The thin counter's runs: 2×m grids sharded by ranges of first rows (the algorithm: ``kernel``).

Enumeration index ``a << m | b``; shard s (of 2^bits, bits ≤ m) is every
grid whose first row ``a`` has s in its top ``bits`` bits, so shards never
talk, any can be re-run alone, and their counts add up to the total.  Two
ways to update the first row make two code paths (``ROW_MODES``): ``table``
(the zeta table) and ``word`` (the line solver for both rows).

No numba here: the kernels are imported when a shard is computed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ..base import Layout

#: Bump when a change could change a thin shard's count (checkpoints are keyed by it).
THIN_VERSION = 1
#: How the first row is updated: by its zeta table, or by the line solver like the second.
ROW_MODES = {"table": "tab", "word": "word"}
#: Symmetry groups of the thin kernel (names as in ``engines.base.GROUP_IDS``) and their key suffixes.
THIN_GROUPS = {"flips": "sym", "none": "all"}

_KEY = re.compile(r"^2x(\d+)-thin(\d+)-(tab|word)-s(\d+)-(sym|all)$")


@dataclass(frozen=True)
class ThinLayout(Layout):
    """The shards of a thin (2×m) count: mode, group and shard bits fix every shard's count."""

    m: int
    bits: int
    rows: str = "table"  # ROW_MODES
    symmetry: str = "flips"  # THIN_GROUPS
    version: int = THIN_VERSION
    n: int = 2
    method: ClassVar[str] = "thin"

    @classmethod
    def make(cls, m: int, bits: int | None = None, rows: str = "table", symmetry: str = "flips") -> ThinLayout:
        """A checked layout for 2×m (default bits: about 2^``tuning.THIN_ROWS_PER_SHARD_BITS`` first rows
        per shard; m at most ``tuning.THIN_MAX_M``)."""
        if isinstance(m, bool) or not hasattr(m, "__index__") or not 1 <= m <= tuning.THIN_MAX_M:
            raise ValueError(f"the thin counter takes 2 x m grids with 1 <= m <= {tuning.THIN_MAX_M}, got m = {m!r}")
        if rows not in ROW_MODES:
            raise ValueError(f"row mode must be one of {', '.join(ROW_MODES)}, got {rows!r}")
        if symmetry not in THIN_GROUPS:
            raise ValueError(f"the thin counter's symmetry must be one of {', '.join(THIN_GROUPS)}, got {symmetry!r}")
        if bits is None:
            bits = max(0, m - tuning.THIN_ROWS_PER_SHARD_BITS)
        if not 0 <= bits <= m:
            raise ValueError(f"shard bits must be between 0 and {m} for the thin 2x{m} count, got {bits}")
        return cls(int(m), int(bits), rows, symmetry)

    @classmethod
    def from_key(cls, key: str):
        """The ThinLayout named by ``key``, or None if it is not a thin key."""
        match = _KEY.match(key)
        if not match:
            return None
        m, version, rows, bits, suffix = match.groups()
        rows = {v: k for k, v in ROW_MODES.items()}[rows]
        group = {v: k for k, v in THIN_GROUPS.items()}[suffix]
        return cls(int(m), int(bits), rows, group, int(version))

    @property
    def key(self) -> str:
        """Name of the layout, used for checkpoint files: e.g. '2x19-thin1-tab-s15-sym'."""
        return f"2x{self.m}-thin{self.version}-{ROW_MODES[self.rows]}-s{self.bits}-{THIN_GROUPS[self.symmetry]}"

    @property
    def code_path(self) -> str:
        """What makes two runs independent (row update and group, not shard bits): e.g. '2x19-thin-tab-sym'."""
        return f"2x{self.m}-thin-{ROW_MODES[self.rows]}-{THIN_GROUPS[self.symmetry]}"

    @property
    def title(self) -> str:
        """E.g. '2x20-thin-tab'."""
        return f"2x{self.m}-thin-{ROW_MODES[self.rows]}"

    @property
    def options(self) -> str:
        """The count command's options for this counter."""
        return " --method thin --thin-rows word" if self.rows == "word" else " --method thin"

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.bits

    @property
    def grids_per_shard(self) -> int:
        """Grids per shard (every grid, whatever the symmetry skips)."""
        return 1 << (2 * self.m - self.bits)

    def compute(self, shard: int) -> int:
        """The (orbit-weighted) count of solvable 2×m grids in one shard (serial, this process)."""
        from .kernel import count_thin_shard

        return count_thin_shard(self, shard)

    def warm(self, parallel: bool = False) -> None:
        """Compile or load the kernel and build the clue groups: one first row."""
        ThinLayout.make(self.m, self.m, self.rows, self.symmetry).compute(0)

    def estimate_one_core(self) -> float:
        """Expected seconds of the whole layout on one core, from timing a random sample of first rows."""
        from .kernel import estimate_thin_seconds

        return estimate_thin_seconds(self)

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(count, 1): every shard in this process, on one thread."""
        return self.shard_by_shard(progress)

    def shard_work(self):
        """Second rows each shard's loops go through, as an array over shards (for planning: ``scripts/campaign.py``).

        Under the flips a first row a is skipped when its reverse is smaller and
        otherwise meets the second rows b >= a; with every grid it meets all 2^m.
        """
        import numpy as np

        m = self.m
        a = np.arange(1 << m, dtype=np.int64)
        if self.symmetry == "flips":
            reverse = np.zeros_like(a)
            for i in range(m):
                reverse |= ((a >> i) & 1) << (m - 1 - i)
            work = np.where(reverse >= a, (1 << m) - a, 0)
        else:
            work = np.full(1 << m, 1 << m, np.int64)
        return work.reshape(self.shards, -1).sum(axis=1)


def count_thin(m: int, rows: str = "table", symmetry: str = "flips") -> int:
    """Locally solvable 2×m grids by the thin counter, in this process (one shard: the whole layout)."""
    return ThinLayout.make(m, 0, rows, symmetry).compute(0)
