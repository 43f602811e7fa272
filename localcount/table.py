"""``python -m localcount table``: count every size of a range, twice, into results/.

Each size n ≤ m is counted by two independent code paths (``paths``): the
n×m orientation with the default symmetry group, and the transposed m×n
orientation with another group (every grid for small sizes, else the flips;
for squares that is a different group from the default one); a size that
already has that many recorded runs is not counted again.  Every run is
sharded and checkpointed, so the command resumes after any stop, and is
recorded with its provenance in ``results/runs.csv``; two runs of a size
that disagree stop the command (``results.ConflictError``).  Then the
generated files are rendered (``publish``).

stdout gets one line ``n m count`` per size once its runs agree; progress,
estimates and skips go to stderr.  With ``--stats`` the runs are ``stats``
enumerations (``stats_paths``: grouped by rows with the flips, and by the
transposed grid's rows with every grid or the flips), recorded in
``results/stats-runs.csv``; stdout gets ``n m solvable unique stuck max-rounds``.
With ``--scheduler ADDRESS`` or ``--dask-local N`` the shards run as Dask
tasks (``cluster``) into the same checkpoints, and a run's provenance names
the cluster's worker threads and CPUs instead of this machine's.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import time

from . import results
from .checkpoint import CheckpointError, default_dir, work_and_machines
from .report import format_seconds

#: Sizes up to this many cells use every grid (no symmetry) for the second path.
EVERY_GRID_CELLS = 24


def _say(msg: str) -> None:
    print(f"localcount: {msg}", file=sys.stderr, flush=True)


def sizes_up_to(max_cells: int, min_cells: int = 0) -> list:
    """Every n×m with 1 ≤ n ≤ m and min_cells ≤ n·m ≤ max_cells, and 0×0 if min_cells is 0, by cells then n."""
    out = [(0, 0)] if min_cells <= 0 <= max_cells else []
    out += [(n, m) for n in range(1, max_cells + 1) for m in range(n, max_cells // n + 1) if n * m >= min_cells]
    return sorted(out, key=lambda s: (s[0] * s[1], s))


def paths(n: int, m: int) -> list:
    """The shard layouts of the two independent runs of n×m (n ≤ m).

    Normally n×m with the default symmetry group, and the transposed m×n
    with every grid (up to EVERY_GRID_CELLS cells) or the flips.  Two
    exceptions, where the general kernel would run its slow line solver on
    every grid: a single row longer than the line tables runs as m×1 twice
    (its kernel decides each grid in its hoisted first row pass; ~30x
    faster than 1×m), with the flips and with every grid; and two rows
    longer than the tables run the thin counter (``thin``, ~9x faster at
    2×15 on one core) twice, its first row updated by the subset-OR table and by the
    word line solver, with different shard bits.
    """
    from . import thin
    from .shards import layout
    from .tables import TABLE_MAX_LEN

    if n == 1 and m > TABLE_MAX_LEN:
        return [layout(m, 1, symmetry="flips"), layout(m, 1, symmetry="none")]
    if thin.preferred(n, m):
        first = thin.thin_layout(m, rows="table")
        return [first, thin.thin_layout(m, first.bits - 1, rows="word")]
    second = "none" if n * m <= EVERY_GRID_CELLS else "flips"
    return [layout(n, m, symmetry="auto"), layout(m, n, symmetry=second)]


def parse_sizes(text: str) -> list:
    """'3x12,4x10,6' -> [(3, 12), (4, 10), (6, 6)], each as n ≤ m."""
    out = []
    for item in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:[xX×]\s*(\d+))?\s*", item)
        if not match:
            raise ValueError(f"sizes look like 3x12,4x10,6 (n x m, or n for a square); got {item!r}")
        n = int(match.group(1))
        m = int(match.group(2)) if match.group(2) else n
        out.append((min(n, m), max(n, m)))
    return out


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m localcount table",
        description="Count every size n <= m of a range by two independent code paths; record the runs with "
        "their provenance in results/ and regenerate the files made from them.",
    )
    p.add_argument("--max-cells", type=int, help="every n x m with n <= m and n*m up to this")
    p.add_argument("--min-cells", type=int, default=0, help="skip sizes with fewer cells (default 0)")
    p.add_argument("--sizes", help="these sizes instead, e.g. 3x12,4x10,6")
    p.add_argument("--paths", type=int, choices=[1, 2], default=2, help="independent runs per size (default 2)")
    p.add_argument(
        "--max-estimate",
        type=float,
        default=None,
        metavar="SECONDS",
        help="skip runs estimated to take longer than this (they are listed; default: no limit)",
    )
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--checkpoint-dir", help=f"where shard records are kept (default: {default_dir()})")
    p.add_argument("--results", default="results", help="the results directory (default: ./results)")
    p.add_argument(
        "--stats",
        action="store_true",
        help="run 'stats' (uniqueness, rounds, stuck grids) for the sizes instead of counting, into "
        "results/stats-runs.csv and stats.csv (sizes whose lines all fit the line tables)",
    )
    p.add_argument("--render", action="store_true", help="only regenerate the files made from results/")
    from .cli import add_cluster_options

    add_cluster_options(p)
    p.add_argument("--readme", default="README.md", help="project README whose known-values table is regenerated")
    return p


def main(argv) -> int:
    """The ``table`` command; returns the exit status."""
    args = _parser().parse_args(argv)
    from . import publish
    from .cli import UsageError, cluster_args

    try:
        if args.render and args.max_cells is None and args.sizes is None:
            return publish.render(args.results, args.readme)
        if args.max_cells is None and args.sizes is None:
            raise ValueError("give --max-cells N, --sizes LIST or --render")
        sizes = parse_sizes(args.sizes) if args.sizes else sizes_up_to(args.max_cells, args.min_cells)
        from .count import MAX_CELLS

        for n, m in sizes:
            if n * m > MAX_CELLS:
                raise ValueError(f"{n}x{m} has {n * m} cells; at most {MAX_CELLS} are supported")
        if args.jobs is not None and args.jobs < 1:
            raise ValueError(f"--jobs must be at least 1, got {args.jobs}")
        dask = cluster_args(args)
        results.read_runs(args.results)  # a damaged runs file stops us before any work
    except (ValueError, UsageError) as err:
        _say(f"error: {err}")
        return 2
    from .runner import setup_logging

    from .cluster import ClusterError
    from .stats import InconsistentStats

    setup_logging(None, quiet=True)
    command = results.this_command(["table", *argv])
    status = 0
    skipped = []
    try:
        with _workers(dask, args.jobs or os.cpu_count() or 1) as workers:
            for n, m in sizes:
                if args.stats:
                    total, skips, stop = _stats_size(n, m, args, workers, command)
                else:
                    total, skips, stop = _count_size(n, m, args, workers, command)
                skipped += skips
                if stop:
                    status = stop
                    if stop >= 128:  # interrupted: resume with the same command
                        break
                if total is not None:
                    print(n, m, *(total if isinstance(total, tuple) else (total,)), flush=True)
    except (results.ConflictError, InconsistentStats, ClusterError) as err:
        _say(f"error: {err}")
        return 1
    if skipped:
        _say("not counted: " + "; ".join(skipped))
    publish.render(args.results, args.readme, quiet=True)
    return status


class Workers:
    """Where this command's runs go: ``jobs`` local processes, or a Dask ``client``'s cluster."""

    def __init__(self, jobs: int, client=None):
        from . import cluster

        self.client = client
        self.jobs = cluster.threads(client) if client else jobs  # recorded as the run's processes
        self.what = "Dask worker threads" if client else "processes"

    def execute(self, lay, one_core=None):
        """``runner.run``'s execute: None for local processes, else Dask tasks (sized from one core's seconds)."""
        if self.client is None:
            return None
        from . import cluster

        return cluster.executor(self.client, cluster.shard_seconds(lay, one_core))


@contextlib.contextmanager
def _workers(dask, jobs: int):
    """Workers for the whole command: one Dask client for every size, if asked."""
    if dask is None:
        yield Workers(jobs)
        return
    from . import cluster

    with cluster.connect(*dask) as client:
        yield Workers(jobs, client)


def _count_size(n: int, m: int, args, workers: Workers, command: str):
    """Run the missing paths of n×m: (count if every path agrees, else None; [what was not counted]; exit status)."""
    from .runner import Interrupted, Stopped, run
    from .shards import estimate_one_core

    runs = results.read_runs(args.results)
    done = [r for r in runs if r.size == (n, m)]
    if len(done) >= args.paths:  # counted before, perhaps by paths chosen by an older version
        return done[0].count, [], 0
    recorded = {r.layout: r for r in runs}
    counts = set()
    skips = []
    directory = args.checkpoint_dir or default_dir()
    jobs = workers.jobs
    for lay in paths(n, m)[: args.paths]:
        if lay.key in recorded:
            counts.add(recorded[lay.key].count)
            continue
        one_core = None  # estimated seconds on one core
        if (args.max_estimate is not None or workers.client) and n * m > 20:
            one_core = estimate_one_core(lay)
        if args.max_estimate is not None and one_core is not None and one_core / jobs > args.max_estimate:
            skips.append(f"{lay.key} (estimated {format_seconds(one_core / jobs)})")
            continue
        _say(f"counting {lay.n}x{lay.m} ({lay.key}) on {jobs} {workers.what}")
        start = time.perf_counter()
        try:
            out = run(lay, directory, jobs, execute=workers.execute(lay, one_core))
        except Stopped as stop:
            skips.append(f"{lay.key} stopped ({stop}); {stop.saved} of {stop.shards} shards saved, rerun to resume")
            return None, skips, 128 + stop.signum if isinstance(stop, Interrupted) else 1
        except CheckpointError as err:
            skips.append(f"{lay.key}: {err}")
            return None, skips, 1
        wall = time.perf_counter() - start
        compute, cpu = work_and_machines(out.path)
        results.add_run(args.results, results.make_run(lay, out.total, wall, compute, jobs, command, cpu))
        counts.add(out.total)
        _say(f"{lay.key}: {out.total} in {wall:.1f} s ({compute:.1f} s summed over shards)")
    if not counts or skips:
        return None, skips, 0
    return counts.pop(), skips, 0


def stats_paths(n: int, m: int) -> list:
    """The (path, symmetry) of the two independent stats runs of n×m: by rows, and transposed with another group when small."""
    return [("rows", "flips"), ("transposed", "none" if n * m <= EVERY_GRID_CELLS else "flips")]


def _stats_size(n: int, m: int, args, workers: Workers, command: str):
    """Run the missing stats paths of n×m: ((solvable, unique, stuck, max rounds) if every path agrees, else None; skips; status)."""
    from .runner import Interrupted, Stopped, run
    from .shards import StatsLayout
    from .stats import check_stats_size, default_depth, from_vector

    try:
        check_stats_size(n, m)
    except ValueError as err:
        return None, [f"{n}x{m} stats: {err}"], 0
    recorded = {r.layout: r for r in results.read_stats_runs(args.results)}
    directory = args.checkpoint_dir or default_dir()
    jobs = workers.jobs
    agreed = None
    for path, symmetry in stats_paths(n, m)[: args.paths]:
        lay = StatsLayout(n, m, default_depth(n, m, path) if n * m else 0, path, symmetry)
        if lay.key in recorded:
            r = recorded[lay.key]
            agreed = (r.solvable, r.unique, r.stuck_start, max(r.histogram(), default=0))
            continue
        _say(f"stats of {n}x{m} ({lay.key}) on {jobs} {workers.what}")
        start = time.perf_counter()
        try:
            out = run(lay, directory, jobs, execute=workers.execute(lay))
        except Stopped as stop:
            skip = f"{lay.key} stopped ({stop}); {stop.saved} of {stop.shards} shards saved, rerun to resume"
            return None, [skip], 128 + stop.signum if isinstance(stop, Interrupted) else 1
        except CheckpointError as err:
            return None, [f"{lay.key}: {err}"], 1
        wall = time.perf_counter() - start
        s = from_vector(n, m, out.total)
        compute, cpu = work_and_machines(out.path)
        results.add_stats_run(args.results, results.make_stats_run(lay, s, wall, compute, jobs, command, cpu))
        agreed = (s.solvable, s.unique, s.stuck_start, s.max_rounds)
        _say(f"{lay.key}: solvable {s.solvable}, unique {s.unique} in {wall:.1f} s ({compute:.1f} s summed over shards)")
    return agreed, [], 0
