"""The interface every way of counting provides: a *layout*, one run's parameters.

A layout is a small frozen, picklable object: the size, the engine's own
settings (symmetry group, shard bits, row mode, depth, ...) and a version
that changes whenever a change of the code could change a shard's value.
Everything the rest of the program does with a run goes through it:

* identity — ``key`` (the checkpoint key: unchanged across releases; parsed
  back by ``from_key``), ``code_path`` (what makes two runs independent:
  two runs of a size agree only if their code paths differ), ``kind``
  (``"count"``: a shard's value is an int; ``"stats"``: a vector; the
  results layer records each kind in its own file);
* shards — ``shards``, ``grids_per_shard`` (for progress and rates) and
  ``shard_work()`` (the work each shard really does, for planning);
* values — ``parse_value``/``format_value`` (the text in a checkpoint
  record), ``add`` (the total of shard values), ``finish`` (the result of a
  whole run, checked), ``format_total`` (that result on stdout);
* work — ``compute(shard)`` (one shard, serial, in this process),
  ``estimate_one_core()`` (seconds of the whole run on one core, or None),
  ``in_process(jobs, progress)`` (a whole small run in this process).

Layout modules import no numba: the kernels are imported inside
``compute``, ``estimate_one_core`` and ``in_process``, so reading a
checkpoint or a results file never compiles anything.

Imports only the standard library.
"""

from __future__ import annotations

import re
from typing import ClassVar

#: Largest grid any counter handles: one uint64 bit per cell.
MAX_CELLS = 64
#: Symmetry groups by name, and the numbers the kernels know them by (proofs in ``engines.grid.kernel``).
GROUP_IDS = {"none": 0, "flips": 1, "square": 2}
#: What a layout key and code path end with for each puzzle family (``clues.VARIANTS``): nonogram keys are unchanged.
VARIANT_SUFFIX = {"nonogram": "", "yesnogram": "-yes"}
#: The end of the layouts' key patterns: one optional group, the family's suffix (``variant_of_suffix``).
VARIANT_KEY_PATTERN = "(" + "|".join(re.escape(s) for s in VARIANT_SUFFIX.values() if s) + ")?"


#: What a key and code path say for each symmetry group, in the layouts sharded by index bits (grid, tiny, gpu).
GROUP_SUFFIX = {"none": "all", "flips": "sym", "square": "d4"}


def bits_key_pattern(name: str, groups) -> re.Pattern:
    """The key pattern 'NxM-<name>V-sB-<group>[-yes]' of a layout sharded by index bits (``name`` '' for 'v')."""
    return re.compile(rf"^(\d+)x(\d+)-{name or 'v'}(\d+)-s(\d+)-({'|'.join(GROUP_SUFFIX[g] for g in groups)})"
                      + VARIANT_KEY_PATTERN + "$")  # fmt: skip


def parse_bits_key(pattern: re.Pattern, key: str) -> tuple | None:
    """(n, m, bits, group, version, variant) of a key that ``pattern`` (``bits_key_pattern``) matches, else None."""
    match = pattern.match(key)
    if not match:
        return None
    n, m, version, bits = map(int, match.groups()[:4])
    group = {v: k for k, v in GROUP_SUFFIX.items()}[match.group(5)]
    return n, m, bits, group, version, variant_of_suffix(match.group(6))


def variant_of_suffix(suffix: str | None) -> str:
    """The family a key's suffix names (the group of VARIANT_KEY_PATTERN: None or '' for nonograms)."""
    return {s: v for v, s in VARIANT_SUFFIX.items()}[suffix or ""]


def variant_of_key(key: str) -> str:
    """The family a layout key or code path names, by how it ends (VARIANT_SUFFIX)."""
    return next((v for v, s in VARIANT_SUFFIX.items() if s and key.endswith(s)), "nonogram")


def check_size(n: int, m: int) -> None:
    """Raise ValueError unless n×m is a size the counters support."""
    for name, v in (("n", n), ("m", m)):
        if isinstance(v, bool) or not hasattr(v, "__index__"):  # ints and numpy integers
            raise ValueError(f"{name} must be an integer, got {v!r}")
        if v < 0:
            raise ValueError(f"{name} must be non-negative, got {v}")
    if n * m > MAX_CELLS:
        raise ValueError(f"{n}x{m} has {n * m} cells; at most {MAX_CELLS} cells are supported")


def symmetry_group(n: int, m: int, symmetry=True) -> str:
    """The group name for a symmetry setting: True/"auto", False/"none", "flips" or "square"."""
    if symmetry is True or symmetry == "auto":
        return "square" if n == m >= 2 else "flips"
    if symmetry is False:
        return "none"
    if symmetry not in GROUP_IDS:
        raise ValueError(f"symmetry must be one of auto, {', '.join(GROUP_IDS)}; got {symmetry!r}")
    if symmetry == "square" and not n == m >= 2:
        raise ValueError(f"the square's symmetries need n = m >= 2, not {n}x{m}")
    return symmetry


class Layout:
    """Base of every engine's layout: counts by default (int shard values); see the module doc."""

    kind: ClassVar[str] = "count"
    #: The counter's name in messages when it is not the general kernel, e.g. "thin".
    method: ClassVar[str] = ""
    #: The puzzle family counted (``clues.VARIANTS``); engines that count yesnograms make it a field.
    variant = "nonogram"
    #: True if shards must be computed in the run's own process, one at a time (a GPU's context does not
    #: survive ``fork``): the runner then starts no worker processes.
    in_parent: ClassVar[bool] = False
    n: int
    m: int

    @property
    def variant_suffix(self) -> str:
        """What this layout's key, code path and title end with: '' for nonograms (VARIANT_SUFFIX)."""
        return VARIANT_SUFFIX[self.variant]

    @property
    def variant_option(self) -> str:
        """The count command's option naming the family: '' for nonograms, else ' --variant NAME'."""
        return f" --variant {self.variant}" if self.variant_suffix else ""

    # --- identity (each engine defines key, code_path and from_key) ---

    @property
    def key(self) -> str:  # pragma: no cover - every engine defines it
        """The checkpoint key, e.g. '5x6-v1-s8-sym'."""
        raise NotImplementedError

    @property
    def code_path(self) -> str:  # pragma: no cover
        """What makes two runs independent, e.g. '5x6-sym'."""
        raise NotImplementedError

    @classmethod
    def from_key(cls, key: str):  # pragma: no cover
        """The layout named by ``key``, or None if the key is not this engine's."""
        raise NotImplementedError

    @property
    def title(self) -> str:
        """A short name for file names and messages, e.g. '7x7' or '2x20-thin-tab'."""
        return f"{self.n}x{self.m}"

    @property
    def options(self) -> str:
        """The count command's options that select this engine (after the size), e.g. ' --method thin'."""
        return ""

    # --- shards ---

    @property
    def shards(self) -> int:  # pragma: no cover
        """Number of shards."""
        raise NotImplementedError

    @property
    def grids_per_shard(self) -> int:  # pragma: no cover
        """Grids per shard (on average where shards differ: for progress and rates)."""
        raise NotImplementedError

    def shard_work(self):  # pragma: no cover
        """What each shard really visits, as a numpy array over shards (for planning)."""
        raise NotImplementedError

    # --- values ---

    def parse_value(self, text: str):
        """A shard's recorded value; ValueError if it is not one."""
        value = int(text)
        if value < 0:
            raise ValueError(text)
        return value

    @staticmethod
    def format_value(value) -> str:
        """The text of a shard's value in a checkpoint record (``parse_value``'s inverse)."""
        return ",".join(map(str, value)) if isinstance(value, tuple) else str(value)

    def add(self, values):
        """The sum of shard values (Python ints: no overflow)."""
        return sum(int(v) for v in values)

    def finish(self, total):
        """The result of a whole run from its total (checked where the engine can check it)."""
        return int(total)

    def format_total(self, total) -> str:
        """A whole run's result as printed on stdout."""
        return str(self.finish(total))

    def describe(self, total) -> str:
        """A whole run's result in a sentence fragment, for stderr."""
        return f"count {self.finish(total)}"

    # --- work ---

    def compute(self, shard: int):  # pragma: no cover
        """The value of one shard (serial kernel, in this process)."""
        raise NotImplementedError

    def warm(self, parallel: bool = False) -> None:  # pragma: no cover
        """Compile (or load from the cache) the kernels this run uses, counting almost nothing.

        ``parallel``: also the threaded kernels of ``in_process`` (not in a
        process that will fork workers: numba's thread pool must not exist then).
        """
        raise NotImplementedError

    def solvable(self, total) -> int:
        """The number of locally solvable grids in a whole run's total."""
        return int(self.finish(total))

    def estimate_one_core(self):
        """Expected seconds of the whole run on one core (compile excluded), or None if unknown."""
        return None

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:  # pragma: no cover
        """(total, threads used): the whole run in this process, for runs too short for shards.

        ``progress(grids_done)`` is called as work finishes; ``estimate`` is
        the expected wall time on ``jobs`` threads, if known (to size batches).
        """
        raise NotImplementedError


class BitShards(Layout):
    """A layout whose shard s is every enumeration index with top ``bits`` bits s: grid, tiny and gpu."""

    bits: int

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.bits

    @property
    def grids_per_shard(self) -> int:
        """Enumeration indices (grids) per shard."""
        return 1 << (self.n * self.m - self.bits)
