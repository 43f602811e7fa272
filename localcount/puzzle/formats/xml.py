"""The ``xml`` format: webpbn's XML.

A ``<puzzle>`` with ``<clues type="columns">`` and ``<clues type="rows">``
of ``<line>`` of ``<count>``; with more than one colour besides the
background a ``solving.colour.ColourPuzzle`` (written back to XML or
``non`` only), else black and white whatever the one colour is called;
``<title>``, ``<author>``, ``<copyright>`` and ``<id>`` (the catalogue) of
the puzzle or else of the ``<puzzleset>``, a ``<note>license: ...</note>``
(the format has no licence element); colours of 3 or 6 hex digits; a
``<solution type="goal">`` image is read when present.

A yesnogram says so in an attribute of the puzzle,
``<puzzle type="grid" variant="yesnogram" ...>``.  The text is parsed by
``defusedxml``, which refuses entity declarations and external references
(no billion laughs, no reading of other files); a ``<!DOCTYPE>`` naming a
DTD is accepted (the DTD is not read).
"""

from __future__ import annotations

import re

from ...clues import Clue, grid_rows
from ..model import Puzzle, PuzzleError
from .common import check_colour_clues, checked, one_line, read_variant


def _xml_tree(text: str, source: str) -> tuple:
    """(root element, {id(element): line}) of an XML text, parsed by ``defusedxml``; PuzzleError if it is not
    well-formed, or declares entities or refers to external ones."""
    import xml.etree.ElementTree as ET

    from defusedxml import DTDForbidden, EntitiesForbidden, ExternalReferenceForbidden
    from defusedxml.ElementTree import DefusedXMLParser

    class Builder(ET.TreeBuilder):
        line, lines = 1, {}

        def start(self, tag, attrs):
            element = super().start(tag, attrs)
            self.lines[id(element)] = self.line
            return element

    builder = Builder()
    builder.lines = {}
    # defusedxml's parser, as its fromstring uses it (DTDs allowed, entities and external references refused),
    # with a target that notes the line of each element
    parser = DefusedXMLParser(target=builder)
    try:
        for k, chunk in enumerate(re.split("(?<=\n)", text), 1):
            builder.line = k
            parser.feed(chunk)
        root = parser.close()
    except ET.ParseError as err:
        raise PuzzleError(
            f"not well-formed XML ({err.msg if hasattr(err, 'msg') else err})", err.position[0], source
        ) from None
    except EntitiesForbidden as err:
        raise PuzzleError(
            f"XML entity declarations are not accepted (entity {err.name!r})", builder.line, source
        ) from None
    except ExternalReferenceForbidden as err:
        raise PuzzleError(f"XML external references are not accepted ({err.sysid!r})", builder.line, source) from None
    except DTDForbidden as err:
        raise PuzzleError(
            f"XML document type declarations are not accepted ({err.name!r})", builder.line, source
        ) from None
    return root, builder.lines


_XML_COLOUR = re.compile(r"#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
#: XML elements for metadata: the Puzzle field each fills.
XML_KEYS = {"title": "title", "author": "author", "copyright": "copyright", "id": "catalogue"}


def _xml_metadata(puzzle, root) -> dict:
    """Puzzle fields from the <puzzle>'s elements, else its <puzzleset>'s; the licence from a 'license: ...' note."""
    found = {}
    for tag, field in XML_KEYS.items():
        value = (
            puzzle.findtext(tag) if puzzle.find(tag) is not None else root.findtext(tag) if root is not puzzle else None
        )
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
            raise PuzzleError(
                f"a <color> is 3 or 6 hex digits (like 000 or FFFFFF), {got}", lines.get(id(colour)), source
            )
    default, background = puzzle.get("defaultcolor", "black"), puzzle.get("backgroundcolor", "white")
    used = {c.get("color") or default for c in puzzle.iter("count")} - {background}
    variant = read_variant(puzzle.get("variant", "nonogram"), lines.get(id(puzzle)), source)
    if len(used) > 1:  # one colour besides the background is a black-and-white puzzle, whatever its name
        if variant != "nonogram":
            raise PuzzleError("a colour puzzle cannot be a yesnogram", lines.get(id(puzzle)), source)
        return _parse_xml_colour(puzzle, root, lines, source, default, background)
    clues = {}
    for block in puzzle.findall("clues"):
        kind = block.get("type")
        if kind not in ("rows", "columns"):
            raise PuzzleError(f"<clues type=...> must be rows or columns, got {kind!r}", lines.get(id(block)), source)
        clues[kind] = tuple(
            _xml_line(line, next(iter(used)) if used else default, lines, source) for line in block.findall("line")
        )
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
            raise PuzzleError(
                f"the solution image must be {len(rows)} rows of {len(cols)} cells", lines.get(id(image)), source
            )
        goal = sum(1 << (r * len(cols) + c) for r, row in enumerate(pic) for c, v in enumerate(row) if v not in ".0 ")
    return checked(Puzzle(rows, cols, goal, **_xml_metadata(puzzle, root), variant=variant), source)


def _xml_line(line, default: str, lines: dict, source: str) -> Clue:
    """The clue of a <line> of <count>s (black only)."""
    counts = []
    for c in line.findall("count"):
        color = c.get("color")
        if color not in (None, "black", default):
            raise PuzzleError(
                f"only black and white puzzles are supported (a count has color {color!r})", lines.get(id(c)), source
            )
        if not (c.text or "").strip().isdigit() or int(c.text) < 1:
            raise PuzzleError(f"a <count> must be a positive whole number, got {c.text!r}", lines.get(id(c)), source)
        counts.append(int(c.text))
    return tuple(counts)


def _parse_xml_colour(puzzle, root, lines: dict, source: str, default: str, background: str):
    """A colour puzzle (``colour.ColourPuzzle``) from webpbn XML: the background is colour 0, the others follow
    in the order of their <color> elements."""
    from ..solving.colour import ColourPuzzle, line_clue

    defined = [
        (c.get("name"), c.get("char") or "?", (c.text or "").strip().lstrip("#").upper(), c)
        for c in puzzle.findall("color")
    ]
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
                    raise PuzzleError(
                        f"a <count> has colour {name!r}, which no <color> defines (or the background)",
                        lines.get(id(c)),
                        source,
                    )
                if not (c.text or "").strip().isdigit() or int(c.text) < 1:
                    raise PuzzleError(
                        f"a <count> must be a positive whole number, got {c.text!r}", lines.get(id(c)), source
                    )
                runs.append((int(c.text), ids[name]))
            out.append(tuple(runs))
        clues[kind] = tuple(out)
    for kind in ("rows", "columns"):
        if kind not in clues:
            raise PuzzleError(f'no <clues type="{kind}">', lines.get(id(puzzle)), source)
    rows, cols = clues["rows"], clues["columns"]
    check_colour_clues(rows, cols, source)
    goal = None
    image = puzzle.find("solution[@type='goal']/image") or puzzle.find("solution/image")
    if image is not None and image.text:
        chars = {ch: k for k, (_, ch, _, _) in enumerate(palette)}
        pic = [r.strip().strip("|") for r in image.text.strip().splitlines() if r.strip()]
        if len(pic) != len(rows) or any(len(r) != len(cols) or set(r) - set(chars) for r in pic):
            raise PuzzleError(
                f"the solution image must be {len(rows)} rows of {len(cols)} colour characters",
                lines.get(id(image)),
                source,
            )
        goal = tuple(chars[ch] for row in pic for ch in row)
        if tuple(line_clue(goal[r * len(cols) : (r + 1) * len(cols)]) for r in range(len(rows))) != rows:
            raise PuzzleError("the solution image does not have the row clues", lines.get(id(image)), source)
    return ColourPuzzle(
        rows, cols, tuple((name, ch, hexa) for name, ch, hexa, _ in palette), goal, **_xml_metadata(puzzle, root)
    )


def _format_xml_colour(p) -> str:
    """Write a colour puzzle as webpbn XML."""
    from xml.sax.saxutils import escape, quoteattr

    names = [name for name, _, _ in p.palette]
    out = f'<?xml version="1.0"?>\n<puzzleset>\n<puzzle type="grid" defaultcolor={quoteattr(names[1] if len(names) > 1 else "black")} backgroundcolor={quoteattr(names[0])}>\n'
    tag = {field: key for key, field in XML_KEYS.items()}
    for field in ("title", "author", "copyright", "catalogue"):
        if getattr(p, field):
            out += f"<{tag[field]}>{escape(one_line(getattr(p, field)))}</{tag[field]}>\n"
    if p.licence:
        out += f"<note>license: {escape(one_line(p.licence))}</note>\n"
    for name, ch, hexa in p.palette:
        out += f"<color name={quoteattr(name)} char={quoteattr(ch)}>{hexa}</color>\n"
    for kind, clues in (("columns", p.cols), ("rows", p.rows)):
        out += f'<clues type="{kind}">\n'
        for clue in clues:
            out += (
                "<line>"
                + "".join(f"<count color={quoteattr(names[k])}>{size}</count>" for size, k in clue)
                + "</line>\n"
            )
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
            out += f"<{tag[field]}>{escape(one_line(getattr(p, field)))}</{tag[field]}>\n"
    if p.licence:
        out += f"<note>license: {escape(one_line(p.licence))}</note>\n"
    out += '<color name="white" char=".">FFFFFF</color>\n<color name="black" char="X">000000</color>\n'
    out += block("columns", p.cols) + block("rows", p.rows)
    if p.goal is not None:
        pic = [
            "|" + "".join("X" if row >> c & 1 else "." for c in range(p.m)) + "|" for row in grid_rows(p.goal, p.n, p.m)
        ]
        out += '<solution type="goal">\n<image>\n' + "\n".join(pic) + "\n</image>\n</solution>\n"
    return out + "</puzzle>\n</puzzleset>\n"
