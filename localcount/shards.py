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

    @property
    def code_path(self) -> str:
        """What makes two runs independent (orientation and group, not shard bits): e.g. '5x6-sym'."""
        return f"{self.n}x{self.m}-{_SUFFIX[self.symmetry]}"


#: Key suffix of each symmetry group (shard counts differ between groups).
_SUFFIX = {"none": "all", "flips": "sym", "square": "d4"}
_KEY = re.compile(r"^(\d+)x(\d+)-v(\d+)-s(\d+)-(sym|all|d4)$")


def parse_key(key: str):
    """The Layout (or StatsLayout, or thin.ThinLayout) named by its ``key``; ValueError if it is not one."""
    match = _KEY.match(key)
    if not match:
        from .thin import parse_thin_key

        thin = parse_thin_key(key)
        if thin is not None:
            return thin
        stats = _STATS_KEY.match(key)
        if stats:
            n, m, version, depth, path, suffix = stats.groups()
            path = {v: k for k, v in _PATH_SUFFIX.items()}[path]
            group = {v: k for k, v in _SUFFIX.items()}[suffix]
            return StatsLayout(int(n), int(m), int(depth), path, group, int(version))
        raise ValueError(f"not a run key: {key!r}")
    n, m, version, bits, suffix = match.groups()
    group = {v: k for k, v in _SUFFIX.items()}[suffix]
    return Layout(int(n), int(m), int(bits), group, int(version))


#: Bump when a change to the stats kernel could change a shard's vector.
STATS_VERSION = 1
_PATH_SUFFIX = {"rows": "rows", "transposed": "tr"}
_STATS_KEY = re.compile(r"^(\d+)x(\d+)-stats(\d+)-d(\d+)-(rows|tr)-(sym|all)$")


def _fibonacci(k: int) -> int:
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


@dataclass(frozen=True)
class StatsLayout:
    """The shards of a ``stats`` enumeration: shard s fixes the clues of ``depth`` rows (see statskernel)."""

    n: int
    m: int
    depth: int
    path: str = "rows"  # "rows" or "transposed" (stats.PATHS)
    symmetry: str = "flips"  # "flips" or "none"
    version: int = STATS_VERSION

    @property
    def clues(self) -> int:
        """Clues of an enumerated row (F(L+2) for L cells): the base of shard numbers."""
        return _fibonacci((self.n if self.path == "transposed" else self.m) + 2)

    @property
    def shards(self) -> int:
        """Number of shards."""
        return self.clues**self.depth

    @property
    def grids_per_shard(self) -> int:
        """Grids per shard on average (shards differ: this is for progress and rates only)."""
        return (1 << (self.n * self.m)) // self.shards

    @property
    def width(self) -> int:
        """Length of a shard's vector (stats.width)."""
        from .stats import width

        return width(self.n, self.m)

    @property
    def key(self) -> str:
        """Name of the layout, used for checkpoint files: e.g. '5x5-stats1-d2-rows-sym'."""
        return f"{self.n}x{self.m}-stats{self.version}-d{self.depth}-{_PATH_SUFFIX[self.path]}-{_SUFFIX[self.symmetry]}"


def parse_value(lay, text: str):
    """A shard's recorded value: an int for counts, a tuple of ``width`` ints for stats; ValueError if bad."""
    if isinstance(lay, StatsLayout):
        value = tuple(int(v) for v in text.split(","))
        if len(value) != lay.width or min(value) < 0:
            raise ValueError(text)
        return value
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def format_value(value) -> str:
    """The text of a shard's value in a checkpoint record (``parse_value``'s inverse)."""
    return ",".join(map(str, value)) if isinstance(value, tuple) else str(value)


def add_values(values, lay):
    """The sum of shard values: ints, or tuples added entry by entry (Python ints: no overflow)."""
    if isinstance(lay, StatsLayout):
        total = [0] * lay.width
        for v in values:
            total = [a + int(b) for a, b in zip(total, v)]
        return tuple(total)
    return sum(int(v) for v in values)


def compute_shard(lay, shard: int):
    """The value of one shard (serial kernel, in this process): a count (grid or thin layout) or a stats vector."""
    if isinstance(lay, StatsLayout):
        from .stats import stats_shards

        vec = stats_shards(lay.n, lay.m, [shard], lay.path, lay.symmetry, lay.depth, parallel=False)[0]
        return tuple(int(v) for v in vec)
    from .thin import ThinLayout, count_thin_shard

    if isinstance(lay, ThinLayout):
        return count_thin_shard(lay, shard)
    return count_shard(lay, shard)


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


def shard_work(lay: Layout):
    """Enumeration indices each shard really visits, as an array over shards.

    The kernel skips every border that is not its orbit's representative
    (``kernel`` module doc), so under symmetry most shards do little or no
    work: what a campaign costs is this work times the time per index.
    """
    import numpy as np

    from .count import GROUPS
    from .kernel import _representatives

    cells = lay.n * lay.m
    if cells == 0:
        return np.ones(1, np.int64)
    group = GROUPS[lay.symmetry]
    if lay.symmetry == "square":
        low = (lay.n - 2) ** 2  # the interior's bits (kernel: SQUARE layout)
    else:
        low = (lay.n - 2) * lay.m if lay.n >= 2 else 0
    border_bits = cells - low
    reps = _representatives(border_bits, lay.n, lay.m, group).astype(np.int64)
    if lay.bits <= border_bits:  # a shard is a run of whole borders
        return reps.reshape(lay.shards, -1).sum(axis=1) << low
    # a shard is a part of one border
    return np.repeat(reps, 1 << (lay.bits - border_bits)) << (cells - lay.bits)


def count_shard(lay: Layout, shard: int) -> int:
    """Symmetry-weighted count of one shard (serial kernel, in this process)."""
    if lay.n * lay.m == 0:
        return 1  # the one empty grid: one shard, solved
    return count_unit(plan(lay.n, lay.m, lay.bits), shard, lay.symmetry)


def estimate_one_core(lay) -> float:
    """Expected seconds of a whole grid or thin layout on one core (compile excluded)."""
    from .thin import ThinLayout, estimate_thin_seconds

    if isinstance(lay, ThinLayout):
        return estimate_thin_seconds(lay)
    from .count import estimate_seconds

    return estimate_seconds(lay.n, lay.m, lay.symmetry, parallel=False)
