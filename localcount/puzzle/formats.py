"""Puzzle files: read and write single nonograms in four formats.

A *Puzzle* is its row clues (top to bottom), column clues (left to right),
and optionally the intended solution (``goal``, a Grid) and a title.
Formats, each a parse/format pair:

* ``txt`` (this project's plain text): the size on the first line (``n``
  for a square, or ``rows cols``), then one line per column clue, left to
  right, then one line per row clue, top to bottom; numbers separated by
  spaces (or commas); ``0`` or an empty line is an empty clue.  Text after
  ``//`` is ignored, and a line holding only a comment is skipped.
* ``non`` (Steve Simpson's ``.non``): ``width W``, ``height H``, a ``rows``
  section of H clue lines and a ``columns`` section of W, numbers separated
  by commas, ``0`` for an empty clue; ``title "..."`` and ``goal 0110...``
  (row by row) are read, other keywords ignored.
* ``tatham`` (Simon Tatham's Pattern game ID): ``WxH:`` then the W column
  clues and the H row clues separated by ``/``, the numbers of a clue
  separated by ``.``; an empty clue is written ``0`` (an empty field is read
  as empty too).
* ``xml`` (webpbn's XML): a ``<puzzle>`` with ``<clues type="columns">`` and
  ``<clues type="rows">`` of ``<line>`` of ``<count>``, black and white only;
  a ``<solution type="goal">`` image is read when present.

Errors are ``PuzzleError`` with the line number where there is one; the
command line turns them into exit status 2.
"""

from __future__ import annotations

import pathlib
import re

from ..clues import Clue, Grid, grid_clues, grid_rows
from .model import Puzzle, PuzzleError, from_grid  # noqa: F401 (from_grid: part of this module's API)

FORMATS = ("txt", "non", "tatham", "xml")
#: File suffixes that name a format.
SUFFIXES = {".txt": "txt", ".non": "non", ".xml": "xml", ".pbn": "xml", ".pattern": "tatham"}


def clue_problem(clue: Clue, length: int) -> str | None:
    """Why a clue cannot fit a line of ``length`` cells, or None if it can."""
    need = sum(clue) + max(0, len(clue) - 1)
    if need > length:
        return f"clue {' '.join(map(str, clue))} needs {need} cells, line has {length}"
    return None


def check(p: Puzzle) -> Puzzle:
    """The puzzle itself if every clue fits its line and the goal has its clues; PuzzleError otherwise."""
    for kind, clues, length in (("row", p.rows, p.m), ("column", p.cols, p.n)):
        for i, clue in enumerate(clues):
            if any(k < 1 for k in clue):
                raise PuzzleError(f"{kind} {i + 1}: clue numbers must be positive")
            problem = clue_problem(clue, length)
            if problem:
                raise PuzzleError(f"{kind} {i + 1}: {problem}")
    if sum(map(sum, p.rows)) != sum(map(sum, p.cols)):
        raise PuzzleError(
            f"the row clues fill {sum(map(sum, p.rows))} cells but the column clues {sum(map(sum, p.cols))}"
        )
    if p.goal is not None and grid_clues(p.goal, p.n, p.m) != (p.rows, p.cols):
        raise PuzzleError("the goal does not have the puzzle's clues")
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


def _size(text: str, line: int, source: str) -> tuple:
    """(rows, cols) from 'n' or 'rows cols'."""
    parts = text.replace("x", " ").split()
    if not 1 <= len(parts) <= 2 or not all(t.isdigit() for t in parts):
        raise PuzzleError(f"the first line must be the size ('n' or 'rows cols'), got {text!r}", line, source)
    n, m = (int(parts[0]), int(parts[-1]))
    return n, m


def parse_txt(text: str, source: str = "") -> Puzzle:
    """Read the plain text format (see module doc)."""
    lines = []
    for i, raw in enumerate(text.splitlines(), 1):
        if raw.strip().startswith("//"):
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
    return _checked(Puzzle(tuple(clues[m:]), tuple(clues[:m])), source)


def format_txt(p: Puzzle) -> str:
    """Write the plain text format."""
    size = f"{p.n}" if p.n == p.m else f"{p.n} {p.m}"
    head = [f"// {p.title}"] if p.title else []
    body = [" ".join(map(str, c)) if c else "0" for c in (*p.cols, *p.rows)]
    return "\n".join(head + [size, *body]) + "\n"


_NON_CLUE = re.compile(r"^\d+(\s*,\s*\d+)*$")


def parse_non(text: str, source: str = "") -> Puzzle:
    """Read Steve Simpson's .non format (see module doc)."""
    width = height = None
    sections: dict = {}
    goal_text = title = None
    current = None
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if current is not None and _NON_CLUE.match(line):
            sections[current].append((i, line))
            continue
        current = None
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("width", "height"):
            if not rest.isdigit():
                raise PuzzleError(f"{word} must be a whole number, got {rest!r}", i, source)
            if word == "width":
                width = int(rest)
            else:
                height = int(rest)
        elif word in ("rows", "columns"):
            if word in sections:
                raise PuzzleError(f"a second '{word}' section", i, source)
            sections[word] = []
            current = word
        elif word == "goal":
            goal_text = (i, rest.strip('"'))
        elif word == "title":
            title = rest.strip('"')
    for key, value in (("width", width), ("height", height)):
        if value is None:
            raise PuzzleError(f"no '{key}' line", None, source)
    for key, count in (("rows", height), ("columns", width)):
        got = sections.get(key)
        if got is None:
            raise PuzzleError(f"no '{key}' section", None, source)
        if len(got) != count:
            where = got[-1][0] if got else None
            raise PuzzleError(f"the {key} section has {len(got)} clues, expected {count}", where, source)
    rows = tuple(_numbers(t, r"\s*,\s*", i, source) for i, t in sections["rows"])
    cols = tuple(_numbers(t, r"\s*,\s*", i, source) for i, t in sections["columns"])
    goal = None
    if goal_text is not None:
        i, cells = goal_text
        if len(cells) != width * height or set(cells) - set("01"):
            raise PuzzleError(f"goal must be {width * height} characters of 0/1", i, source)
        goal = sum(1 << k for k, v in enumerate(cells) if v == "1")
    return _checked(Puzzle(rows, cols, goal, title or ""), source)


def format_non(p: Puzzle) -> str:
    """Write Steve Simpson's .non format."""
    out = [f'title "{p.title}"'] if p.title else []
    out += [f"width {p.m}", f"height {p.n}", "", "rows"]
    out += [",".join(map(str, c)) if c else "0" for c in p.rows]
    out += ["", "columns"]
    out += [",".join(map(str, c)) if c else "0" for c in p.cols]
    if p.goal is not None:
        out += ["", "goal " + "".join(str(p.goal >> k & 1) for k in range(p.n * p.m))]
    return "\n".join(out) + "\n"


def parse_tatham(text: str, source: str = "") -> Puzzle:
    """Read a Pattern game ID 'WxH:cols/rows' (see module doc)."""
    text = text.strip()
    match = re.fullmatch(r"(\d+)x(\d+):(.*)", text, re.S)
    if not match:
        raise PuzzleError(f"a Pattern game ID looks like 5x5:2/1.1/.../3, got {text[:40]!r}", 1, source)
    m, n, body = int(match.group(1)), int(match.group(2)), match.group(3).strip()
    fields = body.split("/") if n + m else []
    if len(fields) != n + m:
        raise PuzzleError(f"a {m}x{n} game ID has {n + m} clues separated by '/', found {len(fields)}", 1, source)
    clues = [_numbers(f, r"\.", 1, source) for f in fields]
    return _checked(Puzzle(tuple(clues[m:]), tuple(clues[:m])), source)


def format_tatham(p: Puzzle) -> str:
    """Write a Pattern game ID."""
    body = "/".join(".".join(map(str, c)) if c else "0" for c in (*p.cols, *p.rows))
    return f"{p.m}x{p.n}:{body}\n"


def parse_xml(text: str, source: str = "") -> Puzzle:
    """Read webpbn's XML (the first <puzzle>; see module doc)."""
    import xml.etree.ElementTree as ET

    if "<!ENTITY" in text:
        raise PuzzleError("XML entity declarations are not accepted", None, source)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as err:
        raise PuzzleError(f"not well-formed XML ({err.msg if hasattr(err, 'msg') else err})", err.position[0], source) from None
    puzzle = root if root.tag == "puzzle" else root.find(".//puzzle")
    if puzzle is None:
        raise PuzzleError("no <puzzle> element", None, source)
    clues = {}
    for block in puzzle.findall("clues"):
        kind = block.get("type")
        if kind not in ("rows", "columns"):
            raise PuzzleError(f"<clues type=...> must be rows or columns, got {kind!r}", None, source)
        lines = []
        for line in block.findall("line"):
            counts = []
            for c in line.findall("count"):
                color = c.get("color")
                if color not in (None, "black", puzzle.get("defaultcolor", "black")):
                    raise PuzzleError(f"only black and white puzzles are supported (a count has color {color!r})", None, source)
                if not (c.text or "").strip().isdigit() or int(c.text) < 1:
                    raise PuzzleError(f"a <count> must be a positive whole number, got {c.text!r}", None, source)
                counts.append(int(c.text))
            lines.append(tuple(counts))
        clues[kind] = tuple(lines)
    for kind in ("rows", "columns"):
        if kind not in clues:
            raise PuzzleError(f'no <clues type="{kind}">', None, source)
    rows, cols = clues["rows"], clues["columns"]
    goal = None
    image = puzzle.find("solution[@type='goal']/image")
    if image is None:
        image = puzzle.find("solution/image")
    if image is not None and image.text:
        pic = [r.strip().strip("|") for r in image.text.strip().splitlines() if r.strip()]
        if len(pic) != len(rows) or any(len(r) != len(cols) for r in pic):
            raise PuzzleError(f"the solution image must be {len(rows)} rows of {len(cols)} cells", None, source)
        goal = sum(1 << (r * len(cols) + c) for r, row in enumerate(pic) for c, v in enumerate(row) if v not in ".0 ")
    title = (puzzle.findtext("title") or "").strip()
    return _checked(Puzzle(rows, cols, goal, title), source)


def format_xml(p: Puzzle) -> str:
    """Write webpbn's XML."""
    from xml.sax.saxutils import escape

    def block(kind, clues):
        lines = ["".join(f"<count>{k}</count>" for k in c) for c in clues]
        return f'<clues type="{kind}">\n' + "".join(f"<line>{x}</line>\n" for x in lines) + "</clues>\n"

    out = '<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid" defaultcolor="black">\n'
    if p.title:
        out += f"<title>{escape(p.title)}</title>\n"
    out += '<color name="white" char=".">fff</color>\n<color name="black" char="X">000</color>\n'
    out += block("columns", p.cols) + block("rows", p.rows)
    if p.goal is not None:
        pic = ["|" + "".join("X" if row >> c & 1 else "." for c in range(p.m)) + "|" for row in grid_rows(p.goal, p.n, p.m)]
        out += '<solution type="goal">\n<image>\n' + "\n".join(pic) + "\n</image>\n</solution>\n"
    return out + "</puzzle>\n</puzzleset>\n"


PARSERS = {"txt": parse_txt, "non": parse_non, "tatham": parse_tatham, "xml": parse_xml}
FORMATTERS = {"txt": format_txt, "non": format_non, "tatham": format_tatham, "xml": format_xml}


def _checked(p: Puzzle, source: str) -> Puzzle:
    """``check`` with the source named in the error."""
    try:
        return check(p)
    except PuzzleError as err:
        raise PuzzleError(err.bare, err.line, source) from None


def guess_format(text: str, name: str = "") -> str:
    """The format of a file, from its suffix, else from its content."""
    suffix = pathlib.Path(name).suffix.lower()
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    head = text.lstrip()
    if head.startswith("<"):
        return "xml"
    if re.match(r"\d+x\d+:", head):
        return "tatham"
    if re.search(r"^\s*(width|height)\s", text, re.M):
        return "non"
    return "txt"


def parse(text: str, fmt: str | None = None, source: str = "") -> Puzzle:
    """A puzzle from text in a format (guessed when None)."""
    fmt = fmt or guess_format(text, source)
    if fmt not in PARSERS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    return PARSERS[fmt](text, source)


def format_puzzle(p: Puzzle, fmt: str) -> str:
    """A puzzle as text in a format."""
    if fmt not in FORMATTERS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    return FORMATTERS[fmt](p)
