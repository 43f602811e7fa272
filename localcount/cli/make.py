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
import random
import re
import time
from dataclasses import replace

from ..puzzle import design, formats, generate, logic, pictures
from ..puzzle.model import Puzzle, from_grid
from ..util.messages import Parser, say
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
    ap.add_argument("--png", metavar="FILE", help="also write the puzzle (clues, blank grid) as a picture")
    return ap


def _seed(seed) -> int:
    """The seed given, or a fresh random one."""
    return random.SystemRandom().randrange(1 << 32) if seed is None else seed


def _steps(text):
    """(lo, hi) from --steps, or None."""
    return None if text is None else generate.parse_steps(text)


def _size(tokens) -> tuple:
    """(n, m) from 'n' or 'n m' (ValueError otherwise)."""
    if len(tokens) > 2 or not all(re.fullmatch(r"\d+", t) for t in tokens):
        raise ValueError(f"size is n (a square) or n m, whole numbers; got {' '.join(tokens)!r}")
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
    """``generate N [M]``: a random simple puzzle."""
    args = generate_parser().parse_args(argv)
    try:
        n, m = _size(args.size)
        steps = _steps(args.steps)
        generate.validate(n, m, steps, args.density, 1 if args.tries is None else args.tries, args.method)
    except ValueError as err:
        say(f"error: {err}")
        return 2
    seed, start = _seed(args.seed), time.perf_counter()
    try:
        made = generate.generate(n, m, steps, args.density, seed, args.tries, args.method)
    except generate.GenerateError as err:
        say(f"error: {err} (seed {seed})")
        return 1
    p = replace(from_grid(made.grid, n, m, f"random {n}x{m}, seed {seed}, {made.steps} steps"), author="localcount generate")
    if made.method == "rejection":
        how = f"drawn by rejection ({plural(made.tries, 'grid')} drawn)"
    else:
        how = f"found by search, not uniform ({plural(made.tries, 'grid')} tried)"
    say(f"{n}x{m} puzzle, seed {seed}: difficulty {_difficulty(made.steps)}, {made.filled} of {n * m} cells filled; "
        f"{how}; checked; {time.perf_counter() - start:.2f} s")  # fmt: skip
    return _write(p, args, lambda: pictures.png(p))


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
    ap.add_argument("--pool", type=int, default=design.POOL, help=f"cells tried per change, closest to the "
                    f"threshold first (default {design.POOL})")  # fmt: skip
    ap.add_argument("--png", metavar="FILE", help="also write the picture, the puzzle and the changed cells side by side")
    return ap


def design_main(argv) -> int:
    """``design IMAGE --size WxH``: a simple puzzle from a picture."""
    args = design_parser().parse_args(argv)
    try:
        n, m = design.parse_size(args.size)
        steps = _steps(args.steps)
        if args.max_changes is not None and args.max_changes < 0:
            raise ValueError(f"--max-changes must be at least 0, got {args.max_changes}")
        generate.validate(n, m, steps)
        path = design.picture_path(args.image)
        grey = design.load_grey(path, n, m)
        design.validate(grey, args.threshold, steps, args.pool)
    except ValueError as err:  # DesignError too
        say(f"error: {err}")
        return 2
    seed, start = _seed(args.seed), time.perf_counter()
    try:
        made = design.design(grey, args.threshold, steps, seed, args.max_changes, args.pool)
    except design.DesignError as err:
        say(f"error: {err} (seed {seed})")
        return 1
    title = f"{path.name}, {m}x{n} (columns x rows)"
    p = replace(from_grid(made.grid, n, m, title), author="localcount design")
    say(f"{m}x{n} puzzle (columns x rows) from {path.name}: {made.changes} of {n * m} cells changed "
        f"({100 * made.changes / (n * m):.1f} %; local logic left {made.bound} unknown on the thresholded picture), "
        f"difficulty {_difficulty(made.steps)}, {made.filled} cells filled; seed {seed}; {made.tried} grids tried; "
        f"checked; {time.perf_counter() - start:.2f} s")  # fmt: skip
    return _write(p, args, lambda: pictures.design_png(grey, made.grid, made.target))
