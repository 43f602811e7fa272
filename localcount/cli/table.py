"""``python -m localcount table``: count every size of a range, twice, into results/.

Each size n ≤ m is run by two independent code paths
(``engines.registry.table_paths``; with ``--stats``, ``stats_paths``); a
path already recorded is not run again.  Every run is sharded and
checkpointed, so the command resumes after any stop, and is recorded with
its provenance in ``results/runs.csv`` (``stats-runs.csv``; the command's
paths relative to the results folder, ``util.provenance.relative_paths``); two runs of a
size that disagree stop the command (``results.records.ConflictError``).
Then the generated files are rendered (``results.publish``).

stdout gets one line ``n m count`` per size once its runs agree (with
``--stats``: ``n m solvable unique stuck max-rounds max-steps``); progress, estimates
and skips go to stderr.  With ``--scheduler ADDRESS`` or ``--dask-local N``
the shards run as Dask tasks into the same checkpoints, and a run's
provenance names the cluster's worker threads and CPUs instead of this
machine's.
"""

from __future__ import annotations

import argparse
import re
import time

from .. import tuning
from ..api.counting import check_jobs
from ..clues import check_variant
from ..engines import registry
from ..engines.base import check_size
from ..engines.stats.measures import InconsistentStats
from ..orchestration.checkpoint import CheckpointError, default_dir, work_and_machines
from ..orchestration.cluster import ClusterError, workers
from ..orchestration.runner import Stopped, run, setup_logging
from ..results import publish, records
from ..util import cores
from ..util.messages import Parser, format_seconds, say
from ..util.provenance import relative_paths, this_command
from .common import UsageError, add_cluster_options, cluster_args


def sizes_up_to(max_cells: int, min_cells: int = 0) -> list:
    """Every n×m with 1 ≤ n ≤ m and min_cells ≤ n·m ≤ max_cells, and 0×0 if min_cells is 0, by cells then n."""
    out = [(0, 0)] if min_cells <= 0 <= max_cells else []
    out += [(n, m) for n in range(1, max_cells + 1) for m in range(n, max_cells // n + 1) if n * m >= min_cells]
    return sorted(out, key=lambda s: (s[0] * s[1], s))


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


def parser() -> argparse.ArgumentParser:
    """The table command's arguments."""
    p = Parser(
        prog="python -m localcount table",
        description="Count every size n <= m of a range by two independent code paths; record the runs with "
        "their provenance in results/ and regenerate the files made from them.",
    )
    p.add_argument("--max-cells", type=int, help="every n x m with n <= m and n*m up to this")
    p.add_argument("--min-cells", type=int, default=0, help="skip sizes with fewer cells (default 0)")
    p.add_argument("--sizes", help="these sizes instead, e.g. 3x12,4x10,6")
    p.add_argument("--paths", type=int, choices=[1, 2], default=2, help="independent runs per size (default 2)")
    p.add_argument(
        "--layouts",
        metavar="KEY,KEY",
        help="record these runs of one size, named by their checkpoint keys, instead of the size's default paths "
        "(e.g. a GPU campaign and a CPU one with shard bits of their own: 5x9-gpu1-s9-sym,9x5-v1-s12-sym); "
        "their code paths must differ",
    )
    p.add_argument(
        "--max-estimate",
        type=float,
        default=None,
        metavar="SECONDS",
        help="skip runs estimated to take longer than this (they are listed; default: no limit)",
    )
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: every usable core)")
    p.add_argument("--checkpoint-dir", help=f"where shard records are kept (default: {default_dir()})")
    p.add_argument("--results", default=None, help="the results directory (default: ./results, and ./results/yesnogram "
                   "with --variant yesnogram)")  # fmt: skip
    p.add_argument("--variant", default="nonogram", help="nonogram (default) or yesnogram: rows count runs of 0s "
                   "(its own results directory; the README's known values stay the nonograms')")  # fmt: skip
    p.add_argument(
        "--stats",
        action="store_true",
        help="run 'stats' (uniqueness, rounds, stuck grids) for the sizes instead of counting, into "
        "results/stats-runs.csv and stats.csv (sizes whose lines all fit the line tables)",
    )
    p.add_argument("--render", action="store_true", help="only regenerate the files made from results/")
    add_cluster_options(p)
    p.add_argument("--readme", default=None, help="project README whose known-values table is regenerated (default: "
                   "./README.md, unless --results names another directory)")  # fmt: skip
    return p


def main(argv) -> int:
    """The ``table`` command; returns the exit status."""
    args = parser().parse_args(argv)
    try:
        records.VARIANT_DIRS[check_variant(args.variant)]
        if args.results is None:
            args.results = str(records.variant_dir("results", args.variant))
            if args.readme is None:
                args.readme = "README.md"  # other results must not rewrite this README's known values
        if args.variant != "nonogram":
            args.readme = None  # README.md's known values are the nonograms'
        if args.render and args.max_cells is None and args.sizes is None:
            return publish.render(args.results, args.readme)
        if args.layouts is not None:
            args.sizes = _layouts_size(args)
        if args.max_cells is None and args.sizes is None:
            raise ValueError("give --max-cells N, --sizes LIST, --layouts KEYS or --render")
        for name in ("max_cells", "min_cells"):
            if getattr(args, name) is not None and getattr(args, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 0, got {getattr(args, name)}")
        sizes = parse_sizes(args.sizes) if args.sizes else sizes_up_to(args.max_cells, args.min_cells)
        if not sizes:
            raise ValueError(f"no size has from {args.min_cells} to {args.max_cells} cells (--min-cells, --max-cells)")
        for n, m in sizes:
            check_size(n, m)
        check_jobs(args.jobs)
        dask = cluster_args(args)
        records.read_runs(args.results)  # a damaged runs file stops us before any work
    except (ValueError, UsageError) as err:
        say(f"error: {err}")
        return 2
    setup_logging(None, quiet=True)
    command = this_command(["table", *relative_paths(argv, args.results)])  # no path of this machine
    status = 0
    skipped = []
    try:
        with workers(dask, args.jobs or cores.usable()) as pool:
            for n, m in sizes:
                summary, skips, stop = _run_size(n, m, args, pool, command)
                skipped += skips
                if stop:
                    status = stop
                    if stop >= 128:  # interrupted: resume with the same command
                        break
                if summary is not None:
                    print(n, m, *summary, flush=True)
    except (records.ConflictError, InconsistentStats, ClusterError) as err:
        say(f"error: {err}")
        return 1
    if skipped:
        say("not counted: " + "; ".join(skipped))
    publish.render(args.results, args.readme, quiet=True)
    return status


def _layouts_size(args) -> str:
    """The one size of ``--layouts`` ('NxM'), its layouts kept in ``args.chosen``; ValueError if the keys are not
    layouts of one size, of the family and kind asked for, with independent code paths."""
    chosen = []
    for key in args.layouts.split(","):
        try:
            chosen.append(registry.parse_key(key.strip()))
        except ValueError:
            raise ValueError(f"--layouts: {key.strip()!r} is not a checkpoint key") from None
    sizes = {(min(lay.n, lay.m), max(lay.n, lay.m)) for lay in chosen}
    kinds = {lay.kind for lay in chosen}
    if len(sizes) != 1 or kinds != {"stats" if args.stats else "count"} or args.sizes or args.max_cells is not None:
        raise ValueError(
            "--layouts names runs of one size and kind (counts, or stats with --stats), instead of --sizes"
        )
    if {lay.variant for lay in chosen} != {check_variant(args.variant)}:
        raise ValueError(f"--layouts: every run must be of the {args.variant} family (--variant)")
    if len({lay.code_path for lay in chosen}) != len(chosen):
        raise ValueError("--layouts: two runs with one code path are not independent (" +
                         ", ".join(lay.key for lay in chosen) + ")")  # fmt: skip
    args.chosen, args.paths = chosen, len(chosen)
    ((n, m),) = sizes
    return f"{n}x{m}"


def _paths(n: int, m: int, args) -> list:
    """The layouts to run for n×m: ``--layouts``', its counting paths, or its stats paths with ``--stats``."""
    if getattr(args, "chosen", None):
        return args.chosen
    return (registry.stats_paths if args.stats else registry.table_paths)(n, m, args.variant)[: args.paths]


def _run_size(n: int, m: int, args, pool, command: str):
    """Run the missing paths of n×m: (its summary if every path agrees, else None; [what was not run]; exit status)."""
    kind = "stats" if args.stats else "count"
    runs = records.read_kind(args.results, kind)
    done = [r for r in runs if r.size == (n, m) and r.complete]  # stats runs without steps are run again
    if len(done) >= args.paths:  # recorded before, perhaps by paths chosen by an older version
        return done[0].summary, [], 0
    try:
        layouts = _paths(n, m, args)
    except ValueError as err:  # stats cannot do this size
        return None, [f"{n}x{m} stats: {err}"], 0
    recorded = {r.layout: r for r in runs}
    summaries, skips = set(), []
    directory = args.checkpoint_dir or default_dir()
    for lay in layouts:
        if lay.key in recorded:
            summaries.add(recorded[lay.key].summary)
            continue
        one_core = None  # estimated seconds on one core
        if (args.max_estimate is not None or pool.client) and n * m > tuning.NO_ESTIMATE_CELLS:
            one_core = lay.estimate_one_core()
        if args.max_estimate is not None and one_core is not None and one_core / pool.jobs > args.max_estimate:
            skips.append(f"{lay.key} (estimated {format_seconds(one_core / pool.jobs)})")
            continue
        say(f"{'stats of' if args.stats else 'counting'} {lay.n}x{lay.m} ({lay.key}) on {pool.jobs} {pool.what}")
        start = time.perf_counter()
        try:
            out = run(lay, directory, pool.jobs, execute=pool.execute(lay, one_core))
        except Stopped as stop:
            skips.append(f"{lay.key} stopped ({stop}); {stop.saved} of {stop.shards} shards saved, rerun to resume")
            return None, skips, stop.exit_status
        except CheckpointError as err:
            skips.append(f"{lay.key}: {err}")
            return None, skips, 1
        wall = time.perf_counter() - start
        compute, cpu = work_and_machines(out.path)
        recorded_run = records.record(args.results, lay, lay.finish(out.total), wall, compute, pool.jobs, command, cpu)
        summaries.add(recorded_run.summary)
        say(f"{lay.key}: {recorded_run.gave} in {wall:.1f} s ({compute:.1f} s summed over shards)")
    if len(summaries) != 1 or skips:
        return None, skips, 0
    return summaries.pop(), skips, 0
