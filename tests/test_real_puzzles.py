"""The real puzzles in tests/puzzles/ (sources and licences: tests/puzzles/SOURCES.md) get their known answers."""

import pathlib

import pytest

from localcount.clues import parse_grid
from localcount.puzzle import formats
from localcount.puzzle.solving import search as solve

HERE = pathlib.Path(__file__).resolve().parent / "puzzles"
FILES = sorted(p for p in HERE.iterdir() if p.suffix in (".non", ".xml"))
#: Colour puzzles (SOURCES.md says which): not read yet.
COLOUR_NAMES = {"webpbn-color-00047.xml", "webpbn-color-00220.xml"} | {
    f"numberloom-{name}.xml"
    for name in ("listen-left-and-right", "little-hauler", "look-sharp", "missing", "not-invented-yet-1", "take-two")
}
COLOUR = {p for p in FILES if p.name in COLOUR_NAMES}
#: Puzzles the search alone does not decide within a minute: only their answers are checked here (the default method
#: answers both, multiple, in test_sat.py).
HARD = {"webpbn-survey-knotty.xml", "webpbn-survey-faase.xml"}
#: Puzzles that take more than a second: -m slow.
SLOW = {"webpbn-06574.non"}


def answer(path: pathlib.Path, p) -> int:
    """The puzzle's known solution: its own goal, or tests/puzzles/answers/NAME.txt (rows of 0/1)."""
    if p.goal is not None:
        return p.goal
    grid, n, m = parse_grid((HERE / "answers" / (path.stem + ".txt")).read_text())
    assert (n, m) == (p.n, p.m)
    return grid


def test_the_sources_file_names_every_puzzle():
    sources = (HERE / "SOURCES.md").read_text()
    assert FILES and all(f"`{path.name}`" in sources for path in FILES)


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=pytest.mark.slow) if p.name in SLOW else p for p in FILES if p not in COLOUR],
    ids=lambda p: p.name,
)
def test_a_real_puzzle_has_its_known_answer_and_the_search_finds_it(path):
    p = formats.parse(path.read_text(), None, str(path))
    want = answer(path, p)
    assert solve.is_solution(p, want)
    if path.name in HARD:
        return
    found = solve.search(p, limit=2, timeout=120)
    assert found.verdict == solve.UNIQUE and found.solutions == [want], found


@pytest.mark.parametrize("name", sorted(SLOW))
def test_the_default_method_decides_the_slow_ones_quickly(name):
    pytest.importorskip("pysat")
    from localcount.puzzle.solving import sat

    path = HERE / name
    p = formats.parse(path.read_text(), None, str(path))
    found = sat.solve_auto(p, limit=2, timeout=60)  # the search alone takes over a second: handed to SAT
    assert (found.verdict, found.method, found.level) == (solve.UNIQUE, "search+sat", solve.BRANCHING)
    assert found.solutions == [answer(path, p)]
