"""``python -m localcount stats N [M]``: uniqueness, difficulty and stuck grids of one size.

stdout gets a small table (or, with ``--json``, one JSON object); progress
and a summary go to stderr.  As for the plain count (the same enumeration,
``orchestration.launch.launch``), runs expected to take a second or more
(or given ``--checkpoint-dir`` / ``--fresh``) are split into shards counted
by worker processes and recorded in a checkpoint: the same command resumes
after any stop.  Exit status as for the count: 0 done,
1 a checkpoint problem or an error, 2 bad input, 130 / 143 interrupted.
"""

from __future__ import annotations

import argparse
import json
import time

from ..api.feedback import Feedback
from ..api.stats import PATHS, SYMMETRIES, UNIQUE_METHODS, run_stats, unique, unique_method
from ..engines.stats.measures import format_json, format_table
from ..util.messages import Parser, say
from .common import add_cluster_options, add_idle_option, add_run_options, exit_status, parse_size


def parser() -> argparse.ArgumentParser:
    """The stats command's arguments."""
    p = Parser(
        prog="python -m localcount stats",
        description="Locally solvable, uniquely solvable and stuck-at-the-start grids of one size, and the "
        "rounds (every row, then every column) local logic needs: by enumerating every grid.",
    )
    p.add_argument("size", nargs="+", help="n (square) or n m (n rows, m columns)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout instead of a table")
    add_run_options(p)
    add_idle_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument(
        "--path",
        choices=PATHS,
        default="rows",
        help="rows: group the n x m grids by row clues; transposed: enumerate the m x n transposes, columns "
        "first (an independent code path with the same results)",
    )
    p.add_argument("--symmetry", choices=SYMMETRIES, default="flips", help="flips (default) or none (every grid)")
    p.add_argument("--variant", default="nonogram", help="nonogram (default) or yesnogram: row clues count the runs "
                   "of 0s (the JSON then has \"variant\": \"yesnogram\")")  # fmt: skip
    p.add_argument(
        "--depth", type=int, default=None, help="shards fix the clues of this many rows (default: automatic)"
    )
    p.add_argument("--method", choices=UNIQUE_METHODS, default="auto",
                   help="enumeration: every measure, lines of up to 13 cells; thin: only the uniquely solvable count "
                   "of a size with a side of 1 or 2 cells, by a walk along its columns (2 x 30 in minutes); auto "
                   "(default): thin where a 2 x m size is past the enumeration's 13 cells")  # fmt: skip
    p.add_argument("--force", action="store_true", help="start a run estimated at over a year")
    add_cluster_options(p)
    return p


def main(argv) -> int:
    """Entry point of ``stats``: parse, ``api.stats.run_stats``, print; returns the exit status."""
    args = parser().parse_args(argv)

    def body() -> int:
        n, m = parse_size(args.size)
        if unique_method(n, m, args.method) == "thin":
            return _thin(n, m, args)
        out = run_stats(
            n, m, variant=args.variant, jobs=args.jobs, checkpoint_dir=args.checkpoint_dir, path=args.path,
            symmetry=args.symmetry, depth=args.depth, fresh=args.fresh, scheduler=args.scheduler,
            dask_local=args.dask_local, feedback=Feedback.command_line(args.quiet), force=args.force, idle=args.idle,
        )  # fmt: skip
        print(_json(out.measures, out.stats.variant) if args.json else format_table(out.measures), flush=True)
        if not args.quiet:
            what = "stats" if out.stats.variant == "nonogram" else f"{out.stats.variant} stats"
            say(f"{n}x{m} {what} ({args.path}, {args.symmetry}): {out.seconds:.2f} s on {out.where}")
        return 0

    return exit_status(body)


def _thin(n: int, m: int, args) -> int:
    """``stats`` of a thin size by the column walk: the uniquely solvable count alone (table or JSON)."""
    start = time.perf_counter()
    count = unique(
        n, m, variant=args.variant, method="thin", idle=args.idle, feedback=Feedback.command_line(args.quiet)
    )
    grids = 1 << (n * m)
    if args.json:
        data = {"n": n, "m": m, "grids": grids, "unique": count, "method": "thin"}
        print(json.dumps(data if args.variant == "nonogram" else {"variant": args.variant, **data}), flush=True)
    else:
        print(f"{n}x{m}: 2^{n * m} grids\n  {'uniquely solvable':<22} {count:>16}  {100 * count / grids:.4g} %\n"
              f"  (the thin method counts only these: for every measure, stats --method enumeration, lines of up "
              f"to 13 cells)", flush=True)  # fmt: skip
    if not args.quiet:
        say(f"{n}x{m} unique ({args.variant}s, thin): {time.perf_counter() - start:.2f} s")
    return 0


def _json(result, variant: str) -> str:
    """``format_json``, with the variant first for a yesnogram (a nonogram's JSON is as it always was)."""
    if variant == "nonogram":
        return format_json(result)
    return json.dumps({"variant": variant, **json.loads(format_json(result))})
