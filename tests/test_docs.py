"""The README's set-up commands are the ones CI runs."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent


def readme_commands():
    text = (ROOT / "README.md").read_text()
    setup = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```\n(.+?)\n```", setup)


def test_readme_gives_the_two_setup_commands():
    install, tests = readme_commands()[:2]
    assert install == "pip install . && echo 5 | python -m localcount"
    assert tests == "pip install '.[test]' && python -m pytest"


def test_ci_runs_the_readme_test_command():
    test_command = readme_commands()[1]
    assert test_command in (ROOT / ".ci" / "run").read_text().splitlines()
