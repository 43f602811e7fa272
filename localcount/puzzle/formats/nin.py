"""The ``nin`` format: Jakub Wilk's ``nonogram`` solver's, also exported by webpbn.

``W H`` on the first line, then the H row clues, then the W column clues,
one per line, numbers separated by spaces, ``0`` for an empty clue (blank
lines are skipped).  Rows come first here, columns first in ``txt``: the
same text read as the other format is the transposed puzzle.

It cannot say that a puzzle is a yesnogram: ``parse_nin`` reads one only
when told (its ``variant``).
"""

from __future__ import annotations

import re

from ..model import Puzzle, PuzzleError
from .common import checked, clue_numbers


def parse_nin(text: str, source: str = "", variant: str = "nonogram") -> Puzzle:
    """Read the .nin format of Jakub Wilk's solver: 'W H', then the H row clues, then the W column clues (a
    ``variant`` the file cannot say)."""
    lines = [(i, raw.strip()) for i, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    if not lines:
        raise PuzzleError("empty puzzle: expected the width and the height on the first line", None, source)
    first, head = lines[0]
    if not re.fullmatch(r"\d+[ \t]+\d+", head):
        raise PuzzleError(f"the first line must be the width and the height ('W H'), got {head!r}", first, source)
    m, n = map(int, head.split())
    body = lines[1:]
    if len(body) != n + m:
        last = body[-1][0] if body else first
        want = f"a puzzle {m} wide and {n} high has {n} row clues then {m} column clues ({n + m} lines)"
        raise PuzzleError(f"{want}, found {len(body)}", last, source)
    clues = [clue_numbers(t, r"[ \t]+", i, source) for i, t in body]
    return checked(Puzzle(tuple(clues[:n]), tuple(clues[n:]), variant=variant), source)


def format_nin(p: Puzzle) -> str:
    """Write the .nin format: width and height, the row clues, the column clues."""
    body = [" ".join(map(str, c)) if c else "0" for c in (*p.rows, *p.cols)]
    return "\n".join([f"{p.m} {p.n}", *body]) + "\n"
