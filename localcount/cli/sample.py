"""``python -m localcount sample N [M]``: how many random grids local logic solves, and in how many steps.

stdout gets the simple fraction with its 95 % interval and the steps
histogram (or, with ``--json``, one JSON object); progress and a summary go
to stderr.  As for the count (the same machinery,
``orchestration.launch.launch``), samples expected to take a second or
more (or given ``--checkpoint-dir`` / ``--fresh``) are split into shards of
1000 grids run by worker processes and recorded in a checkpoint: the same
command resumes after any stop.  Exit status: 0 done, 1 a checkpoint problem
or an error, 2 bad input, 130 / 143 interrupted.
"""

from __future__ import annotations

import argparse
import json

from ..api.feedback import Feedback
from ..api.sample import run_sample
from ..util.errors import UsageError
from ..util.messages import Parser, say
from .common import add_idle_option, add_run_options, exit_status


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    return value


def parser() -> argparse.ArgumentParser:
    """The sample command's arguments."""
    p = Parser(
        prog="python -m localcount sample",
        description="Random N x M grids (each cell filled with probability --density): how many local logic "
        "solves, with a 95 %% confidence interval, and the steps it needs (a step is a pass over every row or "
        "every column, rows first). Sides up to 62 cells.",
    )
    p.add_argument("size", nargs="+", help="n (square) or n m (n rows, m columns)")
    p.add_argument("--density", type=_fraction, default=0.5, help="probability of a filled cell, a multiple of "
                   "0.001 (default 0.5)")  # fmt: skip
    p.add_argument("--count", type=int, default=10_000, help="grids to draw (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="the random seed (default 0): the same numbers on any "
                   "number of processes")  # fmt: skip
    p.add_argument(
        "--unique",
        action="store_true",
        help="also count the uniquely solvable grids: each grid that "
        "local logic leaves unsolved is searched for a second solution (slower)",
    )
    p.add_argument(
        "--max-nodes",
        type=int,
        default=1000,
        help="with --unique: nodes each search may take before "
        "it gives up (the grid then counts as undecided; default 1000)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout instead of text")
    add_run_options(p, "sample")
    add_idle_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    return p


def main(argv) -> int:
    """Entry point of ``sample``: parse, ``api.sample.run_sample``, print; returns the exit status."""
    args = parser().parse_args(argv)

    def body() -> int:
        n, m = _size(args.size)
        if args.unique and args.max_nodes < 1:
            raise UsageError(f"--max-nodes must be at least 1, got {args.max_nodes}")
        nodes = args.max_nodes if args.unique else 0
        out = run_sample(n, m, density=args.density, count=args.count, seed=args.seed, nodes=nodes, jobs=args.jobs,
                         checkpoint_dir=args.checkpoint_dir, fresh=args.fresh, idle=args.idle,
                         feedback=Feedback.command_line(args.quiet))  # fmt: skip
        s = out.sample
        if args.json:
            low, high = s.interval
            print(json.dumps({"n": s.n, "m": s.m, "density": s.density, "seed": s.seed, "grids": s.grids,
                              "simple": s.simple, "fraction": s.fraction, "interval": [low, high],
                              "stuck": s.stuck, "mean_steps": s.mean_steps,
                              "unique": s.unique, "undecided": s.undecided if nodes else None,
                              "steps": {str(k): v for k, v in sorted(s.steps.items())}}), flush=True)  # fmt: skip
        else:
            from ..engines.sample.layout import format_sample

            print(format_sample(s), flush=True)
        if not args.quiet:
            say(f"{n}x{m} sample of {s.grids}: {out.seconds:.2f} s on {out.where}")
        return 0

    return exit_status(body)


def _size(words: list) -> tuple:
    """(n, m) of the size arguments: whole numbers, one (a square) or two; UsageError naming them otherwise."""
    if len(words) > 2 or not all(w.isdigit() for w in words):
        raise UsageError(f"size must be N or N M (whole numbers), got {' '.join(words)!r}")
    n = int(words[0])
    return n, int(words[1]) if len(words) == 2 else n
