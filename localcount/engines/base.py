"""The interface every way of counting provides: a *layout*, one run's parameters.

A layout is a small frozen, picklable object: the size, the engine's own
settings (symmetry group, shard bits, row mode, depth, ...) and a version
that changes whenever a change of the code could change a shard's value.
Everything the rest of the program does with a run goes through it:

* identity — ``key`` (the checkpoint key: unchanged across releases; parsed
  back by ``from_key``), ``code_path`` (what makes two runs independent:
  two runs of a size agree only if their code paths differ), ``title``
  (all three written from templates of the fields, ``KEY``, ``CODE_PATH``
  and ``TITLE``, where the engine gives them), ``kind``
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


def key_pattern(template: str, words: dict) -> re.Pattern:
    """The pattern of the names ``template`` writes (``Layout.KEY``): each '{field}' a whole number, or one of the
    words ``words[field]`` gives its values; then the family's suffix (VARIANT_SUFFIX), in the group 'variant'."""
    parts = re.split(r"\{(\w+)\}", template)
    pattern = "".join(
        re.escape(part) if i % 2 == 0
        else f"(?P<{part}>{'|'.join(map(re.escape, words[part].values()))})" if part in words
        else rf"(?P<{part}>\d+)"
        for i, part in enumerate(parts)
    )  # fmt: skip
    variant = "|".join(re.escape(s) for s in VARIANT_SUFFIX.values() if s)
    return re.compile(f"^{pattern}(?P<variant>{variant})?$")


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
    #: The method whose layout of the same size, group, shard bits and family counts every shard to the same
    #: value by other code, and recounts a seeded sample of this engine's shards (``orchestration.verify``);
    #: '' for none.
    verified_by: ClassVar[str] = ""
    n: int
    m: int

    @property
    def variant_suffix(self) -> str:
        """What this layout's key, code path and title end with: '' for nonograms (VARIANT_SUFFIX)."""
        return VARIANT_SUFFIX[self.variant]

    def kernel_note(self) -> str:
        """Which kernel variant counts this layout's shards here, for the run's provenance ('' if the engine
        has one kernel).  Not part of the key: every variant counts the same; only a run about to count asks."""
        return ""

    @property
    def variant_option(self) -> str:
        """The count command's option naming the family: '' for nonograms, else ' --variant NAME'."""
        return f" --variant {self.variant}" if self.variant_suffix else ""

    # --- identity: key, code_path and title, written from templates of the fields or by the engine ---

    #: The layout's names as templates of its fields, each followed by the family's suffix (VARIANT_SUFFIX):
    #: ``key`` (read back by ``from_key``), ``code_path`` and ``title``.  A field that ``WORDS`` names is written
    #: as its word (``WORDS["symmetry"]["mirror"]``: 'mir'), the others as numbers.  An engine without a
    #: ``KEY`` writes its names itself.
    KEY: ClassVar[str] = ""
    CODE_PATH: ClassVar[str] = ""
    TITLE: ClassVar[str] = "{n}x{m}"
    WORDS: ClassVar[dict] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._key_pattern = key_pattern(cls.KEY, cls.WORDS) if cls.KEY else None

    def _written(self, template: str) -> str:
        """``template`` (``KEY``, ``CODE_PATH``, ``TITLE``) with this layout's fields, and the family's suffix."""
        fields = {}
        for name in re.findall(r"\{(\w+)\}", template):
            value = getattr(self, name)
            fields[name] = self.WORDS[name][value] if name in self.WORDS else value
        return template.format(**fields) + self.variant_suffix

    @property
    def key(self) -> str:
        """The checkpoint key, e.g. '5x6-v1-s8-sym'."""
        if not self.KEY:  # pragma: no cover - every engine has a KEY or its own key
            raise NotImplementedError
        return self._written(self.KEY)

    @property
    def code_path(self) -> str:
        """What makes two runs independent (not how they are sharded), e.g. '5x6-sym'."""
        if not self.CODE_PATH:  # pragma: no cover
            raise NotImplementedError
        return self._written(self.CODE_PATH)

    @classmethod
    def from_key(cls, key: str):
        """The layout named by ``key``, or None if the key is not this engine's."""
        if cls._key_pattern is None:  # pragma: no cover
            raise NotImplementedError
        match = cls._key_pattern.match(key)
        if not match:
            return None
        fields = {}
        for name, text in match.groupdict().items():
            if name == "variant":
                fields[name] = variant_of_suffix(text)
            elif name in cls.WORDS:
                fields[name] = {word: value for value, word in cls.WORDS[name].items()}[text]
            else:
                fields[name] = int(text)
        return cls(**fields)

    @property
    def title(self) -> str:
        """A short name for file names and messages, e.g. '7x7' or '2x20-thin-tab'."""
        return self._written(self.TITLE)

    def what(self) -> str:
        """What the run goes through, for messages: '5x6 is 2^30 grids'."""
        return f"{self.n}x{self.m} is 2^{self.n * self.m} grids"

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

    def tune(self, one_core, jobs: int, say) -> int:
        """The speed choices of a run expected to take ``one_core`` seconds on one core (None: unknown), made
        before it starts: measure whatever choice of this machine the run would pay for (the grid engine's
        kernel variant), saying so in one line through ``say``, and return the threads the run takes in this
        process (of ``jobs``; a short grid count takes one and compiles no threaded kernel).  Most engines
        have no choice to make."""
        return jobs

    def in_process(self, jobs: int, progress=None, estimate=None) -> tuple:  # pragma: no cover
        """(total, threads used): the whole run in this process, for runs too short for shards.

        ``progress(grids_done)`` is called as work finishes; ``estimate`` is
        the expected wall time on ``jobs`` threads, if known (to size batches).
        """
        raise NotImplementedError

    def shard_by_shard(self, progress=None) -> tuple:
        """(total, 1): ``in_process`` of an engine without threads, every shard in turn on this one."""
        total = 0
        for shard in range(self.shards):
            total += self.compute(shard)
            if progress is not None:
                progress((shard + 1) * self.grids_per_shard)
        return total, 1


class BitShards(Layout):
    """A layout whose shard s is every enumeration index with top ``bits`` bits s: grid, tiny and gpu.

    Their keys are 'NxM-<engine>V-sB-<group>[-yes]' ('v' for the general kernel's engine), their groups
    written as ``GROUP_SUFFIX`` says.
    """

    bits: int
    WORDS: ClassVar[dict] = {"symmetry": GROUP_SUFFIX}

    @property
    def shards(self) -> int:
        """Number of shards."""
        return 1 << self.bits

    @property
    def grids_per_shard(self) -> int:
        """Enumeration indices (grids) per shard."""
        return 1 << (self.n * self.m - self.bits)


def default_shard_bits(n: int, m: int, grid_bits: int, least: int, most: int = MAX_CELLS) -> int:
    """Shard bits of n×m sharded by index bits: about 2^grid_bits indices a shard, at least 2^least shards where
    the size has that many indices, at most 2^most."""
    cells = n * m
    return min(cells, most, max(least, cells - grid_bits))


def check_bits(n: int, m: int, bits: int, most: int) -> int:
    """``bits``, or ValueError unless 0 <= bits <= min(n·m, most): shard bits of a layout sharded by index bits."""
    if not 0 <= bits <= min(n * m, most):
        raise ValueError(f"shard bits must be between 0 and {min(n * m, most)} for {n}x{m}, got {bits}")
    return bits


def variant_group(n: int, m: int, symmetry, variant: str) -> str:
    """The group of a count of ``variant`` (``clues.VARIANTS``, checked by the caller) for a symmetry setting.

    A nonogram's is ``symmetry_group``'s; a yesnogram's is the flips (auto)
    or none: the transposition turns rows into columns, whose clues count
    the other value, so the square's group does not keep the family.
    """
    if variant == "nonogram":
        return symmetry_group(n, m, symmetry)
    group = "flips" if symmetry in (True, "auto") else symmetry_group(n, m, symmetry)
    if group == "square":
        raise ValueError("a yesnogram's symmetry is flips or none, not square")
    return group
