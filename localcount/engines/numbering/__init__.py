"""The numbering engine: every grid of a size in increasing number, with its local-logic steps.

* ``layout`` — ``NumberingLayout``: shards of blocks (the grids sharing their top rows); a shard's value
  is each block's histogram of steps, the *index* that ``nth`` and ``rank`` read;
* ``kernel`` — the numba kernels: the steps of every grid in a range of numbers, and their histogram.

A grid's number is g = Σ cell(r, c) · 2^(n·m − 1 − (r·m + c)): cells read row by row, the top-left
most significant (``docs/every.md``).  Its own propagation, written apart from the other engines'
(the index's totals must equal the stats engine's recorded step histogram: two code paths).
Words: the *numbering* is the order (a grid and its number); its *index* is what is stored of it, each
block's histogram of steps (``results.indexes``, built by the ``index`` command); ``every`` is the API
(``api.every``, class ``Numbering``) and the command that read it.  The enumeration index of the other
engines is another thing.  The layout's ``kind`` and ``method`` stay "index": they are in checkpoint
keys and files.
May import ``engines.base``, ``lines`` (tables and word helpers), ``clues`` and ``util``.
"""
