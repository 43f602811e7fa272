"""Single puzzles: the model, file formats, local logic on any clues, the complete search, SAT, pictures, shipped examples.

* ``model`` — ``Puzzle`` and ``PuzzleError``;
* ``formats`` — parse/format pairs for txt, .non, NIN, Tatham game IDs and webpbn XML;
* ``logic`` — local logic on arbitrary clues (contradictions named), step by step, on a board kept by line;
* ``probing`` — trying each unknown cell both ways, between local logic and branching;
* ``search`` — local logic, probing, then a complete search, every solution verified; the level a puzzle needs;
* ``colour`` — colour puzzles: their model, local logic, probing and search (``lines.colours``);
* ``sat`` — the same verdicts through a SAT solver (optional extra ``sat``), and the default method's hand-off to it;
* ``automaton`` — the automaton that reads a line of a clue (for ``sat`` and ``beliefs``);
* ``beliefs`` — belief propagation over the lines, and the dive it guides to a first solution;
* ``pictures`` — text, PNG and GIF drawings (PNG/GIF need the optional extra ``pictures``);
* ``generate`` — random simple puzzles of a chosen difficulty in steps;
* ``design`` — simple puzzles that look like a picture (reading pictures needs the optional extra ``pictures``);
* ``examples`` — the shipped puzzles in ``shipped/`` (``design``'s pictures are in ``shipped/pictures/``).

A puzzle's ``variant`` (``clues.VARIANTS``) is a nonogram or a yesnogram (row clues count runs of 0s):
``logic``, ``search``, ``sat``, ``beliefs`` and ``formats`` know both; ``generate`` and ``design`` make nonograms.

Beside the engines: imports ``clues``, ``lines.words``, ``lines.colours`` and ``util`` only, so nothing here loads numba.
"""
