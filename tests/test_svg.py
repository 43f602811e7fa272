"""SVG pictures: well-formed XML whose parts (cells, clue numbers, captions) are what the puzzle and the knowledge say."""

import random
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from localcount.clues import parse_grid
from localcount.puzzle.drawing import svg
from localcount.puzzle.model import from_grid
from localcount.puzzle.solving.colour import ColourPuzzle, line_clue

NS = "{http://www.w3.org/2000/svg}"
PALETTE = (("white", ".", "FFFFFF"), ("red", "r", "FF0000"), ("yellow", "y", "FF0"), ("black", "X", "000000"))


def parsed(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    w, h = int(root.get("width")), int(root.get("height"))
    assert w > 0 and h > 0 and root.get("viewBox") == f"0 0 {w} {h}"
    return root


def group(root: ET.Element, cls: str) -> list:
    """The children of the groups of a class, in document order."""
    return [e for g in root.iter(NS + "g") if g.get("class") == cls for e in g]


def row_numbers(root) -> list:
    """The row clues as drawn: numbers grouped by baseline, top to bottom, left to right."""
    lines: dict = {}
    for t in group(root, "row-clues"):
        lines.setdefault(int(t.get("y")), []).append((int(t.get("x")), int(t.text)))
    return [tuple(v for _, v in sorted(line)) for _, line in sorted(lines.items())]


def col_numbers(root) -> list:
    lines: dict = {}
    for t in group(root, "column-clues"):
        lines.setdefault(int(t.get("x")), []).append((int(t.get("y")), int(t.text)))
    return [tuple(v for _, v in sorted(line)) for _, line in sorted(lines.items())]


def random_case(seed: int, n: int, m: int):
    rng = random.Random(seed)
    grid, known = rng.getrandbits(n * m), rng.getrandbits(n * m)
    full = (1 << (n * m)) - 1
    return from_grid(grid, n, m), grid & known, full & ~grid & known, full


def test_filled_empty_and_unknown_cells_are_drawn_one_element_each():
    for seed, (n, m) in enumerate([(1, 1), (3, 7), (7, 3), (10, 10), (6, 11)]):
        p, filled, empty, full = random_case(seed, n, m)
        root = parsed(svg.puzzle(p, filled, empty))
        assert len(group(root, "filled")) == filled.bit_count()
        assert len(group(root, "empty")) == empty.bit_count()
        assert len(group(root, "unknown")) == (full & ~(filled | empty)).bit_count()  # None: every cell not known
        assert all(e.tag == NS + "rect" for e in group(root, "filled") + group(root, "unknown"))
        some = full & ~(filled | empty) & random.Random(seed).getrandbits(n * m)
        assert len(group(parsed(svg.puzzle(p, filled, empty, unknown=some)), "unknown")) == some.bit_count()
        assert group(parsed(svg.puzzle(p, filled, empty, unknown=0)), "unknown") == []


def test_cells_are_where_their_bits_say():
    grid, n, m = parse_grid("10110/01000/11111")
    p = from_grid(grid, n, m)
    root = parsed(svg.puzzle(p, grid, 0, unknown=0, cell=20))
    xs = sorted({int(r.get("x")) for r in group(root, "filled")})
    ys = sorted({int(r.get("y")) for r in group(root, "filled")})
    left, top = xs[0], ys[0]
    drawn = {((int(r.get("y")) - top) // 20, (int(r.get("x")) - left) // 20) for r in group(root, "filled")}
    assert drawn == {(r, c) for r in range(n) for c in range(m) if grid >> (r * m + c) & 1}
    assert all(r.get("width") == r.get("height") == "20" for r in group(root, "filled"))


def test_thin_rules_between_cells_and_heavy_rules_every_5_cells_and_round_the_grid():
    for n, m in [(1, 1), (5, 5), (7, 12), (10, 3)]:
        root = parsed(svg.puzzle(from_grid(0, n, m)))
        paths = {e.get("class"): e.get("d").count("M") for e in root.iter(NS + "path")}
        heavy = len(set(range(0, m, 5)) | {m}) + len(set(range(0, n, 5)) | {n})
        assert paths.get("heavy-rules") == heavy and paths.get("thin-rules", 0) == (n + 1) + (m + 1) - heavy
    assert list(parsed(svg.puzzle(from_grid(0, 0, 3))).iter(NS + "path")) == []


def test_a_cell_in_several_masks_shows_filled_before_empty_before_unknown():
    p = from_grid(0b1111, 2, 2)
    root = parsed(svg.puzzle(p, filled=0b0011, empty=0b0110, unknown=0b1111))
    assert (len(group(root, "filled")), len(group(root, "empty")), len(group(root, "unknown"))) == (2, 1, 1)
    root = parsed(svg.puzzle(p, filled=-1, empty=-1))  # bits beyond the grid are ignored
    assert len(group(root, "filled")) == 4 and group(root, "empty") == group(root, "unknown") == []


def test_the_clue_numbers_are_drawn_in_order_and_an_empty_clue_is_0():
    for seed, (n, m) in enumerate([(5, 5), (4, 9), (12, 3), (15, 15)]):
        p = random_case(seed, n, m)[0]
        root = parsed(svg.puzzle(p))
        assert row_numbers(root) == [c or (0,) for c in p.rows]
        assert col_numbers(root) == [c or (0,) for c in p.cols]
        # in the document too: row by row, then left to right; column by column, then top to bottom
        assert [int(t.text) for t in group(root, "row-clues")] == [k for c in p.rows for k in c or (0,)]
        assert [int(t.text) for t in group(root, "column-clues")] == [k for c in p.cols for k in c or (0,)]


def test_the_clues_stay_left_of_and_above_the_grid_and_the_picture_grows_with_them():
    grid, n, m = parse_grid("1010101/0000000/1111111/1101011")
    p = from_grid(grid, n, m)
    root = parsed(svg.puzzle(p, grid))
    left = min(int(r.get("x")) for r in group(root, "filled"))
    top = min(int(r.get("y")) for r in group(root, "filled"))
    assert all(0 < int(t.get("x")) < left for t in group(root, "row-clues"))
    assert all(0 < int(t.get("y")) < top for t in group(root, "column-clues"))
    short = parsed(svg.puzzle(from_grid(0b1111111, 1, 7)))
    longer = parsed(svg.puzzle(from_grid(0b1010101, 1, 7)))
    assert int(longer.get("width")) > int(short.get("width"))
    tall = parsed(svg.puzzle(from_grid(0b1010101, 7, 1)))
    assert int(tall.get("height")) > int(parsed(svg.puzzle(from_grid(0b1111111, 7, 1))).get("height"))
    wide = parsed(svg.puzzle(from_grid((1 << 100) - 1, 100, 1)))  # a 3-digit column number widens the cells
    assert int(group(wide, "unknown")[0].get("width")) > svg.CELL


def test_a_title_is_escaped_and_a_yesnogram_is_noted():
    grid, n, m = parse_grid("110/011")
    text = svg.puzzle(from_grid(grid, n, m, title='A <&> "b" \x01'))
    assert "<&>" not in text and "\x01" not in text
    root = parsed(text)
    assert [t.text for t in group(root, "caption")] == ['A <&> "b" ']
    assert group(parsed(svg.puzzle(from_grid(grid, n, m))), "caption") == []
    yes = parsed(svg.puzzle(from_grid(grid, n, m, variant="yesnogram")))
    (note,) = group(yes, "caption")
    assert note.get("class") == "variant" and "yesnogram" in note.text
    assert row_numbers(yes) == [(1,), (1,)]  # a yesnogram row counts its runs of empty cells


def test_empty_and_degenerate_puzzles_draw():
    for n, m in [(0, 0), (0, 4), (3, 0), (1, 1)]:
        p = from_grid(0, n, m)
        root = parsed(svg.puzzle(p))
        assert len(group(root, "unknown")) == n * m and group(root, "filled") == []
        assert row_numbers(root) == [(0,)] * n and col_numbers(root) == [(0,)] * m
    cp = ColourPuzzle((), ((),) * 2, PALETTE[:2])
    root = parsed(svg.colour_puzzle(cp, []))
    assert col_numbers(root) == [(0,), (0,)] and row_numbers(root) == []


def test_the_output_is_deterministic_and_a_100x100_puzzle_is_quick():
    p, filled, empty, _ = random_case(7, 100, 100)
    start = time.perf_counter()
    text = svg.puzzle(p, filled, empty)
    assert time.perf_counter() - start < 2
    assert text == svg.puzzle(random_case(7, 100, 100)[0], filled, empty)
    root = parsed(text)
    assert len(group(root, "filled")) == filled.bit_count()
    assert row_numbers(root) == [c or (0,) for c in p.rows]


def colour_case():
    goal = (1, 0, 2, 0, 0, 0, 3, 3, 3)  # red . yellow / . . . / black black black
    rows = tuple(line_clue(goal[r * 3 : r * 3 + 3]) for r in range(3))
    cols = tuple(line_clue(goal[c::3]) for c in range(3))
    return ColourPuzzle(rows, cols, PALETTE, goal, title="two <colours>"), goal


def test_a_colour_puzzle_draws_each_clue_number_in_its_colour():
    p, goal = colour_case()
    root = parsed(svg.colour_puzzle(p))
    ink = {"#FF0000": 1, "#FFFF00": 2, "#000000": 3}  # 3-digit hex is widened
    rows = [(int(t.text), ink.get(t.get("fill"), 0)) for t in group(root, "row-clues")]
    cols = [(int(t.text), ink.get(t.get("fill"), 0)) for t in group(root, "column-clues")]
    assert rows == [(1, 1), (1, 2), (0, 0), (3, 3)]  # the empty clue: 0 in the default black
    assert cols == [run for c in p.cols for run in c] == [(1, 1), (1, 3), (1, 3), (1, 2), (1, 3)]
    yellow = [t for t in group(root, "row-clues") if t.get("fill") == "#FFFF00"]
    assert yellow and all(t.get("stroke") for t in yellow)  # a light colour is outlined to be read on white
    assert [t.text for t in group(root, "caption")] == ["two <colours>"]
    assert len(group(root, "unknown")) == 9  # no board: nothing known


def test_a_colour_board_shows_decided_cells_in_their_colour_and_the_rest_shaded():
    p, goal = colour_case()
    board = [1 << k for k in goal]
    board[4], board[5] = 0b0111, 0  # undecided; no colour left
    root = parsed(svg.colour_puzzle(p, board))
    fills = {
        g.get("class"): (g.get("fill"), len(g)) for g in root.iter(NS + "g") if g.get("class", "").startswith("colour-")
    }
    assert fills == {
        "colour-0": ("#FFFFFF", 2),
        "colour-1": ("#FF0000", 1),
        "colour-2": ("#FFFF00", 1),
        "colour-3": ("#000000", 3),
    }
    assert len(group(root, "unknown")) == 1 and len(group(root, "none")) == 1
    assert len(group(root, "empty")) == 2  # the background cells get a dot
    assert svg.colour_puzzle(p, board) == svg.colour_puzzle(colour_case()[0], list(board))


def test_a_colour_puzzle_is_duck_typed():
    @dataclass
    class Stand:
        rows: tuple
        cols: tuple
        palette: tuple
        title: str = ""

        n = property(lambda self: len(self.rows))
        m = property(lambda self: len(self.cols))

    p, goal = colour_case()
    stand = Stand(p.rows, p.cols, p.palette, p.title)
    assert svg.colour_puzzle(stand, [1 << k for k in goal]) == svg.colour_puzzle(p, [1 << k for k in goal])
