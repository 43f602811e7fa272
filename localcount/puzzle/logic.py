"""Local logic on arbitrary clues (not only clues of a known grid).

The counting kernel knows the true grid, so it can never meet a
contradiction.  Given clues alone, a line may have no fitting pattern; this
module reports that as a verdict, naming the line, instead of failing.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..lines.words import line_options

#: Longest line (a limit of the single-puzzle tools, kept until they are tested beyond it).
MAX_LINE = 64

SOLVED, STUCK, CONTRADICTION = "solved", "stuck", "contradiction"


@dataclass(frozen=True)
class Outcome:
    """Result of local logic: verdict, filled and empty cells (Grid bit masks), bad line."""

    status: str
    filled: int
    empty: int
    line: str | None = None  # e.g. "row 3" (1-based) when status is CONTRADICTION

    @property
    def known(self) -> int:
        """Grid-layout mask of the known cells."""
        return self.filled | self.empty


def _row_cells(mask: int, r: int, m: int) -> int:
    """Row r of a Grid mask, as a Line."""
    return mask >> (r * m) & ((1 << m) - 1)


def _col_cells(mask: int, c: int, n: int, m: int) -> int:
    """Column c of a Grid mask, as a Line."""
    return sum((mask >> (r * m + c) & 1) << r for r in range(n))


def _no_fit(can0: int, can1: int, length: int, clue) -> bool:
    """True when no pattern fits: some cell can be neither value (or a clue on a 0-cell line)."""
    return (can0 | can1) != (1 << length) - 1 if length else any(clue)


@dataclass(frozen=True)
class Step:
    """One line update that changed something: the line ("row 3", 1-based) and the cells it decided."""

    line: str
    filled: int  # Grid mask of the cells it found filled
    empty: int  # ... and empty


def propagate(
    row_clues, col_clues, filled: int = 0, empty: int = 0, steps: list | None = None, dirty: tuple | None = None
) -> Outcome:
    """Local logic to the fixpoint (full passes, rows then columns) from the given known cells.

    ``filled``/``empty`` are the Grid masks known at the start (none by
    default); each line update that decides a cell is appended to ``steps``
    when a list is given.  A pass skips the lines none of whose cells changed
    since their last update (a line update is idempotent, so skipping them
    changes neither the result nor the steps); ``dirty`` = (rows, columns)
    names the lines to update first when the start is a fixpoint except for
    those lines (the search sets one cell), else every line is.
    """
    n, m = len(row_clues), len(col_clues)
    if n > MAX_LINE or m > MAX_LINE:
        raise ValueError(f"lines longer than {MAX_LINE} cells are not supported")
    if filled & empty:
        return Outcome(CONTRADICTION, filled, empty, "the start (a cell both filled and empty)")
    rows_todo, cols_todo = (set(range(n)), set(range(m))) if dirty is None else (set(dirty[0]), set(dirty[1]))
    while rows_todo or cols_todo:
        for r in sorted(rows_todo):
            clue = row_clues[r]
            can0, can1 = line_options(clue, m, _row_cells(filled, r, m), _row_cells(empty, r, m))
            if _no_fit(can0, can1, m, clue):
                return Outcome(CONTRADICTION, filled, empty, f"row {r + 1}")
            new_filled = (can1 & ~can0) << (r * m) & ~filled
            new_empty = (can0 & ~can1) << (r * m) & ~empty
            if new_filled or new_empty:
                filled |= new_filled
                empty |= new_empty
                new = (new_filled | new_empty) >> (r * m)
                cols_todo.update(c for c in range(m) if new >> c & 1)
                if steps is not None:
                    steps.append(Step(f"row {r + 1}", new_filled, new_empty))
        rows_todo = set()
        for c in sorted(cols_todo):
            clue = col_clues[c]
            can0, can1 = line_options(clue, n, _col_cells(filled, c, n, m), _col_cells(empty, c, n, m))
            if _no_fit(can0, can1, n, clue):
                return Outcome(CONTRADICTION, filled, empty, f"column {c + 1}")
            new_filled = new_empty = 0
            for r in range(n):
                bit = 1 << (r * m + c)
                if can1 >> r & 1 and not can0 >> r & 1 and not filled & bit:
                    new_filled |= bit
                    rows_todo.add(r)
                elif can0 >> r & 1 and not can1 >> r & 1 and not empty & bit:
                    new_empty |= bit
                    rows_todo.add(r)
            if new_filled or new_empty:
                filled |= new_filled
                empty |= new_empty
                if steps is not None:
                    steps.append(Step(f"column {c + 1}", new_filled, new_empty))
        cols_todo = set()
    status = SOLVED if (filled | empty) == (1 << (n * m)) - 1 else STUCK
    return Outcome(status, filled, empty)
