"""Random grids of any size up to 62×62: how many local logic solves, and in how many steps (``sample``).

* ``kernel`` — numba: each grid's clues, local logic from all unknown (``lines.board``), its steps;
* ``layout`` — ``SampleLayout``: a sample of ``count`` grids drawn cell by cell with a density, in shards of
  ``SHARD_GRIDS`` grids, each shard's grids from its own random stream (seed, shard), so a run gives the same
  numbers on any number of processes and resumes from its checkpoint.

Imports ``lines``, ``clues`` and ``util``; for uniqueness (``nodes``), ``puzzle`` (the search), inside ``compute``.
"""
