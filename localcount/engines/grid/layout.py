"""The general kernel's runs: shards of the 2^(n·m) enumeration indices.

Shard s (0 <= s < 2^bits) is every index whose top ``bits`` bits equal s.
The kernel's index order puts the border rows (row 0, then row n-1) in the
top bits, so a shard is a set of border values and composes with the
symmetry reduction: the symmetry-weighted counts of the shards add up to the
exact total.  Shards never talk to each other; any shard can be re-run alone.

Yesnograms (``variant``): the same kernel with the rows' table of
``lines.tables.row_table``; keys and code paths end in ``-yes`` (nonogram
keys are unchanged).  Their symmetry group is the flips or none: V and H
keep rows as rows and reverse lines, and reversing a line reverses its runs
of 0s as well as its runs of 1s, so the argument of ``kernel`` holds line by
line; the transposition T turns rows into columns, whose clues count the
other value, so the square's group does not keep the family.

No numba here: the kernels are imported when a shard is computed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ...clues import check_variant
from ...lines import TABLE_MAX_LEN
from ..base import BitShards, check_bits, check_size, default_shard_bits, variant_group

#: Bump when a change to the counting logic could change a shard's count:
#: checkpoints are keyed by it, so old records are never mixed in.
LOGIC_VERSION = 1


def default_bits(n: int, m: int) -> int:
    """Shard bits for a size: about 2^``tuning.GRID_SHARD_GRID_BITS`` grids per shard, within its bounds there."""
    return default_shard_bits(
        n, m, tuning.GRID_SHARD_GRID_BITS, tuning.GRID_MIN_SHARD_BITS, tuning.GRID_DEFAULT_MAX_SHARD_BITS
    )


@dataclass(frozen=True)
class GridLayout(BitShards):
    """Everything that determines the count of each shard of the general kernel."""

    KEY: ClassVar[str] = "{n}x{m}-v{version}-s{bits}-{symmetry}"  # e.g. '5x6-v1-s8-sym', '5x6-v1-s8-sym-yes'
    CODE_PATH: ClassVar[str] = "{n}x{m}-{symmetry}"  # the orientation, group and family, not the shard bits
    TITLE: ClassVar[str] = "{n}x{m}"  # '7x7', '5x6-yes'
    n: int
    m: int
    bits: int  # 2^bits shards
    symmetry: str = "flips"  # the group: "none", "flips" or "square" (symmetry_group)
    version: int = LOGIC_VERSION
    variant: str = "nonogram"  # clues.VARIANTS

    @classmethod
    def make(cls, n: int, m: int, bits: int | None = None, symmetry=True, variant: str = "nonogram") -> GridLayout:
        """The checked layout of n×m with 2^bits shards (default: ``default_bits``); ``symmetry`` as for ``count.count``."""
        check_size(n, m)
        bits = check_bits(n, m, default_bits(n, m) if bits is None else bits, tuning.GRID_MAX_SHARD_BITS)
        group = variant_group(n, m, symmetry, check_variant(variant))
        if variant != "nonogram" and m > TABLE_MAX_LEN and n * m:
            raise ValueError(f"yesnogram rows of more than {TABLE_MAX_LEN} cells need the line solver; count {m}x{n}: "
                             f"the same number (a grid is solvable iff its complement-transpose is)")  # fmt: skip
        return cls(n, m, bits, group, variant=variant)

    @property
    def options(self) -> str:
        """The count command's options for this layout after the size."""
        return self.variant_option

    def compute(self, shard: int) -> int:
        """Symmetry-weighted count of one shard (serial kernel, in this process)."""
        if self.n * self.m == 0:
            return 1  # the one empty grid: one shard, solved
        from .count import count_shard, plan

        return count_shard(plan(self.n, self.m, self.bits), shard, self.symmetry, variant=self.variant)

    def warm(self, parallel: bool = False) -> None:
        """Compile or load the kernels of this size: one enumeration index each."""
        if self.n * self.m == 0:
            return
        from .count import count_shard, count_shards, plan

        tiny = plan(self.n, self.m, shard_bits=self.n * self.m)
        count_shard(tiny, 0, self.symmetry, variant=self.variant)
        if parallel:
            count_shards(tiny, [0], self.symmetry, parallel=True, variant=self.variant)

    def kernel_note(self) -> str:
        """The generated kernels' variant this process counts with ("lanes", "gather4", "gather8"; the CPU's
        choice, measured on its first use, ``choice``), or "plain" for sizes counted by the plain kernel."""
        if self.n * self.m == 0:
            return ""
        from .count import context

        return context(self.n, self.m, variant=self.variant).kernel_name or "plain"

    def tune(self, one_core, jobs: int, say) -> int:
        """Measure this CPU's fastest kernel variant first if a count this long pays for it (``choice.due``), then
        compile it for the run (``warm``); one thread for a count under ``tuning.THREADS_PAY_SECONDS``."""
        if one_core is not None and one_core < tuning.THREADS_PAY_SECONDS:
            return 1
        if self.n * self.m == 0:
            return jobs
        from . import choice
        from .count import context

        ctx = context(self.n, self.m, variant=self.variant)
        if ctx.specialized and ctx.columns == "table" and ctx.kernel is None and choice.due(one_core):
            say("measuring which kernel variant is fastest on this CPU (once: later counts read it; about 10 s)")
            choice.tune(again=False)
            context.cache_clear()
            self.warm(parallel=False)
        return jobs

    def estimate_one_core(self) -> float:
        """Expected seconds of the whole layout on one core (compile excluded)."""
        from .count import estimate_seconds

        return estimate_seconds(self.n, self.m, self.symmetry, parallel=False, variant=self.variant)

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(count, threads): numba threads over shards of work, in batches of about ``tuning.BATCH_SECONDS``; one
        job: the serial kernels, no thread pool."""
        from .count import count_threaded

        return count_threaded(self.n, self.m, self.symmetry, jobs, progress, estimate, self.variant)

    def shard_work(self):
        """Enumeration indices each shard really visits, as an array over shards.

        The kernel skips every border that is not its orbit's representative
        (``kernel`` module doc), so under symmetry most shards do little or no
        work: what a campaign costs is this work times the time per index
        (``engines.enumeration``, in numpy: the same for the GPU engine).
        """
        from ..enumeration import shard_work

        return shard_work(self.n, self.m, self.bits, self.symmetry)
