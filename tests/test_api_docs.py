"""docs/api.md and the API's docstrings run as doctests: every example shows what the code does."""

import doctest
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["localcount.api.counting", "localcount.api.stats", "localcount.api.known", "localcount.api.puzzles",
           "localcount.api.making", "localcount.api.numbering"]  # fmt: skip
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_the_api_tour_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the page writes only into temporary folders; nothing lands in the checkout
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 40 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_the_api_docstrings_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0


def test_the_readme_python_lines_print_what_their_comments_say():
    text = (ROOT / "README.md").read_text()
    (block,) = __import__("re").findall(r"```python\n(.*?)```", text, __import__("re").S)
    namespace: dict = {}
    for line in block.splitlines():
        code, _, comment = line.partition("  # ")
        if comment:
            assert repr(eval(code, namespace)) == comment.strip(), line
        else:
            exec(code, namespace)


ISSUE_BLOCK = """
import localcount as lc
lc.count(5)                      # 24976511 (one number: a square)
lc.count(2, 5)                   # 810
lc.count(5, variant="yesnogram")
lc.count(3, 4, checkpoint_dir="runs/", jobs=2, progress=True)   # sharded, resumable: the CLI's keys and files
s = lc.stats(4)                  # frozen dataclass: grids, solvable, unique, stuck, steps {steps: grids}, mean_steps, max_steps, rounds
lc.known(6, 7)                   # the recorded count with its provenance (the results table ships in the wheel), or None
p = lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]])   # the R package's 3x3 example
r = p.solve()                    # Solution
p.explain()                      # local logic's steps, one record per line step (which line, which cells it decided)
p.difficulty                     # steps, or None when local logic does not solve it
lc.Puzzle.from_grid([[1, 0, 1], [0, 1, 0], [1, 1, 1]])            # lists, strings or a numpy array
lc.Puzzle.read("cat.non"); lc.Puzzle.parse(text, format=None); p.write("cat.xml"); p.to_string("non")
lc.generate(10, 10, steps=(8, 12), seed=1)                        # -> Puzzle
lc.design("heart.png", size=(20, 20), seed=1)                     # -> Puzzle (pictures extra)
"""


def test_the_issues_block_runs_as_written(tmp_path, monkeypatch, capsys):
    """The API's contract (issue 39), line by line; only the 6x7 count (1.7 h) is a 3x4 here."""
    monkeypatch.chdir(tmp_path)
    namespace = {"text": "3\n1 1\n2\n1 1\n1 1\n1\n3\n"}
    exec(ISSUE_BLOCK, namespace)
    lc, s, r, p = namespace["lc"], namespace["s"], namespace["r"], namespace["p"]
    from localcount.results import records

    (row,) = [row for row in records.read_stats_table(ROOT / "results") if (row.n, row.m) == (4, 4)]  # two paths agreed
    assert (s.grids, s.solvable, s.unique, s.stuck) == (row.grids, row.solvable, row.unique, row.stuck_start)
    assert (s.rounds, s.steps) == (records.parse_rounds(row.rounds), records.parse_rounds(row.steps))
    assert (s.max_steps, f"{s.mean_steps:.6f}", s.max_rounds) == (int(row.max_steps), row.mean_steps, row.max_rounds)
    assert r.verdict == "unique" and r.level == "line" and p.difficulty == 2
    assert lc.Puzzle.read("cat.xml") == p and (tmp_path / "runs" / "3x4-v1-s8-sym.log").exists()
    assert "3x4" in capsys.readouterr().err  # progress=True: the bar on stderr
