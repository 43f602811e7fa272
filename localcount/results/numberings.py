"""Numbering files: each block's histogram of codes for one size and family, with provenance (``docs/numbering.md``).

The files, their directories and their messages keep the older word "index" (``shipped/index/``,
``$LOCALCOUNT_INDEX_DIR``, "not a readable index file"): stored names, kept for compatibility.
A numbering file is a numpy ``.npz`` (read with ``allow_pickle=False``) holding

* ``counts`` — one row per block (the grids sharing their top ``rows`` rows, in the numbering's
  order), one column per code: 0 stuck, 1 + d solved in d steps; trailing all-zero columns dropped;
* ``meta`` — JSON: format, n, m, variant, rows, grids, solvable, steps {d: grids}, the runs that
  made it (layout key, code path, seconds, processes, machine, version, commit, date) and what it
  was checked against.

Where they are: the package ships some (``shipped/index/``); others are built on first use into
``$LOCALCOUNT_INDEX_DIR``, else ``<data dir>/localcount/index`` (beside the checkpoints).  A file
that cannot be read, or whose numbers do not add up, is a ``NumberingFileError`` naming it: it is
never used, and removing it makes the next use rebuild it.  Writes are atomic.

Imports ``util`` and numpy only.
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import re
import zipfile
from dataclasses import dataclass, field

import numpy as np

from ..util.files import write_atomic

FORMAT = 1
ENV_DIR = "LOCALCOUNT_INDEX_DIR"
SHIPPED = pathlib.Path(__file__).resolve().parent / "shipped" / "index"


class NumberingFileError(Exception):
    """A numbering file that cannot be used; the message names it and says what to do."""


@dataclass(frozen=True)
class NumberingFile:
    """One size's stored numbering: ``counts[block, code]`` and its provenance."""

    n: int
    m: int
    variant: str
    rows: int
    counts: np.ndarray = field(repr=False)
    meta: dict = field(repr=False, default_factory=dict)

    @property
    def block_bits(self) -> int:
        """Each block holds 2^block_bits grids."""
        return (self.n - self.rows) * self.m

    @property
    def solvable(self) -> int:
        """The locally solvable grids."""
        return int(self.counts[:, 1:].sum())

    def steps(self) -> dict:
        """{steps: grids} of the solvable grids."""
        totals = self.counts.sum(axis=0)
        return {code - 1: int(v) for code, v in enumerate(totals) if code and v}


def name(n: int, m: int, variant: str = "nonogram") -> str:
    """The file name of a numbering, e.g. '5x5.npz' or '5x5-yes.npz'."""
    return f"{n}x{m}{'-yes' if variant == 'yesnogram' else ''}.npz"


def data_dir() -> pathlib.Path:
    """$LOCALCOUNT_INDEX_DIR, else the per-user data directory's localcount/index."""
    if os.environ.get(ENV_DIR):
        return pathlib.Path(os.environ[ENV_DIR]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return pathlib.Path(data) / "localcount" / "index"


def find(n: int, m: int, variant: str = "nonogram", directory=None) -> pathlib.Path | None:
    """The numbering file of a size: the data directory's (or ``directory``'s), else the package's; None if neither has one."""
    for where in (pathlib.Path(directory) if directory else data_dir(), SHIPPED):
        path = where / name(n, m, variant)
        if path.exists():
            return path
    return None


def available(directory=None) -> list:
    """[(n, m, variant)] of every numbering there is: in the data directory (or ``directory``) or shipped, sorted."""
    found = set()
    for where in (pathlib.Path(directory) if directory else data_dir(), SHIPPED):
        for path in where.glob("*.npz") if where.is_dir() else ():
            named = re.fullmatch(r"(\d+)x(\d+)(-yes)?\.npz", path.name)
            if named:
                found.add((int(named[1]), int(named[2]), "yesnogram" if named[3] else "nonogram"))
    return sorted(found, key=lambda s: (s[2] != "nonogram", s[0] * s[1], s))


def to_bytes(idx: NumberingFile) -> bytes:
    """The .npz bytes of a numbering (``read``'s inverse); counts stored in the narrowest unsigned type that holds them."""
    counts = np.asarray(idx.counts)
    used = np.flatnonzero(counts.any(axis=0))
    counts = counts[:, : (used[-1] + 1 if len(used) else 1)]
    dtype = np.uint32 if counts.max(initial=0) < 1 << 32 else np.uint64
    meta = dict(idx.meta, format=FORMAT, n=idx.n, m=idx.m, variant=idx.variant, rows=idx.rows)
    buf = io.BytesIO()
    np.savez_compressed(buf, counts=counts.astype(dtype), meta=np.array(json.dumps(meta, sort_keys=True)))
    return buf.getvalue()


def write(path, idx: NumberingFile) -> None:
    """Write a numbering file atomically (its directory is made if missing)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, to_bytes(idx))
    os.chmod(path, 0o644)  # a data file others may read (the atomic write's temp file is private)


def read(path) -> NumberingFile:
    """A numbering file, checked: every block's histogram adds up to its grids; NumberingFileError if not."""
    path = pathlib.Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            counts = data["counts"].astype(np.int64)
        n, m, rows, variant = int(meta["n"]), int(meta["m"]), int(meta["rows"]), str(meta["variant"])
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as err:
        raise NumberingFileError(f"{path}: not a readable index file ({err}); remove it to rebuild it") from None
    if meta.get("format") != FORMAT:
        raise NumberingFileError(f"{path}: index format {meta.get('format')}, this localcount reads {FORMAT}; remove it to rebuild it")
    block_bits = (n - rows) * m
    if counts.ndim != 2 or len(counts) != 1 << (rows * m) or not (counts.sum(axis=1) == 1 << block_bits).all():
        raise NumberingFileError(f"{path}: its blocks do not add up to the {n}x{m} grids; remove it to rebuild it")
    return NumberingFile(n, m, variant, rows, counts, meta)
