"""Shards as tasks on a Dask cluster, recorded in the same checkpoint as local runs.

The client (this process) owns the checkpoint exactly as ``runner.run``'s
parent does: it locks it, submits the missing shards as tasks (a few shards
per task) and records each shard durably as its task's result arrives.
Workers only compute (``Layout.compute``, the serial kernel: give them
one thread each).  So a campaign can move between a local pool and a cluster
with one checkpoint, and resumes after any of them dies:

- a worker dies: the scheduler reruns its tasks on other workers (Dask);
  a task lost some other way (cancelled, ``KilledWorker``) is resubmitted
  up to ``RETRIES`` times, then the run stops and says why;
- the scheduler dies or cannot be reached: the run stops (``Stopped``);
- the client dies: every shard recorded so far stays recorded.

A shard that comes back twice is checked against its record and never added
twice (``runner.Tally``).  Only a window of tasks is in flight (a few per
worker thread), so 7×7's 2^20 shards never sit in the scheduler at once.

``workers`` opens where a command's shards go: its ``jobs`` local processes, or one Dask client for the
whole command; ``Workers.execute`` is what ``runner.run`` computes the shards with.

``dask[distributed]`` is an optional extra (``pip install 'localcount[dask]'``).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import time
import uuid
from concurrent.futures import CancelledError

from .. import tuning
from ..util.provenance import cpu_model
from ..util.version import __version__
from .runner import DELAY_ENV, STOP_SIGNALS, Interrupted, Stopped

#: A lost task is resubmitted this many times before the run stops.
RETRIES = 3
#: How long to wait for a scheduler to answer.
CONNECT_TIMEOUT = "15s"


class ClusterError(Exception):
    """Dask is missing, or the scheduler cannot be reached: the message says what to do."""


def _distributed():
    """The ``distributed`` module, or ClusterError saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            "Dask runs need the optional extra: pip install 'localcount[dask]' (dask[distributed])"
        ) from None
    return distributed


def compute_batch(lay, shards, version: str) -> list:
    """Worker side: ``[(shard, value, seconds), ...]`` for each shard of one task."""
    if version != __version__:
        # A worker with other code could count differently: refuse rather than mix results.
        raise RuntimeError(f"worker has localcount {__version__}, the client {version}; install the same version")
    delay = float(os.environ.get(DELAY_ENV) or 0)  # test hook, as in runner
    out = []
    for shard in shards:
        start = time.perf_counter()
        value = lay.compute(int(shard))
        out.append((int(shard), value, time.perf_counter() - start))
        if delay:
            time.sleep(delay)
    return out


def batch_size(todo: int, threads: int, shard_seconds=None) -> int:
    """Shards per task: about ``tuning.CLUSTER_TASK_SECONDS`` of work, and at least ``CLUSTER_TASKS_PER_THREAD``
    tasks per thread."""
    spread = max(1, todo // (tuning.CLUSTER_TASKS_PER_THREAD * max(threads, 1)))
    if not shard_seconds:
        return spread
    return max(1, min(spread, math.floor(tuning.CLUSTER_TASK_SECONDS / shard_seconds)))


@contextlib.contextmanager
def connect(scheduler: str | None = None, local_workers: int | None = None):
    """A Dask client: to the scheduler at ``scheduler``, or to a new LocalCluster of ``local_workers`` processes."""
    distributed = _distributed()
    # Dask's own messages about lost workers or a lost scheduler come with tracebacks; the run
    # says in one line what happened and what to do, so only Dask's critical messages pass.
    for name in list(logging.root.manager.loggerDict):
        if name.split(".")[0] == "distributed":  # Dask configures the child loggers' levels itself
            logging.getLogger(name).setLevel(logging.CRITICAL)
    if local_workers is not None:
        with (
            distributed.LocalCluster(
                n_workers=local_workers,
                threads_per_worker=1,  # the kernel is serial: one process per core
                processes=True,
                dashboard_address=":0",  # any free port: two runs never fight over 8787
                silence_logs=logging.ERROR,
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    with client:
        yield client


class Workers:
    """Where a command's runs go: ``jobs`` local processes, or a Dask ``client``'s cluster."""

    def __init__(self, jobs: int, client=None):
        self.client = client
        self.jobs = threads(client) if client else jobs  # recorded as the run's processes
        self.what = "Dask worker threads" if client else "processes"

    def execute(self, lay, one_core=None):
        """``runner.run``'s execute: None for local processes, else Dask tasks (sized from one core's seconds)."""
        if self.client is None:
            return None
        return executor(self.client, shard_seconds(lay, one_core))


@contextlib.contextmanager
def workers(dask, jobs: int):
    """Workers for a whole command: one Dask client for every run, if ``dask`` ((scheduler, local workers)) asks."""
    if dask is None:
        yield Workers(jobs)
        return
    with connect(*dask) as client:
        yield Workers(jobs, client)


def threads(client) -> int:
    """Worker threads the cluster has now (at least 1)."""
    return max(1, sum(client.nthreads().values()))


def describe_cluster(client) -> str:
    """The cluster's CPUs for provenance, e.g. "Dask: 16 threads on AMD EPYC, 8 cores (2 machines)"."""
    models = client.run(cpu_model)  # worker address -> its machine's model and core count
    threads_by_model, hosts = {}, {}
    for addr, n in client.nthreads().items():
        model = models.get(addr, "unknown")
        threads_by_model[model] = threads_by_model.get(model, 0) + n
        hosts.setdefault(model, set()).add(addr.rsplit(":", 1)[0])
    parts = [
        f"{n} threads on {model}" + (f" ({len(hosts[model])} machines)" if len(hosts[model]) > 1 else "")
        for model, n in sorted(threads_by_model.items())
    ]
    return "Dask: " + "; ".join(parts)


def executor(client, shard_seconds=None, batch: int | None = None):
    """An ``execute`` for ``runner.run`` that computes shards as tasks on ``client``'s cluster."""

    def execute(lay, todo, tally):
        _run_tasks(client, lay, todo, tally, shard_seconds, batch)

    execute.where = lambda: (threads(client), describe_cluster(client))  # for the checkpoint's sessions file
    return execute


def _run_tasks(client, lay, todo, tally, shard_seconds=None, batch=None) -> None:
    """Submit ``todo`` in batches, a window at a time; tally each shard as its task finishes."""
    size = batch or batch_size(len(todo), threads(client), shard_seconds)
    batches = [list(map(int, todo[i : i + size])) for i in range(0, len(todo), size)]
    queue = iter(batches)
    where = getattr(client.scheduler, "address", None) or "?"
    run_id = uuid.uuid4().hex[:8]  # task keys unique to this run, so a rerun never reuses old results
    pending = {}  # future -> (batch, tries)

    def submit(shards, tries=0):
        key = f"localcount-{lay.key}-{run_id}-{shards[0]}-{tries}"
        pending[client.submit(compute_batch, lay, shards, __version__, key=key, pure=False, retries=0)] = (
            shards,
            tries,
        )

    size_seen = [threads(client)]

    def capacity():
        """Tasks to keep in flight, for the workers there are now (workers may come and go)."""
        with contextlib.suppress(
            OSError, RuntimeError
        ):  # the scheduler is gone ("ConnectionPool is closed"): the wait below says so
            size_seen[0] = threads(client)
        return tuning.CLUSTER_WINDOW_PER_THREAD * size_seen[0] + 1

    def refill():
        while len(pending) < capacity():
            shards = next(queue, None)
            if shards is None:
                return
            submit(shards)

    stop = []

    def on_signal(signum, frame):
        stop.append(signum)

    old = {s: signal.signal(s, on_signal) for s in STOP_SIGNALS}
    try:
        _loop(client, where, pending, refill, submit, tally, stop)
    except (OSError, RuntimeError) as err:
        if client.status == "running":
            raise  # not the connection: e.g. the checkpoint's disk is full
        raise Stopped(f"lost the connection to the Dask scheduler at {where} ({err})") from None
    finally:
        if pending:
            with contextlib.suppress(Exception):
                client.cancel(list(pending))  # nobody will record them: free the cluster
        for s, handler in old.items():
            signal.signal(s, handler)


def _loop(client, where, pending, refill, submit, tally, stop) -> None:
    """Wait for tasks, tally their shards, resubmit lost ones, keep the window full."""
    distributed = _distributed()
    refill()
    while pending:
        if stop:
            raise Interrupted(stop[0])
        _check_connected(client, where)
        try:
            finished, _ = distributed.wait(list(pending), timeout=0.5, return_when="FIRST_COMPLETED")
        except TimeoutError:
            continue
        except CancelledError:  # the scheduler dropped some (or all) of them
            while client.status == "connecting" and not stop:  # reconnecting: wait for the verdict
                time.sleep(0.2)
            _check_connected(client, where)
            finished = [f for f in pending if f.status != "pending"]
        except OSError as err:  # CommClosedError: the connection, whatever the client's status says yet
            raise Stopped(f"lost the connection to the Dask scheduler at {where} ({err})") from None
        for fut in finished:
            shards, tries = pending.pop(fut)
            if fut.status == "finished":
                try:
                    values = fut.result()
                except (OSError, RuntimeError) as err:
                    raise Stopped(f"lost the connection to the Dask cluster at {where} ({err})") from None
                for shard, value, seconds in values:
                    tally(shard, value, seconds)
                continue
            # Lost (cancelled by the scheduler, or KilledWorker: its workers kept dying) is resubmitted;
            # any other error is the code failing, which would only fail again.
            exc = fut.exception() if fut.status == "error" else None
            reason = repr(exc) if exc is not None else fut.status
            if (exc is not None and not isinstance(exc, distributed.KilledWorker)) or tries >= RETRIES:
                raise Stopped(f"a task of shards {shards[0]}..{shards[-1]} failed on the cluster: {reason}")
            logging.getLogger("localcount").warning(
                "task of shards %d..%d lost (%s); resubmitting", shards[0], shards[-1], reason
            )
            submit(shards, tries + 1)
        refill()


def _check_connected(client, where: str) -> None:
    """Stopped if the client has lost its scheduler for good (it retries for CONNECT_TIMEOUT first)."""
    if client.status not in ("running", "connecting", "newly-created"):
        raise Stopped(f"lost the connection to the Dask scheduler at {where}")


def shard_seconds(lay, est_seconds) -> float | None:
    """One core's seconds per shard from a whole-run estimate on one core (None if unknown)."""
    if est_seconds is None or not lay.shards:
        return None
    return est_seconds / lay.shards
