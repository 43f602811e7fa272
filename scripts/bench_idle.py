#!/usr/bin/env python
"""Does an ``--idle`` run leave the machine to the work beside it?  Side by side, alternated.

    python scripts/bench_idle.py                          # a 4x8 count alone and beside an idle 9x5 campaign
    python scripts/bench_idle.py --foreground "5 6" --rounds 5
    python scripts/bench_idle.py --session shared         # the campaign in this session: its workers take their own
    python scripts/bench_idle.py --foreground-command "python -m pytest -q"   # the quick suite as the foreground
    python scripts/bench_idle.py --rate "5 6"             # an idle count alone against a normal one: its rate

**Beside.** Each round times the foreground (a count with a fresh checkpoint, or any command) once alone and
once beside a campaign, in alternating order: the campaign (``--campaign``, a count with ``--idle`` in a
temporary checkpoint directory) is started before the round, in a session of its own as ``setsid`` would
(``--session own``) or in this one (``shared``), and is held by SIGSTOP to its processes while the foreground
runs alone, so both timings of a round see the same machine.  The ratio beside / alone of the medians is
what the campaign costs the foreground (the issue's bound: 1.1).

**Rate.** ``--rate SIZE`` times the count of SIZE (fresh checkpoint, every core) with and without
``--idle``, alternated, on a machine doing nothing else: idle / normal of the medians is what idle priority
costs a campaign on its own (the bound: at least 0.95 of the rate, so at most 1.05 of the time).

Pause other work first (``../shared/campaign/run pause``): this script measures, it does not share.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pathlib
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from localcount.orchestration import yielding  # noqa: E402


def count_command(size: str, directory: str, *extra: str) -> list:
    """``python -m localcount SIZE --fresh --checkpoint-dir DIR --quiet`` and ``extra``."""
    return [sys.executable, "-m", "localcount", *size.split(), "--fresh", "--checkpoint-dir", directory, "--quiet",
            *extra]  # fmt: skip


def timed(command: list) -> float:
    """Wall seconds of ``command``, run to its end (its output dropped); exit status 0 or it raises."""
    start = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def descendants(pid: int) -> list:
    """``pid`` and every process under it (from /proc)."""
    parents = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        fields = yielding.stat_fields(int(entry))
        if fields:  # gone meanwhile otherwise
            parents[int(entry)] = int(fields[1])
    found, todo = [pid], [pid]
    while todo:
        pid = todo.pop()
        kids = [p for p, parent in parents.items() if parent == pid]
        found += kids
        todo += kids
    return found


class Campaign:
    """An idle count in the background, held (SIGSTOP) and let go (SIGCONT) as a whole."""

    def __init__(self, size: str, session: str, directory: str):
        command = count_command(size, directory, "--idle", "--force")
        self.proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=session == "own")  # fmt: skip
        deadline = time.time() + 120
        while len(descendants(self.proc.pid)) < 3:  # the run and its workers (two at least) are up
            if self.proc.poll() is not None or time.time() > deadline:
                raise SystemExit(f"the campaign did not start its workers: {shlex.join(command)}")
            time.sleep(0.2)
        time.sleep(3)  # past loading the kernels: counting

    def signal(self, sig) -> None:
        for pid in descendants(self.proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def stop(self) -> None:
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGKILL)
        self.proc.wait()


def beside(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fg = (shlex.split(args.foreground_command) if args.foreground_command
              else count_command(args.foreground, os.path.join(tmp, "fg")))  # fmt: skip
        print(f"foreground: {shlex.join(fg)}\ncampaign: {args.campaign} --idle, session {args.session}", flush=True)
        timed(fg)  # compiles and caches what the foreground needs: not timed
        campaign = Campaign(args.campaign, args.session, os.path.join(tmp, "campaign"))
        alone, with_it = [], []
        try:
            for r in range(args.rounds):
                for held in (True, False) if r % 2 == 0 else (False, True):
                    campaign.signal(signal.SIGSTOP if held else signal.SIGCONT)
                    time.sleep(1)
                    seconds = timed(fg)
                    (alone if held else with_it).append(seconds)
                    print(f"round {r + 1}: {'alone ' if held else 'beside'} {seconds:8.2f} s", flush=True)
        finally:
            campaign.stop()
    a, b = statistics.median(alone), statistics.median(with_it)
    print(f"median alone {a:.2f} s, beside the idle campaign {b:.2f} s: ratio {b / a:.3f}")


def rate(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        normal, idle = [], []
        timed(count_command(args.rate, tmp))  # compiles and caches: not timed
        for r in range(args.rounds):
            for low in (False, True) if r % 2 == 0 else (True, False):
                seconds = timed(count_command(args.rate, tmp, *(["--idle"] if low else [])))
                (idle if low else normal).append(seconds)
                print(f"round {r + 1}: {'--idle' if low else 'normal'} {seconds:8.2f} s", flush=True)
    a, b = statistics.median(normal), statistics.median(idle)
    print(f"median normal {a:.2f} s, --idle {b:.2f} s: the idle run's rate is {a / b:.3f} of the normal one")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--foreground", default="4 8", help="the foreground count's size (default 4 8)")
    p.add_argument("--foreground-command", help="a command to time instead of a count")
    p.add_argument("--campaign", default="9 5", help="the idle campaign's count (default 9 5)")
    p.add_argument("--session", choices=["own", "shared"], default="own", help="the campaign's session")
    p.add_argument("--rate", metavar="SIZE", help="time SIZE with and without --idle instead")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    rate(args) if args.rate else beside(args)


if __name__ == "__main__":
    main()
