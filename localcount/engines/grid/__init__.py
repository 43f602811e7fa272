"""The general kernel: every n×m grid with n·m ≤ 64, propagated bitwise by numba.

* ``layout`` — ``GridLayout``: shards of the enumeration index (no numba);
* ``count`` — the public API: validation, line tables, shards over threads, estimates;
* ``kernel`` — the plain numba kernels (the readable reference), with the symmetry proofs;
* ``specialize`` — kernels generated per size, compiled and cached on disk;
* ``gather`` — the numba intrinsic of the generated kernels' gather variants (vector gathers of W grids);
* ``choice`` — which variant this CPU counts with: measured once, cached beside the kernels.

May import ``engines.base``, ``lines``, ``clues`` and ``util``.
"""
