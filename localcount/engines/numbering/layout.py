"""The numbering engine's runs: shards of blocks, each block's histogram of codes (the stored numbering).

A block is every grid whose top ``rows`` rows are the same: grids A·2^b .. (A+1)·2^b − 1 in the
numbering (b = (n − rows)·m, ``docs/numbering.md``), for each top-rows value A.  Shard s holds
consecutive blocks; its value is the shard's number, then for each block it computes the block's
number followed by the histogram of its grids' codes (``count.width`` numbers: stuck, then solved
in 0, 1, 2, ... steps), flattened into one tuple (never empty: a checkpoint record needs a value).
A whole run's total is -1 followed by every record in block order (``add``), and ``finish`` turns
it into the stored numbering: an array of one histogram per block (the block table).

Symmetry ``mirror``: the flip H (every row read right to left) maps the block of A onto the block of
A with each row reversed, and keeps every grid's steps (it reverses each row's cells and the order of
the columns: a half maps to a half).  So only the blocks whose A is the least of the pair are
computed, and ``finish`` copies each histogram to the other.  ``none`` computes every block: an
independent code path for the same numbering.  Yesnograms (``variant``): keys end in ``-yes``; H keeps
the family too.  No numba here.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ...clues import check_variant
from ..base import Layout
from .prepare import check_numbering_size

#: Bump when a change to the numbering kernels could change a shard's value.
NUMBERING_VERSION = 1


def default_rows(n: int, m: int) -> int:
    """The top rows that name a block: the fewest that leave small blocks if the stored numbering stays small, else the
    fewest that leave at most ``tuning.NUMBERING_BLOCK_BITS`` cells below (within ``NUMBERING_MAX_KEY_BITS``)."""
    if n * m == 0:
        return 0
    small = next(r for r in range(n + 1) if (n - r) * m <= tuning.NUMBERING_SMALL_BLOCK_BITS)
    if small * m <= tuning.NUMBERING_SMALL_KEY_BITS:
        return small
    rows = next(r for r in range(n + 1) if (n - r) * m <= tuning.NUMBERING_BLOCK_BITS)
    return min(rows, tuning.NUMBERING_MAX_KEY_BITS // m)


def default_bits(n: int, m: int, rows: int) -> int:
    """Shard bits: about 2^``tuning.NUMBERING_SHARD_GRID_BITS`` grids per shard, at least
    2^``NUMBERING_MIN_SHARD_BITS`` shards."""
    return min(rows * m, max(tuning.NUMBERING_MIN_SHARD_BITS, n * m - tuning.NUMBERING_SHARD_GRID_BITS))


@functools.lru_cache(maxsize=16)
def computed_blocks(m: int, rows: int, symmetry: str):
    """A bool array over top-rows values: True for the blocks a run computes (all, or the least of each mirror pair)."""
    import numpy as np

    from .prepare import mirror

    values = np.arange(1 << (rows * m), dtype=np.int64)
    out = values <= mirror(values, m, rows) if symmetry == "mirror" else np.ones(len(values), bool)
    out.flags.writeable = False
    return out


@dataclass(frozen=True)
class NumberingLayout(Layout):
    """Everything that determines each shard's value of a numbering run."""

    kind: ClassVar[str] = "index"
    method: ClassVar[str] = "index"
    KEY: ClassVar[str] = "{n}x{m}-index{version}-r{rows}-s{bits}-{symmetry}"  # e.g. '6x6-index1-r2-s10-mir'
    CODE_PATH: ClassVar[str] = "{n}x{m}-index-{symmetry}"  # '6x6-index-mir'
    TITLE: ClassVar[str] = "{n}x{m}-index"
    WORDS: ClassVar[dict] = {"symmetry": {"mirror": "mir", "none": "all"}}
    n: int
    m: int
    rows: int  # the top rows that name a block
    bits: int  # 2^bits shards of consecutive blocks
    symmetry: str = "mirror"  # "mirror" or "none" (module doc)
    version: int = NUMBERING_VERSION
    variant: str = "nonogram"

    @classmethod
    def make(cls, n: int, m: int, rows: int | None = None, bits: int | None = None, symmetry: str = "mirror",
             variant: str = "nonogram") -> NumberingLayout:  # fmt: skip
        """A checked layout (defaults: ``default_rows``, ``default_bits``); ValueError if n×m cannot be numbered."""
        check_numbering_size(n, m)
        if symmetry not in cls.WORDS["symmetry"]:
            raise ValueError(f"index symmetry must be one of {', '.join(cls.WORDS['symmetry'])}, got {symmetry!r}")
        rows = default_rows(n, m) if rows is None else rows
        if not 0 <= rows <= n:
            raise ValueError(f"rows must be between 0 and {n}, got {rows}")
        bits = default_bits(n, m, rows) if bits is None else bits
        if not 0 <= bits <= rows * m:
            raise ValueError(f"shard bits must be between 0 and {rows * m} for {rows} rows of {m}, got {bits}")
        return cls(n, m, rows, bits, symmetry, variant=check_variant(variant))

    # --- blocks and shards ---

    @property
    def blocks(self) -> int:
        """Number of blocks (top-rows values)."""
        return 1 << (self.rows * self.m)

    @property
    def block_bits(self) -> int:
        """Each block holds 2^block_bits grids."""
        return (self.n - self.rows) * self.m

    @property
    def width(self) -> int:
        """Length of a block's histogram (``count.width``)."""
        return self.n * self.m + 3

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.bits

    @property
    def blocks_per_shard(self) -> int:
        """Consecutive blocks in each shard."""
        return self.blocks >> self.bits

    @property
    def grids_per_shard(self) -> int:
        """Grids per shard."""
        return self.blocks_per_shard << self.block_bits

    def computed(self):
        """The bool array over blocks of those a run computes (``computed_blocks``)."""
        return computed_blocks(self.m, self.rows, self.symmetry)

    def shard_blocks(self, shard: int) -> list:
        """The blocks shard ``shard`` computes, in order."""
        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is not one of the {self.shards} shards of {self.key}")
        lo = shard * self.blocks_per_shard
        done = self.computed()
        return [b for b in range(lo, lo + self.blocks_per_shard) if done[b]]

    def shard_work(self):
        """Grids each shard propagates: its computed blocks' grids."""
        import numpy as np

        per = self.computed().reshape(self.shards, -1).sum(axis=1).astype(np.int64)
        return per << self.block_bits

    # --- values ---

    def parse_value(self, text: str) -> tuple:
        """A shard's value (its number, then its records) or a total (-1, then records); ValueError if it is neither."""
        value = tuple(int(v) for v in text.split(","))
        if len(value) % (self.width + 1) != 1 or value[0] < -1 or any(v < 0 for v in value[1:]):
            raise ValueError(text[:80])
        return value

    def add(self, values) -> tuple:
        """-1, then every record of the given shard values (or totals) in block order; ValueError if two disagree."""
        size = self.width + 1
        records = {}
        for value in values:
            for i in range(1, len(value), size):
                block, record = value[i], tuple(value[i : i + size])
                if records.setdefault(block, record) != record:
                    raise ValueError(f"block {block} of {self.key} has two different histograms")
        return (-1, *(v for block in sorted(records) for v in records[block]))

    def finish(self, total):
        """The stored numbering: an int64 array of one histogram of codes per block; ValueError if a block is missing or wrong."""
        import numpy as np

        from .prepare import mirror

        size = self.width + 1
        flat = np.asarray(total[1:], np.int64).reshape(-1, size)
        done = self.computed()
        if len(flat) != int(done.sum()) or not np.array_equal(flat[:, 0], np.flatnonzero(done)):
            raise ValueError(f"{self.key}: the records do not cover every computed block once")
        out = np.zeros((self.blocks, self.width), np.int64)
        out[flat[:, 0]] = flat[:, 1:]
        if self.symmetry == "mirror":
            blocks = np.arange(self.blocks, dtype=np.int64)
            out = out[np.minimum(blocks, mirror(blocks, self.m, self.rows))]
        if not (out.sum(axis=1) == 1 << self.block_bits).all():
            raise ValueError(f"{self.key}: a block's histogram does not add up to its 2^{self.block_bits} grids")
        return out

    def solvable(self, total) -> int:
        """The locally solvable grids of a whole run."""
        return int(self.finish(total)[:, 1:].sum())

    def format_total(self, total) -> str:
        """The solvable count, as a count prints it."""
        return str(self.solvable(total))

    def describe(self, total) -> str:
        """E.g. 'index of 32 blocks, 24976511 solvable'."""
        return f"index of {self.blocks} blocks, {self.solvable(total)} solvable"

    # --- work ---

    def _record(self, block: int) -> tuple:
        from .count import hist

        counts = hist(self.n, self.m, block << self.block_bits, 1 << self.block_bits, self.variant)
        return (block, *(int(c) for c in counts))

    def compute(self, shard: int) -> tuple:
        """The shard's number, then the records of its computed blocks (in this thread)."""
        return (shard, *(v for block in self.shard_blocks(shard) for v in self._record(block)))

    def warm(self, parallel: bool = False) -> None:
        """Compile or load this size's kernels on a few grids."""
        from .count import codes, hist

        few = min(1 << (self.n * self.m), 1 << self.m) if self.n * self.m else 1
        hist(self.n, self.m, 0, few, self.variant)
        if parallel:
            codes(self.n, self.m, 0, few, self.variant)

    def estimate_one_core(self) -> float:
        """Seconds of the whole run on one core: a sample of blocks' first grids, timed."""
        import time

        import numpy as np

        from .count import hist

        done = np.flatnonzero(self.computed())
        if self.n * self.m == 0:
            return 0.0
        sample = min(1 << self.block_bits, 1 << max(self.m, 14))
        rng = np.random.default_rng(1)
        picks = rng.choice(done, size=min(16, len(done)), replace=False)
        self.warm()
        start = time.perf_counter()
        for block in picks:  # a random stretch of whole last rows in each block
            offset = int(rng.integers(0, (1 << self.block_bits) // sample)) * sample
            hist(self.n, self.m, (int(block) << self.block_bits) + offset, sample, self.variant)
        per_grid = (time.perf_counter() - start) / (len(picks) * sample)
        return per_grid * len(done) * (1 << self.block_bits)

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(total, threads): every computed block on min(jobs, numba's threads) threads, in this process."""
        import numba
        import numpy as np

        from .count import codes

        threads = min(jobs, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(threads)
        out = [-1]
        from .fast import pays

        how = "generated" if pays(self.n, self.m, 0, 1 << self.block_bits) else "plain"  # not numpy: this is a count
        for i, block in enumerate(np.flatnonzero(self.computed())):
            grids = codes(self.n, self.m, int(block) << self.block_bits, 1 << self.block_bits, self.variant, how=how)
            out += [int(block), *(int(c) for c in np.bincount(grids, minlength=self.width))]
            if progress is not None:
                progress((i + 1) << self.block_bits)
        return tuple(out), threads
