"""``tune``: measure which CPU kernel variant counts fastest here (``api.machine.tune``); ``--show``: what is kept."""

from __future__ import annotations

import argparse

from ..util.messages import Parser, say

#: What ``tune --help`` says first.
ABOUT = (
    "Time the generated CPU kernel variants on this CPU (5 to 25 s) and keep the fastest for later counts; a "
    "count expected to take over 20 minutes on one core does this by itself, shorter ones use 'lanes' until it "
    "is done. stdout: the variant counts use here; stderr: the times."
)


def parser() -> argparse.ArgumentParser:
    """The arguments of ``tune``: ``--show`` alone."""
    p = Parser(prog="python -m localcount tune", description=ABOUT)
    p.add_argument("--show", action="store_true", help="measure nothing: say what is kept")
    return p


def main(argv) -> int:
    """``tune``: measure (or ``--show``) and print the variant counts use here."""
    args = parser().parse_args(argv)
    from ..api.machine import tune

    if not args.show:
        say("timing the CPU kernel variants on this CPU (5 to 25 s)")
    found = tune(measure=not args.show)
    say(_describe(found))
    print(found.kernel)
    return 0


def _describe(found) -> str:
    """One line on how the variant was decided."""
    if found.how == "forced":
        return f"{found.kernel}: forced by $LOCALCOUNT_CPU_KERNEL"
    if found.how == "default":
        return f"{found.kernel}: not measured on this CPU yet (python -m localcount tune measures)"
    best = ", ".join(f"{k} {v:.3f} s" for k, v in found.record.get("best_seconds", {}).items())
    when = found.record.get("measured", "")
    return f"{found.kernel}: measured {when} ({best or 'the only variant for this CPU'}); kept in {found.path}"
