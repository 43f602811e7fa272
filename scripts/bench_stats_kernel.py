#!/usr/bin/env python
"""The generated stats (or count) kernel against variants of its speed settings, shard by shard, one thread.

    python scripts/bench_stats_kernel.py 6x6 --set STATS_CHECK=half
    python scripts/bench_stats_kernel.py 6x6 --every 41 --rounds 4 --set STATS_LANES=1 --set STATS_LANES=4
    python scripts/bench_stats_kernel.py 5x8 --path transposed --set FLAT_MAX=2
    python scripts/bench_stats_kernel.py 6x6 --engine count --set LANES=2 --set COUNT_CHECK=round

Each ``--set NAME=VALUE`` is one variant: the tunable NAME of ``localcount.tuning``
that the stats kernels read (STATS_LANES, STATS_CHECK, FLAT_MAX, FLAT_CAP,
KEY_TABLE_BITS) set to VALUE while its kernel is generated; the first column is the
kernel as it is.  With ``--engine count`` the kernel is the count's
(``localcount.engines.grid.specialize``; tunables LANES, a power of two, and COUNT_CHECK),
its group the size's default, and a shard one of its in-process shards
(``grid.count.plan``: 2^``tuning.THREAD_SHARD_BITS``).  Every kernel runs every ``--every``-th shard (a systematic
sample: shard times run from milliseconds to seconds, and random samples of
them mislead; keep the stride odd: a count's shards are numbered by border
bits, and every 40th shard of 6x6 has the low three at 0, half the time a
shard of the whole takes), the variants alternating shard by shard so that all see the
same seconds of this machine; each round prints each variant's seconds and
its ratio to the kernel as it is, and checks that every variant added up the
same vector (a speed setting must not change a number).  Compare ratios, not
seconds, and only within one run.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import os
import statistics
import sys
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from localcount import tuning
from localcount.engines.base import GROUP_IDS, symmetry_group
from localcount.engines.grid import count as grid_count
from localcount.engines.grid import specialize as grid_specialize
from localcount.engines.stats import prepare, specialize
from localcount.engines.stats.compute import SYMMETRIES
from localcount.engines.stats.measures import width
from localcount.util import generated
from localcount.util.provenance import cpu_model

#: The tunables (``localcount.tuning``) each engine's generated kernel reads.
TUNABLES = {
    "count": ("LANES", "COUNT_CHECK"),
    "stats": ("STATS_LANES", "STATS_CHECK", "FLAT_MAX", "FLAT_CAP", "KEY_TABLE_BITS"),
}


def parse_setting(text: str) -> tuple:
    """'NAME=VALUE' -> (NAME, value): an int, or the text itself."""
    name, sep, value = text.partition("=")
    if not sep or not any(name in names for names in TUNABLES.values()):
        raise argparse.ArgumentTypeError(
            f"--set wants NAME=VALUE with NAME a tunable of the generated kernels "
            f"({', '.join(sum(TUNABLES.values(), ()))}), not {text!r}"
        )
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value


@contextlib.contextmanager
def settings(changes: dict):
    """``tuning``'s values set as ``changes`` says while the block runs (a kernel's source is written)."""
    old = {name: getattr(tuning, name) for name in changes}
    for name, value in changes.items():
        setattr(tuning, name, value)
    try:
        yield
    finally:
        for name, value in old.items():
            setattr(tuning, name, value)


def check_engine(name: str, engine: str) -> None:
    """Exit with a message unless ``name`` is a tunable that ``engine``'s kernel reads."""
    if name not in TUNABLES[engine]:
        raise SystemExit(f"--set {name}: not a tunable of the {engine} kernel (--engine {engine}: "
                         f"{', '.join(TUNABLES[engine])})")  # fmt: skip


def count_kernel(n: int, m: int, setting: tuple | None):
    """The generated count module of n×m, with ``setting`` applied while it is written."""
    if setting is None:
        return grid_specialize.module(n, m)
    name, value = setting
    check_engine(name, "count")
    if name == "LANES" and (not isinstance(value, int) or value < 1 or value & (value - 1)):
        raise SystemExit(f"--set LANES={value}: want a power of two")
    with settings({name: value}):
        src = grid_specialize.source(n, m)
    return generated.load(f"bench_count_{n}x{m}_{name}_{value}", src)


def count_runners(n: int, m: int, every: int, settings: list) -> tuple:
    """(shards, one run(shard, out) per kernel, vector width, what the shards are of) for the count's kernels."""
    p = grid_count.plan(n, m)
    ctx = grid_count.context(n, m, specialized=True, kernel="lanes")  # the kernels below are lanes kernels
    group = GROUP_IDS[symmetry_group(n, m, True)]
    entry = "kernel_shard_square" if group == GROUP_IDS["square"] else "kernel_shard"
    kernels = [getattr(count_kernel(n, m, s), entry) for s in [None, *settings]]

    def runner(k):
        def run(shard, out):
            out[0] += k(shard, p.inner_bits, group, *ctx.spec_args())

        return run

    return np.arange(0, p.shards, max(1, every)), [runner(k) for k in kernels], 1, f"{p.shards} shards"


def kernel(n: int, m: int, base: int, first: str, setting: tuple | None):
    """The generated stats module of n×m (rows n, length m), with ``setting`` applied while it is written."""
    if setting is None:
        return specialize.module(n, m, base, first)
    name, value = setting
    with settings({name: value}):
        src = specialize.source(n, m, base, first)
    return generated.load(f"bench_stats_{n}x{m}_{first}_{name}_{value}", src)


def stats_runners(n: int, m: int, path: str, every: int, settings: list) -> tuple:
    """(shards, one run(shard, out) per kernel, vector width, what the shards are of) for the stats' kernels."""
    for name, _ in settings:
        check_engine(name, "stats")
    rows, cols, cols_first = prepare.oriented(n, m, path)
    prep = prepare.prepare(rows, cols)
    depth = prepare.default_depth(n, m, path)
    first = "columns" if cols_first else "rows"
    mods = [kernel(rows, cols, prep.base, first, s) for s in [None, *settings]]
    shard_args = specialize.shard_args(prep, depth, SYMMETRIES["flips"])

    def runner(mod):
        def run(shard, out):
            mod.stats_shard(shard, *shard_args, out)

        return run

    shards = np.arange(0, prep.clues**depth, max(1, every))
    return shards, [runner(mod) for mod in mods], width(n, m), f"{prep.clues**depth} shards by {path}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("size", help="NxM, e.g. 6x6")
    p.add_argument("--engine", default="stats", choices=("stats", "count"), help="whose kernel (default stats)")
    p.add_argument("--path", default="rows", choices=prepare.PATHS, help="the stats' path (default rows)")
    p.add_argument("--every", type=int, default=41, help="time every k-th shard (default 41; keep it odd)")
    p.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    p.add_argument("--set", dest="settings", action="append", type=parse_setting, default=[], metavar="NAME=VALUE")
    args = p.parse_args(argv)
    try:
        n, m = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        p.error(f"size: want NxM, e.g. 6x6, not {args.size!r}")
    names = ["as it is"] + [f"{k}={v}" for k, v in args.settings]
    if args.engine == "count":
        if n * m > 64 or not grid_specialize.supported(n, m, 16, 16):
            p.error(f"size: no generated count kernel for {n}x{m}")
        shards, runs, w, total = count_runners(n, m, args.every, args.settings)
    else:
        try:
            prepare.check_stats_size(n, m)
        except ValueError as err:
            p.error(f"size: {err}")
        shards, runs, w, total = stats_runners(n, m, args.path, args.every, args.settings)
    for run in runs:  # compile or load first
        run(shards[0], np.zeros(w, np.int64))
    print(f"# {n}x{m} {args.engine}: {len(shards)} of {total} (one in {args.every}), one thread; "
          f"{cpu_model()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")  # fmt: skip
    ratios = {name: [] for name in names[1:]}
    for r in range(args.rounds):
        spent = [0.0] * len(runs)
        outs = [np.zeros(w, np.int64) for _ in runs]
        for i, s in enumerate(shards):
            order = range(len(runs)) if (i + r) % 2 == 0 else reversed(range(len(runs)))
            for k in order:
                start = time.perf_counter()
                runs[k](s, outs[k])
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
