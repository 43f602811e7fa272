"""The ``txt`` format: this project's plain text.

The size on the first line (``n`` for a square, or ``rows cols``), then one
line per column clue, left to right, then one line per row clue, top to
bottom; numbers separated by spaces (or commas); ``0`` or an empty line is
an empty clue.  Text after ``//`` is ignored, and a line holding only a
comment is skipped, except the comments above the size: ``// title: ...``,
``// author: ...``, ``// copyright: ...``, ``// licence: ...``,
``// catalogue: ...``.  (Files written before these keys began with
``// TITLE``; a first comment line with no key is still read as the title.)

A yesnogram says so in a comment above the size, ``// variant: yesnogram``.
"""

from __future__ import annotations

import re

from ..model import Puzzle, PuzzleError
from .common import checked, clue_numbers, one_line, read_size, read_variant

#: txt comment keys above the size, and the Puzzle field each fills.
TXT_KEYS = {"title": "title", "author": "author", "by": "author", "copyright": "copyright", "licence": "licence",
            "license": "licence", "catalogue": "catalogue", "catalog": "catalogue"}  # fmt: skip


def _txt_metadata(comments: list, source: str = "") -> dict:
    """Puzzle fields from the comment lines above the size ('key: value'; an old first line without a key is the
    title; ``variant: yesnogram`` the variant).  ``comments``: (line number, text) pairs."""
    found = {}
    for k, (i, comment) in enumerate(comments):
        match = re.fullmatch(r"([A-Za-z]+)\s*:\s*(.*)", comment)
        if match and match.group(1).lower() == "variant":
            found["variant"] = read_variant(match.group(2), i, source)
        elif match and match.group(1).lower() in TXT_KEYS:
            found[TXT_KEYS[match.group(1).lower()]] = match.group(2).strip()
        elif k == 0 and comment:
            found["legacy title"] = comment
    legacy = found.pop("legacy title", "")
    found.setdefault("title", legacy)
    return found


def parse_txt(text: str, source: str = "") -> Puzzle:
    """Read the plain text format (see module doc)."""
    lines, header = [], []
    for i, raw in enumerate(text.splitlines(), 1):
        if raw.strip().startswith("//"):
            if not any(t for _, t in lines):
                header.append((i, raw.strip()[2:].strip()))
            continue
        lines.append((i, raw.split("//", 1)[0].strip()))
    while lines and not lines[0][1]:
        lines.pop(0)
    if not lines:
        raise PuzzleError("empty puzzle: expected the size on the first line", None, source)
    n, m = read_size(lines[0][1], lines[0][0], source)
    body = lines[1:]
    while len(body) > n + m and not body[-1][1]:
        body.pop()  # trailing blank lines
    if len(body) != n + m:
        last = body[-1][0] if body else lines[0][0]
        raise PuzzleError(
            f"a {n}x{m} puzzle has {m} column clues and {n} row clues ({n + m} lines), found {len(body)}", last, source
        )
    clues = [clue_numbers(t, r"[,\s]+", i, source) for i, t in body]
    return checked(Puzzle(tuple(clues[m:]), tuple(clues[:m]), **_txt_metadata(header, source)), source)


def format_txt(p: Puzzle) -> str:
    """Write the plain text format (a yesnogram says so on its first line, ``// variant: yesnogram``)."""
    size = f"{p.n}" if p.n == p.m else f"{p.n} {p.m}"
    head = [f"// variant: {p.variant}"] if p.variant != "nonogram" else []
    head += [f"// {key}: {one_line(value)}" for key, value in p.metadata().items()]
    body = [" ".join(map(str, c)) if c else "0" for c in (*p.cols, *p.rows)]
    return "\n".join(head + [size, *body]) + "\n"
