"""A sample's runs: ``count`` random n×m grids in shards of SHARD_GRIDS, shard s drawn from the stream (seed, s).

Each cell is filled with probability ``density`` (kept in thousandths, so
that the key names it exactly).  A shard's value is a tuple of ints:
(grids, simple, stuck, unique, undecided, then pairs steps, grids) for the
simple grids by steps; a run's result is a ``Sample``.  With ``nodes`` > 0,
every grid that local logic leaves unsolved is searched for a second
solution (``puzzle.solving.search``, probing compiled, at most ``nodes``
nodes: the same verdicts on every machine): ``unique`` counts the simple
grids and those the search finds unique, ``undecided`` those it gave up on.
No numba here: the kernel and the search are imported inside ``compute``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ...lines.solvers import MAX_BITS_LINE
from ..base import Layout

#: Bump when a change could change a shard's value (the random streams, the grids of a shard, the kernel).
SAMPLE_VERSION = 1
#: Grids per shard (the last shard may hold fewer).
SHARD_GRIDS = 1000
#: Density is kept in thousandths.
DENSITY_STEPS = 1000
#: A shard's value starts with (grids, simple, stuck, unique, undecided); pairs (steps, grids) follow.
HEAD = 5
#: The z of a 95 % confidence interval.
Z95 = 1.959964


@dataclass(frozen=True)
class Sample:
    """What a sample found: ``grids`` random n×m grids of ``density``, ``simple`` of them solved by local logic
    (``steps``: {steps: grids}, rows first), ``stuck`` of them with nothing decided at all; if the search was
    asked (``nodes``), ``unique`` of them uniquely solvable and ``undecided`` whose search gave up."""

    n: int
    m: int
    density: float
    seed: int
    grids: int
    simple: int
    stuck: int
    steps: dict
    unique: int | None = None  # uniquely solvable: the simple grids and those the search found unique (if asked)
    undecided: int = 0  # grids the search gave up on at its node limit
    nodes: int = 0  # that limit (0: no search)

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
    KEY: ClassVar[str] = "{n}x{m}-sample{version}-d{permille}-r{seed}-c{count}-u{nodes}"
    CODE_PATH: ClassVar[str] = "{n}x{m}-sample-d{permille}-r{seed}"
    TITLE: ClassVar[str] = "{n}x{m}-sample-d{permille}"
    n: int
    m: int
    permille: int  # the density in thousandths
    seed: int
    count: int
    nodes: int = 0  # the search's node limit for uniqueness; 0: no search
    version: int = SAMPLE_VERSION
    variant: str = "nonogram"

    @classmethod
    def make(cls, n: int, m: int, density: float = 0.5, count: int = 10_000, seed: int = 0, nodes: int = 0
             ) -> SampleLayout:  # fmt: skip
        """A checked layout; ValueError if the sample cannot be drawn (``check_sample``) or ``nodes`` is negative."""
        check_sample(n, m, density, count, seed)
        if isinstance(nodes, bool) or not isinstance(nodes, int) or nodes < 0:
            raise ValueError(
                f"nodes (the search's limit for uniqueness) must be an integer of at least 0, got {nodes!r}"
            )
        return cls(n, m, round(density * DENSITY_STEPS), seed, count, nodes)

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
        if len(value) < HEAD or (len(value) - HEAD) % 2 or min(value) < 0:
            raise ValueError(text)
        return value

    def add(self, values) -> tuple:
        head = [0] * HEAD
        steps: dict = {}
        for v in values:
            head = [a + b for a, b in zip(head, v[:HEAD])]
            for k in range(HEAD, len(v), 2):
                steps[v[k]] = steps.get(v[k], 0) + v[k + 1]
        return (*head, *(x for k in sorted(steps) for x in (k, steps[k])))

    def finish(self, total) -> Sample:
        grids, simple, stuck, unique, undecided = total[:HEAD]
        steps = {total[k]: total[k + 1] for k in range(HEAD, len(total), 2)}
        searched = unique + undecided <= grids and (unique >= simple if self.nodes else unique == undecided == 0)
        if grids != self.count or sum(steps.values()) != simple or simple + stuck > grids or not searched:
            raise ValueError(f"sample {self.key}: inconsistent total {total[:HEAD]}")
        return Sample(self.n, self.m, self.density, self.seed, grids, simple, stuck, steps,
                      unique if self.nodes else None, undecided, self.nodes)  # fmt: skip

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

        from .kernel import sample_grids

        rows = self.grids(shard)
        steps, stuck = np.zeros(len(rows), np.int64), np.zeros(len(rows), np.bool_)
        sample_grids(rows, self.n, self.m, steps, stuck)
        solved = steps[steps > 0]
        found = np.bincount(solved) if len(solved) else np.zeros(0, np.int64)
        pairs = [x for k in np.flatnonzero(found) for x in (int(k), int(found[k]))]
        unique, undecided = self._searched(rows[steps == 0]) if self.nodes else (0, 0)
        return (len(rows), len(solved), int(stuck.sum()), len(solved) * bool(self.nodes) + unique, undecided, *pairs)

    def _searched(self, rows) -> tuple:
        """(unique, undecided) among these grids by the search (limit 2 solutions, ``nodes`` nodes), probing
        compiled for the call (and switched back if it was not)."""
        from ...puzzle.model import from_grid
        from ...puzzle.solving import logic, search

        was = logic.compiled_for(1, 1) is not None
        logic.use_compiled()
        unique = undecided = 0
        try:
            for row in rows:
                grid = sum(int(x) << (r * self.m) for r, x in enumerate(row))
                found = search.search(from_grid(grid, self.n, self.m), limit=2, max_nodes=self.nodes)
                unique += found.verdict == search.UNIQUE
                undecided += found.verdict not in (search.UNIQUE, search.MULTIPLE)
        finally:
            if not was:
                logic.use_compiled(False)
        return unique, undecided

    def warm(self, parallel: bool = False) -> None:
        import numpy as np

        from .kernel import sample_grids

        sample_grids(np.zeros((1, 1), np.uint64), 1, 1, np.zeros(1, np.int64), np.zeros(1, np.bool_))

    def estimate_one_core(self) -> float:
        import time

        import numpy as np

        from .kernel import sample_grids

        rows = self.grids(0)[: tuning.SAMPLE_ESTIMATE_GRIDS]
        start = time.perf_counter()
        sample_grids(rows, self.n, self.m, np.zeros(len(rows), np.int64), np.zeros(len(rows), np.bool_))
        return (time.perf_counter() - start) * self.count / max(1, len(rows))

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        total: tuple = (0,) * HEAD
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
    if s.unique is not None:
        lines.append(
            f"uniquely solvable: {s.unique} of {s.grids}, {s.unique / s.grids:.6f} ({s.simple} simple, "
            f"{s.unique - s.simple} found unique by the search); {s.undecided} undecided at {s.nodes} nodes"
        )
    lines += [f"steps {k}: {v}" for k, v in sorted(s.steps.items())]
    return "\n".join(lines)
