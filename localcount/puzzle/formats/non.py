"""The ``non`` format: Steve Simpson's ``.non``, as extended by nonogram-db.

``width W``, ``height H`` (or ``columns W``, ``rows H``), a ``rows``
section of H clue lines and a ``columns`` section of W, numbers separated
by commas, ``0`` or a blank line for an empty clue; ``goal 0110...`` (row
by row); ``catalogue``, ``title``, ``by``, ``copyright`` and ``license``
carry the metadata (quoted strings, HTML character references decoded);
other keywords are ignored.  Colour (nonogram-db's extension of 2015):
``color a #ff0000`` lines name a colour by a character, a clue number may
be followed by its colour's character (``3a,1b``; none: the colour ``1``,
black), and the goal gives each cell's character (``0`` empty); with more
than one colour the puzzle is a ``solving.colour.ColourPuzzle``, written
back with its ``color`` lines (a colour without one gets a hex from a fixed
list).

A yesnogram says so in a keyword line, ``variant yesnogram``.
"""

from __future__ import annotations

import html
import re

from ..model import Puzzle, PuzzleError
from .common import check_colour_clues, checked, clue_numbers, one_line, read_variant

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
    value = one_line(value)
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
        extra = f" (and {blanks} blank line{'' if blanks == 1 else 's'})" if blanks else ""
        clues = f"{len(filled)} clue{'' if len(filled) == 1 else 's'}"
        raise PuzzleError(f"the {name} section has {clues}{extra}, expected {count}", where, source)
    return tuple(_non_clue(t, i, source) for i, t in chosen)


def _non_clue(text: str, line: int, source: str) -> tuple:
    """A .non clue as runs (size, colour character): ``3a,1b``; a number without a character has colour ``1``."""
    runs = [re.fullmatch(r"(\d+)(\D?)", t.strip()) for t in text.split(",")] if text.strip() else []
    if not all(runs):
        raise PuzzleError(
            f"a clue must be whole numbers, each maybe followed by a colour character, got {text!r}", line, source
        )
    sizes = clue_numbers(",".join(r.group(1) for r in runs), ",", line, source) if runs else ()
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
            meta["variant"] = read_variant(_non_value(rest), i, source)
        elif word in ("color", "colour"):
            found = _NON_COLOUR.fullmatch(rest)
            if not found or found.group(1) in "0,":
                raise PuzzleError(
                    f"a color line is a character and 3 or 6 hex digits (like 'color a #ff0000'), got {rest!r}",
                    i,
                    source,
                )
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
    return checked(Puzzle(clues["rows"], clues["columns"], goal, **meta), source)


def _non_colour(clues: dict, colours: dict, used: set, goal_text, width: int, height: int, meta: dict, source: str):
    """A colour puzzle from a .non file's clues ((size, character) runs): colour 0 the background, then the
    characters of the color lines in their order, then those only the clues use, in sorted order."""
    from ..solving.colour import ColourPuzzle, line_clue

    chars = list(colours) + sorted(used - set(colours))
    spare = iter(h for h in NON_DEFAULT_HEX if h not in colours.values())
    hexes = [colours.get(ch) or ("000000" if ch == "1" else next(spare, "808080")) for ch in chars]
    hexes = [h if len(h) == 6 else "".join(x + x for x in h) for h in hexes]
    palette = [("white", ".", "FFFFFF")] + [(_colour_name(h), ch, h) for ch, h in zip(chars, hexes)]
    ids = {ch: k for k, ch in enumerate(chars, 1)}
    rows, cols = (
        tuple(tuple((size, ids[ch]) for size, ch in clue) for clue in clues[key]) for key in ("rows", "columns")
    )
    check_colour_clues(rows, cols, source)
    goal = None
    if goal_text is not None:
        i, cells = goal_text
        if len(cells) != width * height or set(cells) - {"0", *ids}:
            raise PuzzleError(
                f"goal must be {width * height} characters, each 0 or a colour's character ({''.join(chars)})",
                i,
                source,
            )
        goal = tuple(ids.get(ch, 0) for ch in cells)
        if tuple(line_clue(goal[r * width : (r + 1) * width]) for r in range(height)) != rows:
            raise PuzzleError("the goal does not have the row clues", i, source)
    return ColourPuzzle(rows, cols, tuple(palette), goal, **meta)


def _colour_name(hexa: str) -> str:
    """A name for a colour that has only a hex value (.non): black, white, else the hex value itself (#rrggbb)."""
    return {"000000": "black", "FFFFFF": "white"}.get(hexa, "#" + hexa.lower())


def _non_chars(palette) -> list:
    """Each colour's character in a .non file: its own where that can be read back (one character, not a digit
    but 1, not a comma, space or '#', not taken), else the first free letter; the background's is 0."""
    out, taken, own = ["0"], set(), {c for _, c, _ in palette}
    for _, ch, _ in palette[1:]:
        if len(ch) != 1 or (ch.isdigit() and ch != "1") or ch.isspace() or ch in ",#" or ch in taken:
            ch = next(
                x for x in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if x not in taken and x not in own
            )
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
