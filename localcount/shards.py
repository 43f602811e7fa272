"""Shards: a deterministic split of the 2^(n·m) enumeration indices.

Shard s (0 <= s < 2^bits) is every index whose top ``bits`` bits equal s.
The kernel's index layout puts the border rows (row 0, then row n-1) in the
top bits, so a shard is a set of border values and composes with the
symmetry reduction: the symmetry-weighted counts of the shards add up to the
exact total.  Shards never talk to each other; any shard can be re-run alone.

Groups (``--shard K/N``) follow nauty geng's res/mod: group K of N is every
shard s with s % N == K.  The N groups are disjoint and cover every shard,
and splits nest: group K of N is the union of groups K and K+N of 2N.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .count import check_size, count_unit, plan, symmetry_group

#: Bump when a change to the counting logic could change a shard's count:
#: checkpoints are keyed by it, so old records are never mixed in.
LOGIC_VERSION = 1
#: A default shard covers about 2^SHARD_GRID_BITS indices ...
SHARD_GRID_BITS = 22
#: ... and there are at least 2^MIN_SHARD_BITS shards (if the size has that many grids) ...
MIN_SHARD_BITS = 8
#: ... and at most 2^DEFAULT_MAX_SHARD_BITS (a checkpoint line per shard: 7x7 gets 2^20 lines).
DEFAULT_MAX_SHARD_BITS = 20
#: --shard-bits may go up to this (the parent keeps a record per shard in memory).
MAX_SHARD_BITS = 24


@dataclass(frozen=True)
class Layout:
    """Everything that determines the count of each shard."""

    n: int
    m: int
    bits: int  # 2^bits shards
    symmetry: str = "flips"  # the group: "none", "flips" or "square" (count.symmetry_group)
    version: int = LOGIC_VERSION

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.bits

    @property
    def grids_per_shard(self) -> int:
        """Enumeration indices per shard."""
        return 1 << (self.n * self.m - self.bits)

    @property
    def key(self) -> str:
        """Name of the layout, used for checkpoint files: e.g. '5x6-v1-s8-sym'."""
        return f"{self.n}x{self.m}-v{self.version}-s{self.bits}-{_SUFFIX[self.symmetry]}"


#: Key suffix of each symmetry group (shard counts differ between groups).
_SUFFIX = {"none": "all", "flips": "sym", "square": "d4"}
_KEY = re.compile(r"^(\d+)x(\d+)-v(\d+)-s(\d+)-(sym|all|d4)$")


def parse_key(key: str) -> Layout:
    """The Layout named by ``Layout.key``; ValueError if it is not one."""
    match = _KEY.match(key)
    if not match:
        raise ValueError(f"not a run key: {key!r}")
    n, m, version, bits, suffix = match.groups()
    group = {v: k for k, v in _SUFFIX.items()}[suffix]
    return Layout(int(n), int(m), int(bits), group, int(version))


def default_bits(n: int, m: int) -> int:
    """Shard bits for a size: about 2^SHARD_GRID_BITS grids per shard, within the bounds above."""
    cells = n * m
    return min(cells, DEFAULT_MAX_SHARD_BITS, max(MIN_SHARD_BITS, cells - SHARD_GRID_BITS))


def layout(n: int, m: int, bits: int | None = None, symmetry=True) -> Layout:
    """The shard layout of n×m with 2^bits shards (default: ``default_bits``);
    ``symmetry`` as for ``count.count``."""
    check_size(n, m)
    if bits is None:
        bits = default_bits(n, m)
    if not 0 <= bits <= min(n * m, MAX_SHARD_BITS):
        raise ValueError(f"shard bits must be between 0 and {min(n * m, MAX_SHARD_BITS)} for {n}x{m}, got {bits}")
    return Layout(n, m, bits, symmetry_group(n, m, symmetry))


def parse_group(text: str) -> tuple:
    """'K/N' -> (K, N) with 0 <= K < N."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not match:
        raise ValueError(f"shard group must look like K/N (e.g. 3/16), got {text!r}")
    k, mod = int(match.group(1)), int(match.group(2))
    if mod < 1 or not 0 <= k < mod:
        raise ValueError(f"shard group K/N needs 0 <= K < N, got {k}/{mod}")
    return k, mod


def group_shards(lay: Layout, k: int = 0, mod: int = 1) -> range:
    """The shards of group K of N (all shards for 0/1)."""
    return range(k, lay.shards, mod)


def count_shard(lay: Layout, shard: int) -> int:
    """Symmetry-weighted count of one shard (serial kernel, in this process)."""
    if lay.n * lay.m == 0:
        return 1  # the one empty grid: one shard, solved
    return count_unit(plan(lay.n, lay.m, lay.bits), shard, lay.symmetry)
