"""The tiny-size counter: every grid of a small size at once, as numpy arrays; nothing is compiled.

* ``layout`` — ``TinyLayout``: ranges of grids (no numba, no kernels to compile);
* ``propagate`` — local logic on arrays of grids with the line tables, to the fixpoint.

Counts every grid (no symmetry), so it is a code path independent of the
numba kernels; the count command uses it for sizes small enough that
compiling a kernel would cost more than counting (``registry.tiny_preferred``).
May import ``engines.base``, ``lines`` (its numpy tables), ``clues`` and ``util``.
"""
