"""The stats enumeration: uniqueness, difficulty (rounds) and stuck grids, every grid grouped by row clues.

* ``layout`` — ``StatsLayout``: shards fixing the clues of ``depth`` rows (no numba);
* ``measures`` — ``Stats``, the output vector, its checks and its text/JSON forms (no numba);
* ``prepare`` — clue ids, row patterns, line tables and the default depth (numpy);
* ``compute`` — runs the kernels over shards in this process;
* ``kernel`` — the numba kernels.

May import ``engines.base``, ``lines``, ``clues`` and ``util``.
"""
