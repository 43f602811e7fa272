"""Puzzle formats: round trips that keep every field a format holds, hand-written examples of each format, format
guessing, and errors with line numbers."""

import dataclasses
import pathlib
import random

import pytest

from localcount.clues import grid_clues, parse_grid
from localcount.puzzle import formats as F

SIZES = [(1, 1), (2, 3), (5, 5), (4, 7), (7, 4), (10, 10), (3, 0), (0, 0)]
DATA = pathlib.Path(__file__).resolve().parent / "data" / "formats"
#: Metadata values that test quoting and escaping: quotes, ampersands, angle brackets, '//', non-ASCII, entities.
TRICKY = ['He said "hi"', "Tom & Jerry", "<b>bold</b>", "a // b", "Été à Noël ©", "&amp; stays", "x: y", "#1 (v.2)"]
#: The fields each format holds besides the clues.
HOLDS = {
    "txt": {"title", "author", "copyright", "licence", "catalogue"},
    "non": {"title", "author", "copyright", "licence", "catalogue", "goal"},
    "nin": set(),
    "tatham": {"given_filled", "given_empty"},
    "xml": {"title", "author", "copyright", "licence", "catalogue", "goal"},
}
EXTRAS = ("goal", "title", "author", "copyright", "licence", "catalogue", "given_filled", "given_empty")


def random_puzzles(seed=1):
    rng = random.Random(seed)
    for n, m in SIZES:
        for density in (0.0, 0.3, 0.6, 1.0):
            grid = sum(1 << k for k in range(n * m) if rng.random() < density)
            p = F.from_grid(grid, n, m, title=f"random {n}x{m}")
            known = [k for k in range(n * m) if rng.random() < 0.2]
            yield dataclasses.replace(
                p,
                author=rng.choice(TRICKY),
                copyright=rng.choice(["", *TRICKY]),
                licence=rng.choice(["", "CC-BY-4.0", 'public domain, "as is" & free']),
                catalogue=rng.choice(["", *TRICKY]),
                given_filled=sum(1 << k for k in known if grid >> k & 1),
                given_empty=sum(1 << k for k in known if not grid >> k & 1),
            )


def fields(p, names):
    return {name: getattr(p, name) for name in names}


@pytest.mark.parametrize("fmt", F.FORMATS)
def test_every_format_round_trips_keeping_what_it_holds(fmt):
    for p in random_puzzles():
        text = F.format_puzzle(p, fmt)
        back = F.parse(text, fmt)
        assert (back.rows, back.cols) == (p.rows, p.cols), (fmt, text)
        assert fields(back, HOLDS[fmt]) == fields(p, HOLDS[fmt]), (fmt, text)
        dropped = set(EXTRAS) - HOLDS[fmt]
        assert fields(back, dropped) == fields(F.Puzzle((), ()), dropped)
        assert F.format_puzzle(back, fmt) == text  # a second round changes nothing
        if fmt == "nin":  # without a name it reads as txt, transposed (see test_nin_and_txt_...)
            assert F.guess_format(text, "p.nin") == "nin" and F.guess_format(text) in ("txt", "nin")
        else:
            assert F.guess_format(text) == fmt


@pytest.mark.parametrize("source", F.FORMATS)
@pytest.mark.parametrize("target", F.FORMATS)
def test_a_conversion_keeps_what_both_formats_hold(source, target):
    for p in random_puzzles(seed=2):
        middle = F.parse(F.format_puzzle(p, source), source)
        back = F.parse(F.format_puzzle(middle, target), target)
        kept = HOLDS[source] & HOLDS[target]
        assert (back.rows, back.cols) == (p.rows, p.cols) and fields(back, kept) == fields(p, kept)


def test_the_sample_files_are_one_puzzle_in_every_format():
    goal = parse_grid("11011/10001/01110/00100")[0]
    for path in sorted(DATA.iterdir()):
        p, fmt, guessed = F.read(path.read_text(encoding="utf-8"), None, str(path))
        assert fmt == F.SUFFIXES[path.suffix] and not guessed
        assert (p.rows, p.cols) == grid_clues(goal, 4, 5), path.name
        want = {
            "goal": goal,
            "title": "Sampler & friends",
            "author": "localcount",
            "copyright": "© 2024 localcount contributors",
            "licence": "CC0-1.0",
            "catalogue": "localcount tests #1",
            "given_filled": 1 | 1 << 12,
            "given_empty": 1 << 2 | 1 << 19,
        }
        assert fields(p, HOLDS[fmt]) == {k: want[k] for k in HOLDS[fmt]}, path.name
        assert F.format_puzzle(F.parse(F.format_puzzle(p, fmt), fmt), fmt) == F.format_puzzle(p, fmt)


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


def test_txt_metadata_comments_and_old_files():
    text = "// Title:  Little L \n// by: me\n// licence: CC-BY-4.0\n// catalogue: box 3\n// a note\n3\n3\n1\n1\n1\n1\n3\n// author: not metadata\n"
    p = F.parse_txt(text)
    assert (p.title, p.author, p.licence, p.catalogue, p.copyright) == ("Little L", "me", "CC-BY-4.0", "box 3", "")
    assert F.format_txt(p).startswith(
        "// catalogue: box 3\n// title: Little L\n// author: me\n// licence: CC-BY-4.0\n3\n"
    )
    old = "// cat (drawing; local logic solves it)\n2\n1\n1\n1\n1\n"  # what format_txt wrote before the keys
    assert F.parse_txt(old).title == "cat (drawing; local logic solves it)"
    assert F.parse_txt("2\n// not a title: below the size\n1\n1\n1\n1\n").title == ""


def test_non_example_with_metadata_and_other_keywords():
    text = """catalogue "test"
title "A little L &amp; a dot"
by "localcount"
copyright "&copy; none"
license CC-BY-3.0
color a #ff0000
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
    assert p.rows == ((1,), (1,), (3,)) and p.cols == ((3,), (1,), (1,)) and p.goal == parse_grid("100/100/111")[0]
    assert (p.catalogue, p.title, p.author, p.copyright, p.licence) == (
        "test",
        "A little L & a dot",
        "localcount",
        "© none",
        "CC-BY-3.0",
    )
    out = F.format_non(p)
    assert out.startswith(
        'catalogue "test"\ntitle "A little L &amp; a dot"\nby "localcount"\ncopyright "© none"\nlicense CC-BY-3.0\n'
    )
    assert F.parse_non(F.format_non(dataclasses.replace(p, licence='free, "quoted"'))).licence == 'free, "quoted"'
    assert F.parse_non("columns 2\nrows 1\nrows\n2\ncolumns\n1\n1\n").cols == (
        (1,),
        (1,),
    )  # Simpson's 'columns W' / 'rows H'


def test_non_blank_line_is_an_empty_clue_when_the_count_needs_it():
    head = "width 3\nheight 3\n"
    p = F.parse_non(
        head + "rows\n1\n\n1\n\ncolumns\n1,1\n0\n\n"
    )  # row 2 blank; columns 2 and 3 empty ('0', then blank)
    assert p.rows == ((1,), (), (1,)) and p.cols == ((1, 1), (), ())
    p = F.parse_non(head + "rows\n\n1\n1\ncolumns\n0\n2\n0\n")  # the first row blank
    assert p.rows == ((), (1,), (1,))
    p = F.parse_non(head + "rows\n\n1\n\n1\n\n1\n\ncolumns\n\n3\n\n0\n\n0\n")  # blank lines between clues only separate
    assert p.rows == ((1,), (1,), (1,)) and p.cols == ((3,), (), ())
    p = F.parse_non(head + "rows\n\n1\n\n1\n\ncolumns\n1,1\n0\n0\n")  # leading blank separates, inner blank is a clue
    assert p.rows == ((1,), (), (1,))
    with pytest.raises(F.PuzzleError) as err:
        F.parse_non(head + "rows\n1\n\n\n\n1\ncolumns\n2\n0\n0\n", source="p.non")
    assert err.value.line == 8 and "the rows section has 2 clues (and 3 blank lines), expected 3" in str(err.value)
    assert str(err.value).startswith("p.non:8: ")


def test_nin_example_from_the_format_description():
    # The example of jwilk's nonogram(1) manual page: 6 wide, 3 high, rows first.
    text = "6 3\n3 2\n1 2 1\n2 3\n3\n1 1\n2\n2\n1 1\n3\n"
    p = F.parse_nin(text)
    assert p.rows == ((3, 2), (1, 2, 1), (2, 3)) and p.cols == ((3,), (1, 1), (2,), (2,), (1, 1), (3,))
    assert F.format_nin(p) == text
    q = F.parse_nin("\n2 2\n\n0\n2\n\n1\n1\n\n")  # blank lines are skipped, 0 is the empty clue
    assert q.rows == ((), (2,)) and q.cols == ((1,), (1,))
    assert F.format_nin(q) == "2 2\n0\n2\n1\n1\n"


def test_nin_and_txt_read_each_other_transposed_so_a_guess_is_reported():
    nin = "3 2\n3\n1\n2\n1\n1\n"  # 3 wide, 2 high: rows (3), (1); columns (2), (1), (1)
    p, fmt, guessed = F.read(nin, "nin")
    assert (p.rows, p.cols, guessed) == (((3,), (1,)), ((2,), (1,), (1,)), False)
    assert F.read(nin, None, "p.nin")[1:] == ("nin", False)
    q, fmt, guessed = F.read(nin)  # no name: the two readings are each other's transpose; txt wins, and says it guessed
    assert (fmt, guessed) == ("txt", True) and (q.rows, q.cols) == (p.cols, p.rows)
    assert (
        F.guessed_message(nin, fmt, "p")
        == "guessed the format of p: txt (nin would read it transposed; give --format to choose)"
    )
    blanks = "3 2\n3\n1\n\n2\n1\n1\n"  # a blank line: txt counts it as a clue (too many lines), nin skips it
    assert F.read(blanks)[1:] == ("nin", True) and F.read(blanks)[0] == p
    assert F.guessed_message(blanks, "nin", "p") == "guessed the format of p: nin (give --format to choose)"
    txt_only = "2 3\n1\n1\n1\n1, 1\n1\n"  # a comma: only txt
    assert F.read(txt_only)[1] == "txt" and "transposed" not in F.guessed_message(txt_only, "txt", "p")


def test_tatham_example_and_empty_fields():
    p = F.parse_tatham("3x2:2/1/1/3/1")
    assert p.cols == ((2,), (1,), (1,)) and p.rows == ((3,), (1,))
    q = F.parse_tatham("3x2:2//1/1.1/1")  # an empty field is an empty clue
    assert q.cols == ((2,), (), (1,)) and q.rows == ((1, 1), (1,))
    assert F.parse_tatham("3x2:2/0/1/1.1/1") == q
    assert F.format_tatham(q) == "3x2:2//1/1.1/1\n"  # Pattern refuses a 0 clue (since 2023), so none is written
    assert F.parse_tatham("2:1/1/1/1") == F.parse_tatham("2x2:1/1/1/1")  # 'N:' is an N x N grid


def test_tatham_game_ids_with_given_cells():
    # Simon Tatham's own example (puzzles' commit f061101, 2015): Pattern's line solver cannot do
    # 4x4:2/1/2/1/1.1/2/1/1 alone, but can with its top-left cell given filled.
    p = F.parse_tatham("4x4:2/1/2/1/1.1/2/1/1,Ap")
    assert p.cols == ((2,), (1,), (2,), (1,)) and p.rows == ((1, 1), (2,), (1,), (1,))
    assert (p.given_filled, p.given_empty) == (1, 0)
    assert F.format_tatham(p) == "4x4:2/1/2/1/1.1/2/1/1,Ap\n"
    assert F.format_tatham(dataclasses.replace(p, given_filled=0)) == "4x4:2/1/2/1/1.1/2/1/1\n"
    solution = parse_grid("1001/1100/0010/0010")[0]
    assert F.check(dataclasses.replace(p, goal=solution)).goal == solution  # the given cell agrees with it
    # 'z' skips 25 cells and gives none; small letters give empty cells; the last letter may give nothing.
    assert F.format_tatham_givens(1 | 1 << 29, 1 << 26, 30) == "AzaC"
    assert F.parse_tatham_givens("AzaC", 30) == (1 | 1 << 29, 1 << 26)
    assert F.parse_tatham_givens("Bz", 27) == (1 << 1, 0)  # skip 1, give cell 1; skip 25 to the end
    assert F.format_tatham_givens(1 << 1, 0, 27) == "Bz" and F.format_tatham_givens(1 << 1, 0, 30) == "Bzd"
    assert F.parse_tatham_givens("Bzd", 30) == (1 << 1, 0)


def test_xml_example_with_webpbn_metadata():
    text = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<source>made by hand</source>
<author>Set Author</author>
<copyright>(c) the set</copyright>
<puzzle type="grid" defaultcolor="black">
<title>Corner</title>
<id>#7 (v.2)</id>
<note>published</note>
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
    assert p.rows == ((2,), (1,)) and p.cols == ((2,), (1,)) and p.goal == parse_grid("11/10")[0]
    assert (p.title, p.author, p.copyright, p.catalogue, p.licence) == (
        "Corner",
        "Set Author",
        "(c) the set",
        "#7 (v.2)",
        "",
    )


def test_xml_writes_six_digit_colours_and_reads_three_or_six():
    p = F.from_grid(parse_grid("10/01")[0], 2, 2, "diagonal")
    out = F.format_xml(p)
    assert '<color name="white" char=".">FFFFFF</color>' in out and '<color name="black" char="X">000000</color>' in out
    for white, black in (("fff", "000"), ("FFFFFF", "000000"), ("#ffffff", "#000")):
        assert F.parse_xml(out.replace(">FFFFFF<", f">{white}<").replace(">000000<", f">{black}<")) == p
    with pytest.raises(F.PuzzleError) as err:
        F.parse_xml(out.replace(">000000<", ">0000<"), source="p.xml")
    assert err.value.line == 6 and "3 or 6 hex digits" in str(err.value)


def test_guessing_reports_itself_and_unknown_input_names_the_formats():
    non = F.format_non(F.from_grid(1, 1, 1))
    assert F.read(non, None, "puzzle")[1:] == ("non", True)
    assert F.read(non, None, "puzzle.non")[1:] == ("non", False) and F.read(non, "non", "puzzle")[1:] == ("non", False)
    assert F.guessed_message(non, "non", "puzzle") == "guessed the format of puzzle: non (give --format to choose)"
    for text in ("hello\n", "width: 3\n", "{}", "5 5 5\n1\n"):
        with pytest.raises(F.PuzzleError) as err:
            F.read(text, None, "p")
        assert str(err.value) == "could not tell the format of p; these are supported: txt, non, nin, tatham, xml"
    with pytest.raises(F.PuzzleError, match=r"^could not tell the format of p \(it is empty\); "):
        F.read(" \n", None, "p")
    assert F.read("\ufeff2\n1\n1\n1\n1\n")[1] == "txt"  # a byte order mark is skipped


def test_guess_format_by_suffix_and_content():
    assert (
        F.guess_format("", "cat.non") == "non"
        and F.guess_format("", "x.XML") == "xml"
        and F.guess_format("", "a.nin") == "nin"
    )
    assert F.guess_format("5x5:1/1/1/1/1/1/1/1/1/1") == "tatham" and F.guess_format("5:1/1/1/1/1/1/1/1/1/1") == "tatham"
    assert F.guess_format("width 5\n") == "non" and F.guess_format("5\n1\n") == "txt"
    assert F.guess_format("<?xml version='1.0'?><puzzleset/>") == "xml"


@pytest.mark.parametrize(
    "fmt,text,line,message",
    [
        ("txt", "2 2\n1\n1\nx\n1\n", 4, "whole numbers"),
        ("txt", "2 3\n1\n1\n1\n1\n", 5, "found 4"),
        ("txt", "two\n", 1, "size"),
        ("txt", "2 6\n1\n1\n1\n1\n1\n1\n0\n4 2\n", None, "row 2: clue 4 2 needs 7 cells, line has 6"),
        ("txt", "1 2\n1\n1\n0\n", None, "row clues fill 0 cells but the column clues 2"),
        ("non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n", 7, "columns section has 1 clue, expected 2"),
        ("non", "width 2\nrows\n1\n1\ncolumns\n1\n1\n", None, "no 'height' line"),
        ("non", "width 2\nheight 1\nrows\n2\ncolumns\n1\n1\ngoal 10\n", None, "does not have"),
        ("non", "width 2\nheight 1\nrows\n2\ncolumns\n1\n1\ngoal 1\n", 8, "goal must be 2 characters of 0/1"),
        ("non", "width two\n", 1, "width must be a whole number"),
        ("nin", "2\n1\n1\n1\n1\n", 1, "the first line must be the width and the height"),
        ("nin", "2 2\n1\n1\n1\n", 4, "has 2 row clues then 2 column clues (4 lines), found 3"),
        ("nin", "2 2\n1\n1\n1,\n1\n", 4, "whole numbers"),
        ("tatham", "2x2:1/1/1\n", 1, "found 3"),
        ("tatham", "2x2:1/1/1/a\n", 1, "whole numbers"),
        ("tatham", "\n\n2x2:1/1/1\n", 3, "found 3"),
        ("tatham", "2x2:1/1/1/1,Ab", 1, "cover 3 of the 4 cells"),
        ("tatham", "2x2:1/1/1/1,Aca", 1, "run past the 4 cells"),
        ("tatham", "2x2:1/1/1/1,f", 1, "run past the 4 cells"),
        ("tatham", "2x2:1/1/1/1,A1c", 1, "letters a-z or A-Z, got '1'"),
        ("xml", "<puzzle><clues type='rows'><line>\n</puzzle>", 2, "not well-formed"),
        ("xml", "<puzzle><clues type='rows'></clues></puzzle>", 1, 'no <clues type="columns">'),
        (
            "xml",
            "<puzzle>\n<clues type='rows'><line><count color='red'>1</count><count color='blue'>1</count></line></clues></puzzle>",
            2,
            "no <color> defines",
        ),
        (
            "xml",
            "<puzzle>\n<clues type='rows'>\n<line><count>0</count></line></clues></puzzle>",
            3,
            "positive whole number",
        ),
        ("xml", "<puzzle>\n<clues type='diagonal'>\n</clues></puzzle>", 2, "rows or columns"),
        ("xml", "<puzzleset><source>x</source></puzzleset>", None, "no <puzzle> element"),
    ],
)
def test_errors_name_the_line_and_the_problem(fmt, text, line, message):
    with pytest.raises(F.PuzzleError) as err:
        F.parse(text, fmt, source="puzzle")
    assert message in str(err.value) and err.value.line == line
    if line:
        assert str(err.value).startswith(f"puzzle:{line}: ")


def test_given_cells_are_checked():
    p = F.Puzzle(((1,),), ((1,),))
    for filled, empty, message in ((2, 0, "outside the 1x1 grid"), (1, 1, "both filled and empty")):
        with pytest.raises(F.PuzzleError, match=message):
            F.check(dataclasses.replace(p, given_filled=filled, given_empty=empty))
    with pytest.raises(F.PuzzleError, match="do not agree with the goal"):
        F.check(dataclasses.replace(p, goal=1, given_empty=1))


@pytest.mark.parametrize("fmt", F.FORMATS)
def test_damaged_files_fail_with_a_puzzle_error_never_a_traceback(fmt):
    rng = random.Random(fmt)
    texts = [F.format_puzzle(p, fmt) for p in random_puzzles() if p.n * p.m]
    for _ in range(300):
        text = list(rng.choice(texts))
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(text))
            what = rng.random()
            if what < 0.4:
                del text[k]
            elif what < 0.8:
                text.insert(k, rng.choice('0123456789 ,./:\n"<>&#zZaA-x'))
            else:
                text[k] = rng.choice("0123456789\n")
        damaged = "".join(text)
        for given in (fmt, None):
            try:
                F.read(damaged, given, "damaged")
            except F.PuzzleError as err:
                assert "\n" not in str(err)


def test_entities_are_refused():
    bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><puzzle>&a;</puzzle>'
    with pytest.raises(F.PuzzleError, match="entity"):
        F.parse_xml(bomb)


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<puzzle type="grid"><title>&lol9;</title>
<clues type="columns"><line><count>1</count></line></clues>
<clues type="rows"><line><count>1</count></line></clues>
</puzzle>
"""
EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE puzzle [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<puzzle type="grid"><title>&secret;</title>
<clues type="columns"><line><count>1</count></line></clues>
<clues type="rows"><line><count>1</count></line></clues>
</puzzle>
"""


@pytest.mark.parametrize("text,message", [
    (BILLION_LAUGHS, "bomb.xml:3: XML entity declarations are not accepted (entity 'lol')"),
    (EXTERNAL_ENTITY, "bomb.xml:2: XML entity declarations are not accepted (entity 'secret')"),
])  # fmt: skip
def test_entity_bombs_and_external_entities_are_refused_by_defusedxml(text, message):
    # defusedxml refuses the first declaration: nothing is expanded, no file is read; one line, with where it was.
    for read in (lambda: F.parse_xml(text, source="bomb.xml"), lambda: F.read(text, None, "bomb.xml")):
        with pytest.raises(F.PuzzleError) as err:
            read()
        assert str(err.value) == message
    # the same puzzle without the DTD reads (the refusal is the entities', not the rest of the file's)
    plain = F.parse_xml(text.split("]>\n", 1)[1].replace("&lol9;", "").replace("&secret;", ""))
    assert (plain.rows, plain.cols) == (((1,),), ((1,),))


def test_from_grid_has_the_grids_clues():
    grid, n, m = parse_grid("1010/0100/1010/0011")
    p = F.from_grid(grid, n, m)
    assert (p.rows, p.cols) == grid_clues(grid, n, m) and F.check(p) is p
