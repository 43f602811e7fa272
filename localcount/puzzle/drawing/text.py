"""Text drawings of one puzzle for the terminal (Unicode box drawing).

Filled cells are ``█``, empty cells ``·``, unknown cells ``?``: three
shapes that stay apart without colour.  Each cell is as wide as the widest
column-clue number plus one, so column clues stack above their cells; a
grid that would then be wider than ``WIDE`` characters is drawn one
character per cell, without the column clues.  (A colour puzzle's text
drawing is ``solving.colour.draw``.)
"""

from __future__ import annotations

from ..model import Puzzle

FILLED, EMPTY, UNKNOWN = "█", "·", "?"


def _cell_text(filled: int, empty: int, bit: int, width: int) -> str:
    """One cell, ``width`` characters wide."""
    if filled >> bit & 1:
        return FILLED * width
    mark = EMPTY if empty >> bit & 1 else UNKNOWN
    return mark.center(width)


#: Widest grid (in characters) drawn with the column clues above it.
WIDE = 120


def draw(p: Puzzle, filled: int = 0, empty: int = 0) -> str:
    """The puzzle with its clues and the given knowledge (Grid masks), as lines of text."""
    n, m = p.n, p.m
    width = max([2] + [len(str(k)) + 1 for c in p.cols for k in c])
    row_texts = [" ".join(map(str, c)) if c else "0" for c in p.rows]
    left = max([len(t) for t in row_texts] + [1])
    depth = max([len(c) for c in p.cols] + [1])
    lines = []
    if width * m > WIDE:  # one character per cell; the column clues would not fit above their cells
        width, depth = 1, 0
        lines.append(" " * (left + 2) + f"({m} columns: column clues not drawn)")
    for level in range(depth):
        cells = []
        for c in p.cols:
            clue = c if c else (0,)
            k = level - (depth - len(clue))
            cells.append(str(clue[k]).rjust(width - 1).ljust(width) if k >= 0 else " " * width)
        lines.append(" " * (left + 1) + " " + "".join(cells).rstrip())
    lines.append(" " * (left + 1) + "┌" + "─" * (width * m) + "┐")
    for r in range(n):
        cells = "".join(_cell_text(filled, empty, r * m + c, width) for c in range(m))
        lines.append(row_texts[r].rjust(left) + " │" + cells + "│")
    lines.append(" " * (left + 1) + "└" + "─" * (width * m) + "┘")
    return "\n".join(lines) + "\n"


def grid_only(n: int, m: int, filled: int, empty: int = -1) -> str:
    """Just the cells of a grid (every cell not filled is empty unless ``empty`` says otherwise)."""
    full = (1 << (n * m)) - 1
    empty = full & ~filled if empty == -1 else empty
    return "\n".join("".join(_cell_text(filled, empty, r * m + c, 1) for c in range(m)) for r in range(n)) + "\n"
