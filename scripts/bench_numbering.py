"""Time ``nth`` and ``rank`` (``docs/numbering.md``): in a warm process, and as whole commands.

    python scripts/bench_numbering.py                 # 5x5 and 6x6, nonograms
    python scripts/bench_numbering.py --sizes 5x5 --variant yesnogram --queries 50

For each size: the median and the slowest of ``--queries`` calls of ``nth`` (random k), of ``rank``
(of those puzzles' grids, with the pieces ``nth`` computed forgotten) and of ``nth`` within one
difficulty, after one call that loads the index and the kernels; then the wall time of the whole command ``python -m localcount nth N M K`` (a new
process: start-up, imports, loading the cached kernels).  Prints one line per measure.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from localcount.api import numbering  # noqa: E402


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def line(what: str, seconds: list) -> str:
    return f"{what:<34} median {1000 * statistics.median(seconds):8.1f} ms   max {1000 * max(seconds):8.1f} ms   ({len(seconds)} calls)"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", nargs="+", default=["5x5", "6x6"])
    p.add_argument("--variant", default="nonogram")
    p.add_argument("--queries", type=int, default=20)
    p.add_argument("--commands", type=int, default=5, help="whole commands timed per size")
    args = p.parse_args(argv)
    rng = random.Random(1)
    for size in args.sizes:
        n, m = map(int, size.split("x"))
        start = time.perf_counter()
        order = numbering.numbering(n, m, variant=args.variant)
        order.nth(1)
        print(f"{size} {args.variant}: index loaded and kernels ready in {time.perf_counter() - start:.2f} s "
              f"({order.total()} puzzles, blocks of 2^{order.bits} grids)")  # fmt: skip
        ks = [rng.randrange(1, order.total() + 1) for _ in range(args.queries)]
        found = []
        print(line("nth(k)", [timed(lambda k=k: found.append(order.nth(k))) for k in ks]))
        type(order).piece_codes.cache_clear()  # rank computes its own pieces, not nth's
        print(line("rank(grid)", [timed(lambda x=x: order.rank(x.number)) for x in found]))
        type(order).piece_codes.cache_clear()
        d = max(found[0].steps, 2)
        within = [rng.randrange(1, order.total((d, d)) + 1) for _ in range(args.queries)]
        print(line(f"nth(k, steps={d})", [timed(lambda k=k: order.nth(k, (d, d))) for k in within]))
        walls = []
        for k in ks[: args.commands]:
            cmd = [sys.executable, "-m", "localcount", "nth", str(n), str(m), str(k), "--variant", args.variant]
            walls.append(timed(lambda cmd=cmd: subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)))
        print(line("python -m localcount nth (process)", walls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
