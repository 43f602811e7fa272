#!/usr/bin/env python
"""Time ``solve`` on puzzles: the search with probing beside the plain search, per puzzle.

    python scripts/bench_solve.py                        # every shipped puzzle
    python scripts/bench_solve.py --names cat,stuck20
    python scripts/bench_solve.py --random 8 --size 25   # clues of 8 random 25x25 grids (seeded)
    python scripts/bench_solve.py --dir tests/puzzles    # the real puzzles shipped for this (tests/puzzles/SOURCES.md)

Colour puzzles are solved by ``puzzle.colour`` (no plain search beside it).
Prints per puzzle: size, the search's verdict, the level it needed
(line, probing, branching), its nodes, probes and seconds, and the plain
search's (branching without probing) verdict, nodes and seconds; each
search looks for two solutions and gives up at ``--timeout`` seconds
(plain: ``--plain-nodes`` nodes).  Then the median and worst seconds.
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
    for name in args.names.split(",") if args.names else examples.names():
        yield name, examples.load(name)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--names", help="comma-separated shipped puzzle names (default: all)")
    ap.add_argument("--dir", help="instead: every puzzle file in this directory")
    ap.add_argument("--random", type=int, default=0, metavar="K", help="instead: the clues of K random grids")
    ap.add_argument("--size", type=int, default=25, help="with --random: their side (default 25)")
    ap.add_argument("--seed", type=int, default=0, help="with --random: the seed (default 0)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before the search gives up (default 60)")
    ap.add_argument("--plain-nodes", type=int, default=20000, help="nodes before the plain search gives up (default 20000)")
    args = ap.parse_args()
    from localcount.puzzle import colour
    from localcount.puzzle import search as solve
    from localcount.util import provenance

    print(f"# python scripts/bench_solve.py {' '.join(sys.argv[1:])}; {provenance.cpu_model()}; git {provenance.git_commit(os.path.dirname(__file__))}")
    print(f"{'name':<40} {'size':>7} {'verdict':>10} {'level':>9} {'nodes':>6} {'probes':>7} {'secs':>7} | {'plain':>10} {'nodes':>6} {'secs':>7}")
    times, plain_times = [], []
    for name, p in puzzles(args):
        t0 = time.perf_counter()
        coloured = hasattr(p, "palette")  # a colour puzzle: its own search, no plain search to compare
        found = (colour.search if coloured else solve.search)(p, limit=2, timeout=args.timeout)
        t1 = time.perf_counter()
        plain = None if coloured else solve.plain_search(p, limit=2, max_nodes=args.plain_nodes)
        t2 = time.perf_counter()
        times.append(t1 - t0)
        if plain:
            plain_times.append(t2 - t1)
        level = found.level if found.complete else "-"
        print(
            f"{name:<40} {p.n:>3}x{p.m:<3} {found.verdict:>10} {level:>9} {found.nodes:>6} {found.probes:>7} {t1 - t0:>7.3f} | "
            + (f"{plain.verdict:>10} {plain.nodes:>6} {t2 - t1:>7.3f}" if plain else f"{'(colour)':>10}"),
            flush=True,
        )
    print(f"# search: median {statistics.median(times):.3f} s, worst {max(times):.3f} s; "
          f"plain: median {statistics.median(plain_times):.3f} s, worst {max(plain_times):.3f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
