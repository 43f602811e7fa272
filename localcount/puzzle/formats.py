"""Puzzle files: read and write single nonograms in five formats, keeping what each file says about its puzzle.

A *Puzzle* (``model.py``) is its row clues (top to bottom), column clues
(left to right), optionally the intended solution (``goal``, a Grid), its
metadata (title, author, copyright, licence, catalogue) and the cells given
at the start (``given_filled``, ``given_empty``).  Formats, each a
parse/format pair:

* ``txt`` (this project's plain text): the size on the first line (``n``
  for a square, or ``rows cols``), then one line per column clue, left to
  right, then one line per row clue, top to bottom; numbers separated by
  spaces (or commas); ``0`` or an empty line is an empty clue.  Text after
  ``//`` is ignored, and a line holding only a comment is skipped, except
  the comments above the size: ``// title: ...``, ``// author: ...``,
  ``// copyright: ...``, ``// licence: ...``, ``// catalogue: ...``.  (Files
  written before these keys began with ``// TITLE``; a first comment line
  with no key is still read as the title.)
* ``non`` (Steve Simpson's ``.non``, as extended by nonogram-db):
  ``width W``, ``height H`` (or ``columns W``, ``rows H``), a ``rows``
  section of H clue lines and a ``columns`` section of W, numbers separated
  by commas, ``0`` or a blank line for an empty clue; ``goal 0110...`` (row
  by row); ``catalogue``, ``title``, ``by``, ``copyright`` and ``license``
  carry the metadata (quoted strings, HTML character references decoded);
  other keywords are ignored.  Colour (nonogram-db's extension of 2015):
  ``color a #ff0000`` lines name a colour by a character, a clue number may
  be followed by its colour's character (``3a,1b``; none: the colour ``1``,
  black), and the goal gives each cell's character (``0`` empty); with more
  than one colour the puzzle is a ``colour.ColourPuzzle``, written back with
  its ``color`` lines (a colour without one gets a hex from a fixed list).
* ``nin`` (Jakub Wilk's ``nonogram`` solver, also exported by webpbn):
  ``W H`` on the first line, then the H row clues, then the W column clues,
  one per line, numbers separated by spaces, ``0`` for an empty clue (blank
  lines are skipped).  Rows come first here, columns first in ``txt``: the
  same text read as the other format is the transposed puzzle.
* ``tatham`` (Simon Tatham's Pattern game ID): ``WxH:`` (or ``N:`` for a
  square) then the W column clues and the H row clues separated by ``/``,
  the numbers of a clue separated by ``.``, an empty field for an empty clue
  (``0`` is read too); optionally ``,`` and the given cells, row by row: each
  letter skips its distance from ``a`` (0-25) of unknown cells, then, unless
  it is ``z`` or the grid has ended, gives one cell, filled for a capital,
  empty for a small letter (as Pattern's ``pattern.c`` reads them).
* ``xml`` (webpbn's XML): a ``<puzzle>`` with ``<clues type="columns">`` and
  ``<clues type="rows">`` of ``<line>`` of ``<count>``; with more than one
  colour besides the background a ``colour.ColourPuzzle`` (written back to
  XML or ``non`` only), else black and white whatever the one colour is called;
  ``<title>``, ``<author>``, ``<copyright>`` and ``<id>`` (the catalogue) of
  the puzzle or else of the ``<puzzleset>``, a ``<note>license: ...</note>``
  (the format has no licence element); colours of 3 or 6 hex digits;
  a ``<solution type="goal">`` image is read when present.

Yesnograms (``Puzzle.variant``; rows count runs of 0s): ``txt`` says so in
a comment above the size, ``// variant: yesnogram``; ``non`` in a keyword
line, ``variant yesnogram``; ``xml`` in an attribute of the puzzle,
``<puzzle type="grid" variant="yesnogram" ...>``.  A file that says
nothing (or ``nonogram``) is a nonogram, and a nonogram is written without
the mark, as before.  ``nin`` and ``tatham`` have no room for it:
``format_puzzle`` refuses to write a yesnogram in them (a reader would take
its row clues for runs of 1s), and read a file of theirs as a yesnogram
only when told (``read``'s ``variant``).  The checks of ``check`` follow
the variant (a yesnogram's row clues count its empty cells).

What a format cannot hold is left out when writing it: metadata in ``nin``
and ``tatham``, the goal in ``txt``, ``nin`` and ``tatham``, given cells in
all but ``tatham``.  ``read`` takes the format from its argument, else the
file's suffix, else the content, and says whether it guessed, so that the
caller can report it (``guessed_message``); a text that is none of the
formats is an error naming them.  Errors are ``PuzzleError`` with the line
number where there is one; the command line turns them into exit status 2.
"""

from __future__ import annotations

import html
import pathlib
import re

from ..clues import VARIANTS, Clue, Grid, grid_clues, grid_rows
from .model import METADATA, Puzzle, PuzzleError, from_grid  # noqa: F401 (METADATA, from_grid: part of this module's API)

FORMATS = ("txt", "non", "nin", "tatham", "xml")
#: The formats that can say a puzzle is a yesnogram (module doc), and how.
VARIANT_MARKS = {"txt": "txt marks a yesnogram with '// variant: yesnogram' above the size",
                 "non": "non marks a yesnogram with a line 'variant yesnogram'",
                 "xml": 'xml marks a yesnogram with <puzzle variant="yesnogram">'}  # fmt: skip
VARIANT_FORMATS = tuple(VARIANT_MARKS)
#: File suffixes that name a format.
SUFFIXES = {".txt": "txt", ".non": "non", ".nin": "nin", ".xml": "xml", ".pbn": "xml", ".pattern": "tatham"}


def clue_problem(clue: Clue, length: int) -> str | None:
    """Why a clue cannot fit a line of ``length`` cells, or None if it can."""
    need = sum(clue) + max(0, len(clue) - 1)
    if need > length:
        return f"clue {' '.join(map(str, clue))} needs {need} cells, line has {length}"
    return None


def check(p: Puzzle) -> Puzzle:
    """The puzzle itself if every clue fits its line, the goal has its clues and the given cells fit; PuzzleError otherwise."""
    for kind, clues, length in (("row", p.rows, p.m), ("column", p.cols, p.n)):
        for i, clue in enumerate(clues):
            if any(k < 1 for k in clue):
                raise PuzzleError(f"{kind} {i + 1}: clue numbers must be positive")
            problem = clue_problem(clue, length)
            if problem:
                raise PuzzleError(f"{kind} {i + 1}: {problem}")
    row_cells, col_cells = sum(map(sum, p.rows)), sum(map(sum, p.cols))
    if p.variant == "yesnogram" and row_cells + col_cells != p.n * p.m:
        raise PuzzleError(
            f"the row clues leave {row_cells} cells empty and the column clues fill {col_cells}, "
            f"not the {p.n * p.m} cells of the yesnogram's grid"
        )
    if p.variant != "yesnogram" and row_cells != col_cells:
        raise PuzzleError(f"the row clues fill {row_cells} cells but the column clues {col_cells}")
    if p.goal is not None and grid_clues(p.goal, p.n, p.m, p.variant) != (p.rows, p.cols):
        raise PuzzleError("the goal does not have the puzzle's clues")
    return check_givens(p)


def check_givens(p: Puzzle) -> Puzzle:
    """The puzzle itself if its given cells are inside the grid, not both filled and empty, and agree with the goal."""
    if (p.given_filled | p.given_empty) >> (p.n * p.m):
        raise PuzzleError(f"a given cell lies outside the {p.n}x{p.m} grid")
    if p.given_filled & p.given_empty:
        raise PuzzleError("a cell is given both filled and empty")
    if p.goal is not None and (p.given_filled & ~p.goal or p.given_empty & p.goal):
        raise PuzzleError("the given cells do not agree with the goal")
    return p


def _numbers(text: str, sep: str, line: int, source: str) -> Clue:
    """A clue from numbers separated by ``sep`` (a regex); '0' and '' are the empty clue."""
    text = text.strip()
    if not text:
        return ()
    parts = [t for t in re.split(sep, text) if t != ""]
    if not all(re.fullmatch(r"\d+", t) for t in parts):
        raise PuzzleError(f"a clue must be whole numbers, got {text!r}", line, source)
    values = tuple(int(t) for t in parts)
    if values == (0,):
        return ()
    if 0 in values:
        raise PuzzleError(f"0 only stands alone, for an empty clue; got {text!r}", line, source)
    return values


def _one_line(value: str) -> str:
    """A metadata value fit for a one-line field: line breaks become spaces."""
    return " ".join(value.splitlines()).strip()


def _size(text: str, line: int, source: str) -> tuple:
    """(rows, cols) from 'n' or 'rows cols'."""
    parts = text.replace("x", " ").split()
    if not 1 <= len(parts) <= 2 or not all(t.isdigit() for t in parts):
        raise PuzzleError(f"the first line must be the size ('n' or 'rows cols'), got {text!r}", line, source)
    n, m = (int(parts[0]), int(parts[-1]))
    return n, m


#: txt comment keys above the size, and the Puzzle field each fills.
TXT_KEYS = {"title": "title", "author": "author", "by": "author", "copyright": "copyright", "licence": "licence",
            "license": "licence", "catalogue": "catalogue", "catalog": "catalogue"}  # fmt: skip


def _variant(value: str, line: int | None, source: str) -> str:
    """The variant a file names (case ignored); PuzzleError naming the known ones."""
    variant = value.strip().lower()
    if variant not in VARIANTS:
        raise PuzzleError(f"the variant must be one of {', '.join(VARIANTS)}, got {value.strip()!r}", line, source)
    return variant


def _txt_metadata(comments: list, source: str = "") -> dict:
    """Puzzle fields from the comment lines above the size ('key: value'; an old first line without a key is the
    title; ``variant: yesnogram`` the variant).  ``comments``: (line number, text) pairs."""
    found = {}
    for k, (i, comment) in enumerate(comments):
        match = re.fullmatch(r"([A-Za-z]+)\s*:\s*(.*)", comment)
        if match and match.group(1).lower() == "variant":
            found["variant"] = _variant(match.group(2), i, source)
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
    n, m = _size(lines[0][1], lines[0][0], source)
    body = lines[1:]
    while len(body) > n + m and not body[-1][1]:
        body.pop()  # trailing blank lines
    if len(body) != n + m:
        last = body[-1][0] if body else lines[0][0]
        raise PuzzleError(f"a {n}x{m} puzzle has {m} column clues and {n} row clues ({n + m} lines), found {len(body)}", last, source)
    clues = [_numbers(t, r"[,\s]+", i, source) for i, t in body]
    return _checked(Puzzle(tuple(clues[m:]), tuple(clues[:m]), **_txt_metadata(header, source)), source)


def format_txt(p: Puzzle) -> str:
    """Write the plain text format (a yesnogram says so on its first line, ``// variant: yesnogram``)."""
    size = f"{p.n}" if p.n == p.m else f"{p.n} {p.m}"
    head = [f"// variant: {p.variant}"] if p.variant != "nonogram" else []
    head += [f"// {key}: {_one_line(value)}" for key, value in p.metadata().items()]
    body = [" ".join(map(str, c)) if c else "0" for c in (*p.cols, *p.rows)]
    return "\n".join(head + [size, *body]) + "\n"


_NON_CLUE = re.compile(r"^\d+[^\d\s,]?(\s*,\s*\d+[^\d\s,]?)*$")
_NON_COLOUR = re.compile(r"(\S)\s+#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})")
#: Colours for .non colour characters that no ``color`` line defines (the format lets the reader choose).
NON_DEFAULT_HEX = ("FF0000", "00A000", "0000FF", "FFA500", "800080", "00CCCC", "A52A2A", "FF69B4", "808080", "CCCC00")
#: .non keywords for metadata, and the Puzzle field each fills.
NON_KEYS = {"catalogue": "catalogue", "title": "title", "by": "author", "copyright": "copyright", "license": "licence"}
_NON_ALIASES = {"catalog": "catalogue", "author": "author", "licence": "licence"}


def _non_value(text: str) -> str:
    """A .non string value: quotes removed, HTML character references decoded."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    return html.unescape(text)


def _non_quoted(key: str, value: str) -> str:
    """A .non string value as written: quoted, with & and " escaped; a licence that is an SPDX-like identifier bare."""
    value = _one_line(value)
    if key == "licence" and re.fullmatch(r"[A-Za-z0-9.+-]+", value):
        return value
    return '"' + value.replace("&", "&amp;").replace('"', "&quot;") + '"'


def _non_section(name: str, entries: list, count: int, start: int, source: str) -> tuple:
    """The clues of a rows/columns section from its lines up to the next keyword: the non-blank ones; if they are too
    few, blank lines are empty clues too, those among the clues first, then those right after the keyword, then those
    before the next keyword."""
    filled = [e for e in entries if e[1]]
    chosen = filled if len(filled) == count else None
    if chosen is None and len(filled) < count:
        marks = [k for k, e in enumerate(entries) if e[1]] or [len(entries)]
        first, last = marks[0], max(marks[-1], marks[0] - 1)
        need = count - (last + 1 - first)
        lead = min(max(need, 0), first)
        if need >= 0 and last + 1 + need - lead <= len(entries):
            chosen = entries[first - lead : last + 1 + need - lead]
    if chosen is None:
        where = max([e[0] for e in filled] or [start])
        blanks = len(entries) - len(filled)
        extra = f" (and {blanks} blank lines)" if blanks else ""
        raise PuzzleError(f"the {name} section has {len(filled)} clues{extra}, expected {count}", where, source)
    return tuple(_non_clue(t, i, source) for i, t in chosen)


def _non_clue(text: str, line: int, source: str) -> tuple:
    """A .non clue as runs (size, colour character): ``3a,1b``; a number without a character has colour ``1``."""
    runs = [re.fullmatch(r"(\d+)(\D?)", t.strip()) for t in text.split(",")] if text.strip() else []
    if not all(runs):
        raise PuzzleError(f"a clue must be whole numbers, each maybe followed by a colour character, got {text!r}", line, source)
    sizes = _numbers(",".join(r.group(1) for r in runs), ",", line, source) if runs else ()
    return tuple(zip(sizes, (r.group(2) or "1" for r in runs)))


def parse_non(text: str, source: str = "") -> Puzzle:
    """Read Steve Simpson's .non format (see module doc)."""
    size: dict = {}
    sections: dict = {}
    meta: dict = {}
    goal_text = None
    current = None
    colours: dict = {}  # character -> hex, from the color lines
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if current is not None and (not line or _NON_CLUE.match(line)):
            sections[current][1].append((i, line))
            continue
        if not line:
            continue
        current = None
        word, rest = (re.split(r"\s+", line, maxsplit=1) + [""])[:2]
        word, rest = word.lower(), rest.strip()
        if word in ("width", "height") or (word in ("rows", "columns") and rest):
            key = {"rows": "height", "columns": "width"}.get(word, word)
            if not rest.isdigit():
                raise PuzzleError(f"{word} must be a whole number, got {rest!r}", i, source)
            size[key] = int(rest)
        elif word in ("rows", "columns"):
            if word in sections:
                raise PuzzleError(f"a second '{word}' section", i, source)
            sections[word] = (i, [])
            current = word
        elif word == "goal":
            goal_text = (i, _non_value(rest))
        elif word == "variant":
            meta["variant"] = _variant(_non_value(rest), i, source)
        elif word in ("color", "colour"):
            found = _NON_COLOUR.fullmatch(rest)
            if not found or found.group(1) in "0,":
                raise PuzzleError(f"a color line is a character and 3 or 6 hex digits (like 'color a #ff0000'), got {rest!r}", i, source)
            colours[found.group(1)] = found.group(2).upper()
        elif word in NON_KEYS or word in _NON_ALIASES:
            meta[NON_KEYS.get(word) or _NON_ALIASES[word]] = _non_value(rest)
    for key in ("width", "height"):
        if key not in size:
            raise PuzzleError(f"no '{key}' line", None, source)
    width, height = size["width"], size["height"]
    clues = {}
    for key, count in (("rows", height), ("columns", width)):
        if key not in sections:
            raise PuzzleError(f"no '{key}' section", None, source)
        clues[key] = _non_section(key, sections[key][1], count, sections[key][0], source)
    used = {ch for group in clues.values() for clue in group for _, ch in clue}
    if len(used) > 1:  # one colour, whatever its character, is a black-and-white puzzle
        if meta.pop("variant", "nonogram") != "nonogram":
            raise PuzzleError("a colour puzzle cannot be a yesnogram", None, source)
        return _non_colour(clues, colours, used, goal_text, width, height, meta, source)
    clues = {key: tuple(tuple(size for size, _ in clue) for clue in group) for key, group in clues.items()}
    goal = None
    if goal_text is not None:
        i, cells = goal_text
        if len(cells) != width * height or set(cells) - {"0", *used, "1"}:
            raise PuzzleError(f"goal must be {width * height} characters of 0/1", i, source)
        goal = sum(1 << k for k, v in enumerate(cells) if v != "0")
    return _checked(Puzzle(clues["rows"], clues["columns"], goal, **meta), source)


def _non_colour(clues: dict, colours: dict, used: set, goal_text, width: int, height: int, meta: dict, source: str):
    """A colour puzzle from a .non file's clues ((size, character) runs): colour 0 the background, then the
    characters of the color lines in their order, then those only the clues use, in sorted order."""
    from .colour import ColourPuzzle, line_clue

    chars = list(colours) + sorted(used - set(colours))
    spare = iter(h for h in NON_DEFAULT_HEX if h not in colours.values())
    hexes = [colours.get(ch) or ("000000" if ch == "1" else next(spare, "808080")) for ch in chars]
    hexes = [h if len(h) == 6 else "".join(x + x for x in h) for h in hexes]
    palette = [("white", ".", "FFFFFF")] + [(_colour_name(h), ch, h) for ch, h in zip(chars, hexes)]
    ids = {ch: k for k, ch in enumerate(chars, 1)}
    rows, cols = (tuple(tuple((size, ids[ch]) for size, ch in clue) for clue in clues[key]) for key in ("rows", "columns"))
    _check_colour_clues(rows, cols, source)
    goal = None
    if goal_text is not None:
        i, cells = goal_text
        if len(cells) != width * height or set(cells) - {"0", *ids}:
            raise PuzzleError(f"goal must be {width * height} characters, each 0 or a colour's character ({''.join(chars)})", i, source)
        goal = tuple(ids.get(ch, 0) for ch in cells)
        if tuple(line_clue(goal[r * width : (r + 1) * width]) for r in range(height)) != rows:
            raise PuzzleError("the goal does not have the row clues", i, source)
    return ColourPuzzle(rows, cols, tuple(palette), goal, **meta)


def _colour_name(hexa: str) -> str:
    """A name for a colour that has only a hex value (.non): black, white, else the hex value itself (#rrggbb)."""
    return {"000000": "black", "FFFFFF": "white"}.get(hexa, "#" + hexa.lower())


def _check_colour_clues(rows, cols, source: str) -> None:
    """PuzzleError if a colour clue needs more cells than its line has."""
    for kind, group, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
        for i, clue in enumerate(group):
            need = sum(size for size, _ in clue) + sum(1 for a, b in zip(clue, clue[1:]) if a[1] == b[1])
            if need > length:
                raise PuzzleError(f"{kind} {i + 1}: the clue needs {need} cells, the line has {length}", None, source)


def _non_chars(palette) -> list:
    """Each colour's character in a .non file: its own where that can be read back (one character, not a digit
    but 1, not a comma, space or '#', not taken), else the first free letter; the background's is 0."""
    out, taken, own = ["0"], set(), {c for _, c, _ in palette}
    for _, ch, _ in palette[1:]:
        if len(ch) != 1 or (ch.isdigit() and ch != "1") or ch.isspace() or ch in ",#" or ch in taken:
            ch = next(x for x in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if x not in taken and x not in own)
        taken.add(ch)
        out.append(ch)
    return out


def _non_colour_lines(p) -> list:
    """The lines of a colour puzzle's .non file after its metadata."""
    chars = _non_chars(p.palette)
    out = [f"color {ch} #{hexa.lower()}" for ch, (_, _, hexa) in zip(chars[1:], p.palette[1:])]
    out += [f"width {p.m}", f"height {p.n}", "", "rows"]
    mark = [ch if ch != "1" else "" for ch in chars]  # a number alone has colour 1
    out += [",".join(f"{size}{mark[k]}" for size, k in c) if c else "0" for c in p.rows]
    out += ["", "columns"]
    out += [",".join(f"{size}{mark[k]}" for size, k in c) if c else "0" for c in p.cols]
    if p.goal is not None:
        out += ["", "goal " + "".join(chars[k] for k in p.goal)]
    return out


def format_non(p: Puzzle) -> str:
    """Write Steve Simpson's .non format (a colour puzzle with nonogram-db's colour extension)."""
    keyword = {field: key for key, field in NON_KEYS.items()}
    out = [f"{keyword[field]} {_non_quoted(field, value)}" for field, value in p.metadata().items()]
    if hasattr(p, "palette"):
        return "\n".join(out + _non_colour_lines(p)) + "\n"
    out += [f"variant {p.variant}"] if p.variant != "nonogram" else []
    out += [f"width {p.m}", f"height {p.n}", "", "rows"]
    out += [",".join(map(str, c)) if c else "0" for c in p.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) if c else "0" for c in p.cols]
    if p.goal is not None:
        out += ["", "goal " + "".join(str(p.goal >> k & 1) for k in range(p.n * p.m))]
    return "\n".join(out) + "\n"


def parse_nin(text: str, source: str = "", variant: str = "nonogram") -> Puzzle:
    """Read the .nin format of Jakub Wilk's solver: 'W H', then the H row clues, then the W column clues (a
    ``variant`` the file cannot say)."""
    lines = [(i, raw.strip()) for i, raw in enumerate(text.splitlines(), 1) if raw.strip()]
    if not lines:
        raise PuzzleError("empty puzzle: expected the width and the height on the first line", None, source)
    first, head = lines[0]
    if not re.fullmatch(r"\d+[ \t]+\d+", head):
        raise PuzzleError(f"the first line must be the width and the height ('W H'), got {head!r}", first, source)
    m, n = map(int, head.split())
    body = lines[1:]
    if len(body) != n + m:
        last = body[-1][0] if body else first
        want = f"a puzzle {m} wide and {n} high has {n} row clues then {m} column clues ({n + m} lines)"
        raise PuzzleError(f"{want}, found {len(body)}", last, source)
    clues = [_numbers(t, r"[ \t]+", i, source) for i, t in body]
    return _checked(Puzzle(tuple(clues[:n]), tuple(clues[n:]), variant=variant), source)


def format_nin(p: Puzzle) -> str:
    """Write the .nin format: width and height, the row clues, the column clues."""
    body = [" ".join(map(str, c)) if c else "0" for c in (*p.rows, *p.cols)]
    return "\n".join([f"{p.m} {p.n}", *body]) + "\n"


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
    clues = [_numbers(f, r"\.", line, source) for f in fields]
    givens = parse_tatham_givens(match.group(4), n * m, line, source) if match.group(4) is not None else (0, 0)
    givens = {"given_filled": givens[0], "given_empty": givens[1]}
    return _checked(Puzzle(tuple(clues[m:]), tuple(clues[:m]), **givens, variant=variant), source)


def format_tatham(p: Puzzle) -> str:
    """Write a Pattern game ID (an empty clue is an empty field: Pattern refuses 0)."""
    body = "/".join(".".join(map(str, c)) for c in (*p.cols, *p.rows))
    givens = format_tatham_givens(p.given_filled, p.given_empty, p.n * p.m) if p.given_filled | p.given_empty else ""
    return f"{p.m}x{p.n}:{body}" + (f",{givens}" if givens else "") + "\n"


def _xml_tree(text: str, source: str) -> tuple:
    """(root element, {id(element): line}) of an XML text; PuzzleError if it is not well-formed."""
    import xml.etree.ElementTree as ET

    class Builder(ET.TreeBuilder):
        line, lines = 1, {}

        def start(self, tag, attrs):
            element = super().start(tag, attrs)
            self.lines[id(element)] = self.line
            return element

    if "<!ENTITY" in text:
        raise PuzzleError("XML entity declarations are not accepted", None, source)
    builder = Builder()
    builder.lines = {}
    parser = ET.XMLParser(target=builder)
    try:
        for k, chunk in enumerate(re.split("(?<=\n)", text), 1):
            builder.line = k
            parser.feed(chunk)
        root = parser.close()
    except ET.ParseError as err:
        raise PuzzleError(f"not well-formed XML ({err.msg if hasattr(err, 'msg') else err})", err.position[0], source) from None
    return root, builder.lines


_XML_COLOUR = re.compile(r"#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
#: XML elements for metadata: the Puzzle field each fills.
XML_KEYS = {"title": "title", "author": "author", "copyright": "copyright", "id": "catalogue"}


def _xml_metadata(puzzle, root) -> dict:
    """Puzzle fields from the <puzzle>'s elements, else its <puzzleset>'s; the licence from a 'license: ...' note."""
    found = {}
    for tag, field in XML_KEYS.items():
        value = puzzle.findtext(tag) if puzzle.find(tag) is not None else root.findtext(tag) if root is not puzzle else None
        if value and value.strip():
            found[field] = value.strip()
    for note in (*puzzle.findall("note"), *(root.findall("note") if root is not puzzle else ())):
        match = re.fullmatch(r"\s*licen[cs]e\s*:\s*(.*?)\s*", note.text or "", re.S | re.I)
        if match and "licence" not in found:
            found["licence"] = match.group(1)
    return found


def parse_xml(text: str, source: str = "") -> Puzzle:
    """Read webpbn's XML (the first <puzzle>; see module doc)."""
    root, lines = _xml_tree(text, source)
    puzzle = root if root.tag == "puzzle" else root.find(".//puzzle")
    if puzzle is None:
        raise PuzzleError("no <puzzle> element", None, source)
    for colour in puzzle.findall("color"):
        if not _XML_COLOUR.fullmatch((colour.text or "").strip()):
            got = f"got {colour.text!r}"
            raise PuzzleError(f"a <color> is 3 or 6 hex digits (like 000 or FFFFFF), {got}", lines.get(id(colour)), source)
    default, background = puzzle.get("defaultcolor", "black"), puzzle.get("backgroundcolor", "white")
    used = {c.get("color") or default for c in puzzle.iter("count")} - {background}
    variant = _variant(puzzle.get("variant", "nonogram"), lines.get(id(puzzle)), source)
    if len(used) > 1:  # one colour besides the background is a black-and-white puzzle, whatever its name
        if variant != "nonogram":
            raise PuzzleError("a colour puzzle cannot be a yesnogram", lines.get(id(puzzle)), source)
        return _parse_xml_colour(puzzle, root, lines, source, default, background)
    clues = {}
    for block in puzzle.findall("clues"):
        kind = block.get("type")
        if kind not in ("rows", "columns"):
            raise PuzzleError(f"<clues type=...> must be rows or columns, got {kind!r}", lines.get(id(block)), source)
        clues[kind] = tuple(_xml_line(line, next(iter(used)) if used else default, lines, source) for line in block.findall("line"))
    for kind in ("rows", "columns"):
        if kind not in clues:
            raise PuzzleError(f'no <clues type="{kind}">', lines.get(id(puzzle)), source)
    rows, cols = clues["rows"], clues["columns"]
    goal = None
    image = puzzle.find("solution[@type='goal']/image")
    if image is None:
        image = puzzle.find("solution/image")
    if image is not None and image.text:
        pic = [r.strip().strip("|") for r in image.text.strip().splitlines() if r.strip()]
        if len(pic) != len(rows) or any(len(r) != len(cols) for r in pic):
            raise PuzzleError(f"the solution image must be {len(rows)} rows of {len(cols)} cells", lines.get(id(image)), source)
        goal = sum(1 << (r * len(cols) + c) for r, row in enumerate(pic) for c, v in enumerate(row) if v not in ".0 ")
    return _checked(Puzzle(rows, cols, goal, **_xml_metadata(puzzle, root), variant=variant), source)


def _xml_line(line, default: str, lines: dict, source: str) -> Clue:
    """The clue of a <line> of <count>s (black only)."""
    counts = []
    for c in line.findall("count"):
        color = c.get("color")
        if color not in (None, "black", default):
            raise PuzzleError(f"only black and white puzzles are supported (a count has color {color!r})", lines.get(id(c)), source)
        if not (c.text or "").strip().isdigit() or int(c.text) < 1:
            raise PuzzleError(f"a <count> must be a positive whole number, got {c.text!r}", lines.get(id(c)), source)
        counts.append(int(c.text))
    return tuple(counts)


def _parse_xml_colour(puzzle, root, lines: dict, source: str, default: str, background: str):
    """A colour puzzle (``colour.ColourPuzzle``) from webpbn XML: the background is colour 0, the others follow
    in the order of their <color> elements."""
    from .colour import ColourPuzzle, line_clue

    defined = [(c.get("name"), c.get("char") or "?", (c.text or "").strip().lstrip("#").upper(), c) for c in puzzle.findall("color")]
    palette = [d for d in defined if d[0] == background] or [(background, ".", "FFFFFF", None)]
    palette += [d for d in defined if d[0] != background]
    ids = {name: k for k, (name, _, _, _) in enumerate(palette)}
    clues = {}
    for block in puzzle.findall("clues"):
        kind = block.get("type")
        if kind not in ("rows", "columns"):
            raise PuzzleError(f"<clues type=...> must be rows or columns, got {kind!r}", lines.get(id(block)), source)
        out = []
        for line in block.findall("line"):
            runs = []
            for c in line.findall("count"):
                name = c.get("color") or default
                if name not in ids or ids[name] == 0:
                    raise PuzzleError(f"a <count> has colour {name!r}, which no <color> defines (or the background)", lines.get(id(c)), source)
                if not (c.text or "").strip().isdigit() or int(c.text) < 1:
                    raise PuzzleError(f"a <count> must be a positive whole number, got {c.text!r}", lines.get(id(c)), source)
                runs.append((int(c.text), ids[name]))
            out.append(tuple(runs))
        clues[kind] = tuple(out)
    for kind in ("rows", "columns"):
        if kind not in clues:
            raise PuzzleError(f'no <clues type="{kind}">', lines.get(id(puzzle)), source)
    rows, cols = clues["rows"], clues["columns"]
    _check_colour_clues(rows, cols, source)
    goal = None
    image = puzzle.find("solution[@type='goal']/image") or puzzle.find("solution/image")
    if image is not None and image.text:
        chars = {ch: k for k, (_, ch, _, _) in enumerate(palette)}
        pic = [r.strip().strip("|") for r in image.text.strip().splitlines() if r.strip()]
        if len(pic) != len(rows) or any(len(r) != len(cols) or set(r) - set(chars) for r in pic):
            raise PuzzleError(f"the solution image must be {len(rows)} rows of {len(cols)} colour characters", lines.get(id(image)), source)
        goal = tuple(chars[ch] for row in pic for ch in row)
        if tuple(line_clue(goal[r * len(cols) : (r + 1) * len(cols)]) for r in range(len(rows))) != rows:
            raise PuzzleError("the solution image does not have the row clues", lines.get(id(image)), source)
    return ColourPuzzle(rows, cols, tuple((name, ch, hexa) for name, ch, hexa, _ in palette), goal, **_xml_metadata(puzzle, root))


def _format_xml_colour(p) -> str:
    """Write a colour puzzle as webpbn XML."""
    from xml.sax.saxutils import escape, quoteattr

    names = [name for name, _, _ in p.palette]
    out = f'<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid" defaultcolor={quoteattr(names[1] if len(names) > 1 else "black")} backgroundcolor={quoteattr(names[0])}>\n'
    tag = {field: key for key, field in XML_KEYS.items()}
    for field in ("title", "author", "copyright", "catalogue"):
        if getattr(p, field):
            out += f"<{tag[field]}>{escape(_one_line(getattr(p, field)))}</{tag[field]}>\n"
    if p.licence:
        out += f"<note>license: {escape(_one_line(p.licence))}</note>\n"
    for name, ch, hexa in p.palette:
        out += f"<color name={quoteattr(name)} char={quoteattr(ch)}>{hexa}</color>\n"
    for kind, clues in (("columns", p.cols), ("rows", p.rows)):
        out += f'<clues type="{kind}">\n'
        for clue in clues:
            out += "<line>" + "".join(f"<count color={quoteattr(names[k])}>{size}</count>" for size, k in clue) + "</line>\n"
        out += "</clues>\n"
    if p.goal is not None:
        chars = [ch for _, ch, _ in p.palette]
        pic = ["|" + "".join(chars[k] for k in p.goal[r * p.m : (r + 1) * p.m]) + "|" for r in range(p.n)]
        out += '<solution type="goal">\n<image>\n' + "\n".join(pic) + "\n</image>\n</solution>\n"
    return out + "</puzzle>\n</puzzleset>\n"


def format_xml(p: Puzzle) -> str:
    """Write webpbn's XML (colours in 6 hex digits, as webpbn's own export writes them)."""
    from xml.sax.saxutils import escape

    if hasattr(p, "palette"):
        return _format_xml_colour(p)

    def block(kind, clues):
        lines = ["".join(f"<count>{k}</count>" for k in c) for c in clues]
        return f'<clues type="{kind}">\n' + "".join(f"<line>{x}</line>\n" for x in lines) + "</clues>\n"

    tag = {field: key for key, field in XML_KEYS.items()}
    variant = f' variant="{p.variant}"' if p.variant != "nonogram" else ""
    out = f'<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid"{variant} defaultcolor="black">\n'
    for field in ("title", "author", "copyright", "catalogue"):
        if getattr(p, field):
            out += f"<{tag[field]}>{escape(_one_line(getattr(p, field)))}</{tag[field]}>\n"
    if p.licence:
        out += f"<note>license: {escape(_one_line(p.licence))}</note>\n"
    out += '<color name="white" char=".">FFFFFF</color>\n<color name="black" char="X">000000</color>\n'
    out += block("columns", p.cols) + block("rows", p.rows)
    if p.goal is not None:
        pic = ["|" + "".join("X" if row >> c & 1 else "." for c in range(p.m)) + "|" for row in grid_rows(p.goal, p.n, p.m)]
        out += '<solution type="goal">\n<image>\n' + "\n".join(pic) + "\n</image>\n</solution>\n"
    return out + "</puzzle>\n</puzzleset>\n"


PARSERS = {"txt": parse_txt, "non": parse_non, "nin": parse_nin, "tatham": parse_tatham, "xml": parse_xml}
FORMATTERS = {"txt": format_txt, "non": format_non, "nin": format_nin, "tatham": format_tatham, "xml": format_xml}


def _checked(p: Puzzle, source: str) -> Puzzle:
    """``check`` with the source named in the error."""
    try:
        return check(p)
    except PuzzleError as err:
        raise PuzzleError(err.bare, err.line, source) from None


def _parse_as(fmt: str, text: str, source: str = "", variant: str | None = None) -> Puzzle:
    """The puzzle of a text in a format; ``variant``: what a format that cannot say it reads (None: nonogram)."""
    if variant is not None and fmt not in VARIANT_FORMATS:
        return PARSERS[fmt](text, source, variant=variant)
    return PARSERS[fmt](text, source)


def _reads_as(fmt: str, text: str, variant: str | None = None) -> bool:
    """True if the text is a puzzle in this format (``variant``: as ``_parse_as``)."""
    try:
        _parse_as(fmt, text, "", variant)
    except PuzzleError:
        return False
    return True


def _size_line(text: str) -> str | None:
    """The first line that is neither blank nor a // comment, without its comment; None if there is none."""
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if line:
            return line
    return None


def content_format(text: str, variant: str | None = None) -> str | None:
    """The format a text looks like, or None; between txt and nin (which read each other's files transposed), nin
    only when the text is a nin puzzle and not a txt one (nin read as a ``variant`` puzzle, if given)."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return "xml"
    if re.match(r"\d+(x\d+)?:", head):
        return "tatham"
    if re.search(r"^[ \t]*((width|height)\s|(rows|columns)[ \t]+\d)", text, re.M | re.I):
        return "non"
    first = _size_line(text)
    if first is None or not re.fullmatch(r"\d+(\s*x\s*\d+|\s+\d+)?", first):
        return None
    if re.fullmatch(r"\d+[ \t]+\d+", first) and _reads_as("nin", text, variant) and not _reads_as("txt", text):
        return "nin"
    return "txt"


def _unknown(text: str, source: str) -> PuzzleError:
    """The error for a text that is none of the formats."""
    empty = " (it is empty)" if not text.strip() else ""
    return PuzzleError(f"could not tell the format of {source or 'the input'}{empty}; these are supported: {', '.join(FORMATS)}")


def guess_format(text: str, name: str = "") -> str:
    """The format of a file, from its suffix, else from its content; PuzzleError if it is none of them."""
    fmt = SUFFIXES.get(pathlib.Path(name).suffix.lower()) or content_format(text)
    if fmt is None:
        raise _unknown(text, name)
    return fmt


def read(text: str, fmt: str | None = None, source: str = "", variant: str | None = None) -> tuple:
    """(puzzle, its format, guessed): ``guessed`` is True when neither ``fmt`` nor the suffix of ``source`` named the
    format and it was told from the content (say so: see ``guessed_message``).

    ``variant`` (None: whatever the file says): the puzzle's variant.  A
    format that cannot say it (nin, tatham) is read as that variant; in the
    others the file says it (no mark: a nonogram), and a file that says the
    other one is a PuzzleError.
    """
    text = text.removeprefix("\ufeff")
    guessed = False
    if fmt is None:
        fmt = SUFFIXES.get(pathlib.Path(source).suffix.lower())
        guessed = fmt is None
        fmt = fmt or content_format(text, variant)
        if fmt is None:
            raise _unknown(text, source)
    if fmt not in PARSERS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    p = _parse_as(fmt, text, source, variant)
    said = getattr(p, "variant", "nonogram")
    if variant is not None and hasattr(p, "palette") and variant != "nonogram":
        raise PuzzleError(f"it is a colour puzzle, not a {variant}", None, source)
    if variant is not None and said != variant:
        how = f" ({VARIANT_MARKS[fmt]})" if variant == "yesnogram" else ""
        raise PuzzleError(f"it is a {said}, not a {variant}{how}", None, source)
    return p, fmt, guessed


def guessed_message(text: str, fmt: str, source: str = "") -> str:
    """The line that reports a guessed format, e.g. 'guessed the format of p: non (give --format to choose)'."""
    other = {"txt": "nin", "nin": "txt"}.get(fmt)
    note = f"{other} would read it transposed; " if other and _reads_as(other, text.removeprefix("\ufeff")) else ""
    return f"guessed the format of {source or 'the input'}: {fmt} ({note}give --format to choose)"


def parse(text: str, fmt: str | None = None, source: str = "") -> Puzzle:
    """A puzzle from text in a format (guessed when None)."""
    return read(text, fmt, source)[0]


def format_puzzle(p: Puzzle, fmt: str) -> str:
    """A puzzle as text in a format."""
    if fmt not in FORMATTERS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    if hasattr(p, "palette") and fmt not in ("xml", "non"):
        raise PuzzleError(f"a colour puzzle can be written as xml or non only, not {fmt}")
    if getattr(p, "variant", "nonogram") != "nonogram" and fmt not in VARIANT_FORMATS:
        raise PuzzleError(f"{fmt} cannot say that a puzzle is a {p.variant} (its rows would read as a nonogram's); "
                          f"write it as {', '.join(VARIANT_FORMATS[:-1])} or {VARIANT_FORMATS[-1]}")  # fmt: skip
    return FORMATTERS[fmt](p)
