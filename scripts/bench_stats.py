#!/usr/bin/env python
"""What the statistics cost against the count: whole processes side by side, as a ratio.

    python scripts/bench_stats.py                     # 5x6 and 6x6, 2 rounds
    python scripts/bench_stats.py --sizes 4x8 --rounds 3
    python scripts/bench_stats.py --sizes 5x6 --path transposed

For each size, first the kernels of both are compiled or loaded from the
cache (``Layout.warm`` in a process of its own, not timed), then ``--rounds``
rounds of

    python -m localcount N M --fresh --checkpoint-dir TMP --quiet
    python -m localcount stats N M --fresh --checkpoint-dir TMP --quiet [--path P]

one after the other (A then B, then B then A, ...), so that both see the same
minutes of this machine.  Prints each run's wall seconds, the medians and the
ratio stats / count, with the CPU and the date; compare figures only within
one run of this script.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from localcount.util import cores
from localcount.util.provenance import cpu_model


def timed(cmd: list) -> float:
    """Wall seconds of a whole process (its stdout dropped; a failure stops the benchmark)."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def warm(n: int, m: int, path: str) -> None:
    """Compile (or load) the count's and the stats' kernels of n×m in a process of their own."""
    code = (
        "from localcount.engines.grid.layout import GridLayout; from localcount.engines.stats.layout import "
        f"StatsLayout; GridLayout.make({n}, {m}).warm(True); StatsLayout.make({n}, {m}, path={path!r}).warm(True)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def commands(n: int, m: int, jobs: int, path: str, directory: str) -> dict:
    """The two commands of one size."""
    base = [sys.executable, "-m", "localcount"]
    tail = ["--fresh", "--checkpoint-dir", directory, "--quiet", "--jobs", str(jobs)]
    return {
        "count": base + [str(n), str(m)] + tail,
        "stats": base + ["stats", str(n), str(m), "--path", path] + tail,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sizes", default="5x6,6x6", help="comma-separated NxM (default 5x6,6x6)")
    p.add_argument("--rounds", type=int, default=2, help="timed rounds per size (default 2)")
    p.add_argument("--jobs", type=int, default=cores.usable(), help="worker processes (default: every usable core)")
    p.add_argument("--path", default="rows", choices=("rows", "transposed"), help="the stats code path")
    args = p.parse_args()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"# stats against count, whole processes, {args.jobs} jobs; {cpu_model()}, {os.cpu_count()} cores; {when}")
    print(f"{'size':>6} {'count s':>9} {'stats s':>9} {'ratio':>6}   runs (count / stats)")
    for size in args.sizes.split(","):
        n, m = (int(x) for x in size.lower().split("x"))
        with tempfile.TemporaryDirectory() as directory:
            cmds = commands(n, m, args.jobs, args.path, directory)
            warm(n, m, args.path)
            times = {"count": [], "stats": []}
            for r in range(args.rounds):
                order = ("count", "stats") if r % 2 == 0 else ("stats", "count")
                for name in order:
                    times[name].append(timed(cmds[name]))
        c, s = statistics.median(times["count"]), statistics.median(times["stats"])
        runs = " ".join(f"{a:.1f}/{b:.1f}" for a, b in zip(times["count"], times["stats"]))
        print(f"{size:>6} {c:9.2f} {s:9.2f} {s / c:6.2f}   {runs}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
