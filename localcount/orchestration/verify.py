"""A seeded sample of a run's shards, recounted by another engine and compared shard by shard.

A GPU count is verified the way every count in ``results/`` is, by an independent code path; while a
campaign is still assembling it from short runs, a sample of its shards is recounted on the CPU as it
goes.  An engine whose layout names ``verified_by`` (the GPU's: the general kernel, ``grid``) has a
*twin*: the layout of that method with the same size, symmetry group, shard bits and family, whose shard
s covers the same enumeration indices with the same weights, so its value is the same number computed
by other code (the CPU kernel rather than the CUDA one).

* **The sample is fixed before the campaign starts**: the first run of the layout writes
  ``<key>.sample`` beside its checkpoint (before it counts a shard) and every later run, on any machine,
  reads it back.  It holds ``SAMPLE_PERCENT`` % of the shards (at least one), drawn with numpy's
  generator seeded by ``SEED`` and the key among the shards that do work (``Layout.shard_work`` > 0:
  a shard of non-representative borders is 0 by construction and proves nothing), each line
  checksummed.
* **Recounted by the twin** (``recount``, the ``verify`` command): the twin's own checkpoint, in the
  same directory, with the same guarantees; on the CPU cores of the GPU's machine while it counts, or
  later anywhere.
* **Compared** (``compare``): every sample shard recorded by both; ``check`` raises ``Disagreement``,
  naming the shard and both keys, if any differ.  The count command checks before it counts a shard,
  after each sample shard it records, and at its end (``watch``, the runner's ``Watch``): any disagreement
  stops the campaign.

Imports ``engines.base``/``engines.registry`` (the twin), ``checkpoint`` and ``util``.
"""

from __future__ import annotations

import math
import pathlib
import time
import zlib
from dataclasses import dataclass, field

from ..engines.registry import count_layout
from ..util.files import write_atomic
from .checkpoint import CheckpointError, read_log

#: Share of a layout's shards in its sample, in percent (at least one shard).
SAMPLE_PERCENT = 1
#: The sample's seed, with the layout key (``_seed``): fixed, so that anyone can draw the same sample again.
SEED = 68
MAGIC = "localcount-sample"


class Disagreement(CheckpointError):
    """A sample shard whose two engines' values differ: the campaign stops until the cause is found."""


def twin(lay):
    """The layout that recounts ``lay``'s sample (its ``verified_by`` method), or None if it has none."""
    if not getattr(lay, "verified_by", ""):
        return None
    return count_layout(lay.n, lay.m, lay.verified_by, lay.symmetry, lay.bits, checkpointed=True, variant=lay.variant)


def sample_path(directory, lay) -> pathlib.Path:
    """Where the sample of ``lay`` is kept: ``<dir>/<key>.sample``."""
    return pathlib.Path(directory) / f"{lay.key}.sample"


def _seed(key: str) -> int:
    return SEED * (1 << 32) + zlib.crc32(key.encode())


def draw(lay) -> list:
    """The sample's shards, sorted: SAMPLE_PERCENT % of ``lay.shards`` (at least one), among the shards that do work."""
    import numpy as np

    work = np.asarray(lay.shard_work())
    busy = np.flatnonzero(work > 0)
    if busy.size == 0:
        busy = np.arange(lay.shards)
    size = min(busy.size, max(1, math.ceil(lay.shards * SAMPLE_PERCENT / 100)))
    chosen = np.random.default_rng(_seed(lay.key)).choice(busy, size=size, replace=False)
    return sorted(int(s) for s in chosen)


def _line(key: str, shard: int) -> str:
    return f"{shard} {zlib.crc32(f'{key} {shard}'.encode()):08x}\n"


def format_sample(lay, shards: list, twin_key: str) -> str:
    """The text of a sample file: a header line, a comment, then a checksummed line per shard."""
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    return (
        f"{MAGIC} 1 {lay.key} {len(shards)}\n"
        f"# {len(shards)} of {lay.shards} shards ({SAMPLE_PERCENT} %, among those that do work), seed {SEED} with the "
        f"key, drawn {when}; recounted by {twin_key}\n" + "".join(_line(lay.key, s) for s in shards)
    )


def read_sample(path, lay) -> list | None:
    """The shards of a sample file, or None if there is none; CheckpointError if it is not this layout's or damaged."""
    path = pathlib.Path(path)
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as err:
        raise CheckpointError(f"cannot read the sample file {path}: {err}") from None
    head = lines[0].split() if lines else []
    if len(head) != 4 or head[0] != MAGIC or head[2] != lay.key:
        raise CheckpointError(f"{path} is not the sample file of {lay.key}; move it away and rerun to draw it again")
    shards = []
    for text in lines[1:]:
        if text.startswith("#"):
            continue
        parts = text.split()
        if len(parts) != 2 or not parts[0].isdigit() or _line(lay.key, int(parts[0])) != text + "\n":
            raise CheckpointError(f"{path}: damaged line {text!r}; restore the file (e.g. from git), never redraw it")
        shards.append(int(parts[0]))
    if len(shards) != int(head[3]) or any(not 0 <= s < lay.shards for s in shards):
        raise CheckpointError(f"{path}: {len(shards)} shards where the header says {head[3]}; restore the file")
    return shards


def fix_sample(lay, directory) -> list:
    """The sample of ``lay`` in ``directory``: read back, or drawn and written now (before any shard is counted)."""
    path = sample_path(directory, lay)
    shards = read_sample(path, lay)
    if shards is None:
        shards = draw(lay)
        other = twin(lay)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, format_sample(lay, shards, other.key))
    return shards


@dataclass
class Comparison:
    """A layout's sample against its twin's records."""

    key: str
    twin_key: str
    sample: list  # the sample's shards
    counted: int = 0  # sample shards the layout itself has recorded
    recounted: int = 0  # sample shards the twin has recorded
    equal: int = 0  # shards recorded by both, with equal values
    differ: list = field(default_factory=list)  # (shard, value, twin's value)
    recounted_shards: list = field(default_factory=list)  # the sample shards the twin has recorded

    def line(self) -> str:
        """One line for stdout: key, sample, counted, recounted, compared, equal, differing."""
        compared = self.equal + len(self.differ)
        return (f"{self.key} sample {len(self.sample)} counted {self.counted} recounted {self.recounted} "
                f"compared {compared} equal {self.equal} differ {len(self.differ)}")  # fmt: skip

    def disagreement(self) -> Disagreement | None:
        """The error naming the first differing shard, or None."""
        if not self.differ:
            return None
        shard, mine, theirs = self.differ[0]
        more = f" (and {len(self.differ) - 1} more)" if len(self.differ) > 1 else ""
        return Disagreement(
            f"shard {shard} of {self.key} is {mine}, but {theirs} in {self.twin_key}{more}: the campaign stops; "
            f"find the cause before counting on (python -m localcount verify DIR lists the sample)"
        )


def _records(directory, lay) -> dict:
    path = pathlib.Path(directory) / f"{lay.key}.log"
    if not path.exists():
        return {}
    return {s: r.count for s, r in read_log(path, lay).records.items()}


def compare(lay, directory, sample: list | None = None) -> Comparison:
    """The sample of ``lay`` in ``directory`` (fixed now if it has none) against its twin's records there."""
    other = twin(lay)
    sample = fix_sample(lay, directory) if sample is None else sample
    mine, theirs = _records(directory, lay), _records(directory, other)
    out = Comparison(lay.key, other.key, sample)
    for shard in sample:
        out.counted += shard in mine
        out.recounted += shard in theirs
        if shard in theirs:
            out.recounted_shards.append(shard)
        if shard in mine and shard in theirs:
            if mine[shard] == theirs[shard]:
                out.equal += 1
            else:
                out.differ.append((shard, mine[shard], theirs[shard]))
    return out


def check(lay, directory, sample: list | None = None) -> Comparison:
    """``compare``, raising ``Disagreement`` if any sample shard differs."""
    out = compare(lay, directory, sample)
    err = out.disagreement()
    if err is not None:
        raise err
    return out


def watch(lay, directory):
    """A run's sample watch (``Watch``), for an engine whose shards another recounts (``Layout.verified_by``, the
    GPU's): its sample fixed in ``directory`` before the first shard is counted and checked against the twin's
    records now; None for the others."""
    if not lay.verified_by:
        return None
    sample = fix_sample(lay, directory)
    check(lay, directory, sample)
    return Watch(lay, directory, sample)


class Watch:
    """During a run: after each sample shard it records, compare it with the twin's record, if there is one yet;
    at its end (``end``) the whole sample again (the twin may have recorded more while it ran)."""

    def __init__(self, lay, directory, sample: list):
        self.lay, self.directory, self.sample = lay, directory, set(sample)

    def end(self) -> Comparison:
        """The sample against the twin's records now (``check``: ``Disagreement`` if a shard differs)."""
        return check(self.lay, self.directory, sorted(self.sample))

    def __call__(self, shard: int, value) -> None:
        if shard not in self.sample:
            return
        theirs = _records(self.directory, twin(self.lay)).get(shard)
        if theirs is not None and theirs != value:
            raise Comparison(self.lay.key, twin(self.lay).key, [shard], differ=[(shard, value, theirs)]).disagreement()
