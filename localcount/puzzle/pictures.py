"""Pictures of one puzzle: the terminal (Unicode box drawing), PNG and animated GIF (Pillow).

Filled cells are ``█``, empty cells ``·``, unknown cells ``?``: three
shapes that stay apart without colour.  Each cell is as wide as the widest
column-clue number plus one, so column clues stack above their cells.
PNG and GIF pictures put the clues in the margins and need Pillow (the
optional extra ``pictures``).
"""

from __future__ import annotations

from .model import Puzzle

FILLED, EMPTY, UNKNOWN = "█", "·", "?"


def _cell_text(filled: int, empty: int, bit: int, width: int) -> str:
    """One cell, ``width`` characters wide."""
    if filled >> bit & 1:
        return FILLED * width
    mark = EMPTY if empty >> bit & 1 else UNKNOWN
    return mark.center(width)


def draw(p: Puzzle, filled: int = 0, empty: int = 0) -> str:
    """The puzzle with its clues and the given knowledge (Grid masks), as lines of text."""
    n, m = p.n, p.m
    width = max([2] + [len(str(k)) + 1 for c in p.cols for k in c])
    row_texts = [" ".join(map(str, c)) if c else "0" for c in p.rows]
    left = max([len(t) for t in row_texts] + [1])
    depth = max([len(c) for c in p.cols] + [1])
    lines = []
    for level in range(depth):
        cells = []
        for c in p.cols:
            clue = c if c else (0,)
            k = level - (depth - len(clue))
            cells.append(str(clue[k]).rjust(width - 1).ljust(width) if k >= 0 else " " * width)
        lines.append(" " * (left + 1) + " " + "".join(cells).rstrip())
    lines.append(" " * (left + 1) + "┌" + "─" * (width * m) + "┐")
    for r in range(n):
        cells = "".join(_cell_text(filled, empty, r * m + c, width) for c in range(m))
        lines.append(row_texts[r].rjust(left) + " │" + cells + "│")
    lines.append(" " * (left + 1) + "└" + "─" * (width * m) + "┘")
    return "\n".join(lines) + "\n"


def grid_only(n: int, m: int, filled: int, empty: int = -1) -> str:
    """Just the cells of a grid (every cell not filled is empty unless ``empty`` says otherwise)."""
    full = (1 << (n * m)) - 1
    empty = full & ~filled if empty == -1 else empty
    return "\n".join("".join(_cell_text(filled, empty, r * m + c, 1) for c in range(m)) for r in range(n)) + "\n"


#: Pixels per cell in PNG and GIF pictures.
CELL_PX = 16


def _image(p: Puzzle, filled: int, empty: int, cell: int = CELL_PX):
    """A Pillow image of the puzzle: clues in the margins, filled black, empty with a dot, unknown grey."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default()
    char_w, char_h = 7, 11
    row_texts = [" ".join(map(str, c)) if c else "0" for c in p.rows]
    left = max([len(t) for t in row_texts] + [1]) * char_w + 12
    top = max([len(c) for c in p.cols] + [1]) * (char_h + 2) + 6
    width, height = left + p.m * cell + 1, top + p.n * cell + 1
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    for c, clue in enumerate(p.cols):
        clue = clue or (0,)
        for k, v in enumerate(clue):
            y = top - (len(clue) - k) * (char_h + 2) - 3
            draw.text((left + c * cell + cell // 2 - len(str(v)) * char_w // 2, y), str(v), fill="black", font=font)
    for r, clue in enumerate(p.rows):
        x = left - 4
        for v in reversed(clue or (0,)):  # number by number: the default font's spaces are too thin
            x -= len(str(v)) * char_w
            draw.text((x, top + r * cell + (cell - char_h) // 2), str(v), fill="black", font=font)
            x -= char_w
    for r in range(p.n):
        for c in range(p.m):
            bit = r * p.m + c
            x0, y0 = left + c * cell, top + r * cell
            box = (x0, y0, x0 + cell, y0 + cell)
            if filled >> bit & 1:
                draw.rectangle(box, fill="black", outline="grey")
            elif empty >> bit & 1:
                draw.rectangle(box, fill="white", outline="grey")
                draw.ellipse((x0 + cell // 2 - 1, y0 + cell // 2 - 1, x0 + cell // 2 + 1, y0 + cell // 2 + 1), fill="grey")
            else:
                draw.rectangle(box, fill=(200, 200, 200), outline="grey")
    for k in range(0, p.m + 1, 5):  # heavier rules every 5 cells, as on paper
        draw.line((left + k * cell, top, left + k * cell, top + p.n * cell), fill="black")
    for k in range(0, p.n + 1, 5):
        draw.line((left, top + k * cell, left + p.m * cell, top + k * cell), fill="black")
    draw.rectangle((left, top, left + p.m * cell, top + p.n * cell), outline="black")
    return img


def png(p: Puzzle, filled: int = 0, empty: int = 0) -> bytes:
    """The puzzle and the given knowledge as PNG bytes (needs Pillow: pip install 'localcount[pictures]')."""
    import io

    buf = io.BytesIO()
    _image(p, filled, empty).save(buf, format="PNG")
    return buf.getvalue()


def gif(p: Puzzle, steps, ms_per_frame: int = 400) -> bytes:
    """An animated GIF of local logic: the empty grid, then one frame per line step."""
    import io

    frames = [_image(p, 0, 0)]
    filled = empty = 0
    for s in steps:
        filled |= s.filled
        empty |= s.empty
        frames.append(_image(p, filled, empty))
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=ms_per_frame, loop=0)
    return buf.getvalue()
