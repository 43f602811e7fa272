"""Hints for a player: the next deduction from the player's own marks, the line that gives it and why, in words.

The player's marks (cells filled, cells crossed, the rest unknown) are taken
as what is known.  A hint is, in this order:

* ``solved``: the filled cells have the puzzle's clues (crosses are not
  needed; a puzzle with several solutions is solved by any of them);
* ``mistakes``: the marks that differ from the solution, when one is known
  (``solution``: local logic's, or the caller's) — a hint never builds on a
  wrong mark;
* ``contradiction``: a line on which no placement of its clue fits the
  marks (with no solution known, the line is all that can be named);
* ``line``: the line that decides the most cells the player has not
  marked — the cells that have one value in every placement of its clue
  that fits its marks, which is local logic's update of that line — ties
  go to rows before columns, then to the lower number;
* ``probe``: no line alone decides a cell, but assuming a cell filled (or
  empty) leads local logic to a contradiction, so it is the other value
  (``probing``, the step after local logic); the line the contradiction
  appears on is named;
* ``stuck``: neither decides anything (within ``seconds`` of probing): the
  puzzle needs a guess from here, or has more than one solution.

A hint names only cells that its line (or its probe) forces: it never
reveals a cell for no reason.  Lines are named as the command line does
("row 3", 1-based), and cells in the words are numbered from 1 along
their line (left to right, top to bottom); ``Hint.filled`` and
``Hint.empty`` hold (row, column) pairs, 0-based.

Black-and-white puzzles of either variant; no numba, no numpy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ... import tuning
from ...clues import format_clue, grid_clues
from .logic import Board, bit_positions, line_options, settle

SOLVED, MISTAKES, CONTRADICTION, LINE, PROBE, STUCK = "solved", "mistakes", "contradiction", "line", "probe", "stuck"


@dataclass(frozen=True)
class Hint:
    """One hint: its ``kind`` (module doc), the line it names ('row 3', or None), the cells it decides
    ((row, column), 0-based), the wrong marks, and the reason in words."""

    kind: str
    line: str | None = None
    filled: tuple = ()
    empty: tuple = ()
    mistakes: tuple = ()
    reason: str = ""


def spans(positions) -> str:
    """1-based cell numbers as words: '2–4', '1 and 5', '1, 3 and 6–8'."""
    runs: list = []
    for p in sorted(positions):
        if runs and runs[-1][1] == p - 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    parts = [f"{a + 1}" if a == b else f"{a + 1}–{b + 1}" for a, b in runs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _cells_phrase(positions, value: str) -> str:
    many = len(positions) > 1
    return f"cell{'s' if many else ''} {spans(positions)} {'are' if many else 'is'} {value}"


def options(clue, length: int, ones: int, zeros: int, complemented: bool) -> tuple:
    """(can0, can1) of a line: the cells that are empty / filled in some placement of its clue fitting its marks
    (``logic.line_options``, remembered: a player asks about the same lines again and again).

    ``complemented``: a yesnogram's row (its clue counts runs of empty cells, ``logic``'s module doc).
    """
    if complemented:
        can1, can0 = line_options(clue, length, zeros, ones)
        return can0, can1
    return line_options(clue, length, ones, zeros)


def line_reason(name: str, clue, length: int, ones: int, zeros: int, new1: int, new0: int, can0: int, can1: int,
                complemented: bool = False) -> str:  # fmt: skip
    """Why a line forces its new cells, in words (``name``: 'row 3')."""
    runs = " (runs of empty cells)" if complemented else ""
    head = f"{name}: clue {format_clue(clue)}{runs} in {length} cell{'' if length == 1 else 's'}"
    marked = (ones | zeros).bit_count()
    if marked:
        head += f" with {marked} marked"
    facts = []
    if new1:
        facts.append(_cells_phrase(list(bit_positions(new1)), "filled"))
    if new0:
        facts.append(_cells_phrase(list(bit_positions(new0)), "empty"))
    what = " and ".join(facts)
    full = (1 << length) - 1
    if not clue:
        return f"{head} — the clue has no run: every cell is {'filled' if complemented else 'empty'}"
    if (can0 & can1) == 0 and (can0 | can1) == full:
        return f"{head} — only one placement fits: {what}"
    return f"{head} — {what} in every placement that fits"


def _lines(board: Board, row_clues, col_clues):
    """(name, clue, length, ones, zeros, complemented, cell of position j) for every row, then every column."""
    n, m = board.n, board.m
    for r in range(n):
        yield f"row {r + 1}", tuple(row_clues[r]), m, board.rows1[r], board.rows0[r], board.yes, (lambda j, r=r: (r, j))
    for c in range(m):
        yield f"column {c + 1}", tuple(col_clues[c]), n, board.cols1[c], board.cols0[c], False, (lambda j, c=c: (j, c))


def _grid_cells(mask: int, m: int) -> tuple:
    return tuple(divmod(p, m) for p in bit_positions(mask))


def next_hint(row_clues, col_clues, filled: int, empty: int, variant: str = "nonogram", solution: int | None = None,
              seconds: float | None = None) -> Hint:  # fmt: skip
    """The hint for the player's marks ``filled`` and ``empty`` (Grid masks, bit r*m + c; disjoint).

    ``solution``: the solution's filled cells (a Grid mask), when the puzzle has one that is known.  ``seconds``:
    the most probing looks for a cell (default ``tuning.HINT_PROBE_SECONDS``).
    """
    n, m = len(row_clues), len(col_clues)
    if filled & empty:
        raise ValueError("a cell is marked both filled and empty")
    board = Board.from_masks(n, m, filled, empty, variant)
    if grid_clues(filled, n, m, variant) == (tuple(map(tuple, row_clues)), tuple(map(tuple, col_clues))):
        return Hint(SOLVED, reason="solved: every row and column has its clue")
    if solution is not None:
        wrong = (filled & ~solution) | (empty & solution)
        if wrong:
            k = wrong.bit_count()
            return Hint(MISTAKES, mistakes=_grid_cells(wrong, m),
                        reason=f"{k} mark{'s are' if k > 1 else ' is'} wrong: {'they' if k > 1 else 'it'} differ"
                               f"{'' if k > 1 else 's'} from the solution")  # fmt: skip
    best = None
    for name, clue, length, ones, zeros, comp, cell in _lines(board, row_clues, col_clues):
        can0, can1 = options(clue, length, ones, zeros, comp)
        if (can0 | can1) != (1 << length) - 1 if length else any(clue):
            return Hint(
                CONTRADICTION,
                line=name,
                reason=f"{name}: no placement of clue {format_clue(clue)} fits its marks: a mark there is wrong",
            )
        new1, new0 = can1 & ~can0 & ~ones, can0 & ~can1 & ~zeros
        gain = (new1 | new0).bit_count()
        if gain and (best is None or gain > best[0]):
            best = (gain, name, clue, length, ones, zeros, new1, new0, can0, can1, comp, cell)
    if best is not None:
        _, name, clue, length, ones, zeros, new1, new0, can0, can1, comp, cell = best
        return Hint(LINE, line=name, filled=tuple(cell(j) for j in bit_positions(new1)),
                    empty=tuple(cell(j) for j in bit_positions(new0)),
                    reason=line_reason(name, clue, length, ones, zeros, new1, new0, can0, can1, comp))  # fmt: skip
    return _probe(board, row_clues, col_clues, tuning.HINT_PROBE_SECONDS if seconds is None else seconds)


def _probe(board: Board, row_clues, col_clues, seconds: float) -> Hint:
    """The first unknown cell (row by row) that one of its two values contradicts, or STUCK."""
    deadline = time.perf_counter() + seconds
    for r in range(board.n):
        for c in bit_positions(board.unknown_in_row(r)):
            for value in (1, 0):
                trial = board.copy()
                trial.set(r, c, value)
                bad = settle(trial, row_clues, col_clues, (r,), (c,))
                if bad is not None:
                    other = "empty" if value else "filled"
                    return Hint(PROBE, filled=() if value else ((r, c),), empty=((r, c),) if value else (),
                                reason=f"no line alone decides a cell here; if row {r + 1}, column {c + 1} were "
                                       f"{'filled' if value else 'empty'}, local logic would find no placement "
                                       f"for {bad}: so it is {other}")  # fmt: skip
            if time.perf_counter() > deadline:
                return Hint(STUCK, reason=f"no line alone decides a cell here, and probing found none in {seconds:g} s")
    return Hint(STUCK, reason="no line alone decides a cell here, and no single cell's value leads to a contradiction: "
                              "the puzzle needs a guess from here, or has more than one solution")  # fmt: skip
