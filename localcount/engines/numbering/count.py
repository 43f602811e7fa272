"""The numbering kernels behind validating functions: the codes of a range of grids, and their histogram.

A grid's *code* is 0 when local logic leaves a cell unknown, else 1 + its steps (``kernel``).
Three implementations (``KERNELS``), which the tests compare on every grid of the small sizes:
small ranges (at most ``tuning.NUMBERING_VECTOR_MAX`` grids: a query on a small block, one grid's rank) go to numpy
(``vector``: nothing compiled, numba not even imported); ranges of whole last rows of a size of
``tuning.NUMBERING_GENERATED_MIN_CELLS`` cells or more to the kernels generated for the size (``fast.pays``);
the others to the plain numba kernels (``kernel``).
"""

from __future__ import annotations

import numpy as np

from ... import tuning
from .prepare import check_numbering_size, prepare

#: The implementations ``codes`` can be asked for: auto picks as the module doc says.
KERNELS = ("auto", "vector", "generated", "plain")


def width(n: int, m: int) -> int:
    """Length of a histogram of codes: 0 (stuck), then 1 + steps for steps 0 .. n·m + 1.

    Every half but the first teaches a cell, so a solved grid takes at most n·m + 1 steps.
    """
    return n * m + 3


def _check_range(n: int, m: int, g0: int, count: int) -> None:
    check_numbering_size(n, m)
    if g0 < 0 or count < 0 or g0 + count > 1 << (n * m):
        raise ValueError(f"grids {g0} .. {g0 + count - 1} are not all numbers of {n}x{m} grids")


def codes(
    n: int, m: int, g0: int, count: int, variant: str = "nonogram", parallel: bool = True, how: str = "auto"
) -> np.ndarray:
    """The codes of grids g0 .. g0 + count - 1 as int8 (numba threads if ``parallel``); ``how``: one of KERNELS."""
    _check_range(n, m, g0, count)
    if how not in KERNELS:
        raise ValueError(f"how must be one of {', '.join(KERNELS)}, got {how!r}")
    if n * m == 0:
        return np.full(count, 1, np.int8)  # the empty grid: nothing to know, solved in 0 steps
    if how == "auto":
        from . import fast

        how = (
            "vector" if count <= tuning.NUMBERING_VECTOR_MAX else "generated" if fast.pays(n, m, g0, count) else "plain"
        )
    if how == "vector":
        from .vector import codes as vector_codes

        return vector_codes(n, m, g0, count, variant)
    tables = prepare(n, m, variant)
    if how == "generated":
        from . import fast

        mod = fast.module(n, m)
        if parallel:
            return mod.codes(g0, count, max(tuning.NUMBERING_CHUNK, 1 << m), *tables)
        out = np.zeros(count, np.int8)
        mod.run(g0, count, *tables, np.zeros(1, np.int64), out)
        return out
    from . import kernel

    if parallel:
        return kernel.codes_threaded(g0, count, tuning.NUMBERING_CHUNK, n, m, *tables)
    out = np.zeros(count, np.int8)
    kernel.codes_into(g0, count, n, m, *tables, out)
    return out


def hist(n: int, m: int, g0: int, count: int, variant: str = "nonogram", generated=None) -> np.ndarray:
    """The histogram of codes (length ``width``) of grids g0 .. g0 + count - 1, in this thread (numba kernels).

    ``generated``: use the size's generated kernel (None: where the range and the size allow, ``fast.pays``).
    """
    from . import fast, kernel

    _check_range(n, m, g0, count)
    out = np.zeros(width(n, m), np.int64)
    if n * m == 0:
        out[1] = count
        return out
    tables = prepare(n, m, variant)
    if generated is None:
        generated = fast.pays(n, m, g0, count)
    if generated:
        fast.module(n, m).hist_into(g0, count, *tables, out)
    else:
        kernel.hist_into(g0, count, n, m, *tables, out)
    return out
