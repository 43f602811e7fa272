"""``nth``, ``rank``, ``list`` and ``index``: every locally solvable puzzle by its number (``api.numbering``).

    python -m localcount nth 5 5 1234                 # puzzle #1234 of the 24976511, as txt
    python -m localcount nth 5 5 1234 --json          # {"k": 1234, "grid": ["00000", ...], "steps": 3, ...}
    python -m localcount nth 6 6 5 --steps 12         # the 5th 6x6 puzzle of 12 steps
    python -m localcount rank --grid 1001/0001/1001/0011
    python -m localcount rank puzzle.non              # its goal, else what local logic solves it to
    python -m localcount list 5 5 --from 100 --count 10 --steps 3-4
    python -m localcount index 6 6                    # build (or rebuild) a size's index now

The order, the index and their costs: ``docs/numbering.md``.  A size whose index is not shipped builds
it on first use (checkpointed: an interrupted build resumes).  stdout carries the puzzles and
numbers; errors go to stderr.  Exit status: 0 done; 1 a grid with no number (local logic does not
solve it, or not in the steps asked), an unusable index file or a checkpoint problem; 2 bad input;
130 / 143 interrupted (the build's shards are kept).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..api import numbering
from ..api.feedback import Feedback
from ..util.messages import Parser, say
from .common import UsageError, add_run_options, exit_status


def _steps_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--steps", metavar="A-B", help="number only the puzzles local logic solves in this many steps "
                   "(d, or a range a-b): the k-th puzzle of d steps")  # fmt: skip
    _family_options(p)


def _family_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--variant", default="nonogram", help="nonogram (default) or yesnogram (row clues count runs of 0s)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or notices on stderr")


def _format_option(p: argparse.ArgumentParser) -> None:
    from ..puzzle.formats import FORMATS

    p.add_argument("--format", choices=FORMATS, default=None, help="write each puzzle in this format")
    p.add_argument("--json", action="store_true", help="JSON: the number, the grid's rows as 0/1 strings, its steps")


def _size_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("n", help="rows")
    p.add_argument("m", help="columns")


def _size(args) -> tuple:
    """(n, m) of the arguments N M: a size that can be numbered (UsageError otherwise)."""
    return numbering.numbering_size(_whole(args.n, "n"), _whole(args.m, "m"))


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, got {text!r}") from None


def _run(body) -> int:
    """Run a command's body with the shared error handling (``common.exit_status``); its exit status.

    A grid with no number is said as it is, exit status 1; an unusable index file too, after 'error:'.
    """
    from ..results.numberings import NumberingFileError

    def numbered() -> int:
        try:
            return body()
        except numbering.NotNumbered as err:
            say(str(err))
            return 1

    return exit_status(numbered, (NumberingFileError, numbering.NumberingMismatch))


def _show(x: numbering.Numbered, args) -> str:
    """A numbered puzzle as the options ask: JSON, a puzzle format, or txt with its number in the metadata."""
    if args.json:
        return json.dumps(x.to_json())
    return x.puzzle.to_string(args.format or "txt")


def _query(n: int, m: int, args, ask):
    """``ask(order)`` on the index of n×m (built on first use), said on stderr if it compiles the numbering
    kernels (blocks too big for numpy)."""
    import contextlib

    from .. import tuning
    from ..api.feedback import said_if_slow

    order = numbering.numbering(n, m, variant=args.variant, feedback=Feedback.command_line(args.quiet))
    if 1 << order.bits <= tuning.NUMBERING_VECTOR_MAX:
        compiling = contextlib.nullcontext()
    else:
        what = f"compiling the numbering kernels for {n}x{m} (once: they are cached on disk)"
        compiling = said_if_slow(what, args.quiet)
    with compiling:
        return ask(order)


def nth_parser() -> argparse.ArgumentParser:
    """The nth command's arguments."""
    p = Parser(prog="python -m localcount nth", description="Puzzle #K of the locally solvable N x M puzzles, "
               "numbered in the order of their grids (cells read row by row, the top-left most significant).")  # fmt: skip
    _size_arguments(p)
    p.add_argument("k", help="the puzzle's number, from 1")
    _format_option(p)
    _steps_option(p)
    return p


def nth_main(argv) -> int:
    """``nth N M K``: print puzzle #K."""
    args = nth_parser().parse_args(argv)

    def body():
        n, m = _size(args)
        k = _whole(args.k, "k")
        steps = numbering.steps_range(args.steps)
        x = _query(n, m, args, lambda order: order.nth(k, steps))
        print(_show(x, args), end="" if not args.json else "\n", flush=True)
        return 0

    return _run(body)


def rank_parser() -> argparse.ArgumentParser:
    """The rank command's arguments."""
    p = Parser(prog="python -m localcount rank", description="The number of a grid (or of the puzzle in a file) "
               "among the locally solvable puzzles of its size.")  # fmt: skip
    p.add_argument("source", nargs="?", help="a puzzle file ('-' for stdin, or a shipped example's name): its goal, "
                   "else the grid local logic solves it to")  # fmt: skip
    p.add_argument("--grid", help="the grid's rows of 0/1 separated by '/', e.g. 1001/0001/1001/0011")
    p.add_argument("--json", action="store_true", help="one JSON object (as nth --json) instead of the number")
    _steps_option(p)
    return p


def rank_main(argv) -> int:
    """``rank --grid ROWS`` or ``rank FILE``: print the number."""
    args = rank_parser().parse_args(argv)

    def body():
        from ..api.puzzles import Puzzle
        from ..puzzle.model import PuzzleError
        from .puzzles import load

        if (args.grid is None) == (args.source is None):
            raise UsageError("give a grid with --grid ROWS or a puzzle file, not both" if args.grid else
                             "no grid given: --grid ROWS (e.g. 1001/0001/1001/0011) or a puzzle file")  # fmt: skip
        try:
            if args.grid is not None:
                n, m, g, variant = numbering.grid_number(args.grid, args.variant)
            else:
                puzzle = Puzzle.of(load(args.source, None, None if args.variant == "nonogram" else args.variant))
                n, m, g, variant = numbering.grid_number(puzzle)
        except PuzzleError as err:
            raise UsageError(str(err)) from None
        n, m = numbering.numbering_size(n, m)
        args.variant = variant
        steps = numbering.steps_range(args.steps)
        x = _query(n, m, args, lambda order: order.rank(g, steps))
        print(json.dumps(x.to_json()) if args.json else x.k, flush=True)
        return 0

    return _run(body)


def list_parser() -> argparse.ArgumentParser:
    """The list command's arguments."""
    p = Parser(prog="python -m localcount list", description="The locally solvable N x M puzzles in order, from "
               "#K on: one line each (number, rows, steps), or each in a puzzle format.")  # fmt: skip
    _size_arguments(p)
    p.add_argument("--from", dest="start", default="1", metavar="K", help="the first puzzle's number (default 1)")
    p.add_argument("--count", default=None, metavar="C", help="at most this many puzzles (default: to the end)")
    _format_option(p)
    _steps_option(p)
    return p


def list_main(argv) -> int:
    """``list N M``: stream puzzles in order."""
    args = list_parser().parse_args(argv)

    def body():
        n, m = _size(args)
        start = _whole(args.start, "--from")
        count = None if args.count is None else _whole(args.count, "--count")
        if count is not None and count < 0:
            raise UsageError(f"--count must be at least 0, got {count}")
        steps = numbering.steps_range(args.steps)
        puzzles = _query(n, m, args, lambda order: order.puzzles(start, steps) if count != 0 else iter(()))
        try:
            for i, x in enumerate(puzzles):
                if count is not None and i >= count:
                    break
                if args.json or args.format:  # JSON lines; puzzles in a format: a blank line between two
                    sys.stdout.write(_show(x, args) + "\n")
                else:
                    sys.stdout.write(f"{x.k}\t{'/'.join(x.rows)}\t{x.steps}\n")
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. piped into head: the reader has all it wanted
            sys.stderr.close()
        return 0

    return _run(body)


def index_parser() -> argparse.ArgumentParser:
    """The index command's arguments."""
    from ..results.numberings import ENV_DIR as INDEX_ENV

    p = Parser(prog="python -m localcount index", description="Build the index of N x M (each block of grids with "
               "its histogram of steps) that nth, rank and list read, into the data directory (read before the package's).")  # fmt: skip
    _size_arguments(p)
    p.add_argument("--symmetry", choices=("mirror", "none"), default="mirror",
                   help="mirror (default): count half the blocks, copy their mirror images; none: count every block")  # fmt: skip
    p.add_argument(
        "--output", metavar="DIR", help=f"write the index here (default: ${INDEX_ENV} or the data directory)"
    )
    add_run_options(p, "build")
    _family_options(p)
    return p


def index_main(argv) -> int:
    """``index N M``: build an index and say where it went."""
    args = index_parser().parse_args(argv)

    def body():
        n, m = _size(args)
        path = numbering.build_numbering(n, m, variant=args.variant, symmetry=args.symmetry, jobs=args.jobs, directory=args.output,
                                 checkpoint_dir=args.checkpoint_dir, fresh=args.fresh,
                                 feedback=Feedback.command_line(args.quiet))  # fmt: skip
        print(path, flush=True)
        return 0

    return _run(body)
