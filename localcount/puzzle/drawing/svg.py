"""Pictures of one puzzle as SVG text, for Jupyter (``_repr_svg_``) and the web page; no dependency.

``puzzle`` draws a black-and-white puzzle (``model.Puzzle``) and what is known of it: the column clues
stacked above the grid, the row clues to its left (one ``<text>`` per number, in the order of the text
drawing; an empty clue is ``0``), filled cells black, empty cells white with a small dot, unknown cells
shaded grey, thin rules between cells and heavy ones every 5 cells; the title, and a note for a
yesnogram, as captions above.  ``colour_puzzle`` draws a colour puzzle (duck typed: ``rows``, ``cols``,
``palette``, ``title``; clues of ``(length, colour)`` runs) and a board of colour masks: each clue
number in its colour (light colours outlined), each decided cell in its colour (the background with a
dot), cells that may still take several colours shaded grey.

Every size comes from ``Frame`` (``frame``): the cell side (widened when a column's numbers need it),
the width of the row-clue area and the height of the caption and column-clue areas.  The output is the
same bytes for the same input; cells are grouped by what they show (``<g class="filled">``, ``"empty"``,
``"unknown"``, ``"colour-K"``, ``"none"``, outlines in ``"marked"``), clues in ``<g class="row-clues">`` and ``"column-clues"``.

Imports the standard library and ``clues`` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ...clues import Grid

SVG_NS = "http://www.w3.org/2000/svg"
#: Default side of a cell, in pixels (the cell is wider where a column's numbers need it).
CELL = 20
#: Fills: unknown cells, a colour cell that no colour fits, the dot of an empty cell, thin and heavy rules.
UNKNOWN_FILL, NONE_FILL, DOT_FILL, THIN, HEAVY = "#c8c8c8", "#f4b4b4", "#808080", "#a0a0a0", "#000000"
#: The outline of a marked cell (``puzzle``'s ``marked``: e.g. the cells local logic leaves unknown in a solution).
MARK = "#E07000"
#: Heavy rules every this many cells, as on paper.
BLOCK = 5
#: A note under the title for the puzzle families whose clues read differently (by ``variant``).
VARIANT_NOTES = {"yesnogram": "yesnogram: row clues count runs of empty cells"}

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(s) -> str:
    """Text content, XML-escaped, without the characters XML 1.0 cannot hold; line breaks become spaces."""
    return escape(_NOT_XML.sub("", str(s)).replace("\r", " ").replace("\n", " ").replace("\t", " "))


@dataclass(frozen=True)
class Frame:
    """The layout arithmetic: pixel sizes and where the grid starts (its top-left corner at ``left``, ``top``)."""

    n: int
    m: int
    side: int  # side of a (square) cell
    font: int  # font size of the numbers
    char: int  # width allowed for one digit
    gap: int  # space between two numbers of a row clue
    line: int  # step between stacked column-clue numbers, and between caption lines
    pad: int  # margin around the picture and between its areas
    captions: int  # number of caption lines
    left: int  # width of the row-clue area (with its margins): the grid's left edge
    top: int  # height of the caption and column-clue areas (with margins): the grid's top edge
    width: int
    height: int

    def number_width(self, v: int) -> int:
        return len(str(v)) * self.char

    def row_xs(self, numbers: list) -> list:
        """The right ends (text-anchor end) of a row's clue numbers, first to last."""
        xs, x = [], self.left - self.pad
        for v in reversed(numbers):
            xs.append(x)
            x -= self.number_width(v) + self.gap
        return xs[::-1]

    def row_y(self, r: int) -> int:
        """The baseline of row r's clue numbers: centred on the row."""
        return self.top + r * self.side + (self.side * 10 + self.font * 7) // 20

    def col_x(self, c: int) -> int:
        """The centre (text-anchor middle) of column c."""
        return self.left + c * self.side + self.side // 2

    def col_ys(self, count: int) -> list:
        """The baselines of a column's ``count`` clue numbers, top to bottom, the last just above the grid."""
        bottom = self.top - self.pad - (self.line - self.font) // 2
        return [bottom - (count - 1 - k) * self.line for k in range(count)]

    def caption_y(self, i: int) -> int:
        return self.pad + i * self.line + self.font


def frame(rows: list, cols: list, captions: list, cell: int = CELL) -> Frame:
    """The layout of a picture: ``rows`` and ``cols`` the clue numbers of each line (``[0]`` for an empty clue),
    ``captions`` the caption lines, ``cell`` the least side of a cell."""
    cell = max(4, int(cell))
    font = max(6, cell * 3 // 5)
    char = (font * 3 + 4) // 5  # digits are about 0.55 em in a sans-serif font
    gap, line, pad = max(2, char * 3 // 4), font * 5 // 4, max(2, font // 3)
    widest = max((len(str(v)) for numbers in cols for v in numbers), default=0)
    side = max(cell, widest * char + 4)
    row_area = max((sum(len(str(v)) * char for v in numbers) + gap * (len(numbers) - 1) for numbers in rows), default=0)
    depth = max((len(numbers) for numbers in cols), default=0)
    left = row_area + 2 * pad
    top = pad + (len(captions) * line + pad if captions else 0) + depth * line + pad
    n, m = len(rows), len(cols)
    caption_width = max((len(s) * char for s in captions), default=0)
    width = max(left + m * side + pad, caption_width + 2 * pad)
    return Frame(n, m, side, font, char, gap, line, pad, len(captions), left, top, width, top + n * side + pad)


def _ones(mask: int, size: int):
    """The indices of the set bits of ``mask`` below ``size``, in order."""
    bits = format(mask & ((1 << size) - 1), "b")[::-1]
    i = bits.find("1")
    while i >= 0:
        yield i
        i = bits.find("1", i + 1)


def _rgb(hexa: str) -> str:
    """``#RRGGBB`` from a palette's hex (3 or 6 digits, perhaps with '#'); grey when it is not one."""
    h = str(hexa).strip().lstrip("#")
    if re.fullmatch("[0-9A-Fa-f]{3}", h):
        h = "".join(x + x for x in h)
    return "#" + h.upper() if re.fullmatch("[0-9A-Fa-f]{6}", h) else "#808080"


def _light(rgb: str) -> bool:
    """Whether a colour is too light to read on white."""
    r, g, b = (int(rgb[k : k + 2], 16) for k in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 200


def _svg(f: Frame, title: str, note: str, row_clues: list, col_clues: list, fills: list, dots: list, marks=()) -> str:
    """The picture: clues are lists of (number, fill or None) per line; ``fills`` (class, fill, cell indices)
    are drawn as squares in order; ``dots`` are the cells that get an empty-cell dot, ``marks`` those outlined."""
    out = [
        f'<svg xmlns="{SVG_NS}" width="{f.width}" height="{f.height}" viewBox="0 0 {f.width} {f.height}" '
        f'font-family="sans-serif" font-size="{f.font}">',
        f'<rect class="background" width="{f.width}" height="{f.height}" fill="#FFFFFF"/>',
    ]
    if title or note:
        out.append('<g class="caption">')
        i = 0
        if title:
            out.append(f'<text class="title" x="{f.pad}" y="{f.caption_y(i)}" font-weight="bold">{_text(title)}</text>')
            i += 1
        if note:
            small = max(6, f.font * 5 // 6)
            at = f'x="{f.pad}" y="{f.caption_y(i)}" font-size="{small}" font-style="italic"'
            out.append(f'<text class="variant" {at}>{_text(note)}</text>')
        out.append("</g>")

    def number(x, y, v, fill):
        paint = ""
        if fill:
            paint = f' fill="{fill}"' + (' stroke="#404040" stroke-width="0.6"' if _light(fill) else "")
        return f'<text x="{x}" y="{y}"{paint}>{int(v)}</text>'

    out.append('<g class="column-clues" text-anchor="middle" fill="#000000">')
    for c, clue in enumerate(col_clues):
        x = f.col_x(c)
        out.extend(number(x, y, v, fill) for y, (v, fill) in zip(f.col_ys(len(clue)), clue))
    out.append("</g>")
    out.append('<g class="row-clues" text-anchor="end" fill="#000000">')
    for r, clue in enumerate(row_clues):
        y = f.row_y(r)
        out.extend(number(x, y, v, fill) for x, (v, fill) in zip(f.row_xs([v for v, _ in clue]), clue))
    out.append("</g>")

    s = f.side
    for cls, fill, cells in fills:
        out.append(f'<g class="{cls}" fill="{fill}">')
        out.extend(
            f'<rect x="{f.left + i % f.m * s}" y="{f.top + i // f.m * s}" width="{s}" height="{s}"/>' for i in cells
        )
        out.append("</g>")
    out.append(f'<g class="empty" fill="{DOT_FILL}">')
    radius = max(1, s // 10)
    out.extend(
        f'<circle cx="{f.left + i % f.m * s + s // 2}" cy="{f.top + i // f.m * s + s // 2}" r="{radius}"/>'
        for i in dots
    )
    out.append("</g>")
    inset = max(2, s // 8)
    out.append(f'<g class="marked" fill="none" stroke="{MARK}" stroke-width="{inset}">')
    side = s - inset
    out.extend(f'<rect x="{f.left + i % f.m * s + inset / 2:g}" y="{f.top + i // f.m * s + inset / 2:g}" width="{side}" '
               f'height="{side}"/>' for i in marks)  # fmt: skip
    out.append("</g>")

    x0, y0, x1, y1 = f.left, f.top, f.left + f.m * s, f.top + f.n * s
    if f.n and f.m:
        thin = [f"M{x0 + c * s} {y0}V{y1}" for c in range(1, f.m) if c % BLOCK]
        thin += [f"M{x0} {y0 + r * s}H{x1}" for r in range(1, f.n) if r % BLOCK]
        heavy = [f"M{x0 + c * s} {y0}V{y1}" for c in sorted(set(range(0, f.m, BLOCK)) | {f.m})]
        heavy += [f"M{x0} {y0 + r * s}H{x1}" for r in sorted(set(range(0, f.n, BLOCK)) | {f.n})]
        rule = 'fill="none" stroke="{}" stroke-width="{}" shape-rendering="crispEdges"'
        if thin:
            out.append(f'<path class="thin-rules" d="{"".join(thin)}" {rule.format(THIN, 1)}/>')
        out.append(f'<path class="heavy-rules" d="{"".join(heavy)}" {rule.format(HEAVY, 2)} stroke-linecap="square"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def puzzle(
    p, filled: Grid = 0, empty: Grid = 0, unknown: Grid | None = None, cell: int = CELL, marked: Grid = 0
) -> str:
    """A black-and-white puzzle (``model.Puzzle``) and what is known (Grid masks) as SVG text: ``filled`` cells
    black, ``empty`` cells white with a dot, ``unknown`` cells shaded (None: every cell neither filled nor
    empty; 0 for a plain blank grid).  A cell in several masks shows the first of filled, empty, unknown.
    ``marked`` cells get an orange outline over whatever they show (a solution's cells that local logic
    could not decide, say)."""
    n, m = p.n, p.m
    size = n * m
    full = (1 << size) - 1
    filled &= full
    empty &= full & ~filled
    unknown = (full & ~(filled | empty)) if unknown is None else unknown & full & ~(filled | empty)
    rows = [list(c) or [0] for c in p.rows]
    cols = [list(c) or [0] for c in p.cols]
    title = str(getattr(p, "title", "") or "")
    note = VARIANT_NOTES.get(getattr(p, "variant", "nonogram"), "")
    f = frame(rows, cols, [s for s in (title, note) if s], cell)
    fills = [("filled", "#000000", _ones(filled, size)), ("unknown", UNKNOWN_FILL, _ones(unknown, size))]
    row_clues, col_clues = [[(v, None) for v in c] for c in rows], [[(v, None) for v in c] for c in cols]
    return _svg(f, title, note, row_clues, col_clues, fills, _ones(empty, size), _ones(marked & full, size))


def colour_puzzle(p, board: list | None = None, cell: int = CELL) -> str:
    """A colour puzzle (``rows``/``cols`` of (length, colour) runs, ``palette`` of (name, char, hex), colour 0 the
    background) and a board (a mask of the colours each cell may take, row by row; None: nothing known) as SVG
    text: clue numbers in their colour, decided cells in their colour (the background with a dot), cells that
    may take several colours shaded, cells that may take none pink.  A solution (colour ids) is drawn by
    passing ``[1 << k for k in solution]``."""
    n, m = p.n, p.m
    palette = list(p.palette)
    every = (1 << len(palette)) - 1
    board = [every] * (n * m) if board is None else list(board)
    if len(board) != n * m:
        raise ValueError(f"a board of a {n}x{m} colour puzzle has {n * m} cells, got {len(board)}")
    rgb = [_rgb(hexa) for _, _, hexa in palette]

    def clue(runs):
        return [(size, rgb[colour] if 0 < colour < len(rgb) else None) for size, colour in runs] or [(0, None)]

    rows, cols = [clue(c) for c in p.rows], [clue(c) for c in p.cols]
    title = str(getattr(p, "title", "") or "")
    f = frame([[v for v, _ in c] for c in rows], [[v for v, _ in c] for c in cols], [title] if title else [], cell)
    by_colour: list = [[] for _ in palette]
    unknown, none = [], []
    for i, mask in enumerate(board):
        mask &= every
        if not mask:
            none.append(i)
        elif mask & (mask - 1):
            unknown.append(i)
        else:
            by_colour[mask.bit_length() - 1].append(i)
    fills = [(f"colour-{k}", rgb[k], cells) for k, cells in enumerate(by_colour) if cells]
    fills += [("unknown", UNKNOWN_FILL, unknown), ("none", NONE_FILL, none)]
    return _svg(f, title, "", rows, cols, fills, by_colour[0] if palette else [])
