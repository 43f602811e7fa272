#!/usr/bin/env python
"""Times every GPU kernel variant on the same slices, to choose ``count.default_kernel`` by measurement.

    python scripts/gpu_variants.py                       # an H100/H200: 6x6, 6x7, 7x7, 6x8; about 3 minutes
    python scripts/gpu_variants.py --sizes 7x7 --kernels shared-one,lanes2-shared-one --shards 64
    NUMBA_ENABLE_CUDASIM=1 python scripts/gpu_variants.py --sizes 3x3,2x5   # the simulator: counts, not speed

For each size (its default symmetry group) the slice is ``--shards`` shards of 2^``--shard-bits`` indices each (or
fewer: a size of at most 2^(shard bits + 4) has 16), spread evenly over the size's (all of them where it has no
more: 6x6's 16), one launch each; the slice is the same whatever the count's default shards.  Every variant that can
count the size here (``count.kernels``: where the line tables live × grids per thread) is compiled first
(``compile_s``, not timed) and then counts the slice; ``grids/s`` counts every index of the slice, the ones the
symmetry skips included (as ``scripts/bench.py`` does), and ``full_h`` projects the whole size from it (rough
where the slice is a few shards: their share of symmetric borders varies).  ``count`` must be the same for
every variant: the reference is the recorded count where the slice is the whole size and ``results/`` has it,
else the first variant's count (``global``, one lane: the kernel measured on an H100 before the variants).
``--budget`` seconds: a variant starts only while the longest one so far would still end within it (the table
says what was left out).  Exit status 1 if a count differs from its reference.  ``time_variants`` is the
measurement without the printing (``scripts/gpu_campaign.py`` calls it).
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from dataclasses import dataclass

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

#: The sizes timed by default: the two measured before (6x6, 6x7) and the two to come (7x7, 6x8).
SIZES = "6x6,6x7,7x7,6x8"
#: Shards per size, of 2^SHARD_BITS indices each: on an H100 16 of 7x7's or 6x8's (2^36 grids) take about a
#: second a variant (6x7's rate, 6.7e10 grids/s).
SHARDS = 16
SHARD_BITS = 32
#: Seconds within which the variants are expected to end (compiles included): the whole script within about 4 minutes.
BUDGET_S = 200.0


def parse_sizes(text: str) -> list:
    """'6x6,7x7' -> [(6, 6), (7, 7)]."""
    return [tuple(int(x) for x in item.strip().split("x")) for item in text.split(",")]


def shard_bits(n: int, m: int, grid_bits: int) -> int:
    """Shard bits giving shards of 2^grid_bits indices, with at least 2^``tuning.GPU_MIN_SHARD_BITS`` shards where
    there are so many indices (as ``GpuLayout``'s default: tiny sizes in the simulator)."""
    from localcount import tuning
    from localcount.engines.base import default_shard_bits

    return default_shard_bits(n, m, grid_bits, tuning.GPU_MIN_SHARD_BITS)


def slice_of(layout, shards: int) -> list:
    """``shards`` of the layout's shards, spread evenly (all of them if it has no more)."""
    if shards >= layout.shards:
        return list(range(layout.shards))
    return [i * layout.shards // shards for i in range(shards)]


def recorded(n: int, m: int, variant: str) -> int | None:
    """The count results/ records for n×m, or None."""
    from localcount.api.known import known

    found = known(n, m, variant=variant)
    return None if found is None else found.count


def count_slice(layout, picked: list, kernel) -> int:
    """Σ of the picked shards' counts with one kernel variant (one launch a shard)."""
    from localcount.engines.gpu.count import count_indices

    inner = layout.n * layout.m - layout.bits
    return sum(
        count_indices(layout.n, layout.m, s << inner, 1 << inner, layout.symmetry, layout.variant, kernel)
        for s in picked
    )


@dataclass(frozen=True)
class Timing:
    """One variant's count of a size's slice: its time, its count and the reference count."""

    kernel: str
    n: int
    m: int
    symmetry: str
    shards: int  # of the slice
    layout_shards: int
    grids: int  # indices of the slice
    compile_s: float
    wall_s: float
    total: int
    reference: int

    @property
    def rate(self) -> float:
        """Indices a second (the ones the symmetry skips included)."""
        return self.grids / self.wall_s if self.wall_s > 0 else float("inf")

    @property
    def equal(self) -> bool:
        return self.total == self.reference


def time_variants(
    lay, shards: int, kernels=None, budget: float = BUDGET_S, start: float | None = None, report=lambda timing: None
) -> tuple:
    """(timings, variants left out): each variant that can count the layout's size here (``count.kernels``; only
    those in ``kernels`` if given) compiled, then timed on ``shards`` of its shards (``slice_of``), while the longest
    variant so far would end within ``budget`` seconds of ``start`` (``time.perf_counter()``, default now).
    ``report(timing)`` after each."""
    from localcount.engines.gpu import count

    start = time.perf_counter() if start is None else start
    n, m = lay.n, lay.m
    picked = slice_of(lay, shards)
    grids = len(picked) << (n * m - lay.bits)
    reference = recorded(n, m, lay.variant) if len(picked) == lay.shards else None
    timings, left_out, longest = [], 0, 0.0
    for kernel in [k for k in count.kernels(n, m, lay.variant) if kernels is None or k in kernels]:
        if time.perf_counter() - start + longest > budget:
            left_out += 1
            continue
        t0 = time.perf_counter()
        count.count_indices(n, m, 0, 1, lay.symmetry, lay.variant, kernel)  # compiles it, copies the tables
        t1 = time.perf_counter()
        total = count_slice(lay, picked, kernel)
        wall = time.perf_counter() - t1
        longest = max(longest, time.perf_counter() - t0)
        reference = total if reference is None else reference
        timing = Timing(
            kernel.name, n, m, lay.symmetry, len(picked), lay.shards, grids, t1 - t0, wall, total, reference
        )
        timings.append(timing)
        report(timing)
    return timings, left_out


def print_timing(t: Timing) -> None:
    """A row of the table."""
    print(f"{t.kernel:<20} {t.n}x{t.m:<3} {t.symmetry:>6} {t.shards:>5}/{t.layout_shards:<5} {t.grids:>14} "
          f"{t.compile_s:>9.2f} {t.wall_s:>8.3f} {t.rate:>9.3g} {2 ** (t.n * t.m) / t.rate / 3600:>8.3g} {t.total:>16} "
          f"{t.reference:>16} {'yes' if t.equal else 'NO':>5}", flush=True)  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=SIZES, help=f"comma-separated n x m sizes (default {SIZES})")
    ap.add_argument("--kernels", help="only these variants, e.g. global,shared-one (default: every one that fits)")
    ap.add_argument("--shards", type=int, default=SHARDS, help=f"shards per size, spread evenly (default {SHARDS})")
    ap.add_argument(
        "--shard-bits", type=int, default=SHARD_BITS, help=f"log2 of a shard's indices (default {SHARD_BITS})"
    )
    ap.add_argument("--variant", default="nonogram", choices=["nonogram", "yesnogram"], help="the family counted")
    ap.add_argument(
        "--budget",
        type=float,
        default=BUDGET_S,
        help=f"a variant starts only if the longest so far would end within it (default {BUDGET_S:g} s)",
    )
    args = ap.parse_args()

    from localcount.engines.gpu import count
    from localcount.engines.gpu.layout import GpuLayout

    try:
        layouts = [
            GpuLayout.make(n, m, bits=shard_bits(n, m, args.shard_bits), variant=args.variant)
            for n, m in parse_sizes(args.sizes)
        ]
        chosen = None if not args.kernels else [count.Kernel.parse(name) for name in args.kernels.split(",")]
    except ValueError as err:
        ap.error(str(err))
    start = time.perf_counter()
    print(f"# python scripts/gpu_variants.py {' '.join(sys.argv[1:])}")
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S %Z')}; device: {count.device_name()}"
          + (" (numba's CUDA simulator: NOT a GPU's figures)" if count.simulated() else "")
          + f"; shared memory a block may opt in to: {count.shared_limit()} bytes")  # fmt: skip
    print(f"{'kernel':<20} {'size':>5} {'group':>6} {'shards':>11} {'grids':>14} {'compile_s':>9} {'wall_s':>8} "
          f"{'grids/s':>9} {'full_h':>8} {'count':>16} {'reference':>16} {'equal':>5}")  # fmt: skip
    differ = left_out = 0
    for lay in layouts:
        n, m = lay.n, lay.m
        how = "by measurement" if count.chosen_kernel(n, m, lay.variant) is not None else "by design"
        print(f"# {n}x{m}: default kernel {count.kernel_name(n, m, lay.symmetry, lay.variant)} (chosen {how})")
        timings, skipped = time_variants(lay, args.shards, chosen, args.budget, start, print_timing)
        differ += sum(not t.equal for t in timings)
        left_out += skipped
    skipped = f"; {left_out} variants left out (--budget)" if left_out else ""
    print(f"# {time.perf_counter() - start:.1f} s in all{skipped}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
