"""localcount: count locally solvable nonograms by exhaustive enumeration.

Packages in layer order, lowest first; a module imports only from its own
layer and the layers below (``tests/test_architecture.py`` checks it):

1. ``util`` (atomic writes, messages, provenance) and ``clues`` (the vocabulary);
2. ``lines`` — line tables and line solvers;
3. ``engines`` — the ways of counting behind one interface (``engines.base.Layout``)
   and their registry; ``puzzle`` — single puzzles, beside the engines;
4. ``orchestration`` — shard groups, checkpoints, worker processes, Dask, status;
5. ``results`` — recorded runs with provenance and the files made from them;
6. ``cli`` — the command line.

This module imports nothing; it holds the version.
"""

__version__ = "0.1.0"
