"""Solve one puzzle: local logic, then probing, then a complete search for every solution up to a limit.

``local(p)`` runs local logic (``logic.propagate``) from all-unknown and
reports solved, stuck (with the partial grid) or contradiction (naming the
line).  ``search(p, limit)`` decides the rest: at every node it runs local
logic and probing (``probing.probe``); when probing is stuck it branches on
the cell whose tries decided the most (both children are the boards those
tries left), the value whose try decided more first.  A branch ends in a
contradiction or in a full grid; the search stops after ``limit``
solutions, ``max_nodes`` nodes or ``timeout`` seconds.  Every solution it
returns has been checked by recomputing its clues (``is_solution``).

A yesnogram (``p.variant``) is searched the same way: its boards know
their variant (``logic.Board``), so local logic and probing on them, and
on their copies, solve its rows complemented, and ``is_solution``
recomputes its row clues as runs of 0s.

The level a puzzle needs is a difficulty scale: ``line`` (local logic
alone decides it), ``probing`` (local logic and probing, no guess) or
``branching``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...clues import Grid, grid_clues
from ..model import Puzzle
from . import logic
from .probing import Clock, OutOfTime, probe, try_cell

NO_SOLUTION, UNIQUE, MULTIPLE, SOME = "no solution", "unique", "multiple", "at least one"
UNDECIDED = "undecided"
#: Levels of reasoning, weakest first.
LINE, PROBING, BRANCHING = "line", "probing", "branching"


def is_solution(p: Puzzle, grid: Grid) -> bool:
    """True when the grid's clues (in the puzzle's variant) are the puzzle's and it keeps the given cells."""
    if grid & p.given_filled != p.given_filled or grid & p.given_empty:
        return False
    return grid_clues(grid, p.n, p.m, p.variant) == (tuple(p.rows), tuple(p.cols))


def local(p: Puzzle, steps: list | None = None) -> logic.Outcome:
    """Local logic from all-unknown to the fixpoint (``steps`` gets every deduction)."""
    return logic.propagate(p.rows, p.cols, p.given_filled, p.given_empty, steps=steps, variant=p.variant)


@dataclass
class Search:
    """What the complete search found."""

    verdict: str  # NO_SOLUTION, UNIQUE, MULTIPLE (two or more), SOME (one found, the rest not searched) or UNDECIDED
    solutions: list = field(default_factory=list)  # Grids, each verified
    nodes: int = 0  # positions probed (the root is one)
    complete: bool = True  # False when it stopped early (at the limit of solutions, nodes or time)
    level: str = LINE  # LINE, PROBING or BRANCHING: what deciding the puzzle needed
    probes: int = 0  # cells tried by probing
    stopped: str = ""  # "", "limit" (enough solutions), "nodes", "probes" or "time"
    seconds: float = 0.0
    sat_calls: int = 0  # calls of the SAT solver (``sat.search_sat``)
    method: str = "search"  # what decided it: "search", "plain", "sat" or "search+sat" (the search, then SAT)
    root: object = field(default=None, repr=False, compare=False)  # the root Board after probing (for a hand-off)


def search(
    p: Puzzle,
    limit: int = 2,
    max_nodes: int | None = None,
    timeout: float | None = None,
    progress=None,
    max_probes: int | None = None,
) -> Search:
    """Every solution up to ``limit``; gives up after ``max_nodes`` nodes or ``timeout`` seconds.

    ``max_probes``: stop before a node that would start past this many
    probes (the root is always probed, so a search stopped this way has
    branched: ``stopped == "probes"``, ``level == BRANCHING``).

    ``progress(state, seconds)`` is called about once a second while it
    runs, ``state`` a dict with ``nodes``, ``solutions``, ``depth`` and ``probes``.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    clock = Clock(timeout, progress)
    out = Search(NO_SOLUTION)
    counts = clock.state = {"nodes": 0, "solutions": 0, "depth": 0, "probes": 0}
    root = logic.Board.from_masks(
        p.n, p.m, p.given_filled, p.given_empty, p.variant
    )  # givens: Tatham's pre-filled cells
    stack = []
    if not p.given_filled & p.given_empty and logic.settle(root, p.rows, p.cols) is None:
        stack.append((root, 0))
    while stack:
        board, depth = stack[-1]
        if board.solved():
            stack.pop()
            _found(p, board, out, counts)
            if len(out.solutions) >= limit:
                out.stopped = "limit" if stack else ""
                break
            continue
        if out.level == LINE:
            out.level = PROBING
        if max_nodes is not None and counts["nodes"] >= max_nodes:
            out.stopped = "nodes"
            break
        if max_probes is not None and counts["nodes"] and counts["probes"] >= max_probes:
            out.stopped = "probes"
            break
        counts["nodes"] += 1
        counts["depth"] = depth
        try:
            status, branch = probe(board, p.rows, p.cols, clock, counts)
        except OutOfTime:
            counts["nodes"] -= 1  # not finished
            out.stopped = "time"
            break
        if status != logic.STUCK:
            if status == logic.CONTRADICTION:
                stack.pop()
            continue  # a solved board is taken at the top of the loop
        stack.pop()
        out.level = BRANCHING
        if depth == 0:
            out.root = board  # what probing knew at the root
        children = _children(board, branch, p)
        stack.extend((child, depth + 1) for child in reversed(children))  # a stack pops the last: the first child
    out.nodes, out.probes, out.seconds = counts["nodes"], counts["probes"], clock.elapsed()
    out.complete = not out.stopped
    out.verdict = verdict_of(len(out.solutions), out.complete)
    return out


def _found(p: Puzzle, board, out: Search, counts: dict) -> None:
    grid = board.filled()
    if not is_solution(p, grid):  # cannot happen: every line fits its clue
        raise AssertionError(f"local logic ended in a grid that is not a solution: {grid}")
    out.solutions.append(grid)
    counts["solutions"] = len(out.solutions)


def verdict_of(found: int, complete: bool) -> str:
    if complete:
        return NO_SOLUTION if not found else UNIQUE if found == 1 else MULTIPLE
    return UNDECIDED if not found else SOME if found == 1 else MULTIPLE


def _children(board, branch, p: Puzzle) -> list:
    """The boards to search below a stuck one, the more decided first.

    From probing's best Branch; if it has none (every try of its last round
    was implied by an earlier one), the first unknown cell both ways.
    """
    if branch is not None:
        pair = [branch.filled, branch.empty]
    else:
        r = next(r for r in range(p.n) if board.unknown_in_row(r))
        unknown = board.unknown_in_row(r)
        c = (unknown & -unknown).bit_length() - 1
        pair = [try_cell(board, r, c, value, p.rows, p.cols) for value in (1, 0)]
    return sorted((b for b in pair if b is not None), key=lambda b: -b.known_cells())


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


def plain_search(p: Puzzle, limit: int = 2, max_nodes: int | None = None) -> Search:
    """The search without probing (as before probing existed; for comparisons and for scripts/make_examples.py).

    Depth first, local logic at each node (a node is one run of it), branching on an unknown cell of the
    line with the fewest unknown cells, filled first; gives up after ``max_nodes``.
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if max_nodes is not None and max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    out = Search(NO_SOLUTION, method="plain")
    stack = [
        (p.given_filled, p.given_empty, None)
    ]  # known cells, and the lines changed since their fixpoint (None: all)
    while stack:
        if max_nodes is not None and out.nodes >= max_nodes:
            out.complete = False
            break
        filled, empty, dirty = stack.pop()
        o = logic.propagate(p.rows, p.cols, filled, empty, dirty=dirty, variant=p.variant)
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
    out.level = LINE if out.nodes == 1 else BRANCHING
    out.stopped = "" if out.complete else "limit"
    found = len(out.solutions)
    gave_up = max_nodes is not None and out.nodes >= max_nodes and stack and found < limit
    if gave_up:
        out.stopped = "nodes"
        out.verdict = MULTIPLE if found >= 2 else UNDECIDED if not found else SOME
    elif not found:
        out.verdict = NO_SOLUTION
    elif out.complete:
        out.verdict = UNIQUE if found == 1 else MULTIPLE
    else:
        out.verdict = MULTIPLE if found >= 2 else SOME
    return out
