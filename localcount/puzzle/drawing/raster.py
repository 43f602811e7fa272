"""Raster pictures of one puzzle (Pillow): PNG, animated GIF, and ``design``'s three panels side by side.

PNG and GIF pictures put the clues in the margins, each cell wide enough
for its column's numbers, and need Pillow (the optional extra
``pictures``); the GIF marks the line each step updated and may end with
the solution.  Colour puzzles (``solving.colour.ColourPuzzle``) have their
own ``colour_png`` and ``colour_gif``.
"""

from __future__ import annotations

from ..model import Puzzle

#: Pixels per cell in PNG and GIF pictures (at least: wider where a column's numbers need it).
CELL_PX = 18
#: Pixel size of the clue numbers.
FONT_PX = 14


def _font():
    """(font, width of a digit, height of a line): Pillow's scalable default font, or its small bitmap one."""
    from PIL import ImageFont

    try:
        font = ImageFont.load_default(size=FONT_PX)
    except (TypeError, OSError, ImportError):  # Pillow < 10.1, or without FreeType
        return ImageFont.load_default(), 7, 11
    left, top, right, bottom = font.getbbox("0123456789")
    return font, (right - left + 9) // 10, FONT_PX


def _image(p: Puzzle, filled: int, empty: int, mark: str | None = None):
    """A Pillow image of the puzzle: clues in the margins, filled black, empty with a dot, unknown grey;
    ``mark`` ("row 3", "column 5": 1-based) outlined in red."""
    from PIL import Image, ImageDraw

    font, char_w, char_h = _font()
    cell = max([CELL_PX] + [len(str(k)) * char_w + 6 for c in p.cols for k in c])
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
                draw.ellipse(
                    (x0 + cell // 2 - 1, y0 + cell // 2 - 1, x0 + cell // 2 + 1, y0 + cell // 2 + 1), fill="grey"
                )
            else:
                draw.rectangle(box, fill=(200, 200, 200), outline="grey")
    for k in range(0, p.m + 1, 5):  # heavier rules every 5 cells, as on paper
        draw.line((left + k * cell, top, left + k * cell, top + p.n * cell), fill="black")
    for k in range(0, p.n + 1, 5):
        draw.line((left, top + k * cell, left + p.m * cell, top + k * cell), fill="black")
    draw.rectangle((left, top, left + p.m * cell, top + p.n * cell), outline="black")
    if mark:
        _outline(draw, mark, left, top, cell, p.n, p.m)
    return img


def _outline(draw, mark: str, left: int, top: int, cell: int, n: int, m: int) -> None:
    """Outline the line ``mark`` ("row 3", "column 5": 1-based) in red."""
    kind, number = mark.split()
    k = int(number) - 1
    if kind == "row":
        box = (left, top + k * cell, left + m * cell, top + (k + 1) * cell)
    else:
        box = (left + k * cell, top, left + (k + 1) * cell, top + n * cell)
    draw.rectangle(box, outline="red", width=2)


def png(p: Puzzle, filled: int = 0, empty: int = 0) -> bytes:
    """The puzzle and the given knowledge as PNG bytes (needs Pillow: pip install 'localcount[pictures]')."""
    import io

    buf = io.BytesIO()
    _image(p, filled, empty).save(buf, format="PNG")
    return buf.getvalue()


def gif(p: Puzzle, steps, ms_per_frame: int = 400, solution: int | None = None) -> bytes:
    """An animated GIF of local logic: the empty grid, then one frame per line step with its line marked,
    then (if given and local logic did not reach it) the ``solution``, held longer."""
    frames = [_image(p, 0, 0)]
    filled = empty = 0
    for s in steps:
        filled |= s.filled
        empty |= s.empty
        frames.append(_image(p, filled, empty, s.line))
    full = (1 << (p.n * p.m)) - 1
    if solution is not None and (filled | empty) != full:
        frames.append(_image(p, solution, full & ~solution))
    return _gif_bytes(frames, ms_per_frame)


def _gif_bytes(frames: list, ms_per_frame: int) -> bytes:
    """The frames as an animated GIF, the last held five times as long."""
    import io

    durations = [ms_per_frame] * (len(frames) - 1) + [ms_per_frame * 5]
    buf = io.BytesIO()
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return buf.getvalue()


def colour_png(p, board: list) -> bytes:
    """A colour puzzle (``colour.ColourPuzzle``) and what is known (cell masks) as PNG bytes: each clue number in
    its colour, each decided cell filled with its colour, undecided cells grey (needs Pillow)."""
    import io

    buf = io.BytesIO()
    _colour_image(p, board).save(buf, format="PNG")
    return buf.getvalue()


def colour_gif(p, steps, ms_per_frame: int = 400, solution: tuple | None = None) -> bytes:
    """An animated GIF of local logic on a colour puzzle: the unknown grid, one frame per step (``colour.Step``)
    with its line marked, then (if given and local logic did not reach it) the ``solution`` (colour ids)."""
    board = [(1 << len(p.palette)) - 1] * (p.n * p.m)
    frames = [_colour_image(p, board)]
    for s in steps:
        for i, mask in s.cells:
            board[i] = mask
        frames.append(_colour_image(p, board, s.line))
    if solution is not None and any(mask & (mask - 1) for mask in board):
        frames.append(_colour_image(p, [1 << k for k in solution]))
    return _gif_bytes(frames, ms_per_frame)


def _colour_image(p, board: list, mark: str | None = None):
    """The Pillow image of ``colour_png``; ``mark`` ("row 3", "column 5") outlined in red."""
    from PIL import Image, ImageDraw

    font, char_w, char_h = _font()
    rgb = ["#" + hexa for _, _, hexa in p.palette]
    cell = max([CELL_PX] + [len(str(size)) * char_w + 6 for clue in p.cols for size, _ in clue])
    row_width = max([sum((len(str(size)) + 1) * char_w for size, _ in clue) for clue in p.rows] + [char_w])
    left, top = row_width + 12, max([len(c) for c in p.cols] + [1]) * (char_h + 2) + 6
    img = Image.new("RGB", (left + p.m * cell + 1, top + p.n * cell + 1), "white")
    draw = ImageDraw.Draw(img)
    ink = ["black" if k == 0 or rgb[k].upper() in ("#FFFFFF", "#FFF") else rgb[k] for k in range(len(rgb))]
    for c, clue in enumerate(p.cols):
        for k, (size, colour) in enumerate(clue):
            y = top - (len(clue) - k) * (char_h + 2) - 3
            draw.text(
                (left + c * cell + cell // 2 - len(str(size)) * char_w // 2, y), str(size), fill=ink[colour], font=font
            )
    for r, clue in enumerate(p.rows):
        x = left - 4
        for size, colour in reversed(clue):
            x -= len(str(size)) * char_w
            draw.text((x, top + r * cell + (cell - char_h) // 2), str(size), fill=ink[colour], font=font)
            x -= char_w
    for i, mask in enumerate(board):
        r, c = divmod(i, p.m)
        box = (left + c * cell, top + r * cell, left + (c + 1) * cell, top + (r + 1) * cell)
        decided = mask and mask & (mask - 1) == 0
        draw.rectangle(box, fill=rgb[mask.bit_length() - 1] if decided else (200, 200, 200), outline="grey")
    draw.rectangle((left, top, left + p.m * cell, top + p.n * cell), outline="black")
    if mark:
        _outline(draw, mark, left, top, cell, p.n, p.m)
    return img


#: Colours of the design picture's third panel: cells filled, or emptied, by the design (not the picture).
ADDED, REMOVED = (200, 30, 30), (250, 170, 170)


def design_png(grey: list, grid: int, target: int) -> bytes:
    """Three panels side by side as PNG bytes: the picture scaled to the grid (``grey``: rows of levels,
    0 black .. 1 white), the puzzle's solution ``grid``, and the solution with the cells that differ from
    the thresholded ``target`` in colour (``ADDED`` filled, ``REMOVED`` emptied) (needs Pillow)."""
    import io

    from PIL import Image, ImageDraw

    n, m = len(grey), len(grey[0])
    cell = max(4, min(CELL_PX, 240 // max(n, m)))
    font, char_w, char_h = _font()
    gap, top = cell * 2, char_h + 8
    width = 3 * m * cell + 2 * gap + 1
    img = Image.new("RGB", (width, top + n * cell + 1), "white")
    draw = ImageDraw.Draw(img)
    changed = grid ^ target
    titles = ("picture", "puzzle", f"{bin(changed).count('1')} changed")
    for panel, title in enumerate(titles):
        left = panel * (m * cell + gap)
        draw.text((left, 2), title, fill="black", font=font)
        for r in range(n):
            for c in range(m):
                bit = r * m + c
                if panel == 0:
                    level = round(255 * grey[r][c])
                    fill = (level, level, level)
                elif panel == 2 and changed >> bit & 1:
                    fill = ADDED if grid >> bit & 1 else REMOVED
                else:
                    fill = "black" if grid >> bit & 1 else "white"
                x0, y0 = left + c * cell, top + r * cell
                draw.rectangle((x0, y0, x0 + cell, y0 + cell), fill=fill, outline="grey" if cell >= 8 else None)
        draw.rectangle((left, top, left + m * cell, top + n * cell), outline="black")
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
