"""Slow, obviously-correct pure-Python reference for local logic.

It literally lists every line pattern with a given clue and applies the
definition: a cell becomes known when every pattern fitting the clue and the
known cells has the same value there; full passes over rows then columns
repeat until a pass changes nothing.  Used only by the tests.

``variant="yesnogram"``: a row's clue is the runs of its 0s (counted here
with ``itertools.groupby``, not through ``localcount``), a column's the
runs of its 1s; everything else is the same definition.
"""

from __future__ import annotations

import functools
import itertools

from localcount.clues import grid_clues, line_clue

UNKNOWN = None


@functools.cache
def all_patterns(length: int, runs_of: int = 1) -> dict:
    """Every line of the given length (tuples of 0/1), grouped by clue (the runs of ``runs_of``)."""
    groups: dict = {}
    for cells in itertools.product((0, 1), repeat=length):
        if runs_of == 1:
            clue = line_clue(sum(v << i for i, v in enumerate(cells)), length)
        else:
            clue = tuple(len(list(run)) for v, run in itertools.groupby(cells) if v == runs_of)
        groups.setdefault(clue, []).append(cells)
    return groups


def patterns(clue: tuple, length: int, runs_of: int = 1) -> list:
    """Every line of the given length whose clue (runs of ``runs_of``) is ``clue``."""
    return all_patterns(length, runs_of).get(tuple(clue), [])


def row_runs(variant: str) -> int:
    """What a row's clue counts: runs of 1s, or of 0s in a yesnogram."""
    assert variant in ("nonogram", "yesnogram"), variant
    return 0 if variant == "yesnogram" else 1


@functools.cache
def line_step(clue: tuple, cells: tuple, runs_of: int = 1):
    """New cells of one line (None = unknown), or None if no pattern fits."""
    fits = [
        pat for pat in patterns(clue, len(cells), runs_of) if all(c is UNKNOWN or c == v for c, v in zip(cells, pat))
    ]
    if not fits:
        return None
    return tuple(values[0] if all(v == values[0] for v in values) else UNKNOWN for values in zip(*fits))


def solve_clues(row_clues, col_clues, variant="nonogram"):
    """Local logic from all-unknown: ('solved'|'stuck'|'contradiction', cells)."""
    n, m, runs = len(row_clues), len(col_clues), row_runs(variant)
    cells = [[UNKNOWN] * m for _ in range(n)]
    while True:
        changed = False
        for r in range(n):
            new = line_step(tuple(row_clues[r]), tuple(cells[r]), runs)
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
    return sum(1 << (r * m + c) for r, row in enumerate(cells) for c, v in enumerate(row) if v is not UNKNOWN)


def clues_of(grid: int, n: int, m: int, variant="nonogram") -> tuple:
    """(row clues, column clues) of a grid in a variant, from the naive run lists (``all_patterns``)."""
    if variant == "nonogram":
        return grid_clues(grid, n, m)
    rows = [tuple(grid >> (r * m + c) & 1 for c in range(m)) for r in range(n)]
    row_clues = tuple(tuple(len(list(run)) for v, run in itertools.groupby(row) if v == 0) for row in rows)
    return row_clues, grid_clues(grid, n, m)[1]


def solve_grid(grid: int, n: int, m: int, variant="nonogram"):
    """(status, known mask) of local logic on the clues of a grid."""
    status, cells = solve_clues(*clues_of(grid, n, m, variant), variant)
    return status, known_mask(cells, m)


def count(n: int, m: int, variant="nonogram") -> int:
    """Number of n×m grids whose clues are locally solvable, by brute force."""
    return sum(solve_grid(g, n, m, variant)[0] == "solved" for g in range(1 << (n * m)))


def _unknown(row_clues, col_clues) -> list:
    """Every cell unknown: rows of cells for these clues."""
    return [[UNKNOWN] * len(col_clues) for _ in row_clues]


def _solved(cells) -> bool:
    """True when no cell is unknown."""
    return all(v is not UNKNOWN for row in cells for v in row)


def _row_pass(cells, row_clues, runs: int) -> None:
    """Every row updated once from its clue (runs of ``runs``), in place."""
    for r, clue in enumerate(row_clues):
        cells[r] = list(line_step(tuple(clue), tuple(cells[r]), runs))


def _column_pass(cells, col_clues) -> None:
    """Every column updated once from its clue, in place."""
    for c, clue in enumerate(col_clues):
        new = line_step(tuple(clue), tuple(row[c] for row in cells))
        for row, v in zip(cells, new):
            row[c] = v


def rounds_to_solve(row_clues, col_clues, variant="nonogram"):
    """Rounds (every row, then every column) until solved, or None if local logic gets stuck."""
    cells, runs = _unknown(row_clues, col_clues), row_runs(variant)
    if _solved(cells):
        return 0
    rounds = 0
    while True:
        rounds += 1
        before = [row[:] for row in cells]
        _row_pass(cells, row_clues, runs)
        if _solved(cells):
            return rounds
        _column_pass(cells, col_clues)
        if _solved(cells):
            return rounds
        if cells == before:
            return None


def steps_to_solve(row_clues, col_clues, variant="nonogram"):
    """Steps (a pass over every row, or over every column, rows first) until solved, or None if local logic gets stuck."""
    cells, runs = _unknown(row_clues, col_clues), row_runs(variant)
    if _solved(cells):
        return 0
    steps, quiet = 0, 0  # quiet: passes in a row that changed nothing
    while quiet < 2:
        steps += 1
        before = [row[:] for row in cells]
        if steps % 2:
            _row_pass(cells, row_clues, runs)
        else:
            _column_pass(cells, col_clues)
        if _solved(cells):
            return steps
        quiet = quiet + 1 if cells == before else 0
    return None


def stuck_at_start(row_clues, col_clues, variant="nonogram") -> bool:
    """True when no line, alone with its clue, has a cell common to all its patterns."""
    runs = row_runs(variant)
    lines = [(clue, len(col_clues), runs) for clue in row_clues] + [(clue, len(row_clues), 1) for clue in col_clues]
    return all(all(v is UNKNOWN for v in line_step(tuple(clue), (UNKNOWN,) * length, of)) for clue, length, of in lines)


def stats(n: int, m: int, variant="nonogram") -> dict:
    """Every measure of ``localcount.engines.stats`` by brute force: a dictionary from clue pairs to grids."""
    by_clues: dict = {}
    for g in range(1 << (n * m)):
        by_clues.setdefault(clues_of(g, n, m, variant), []).append(g)
    out = {"grids": 1 << (n * m), "solvable": 0, "unique": 0, "stuck_start": 0, "rounds": {}, "steps": {}}
    for clues, grids in by_clues.items():
        k = rounds_to_solve(*clues, variant)
        if len(grids) == 1:
            out["unique"] += 1
        if k is not None:
            out["solvable"] += len(grids)
            out["rounds"][k] = out["rounds"].get(k, 0) + len(grids)
            steps = steps_to_solve(*clues, variant)
            out["steps"][steps] = out["steps"].get(steps, 0) + len(grids)
        elif stuck_at_start(*clues, variant):
            out["stuck_start"] += len(grids)
    return out


def shaped(s) -> dict:
    """An engine's ``Stats`` in the shape ``stats`` returns, to compare the two."""
    return {
        "grids": s.grids,
        "solvable": s.solvable,
        "unique": s.unique,
        "stuck_start": s.stuck_start,
        "rounds": {k: v for k, v in enumerate(s.rounds) if v},
        "steps": {k: v for k, v in enumerate(s.steps) if v},
    }


@functools.cache
def numbered(n: int, m: int, variant="nonogram") -> tuple:
    """Every locally solvable n×m grid as (rows, steps), in the order of ``docs/numbering.md``, by brute force.

    The order read literally: all 0/1 grids as tuples of rows, the rows as tuples of cells, sorted
    (``itertools.product`` lists them in exactly that order: the first cell varies slowest).
    """
    out, memo = [], {}
    for cells in itertools.product((0, 1), repeat=n * m):
        rows = tuple(cells[r * m : (r + 1) * m] for r in range(n))
        grid = sum(v << i for i, v in enumerate(cells))  # the Grid mask: bit r*m + c is cell (r, c)
        clues = clues_of(grid, n, m, variant)
        if clues not in memo:
            memo[clues] = steps_to_solve(*clues, variant)
        if memo[clues] is not None:
            out.append((tuple("".join(map(str, row)) for row in rows), memo[clues]))
    return tuple(out)
