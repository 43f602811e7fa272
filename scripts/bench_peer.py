#!/usr/bin/env python
"""localcount's solver beside a C++ one, puzzle by puzzle: each solver's own solve time and the ratio.

    git --git-dir GIT_DIR archive HEAD inputs | tar -x -C /tmp/peer     # the peer's puzzles (see below)
    python scripts/bench_peer.py --driver /tmp/picross-build/picross_driver --dir /tmp/peer/inputs/webpbn
    python scripts/bench_peer.py --driver ... --dir ... --names 00065,06574 --rounds 5 --dom 9
    python scripts/bench_peer.py --driver ... --dir ... --interpreted     # local logic interpreted throughout

The peer is pierre-dejoue/picross-solver (C++17), built by ``../shared/peers/picross-cpp/build.sh``
(its README: fetch ``github:pierre-dejoue/picross-solver``, build, run); its driver reads the clues on
stdin, asks the reference solver for up to 2 solutions and prints the seconds of the solve alone.  Its
repository holds the webpbn survey puzzles that are public (``inputs/webpbn/*.non``); they are read from
there, not shipped here.  ``--dom K`` adds K-Dom, built from its published design (``bench_solve.domino``).

localcount's side is the API's ``solve`` (method ``auto``, limit 2) in this process, timed around the
call: local logic, probing, the search, the SAT hand-off and the check of every solution; compiled local
logic and probing (``use_compiled``, loaded before the first puzzle) unless ``--interpreted``; one untimed
solve of 3-Dom first, so that no puzzle's time includes importing the solver's modules.  The two
solvers take turns on each puzzle, ``--rounds`` times (each given up after ``--timeout`` seconds: its time
is then the limit and its verdict undecided) (the C++ one first in odd rounds, second in even
ones), so both see the same minutes of this noisy machine; the medians are compared.  Both verdicts are
printed (undecided: gave up at ``--timeout``, whose seconds then count); two decided verdicts that differ
are flagged.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))


def driver_input(p) -> str:
    """The driver's stdin: "H W", the row clues, the column clues (0 for an empty clue)."""
    lines = [f"{p.n} {p.m}"] + [" ".join(map(str, c)) or "0" for c in list(p.rows) + list(p.cols)]
    return "\n".join(lines) + "\n"


def run_peer(driver: str, p, timeout: float) -> tuple:
    """(the peer's own seconds, its verdict): unique, multiple or none; (timeout, "undecided") past ``timeout``."""
    try:
        out = subprocess.run([driver], input=driver_input(p), capture_output=True, text=True, check=True,
                             timeout=timeout).stdout  # fmt: skip
    except subprocess.TimeoutExpired:
        return timeout, "undecided"
    fields = dict(line.split(" ", 1) for line in out.splitlines() if " " in line and not line.startswith("--"))
    found = int(fields.get("nsol", "0"))
    return float(fields["seconds"]), {0: "none", 1: "unique"}.get(found, "multiple")


def run_ours(p, timeout: float) -> tuple:
    """(localcount's solve seconds, its verdict)."""
    from localcount.api import puzzles

    start = time.perf_counter()
    sol = puzzles.solve(p, timeout=timeout)
    return time.perf_counter() - start, sol.verdict


def puzzles(args):
    """(name, model Puzzle) pairs: the --dir puzzles (those --names picks), then K-Dom."""
    from bench_solve import domino

    from localcount.puzzle import formats

    wanted = args.names.split(",") if args.names else None
    for path in sorted(pathlib.Path(args.dir).glob("*.non")) if args.dir else []:
        if wanted is None or any(w in path.name for w in wanted):
            yield path.stem, formats.parse(path.read_text(), None, str(path))
    for k in args.dom:
        yield f"{k}-Dom", domino(k)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--driver", required=True, help="the peer's driver (../shared/peers/picross-cpp/build.sh)")
    ap.add_argument("--dir", help="a folder of .non puzzles (the peer's inputs/webpbn)")
    ap.add_argument("--names", help="only files whose names contain one of these (comma-separated)")
    ap.add_argument("--dom", type=int, action="append", default=[], metavar="K", help="add K-Dom (repeatable)")
    ap.add_argument("--rounds", type=int, default=3, help="turns of each solver on each puzzle (default 3)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds either solver may take (default 30)")
    ap.add_argument("--interpreted", action="store_true", help="keep local logic and probing interpreted")
    args = ap.parse_args()
    if not os.access(args.driver, os.X_OK):
        ap.error(f"--driver: {args.driver} is not an executable file")
    if args.rounds < 1:
        ap.error(f"--rounds must be at least 1, got {args.rounds}")
    from localcount.puzzle.solving import logic
    from localcount.util import provenance

    if not args.interpreted:
        logic.use_compiled()
    from bench_solve import domino

    run_ours(domino(3), args.timeout)  # not timed: the modules a solve imports (the SAT hand-off's too), loaded
    chosen = list(puzzles(args))
    if not chosen:
        ap.error("no puzzles: give --dir (and --names that match) or --dom")
    print(f"# python scripts/bench_peer.py {' '.join(sys.argv[1:])}; {provenance.cpu_model()}; "
          f"git {provenance.git_commit(os.path.dirname(__file__))}; local logic "
          f"{'interpreted' if args.interpreted else 'compiled'}; {time.strftime('%Y-%m-%d %H:%M')}")  # fmt: skip
    print(f"{'puzzle':<30} {'size':>7} {'ours':>9} {'C++':>9} {'ours s':>9} {'C++ s':>9} {'ratio':>8}")
    ratios = []
    for name, p in chosen:
        ours, peer, verdicts = [], [], {"ours": set(), "peer": set()}
        for k in range(args.rounds):
            turns = [
                ("peer", lambda: run_peer(args.driver, p, args.timeout)),
                ("ours", lambda: run_ours(p, args.timeout)),
            ]
            for who, run in turns if k % 2 == 0 else turns[::-1]:
                seconds, verdict = run()
                (peer if who == "peer" else ours).append(seconds)
                verdicts[who].add(verdict)
        mine, theirs = statistics.median(ours), statistics.median(peer)
        said = {who: "/".join(sorted(v)) for who, v in verdicts.items()}
        decided = {v for v in verdicts["ours"] | verdicts["peer"] if v != "undecided"}
        flag = "  VERDICTS DIFFER" if len(decided) > 1 else ""
        ratio = mine / theirs if theirs > 0 else float("inf")
        ratios.append(ratio)
        print(f"{name:<30} {p.n:>3}x{p.m:<3} {said['ours']:>9} {said['peer']:>9} {mine:>9.4f} {theirs:>9.4f} "
              f"{ratio:>7.2f}x{flag}", flush=True)  # fmt: skip
    print(f"# ratio ours / C++: median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
