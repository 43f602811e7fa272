"""Slow, obviously-correct pure-Python reference for local logic.

It literally lists every line pattern with a given clue and applies the
definition: a cell becomes known when every pattern fitting the clue and the
known cells has the same value there; full passes over rows then columns
repeat until a pass changes nothing.  Used only by the tests.
"""

from __future__ import annotations

import functools
import itertools

from localcount.clues import grid_clues, line_clue

UNKNOWN = None


@functools.lru_cache(maxsize=None)
def all_patterns(length: int) -> dict:
    """Every line of the given length (tuples of 0/1), grouped by clue."""
    groups: dict = {}
    for cells in itertools.product((0, 1), repeat=length):
        clue = line_clue(sum(v << i for i, v in enumerate(cells)), length)
        groups.setdefault(clue, []).append(cells)
    return groups


def patterns(clue: tuple, length: int) -> list:
    """Every line of the given length whose clue is ``clue``."""
    return all_patterns(length).get(tuple(clue), [])


@functools.lru_cache(maxsize=None)
def line_step(clue: tuple, cells: tuple):
    """New cells of one line (None = unknown), or None if no pattern fits."""
    fits = [
        pat
        for pat in patterns(clue, len(cells))
        if all(c is UNKNOWN or c == v for c, v in zip(cells, pat))
    ]
    if not fits:
        return None
    return tuple(
        values[0] if all(v == values[0] for v in values) else UNKNOWN for values in zip(*fits)
    )


def solve_clues(row_clues, col_clues):
    """Local logic from all-unknown: ('solved'|'stuck'|'contradiction', cells)."""
    n, m = len(row_clues), len(col_clues)
    cells = [[UNKNOWN] * m for _ in range(n)]
    while True:
        changed = False
        for r in range(n):
            new = line_step(tuple(row_clues[r]), tuple(cells[r]))
            if new is None:
                return "contradiction", cells
            if list(new) != cells[r]:
                cells[r] = list(new)
                changed = True
        for c in range(m):
            new = line_step(tuple(col_clues[c]), tuple(cells[r][c] for r in range(n)))
            if new is None:
                return "contradiction", cells
            for r in range(n):
                if cells[r][c] != new[r]:
                    cells[r][c] = new[r]
                    changed = True
        if not changed:
            break
    solved = all(v is not UNKNOWN for row in cells for v in row)
    return ("solved" if solved else "stuck"), cells


def known_mask(cells, m: int) -> int:
    """Grid-layout bit mask of the known cells."""
    return sum(
        1 << (r * m + c) for r, row in enumerate(cells) for c, v in enumerate(row) if v is not UNKNOWN
    )


def solve_grid(grid: int, n: int, m: int):
    """(status, known mask) of local logic on the clues of a grid."""
    status, cells = solve_clues(*grid_clues(grid, n, m))
    return status, known_mask(cells, m)


def count(n: int, m: int) -> int:
    """Number of n×m grids whose clues are locally solvable, by brute force."""
    return sum(solve_grid(g, n, m)[0] == "solved" for g in range(1 << (n * m)))


def rounds_to_solve(row_clues, col_clues):
    """Rounds (every row, then every column) until solved, or None if local logic gets stuck."""
    n, m = len(row_clues), len(col_clues)
    cells = [[UNKNOWN] * m for _ in range(n)]
    solved = lambda: all(v is not UNKNOWN for row in cells for v in row)  # noqa: E731
    if solved():
        return 0
    rounds = 0
    while True:
        rounds += 1
        before = [row[:] for row in cells]
        for r in range(n):
            cells[r] = list(line_step(tuple(row_clues[r]), tuple(before[r])))
        if solved():
            return rounds
        after_rows = [row[:] for row in cells]
        for c in range(m):
            new = line_step(tuple(col_clues[c]), tuple(after_rows[r][c] for r in range(n)))
            for r in range(n):
                cells[r][c] = new[r]
        if solved():
            return rounds
        if cells == before:
            return None


def steps_to_solve(row_clues, col_clues):
    """Steps (a pass over every row, or over every column, rows first) until solved, or None if local logic gets stuck."""
    n, m = len(row_clues), len(col_clues)
    cells = [[UNKNOWN] * m for _ in range(n)]
    solved = lambda: all(v is not UNKNOWN for row in cells for v in row)  # noqa: E731
    if solved():
        return 0
    steps, quiet = 0, 0  # quiet: passes in a row that changed nothing
    while quiet < 2:
        steps += 1
        before = [row[:] for row in cells]
        if steps % 2:
            for r in range(n):
                cells[r] = list(line_step(tuple(row_clues[r]), tuple(before[r])))
        else:
            for c in range(m):
                new = line_step(tuple(col_clues[c]), tuple(before[r][c] for r in range(n)))
                for r in range(n):
                    cells[r][c] = new[r]
        if solved():
            return steps
        quiet = quiet + 1 if cells == before else 0
    return None


def stuck_at_start(row_clues, col_clues) -> bool:
    """True when no line, alone with its clue, has a cell common to all its patterns."""
    lines = [(clue, len(col_clues)) for clue in row_clues] + [(clue, len(row_clues)) for clue in col_clues]
    return all(all(v is UNKNOWN for v in line_step(tuple(clue), (UNKNOWN,) * length)) for clue, length in lines)


def stats(n: int, m: int) -> dict:
    """Every measure of ``localcount.engines.stats`` by brute force: a dictionary from clue pairs to grids."""
    by_clues: dict = {}
    for g in range(1 << (n * m)):
        by_clues.setdefault(grid_clues(g, n, m), []).append(g)
    out = {"grids": 1 << (n * m), "solvable": 0, "unique": 0, "stuck_start": 0, "rounds": {}, "steps": {}}
    for clues, grids in by_clues.items():
        k = rounds_to_solve(*clues)
        if len(grids) == 1:
            out["unique"] += 1
        if k is not None:
            out["solvable"] += len(grids)
            out["rounds"][k] = out["rounds"].get(k, 0) + len(grids)
            steps = steps_to_solve(*clues)
            out["steps"][steps] = out["steps"].get(steps, 0) + len(grids)
        elif stuck_at_start(*clues):
            out["stuck_start"] += len(grids)
    return out
