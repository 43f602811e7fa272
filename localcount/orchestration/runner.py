"""Sharded, checkpointed runs over a pool of worker processes.

The parent process owns the checkpoint (lock, records) and the progress bar;
workers only count shards (serial numba kernel, one thread each, so N
processes use N cores) and send back ``(shard, count, seconds)``.  A shard is
recorded durably before it counts as done, so any stop loses at most the
shards in flight; a rerun of the same command computes only what is missing.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import time
from dataclasses import dataclass

import numpy as np

from ..util import priority
from ..util.provenance import cpu_model, git_commit
from ..util.version import __version__
from . import yielding
from .checkpoint import Checkpoint, Record, Session
from .groups import group_shards

log = logging.getLogger("localcount")

#: Test hook: seconds each worker sleeps after a shard, so that tests can
#: interrupt a run at a chosen moment.  Never set it for real runs.
DELAY_ENV = "LOCALCOUNT_TEST_SHARD_DELAY"
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Stopped(Exception):
    """The run stopped early; ``saved`` of ``shards`` shards are recorded in ``path``."""

    saved = 0
    shards = 0
    path = ""
    #: The exit status of a command that stops this way (the one place of the rule).
    exit_status = 1


class Interrupted(Stopped):
    """SIGINT or SIGTERM arrived; ``signum`` says which."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.exit_status = 128 + signum  # 130 for SIGINT, 143 for SIGTERM, as a shell reports them


class WorkerDied(Stopped):
    """A worker process ended without being asked to (killed, out of memory, ...)."""


@dataclass
class RunOutcome:
    """What a sharded run produced."""

    total: int | tuple  # sum over the group's shards (the full count when the group is 0/1; a vector for stats)
    shards: int  # shards in the group
    computed: int  # shards computed by this run (the rest came from the checkpoint)
    path: str  # the checkpoint file
    warnings: list
    left: int = 0  # shards of the group still missing: the run stopped on its budget (``max_seconds``)
    sample: object = None  # ``verify.Comparison``: the watched sample against its twin's records at the end


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when the parent dies (e.g. SIGKILLed): SIGKILL, since a worker stopped
    by SIGSTOP (an idle run's, ``yielding``) would hold any other signal until it goes on."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _worker(lay, conn) -> None:
    """Worker process: count each shard received on ``conn``; None means stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what an interrupt means
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    priority.in_worker()  # an --idle run's worker: a session of its own where the run's process has none
    idle = priority.current() is not None
    delay = float(os.environ.get(DELAY_ENV) or 0)
    while True:
        shard = conn.recv()
        if shard is None:
            return
        start, cpu = time.perf_counter(), time.process_time()
        total = lay.compute(shard)
        seconds = time.perf_counter() - start
        if idle:  # the shard's own CPU time, without the time it stood aside (SIGSTOP) or waited for a core
            seconds = min(seconds, time.process_time() - cpu)
        if delay:
            time.sleep(delay)
        log.debug("shard %d of %s: %s in %.3f s (pid %d)", shard, lay.key, total, seconds, os.getpid())
        conn.send((shard, total, seconds))


def run(
    lay,
    directory,
    jobs: int,
    group: tuple = (0, 1),
    fresh: bool = False,
    progress=None,
    announce=None,
    execute=None,
    budget=None,
    only=None,
    watch=None,
) -> RunOutcome:
    """Count the shards of ``group`` that the checkpoint lacks, recording each.

    ``progress(grids_done)`` is called as shards finish (grids counted so far
    in the group, including those from the checkpoint); ``announce(todo,
    shards)`` once before the workers start.  Raises Interrupted
    on SIGINT/SIGTERM after terminating the workers; every recorded shard
    stays recorded.  ``execute(lay, todo, tally)`` computes the shards and
    calls ``tally(shard, value, seconds)`` for each as it finishes (default:
    ``jobs`` worker processes; ``cluster`` passes Dask tasks instead).
    A run that counts anything first notes its session (machine, processes,
    version, the kernel) in the checkpoint's sessions file.  ``budget``
    (``orchestration.budget.Budget``): take each shard only if it is expected
    to end by the budget's deadline; the outcome's ``left`` says how many are
    still missing.  ``only``: these shards of the group, not all of them
    (a sample to recount).  ``watch(shard, value)`` is called after each
    shard is recorded (``verify.Watch``); what it raises stops the run; its
    ``end()`` at the run's end is the outcome's ``sample``.
    """
    with Checkpoint(directory, lay) as ckpt:
        done = ckpt.open(fresh=fresh)
        for w in ckpt.warnings:
            log.warning(w)
        shards = group_shards(lay, *group)
        if only is not None:
            wanted = set(only)
            shards = [s for s in shards if s in wanted]
        todo = [s for s in shards if s not in done]
        # A fixed shuffle: every stretch of the run is a fair sample, so the rate predicts the ETA.
        todo = [todo[i] for i in np.random.default_rng(0).permutation(len(todo))]
        grids = (len(shards) - len(todo)) * lay.grids_per_shard
        if announce:
            announce(len(todo), len(shards))
        if progress:
            progress(grids)
        if todo:
            if execute is None and lay.in_parent:
                jobs, execute = 1, _run_here
            try:
                try:
                    ckpt.note_session(_session(lay, jobs, execute))
                    execute = execute or (lambda lay, todo, tally: _run_pool(lay, todo, jobs, tally))
                    tally = Tally(lay, ckpt, done, progress, grids, budget, watch)
                    if budget is not None:
                        budget.prepare(lay, done)
                        todo = _Budgeted(todo, budget)
                    execute(lay, todo, tally)
                except OSError as err:  # e.g. the disk is full: the records so far are safe
                    raise Stopped(f"cannot write the checkpoint: {err.strerror or err}") from err
            except Stopped as stop:
                stop.saved = sum(s in done for s in shards)
                stop.shards, stop.path = len(shards), str(ckpt.path)
                raise
        present = [s for s in shards if s in done]
        total = lay.add(done[s].count for s in present)
        computed = len(todo) - (len(shards) - len(present))
        left = len(shards) - len(present)
        sample = None if watch is None else watch.end()
        return RunOutcome(total, len(shards), computed, str(ckpt.path), ckpt.warnings, left, sample)


def _session(lay, jobs: int, execute=None) -> Session:
    """This session's provenance: ``jobs`` processes on this machine, or what a cluster ``execute`` says, the
    kernel the layout runs (``Layout.kernel_note``: a CPU kernel's variant, a GPU's name), and the idle
    priority it runs at, if any (``util.priority``)."""
    where = getattr(execute, "where", None)  # cluster.executor: () -> (threads, "Dask: ...")
    processes, cpu = where() if where else (jobs, cpu_model())
    note = getattr(lay, "kernel_note", None)
    kernel = note() if note else ""
    idle = priority.current()
    return Session(time.time(), processes, __version__, git_commit(), cpu, kernel,
                   "" if idle is None else f"idle: {idle.describe()}")  # fmt: skip


class _Budgeted:
    """The shards to compute, handed out only while the next one is expected to end within the budget:
    ``len`` is how many are left at most, iteration stops at the first shard that would not fit."""

    def __init__(self, todo, budget):
        self.todo, self.budget = list(todo), budget

    def __len__(self) -> int:
        return len(self.todo)

    def __iter__(self):
        for shard in self.todo:
            if not self.budget.fits(shard):
                return
            yield shard


class Tally:
    """Records each finished shard durably, then counts it as done and reports progress."""

    def __init__(self, lay, ckpt, done, progress, grids, budget=None, watch=None):
        self.lay, self.ckpt, self.done, self.progress, self.grids = lay, ckpt, done, progress, grids
        self.budget, self.watch = budget, watch

    def __call__(self, shard: int, value, seconds: float) -> None:
        old = self.done.get(shard)
        if old is not None:
            # A task run twice (e.g. resubmitted after a lost worker): never added twice, and
            # two different values for one shard mean something is broken.
            if old.count != value:
                raise Stopped(
                    f"shard {shard} of {self.lay.key} was computed twice with different values "
                    f"({old.count} and {value}); do not trust this run, find the cause"
                )
            return
        self.ckpt.record(shard, value, seconds)
        self.done[shard] = Record(value, seconds, time.time())
        if self.budget is not None:
            self.budget.note(shard, seconds)
        if self.watch is not None:
            self.watch(shard, value)
        self.grids += self.lay.grids_per_shard
        if self.progress:
            self.progress(self.grids)


def _run_here(lay, todo, tally) -> None:
    """Compute the shards in this process, one at a time (``Layout.in_parent``); SIGINT/SIGTERM stop it
    between two records: the shard in flight is lost, every recorded one kept."""

    def on_signal(signum, frame):
        raise Interrupted(signum)

    old = {sig: signal.signal(sig, on_signal) for sig in STOP_SIGNALS}
    try:
        for shard in todo:
            start = time.perf_counter()
            value = lay.compute(shard)
            tally(shard, value, time.perf_counter() - start)
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _run_pool(lay, todo, jobs, tally) -> None:
    """Feed shards to ``jobs`` worker processes, one at a time each; record results as they come.

    Each worker has its own pipe and nothing is shared, so a worker that dies
    (or is killed) cannot leave a lock held: the parent notices through the
    process sentinel, and on any exit kills the workers it started.
    """

    # A signal only notes itself and wakes the wait below through a pipe: the
    # loop stops at a safe point, never between recording a shard and counting it.
    stop, wake = [], os.pipe()

    def on_signal(signum, frame):
        stop.append(signum)
        os.write(wake[1], b"!")

    _forward_worker_logs()
    ctx = multiprocessing.get_context("fork")
    old = {s: signal.signal(s, on_signal) for s in STOP_SIGNALS}
    tasks = iter(todo)
    workers = []
    finished = False
    yielder = None
    try:
        _start_workers(ctx, lay, min(jobs, len(todo)), workers, stop)
        yielder = yielding.watch([proc.pid for proc, _ in workers], priority.current())
        busy = _hand_first_shards(workers, tasks, stop)
        while busy:
            _serve_ready(busy, tasks, tally, stop, wake[0])
        finished = True
    finally:
        if yielder is not None:
            yielder.close()
            log.info("the workers stepped aside for other work %d time(s)", yielder.pauses)
        _end_workers(workers, finished)
        for s, handler in old.items():
            signal.signal(s, handler)
        os.close(wake[0])
        os.close(wake[1])


def _lost(proc, shard, stop: list) -> Stopped:
    """A worker is gone; a signal to the whole job may be what killed it: report that first."""
    time.sleep(0.1)
    if stop:
        return Interrupted(stop[0])
    return WorkerDied(f"worker pid {proc.pid} died (exit code {proc.exitcode}) on shard {shard}")


def _start_workers(ctx, lay, count: int, workers: list, stop: list) -> None:
    """Start ``count`` worker processes, each appended to ``workers`` as (process, pipe) once started."""
    for _ in range(count):
        if stop:
            raise Interrupted(stop[0])
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(lay, theirs), daemon=True)
        proc.start()
        theirs.close()
        workers.append((proc, mine))


def _hand_first_shards(workers: list, tasks, stop: list) -> dict:
    """Send each worker its first shard while there are any: the busy workers, pipe -> (process, shard)."""
    busy = {}
    for proc, conn in workers:
        shard = next(tasks, None)
        if shard is not None:
            try:
                conn.send(int(shard))
            except OSError:
                raise _lost(proc, shard, stop) from None
            busy[conn] = (proc, shard)
    return busy


def _serve_ready(busy: dict, tasks, tally, stop: list, wake: int) -> None:
    """Wait for results, dead workers or a signal, and handle what is ready: one round of the pool's loop."""
    sentinels = {proc.sentinel: (conn, proc, shard) for conn, (proc, shard) in busy.items()}
    ready_list = multiprocessing.connection.wait([*busy, *sentinels, wake])
    if stop:
        raise Interrupted(stop[0])
    for ready in ready_list:
        if ready in sentinels:
            conn, proc, shard = sentinels[ready]
            if conn in busy and not conn.poll():
                raise _lost(proc, shard, stop)
            continue
        if ready not in busy:
            continue
        _take_result(ready, busy, tasks, tally, stop)


def _take_result(ready, busy: dict, tasks, tally, stop: list) -> None:
    """Record the result on the pipe ``ready``, then send its worker the next shard (None: stop)."""
    proc, shard = busy.pop(ready)
    try:
        shard, total, seconds = ready.recv()
    except (EOFError, OSError):
        raise _lost(proc, shard, stop) from None
    tally(shard, total, seconds)
    if stop:
        raise Interrupted(stop[0])
    nxt = next(tasks, None)
    try:
        ready.send(None if nxt is None else int(nxt))
    except OSError:  # BrokenPipeError: it died after sending its result
        raise _lost(proc, nxt, stop) from None
    if nxt is not None:
        busy[ready] = (proc, nxt)


def _end_workers(workers: list, finished: bool) -> None:
    """Stop the workers: after a finished run let each exit (flushing its log records), else kill it."""
    for proc, conn in workers:
        if finished:
            proc.join(timeout=10)  # let it flush its log records
        if proc.exitcode is None:
            proc.kill()
        proc.join()
        conn.close()


#: Set once logging is configured: every further call of setup_logging would
#: add handlers (and multiprocessing-logging's receiver threads) again.
_logging_ready = False


def setup_logging(log_file=None, quiet=False) -> None:
    """Warnings to stderr (unless quiet), everything to ``log_file``; workers' records too.

    Once per process: later calls change nothing.
    """
    global _logging_ready
    if _logging_ready:
        return
    _logging_ready = True
    root = logging.getLogger()
    # Only localcount's own records go down to DEBUG: other libraries stay at the root's
    # WARNING, so numba's hundreds of thousands of debug calls while compiling cost nothing.
    log.setLevel(logging.DEBUG)
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(logging.ERROR if quiet else logging.WARNING)
    stderr.setFormatter(logging.Formatter("localcount: %(message)s"))
    root.addHandler(stderr)
    if log_file:
        fh = logging.FileHandler(log_file)
        fh.setLevel(logging.DEBUG)
        fh.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
        root.addHandler(fh)


#: Set once workers' log records are forwarded to the parent's handlers.
_forwarding = False


def _forward_worker_logs() -> None:
    """Before the first workers fork: their log records go through the parent's handlers.

    Only runs that start processes pay for this (multiprocessing-logging's
    receiver thread takes up to 0.2 s to stop when the process exits).
    """
    global _forwarding
    if _forwarding or not logging.getLogger().handlers:
        return
    _forwarding = True
    if multiprocessing.get_start_method(allow_none=True) in (None, "fork"):
        import multiprocessing_logging

        multiprocessing.set_start_method("fork", force=True)
        multiprocessing_logging.install_mp_handler()
