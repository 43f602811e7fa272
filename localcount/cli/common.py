"""What every command shares: usage errors, sizes, the run and cluster options, the exit statuses
(progress bars and workers: ``api.feedback``).

The rules live here once: a size is one or two whole numbers (``parse_size``);
bad input is a ``UsageError`` (``util.errors``), said in one line with exit
status 2; a run that stops reports how to resume and exits with
``Stopped.exit_status`` (1, or 128 + the signal); ``exit_status`` turns what
a command's body raises into these.  The checks themselves are the API's
(``api.counting``, ``api.feedback``): the commands parse, call the API and
print.  No numba here.
"""

from __future__ import annotations

import argparse
import re

from ..api.counting import dask_target, size
from ..util.errors import UsageError
from ..util.messages import say


def parse_size(tokens) -> tuple:
    """(n, m) from one or two integer tokens; one number means a square; UsageError if not a size the counters take."""
    if not tokens:
        raise UsageError("no size given: expected 'n' (a square) or 'n m' (n rows, m columns)")
    if len(tokens) > 2:
        raise UsageError(f"expected one or two numbers (n or n m), got {len(tokens)}: {' '.join(tokens)}")
    sizes = []
    for tok in tokens:
        if not re.fullmatch(r"[+-]?\d+", tok):
            raise UsageError(f"size must be a whole number, got {tok!r}")
        v = int(tok)
        if v < 0:
            raise UsageError(f"size must be non-negative, got {v}")
        sizes.append(v)
    return size(*sizes)


def add_run_options(p: argparse.ArgumentParser, what: str = "run") -> None:
    """-j/--jobs, --checkpoint-dir and --fresh: the workers and checkpoint of a sharded ``what`` (a run, a build)."""
    from ..orchestration.checkpoint import ENV_DIR, default_dir

    p.add_argument(
        "-j", "--jobs", type=int, default=None, help="worker processes or threads (default: every usable core)"
    )
    p.add_argument("--checkpoint-dir", help=f"where shard records are kept (default: ${ENV_DIR} or {default_dir()})")
    p.add_argument("--fresh", action="store_true", help=f"discard this {what}'s checkpoint and start over")


def add_idle_option(p: argparse.ArgumentParser) -> None:
    """--idle: the run at idle priority (``api.counting.lower_priority``), for the cores nothing else wants."""
    p.add_argument(
        "--idle",
        action="store_true",
        help="run at idle priority, this process and its workers: SCHED_IDLE and nice 19, and autogroup nice 19 "
        "(Linux); the first line says what was set, and the checkpoint's sessions file records it",
    )


def add_cluster_options(p: argparse.ArgumentParser) -> None:
    """--scheduler and --dask-local: shards as Dask tasks (``orchestration.cluster``) instead of local processes."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count the shards as tasks on the Dask cluster of this scheduler (e.g. tcp://host:8786); "
        "recorded in the same checkpoint as local runs (needs the extra localcount[dask])",
    )
    where.add_argument(
        "--dask-local", type=int, metavar="N", help="count on a Dask LocalCluster of N worker processes on this machine"
    )


def cluster_args(args):
    """(scheduler, local workers) if the run goes to Dask, else None; UsageError if --dask-local is not positive."""
    return dask_target(args.scheduler, args.dask_local)


def exit_status(body, failures: tuple = ()) -> int:
    """``body()``'s exit status, or what it raised said on stderr in one line and its exit status.

    Bad input (``UsageError``) 2; a stopped run says how to resume
    (``report_stop``); a checkpoint or cluster problem, or one of
    ``failures``, 1; Ctrl-C 130.
    """
    from ..orchestration.checkpoint import CheckpointError
    from ..orchestration.cluster import ClusterError
    from ..orchestration.runner import Stopped

    try:
        return body()
    except UsageError as err:
        say(f"error: {err}")
        return 2
    except Stopped as stop:
        return report_stop(stop)
    except (CheckpointError, ClusterError, *failures) as err:
        say(f"error: {err}")
        return 1
    except KeyboardInterrupt:
        say("interrupted")
        return 130


def report_stop(stop) -> int:
    """Say how a sharded run stopped and how to resume it; its exit status (130 / 143 for signals, else 1)."""
    what = f"interrupted by {stop}" if hasattr(stop, "signum") else f"error: {stop}"
    say(f"{what}; {stop.saved} of {stop.shards} shards are saved in {stop.path}; run the same command again to resume")
    return stop.exit_status
