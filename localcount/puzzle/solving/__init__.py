"""Solving one puzzle: local logic on any clues, probing, the complete search, SAT, belief propagation, colour puzzles.

* ``logic`` — local logic on arbitrary clues (contradictions named), step by step, on a board kept by line;
* ``compiled`` — the same local logic compiled (numba), for sides up to 62 cells, once ``logic.use_compiled()``
  asks for it (the page's worker processes do);
* ``probing`` — trying each unknown cell both ways, between local logic and branching;
* ``hints`` — a player's next hint from their marks: the line that decides the most cells and why, in words;
* ``search`` — local logic, probing, then a complete search, every solution verified; the level a puzzle needs;
* ``colour`` — colour puzzles: their model, local logic, probing and search (``lines.colours``);
* ``sat`` — the same verdicts through a SAT solver (optional extra ``sat``), and the default method's hand-off to it;
* ``automaton`` — the automaton that reads a line of a clue (for ``sat`` and ``beliefs``);
* ``beliefs`` — belief propagation over the lines, and the dive it guides to a first solution.
* ``policy`` — which of them solves a puzzle (``solve``'s methods: local logic, then the method's search) and
  with how much of the time limit.

``logic``, ``search``, ``sat`` and ``beliefs`` know both variants (nonograms and yesnograms).

Imports ``model`` (not ``formats``, ``making`` nor ``drawing``), ``clues``, ``tuning``, ``lines.words`` and
``lines.colours``; numpy in ``beliefs``, python-sat inside ``sat``'s functions; ``compiled`` imports
``lines.solvers`` (numba), and only ``logic.use_compiled`` imports ``compiled``, so nothing here loads numba
unless asked.
"""
