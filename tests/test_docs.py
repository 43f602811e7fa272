"""The docs match the code: README's set-up commands are the ones CI runs, and every command shown parses."""

import contextlib
import io
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


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


def test_readme_is_a_front_door():
    text = (ROOT / "README.md").read_text()
    assert len(text) <= 8500, f"README.md has {len(text)} characters; move details to docs/"
    for doc in DOCS[1:]:
        assert f"docs/{doc.name}" in text, f"README.md does not link {doc.name}"


def shown_commands(prefix: str) -> list:
    """(file, argv after the prefix) of every line in a code block of the docs that runs ``prefix``."""
    found = []
    for doc in DOCS:
        blocks = re.findall(r"```[a-z]*\n(.*?)```", doc.read_text(), re.S)
        for line in (line for block in blocks for line in block.splitlines()):
            command = line.split(" #", 1)[0].split("| ", 1)[-1].split("&& ", 1)[-1].strip()
            if command.startswith(prefix):
                found.append((doc.name, shlex.split(command[len(prefix) :])))
    return found


LOCALCOUNT = shown_commands("python -m localcount")


def test_the_docs_show_commands():
    assert len(LOCALCOUNT) > 30
    assert {argv[0] for _, argv in LOCALCOUNT if argv} >= {
        "merge",
        "status",
        "table",
        "stats",
        "solve",
        "explain",
        "examples",
        "convert",
    }


@pytest.mark.parametrize("where,argv", LOCALCOUNT, ids=[" ".join(a) or "(stdin)" for _, a in LOCALCOUNT])
def test_every_localcount_command_in_the_docs_parses(where, argv):
    from localcount.cli import parser_for

    parser, rest = parser_for(argv)
    with contextlib.redirect_stderr(io.StringIO()) as err:
        try:
            parser.parse_args(rest)
        except SystemExit as exit:
            pytest.fail(
                f"{where}: python -m localcount {shlex.join(argv)}: {err.getvalue().strip()} (exit {exit.code})"
            )


def test_a_bad_command_fails_to_parse():
    from localcount.cli import parser_for

    parser, rest = parser_for(["stats", "5", "--no-such-option"])
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
        parser.parse_args(rest)


SCRIPTS = shown_commands("python scripts/")


def test_every_script_in_the_docs_exists():
    assert SCRIPTS and all((ROOT / "scripts" / argv[0]).exists() for _, argv in SCRIPTS)


@pytest.mark.parametrize("script", sorted({argv[0] for _, argv in SCRIPTS if len(argv) > 1}))
def test_every_script_option_in_the_docs_exists(script):
    helptext = subprocess.run([sys.executable, f"scripts/{script}", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert helptext.returncode == 0, helptext.stderr
    for _, argv in SCRIPTS:
        for option in (a.split("=", 1)[0] for a in argv[1:] if argv[0] == script and a.startswith("--")):
            assert option in helptext.stdout, f"scripts/{script} has no option {option}"
