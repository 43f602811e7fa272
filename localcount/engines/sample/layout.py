"""A sample's runs: ``count`` random n×m grids in shards of SHARD_GRIDS, shard s drawn from the stream (seed, s).

Each cell is filled with probability ``density`` (kept in thousandths, so
that the key names it exactly).  A shard's value is a tuple of ints:
(grids, simple, stuck, then pairs steps, grids) for the simple grids by
steps; a run's result is a ``Sample``.  No numba here: the kernel is
imported inside ``compute``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from ...lines.solvers import MAX_BITS_LINE
from ..base import Layout

#: Bump when a change could change a shard's value (the random streams, the grids of a shard, the kernel).
SAMPLE_VERSION = 1
#: Grids per shard (the last shard may hold fewer).
SHARD_GRIDS = 1000
#: Grids timed by ``estimate_one_core``.
ESTIMATE_GRIDS = 200
#: Density is kept in thousandths.
DENSITY_STEPS = 1000
#: The z of a 95 % confidence interval.
Z95 = 1.959964


@dataclass(frozen=True)
class Sample:
    """What a sample found: ``grids`` random n×m grids of ``density``, ``simple`` of them solved by local logic
    (``steps``: {steps: grids}, rows first), ``stuck`` of them with nothing decided at all."""

    n: int
    m: int
    density: float
    seed: int
    grids: int
    simple: int
    stuck: int
    steps: dict

    @property
    def fraction(self) -> float:
        """The simple fraction of the sample."""
        return self.simple / self.grids if self.grids else 0.0

    @property
    def interval(self) -> tuple:
        """The Wilson score interval of the simple fraction at 95 % confidence, (low, high)."""
        k, g, z = self.simple, self.grids, Z95
        if not g:
            return 0.0, 1.0
        p = k / g
        centre = (p + z * z / (2 * g)) / (1 + z * z / g)
        half = z * math.sqrt(p * (1 - p) / g + z * z / (4 * g * g)) / (1 + z * z / g)
        return (0.0 if k == 0 else max(0.0, centre - half)), (1.0 if k == g else min(1.0, centre + half))

    @property
    def mean_steps(self) -> float:
        """Mean steps over the simple grids."""
        return sum(k * v for k, v in self.steps.items()) / self.simple if self.simple else 0.0


def check_sample(n: int, m: int, density: float, count: int, seed: int) -> None:
    """ValueError (one line, naming the argument) unless a sample of these can be drawn."""
    for name, v, low in (("n", n, 1), ("m", m, 1), ("count", count, 1), ("seed", seed, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise ValueError(f"{name} must be an integer of at least {low}, got {v!r}")
    if max(n, m) > MAX_BITS_LINE:
        raise ValueError(f"{n}x{m}: a side of at most {MAX_BITS_LINE} cells (a line is one machine word)")
    if isinstance(density, bool) or not isinstance(density, (int, float)) or not 0 <= density <= 1:
        raise ValueError(f"density must be a number from 0 to 1, got {density!r}")
    if abs(density * DENSITY_STEPS - round(density * DENSITY_STEPS)) > 1e-9:
        raise ValueError(f"density must be a multiple of 1/{DENSITY_STEPS}, got {density!r}")


@dataclass(frozen=True)
class SampleLayout(Layout):
    """The shards of a sample (module doc)."""

    kind: ClassVar[str] = "sample"
    method: ClassVar[str] = "sample"
    KEY: ClassVar[str] = "{n}x{m}-sample{version}-d{permille}-r{seed}-c{count}"
    CODE_PATH: ClassVar[str] = "{n}x{m}-sample-d{permille}-r{seed}"
    TITLE: ClassVar[str] = "{n}x{m}-sample-d{permille}"
    n: int
    m: int
    permille: int  # the density in thousandths
    seed: int
    count: int
    version: int = SAMPLE_VERSION
    variant: str = "nonogram"

    @classmethod
    def make(cls, n: int, m: int, density: float = 0.5, count: int = 10_000, seed: int = 0) -> SampleLayout:
        """A checked layout; ValueError if the sample cannot be drawn (``check_sample``)."""
        check_sample(n, m, density, count, seed)
        return cls(n, m, round(density * DENSITY_STEPS), seed, count)

    @property
    def density(self) -> float:
        return self.permille / DENSITY_STEPS

    @property
    def shards(self) -> int:
        return -(-self.count // SHARD_GRIDS)

    @property
    def grids_per_shard(self) -> int:
        return SHARD_GRIDS

    def shard_work(self):
        import numpy as np

        return np.array([self.grids_in(s) for s in range(self.shards)], np.int64)

    def grids_in(self, shard: int) -> int:
        """How many grids shard ``shard`` holds."""
        return min(SHARD_GRIDS, self.count - shard * SHARD_GRIDS)

    def what(self) -> str:
        return f"{self.n}x{self.m}: {self.count} random grids (density {self.density:g})"

    # --- values ---

    def parse_value(self, text: str) -> tuple:
        value = tuple(int(x) for x in text.split(","))
        if len(value) < 3 or len(value) % 2 == 0 or min(value) < 0:
            raise ValueError(text)
        return value

    def add(self, values) -> tuple:
        grids = simple = stuck = 0
        steps: dict = {}
        for v in values:
            grids, simple, stuck = grids + v[0], simple + v[1], stuck + v[2]
            for k in range(3, len(v), 2):
                steps[v[k]] = steps.get(v[k], 0) + v[k + 1]
        return (grids, simple, stuck, *(x for k in sorted(steps) for x in (k, steps[k])))

    def finish(self, total) -> Sample:
        grids, simple, stuck = total[:3]
        steps = {total[k]: total[k + 1] for k in range(3, len(total), 2)}
        if grids != self.count or sum(steps.values()) != simple or simple + stuck > grids:
            raise ValueError(f"sample {self.key}: inconsistent total {total[:3]}")
        return Sample(self.n, self.m, self.density, self.seed, grids, simple, stuck, steps)

    def format_total(self, total) -> str:
        return format_sample(self.finish(total))

    def describe(self, total) -> str:
        s = self.finish(total)
        return f"{s.simple} of {s.grids} simple"

    def solvable(self, total) -> int:
        return self.finish(total).simple

    # --- work ---

    def grids(self, shard: int):
        """Shard ``shard``'s grids as rows of machine words (uint64 array, grids × n), from its own stream."""
        import numpy as np

        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([self.seed, shard])))
        cells = rng.random((self.grids_in(shard), self.n, self.m)) < self.density
        weights = np.left_shift(np.uint64(1), np.arange(self.m, dtype=np.uint64))
        return (cells.astype(np.uint64) * weights).sum(axis=2, dtype=np.uint64)

    def compute(self, shard: int) -> tuple:
        import numpy as np

        from .kernel import _sample

        rows = self.grids(shard)
        steps, stuck = np.zeros(len(rows), np.int64), np.zeros(len(rows), np.bool_)
        _sample(rows, self.n, self.m, steps, stuck)
        solved = steps[steps > 0]
        found = np.bincount(solved) if len(solved) else np.zeros(0, np.int64)
        pairs = [x for k in np.flatnonzero(found) for x in (int(k), int(found[k]))]
        return (len(rows), len(solved), int(stuck.sum()), *pairs)

    def warm(self, parallel: bool = False) -> None:
        import numpy as np

        from .kernel import _sample

        _sample(np.zeros((1, 1), np.uint64), 1, 1, np.zeros(1, np.int64), np.zeros(1, np.bool_))

    def estimate_one_core(self) -> float:
        import time

        import numpy as np

        from .kernel import _sample

        rows = self.grids(0)[:ESTIMATE_GRIDS]
        start = time.perf_counter()
        _sample(rows, self.n, self.m, np.zeros(len(rows), np.int64), np.zeros(len(rows), np.bool_))
        return (time.perf_counter() - start) * self.count / max(1, len(rows))

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        total: tuple = (0, 0, 0)
        for shard in range(self.shards):
            total = self.add([total, self.compute(shard)])
            if progress is not None:
                progress(min(self.count, (shard + 1) * SHARD_GRIDS))
        return total, 1


def format_sample(s: Sample) -> str:
    """The text ``sample`` prints: the simple fraction with its interval, then the steps histogram."""
    low, high = s.interval
    lines = [
        f"{s.n}x{s.m}, density {s.density:g}, seed {s.seed}: {s.simple} of {s.grids} simple, "
        f"{s.fraction:.6f} (95 % interval {low:.6f} to {high:.6f}); {s.stuck} stuck at the start; "
        f"mean steps {s.mean_steps:.4f}"
    ]
    lines += [f"steps {k}: {v}" for k, v in sorted(s.steps.items())]
    return "\n".join(lines)
