"""The command line: ``python -m localcount [COMMAND] ...``; one module per command, ``common`` for what they share.

* ``count`` — the count (no command word): ``python -m localcount 5``;
* ``checkpoints`` — ``merge``, ``status`` and ``verify`` (a GPU count's sample recounted on the CPU);
* ``table`` — both paths of a range of sizes into results/;
* ``stats`` — uniqueness, difficulty and stuck grids of one size;
* ``sample`` — random grids: the simple fraction with its interval, the steps;
* ``puzzles`` — ``solve``, ``explain``, ``examples``, ``convert``;
* ``make`` — ``generate`` and ``design``: simple puzzles made to order, at random or from a picture;
* ``tune`` — which CPU kernel variant counts fastest here;
* ``serve`` — the page for puzzle makers and players (``localcount.web``);
* ``every`` — ``nth``, ``rank``, ``list`` and ``index``: every locally solvable puzzle by its number.

stdout carries data only; diagnostics go to stderr as ``localcount: ...``.
Exit status: 0 done; 1 a checkpoint problem, an incomplete merge or an
error; 2 bad input; 130 / 143 interrupted by SIGINT / SIGTERM (progress kept).

Top layer: may import every package.  A command module is imported only
when its command runs, so ``--help``, ``status``, ``merge``, ``examples``,
``convert``, ``explain``, ``solve``, ``generate``, ``design`` and ``serve`` never load numba.
"""

from __future__ import annotations

import importlib
import sys

#: Command word -> "module:function:parser function" in this package (no command word: the count).
COMMANDS = {
    "merge": "checkpoints:merge_main:merge_parser",
    "status": "checkpoints:status_main:status_parser",
    "verify": "checkpoints:verify_main:verify_parser",
    "tune": "tune:main:parser",
    "table": "table:main:parser",
    "stats": "stats:main:parser",
    "sample": "sample:main:parser",
    "solve": "puzzles:solve_main:solve_parser",
    "explain": "puzzles:explain_main:explain_parser",
    "examples": "puzzles:examples_main:examples_parser",
    "convert": "puzzles:convert_main:convert_parser",
    "generate": "make:generate_main:generate_parser",
    "design": "make:design_main:design_parser",
    "serve": "serve:main:parser",
    "nth": "numbering:nth_main:nth_parser",
    "rank": "numbering:rank_main:rank_parser",
    "list": "numbering:list_main:list_parser",
    "index": "numbering:index_main:index_parser",
}
COUNT = "count:main:parser"

#: Every command with one line, grouped, for ``python -m localcount --help`` (a test keeps it equal to COMMANDS).
SUMMARIES = (
    ("counting", (
        ("(none)", "N [M]: count the locally solvable N x M grids (this help)"),
        ("stats", "uniquely solvable, stuck at the start, steps and rounds of one size"),
        ("table", "every size of a range by two code paths, recorded in results/"),
        ("sample", "random grids of any size to 62x62: the simple fraction, steps"),
        ("status", "how far the checkpoints of long runs are: done, left, ETA"),
        ("merge", "add up the shard records of runs split over machines"),
        ("verify", "recount a GPU count's seeded sample of shards on the CPU, compare"),
        ("tune", "time the CPU kernel variants here; long counts use the fastest"),
    )),
    ("puzzles", (
        ("solve", "solve one puzzle: local logic, probing, a complete search"),
        ("explain", "a grid's clues and local logic's steps on them"),
        ("examples", "list the shipped puzzles"),
        ("convert", "a puzzle from one file format to another"),
        ("generate", "a random simple puzzle, of a difficulty if asked"),
        ("design", "a simple puzzle that looks like a picture"),
        ("nth", "simple puzzle #K of a size, in the order of its grids"),
        ("rank", "the number of a simple puzzle among those of its size"),
        ("list", "the simple puzzles of a size in order, from #K on"),
        ("index", "build the index that nth, rank and list read"),
    )),
    ("the page", (
        ("serve", "the page: draw, type, open, solve and play puzzles"),
    )),
)  # fmt: skip


def commands_help() -> str:
    """The grouped list of every command, one line each (the count's ``--help`` ends with it)."""
    width = max(len(name) for _, rows in SUMMARIES for name, _ in rows)
    out = ["commands (python -m localcount COMMAND --help for each):"]
    for title, rows in SUMMARIES:
        out.append(f"  {title}:")
        out += [f"    {name.ljust(width)}  {line}" for name, line in rows]
    return "\n".join(out)


#: Commands that leave nothing to clean up once their output is written (no worker processes, no checkpoint):
#: ``python -m localcount`` ends them at once when they loaded numba, whose teardown takes about 0.3 s.
QUICK_EXIT = frozenset({"solve", "generate", "design"})


def quick_exit(argv: list) -> bool:
    """Whether the command of this command line may end without the interpreter's teardown (QUICK_EXIT)."""
    return bool(argv) and argv[0] in QUICK_EXIT


def _command(argv: list) -> tuple:
    """(module, function name, parser name, the command's own arguments) for a command line."""
    spec = COMMANDS.get(argv[0]) if argv else None
    name, func, parser = (spec or COUNT).split(":")
    return importlib.import_module(f"{__name__}.{name}"), func, parser, argv[1:] if spec else argv


def parser_for(argv) -> tuple:
    """(argparse parser, its arguments) of a command line, without running it (to check documented commands)."""
    module, _, parser, rest = _command(list(argv))
    return getattr(module, parser)(), rest


def main(argv=None) -> int:
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    module, func, _, rest = _command(argv)
    return getattr(module, func)(rest)
