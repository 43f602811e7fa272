"""Puzzle formats: round trips, hand-written examples of each format, and errors with line numbers."""

import random

import pytest

from localcount.puzzle import formats as F
from localcount.clues import grid_clues, parse_grid

SIZES = [(1, 1), (2, 3), (5, 5), (4, 7), (7, 4), (10, 10), (3, 0), (0, 0)]


def random_puzzles(seed=1):
    rng = random.Random(seed)
    for n, m in SIZES:
        for density in (0.0, 0.3, 0.6, 1.0):
            grid = sum(1 << k for k in range(n * m) if rng.random() < density)
            yield F.from_grid(grid, n, m, title=f"random {n}x{m}")


@pytest.mark.parametrize("fmt", F.FORMATS)
def test_every_format_round_trips(fmt):
    for p in random_puzzles():
        text = F.format_puzzle(p, fmt)
        back = F.parse(text, fmt)
        assert (back.rows, back.cols) == (p.rows, p.cols), (fmt, text)
        if fmt in ("non", "xml"):  # the formats that carry a goal and a title
            assert back.goal == p.goal and back.title == p.title
        assert F.guess_format(text) == fmt


def test_txt_example_with_comments_blank_lines_and_commas():
    text = """// a 2x3 puzzle
2 3   // rows cols
1        // column 1
0
2, 0
// a comment line is not a clue

1 1
"""
    # columns: (1), (), ... the fourth clue line is empty: row 1 is empty
    with pytest.raises(F.PuzzleError, match="0 only stands alone"):
        F.parse_txt(text)
    text = "// a 2x3 puzzle\n2 3   // rows cols\n2\n\n1\n// note\n1 1\n1\n"
    p = F.parse_txt(text)
    assert p.cols == ((2,), (), (1,)) and p.rows == ((1, 1), (1,))
    assert F.parse_txt("3\n1\n1\n1\n1\n1\n1\n").rows == ((1,), (1,), (1,))  # one number: a square


def test_non_example_with_other_keywords():
    text = """catalogue "test"
title "A little L"
by "localcount"
copyright "none"
width 3
height 3

rows
1
1
3

columns
3
1
1

goal 100100111
"""
    p = F.parse_non(text)
    assert p.rows == ((1,), (1,), (3,)) and p.cols == ((3,), (1,), (1,)) and p.title == "A little L"
    assert p.goal == parse_grid("100/100/111")[0]


def test_tatham_example_and_empty_fields():
    p = F.parse_tatham("3x2:2/1/1/3/1")
    assert p.cols == ((2,), (1,), (1,)) and p.rows == ((3,), (1,))
    q = F.parse_tatham("3x2:2//1/1.1/1")  # an empty field is an empty clue
    assert q.cols == ((2,), (), (1,)) and q.rows == ((1, 1), (1,))
    assert F.parse_tatham("3x2:2/0/1/1.1/1") == q


def test_xml_example():
    text = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<source>made by hand</source>
<title>Corner</title>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns"><line><count>2</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>2</count></line><line><count>1</count></line></clues>
<solution type="goal"><image>
|XX|
|X.|
</image></solution>
</puzzle>
</puzzleset>
"""
    p = F.parse_xml(text)
    assert p.rows == ((2,), (1,)) and p.cols == ((2,), (1,)) and p.title == "Corner"
    assert p.goal == parse_grid("11/10")[0]


@pytest.mark.parametrize(
    "fmt,text,line,message",
    [
        ("txt", "2 2\n1\n1\nx\n1\n", 4, "whole numbers"),
        ("txt", "2 3\n1\n1\n1\n1\n", 5, "found 4"),
        ("txt", "two\n", 1, "size"),
        ("txt", "2 6\n1\n1\n1\n1\n1\n1\n0\n4 2\n", None, "row 2: clue 4 2 needs 7 cells, line has 6"),
        ("txt", "1 2\n1\n1\n0\n", None, "row clues fill 0 cells but the column clues 2"),
        ("non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n", 7, "columns section has 1 clues, expected 2"),
        ("non", "width 2\nrows\n1\n1\ncolumns\n1\n1\n", None, "no 'height' line"),
        ("non", "width 2\nheight 1\nrows\n2\ncolumns\n1\n1\ngoal 10\n", None, "does not have"),
        ("tatham", "2x2:1/1/1\n", 1, "found 3"),
        ("tatham", "2x2:1/1/1/a\n", 1, "whole numbers"),
        ("xml", "<puzzle><clues type='rows'><line>\n</puzzle>", 2, "not well-formed"),
        ("xml", "<puzzle><clues type='rows'></clues></puzzle>", None, 'no <clues type="columns">'),
        ("xml", "<puzzle><clues type='rows'><line><count color='red'>1</count></line></clues></puzzle>", None, "black and white"),
    ],
)
def test_errors_name_the_line_and_the_problem(fmt, text, line, message):
    with pytest.raises(F.PuzzleError) as err:
        F.parse(text, fmt, source="puzzle")
    assert message in str(err.value) and err.value.line == line
    if line:
        assert str(err.value).startswith(f"puzzle:{line}: ")


def test_entities_are_refused():
    bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><puzzle>&a;</puzzle>'
    with pytest.raises(F.PuzzleError, match="entity"):
        F.parse_xml(bomb)


def test_guess_format_by_suffix_and_content():
    assert F.guess_format("", "cat.non") == "non" and F.guess_format("", "x.XML") == "xml"
    assert F.guess_format("5x5:1/1/1/1/1/1/1/1/1/1") == "tatham"
    assert F.guess_format("width 5\n") == "non" and F.guess_format("5\n1\n") == "txt"


def test_from_grid_has_the_grids_clues():
    grid, n, m = parse_grid("1010/0100/1010/0011")
    p = F.from_grid(grid, n, m)
    assert (p.rows, p.cols) == grid_clues(grid, n, m) and F.check(p) is p
