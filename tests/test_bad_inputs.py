"""A sweep of bad inputs through the API and the command line: sizes, clues, files, options.

The API raises a ``ValueError`` (``UsageError`` or ``PuzzleError``) whose
message is one line; the command line says that line on stderr with exit
status 2, prints nothing on stdout, and never shows a traceback.
"""

import pathlib

import pytest
from incli import cli

import localcount as lc

ROOT = pathlib.Path(__file__).resolve().parent.parent
BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<puzzleset><puzzle type="grid"><clues type="columns"><line><count>&lol2;</count></line></clues></puzzle></puzzleset>
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    """Bad files by name: garbage text, binary bytes, an XML bomb, a clue too long, a directory, a text 'picture'."""
    d = tmp_path_factory.mktemp("bad")
    made = {
        "garbage.txt": "hello\nworld\n",
        "binary.non": b"\x89PNG\r\n\x1a\n\x00\xff\xfe",
        "bomb.xml": BILLION_LAUGHS,
        "long.txt": "2\n3\n1\n1\n1\n",
        "picture.png": "not a picture",
        "unknown.xyz": "nothing known",
        "yes.txt": "// variant: yesnogram\n2 3\n1\n1\n1\n1\n1\n",
    }
    for name, data in made.items():
        (d / name).write_bytes(data if isinstance(data, bytes) else data.encode())
    (d / "folder").mkdir()
    return {name: str(d / name) for name in [*made, "folder"]}


CLI = [
    # sizes
    ["-1"], ["65"], ["9", "9"], ["a"], ["1", "2", "3"], ["2.5"],
    # count options
    ["5", "--jobs", "0"], ["5", "--shard", "3/2"], ["5", "--shard", "x"], ["5", "--symmetry", "bogus"],
    ["5", "--variant", "maybe"], ["5", "--method", "thin"], ["2", "20", "--method", "thin", "--symmetry", "square"],
    ["5", "--dask-local", "0"], ["5", "--variant", "yesnogram", "--symmetry", "square"], ["5", "--shard-bits", "-3"],
    ["5", "--no-such-option"],
    # stats, table
    ["stats", "-3"], ["stats", "9", "9"], ["stats", "4", "--variant", "x"], ["stats", "4", "--jobs", "0"],
    ["table", "--max-cells", "-5"], ["table"], ["table", "--sizes", "3y4"], ["table", "--sizes", "9x9"],
    ["table", "--variant", "x", "--max-cells", "4"],
    # making
    ["generate", "100000", "100000"], ["generate", "0"], ["generate", "5", "--steps", "x"],
    ["generate", "5", "--density", "2"], ["generate", "5", "--steps", "99"], ["generate", "5", "--method", "x"],
    ["generate", "5", "--tries", "0"], ["generate", "-5"], ["generate", "5", "6", "7"],
    ["design", "{picture.png}", "--size", "10"], ["design", "nosuch.png", "--size", "10"], ["design", "heart", "--size", "0x3"],
    ["design", "heart", "--size", "axb"], ["design", "heart", "--size", "10", "--threshold", "2"],
    ["design", "heart", "--size", "100000x100000"], ["design", "heart", "--size", "10", "--max-changes", "-1"],
    # single puzzles
    ["solve", "nosuch"], ["solve", "{garbage.txt}"], ["solve", "{binary.non}"], ["solve", "{bomb.xml}"],
    ["solve", "{long.txt}"], ["solve", "{folder}"], ["solve", "{unknown.xyz}"], ["solve", "cat", "--limit", "0"],
    ["solve", "cat", "--timeout", "-1"], ["solve", "cat", "--max-nodes", "0"], ["solve", "cat", "--variant", "x"],
    ["solve", "cat", "--variant", "yesnogram"], ["solve", "cat", "--format", "bogus"],
    ["explain", "--grid", "10/1"], ["explain", "--grid", "12"], ["explain", "--grid", "10", "--variant", "x"],
    ["convert", "{yes.txt}", "--to", "nin"], ["convert", "nosuch", "--to", "non"], ["convert", "cat", "--to", "bogus"],
]  # fmt: skip


@pytest.mark.parametrize("argv", CLI, ids=lambda a: " ".join(a))
def test_the_command_line_says_one_line_and_exits_2(argv, files, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LOCALCOUNT_CHECKPOINT_DIR", str(tmp_path / "ck"))
    argv = [files[a[1:-1]] if a.startswith("{") else a for a in argv]
    if argv[0] == "table":
        argv += ["--results", str(tmp_path / "results"), "--readme", "/dev/null"]
    status, out, err = cli(*argv)
    assert status == 2, (argv, status, out, err)
    assert out == "" and "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("localcount: error: "), err


@pytest.mark.parametrize("stdin", ["", "x y", "5 5 5", "-4"])
def test_a_bad_size_on_stdin_is_one_line(stdin):
    status, out, err = cli(stdin=stdin)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def _puzzle():
    return lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]])


API = {
    "count negative": lambda: lc.count(-1),
    "count too many cells": lambda: lc.count(9, 9),
    "count a string": lambda: lc.count("5"),
    "count a float": lambda: lc.count(2.5),
    "count jobs 0": lambda: lc.count(5, jobs=0),
    "count bad shard": lambda: lc.count(5, shard="3/2"),
    "count shard not a group": lambda: lc.count(5, shard=7),
    "count bad variant": lambda: lc.count(5, variant="x"),
    "count bad method": lambda: lc.count(5, method="x"),
    "count bad symmetry": lambda: lc.count(5, symmetry="x"),
    "count thin of a square": lambda: lc.count(5, method="thin"),
    "count dask and scheduler": lambda: lc.count(5, scheduler="tcp://127.0.0.1:1", dask_local=1),
    "stats too big": lambda: lc.stats(9, 9),
    "stats bad variant": lambda: lc.stats(4, variant="x"),
    "stats bad path": lambda: lc.stats(4, path="x"),
    "known negative": lambda: lc.known(-1),
    "known bad variant": lambda: lc.known(5, variant="x"),
    "clue too long": lambda: lc.Puzzle(rows=[[5]], columns=[[1]]),
    "negative clue": lambda: lc.Puzzle(rows=[[-1]], columns=[[1]]),
    "clues not a list": lambda: lc.Puzzle(rows=5, columns=[]),
    "clue of letters": lambda: lc.Puzzle(rows=[["a"]], columns=[[1]]),
    "clue of floats": lambda: lc.Puzzle(rows=[[1.5]], columns=[[1]]),
    "totals differ": lambda: lc.Puzzle(rows=[[1], [1]], columns=[[1], []]),
    "puzzle bad variant": lambda: lc.Puzzle(rows=[[1]], columns=[[1]], variant="x"),
    "goal of another size": lambda: lc.Puzzle(rows=[[1]], columns=[[1]], goal=[[1, 0]]),
    "grid of 2s": lambda: lc.Puzzle.from_grid([[0, 2]]),
    "ragged grid": lambda: lc.Puzzle.from_grid([[1], [1, 0]]),
    "ragged grid, short last row": lambda: lc.Puzzle.from_grid([[1], []]),
    "grid a number": lambda: lc.Puzzle.from_grid(5),
    "read no such file": lambda: lc.Puzzle.read("nosuch"),
    "parse garbage": lambda: lc.Puzzle.parse("garbage"),
    "parse bytes": lambda: lc.Puzzle.parse(b"2\n1\n1\n1\n1\n"),
    "parse bad format": lambda: lc.Puzzle.parse("1\n1\n1\n", format="bogus"),
    "parse an XML bomb": lambda: lc.Puzzle.parse(BILLION_LAUGHS),
    "to_string bad format": lambda: _puzzle().to_string("bogus"),
    "write unknown suffix": lambda: _puzzle().write("puzzle.unknown"),
    "yesnogram as nin": lambda: lc.Puzzle.from_grid("10/01", variant="yesnogram").to_string("nin"),
    "solve bad method": lambda: _puzzle().solve(method="x"),
    "solve limit 0": lambda: _puzzle().solve(limit=0),
    "solve negative timeout": lambda: _puzzle().solve(timeout=-1),
    "solve timeout a string": lambda: _puzzle().solve(timeout="soon"),
    "solve max nodes 0": lambda: _puzzle().solve(max_nodes=0),
    "generate huge": lambda: lc.generate(100000, 100000),
    "generate empty": lambda: lc.generate(0),
    "generate bad steps": lambda: lc.generate(5, steps="x"),
    "generate steps a float": lambda: lc.generate(5, steps=2.5),
    "generate impossible steps": lambda: lc.generate(5, steps=99),
    "generate bad density": lambda: lc.generate(5, density=2),
    "generate a string size": lambda: lc.generate("5"),
    "generate bad seed": lambda: lc.generate(5, seed="x"),
    "design no such picture": lambda: lc.design("nosuch.png", 10),
    "design empty size": lambda: lc.design("heart", (0, 3)),
    "design bad size": lambda: lc.design("heart", "axb"),
    "design huge": lambda: lc.design("heart", (100000, 100000)),
}


@pytest.mark.parametrize("name", API)
def test_the_api_raises_a_value_error_of_one_line(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as err:
        API[name]()
    assert isinstance(err.value, (lc.UsageError, lc.PuzzleError)), type(err.value)
    message = str(err.value)
    assert message and "\n" not in message and "Traceback" not in message
