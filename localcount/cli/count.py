"""The count: ``python -m localcount [n [m]]`` prints the n×m count on stdout.

The size comes from the arguments or, when there are none, from stdin
(``echo "2 5" | python -m localcount``).  stdout holds the count alone;
progress, the time estimate and a summary line go to stderr.

Runs expected to take a second or more (or given ``--checkpoint-dir``,
``--shard``, ``--shard-bits`` or ``--fresh``) are split into shards counted
by a pool of worker processes and recorded in a checkpoint, so the same
command resumes after any stop; shorter ones run in this process.  Which
engine counts the size is ``engines.registry.count_layout``'s choice.

Exit status: 0 done; 1 a checkpoint problem or an error; 2 bad input;
130 / 143 interrupted by SIGINT / SIGTERM (progress kept).
"""

from __future__ import annotations

import argparse
import re
import sys

from ..api.counting import run_count
from ..api.feedback import Feedback
from ..engines import registry
from ..util.messages import Parser, say
from ..util.version import __version__
from . import commands_help
from .common import UsageError, add_cluster_options, add_idle_option, add_run_options, exit_status, parse_size


def parser() -> argparse.ArgumentParser:
    """The count command's arguments."""
    p = Parser(
        prog="python -m localcount",
        description="Count the n x m nonogram grids that local (line-by-line) logic solves.",
        epilog="With no size arguments the size is read from stdin:\n  echo '2 5' | python -m localcount\n\n"
        + commands_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("size", nargs="*", help="n (square) or n m (n rows, m columns)")
    add_run_options(p)
    add_idle_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument(
        "--symmetry",
        choices=["auto", "none", "flips", "square"],
        default="auto",
        help="count one border per class of this symmetry group, weighted by class size: flips "
        "(up-down, left-right), square (also transposition; squares only), none (every grid), "
        "auto (square for squares, else flips). Groups are independent code paths for cross-checks.",
    )
    p.add_argument("--no-symmetry", action="store_true", help="same as --symmetry none")
    p.add_argument(
        "--method",
        choices=list(registry.METHODS),
        default="auto",
        help="grid: the general kernel; thin: the counter for 2 x m grids (localcount/engines/thin/), much faster "
        "there; tiny: numpy, for small sizes; gpu: the general kernel on a CUDA GPU (the gpu extra; "
        "NUMBA_ENABLE_CUDASIM=1 runs it in numba's simulator); auto (default): thin for 2 x m and m x 2 with "
        "m > 13, tiny for small sizes, else grid",
    )
    p.add_argument(
        "--variant",
        default="nonogram",
        help="nonogram (default) or yesnogram: row clues count the runs of 0s, column clues the runs of 1s "
        "(OEIS A385862; symmetry flips or none)",
    )
    p.add_argument(
        "--thin-rows",
        choices=["table", "word"],
        default="table",
        help="how the thin counter updates the first row: its subset-OR table (default) or the word line "
        "solver, like the second row (an independent code path for cross-checks)",
    )
    p.add_argument("--shard", metavar="K/N", help="count only shard group K of N (shards s with s %% N == K)")
    p.add_argument("--shard-bits", type=int, default=None, help="split into 2^B shards (default: automatic)")
    p.add_argument("--log", metavar="FILE", help="append the log of every shard (all processes) to FILE")
    p.add_argument(
        "--force", action="store_true", help="start even when the estimated time is more than a year on the cores given"
    )
    p.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="a sharded, checkpointed run that starts a shard only while it is expected to end within S seconds of "
        "the start, then stops with exit status 0 and says what is left and how to resume (a campaign in short runs)",
    )
    add_cluster_options(p)
    p.add_argument("--version", action="version", version=f"localcount {__version__}")
    return p


#: Options that take a value: a negative number after one of them is that value.
_VALUED = {
    "-j", "--jobs", "--checkpoint-dir", "--shard", "--shard-bits", "--log", "--symmetry", "--scheduler", "--dask-local",
    "--method", "--thin-rows", "--variant", "--max-seconds",
}  # fmt: skip


def split_argv(argv) -> tuple:
    """(argv without negative sizes, the negative sizes): argparse would take them for options."""
    rest, negatives = [], []
    for i, a in enumerate(argv):
        if re.fullmatch(r"-\d+", a) and not (i and argv[i - 1] in _VALUED):
            negatives.append(a)
        else:
            rest.append(a)
    return rest, negatives


def main(argv) -> int:
    """The count command: parse, ``api.counting.run_count``, print; returns the exit status."""
    rest, negatives = split_argv(argv)
    args = parser().parse_args(rest)

    def body() -> int:
        if negatives:
            raise UsageError(f"size must be non-negative, got {negatives[0]}")
        n, m = parse_size(args.size if args.size else sys.stdin.read().split())
        out = run_count(
            n, m, variant=args.variant, jobs=args.jobs, checkpoint_dir=args.checkpoint_dir, method=args.method,
            symmetry="none" if args.no_symmetry else args.symmetry, shard=args.shard, shard_bits=args.shard_bits,
            fresh=args.fresh, force=args.force, thin_rows=args.thin_rows, scheduler=args.scheduler,
            dask_local=args.dask_local, log=args.log, feedback=Feedback.command_line(args.quiet),
            max_seconds=args.max_seconds, idle=args.idle,
        )  # fmt: skip
        if not out.complete:  # the budget ended it: nothing on stdout, what is left and how to resume on stderr
            if not args.quiet:
                for line in _unfinished(out, resume_command(argv, args, n, m)):
                    say(line)
            return 0
        print(out.total, flush=True)
        if not args.quiet:
            for line in _summary(out):
                say(line)
        return 0

    return exit_status(body)


def resume_command(argv, args, n: int, m: int) -> str:
    """The command that resumes this run: the same arguments, with the size in front if it came from stdin."""
    import shlex

    return shlex.join(["python", "-m", "localcount", *([] if args.size else [str(n), str(m)]), *argv])


def _unfinished(out, resume: str) -> list:
    """The last lines of a run that its --max-seconds ended: shards done and left, and the command that resumes."""
    done = out.shards - out.left
    group = "" if out.group == (0, 1) else f" of shard group {out.group[0]}/{out.group[1]}"
    return [
        f"{out.n}x{out.m}: stopped within its {out.max_seconds:g} s budget: {done} of {out.shards} shards{group} done "
        f"({out.computed} in this run, {out.seconds:.1f} s), {out.left} left; checkpoint {out.checkpoint}",
        *_sample_lines(out),
        f"resume with: {resume}",
    ]


def _sample_lines(out) -> list:
    """What the CPU's recount of a GPU run's sample says so far (``orchestration.verify``), if the run has one."""
    c = out.sample
    if c is None:
        return []
    return [f"sample: {c.recounted} of {len(c.sample)} sample shards recounted by {c.twin_key}, "
            f"{c.equal} compared and equal; recount more with: python -m localcount verify {out.checkpoint.rsplit('/', 1)[0]}"]  # fmt: skip


def _summary(out) -> list:
    """What the run did, for stderr: one line, or two for a sharded run."""
    n, m = out.n, out.m
    grids = "grids" if out.variant == "nonogram" else f"{out.variant} grids"
    if out.checkpoint is None:
        method = f" ({out.method} method)" if out.method else ""
        return [f"{n}x{m}: {out.total} of 2^{n * m} {grids} locally solvable{method}; "
                f"{out.seconds:.2f} s on {out.workers} {_one(out)}"]  # fmt: skip
    reused = out.shards - out.computed
    where = f"; {reused} of {out.shards} shards from the checkpoint" if reused else ""
    if out.group != (0, 1):
        first = (
            f"{n}x{m}: {out.total} is the count of shard group {out.group[0]}/{out.group[1]} only ({out.shards} of "
            f"{out.layout_shards} shards, recorded in {out.checkpoint}); add up all groups with: python -m localcount merge DIR..."
        )
    else:
        first = f"{n}x{m}: {out.total} of 2^{n * m} {grids} locally solvable"
    return [first, f"{out.seconds:.2f} s on {out.workers} {_one(out)}{where}; checkpoint {out.checkpoint}",
            *_sample_lines(out)]  # fmt: skip


def _one(out) -> str:
    """What counted, in the singular for one: '1 process' (a GPU run), '2 processes'."""
    return "process" if out.workers == 1 and out.what == "processes" else out.what
