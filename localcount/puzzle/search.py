"""Solve one puzzle: local logic, then a complete search for every solution up to a limit.

``local(p)`` runs local logic (``logic.propagate``) from all-unknown and
reports solved, stuck (with the partial grid) or contradiction (naming the
line).  ``search(p, limit)`` decides the rest: it branches on an unknown
cell of the line with the fewest unknown cells, filled first, and runs
local logic at every node, so a branch ends in a contradiction or in a
full grid; it stops after ``limit`` solutions.  Every solution it returns
has been checked by recomputing its clues (``is_solution``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import logic
from ..clues import Grid, grid_clues
from .model import Puzzle

NO_SOLUTION, UNIQUE, MULTIPLE, SOME = "no solution", "unique", "multiple", "at least one"
UNDECIDED = "undecided (node limit reached)"


def is_solution(p: Puzzle, grid: Grid) -> bool:
    """True when the grid's clues are the puzzle's."""
    return grid_clues(grid, p.n, p.m) == (tuple(p.rows), tuple(p.cols))


def local(p: Puzzle, steps: list | None = None) -> logic.Outcome:
    """Local logic from all-unknown to the fixpoint (``steps`` gets every deduction)."""
    return logic.propagate(p.rows, p.cols, steps=steps)


@dataclass
class Search:
    """What the complete search found."""

    verdict: str  # NO_SOLUTION, UNIQUE, MULTIPLE (two or more), SOME (one found, the rest not searched) or UNDECIDED
    solutions: list = field(default_factory=list)  # Grids, each verified
    nodes: int = 0  # local-logic runs
    complete: bool = True  # False when it stopped at the limit


def _branch_cell(p: Puzzle, known: int) -> int:
    """An unknown cell (its index r*m + c) of the line with the fewest unknown cells."""
    n, m = p.n, p.m
    best, best_left = None, None
    for r in range(n):
        left = [r * m + c for c in range(m) if not known >> (r * m + c) & 1]
        if left and (best_left is None or len(left) < best_left):
            best, best_left = left[0], len(left)
    for c in range(m):
        left = [r * m + c for r in range(n) if not known >> (r * m + c) & 1]
        if left and len(left) < best_left:
            best, best_left = left[0], len(left)
    return best


def search(p: Puzzle, limit: int = 2, max_nodes: int | None = None) -> Search:
    """Every solution up to ``limit`` (depth first, local logic at each node), giving up after ``max_nodes``."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    out = Search(NO_SOLUTION)
    stack = [(0, 0, None)]  # known cells, and the lines changed since their fixpoint (None: all)
    while stack:
        if max_nodes is not None and out.nodes >= max_nodes:
            out.complete = False
            break
        filled, empty, dirty = stack.pop()
        o = logic.propagate(p.rows, p.cols, filled, empty, dirty=dirty)
        out.nodes += 1
        if o.status == logic.CONTRADICTION:
            continue
        if o.status == logic.SOLVED:
            if not is_solution(p, o.filled):  # cannot happen: every line fits its clue
                raise AssertionError(f"local logic ended in a grid that is not a solution: {o.filled}")
            out.solutions.append(o.filled)
            if len(out.solutions) >= limit:
                out.complete = not stack
                break
            continue
        cell = _branch_cell(p, o.known)
        bit, lines = 1 << cell, ((cell // p.m,), (cell % p.m,))
        stack.append((o.filled, o.empty | bit, lines))  # empty second ...
        stack.append((o.filled | bit, o.empty, lines))  # ... filled first (a stack pops the last)
    found = len(out.solutions)
    gave_up = max_nodes is not None and out.nodes >= max_nodes and stack and found < limit
    if gave_up:
        out.verdict = MULTIPLE if found >= 2 else UNDECIDED if not found else SOME
    elif not found:
        out.verdict = NO_SOLUTION
    elif out.complete:
        out.verdict = UNIQUE if found == 1 else MULTIPLE
    else:
        out.verdict = MULTIPLE if found >= 2 else SOME
    return out
