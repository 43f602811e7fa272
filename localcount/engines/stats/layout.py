"""The stats enumeration's runs: shard s fixes the clues of ``depth`` rows (see ``kernel``).

A shard's value is the output vector of ``measures.VECTOR`` and the round
histogram; a run's result is a checked ``measures.Stats``.  Yesnograms
(``variant``, ``prepare``): keys and code paths end in ``-yes``; the flips
keep the family (``engines.grid.layout``).  No numba here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from ... import tuning
from ...clues import check_variant
from ..base import VARIANT_KEY_PATTERN, Layout, variant_of_suffix
from .measures import Stats, format_json, from_vector, width

#: Bump when a change to the stats kernel could change a shard's vector.
#: 2: the step histogram (version 1 vectors, without it, still read); 3: the generated lockstep kernel
#: (``specialize``), whose shards weigh whole clue tuples (version 2 checkpoints still resume, on version 2's kernel).
STATS_VERSION = 3
_PATH_SUFFIX = {"rows": "rows", "transposed": "tr"}
_SUFFIX = {"none": "all", "flips": "sym"}
_KEY = re.compile(r"^(\d+)x(\d+)-stats(\d+)-d(\d+)-(rows|tr)-(sym|all)" + VARIANT_KEY_PATTERN + "$")


def _fibonacci(k: int) -> int:
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


@dataclass(frozen=True)
class StatsLayout(Layout):
    """The shards of a ``stats`` enumeration: shard s fixes the clues of ``depth`` rows (see ``kernel``)."""

    kind: ClassVar[str] = "stats"
    method: ClassVar[str] = "stats"
    n: int
    m: int
    depth: int
    path: str = "rows"  # "rows" or "transposed" (prepare.PATHS)
    symmetry: str = "flips"  # "flips" or "none"
    version: int = STATS_VERSION
    variant: str = "nonogram"

    @classmethod
    def make(cls, n: int, m: int, depth: int | None = None, path: str = "rows", symmetry: str = "flips",
             variant: str = "nonogram", version: int | None = None) -> StatsLayout:  # fmt: skip
        """A checked layout (default depth: ``prepare.default_depth``; default version: ``prepare.default_version``);
        ValueError if stats cannot do n×m."""
        from .prepare import check_stats_size, default_depth, default_version, oriented

        check_stats_size(n, m)
        rows = oriented(n, m, path)[0]  # ValueError for an unknown path
        if symmetry not in _SUFFIX:
            raise ValueError(f"stats symmetry must be one of {', '.join(_SUFFIX)}, got {symmetry!r}")
        if depth is None:
            depth = default_depth(n, m, path) if n * m else 0
        if not 0 <= depth <= rows:
            raise ValueError(f"depth must be between 0 and {rows} for {n}x{m} ({path}), got {depth}")
        version = default_version(n, m) if version is None else version
        if version not in (2, STATS_VERSION):
            raise ValueError(f"stats kernel version must be 2 or {STATS_VERSION}, got {version}")
        return cls(n, m, depth, path, symmetry, version, check_variant(variant))

    @classmethod
    def from_key(cls, key: str):
        """The StatsLayout named by ``key``, or None."""
        match = _KEY.match(key)
        if not match:
            return None
        n, m, version, depth, path, suffix, yes = match.groups()
        path = {v: k for k, v in _PATH_SUFFIX.items()}[path]
        group = {v: k for k, v in _SUFFIX.items()}[suffix]
        return cls(int(n), int(m), int(depth), path, group, int(version), variant_of_suffix(yes))

    @property
    def key(self) -> str:
        """Name of the layout, used for checkpoint files: e.g. '5x5-stats1-d2-rows-sym'."""
        tail = f"{_PATH_SUFFIX[self.path]}-{_SUFFIX[self.symmetry]}{self.variant_suffix}"
        return f"{self.n}x{self.m}-stats{self.version}-d{self.depth}-{tail}"

    @property
    def code_path(self) -> str:
        """What makes two runs independent (orientation and group, not depth): e.g. '5x5-stats-rows-sym'."""
        return f"{self.n}x{self.m}-stats-{_PATH_SUFFIX[self.path]}-{_SUFFIX[self.symmetry]}{self.variant_suffix}"

    @property
    def title(self) -> str:
        """E.g. '5x5-stats-rows'."""
        return f"{self.n}x{self.m}-stats-{_PATH_SUFFIX[self.path]}{self.variant_suffix}"

    @property
    def oriented(self) -> tuple:
        """(enumerated rows, their length) of this layout's path (``prepare.oriented``)."""
        from .prepare import oriented

        return oriented(self.n, self.m, self.path)[:2]

    @property
    def clues(self) -> int:
        """Clues of an enumerated row (F(L+2) for L cells): the base of shard numbers."""
        return _fibonacci(self.oriented[1] + 2)

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
        """Length of a shard's vector (``measures.width`` of this layout's version)."""
        return width(self.n, self.m, self.version)

    def parse_value(self, text: str) -> tuple:
        """A shard's vector: ``width`` non-negative ints; ValueError if bad."""
        value = tuple(map(int, text.split(",")))
        if len(value) != self.width or min(value) < 0:
            raise ValueError(text)
        return value

    def add(self, values) -> tuple:
        """Vectors added entry by entry (Python ints: no overflow)."""
        total = [0] * self.width
        for v in values:
            total = [a + int(b) for a, b in zip(total, v)]
        return tuple(total)

    def finish(self, total) -> Stats:
        """The checked Stats of the whole enumeration (``measures.InconsistentStats`` if an invariant fails)."""
        return from_vector(self.n, self.m, total)

    def format_total(self, total) -> str:
        """The measures as one JSON object."""
        return format_json(self.finish(total))

    def describe(self, total) -> str:
        """For stderr."""
        return "stats"

    def compute(self, shard: int) -> tuple:
        """One shard's vector (serial kernel, in this process)."""
        from .compute import stats_shards

        vec = stats_shards(
            self.n, self.m, [shard], self.path, self.symmetry, self.depth, False, self.variant, self.version
        )[0]
        return tuple(int(v) for v in vec)

    def warm(self, parallel: bool = False) -> None:
        """Compile or load the kernels and build the tables: the smallest shard (every row's clue fixed)."""
        from .compute import stats_shards

        rows = self.oriented[0]
        for threaded in (False, True) if parallel else (False,):
            stats_shards(self.n, self.m, [0], self.path, self.symmetry, rows, threaded, self.variant, self.version)

    def probe_depth(self) -> int:
        """The depth of the shards ``estimate_one_core`` times: this layout's, or deeper until a shard holds about
        2^``tuning.STATS_PROBE_GRID_BITS`` grids or fewer (the rows' clues all fixed at most)."""
        rows = self.oriented[0]
        depth = self.depth
        while depth < rows and self.clues**depth << tuning.STATS_PROBE_GRID_BITS < 1 << (self.n * self.m):
            depth += 1
        return depth

    def estimate_one_core(self) -> float:
        """Expected seconds of the whole layout on one core (compile excluded): the time per grid of random
        shards of ``probe_depth``, drawn in proportion to their grids, in batches of 1, 2, 4, ... until
        ``tuning.STATS_ESTIMATE_SECONDS`` have passed or ``STATS_ESTIMATE_SHARDS`` were timed.  (It timed 48
        whole shards, drawn uniformly: 6x7's, 63 s each on average, would have taken 50 minutes of one core
        before a run began, every time it resumed; 4x10's six hours.)

        A shard's grids are the product of its fixed rows' pattern counts (times every pattern of the other
        rows), so a shard drawn row by row, each fixed row's clue that of a uniformly random pattern, is
        drawn in proportion to its grids; the kernel's time per grid varies across shards far less than
        its time per shard (6x6: 0.009 s the median shard, 8 s the largest).
        """
        import time

        import numpy as np

        from .compute import stats_shards
        from .prepare import prepare

        if self.n * self.m == 0:
            return 0.0
        self.warm()  # compile or load the kernel first
        rows, cols = self.oriented
        patterns = np.diff(prepare(rows, cols, self.variant).pat_start)
        depth = self.probe_depth()
        rng = np.random.default_rng(1)
        args = (self.path, self.symmetry, depth, False, self.variant, self.version)
        spent, grids, timed, batch = 0.0, 0, 0, 1
        while timed == 0 or (spent < tuning.STATS_ESTIMATE_SECONDS and timed < tuning.STATS_ESTIMATE_SHARDS):
            clues = rng.choice(self.clues, size=(batch, depth), p=patterns / patterns.sum())
            sample = (clues * self.clues ** np.arange(depth - 1, -1, -1)).sum(axis=1)
            start = time.perf_counter()
            stats_shards(self.n, self.m, sample, *args)
            spent += time.perf_counter() - start
            grids += int(patterns[clues].prod(axis=1).sum()) << (cols * (rows - depth))
            timed += batch
            batch *= 2
        return spent / grids * (1 << (self.n * self.m))

    def solvable(self, total) -> int:
        """The locally solvable grids of the enumeration."""
        return self.finish(total).solvable

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:
        """(the total vector, threads): every shard over numba threads."""
        import numba

        from .compute import stats_vector

        threads = min(jobs, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(threads)
        total = stats_vector(self.n, self.m, self.path, self.symmetry, self.depth, self.variant, self.version)
        if progress is not None:
            progress(self.shards * self.grids_per_shard)
        return total, threads

    def shard_work(self):
        """Grids per shard: every shard is taken as average (the kernel's groups differ; no finer model yet)."""
        import numpy as np

        return np.full(self.shards, self.grids_per_shard, np.int64)
