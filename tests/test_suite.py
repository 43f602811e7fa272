"""The test suite's own shape: the README's quick ``python -m pytest`` leaves out only what ``tests/conftest.py``
names long (and the browser's and the slow tests), each name a real test, and every test file keeps quick tests."""

from __future__ import annotations

import ast
import pathlib

from conftest import LONG

TESTS = pathlib.Path(__file__).resolve().parent


def functions_of(path: pathlib.Path) -> set:
    return {node.name for node in ast.parse(path.read_text()).body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}  # fmt: skip


def test_every_long_test_exists():
    missing = [f"{name}::{test}" for name, tests in LONG.items() for test in sorted(tests)
               if test.split("[")[0] not in functions_of(TESTS / name)]  # fmt: skip
    assert missing == []


def test_every_test_file_keeps_quick_tests():
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name in ("test_web_browser.py", "test_gpu_ptx.py"):  # the browser's; the PTX one runs on its own
            continue
        quick = functions_of(path) - LONG.get(path.name, set())  # a function with one long case keeps the others
        assert quick, f"{path.name}: every test is long"
