"""What the format modules share: clue numbers and sizes read from text, the variant a file names, one-line
metadata values, and ``check``, which every puzzle read passes.

``check`` (and ``checked``, which names the source in its error) refuses a
clue that is not positive or does not fit its line, row and column clues
that disagree on the filled cells (a yesnogram's row clues count its empty
cells), a goal without the puzzle's clues, and given cells outside the
grid, given both ways or against the goal.  Errors are ``PuzzleError``
with the line number where there is one.

Imports ``model`` and ``clues`` only.
"""

from __future__ import annotations

import re

from ...clues import VARIANTS, Clue, grid_clues
from ..model import Puzzle, PuzzleError


def clue_problem(clue: Clue, length: int) -> str | None:
    """Why a clue cannot fit a line of ``length`` cells, or None if it can."""
    need = sum(clue) + max(0, len(clue) - 1)
    if need > length:
        return f"clue {' '.join(map(str, clue))} needs {need} cells, line has {length}"
    return None


def check(p: Puzzle) -> Puzzle:
    """The puzzle itself if every clue fits its line, the goal has its clues and the given cells fit; PuzzleError otherwise."""
    for kind, clues, length in (("row", p.rows, p.m), ("column", p.cols, p.n)):
        for i, clue in enumerate(clues):
            if any(k < 1 for k in clue):
                raise PuzzleError(f"{kind} {i + 1}: clue numbers must be positive")
            problem = clue_problem(clue, length)
            if problem:
                raise PuzzleError(f"{kind} {i + 1}: {problem}")
    row_cells, col_cells = sum(map(sum, p.rows)), sum(map(sum, p.cols))
    if p.variant == "yesnogram" and row_cells + col_cells != p.n * p.m:
        raise PuzzleError(
            f"the row clues leave {row_cells} cells empty and the column clues fill {col_cells}, "
            f"not the {p.n * p.m} cells of the yesnogram's grid"
        )
    if p.variant != "yesnogram" and row_cells != col_cells:
        cells = f"{row_cells} cell{'' if row_cells == 1 else 's'}"
        raise PuzzleError(f"the row clues fill {cells} but the column clues {col_cells}")
    if p.goal is not None and grid_clues(p.goal, p.n, p.m, p.variant) != (p.rows, p.cols):
        raise PuzzleError("the goal does not have the puzzle's clues")
    return check_givens(p)


def check_givens(p: Puzzle) -> Puzzle:
    """The puzzle itself if its given cells are inside the grid, not both filled and empty, and agree with the goal."""
    if (p.given_filled | p.given_empty) >> (p.n * p.m):
        raise PuzzleError(f"a given cell lies outside the {p.n}x{p.m} grid")
    if p.given_filled & p.given_empty:
        raise PuzzleError("a cell is given both filled and empty")
    if p.goal is not None and (p.given_filled & ~p.goal or p.given_empty & p.goal):
        raise PuzzleError("the given cells do not agree with the goal")
    return p


def clue_numbers(text: str, sep: str, line: int, source: str) -> Clue:
    """A clue from numbers separated by ``sep`` (a regex); '0' and '' are the empty clue."""
    text = text.strip()
    if not text:
        return ()
    parts = [t for t in re.split(sep, text) if t != ""]
    if not all(re.fullmatch(r"\d+", t) for t in parts):
        raise PuzzleError(f"a clue must be whole numbers, got {text!r}", line, source)
    values = tuple(int(t) for t in parts)
    if values == (0,):
        return ()
    if 0 in values:
        raise PuzzleError(f"0 only stands alone, for an empty clue; got {text!r}", line, source)
    return values


def one_line(value: str) -> str:
    """A metadata value fit for a one-line field: line breaks become spaces."""
    return " ".join(value.splitlines()).strip()


def read_size(text: str, line: int, source: str) -> tuple:
    """(rows, cols) from 'n' or 'rows cols'."""
    parts = text.replace("x", " ").split()
    if not 1 <= len(parts) <= 2 or not all(t.isdigit() for t in parts):
        raise PuzzleError(f"the first line must be the size ('n' or 'rows cols'), got {text!r}", line, source)
    n, m = (int(parts[0]), int(parts[-1]))
    return n, m


def read_variant(value: str, line: int | None, source: str) -> str:
    """The variant a file names (case ignored); PuzzleError naming the known ones."""
    variant = value.strip().lower()
    if variant not in VARIANTS:
        raise PuzzleError(f"the variant must be one of {', '.join(VARIANTS)}, got {value.strip()!r}", line, source)
    return variant


def checked(p: Puzzle, source: str) -> Puzzle:
    """``check`` with the source named in the error."""
    try:
        return check(p)
    except PuzzleError as err:
        raise PuzzleError(err.bare, err.line, source) from None


def check_colour_clues(rows, cols, source: str) -> None:
    """PuzzleError if a colour clue needs more cells than its line has."""
    for kind, group, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
        for i, clue in enumerate(group):
            need = sum(size for size, _ in clue) + sum(1 for a, b in zip(clue, clue[1:]) if a[1] == b[1])
            if need > length:
                raise PuzzleError(f"{kind} {i + 1}: the clue needs {need} cells, the line has {length}", None, source)
