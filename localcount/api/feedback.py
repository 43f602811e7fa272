"""What a long run tells a person, and where its shards go: progress bars, compile notices, workers.

``Feedback`` says what a run may say on stderr: the library is silent
unless asked (``progress=True``); the command line speaks unless
``--quiet``, and draws its bar only on a terminal.  ``workers`` opens a
run's pool: local processes, or one Dask client for the whole command.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from dataclasses import dataclass

from ..util.messages import say


@dataclass(frozen=True)
class Feedback:
    """What a run says on stderr: notices (compiling, summaries), estimates, and a progress bar."""

    notices: bool = False  # compile notices and what came from a checkpoint
    estimates: bool = False  # the estimated time of a run expected to take over a minute
    bar: str = ""  # "" none, "always", or "tty": only when stderr is a terminal
    logging: bool = False  # set up the process's logging (``runner.setup_logging``): the command line does

    @classmethod
    def library(cls, progress: bool) -> Feedback:
        """The Python API's: everything when ``progress``, else nothing."""
        return cls(True, True, "always") if progress else cls()

    @classmethod
    def command_line(cls, quiet: bool) -> Feedback:
        """The command line's: estimates always; notices and a terminal's bar unless ``quiet``."""
        return cls(not quiet, True, "" if quiet else "tty", True)

    @property
    def quiet(self) -> bool:
        """True when notices are off."""
        return not self.notices

    def progress_bar(self, total: int, desc: str):
        """A tqdm progress bar on stderr, in grids (disabled as ``bar`` says)."""
        from tqdm import tqdm

        shown = self.bar == "always" or (self.bar == "tty" and sys.stderr.isatty())
        return tqdm(total=total, unit="grid", unit_scale=True, file=sys.stderr, disable=not shown, desc=desc)


@contextlib.contextmanager
def said_if_slow(message: str, quiet: bool, seconds: float = 1.0):
    """Say ``message`` once the block has taken ``seconds`` (a compile, say), and then how long it took."""
    said = threading.Event()

    def announce():
        said.set()
        say(message)

    timer = threading.Timer(seconds, announce)
    timer.daemon = True
    if not quiet:
        timer.start()
    start = time.perf_counter()
    try:
        yield
    finally:
        timer.cancel()
        if said.is_set():
            say(f"done in {time.perf_counter() - start:.1f} s")


class Workers:
    """Where a command's runs go: ``jobs`` local processes, or a Dask ``client``'s cluster."""

    def __init__(self, jobs: int, client=None):
        from ..orchestration import cluster

        self.client = client
        self.jobs = cluster.threads(client) if client else jobs  # recorded as the run's processes
        self.what = "Dask worker threads" if client else "processes"

    def execute(self, lay, one_core=None):
        """``runner.run``'s execute: None for local processes, else Dask tasks (sized from one core's seconds)."""
        if self.client is None:
            return None
        from ..orchestration import cluster

        return cluster.executor(self.client, cluster.shard_seconds(lay, one_core))


@contextlib.contextmanager
def workers(dask, jobs: int):
    """Workers for a whole command: one Dask client for every run, if ``dask`` ((scheduler, local workers)) asks."""
    if dask is None:
        yield Workers(jobs)
        return
    from ..orchestration import cluster

    with cluster.connect(*dask) as client:
        yield Workers(jobs, client)
