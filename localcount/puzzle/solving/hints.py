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

Black-and-white puzzles of either variant (``next_hint``), and colour
puzzles (``next_colour_hint``: the same kinds, a cell's mark one colour,
a cross the background, on ``colour``'s line solver); no numba, no numpy.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ... import tuning
from ...clues import format_clue, grid_clues
from ...lines import colours as colour_lines
from . import colour
from .logic import Board, bit_positions, line_options, settle

SOLVED, MISTAKES, CONTRADICTION, LINE, PROBE, STUCK = "solved", "mistakes", "contradiction", "line", "probe", "stuck"


@dataclass(frozen=True)
class Hint:
    """One hint: its ``kind`` (module doc), the line it names ('row 3', or None), the cells it decides
    ((row, column), 0-based), the wrong marks, and the reason in words; a colour puzzle's ``colours``: the colour
    (1, 2, ...) of each cell of ``filled``."""

    kind: str
    line: str | None = None
    filled: tuple = ()
    empty: tuple = ()
    mistakes: tuple = ()
    reason: str = ""
    colours: tuple = ()


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


def _mistakes(wrong: list, m: int) -> Hint:
    k = len(wrong)
    return Hint(MISTAKES, mistakes=tuple(divmod(i, m) for i in wrong),
                reason=f"{k} mark{'s are' if k > 1 else ' is'} wrong: {'they' if k > 1 else 'it'} differ"
                       f"{'' if k > 1 else 's'} from the solution")  # fmt: skip


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
            return _mistakes(list(bit_positions(wrong)), m)
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


# --- colour puzzles ---


def colour_clue_words(clue, palette) -> str:
    """A colour clue in words, each run with its colour's name: '2 red, 1 black' ('0': no run)."""
    return ", ".join(f"{size} {palette[k][0]}" for size, k in clue) or "0"


def _colour_hint_of(p, name: str, clue, idx: list, masks: list, can: list, new: list) -> Hint:
    """The LINE hint of a line whose clue decides cells ``new`` ((position, colour), colour 0 the background)."""
    length = len(idx)
    head = f"{name}: clue {colour_clue_words(clue, p.palette)} in {length} cell{'' if length == 1 else 's'}"
    marked = sum(1 for mask in masks if mask & (mask - 1) == 0)
    if marked:
        head += f" with {marked} marked"
    facts = [_cells_phrase([j for j, k in new if k == colour_id], p.palette[colour_id][0] if colour_id else "empty")
             for colour_id in sorted({k for _, k in new}, key=lambda k: (k == 0, k))]  # fmt: skip
    what = ", ".join(facts[:-1]) + " and " + facts[-1] if len(facts) > 1 else facts[0]
    if not clue:
        reason = f"{head} — the clue has no run: every cell is empty"
    elif all(mask & (mask - 1) == 0 for mask in can):
        reason = f"{head} — only one colouring fits: {what}"
    else:
        reason = f"{head} — {what} in every colouring that fits"
    cell = lambda j: divmod(idx[j], p.m)
    painted = [(j, k) for j, k in new if k]
    return Hint(LINE, line=name, filled=tuple(cell(j) for j, _ in painted), colours=tuple(k for _, k in painted),
                empty=tuple(cell(j) for j, k in new if not k), reason=reason)  # fmt: skip


def next_colour_hint(p, board: list, solution: tuple | None = None, seconds: float | None = None) -> Hint:
    """The hint for a colour puzzle's marks (``p`` a ``colour.ColourPuzzle``): ``board`` a mask of colours per cell,
    row by row (a cell marked colour k: ``1 << k``, crossed: 1, the background; unknown: every colour's bit).

    ``solution``: the solution's colour ids, row by row, when it is known.  The kinds are ``next_hint``'s; a hint's
    ``filled`` cells come with their ``colours``, and the reason names the colours.
    """
    n, m = p.n, p.m
    known = [mask.bit_length() - 1 if mask & (mask - 1) == 0 else None for mask in board]
    if colour.is_solution(p, tuple(k or 0 for k in known)):
        return Hint(SOLVED, reason="solved: every row and column has its clue")
    if solution is not None:
        wrong = [i for i, k in enumerate(known) if k is not None and k != solution[i]]
        if wrong:
            return _mistakes(wrong, m)
    rows = [(f"row {r + 1}", p.rows[r], [r * m + c for c in range(m)]) for r in range(n)]
    cols = [(f"column {c + 1}", p.cols[c], [r * m + c for r in range(n)]) for c in range(m)]
    best = None
    for name, clue, idx in rows + cols:
        masks = [board[i] for i in idx]
        can = colour_lines.line_options(clue, masks)
        if can is None:
            return Hint(CONTRADICTION, line=name, reason=f"{name}: no colouring of clue "
                        f"{colour_clue_words(clue, p.palette)} fits its marks: a mark there is wrong")  # fmt: skip
        new = [(j, can[j].bit_length() - 1) for j in range(len(idx))
               if known[idx[j]] is None and can[j] & (can[j] - 1) == 0]  # fmt: skip
        if new and (best is None or len(new) > len(best[-1])):
            best = (name, clue, idx, masks, can, new)
    if best is not None:
        return _colour_hint_of(p, *best)
    return _colour_probe(p, board, tuning.HINT_PROBE_SECONDS if seconds is None else seconds)


def _colour_probe(p, board: list, seconds: float) -> Hint:
    """The first unknown cell (row by row) that all colours but one contradict, or STUCK."""
    deadline = time.perf_counter() + seconds
    for i, mask in enumerate(board):
        if mask & (mask - 1) == 0:
            continue
        r, c = divmod(i, p.m)
        tries = {}
        for k in range(mask.bit_length()):
            if mask >> k & 1:
                trial = list(board)
                trial[i] = 1 << k
                tries[k] = colour.settle(p, trial, ({r}, {c}))
        left = [k for k, bad in tries.items() if bad is None]
        if len(left) == 1:
            k, names = left[0], [p.palette[j][0] if j else "empty" for j in tries if tries[j] is not None]
            bad = next(b for b in tries.values() if b is not None)
            where = f"row {r + 1}, column {c + 1}"
            return Hint(PROBE, filled=((r, c),) if k else (), colours=(k,) if k else (), empty=() if k else ((r, c),),
                        reason=f"no line alone decides a cell here; if {where} were {' or '.join(names)}, local logic "
                               f"would find no colouring for {bad}: so it is {p.palette[k][0] if k else 'empty'}")  # fmt: skip
        if not left:
            bad = next(iter(tries.values()))
            return Hint(CONTRADICTION, line=bad, reason=f"no colour of {f'row {r + 1}, column {c + 1}'} leaves a "
                        f"colouring for {bad}: a mark is wrong")  # fmt: skip
        if time.perf_counter() > deadline:
            return Hint(STUCK, reason=f"no line alone decides a cell here, and probing found none in {seconds:g} s")
    return Hint(STUCK, reason="no line alone decides a cell here, and no single cell's colour leads to a "
                              "contradiction: the puzzle needs a guess from here, or has more than one solution")  # fmt: skip
