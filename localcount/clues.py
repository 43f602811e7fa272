"""Grids, lines and clues: the vocabulary of the project, and parse/format pairs.

A *Grid* of n rows and m columns is an int whose bit ``r*m + c`` is cell
(row r, column c): row-major, cell (0, 0) in the least significant bit.
A *Line* of length L is an int whose bit i is cell i of the line (for a row,
i is the column; for a column, i is the row).  A *Clue* is the tuple of the
lengths of the maximal runs of 1s of a line, in order; an empty line has the
empty clue ``()``.

A *variant* names which runs the clues count.  ``nonogram``: every line's
clue counts its runs of 1s.  ``yesnogram`` (OEIS A385862): a row's clue
counts its runs of **0s** (``row_clue``), a column's its runs of 1s.  A
yesnogram row with clue c is the complement of a nonogram row with clue c,
so local logic on it is local logic on the complemented row.

Bottom layer: pure Python, imports nothing from the project.
"""

from __future__ import annotations

Grid = int
Line = int
Clue = tuple
#: The puzzle families: which runs the row clues count (the column clues count runs of 1s in both).
VARIANTS = ("nonogram", "yesnogram")
#: The families whose row clues count runs of 0s: their rows are read complemented (module doc).
ROWS_COUNT_ZEROS = frozenset({"yesnogram"})


def check_variant(variant: str) -> str:
    """The variant, or ValueError naming the known ones."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    return variant


def rows_count_zeros(variant: str) -> bool:
    """Whether a variant's row clues count runs of 0s, so that its rows are read complemented."""
    return check_variant(variant) in ROWS_COUNT_ZEROS


def line_clue(line: Line, length: int) -> Clue:
    """The clue of a line: lengths of its runs of 1s, first cell first."""
    runs = []
    line &= (1 << length) - 1
    while line:
        line >>= (line & -line).bit_length() - 1  # the next run starts at bit 0
        run = (~line & (line + 1)).bit_length() - 1  # its length: the trailing 1s
        runs.append(run)
        line >>= run
    return tuple(runs)


def row_clue(line: Line, length: int, variant: str = "nonogram") -> Clue:
    """The clue of a row in a variant: its runs of 1s (nonogram) or of 0s (yesnogram)."""
    return line_clue(~line & ((1 << length) - 1) if rows_count_zeros(variant) else line, length)


def grid_rows(grid: Grid, n: int, m: int) -> list:
    """The n row lines of a grid, top to bottom."""
    return [grid >> (r * m) & ((1 << m) - 1) for r in range(n)]


def grid_cols(grid: Grid, n: int, m: int) -> list:
    """The m column lines of a grid, left to right (bit r is row r)."""
    if not n or not m:
        return [0] * m
    rows = [bin(row)[:1:-1].ljust(m, "0") for row in grid_rows(grid, n, m)]  # cell c at character c
    return [int("".join(col)[::-1], 2) for col in zip(*rows)]


def grid_from_rows(rows, m: int) -> Grid:
    """The grid whose rows, top to bottom, are the given lines of length m."""
    return sum(int(row) << (r * m) for r, row in enumerate(rows))


def grid_clues(grid: Grid, n: int, m: int, variant: str = "nonogram") -> tuple:
    """(row clues, column clues) of a grid (in a variant: ``row_clue``)."""
    return (
        tuple(row_clue(row, m, variant) for row in grid_rows(grid, n, m)),
        tuple(line_clue(col, n) for col in grid_cols(grid, n, m)),
    )


def parse_grid(text: str) -> tuple:
    """Parse ``"1010/0100/..."`` (rows separated by '/' or newlines) into (grid, n, m)."""
    rows = [r.strip() for r in text.replace("\n", "/").split("/") if r.strip()]
    if not rows:
        return 0, 0, 0
    m = len(rows[0])
    for r, row in enumerate(rows):
        if len(row) != m or set(row) - set("01"):
            raise ValueError(f"grid row {r + 1}: {row!r} is not {m} characters of 0/1")
    return grid_from_rows([int(row[::-1], 2) for row in rows], m), len(rows), m


def format_grid(grid: Grid, n: int, m: int) -> str:
    """Format a grid as ``"1010/0100/..."``, the inverse of parse_grid."""
    return "/".join(format(row, f"0{m}b")[::-1] if m else "" for row in grid_rows(grid, n, m))


def parse_clue(text: str) -> Clue:
    """Parse ``"3 1"`` into (3, 1); ``""`` and ``"0"`` are the empty clue."""
    numbers = [int(tok) for tok in text.split()]
    if any(k < 0 for k in numbers):
        raise ValueError(f"clue {text!r} has a negative number")
    return tuple(k for k in numbers if k)


def format_clue(clue: Clue) -> str:
    """Format a clue as ``"3 1"``; the empty clue is ``"0"``."""
    return " ".join(map(str, clue)) if clue else "0"
