"""The thin counter: 2×m grids by what two rows allow (``kernel`` has the algorithm and its proof).

* ``layout`` — ``ThinLayout``: shards of first rows, two row modes (no numba);
* ``kernel`` — the numba kernels.

May import ``engines.base``, ``lines``, ``clues`` and ``util``.
"""
