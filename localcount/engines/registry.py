"""The engines by name, and the one place that chooses which engine counts a size.

``ENGINES`` names each engine's layout class by module path; the modules
are imported on first use, so importing this registry (as orchestration
does, to read a checkpoint key) loads no engine and no numba.  A new engine
adds its package and one line here; ``count_layout``, ``table_paths`` and
``stats_paths`` are the policy that the count command, ``table`` and the
scripts share.

Imports ``engines.base``, ``clues``, ``tuning`` and ``lines`` (its constants) at import time; the engines' layout modules when asked.
"""

from __future__ import annotations

import importlib

from .. import tuning
from ..clues import check_variant
from ..lines import TABLE_MAX_LEN

#: Engine name -> "module:LayoutClass" (layout modules import no numba).
ENGINES = {
    "grid": "localcount.engines.grid.layout:GridLayout",
    "thin": "localcount.engines.thin.layout:ThinLayout",
    "stats": "localcount.engines.stats.layout:StatsLayout",
    "tiny": "localcount.engines.tiny.layout:TinyLayout",
    "numbering": "localcount.engines.numbering.layout:NumberingLayout",
    "gpu": "localcount.engines.gpu.layout:GpuLayout",
    "sample": "localcount.engines.sample.layout:SampleLayout",
}
#: The count command's --method choices: auto picks the tiny counter or the thin counter where
#: ``tiny_preferred`` or ``thin_preferred`` says, else the general kernel (grid); gpu only when asked for.
METHODS = ("auto", "grid", "thin", "tiny", "gpu")
#: Sizes up to this many cells use every grid (no symmetry) for a second path (``table_paths``, ``stats_paths``).
EVERY_GRID_CELLS = 24


def engine(name: str):
    """The layout class of an engine (imports its layout module)."""
    module, cls = ENGINES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def parse_key(key: str):
    """The layout named by a checkpoint key (any engine's); ValueError if it is none."""
    for name in ENGINES:
        lay = engine(name).from_key(key)
        if lay is not None:
            return lay
    raise ValueError(f"not a run key: {key!r}")


def thin_preferred(n: int, m: int) -> bool:
    """True if the thin counter is the default for n×m: two rows (or columns) longer than the line tables."""
    return min(n, m) == 2 and TABLE_MAX_LEN < max(n, m) <= tuning.THIN_MAX_M


def tiny_preferred(n: int, m: int) -> bool:
    """True if the tiny counter (numpy, nothing compiled) is the default for n×m: faster than compiling a kernel."""
    return engine("tiny").takes(n, m)


def count_layout(n: int, m: int, method: str = "auto", symmetry="auto", bits=None, thin_rows: str = "table", checkpointed=False,
                 variant: str = "nonogram"):  # fmt: skip
    """The layout of the count command's run of n×m; ValueError (a usage error) if the options do not fit.

    ``auto`` picks the tiny counter only for runs in this process (not ``checkpointed``), so a
    checkpointed run keeps the layout, key and files it always had.  Yesnograms (``variant``):
    the tiny counter or the general kernel (``yesnogram_layout``).
    Each engine's ``make`` checks the size (the API has checked it already, ``api.counting.size``).
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "gpu":  # the general kernel's enumeration on a GPU (its make says when there is none)
        return engine("gpu").make(n, m, bits, symmetry, check_variant(variant))
    if check_variant(variant) != "nonogram":
        return yesnogram_layout(n, m, method, symmetry, bits, checkpointed)
    if method == "tiny" or (method == "auto" and symmetry == "auto" and not checkpointed and tiny_preferred(n, m)):
        if symmetry == "square":
            raise ValueError("the tiny method's symmetry is flips or none, not square")
        return engine("tiny").make(n, m, bits, "none" if symmetry in ("none", False) else "flips")
    if method == "thin" or (method == "auto" and thin_preferred(n, m)):
        if min(n, m) != 2:
            raise ValueError(f"the thin method counts grids with 2 rows or 2 columns, not {n}x{m}")
        if symmetry == "square":
            raise ValueError("the thin method's symmetry is flips or none, not square")
        group = "none" if symmetry in ("none", False) else "flips"
        return engine("thin").make(max(n, m), bits, thin_rows, group)
    return engine("grid").make(n, m, bits, symmetry)


def yesnogram_layout(n: int, m: int, method: str = "auto", symmetry="auto", bits=None, checkpointed=False):
    """The count command's run of n×m yesnograms: tiny or grid with the flips (or none), never thin.

    Rows longer than the line tables are counted as the m×n yesnograms (``auto`` only): the
    same number, since a grid is locally solvable iff its complement-transpose is.
    """
    if method == "thin":
        raise ValueError("the thin method counts nonograms only; yesnograms use the grid or tiny method")
    if symmetry == "square":
        raise ValueError("a yesnogram's symmetry is flips or none, not square")
    group = "none" if symmetry in ("none", False) else "flips"
    if method == "tiny" or (method == "auto" and symmetry == "auto" and not checkpointed and tiny_preferred(n, m)):
        return engine("tiny").make(n, m, bits, group, "yesnogram")
    if method == "auto" and m > TABLE_MAX_LEN >= n:
        n, m = m, n
    return engine("grid").make(n, m, bits, group, "yesnogram")


def table_paths(n: int, m: int, variant: str = "nonogram") -> list:
    """The layouts of the two independent counting runs of n×m (n ≤ m) that ``table`` records.

    Normally n×m with the default symmetry group, and the transposed m×n
    with every grid (up to EVERY_GRID_CELLS cells) or the flips.  Two
    exceptions, where the general kernel would run its slow line solver on
    every grid: a single row longer than the line tables runs as m×1 twice
    (its kernel decides each grid in its hoisted first row pass; ~30x
    faster than 1×m), with the flips and with every grid; and two rows
    longer than the tables run the thin counter (~9x faster at 2×15 on one
    core) twice, its first row updated by the subset-OR table and by the
    word line solver, with different shard bits.
    """
    grid, thin = engine("grid"), engine("thin")
    if check_variant(variant) != "nonogram":
        return yesnogram_paths(n, m)
    if n == 1 and m > TABLE_MAX_LEN:
        return [grid.make(m, 1, symmetry="flips"), grid.make(m, 1, symmetry="none")]
    if thin_preferred(n, m):
        first = thin.make(m, rows="table")
        return [first, thin.make(m, first.bits - 1, rows="word")]
    second = "none" if n * m <= EVERY_GRID_CELLS else "flips"
    return [grid.make(n, m, symmetry="auto"), grid.make(m, n, symmetry=second)]


def yesnogram_paths(n: int, m: int) -> list:
    """``table_paths`` of n×m yesnograms (n ≤ m): the general kernel on n×m with the flips, and on the m×n
    complement-transposes (the same count) with every grid up to EVERY_GRID_CELLS cells, else the flips
    (a square: every grid).  Rows longer than the line tables: m×n twice, with the flips and every grid.
    """
    grid = engine("grid")
    if m > TABLE_MAX_LEN:
        return [
            grid.make(m, n, symmetry="flips", variant="yesnogram"),
            grid.make(m, n, symmetry="none", variant="yesnogram"),
        ]
    second = "none" if n * m <= EVERY_GRID_CELLS or n == m else "flips"
    return [
        grid.make(n, m, symmetry="flips", variant="yesnogram"),
        grid.make(m, n, symmetry=second, variant="yesnogram"),
    ]


def stats_paths(n: int, m: int, variant: str = "nonogram") -> list:
    """The layouts of the two independent stats runs of n×m: by rows, and transposed with another group when small.

    For yesnograms the transposed path enumerates the complement-transposes (``engines.stats.prepare``).
    ValueError if ``stats`` does not support the size.
    """
    stats = engine("stats")
    second = "none" if n * m <= EVERY_GRID_CELLS else "flips"
    return [stats.make(n, m, path="rows", symmetry="flips", variant=variant),
            stats.make(n, m, path="transposed", symmetry=second, variant=variant)]  # fmt: skip
