"""The public Python API, the one door to localcount: ``import localcount as lc``.

* ``counting`` — ``count`` (one number) and ``run_count`` (how the run went): sharded, resumable, the
  command line's keys and files; ``max_seconds``: a short run of a campaign (``Unfinished``);
* ``campaign`` — ``verify``: a GPU count's seeded sample of shards recounted on the CPU and compared;
* ``stats`` — ``stats``: uniqueness, difficulty and stuck grids of a size (``Stats``); ``unique``: the
  uniquely solvable count alone, for 2×m to m = 30 and past it by a walk along the columns;
* ``sample`` — ``sample``: random grids of any size to 62×62, the simple fraction with its interval and the
  steps (``SampleRun`` from ``run_sample``), sharded and resumable like a count;
* ``known`` — ``known``: a recorded count with its provenance and the size's recorded ``Stats``, from the
  tables the package ships;
* ``puzzles`` — ``Puzzle`` (read, parse, write, solve, explain, difficulty, pictures) and ``Solution``;
* ``making`` — ``generate`` and ``design``: simple puzzles made to order;
* ``every`` — ``nth``, ``rank`` and ``iter_puzzles``: every locally solvable puzzle by its number (``Numbered``),
  from an index shipped or built on first use;
* ``machine`` — ``tune``: which CPU kernel variant counts fastest here (``Tuning``);
* ``feedback`` — what a run says on stderr (nothing unless asked): notices, estimates, progress bars.

The command line (``cli``) parses its options, calls these functions and
prints what they return; the web page does the same.  Library manners:
errors are exceptions (``UsageError`` and ``PuzzleError`` are
``ValueError``s with the command line's one-line messages), nothing is
printed on stdout, and progress and compile notices appear on stderr only
when asked (``progress=True``).  Importing it loads no numba: the kernels
are imported when a count needs them.

Layer: above ``results``, below ``cli``; may import every layer below it,
at import time only the light ones (``util``, ``clues``, ``puzzle`` models and formats).
"""

from ..puzzle.model import PuzzleError
from ..util.errors import UsageError
from .counting import CountRun, Unfinished, count, run_count
from .known import Known, known
from .machine import Tuning, tune
from .making import design, generate
from .numbering import NotNumbered, Numbered, iter_puzzles, nth, rank
from .puzzles import FORMATS, Explanation, LineStep, Puzzle, Solution
from .puzzles import examples_list as examples
from .sample import SampleRun, run_sample, sample
from .stats import Stats, stats, unique

#: Errors of long runs and of making puzzles, imported when first asked for (``localcount.Stopped``, ...).
LAZY = {
    "Stopped": "localcount.orchestration.runner",
    "CheckpointError": "localcount.orchestration.checkpoint",
    "ClusterError": "localcount.orchestration.cluster",
    "GenerateError": "localcount.puzzle.making.generate",
    "DesignError": "localcount.puzzle.making.design",
}

__all__ = [
    "count",
    "run_count",
    "CountRun",
    "Unfinished",
    "stats",
    "Stats",
    "unique",
    "sample",
    "run_sample",
    "SampleRun",
    "known",
    "Known",
    "tune",
    "Tuning",
    "Puzzle",
    "Solution",
    "Explanation",
    "LineStep",
    "generate",
    "design",
    "examples",
    "FORMATS",
    "UsageError",
    "PuzzleError",
    "nth",
    "rank",
    "iter_puzzles",
    "Numbered",
    "NotNumbered",
]  # fmt: skip (and the names of LAZY, left out so that a star import stays light)


def __getattr__(name: str):
    """The errors of ``LAZY``, from their modules (so that importing the API stays light)."""
    if name in LAZY:
        import importlib

        return getattr(importlib.import_module(LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
