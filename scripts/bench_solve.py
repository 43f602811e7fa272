#!/usr/bin/env python
"""Time ``solve`` on the shipped puzzles: local logic, then the search for a second solution.

    python scripts/bench_solve.py                 # every shipped puzzle
    python scripts/bench_solve.py --names cat,stuck20

Prints per puzzle: size, local-logic verdict, search verdict and nodes, and
the seconds of local logic and of local logic plus search (in-process,
after a warm-up that loads the compiled line solver).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--names", help="comma-separated shipped puzzle names (default: all)")
    args = ap.parse_args()
    from localcount.puzzle import examples
    from localcount.puzzle import search as solve
    from localcount.util import provenance

    names = args.names.split(",") if args.names else examples.names()
    solve.search(examples.load(names[0]))  # warm-up
    print(f"# python scripts/bench_solve.py {' '.join(sys.argv[1:])}; {provenance.cpu_model()}; git {provenance.git_commit(os.path.dirname(__file__))}")
    print(f"{'name':<12} {'size':>6} {'local':>8} {'search':>12} {'nodes':>6} {'local_s':>8} {'total_s':>8}")
    for name in names:
        p = examples.load(name)
        t0 = time.perf_counter()
        out = solve.local(p)
        t1 = time.perf_counter()
        found = solve.search(p, limit=2)
        t2 = time.perf_counter()
        print(f"{name:<12} {p.n:>3}x{p.m:<2} {out.status:>8} {found.verdict:>12} {found.nodes:>6} {t1 - t0:>8.3f} {t2 - t0:>8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
