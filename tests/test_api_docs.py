"""docs/api.md and the API's docstrings run as doctests: every example shows what the code does."""

import doctest
import importlib
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["localcount.api.counting", "localcount.api.stats", "localcount.api.known", "localcount.api.puzzles",
           "localcount.api.making"]  # fmt: skip
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def test_the_api_tour_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the page writes only into temporary folders; nothing lands in the checkout
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=FLAGS)
    assert result.attempted > 40 and result.failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_the_api_docstrings_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=FLAGS)
    assert result.failed == 0
