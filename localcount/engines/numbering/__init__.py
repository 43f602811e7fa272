"""The numbering engine: every grid of a size in increasing number, with its local-logic steps.

* ``order`` — the order, stated once: a grid's number and its rows (``row_shift``, ``number``, ``rows``);
* ``layout`` — ``NumberingLayout``: shards of blocks (the grids sharing their top rows); a shard's value
  is each block's histogram of steps, what ``nth`` and ``rank`` read;
* ``kernel`` — the numba kernels: the steps of every grid in a range of numbers, and their histogram
  (``fast``: generated per size; ``vector``: numpy; ``count``: the three behind one function).

A grid's number is g = Σ cell(r, c) · 2^(n·m − 1 − (r·m + c)): cells read row by row, the top-left
most significant (``order``, ``docs/numbering.md``).  Its own propagation, written apart from the other
engines' (the stored totals must equal the stats engine's recorded step histogram: two code paths).
Words: the *numbering* is the order and what is stored of it, each block's histogram of steps
(``results.numberings``; ``api.numbering``, class ``Numbering``, answers ``nth``, ``rank`` and ``list``);
a grid's *number* is g, from 0 among all 2^(n·m) grids; its *rank* (k, from 1) is its place among the
puzzles the order numbers.  The stored files and keys keep the older word "index" for compatibility:
the ``index`` command that builds a numbering, the files' directory ``shipped/index`` and
``$LOCALCOUNT_INDEX_DIR``, and the layout's ``kind`` and ``method``, in checkpoint keys and files
("6x6-index1-r2-s10-mir").  The enumeration index of the other engines is another thing.
May import ``engines.base``, ``lines`` (tables and word helpers), ``clues`` and ``util``.
"""
