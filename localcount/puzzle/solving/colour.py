"""Colour puzzles: the model, local logic, probing and the complete search, with the colour line solver.

A colour puzzle's clues are runs ``(length, colour)`` with colours 1..k
(``palette[k]``; colour 0, ``palette[0]``, is the background).  Runs of
different colours may touch; runs of one colour need a background cell
between them.  What is known of a cell is the mask of colours it may still
take (bit k: colour k), so a board is a list of n·m masks; a line update
is ``lines.colours.line_options`` on the line's masks.  Probing tries every
colour a cell may take: a colour whose try contradicts is dropped, and the
cell keeps what its surviving tries allow together.  The search branches on
a cell with the fewest colours left, probing at every node; every solution
is checked by recomputing its clues.  (Black-and-white puzzles keep the
faster bit-parallel path of ``logic``, ``probing`` and ``search``.)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...lines.colours import line_options
from ..model import Clued
from .probing import Clock, OutOfTime
from .search import BRANCHING, LINE, NO_SOLUTION, PROBING, Search, verdict_of

CONTRADICTION, STUCK, SOLVED = "contradiction", "stuck", "solved"


@dataclass(frozen=True)
class ColourPuzzle(Clued):
    """A colour nonogram: row and column clues of (length, colour) runs, and the palette (name, char, hex) of colours 0..k."""

    rows: tuple
    cols: tuple
    palette: tuple  # ((name, char, hex), ...): colour 0 the background
    goal: tuple | None = None  # colour ids, row by row
    title: str = ""
    author: str = ""
    copyright: str = ""
    licence: str = ""
    catalogue: str = ""


def line_clue(cells) -> tuple:
    """The clue of a line of colour ids: its runs (length, colour) of non-background cells."""
    runs, last, size = [], 0, 0
    for v in list(cells) + [0]:
        if v == last and v:
            size += 1
            continue
        if last:
            runs.append((size, last))
        last, size = v, 1
    return tuple(runs)


def is_solution(p: ColourPuzzle, cells: tuple) -> bool:
    """True when the colouring (ids row by row) has the puzzle's clues."""
    n, m = p.n, p.m
    rows = tuple(line_clue(cells[r * m : (r + 1) * m]) for r in range(n))
    cols = tuple(line_clue(cells[c::m]) for c in range(m)) if n else tuple(() for _ in range(m))
    return rows == tuple(p.rows) and cols == tuple(p.cols)


def _lines(p: ColourPuzzle):
    n, m = p.n, p.m
    rows = [(f"row {r + 1}", p.rows[r], [r * m + c for c in range(m)]) for r in range(n)]
    cols = [(f"column {c + 1}", p.cols[c], [r * m + c for r in range(n)]) for c in range(m)]
    return rows, cols


@dataclass(frozen=True)
class Step:
    """One line update that narrowed cells: the line ("row 3", 1-based) and each changed cell's new mask."""

    line: str
    cells: tuple  # ((cell index r*m + c, its mask of colours left), ...)


def settle(p: ColourPuzzle, board: list, lines=None, steps: list | None = None) -> str | None:
    """Local logic on ``board`` (cell masks, in place) to the fixpoint: None, or the line without a fitting colouring.

    ``steps`` (a list) gets a ``Step`` for every line update that narrowed a cell, in order."""
    rows, cols = _lines(p)
    by_cell_row = [r for r in range(p.n) for _ in range(p.m)]
    by_cell_col = [c for _ in range(p.n) for c in range(p.m)]
    todo_rows, todo_cols = (set(range(p.n)), set(range(p.m))) if lines is None else lines
    while todo_rows or todo_cols:
        for kind, todo, other_todo, owners in (
            ("row", todo_rows, todo_cols, by_cell_col),
            ("col", todo_cols, todo_rows, by_cell_row),
        ):
            group = rows if kind == "row" else cols
            for k in sorted(todo):
                name, clue, cells = group[k]
                can = line_options(clue, [board[i] for i in cells])
                if can is None:
                    return name
                changed = []
                for i, mask in zip(cells, can):
                    if board[i] & mask != board[i]:
                        board[i] &= mask
                        other_todo.add(owners[i])
                        changed.append((i, board[i]))
                if steps is not None and changed:
                    steps.append(Step(name, tuple(changed)))
            todo.clear()
    return None


def _solved(board: list) -> bool:
    return all(mask & (mask - 1) == 0 for mask in board)


def _colours(mask: int) -> list:
    return [k for k in range(mask.bit_length()) if mask >> k & 1]


def probe(p: ColourPuzzle, board: list, clock: Clock | None = None, counts: dict | None = None) -> tuple:
    """Probing on ``board`` (in place): (SOLVED | CONTRADICTION | STUCK, the tries of the best cell to branch on)."""
    m = p.m
    while True:
        progress, best = False, None
        for i, mask in enumerate(board):
            if mask & (mask - 1) == 0:
                continue
            if clock is not None:
                clock.tick()
            tries = []
            for colour in _colours(mask):
                b = list(board)
                b[i] = 1 << colour
                if counts is not None:
                    counts["probes"] = counts.get("probes", 0) + 1
                if settle(p, b, ({i // m}, {i % m})) is None:
                    tries.append(b)
            if not tries:
                return CONTRADICTION, None
            union = [0] * len(board)
            for b in tries:
                union = [u | x for u, x in zip(union, b)]
            if union != board:
                changed = [k for k, (u, x) in enumerate(zip(union, board)) if u != x]
                board[:] = union
                if settle(p, board, ({k // m for k in changed}, {k % m for k in changed})) is not None:
                    return CONTRADICTION, None
                progress = True
                continue
            # branch where fewest colours survive, and among those where a try left the fewest options
            rank = (len(tries), min(sum(x.bit_count() for x in b) for b in tries))
            if best is None or rank < best[0]:
                best = (rank, tries)
        if _solved(board):
            return SOLVED, None
        if not progress:
            return STUCK, None if best is None else best[1]


def search(
    p: ColourPuzzle, limit: int = 2, max_nodes: int | None = None, timeout: float | None = None, progress=None
) -> Search:
    """Every solution up to ``limit`` (as tuples of colour ids), as ``search.search`` does for black and white."""
    clock = Clock(timeout, progress)
    counts = clock.state = {"nodes": 0, "solutions": 0, "depth": 0, "probes": 0}
    out = Search(NO_SOLUTION)
    full = (1 << len(p.palette)) - 1
    root = [full] * (p.n * p.m)
    stack = [(root, 0)] if settle(p, root) is None else []
    while stack:
        board, depth = stack[-1]
        if _solved(board):
            stack.pop()
            cells = tuple(mask.bit_length() - 1 for mask in board)
            if not is_solution(p, cells):
                raise AssertionError("local logic ended in a colouring that is not a solution")
            out.solutions.append(cells)
            counts["solutions"] = len(out.solutions)
            if len(out.solutions) >= limit:
                out.stopped = "limit" if stack else ""
                break
            continue
        out.level = PROBING if out.level == LINE else out.level
        if max_nodes is not None and counts["nodes"] >= max_nodes:
            out.stopped = "nodes"
            break
        counts["nodes"] += 1
        counts["depth"] = depth
        try:
            status, tries = probe(p, board, clock, counts)
        except OutOfTime:
            out.stopped = "time"
            break
        if status == CONTRADICTION:
            stack.pop()
        elif status == STUCK:
            stack.pop()
            out.level = BRANCHING
            stack.extend((b, depth + 1) for b in reversed(tries))
    out.nodes, out.probes, out.seconds = counts["nodes"], counts["probes"], clock.elapsed()
    out.complete = not out.stopped
    out.verdict = verdict_of(len(out.solutions), out.complete)
    return out


def local(p: ColourPuzzle, steps: list | None = None) -> tuple:
    """Local logic from all-unknown: (SOLVED | STUCK | CONTRADICTION, the board, the bad line or None);
    ``steps`` gets every line update that narrowed a cell."""
    board = [(1 << len(p.palette)) - 1] * (p.n * p.m)
    bad = settle(p, board, steps=steps)
    return (CONTRADICTION if bad else SOLVED if _solved(board) else STUCK), board, bad


def draw(p: ColourPuzzle, board: list) -> str:
    """The grid as text: each cell its colour's character ('?' while it may take several)."""
    chars = [c for _, c, _ in p.palette]
    rows = []
    for r in range(p.n):
        rows.append(
            "".join(
                chars[mask.bit_length() - 1] if mask and mask & (mask - 1) == 0 else "?"
                for mask in board[r * p.m : (r + 1) * p.m]
            )
        )
    return "\n".join(rows) + "\n"


def describe_step(p: ColourPuzzle, step: Step) -> str:
    """What a step decided, by colour character and 1-based position along its line, e.g. 'X 3 4 5, . 1;
    2 cells narrowed' (cells that may still take more than one colour are only counted)."""
    along = (lambda i: i % p.m + 1) if step.line.startswith("row") else (lambda i: i // p.m + 1)
    decided: dict = {}
    narrowed = 0
    for i, mask in step.cells:
        if mask & (mask - 1):
            narrowed += 1
        else:
            decided.setdefault(mask.bit_length() - 1, []).append(along(i))
    parts = [f"{p.palette[k][1]} {' '.join(map(str, sorted(where)))}" for k, where in sorted(decided.items())]
    text = ", ".join(parts)
    if narrowed:
        text += ("; " if text else "") + f"{narrowed} cell{'s' if narrowed != 1 else ''} narrowed"
    return text
