"""localcount: count locally solvable nonograms by exhaustive enumeration, and solve, rate and make single puzzles.

The public API (``localcount.api``)::

    import localcount as lc
    lc.count(5)                                    # 24976511
    lc.stats(4).unique                             # uniquely solvable 4x4 grids
    lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]]).solve()

Packages in layer order, lowest first; a module imports only from its own
layer and the layers below (``tests/test_architecture.py`` checks it):

1. ``util`` (atomic writes, messages, provenance, the version, usage errors) and ``clues`` (the vocabulary);
2. ``lines`` — line tables and line solvers;
3. ``engines`` — the ways of counting behind one interface (``engines.base.Layout``)
   and their registry; ``puzzle`` — single puzzles, beside the engines;
4. ``orchestration`` — shard groups, checkpoints, worker processes, Dask, status;
5. ``results`` — recorded runs with provenance and the files made from them;
6. ``api`` — the public Python API, which this module re-exports;
7. ``cli`` — the command line, on top of the API.

Importing this module loads no numba: the kernels load when a count needs them.
"""

from . import api as _api_package
from .api import *  # noqa: F403 (the public API)
from .api import __all__ as _api
from .util.version import __version__

__all__ = ["__version__", *_api, *_api_package.LAZY]  # noqa: PLE0604 (names, unpacked)


def __getattr__(name: str):
    """The API's errors that load with their modules (``localcount.Stopped``, ``localcount.CheckpointError``, ...)."""
    return _api_package.__getattr__(name)
