"""A puzzle: row clues, column clues, perhaps its intended solution and a title; and the error for bad ones.

Pure Python; imports ``clues`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..clues import Grid, grid_clues


class PuzzleError(ValueError):
    """A puzzle that cannot be read or used; ``line`` is 1-based, or None."""

    def __init__(self, message: str, line: int | None = None, source: str = ""):
        self.line = line
        self.source = source
        where = f"{source or 'input'}:{line}: " if line else (f"{source}: " if source else "")
        super().__init__(where + message)
        self.bare = message


@dataclass(frozen=True)
class Puzzle:
    """A nonogram: row clues, column clues, and perhaps its intended solution."""

    rows: tuple  # of Clue, top to bottom
    cols: tuple  # of Clue, left to right
    goal: Grid | None = None
    title: str = ""

    @property
    def n(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def m(self) -> int:
        """Number of columns."""
        return len(self.cols)


def from_grid(grid: Grid, n: int, m: int, title: str = "") -> Puzzle:
    """The puzzle whose clues are those of a grid, with the grid as its goal."""
    rows, cols = grid_clues(grid, n, m)
    return Puzzle(rows, cols, grid, title)
