"""The ``tatham`` format: Simon Tatham's Pattern game IDs.

A game ID is ``WxH:`` (or ``N:`` for a square) then the W column clues and
the H row clues separated by ``/``, the numbers of a clue separated by
``.``, an empty field for an empty clue (``0`` is read too); optionally
``,`` and the given cells, row by row: each letter skips its distance from
``a`` (0-25) of unknown cells, then, unless it is ``z`` or the grid has
ended, gives one cell, filled for a capital, empty for a small letter (as
Pattern's ``pattern.c`` reads them).

It cannot say that a puzzle is a yesnogram: ``parse_tatham`` reads one only
when told (its ``variant``).
"""

from __future__ import annotations

import re

from ...clues import Grid
from ..model import Puzzle, PuzzleError
from .common import checked, clue_numbers

_TATHAM = re.compile(r"(\d+)(?:x(\d+))?:([^,]*)(?:,(.*))?", re.S)


def parse_tatham_givens(code: str, cells: int, line: int = 1, source: str = "") -> tuple:
    """(given_filled, given_empty) from the part of a Pattern game ID after the comma (see module doc)."""
    filled = empty = 0
    k = 0
    for ch in code.strip():
        if k >= cells:
            raise PuzzleError(f"the given cells run past the {cells} cells of the grid", line, source)
        if not ("a" <= ch.lower() <= "z"):
            raise PuzzleError(f"the given cells are letters a-z or A-Z, got {ch!r}", line, source)
        k += ord(ch.lower()) - ord("a")
        if k > cells:
            raise PuzzleError(f"the given cells run past the {cells} cells of the grid", line, source)
        if ch.lower() != "z" and k < cells:
            if ch.isupper():
                filled |= 1 << k
            else:
                empty |= 1 << k
            k += 1
    if k < cells:
        raise PuzzleError(f"the given cells cover {k} of the {cells} cells of the grid", line, source)
    return filled, empty


def format_tatham_givens(filled: Grid, empty: Grid, cells: int) -> str:
    """The letters that give these cells, for a Pattern game ID after its comma."""
    out, run = [], 0
    for k in range(cells):
        if (filled | empty) >> k & 1:
            out.append(chr(ord("A" if filled >> k & 1 else "a") + run))
            run = 0
        else:
            run += 1
            if run == 25:
                out.append("z")
                run = 0
    if run:
        out.append(chr(ord("a") + run))
    return "".join(out)


def parse_tatham(text: str, source: str = "", variant: str = "nonogram") -> Puzzle:
    """Read a Pattern game ID 'WxH:cols/rows' with perhaps ',givens' (see module doc; ``variant``: the ID cannot
    say it)."""
    line = 1 + text[: len(text) - len(text.lstrip())].count("\n")
    text = text.strip()
    match = _TATHAM.fullmatch(text)
    if not match:
        raise PuzzleError(f"a Pattern game ID looks like 5x5:2/1.1/.../3, got {text[:40]!r}", line, source)
    m = int(match.group(1))
    n = int(match.group(2) or m)
    body = match.group(3).strip()
    fields = body.split("/") if body or n + m else []
    if len(fields) != n + m:
        raise PuzzleError(f"a {m}x{n} game ID has {n + m} clues separated by '/', found {len(fields)}", line, source)
    clues = [clue_numbers(f, r"\.", line, source) for f in fields]
    givens = parse_tatham_givens(match.group(4), n * m, line, source) if match.group(4) is not None else (0, 0)
    givens = {"given_filled": givens[0], "given_empty": givens[1]}
    return checked(Puzzle(tuple(clues[m:]), tuple(clues[:m]), **givens, variant=variant), source)


def format_tatham(p: Puzzle) -> str:
    """Write a Pattern game ID (an empty clue is an empty field: Pattern refuses 0)."""
    body = "/".join(".".join(map(str, c)) for c in (*p.cols, *p.rows))
    givens = format_tatham_givens(p.given_filled, p.given_empty, p.n * p.m) if p.given_filled | p.given_empty else ""
    return f"{p.m}x{p.n}:{body}" + (f",{givens}" if givens else "") + "\n"
