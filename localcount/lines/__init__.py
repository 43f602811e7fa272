"""Line tables and line solvers: what one line with its clue and known cells allows.

* ``tables`` — ``table[true line, known mask]`` for counting (numpy; lines up to 13 cells);
* ``solvers`` — numba line solvers: the dynamic program and the word-operation solver;
* ``words`` — the word-operation solver on Python ints: any length, no numba (single puzzles);
* ``colours`` — the colour line solver: which colours each cell can take (pure Python; colour puzzles);
* ``bits`` — a line's clue from a machine word, for the kernels.
* ``board`` — local logic on a board of line words to its fixpoint (numba; single puzzles compiled, samples).

Imports ``clues`` and ``util`` only.
"""

#: Longest line that gets a table: 4^13 uint16 entries are 128 MiB (built in about
#: 2.5 s), so two tables stay under 1 GiB for any size; 3x13 then counts about 80x
#: faster than with the line DP (measured estimate 1 h against 78 h).  Longer
#: lines use the line solvers of ``solvers`` (the word solver up to 62 cells).
TABLE_MAX_LEN = 13
#: Longest line whose cells get a spread table (``spread_table``).
SPREAD_MAX_LEN = 16
