"""Line tables and line solvers: what one line with its clue and known cells allows.

* ``tables`` — ``table[true line, known mask]`` for counting (numpy; lines up to 13 cells);
* ``solvers`` — numba line solvers: the dynamic program and the word-operation solver;
* ``words`` — the word-operation solver on Python ints: any length, no numba (single puzzles);
* ``colours`` — the colour line solver: which colours each cell can take (pure Python; colour puzzles);
* ``bits`` — a line's clue from a machine word, for the kernels.
* ``board`` — local logic on a board of line words to its fixpoint (numba; single puzzles compiled, samples).

Imports ``clues``, ``util`` and ``tuning`` only.
"""

#: Longest line that gets a table (``tuning.TABLE_MAX_LEN``; longer lines use the line solvers of ``solvers``,
#: the word solver up to 62 cells), and longest whose cells get a spread table (``tuning.SPREAD_MAX_LEN``):
#: set there, re-exported as this package's limits, read by the tables and the engines.
from ..tuning import SPREAD_MAX_LEN, TABLE_MAX_LEN  # noqa: F401 (re-exported)
