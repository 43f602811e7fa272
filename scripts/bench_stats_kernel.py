#!/usr/bin/env python
"""The generated stats kernel against variants of its speed settings, shard by shard, one thread.

    python scripts/bench_stats_kernel.py 6x6 --set STATS_CHECK=half
    python scripts/bench_stats_kernel.py 6x6 --every 40 --rounds 4 --set STATS_LANES=1 --set STATS_LANES=4
    python scripts/bench_stats_kernel.py 5x8 --path transposed --set FLAT_MAX=2

Each ``--set NAME=VALUE`` is one variant: the module constant NAME of
``localcount.engines.stats.specialize`` (STATS_LANES, STATS_CHECK, FLAT_MAX,
...) set to VALUE while its kernel is generated; the first column is the
kernel as it is.  Every kernel runs every ``--every``-th shard (a systematic
sample: shard times run from milliseconds to seconds, and random samples of
them mislead), the variants alternating shard by shard so that all see the
same seconds of this machine; each round prints each variant's seconds and
its ratio to the kernel as it is, and checks that every variant added up the
same vector (a speed setting must not change a number).  Compare ratios, not
seconds, and only within one run.
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from localcount.engines.stats import prepare, specialize
from localcount.engines.stats.enumeration import SYMMETRIES
from localcount.engines.stats.measures import width
from localcount.util import generated
from localcount.util.provenance import cpu_model


def parse_setting(text: str) -> tuple:
    """'NAME=VALUE' -> (NAME, value): an int, or the text itself."""
    name, sep, value = text.partition("=")
    if not sep or not hasattr(specialize, name) or not name.isupper():
        raise argparse.ArgumentTypeError(
            f"--set wants NAME=VALUE with NAME a constant of stats.specialize, not {text!r}"
        )
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value


def kernel(n: int, m: int, base: int, first: str, setting: tuple | None):
    """The generated stats module of n×m (rows n, length m), with ``setting`` applied while it is written."""
    if setting is None:
        return specialize.module(n, m, base, first)
    name, value = setting
    old = getattr(specialize, name)
    setattr(specialize, name, value)
    try:
        src = specialize.source(n, m, base, first, specialize.STATS_LANES)
    finally:
        setattr(specialize, name, old)
    return generated.load(f"bench_stats_{n}x{m}_{first}_{name}_{value}", src)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("size", help="NxM, e.g. 6x6")
    p.add_argument("--path", default="rows", choices=prepare.PATHS)
    p.add_argument("--every", type=int, default=40, help="time every k-th shard (default 40)")
    p.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    p.add_argument("--set", dest="settings", action="append", type=parse_setting, default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv)
    try:
        n, m = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        p.error(f"size: want NxM, e.g. 6x6, not {args.size!r}")
    try:
        prepare.check_stats_size(n, m)
    except ValueError as err:
        p.error(f"size: {err}")
    rows, cols, cols_first = prepare.oriented(n, m, args.path)
    prep = prepare.prepare(rows, cols)
    depth = prepare.default_depth(n, m, args.path)
    shards = np.arange(0, prep.clues**depth, max(1, args.every))
    first = "columns" if cols_first else "rows"
    names = ["as it is"] + [f"{k}={v}" for k, v in args.settings]
    mods = [kernel(rows, cols, prep.base, first, s) for s in [None, *args.settings]]
    shard_args = specialize.shard_args(prep, depth, SYMMETRIES["flips"])
    w = width(n, m)
    for mod in mods:  # compile or load first
        mod.stats_shard(shards[0], *shard_args, np.zeros(w, np.int64))
    print(f"# {n}x{m} {args.path}: {len(shards)} of {prep.clues**depth} shards (one in {args.every}), one thread; "
          f"{cpu_model()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")  # fmt: skip
    ratios = {name: [] for name in names[1:]}
    for r in range(args.rounds):
        spent = [0.0] * len(mods)
        outs = [np.zeros(w, np.int64) for _ in mods]
        for i, s in enumerate(shards):
            order = range(len(mods)) if (i + r) % 2 == 0 else reversed(range(len(mods)))
            for k in order:
                start = time.perf_counter()
                mods[k].stats_shard(s, *shard_args, outs[k])
                spent[k] += time.perf_counter() - start
        for k, name in enumerate(names):
            if not (outs[k] == outs[0]).all():
                print(f"{name}: a different vector from the kernel as it is", file=sys.stderr)
                return 1
        line = [f"round {r + 1}: as it is {spent[0]:.2f} s"]
        for k, name in enumerate(names[1:], 1):
            ratios[name].append(spent[k] / spent[0])
            line.append(f"{name} {spent[k]:.2f} s ({spent[k] / spent[0]:.3f})")
        print("; ".join(line), flush=True)
    for name, rs in ratios.items():
        print(f"{name}: median ratio {statistics.median(rs):.3f} (of {', '.join(f'{x:.3f}' for x in rs)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
