#!/usr/bin/env python
"""Time the page's analysis of a drawing: ``POST /api/analyze`` after one edit, server time, median and worst.

    python scripts/bench_web.py                 # 30x30 and 100x100, 21 edits each
    python scripts/bench_web.py --sizes 30,60 --edits 51 --timeout 5

For each size it draws two kinds of picture and edits each one cell at a
time (a random cell flipped, seeded), asking ``/api/analyze`` after every
edit as the page does: *simple*, the shipped pictures made simple by
``design`` at that size (edits that keep or break simplicity, as a puzzle
maker's do), and *random*, a random drawing at density 0.55 that local
logic cannot solve, whose uniqueness the search tries until ``--timeout``.
The time is the server's, from the ``Server-Timing`` header: the handler
from the request's body to the answer, without the network.  Each edit is
asked twice, as the page asks: ``search: false`` (clues, local logic,
difficulty, unknown cells: the live answer) and then with the search for
uniqueness (given up at ``--timeout``).  The page's budget for the live
answer: 50 ms at 30x30, 300 ms at 100x100 (median of an edit).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import warnings

import localcount as lc

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from localcount.web.app import create_app

PICTURES = ("heart", "moon", "smiley")


def drawings(kind: str, n: int, rng: random.Random) -> list:
    """Row strings of the starting drawings of a kind at n x n."""
    if kind == "simple":
        return [["".join("1" if v else "0" for v in row) for row in lc.design(p, (n, n), seed=1).goal.tolist()] for p in PICTURES]
    return [["".join("1" if rng.random() < 0.55 else "0" for _ in range(n)) for _ in range(n)]]


def edited(rows: list, rng: random.Random) -> list:
    r, c = rng.randrange(len(rows)), rng.randrange(len(rows[0]))
    row = rows[r]
    return rows[:r] + [row[:c] + ("0" if row[c] == "1" else "1") + row[c + 1 :]] + rows[r + 1 :]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="30,100", help="square sizes, comma-separated (default 30,100)")
    ap.add_argument("--edits", type=int, default=21, help="edits per drawing (default 21)")
    ap.add_argument("--timeout", type=float, default=5.0, help="the search's time limit, seconds (default 5, as the page)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app())
    print(f"# localcount {lc.__version__}: POST /api/analyze after one edit, server time (Server-Timing), ms")
    print(f"{'size':>7} {'kind':<7} {'edits':>5} {'simple':>6} {'local median':>12} {'worst':>8} {'search median':>13} {'worst':>8}  verdicts")
    for n in (int(s) for s in args.sizes.split(",")):
        for kind in ("simple", "random"):
            rng = random.Random(args.seed)
            local, searched, simple, verdicts = [], [], 0, {}
            for rows in drawings(kind, n, rng):
                for _ in range(args.edits):
                    rows = edited(rows, rng)
                    for times, search in ((local, False), (searched, True)):
                        r = client.post("/api/analyze", json={"grid": rows, "timeout": args.timeout, "search": search})
                        times.append(float(r.headers["server-timing"].split("dur=")[1]))
                    answer = r.json()
                    simple += answer["simple"]
                    verdicts[answer["verdict"]] = verdicts.get(answer["verdict"], 0) + 1
            print(f"{n:>3}x{n:<3} {kind:<7} {len(local):>5} {simple:>6} {statistics.median(local):>12.1f} {max(local):>8.1f} "
                  f"{statistics.median(searched):>13.1f} {max(searched):>8.1f}  "
                  + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
