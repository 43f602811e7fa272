"""``merge DIR...`` and ``status [DIR...]``: what checkpoints hold (``orchestration.status``), never writing them;
``verify DIR``: the CPU's recount of the seeded sample of each GPU count there (``api.campaign``)."""

from __future__ import annotations

import argparse

from ..orchestration.checkpoint import default_dir
from ..orchestration.status import merge, status
from ..util import cores
from ..util.messages import Parser, say


def parser(command: str) -> argparse.ArgumentParser:
    """The arguments of ``merge`` or ``status``."""
    p = Parser(prog=f"python -m localcount {command}")
    if command == "merge":
        p.add_argument("paths", nargs="+", help="checkpoint directories or files")
        return p
    p.add_argument("paths", nargs="*", help=f"checkpoint directories (default: {default_dir()})")
    p.add_argument("-j", "--jobs", type=int, default=cores.usable(), help="processes the ETA assumes")
    return p


def merge_parser() -> argparse.ArgumentParser:
    """The arguments of ``merge``."""
    return parser("merge")


def status_parser() -> argparse.ArgumentParser:
    """The arguments of ``status``."""
    return parser("status")


def verify_parser() -> argparse.ArgumentParser:
    """The arguments of ``verify``."""
    p = Parser(
        prog="python -m localcount verify",
        description="Recount on the CPU the seeded sample (1 %%) of the shards of each GPU count in a checkpoint "
        "directory, in the CPU kernel's own checkpoint there, and compare every shard both have recorded. "
        "stdout: a line per run (sample, counted, recounted, compared, equal, differ); exit status 1 if any "
        "shard differs.",
    )
    p.add_argument("directory", help="the checkpoint directory of the GPU count (e.g. results/checkpoints)")
    p.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes for the recount (default: every usable core)"
    )
    p.add_argument(
        "--max-seconds", type=float, metavar="S", help="start a shard only if it should end within S seconds"
    )
    p.add_argument("--no-recount", action="store_true", help="only compare what is recorded; count nothing")
    from .common import add_idle_option

    add_idle_option(p)
    return p


def verify_main(argv) -> int:
    """``verify DIR``: recount the sample shards the CPU lacks, compare, print a line per run."""
    from ..api.campaign import verify
    from ..api.feedback import Feedback
    from .common import exit_status

    args = verify_parser().parse_args(argv)

    def body() -> int:
        for c in verify(args.directory, jobs=args.jobs, max_seconds=args.max_seconds, recount=not args.no_recount,
                        feedback=Feedback.command_line(False), idle=args.idle):  # fmt: skip
            print(c.line(), flush=True)
            left = len(c.sample) - c.recounted
            say(f"{c.key}: {c.equal} of {len(c.sample)} sample shards recounted by {c.twin_key} and equal"
                + (f"; {left} to recount (run verify again)" if left else "; the sample is complete")
                + (f"; {len(c.sample) - c.counted} not yet counted by the GPU" if c.counted < len(c.sample) else ""))  # fmt: skip
        return 0

    return exit_status(body)


def merge_main(argv) -> int:
    """``merge DIR...``: the total of each complete run."""
    return merge(merge_parser().parse_args(argv).paths)


def status_main(argv) -> int:
    """``status [DIR...]``: progress, rate, active time and ETA of each run."""
    args = status_parser().parse_args(argv)
    paths = args.paths or [default_dir()]
    if not args.paths and not default_dir().exists():
        say(f"no checkpoints yet ({default_dir()} does not exist)")
        return 0
    return status(paths, max(1, args.jobs))
