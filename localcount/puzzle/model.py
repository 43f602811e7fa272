"""A puzzle: row clues, column clues, perhaps its intended solution, what its file said about it, and the error for bad ones.

A puzzle's ``variant`` (``clues.VARIANTS``) says what its row clues count:
runs of 1s (``nonogram``, the default) or runs of 0s (``yesnogram``); the
column clues count runs of 1s in both.

Pure Python; imports ``clues`` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..clues import Grid, check_variant, grid_clues, rows_count_zeros


class PuzzleError(ValueError):
    """A puzzle that cannot be read or used; ``line`` is 1-based, or None."""

    def __init__(self, message: str, line: int | None = None, source: str = ""):
        self.line = line
        self.source = source
        where = f"{source or 'input'}:{line}: " if line else (f"{source}: " if source else "")
        super().__init__(where + message)
        self.bare = message


#: The text fields a file may carry about a puzzle, in the order files write them.
METADATA = ("catalogue", "title", "author", "copyright", "licence")


class Clued:
    """What every puzzle (black and white or colour) derives from its ``rows`` and ``cols`` clues and its metadata."""

    @property
    def n(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def m(self) -> int:
        """Number of columns."""
        return len(self.cols)

    def metadata(self) -> dict:
        """The non-empty metadata fields, by name, in ``METADATA`` order."""
        return {key: getattr(self, key) for key in METADATA if getattr(self, key)}


@dataclass(frozen=True)
class Puzzle(Clued):
    """A nonogram: row clues, column clues, perhaps its intended solution, its metadata and given cells."""

    rows: tuple  # of Clue, top to bottom
    cols: tuple  # of Clue, left to right
    goal: Grid | None = None
    title: str = ""
    author: str = ""  # who made it (.non ``by``, XML ``<author>``)
    copyright: str = ""  # the copyright notice, as written
    licence: str = ""  # an SPDX identifier such as CC-BY-3.0, or free text
    catalogue: str = ""  # where it comes from: a collection and its number (.non ``catalogue``, XML ``<id>``)
    given_filled: Grid = 0  # cells known filled at the start (Tatham's pre-filled black squares)
    given_empty: Grid = 0  # cells known empty at the start (Tatham's pre-filled white squares)
    variant: str = "nonogram"  # what the row clues count (``clues.VARIANTS``): runs of 1s, or of 0s in a yesnogram

    def __post_init__(self):
        check_variant(self.variant)

    @property
    def yes(self) -> bool:
        """True when the row clues count runs of 0s (a yesnogram): the rows are read complemented."""
        return rows_count_zeros(self.variant)


def from_grid(grid: Grid, n: int, m: int, title: str = "", variant: str = "nonogram") -> Puzzle:
    """The puzzle whose clues are those of a grid (in a variant), with the grid as its goal."""
    rows, cols = grid_clues(grid, n, m, check_variant(variant))
    return Puzzle(rows, cols, grid, title, variant=variant)
