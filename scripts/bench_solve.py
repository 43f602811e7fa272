#!/usr/bin/env python
"""Time ``solve`` on puzzles: the default method beside the probing search alone and the plain search, per puzzle.

    python scripts/bench_solve.py                        # every shipped puzzle
    python scripts/bench_solve.py --names cat,stuck20
    python scripts/bench_solve.py --random 8 --size 25   # clues of 8 random 25x25 grids (seeded)
    python scripts/bench_solve.py --dir tests/puzzles    # the real puzzles shipped for this (tests/puzzles/SOURCES.md)
    python scripts/bench_solve.py --dom 3-9              # the n-Dom puzzles, built from their published design

Prints per puzzle: size; the default method's (``solve --method auto``:
the search, handed to the SAT solver after 5,000 probes when python-sat
is installed) verdict, level, method, nodes, probes and seconds; the
probing search alone (``--method search``); the plain search's (branching
without probing, the search as it was before probing) verdict, nodes and
seconds.  Each looks for two solutions; the first two give up at
``--timeout`` seconds, the plain one at ``--plain-nodes`` nodes.  Then
the median and worst seconds of each.  ``--compare`` chooses which of the
two comparisons to run.  Colour puzzles are solved by ``puzzle.solving.colour``
(no comparisons beside it).

n-Dom is Josh Greifer's design "Domino Logic III" (webpbn #8098 is 9-Dom),
as Jan Wolter describes it in his survey of solvers
(https://webpbn.com/survey/dom.html): a (2n+1)-square whose column clues
hold n 3s that only a counting argument places, so line logic and probing
alone get nowhere.  The puzzles are not shipped as files (no licence for
them was found: tests/puzzles/SOURCES.md); this script builds the clues
from that description, for timing only.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))


def puzzles(args):
    """(name, Puzzle) pairs to time."""
    from localcount.puzzle import examples, model

    if args.dir:
        from localcount.puzzle import formats
        from localcount.puzzle.model import PuzzleError

        for path in sorted(pathlib.Path(args.dir).iterdir()):
            if path.suffix in formats.SUFFIXES:
                try:
                    yield path.name, formats.parse(path.read_text(), None, str(path))
                except PuzzleError as err:
                    print(f"# skipped {path.name}: {err.bare}", flush=True)
        return
    if args.random:
        rng = random.Random(args.seed)
        for k in range(args.random):
            yield f"random{k}", model.from_grid(rng.getrandbits(args.size * args.size), args.size, args.size)
        return
    if args.dom:
        low, _, high = args.dom.partition("-")
        for k in range(int(low), int(high or low) + 1):
            yield f"{k}-Dom", domino(k)
        return
    for name in args.names.split(",") if args.names else examples.names():
        yield name, examples.load(name)


def domino(k: int):
    """n-Dom for n = k (see the docstring): rows 3 / 1 / (3 1 / 1) k-1 times / 1; columns the same turned, ending in 3."""
    from localcount.puzzle import model

    rows = [(3,), (1,)] + [(3, 1), (1,)] * (k - 1) + [(1,)]
    cols = [(1,), (1,)] + [(1, 3), (1,)] * (k - 1) + [(3,)]
    return model.Puzzle(tuple(rows), tuple(cols), title=f"{k}-Dom")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--names", help="comma-separated shipped puzzle names (default: all)")
    ap.add_argument("--dir", help="instead: every puzzle file in this directory")
    ap.add_argument("--random", type=int, default=0, metavar="K", help="instead: the clues of K random grids")
    ap.add_argument("--size", type=int, default=25, help="with --random: their side (default 25)")
    ap.add_argument("--seed", type=int, default=0, help="with --random: the seed (default 0)")
    ap.add_argument("--dom", metavar="K-L", help="instead: the n-Dom puzzles for n = K..L")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a search gives up (default 60)")
    ap.add_argument(
        "--plain-nodes", type=int, default=20000, help="nodes before the plain search gives up (default 20000)"
    )
    ap.add_argument(
        "--compare", default="search,plain", help="comparisons to run: search, plain, both (default) or none"
    )
    args = ap.parse_args()
    compare = set() if args.compare == "none" else set(args.compare.split(","))
    if compare - {"search", "plain"}:
        ap.error(f"--compare: one or more of search, plain, or none; got {args.compare!r}")
    from localcount.puzzle.solving import colour, logic, sat
    from localcount.puzzle.solving import search as solve
    from localcount.util import provenance

    print(f"# python scripts/bench_solve.py {' '.join(sys.argv[1:])}; {provenance.cpu_model()}; git {provenance.git_commit(os.path.dirname(__file__))}; "
          f"SAT hand-off {'on (' + sat.SOLVER + ')' if sat.available() else 'off (python-sat not installed)'}")  # fmt: skip
    print(f"{'name':<40} {'size':>7} {'verdict':>10} {'level':>9} {'method':>10} {'nodes':>6} {'probes':>7} {'secs':>7} | "
          f"{'search':>10} {'secs':>7} | {'plain':>10} {'nodes':>6} {'secs':>7}")  # fmt: skip
    times = {"auto": [], "search": [], "plain": []}

    def timed(key, run):
        logic.line_options.cache_clear()  # each method starts cold, as a fresh `solve` would
        t = time.perf_counter()
        found = run()
        times[key].append(time.perf_counter() - t)
        return found, times[key][-1]

    for name, p in puzzles(args):
        if hasattr(p, "palette"):  # a colour puzzle: its own search, nothing to compare
            found, secs = timed("auto", lambda: colour.search(p, limit=2, timeout=args.timeout))
            found.method = "search"
            alone = plain = None
        else:
            found, secs = timed("auto", lambda: sat.solve_auto(p, limit=2, timeout=args.timeout))
            alone = (
                timed("search", lambda: solve.search(p, limit=2, timeout=args.timeout)) if "search" in compare else None
            )
            plain = (
                timed("plain", lambda: solve.plain_search(p, limit=2, max_nodes=args.plain_nodes))
                if "plain" in compare
                else None
            )
        level = found.level if found.complete else "-"
        line = f"{name:<40} {p.n:>3}x{p.m:<3} {found.verdict:>10} {level:>9} {found.method:>10} {found.nodes:>6} {found.probes:>7} {secs:>7.3f} | "
        line += f"{alone[0].verdict:>10} {alone[1]:>7.3f} | " if alone else f"{'-':>10} {'-':>7} | "
        line += f"{plain[0].verdict:>10} {plain[0].nodes:>6} {plain[1]:>7.3f}" if plain else f"{'-':>10}"
        print(line, flush=True)
    print(
        "# "
        + "; ".join(
            f"{key}: median {statistics.median(ts):.3f} s, worst {max(ts):.3f} s" for key, ts in times.items() if ts
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
