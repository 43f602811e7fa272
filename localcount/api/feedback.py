"""What a long run tells a person: progress bars, compile notices, estimates.

``Feedback`` says what a run may say on stderr: the library is silent
unless asked (``progress=True``); the command line speaks unless
``--quiet``, and draws its bar only on a terminal.  A run gets it as one
object (``orchestration.launch.RunOptions.feedback``) and asks it alone.
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

    def slow(self, message: str):
        """``said_if_slow(message)`` unless quiet: a block (a compile) that says so once it takes a second."""
        return said_if_slow(message, self.quiet)


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
