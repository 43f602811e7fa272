"""``merge DIR...`` and ``status [DIR...]``: what checkpoints hold (``orchestration.status``), never writing them."""

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
