"""``generate`` and ``design``: simple puzzles made to order, at random or from a picture.

    python -m localcount generate 10 10 --seed 1                 # plain format on stdout
    python -m localcount generate 15 --steps 8-12 --format non -o p.non --png p.png
    python -m localcount design heart --size 20x20 --png side.png  # a shipped picture, or a PNG/JPEG file

It writes the puzzle like ``convert``: to stdout in the plain format, or
``--format F`` and ``-o FILE``; what was made (difficulty, filled
cells, how it was drawn, the seed, the time) goes to stderr.  Every
puzzle is checked before it is written: local logic solves it from its
clues alone, to the grid made, in the steps reported.  Exit status: 0 made,
1 none found (or a file that cannot be written), 2 bad arguments (or a
picture that cannot be read).
"""

from __future__ import annotations

import argparse
import re

from .. import tuning
from ..api.making import make_design, make_random
from ..api.puzzles import compile_when_slow
from ..puzzle import drawing as pictures
from ..puzzle import formats
from ..puzzle.making import design
from ..puzzle.model import Puzzle
from ..puzzle.solving import logic
from ..util.errors import UsageError
from ..util.messages import Parser, say
from .common import exit_status
from .puzzles import emit, plural, write_picture


def _common(ap: argparse.ArgumentParser) -> None:
    """The options of a made puzzle: difficulty, seed, output."""
    ap.add_argument("--steps", help="difficulty in steps: 7, a range 3-6, at least 5- or at most -4 (default: any)")
    ap.add_argument("--seed", type=int, help="same seed, same puzzle (default: a random seed, printed on stderr)")
    ap.add_argument("--format", default="txt", choices=formats.FORMATS, help="the output format (default: txt)")
    ap.add_argument("-o", "--output", help="write the puzzle here instead of stdout")


def generate_parser() -> argparse.ArgumentParser:
    """The arguments of ``generate``."""
    ap = Parser(
        prog="python -m localcount generate",
        description="A random simple (locally solvable) puzzle of n rows and m columns. Drawn uniformly from the "
        "simple grids of the asked difficulty (at density 0.5) by rejection, or, if that finds none, by a local "
        "search that is not uniform (see docs/making.md).",
    )
    ap.add_argument("size", nargs="+", help="n (a square) or n m: rows and columns")
    _common(ap)
    ap.add_argument("--density", type=float, default=0.5, help="chance that a drawn cell is filled (default 0.5)")
    ap.add_argument("--method", default="auto", help="rejection (uniform), search (a "
                    "Metropolis walk, for rare difficulties), or auto: rejection, then search (default)")  # fmt: skip
    ap.add_argument("--tries", type=int, help="grids rejection draws, and search tries, before giving up "
                    "(default: about 10^6 cells)")  # fmt: skip
    ap.add_argument("--timeout", type=float, metavar="SECONDS", help="give up after this many seconds "
                    "(default: none; --tries bounds the work)")  # fmt: skip
    ap.add_argument("--png", metavar="FILE", help="also write the puzzle (clues, blank grid) as a picture")
    return ap


def _size(tokens) -> tuple:
    """(n, m) from 'n' or 'n m' (UsageError otherwise)."""
    if len(tokens) > 2 or not all(re.fullmatch(r"\d+", t) for t in tokens):
        raise UsageError(f"size is n (a square) or n m, whole numbers; got {' '.join(tokens)!r}")
    n, m = (int(t) for t in tokens * (2 // len(tokens)))
    return n, m


def _write(p: Puzzle, args, png) -> int:
    """Write the puzzle (and ``png()``'s picture to ``args.png``); exit status."""
    status = emit(formats.format_puzzle(p, args.format), args.output)
    if status == 0 and args.png and write_picture(args.png, png):
        return 1
    return status


def _difficulty(steps: int) -> str:
    """'7 steps (4 rounds)'."""
    return f"{plural(steps, 'step')} ({plural(logic.Difficulty(steps).rounds, 'round')})"


def generate_main(argv) -> int:
    """``generate N [M]``: a random simple puzzle (``api.making.make_random``)."""
    args = generate_parser().parse_args(argv)

    def body() -> int:
        n, m = _size(args.size)
        compile_when_slow(timeout=args.timeout, notice=say)
        out = make_random(
            n, m, steps=args.steps, seed=args.seed, density=args.density, tries=args.tries, method=args.method,
            timeout=args.timeout)  # fmt: skip
        made, p = out.made, out.puzzle.model
        if made.method == "rejection":
            how = f"drawn by rejection ({plural(made.tries, 'grid')} drawn)"
        else:
            how = f"found by search, not uniform ({plural(made.tries, 'grid')} tried)"
        say(f"{n}x{m} puzzle, seed {out.seed}: difficulty {_difficulty(made.steps)}, {made.filled} of {n * m} cells "
            f"filled; {how}; checked; {out.seconds:.2f} s")  # fmt: skip
        return _write(p, args, lambda: pictures.png(p))

    try:
        return exit_status(body, (ValueError,))  # GenerateError: none found
    finally:
        compile_when_slow(None)


def design_parser() -> argparse.ArgumentParser:
    """The arguments of ``design``."""
    ap = Parser(
        prog="python -m localcount design",
        description="A simple (locally solvable) puzzle that looks like a picture: the picture scaled to the grid "
        "and thresholded, then as few cells changed as local logic needs (see docs/making.md).",
    )
    ap.add_argument("image", help=f"a PNG or JPEG file, or a shipped picture: {', '.join(design.shipped())}")
    ap.add_argument("--size", required=True, help="WxH: W columns and H rows (or N for N x N)")
    _common(ap)
    ap.add_argument("--threshold", type=float, default=0.5, help="grey level below which a cell is filled "
                    "(0 black .. 1 white; default 0.5)")  # fmt: skip
    ap.add_argument("--max-changes", type=int, help="give up past this many changed cells (default: no limit)")
    ap.add_argument("--pool", type=int, default=tuning.DESIGN_POOL, help=f"cells tried per change, closest to the "
                    f"threshold first (default {tuning.DESIGN_POOL})")  # fmt: skip
    ap.add_argument("--timeout", type=float, metavar="SECONDS", help="give up after this many seconds (default: "
                    "none)")  # fmt: skip
    ap.add_argument(
        "--png", metavar="FILE", help="also write the picture, the puzzle and the changed cells side by side"
    )
    return ap


def design_main(argv) -> int:
    """``design IMAGE --size WxH``: a simple puzzle from a picture (``api.making.make_design``)."""
    args = design_parser().parse_args(argv)

    def body() -> int:
        compile_when_slow(timeout=args.timeout, notice=say)
        out = make_design(args.image, args.size, steps=args.steps, seed=args.seed, threshold=args.threshold,
                          max_changes=args.max_changes, pool=args.pool, timeout=args.timeout)  # fmt: skip
        made, p, n, m = out.made, out.puzzle.model, out.made.n, out.made.m
        say(f"{m}x{n} puzzle (columns x rows) from {out.picture}: {made.changes} of {n * m} cells changed "
            f"({100 * made.changes / (n * m):.1f} %; local logic left {made.bound} unknown on the thresholded picture), "
            f"difficulty {_difficulty(made.steps)}, {made.filled} cells filled; seed {out.seed}; {made.tried} grids "
            f"tried; checked; {out.seconds:.2f} s")  # fmt: skip
        return _write(p, args, lambda: pictures.design_png(out.grey, made.grid, made.target))

    try:
        return exit_status(body, (ValueError,))  # DesignError: none found
    finally:
        compile_when_slow(None)
