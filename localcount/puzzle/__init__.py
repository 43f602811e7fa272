"""Single puzzles: the model, file formats, solving (local logic on any clues, the complete search, SAT), making puzzles, drawings, shipped examples.

Rooms, each a package whose ``__init__`` says what it holds:

* ``model`` — ``Puzzle`` and ``PuzzleError``;
* ``formats/`` — parse/format pairs for txt, .non, NIN, Tatham game IDs and webpbn XML (one module each), and
  ``read``, which tells them apart;
* ``solving/`` — local logic, probing, the complete search and the level a puzzle needs, colour puzzles, SAT,
  the automaton of a clue, belief propagation;
* ``making/`` — ``generate`` (random simple puzzles of a chosen difficulty in steps) and ``design`` (simple
  puzzles that look like a picture);
* ``drawing/`` — text drawings, PNG and GIF pictures (the optional extra ``pictures``), SVG;
* ``examples`` — the shipped puzzles in ``shipped/`` (``design``'s pictures are in ``shipped/pictures/``).

A puzzle's ``variant`` (``clues.VARIANTS``) is a nonogram or a yesnogram (row clues count runs of 0s):
``solving`` and ``formats`` know both; ``making`` makes nonograms.

Between the rooms: ``solving`` imports ``model``; ``making`` imports ``solving``; ``formats`` imports ``model``
(and ``solving.colour`` for colour files); ``drawing`` imports ``model``; ``examples`` imports ``formats``.
Beside the engines: imports ``clues``, ``lines.words``, ``lines.colours``, ``util`` and ``tuning`` (the speed
tunables of solving and making) only (and ``defusedxml`` for XML), so nothing here loads numba, except
``solving.compiled`` (``lines.solvers``, ``lines.board``), which is loaded only when asked for
(``solving.logic.use_compiled``).
"""
