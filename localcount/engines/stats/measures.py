"""Measures beyond the count, from one enumeration: uniqueness, difficulty, stuck grids.

``compute.stats(n, m)`` enumerates every n×m grid grouped by its row clues
(``compute``, ``kernel``) and returns a ``Stats``:

* ``grids``: 2^(n·m); ``solvable``: locally solvable (the count);
* ``unique``: uniquely solvable, i.e. no other grid has the same row and
  column clues.  Every locally solvable grid is uniquely solvable (local
  logic only deduces what every grid with these clues shares); the kernel
  checks this on every grid and a violation is an error, never a number;
* ``rounds``: the histogram of the locally solvable grids by difficulty, the
  number of rounds of local logic they need.  Round k is every row once,
  then every column once (rows first); a grid's difficulty is the number of
  the round in which its last cell becomes known, even if that happens in
  the round's rows; the extra pass that would confirm a fixpoint is not
  counted.  The empty grid (n·m = 0) needs 0 rounds;
* ``steps``: the same grids by difficulty in steps (Batenburg et al.,
  2009): step 1 is every row, step 2 every column, step 3 every row, ...;
  a grid's difficulty is the number of the step in which its last cell
  becomes known (a grid of r rounds needs 2r − 1 or 2r steps; the empty
  grid 0).  Empty for runs of kernel version 1, which did not count them;
* ``stuck_start``: grids on which local logic deduces nothing at all (no
  row and no column has a cell common to all patterns fitting its clue).

Two code paths give the same ``Stats``: ``path="rows"`` groups the n×m grids
by their row clues; ``path="transposed"`` enumerates the m×n transposes
grouped by *their* row clues (the columns of n×m) and runs local logic
columns first, which is the same rounds on the transposed grid.  Symmetry:
"flips" (default) or "none" (every grid).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

#: Names of the output vector's first entries (``kernel``); the round histogram follows (n·m + 1 entries), then
#: the step histogram (2·n·m + 1 entries; not in version 1 vectors).
VECTOR = ("grids", "solvable", "unique", "stuck_start", "solved_not_unique")
#: Their indices, and where the round histogram starts.
GRIDS, SOLVABLE, UNIQUE, STUCK_START, SOLVED_NOT_UNIQUE = range(len(VECTOR))
HIST = len(VECTOR)


class InconsistentStats(RuntimeError):
    """The enumeration broke an invariant (a bug): no number is reported."""


@dataclass(frozen=True)
class Stats:
    """The measures of one size (see module doc)."""

    n: int
    m: int
    grids: int
    solvable: int
    unique: int
    stuck_start: int
    rounds: tuple = field(default_factory=tuple)  # rounds[k]: locally solvable grids needing k rounds
    steps: tuple = field(default_factory=tuple)  # steps[k]: ... needing k steps (empty: not counted)

    @property
    def not_solvable(self) -> int:
        """Grids that local logic leaves with unknown cells."""
        return self.grids - self.solvable

    @property
    def max_rounds(self) -> int:
        """Most rounds any locally solvable grid needs (0 when there is none)."""
        return max((k for k, v in enumerate(self.rounds) if v), default=0)

    @property
    def mean_rounds(self) -> float:
        """Mean rounds over the locally solvable grids."""
        return sum(k * v for k, v in enumerate(self.rounds)) / self.solvable if self.solvable else 0.0

    @property
    def max_steps(self) -> int | None:
        """Most steps any locally solvable grid needs (0 when there is none; None when steps were not counted)."""
        return max((k for k, v in enumerate(self.steps) if v), default=0) if self.steps else None

    @property
    def mean_steps(self) -> float | None:
        """Mean steps over the locally solvable grids (None when steps were not counted)."""
        if not self.steps:
            return None
        return sum(k * v for k, v in enumerate(self.steps)) / self.solvable if self.solvable else 0.0

    def as_dict(self) -> dict:
        """Plain data for JSON: every measure, the histogram trimmed after its last non-zero entry."""
        return {
            "n": self.n,
            "m": self.m,
            "grids": self.grids,
            "solvable": self.solvable,
            "not_solvable": self.not_solvable,
            "unique": self.unique,
            "stuck_start": self.stuck_start,
            "rounds": {str(k): v for k, v in enumerate(self.rounds) if v},
            "mean_rounds": self.mean_rounds,
            "max_rounds": self.max_rounds,
            "steps": {str(k): v for k, v in enumerate(self.steps) if v} if self.steps else None,
            "mean_steps": self.mean_steps,
            "max_steps": self.max_steps,
        }


def from_vector(n: int, m: int, vec) -> Stats:
    """The Stats of a finished enumeration's vector; InconsistentStats if an invariant fails."""
    vec = [int(v) for v in vec]
    grids, solvable, unique, stuck, bad = vec[: len(VECTOR)]
    hist = tuple(vec[len(VECTOR) : len(VECTOR) + n * m + 1])
    steps = tuple(vec[len(VECTOR) + n * m + 1 :])
    problems = []
    if len(vec) not in (width(n, m, 1), width(n, m)):
        problems.append(f"the vector has {len(vec)} entries, not {width(n, m)}")
    if steps and sum(steps) != solvable:
        problems.append(f"the step histogram adds up to {sum(steps)}, not {solvable}")
    if steps and any(hist[r] != (steps[2 * r - 1] if r else 0) + steps[2 * r] for r in range(len(hist))):
        problems.append("the step histogram does not match the round histogram (r rounds: 2r - 1 or 2r steps)")
    if bad:
        problems.append(f"{bad} locally solvable grids share their clues with another grid")
    if grids != 1 << (n * m):
        problems.append(f"{grids} grids enumerated, not 2^{n * m}")
    if sum(hist) != solvable:
        problems.append(f"the round histogram adds up to {sum(hist)}, not {solvable}")
    if not solvable <= unique <= grids or stuck > grids - solvable:
        problems.append(f"solvable {solvable}, unique {unique}, stuck {stuck} of {grids} are out of order")
    if problems:
        raise InconsistentStats(f"{n}x{m}: " + "; ".join(problems) + " (a bug: please report it)")
    return Stats(n, m, grids, solvable, unique, stuck, hist, steps)


def width(n: int, m: int, version: int = 2) -> int:
    """Length of a size's output vector: the counters, rounds 0 .. n·m, and (from version 2) steps 0 .. 2·n·m."""
    return len(VECTOR) + n * m + 1 + (2 * n * m + 1 if version >= 2 else 0)


def steps_at(n: int, m: int) -> int:
    """Where the step histogram starts in a size's vector."""
    return HIST + n * m + 1


def format_table(s: Stats) -> str:
    """The measures as a small aligned table for people."""

    def pct(v):
        return f"{100 * v / s.grids:.4g} %"

    lines = [
        f"{s.n}x{s.m}: 2^{s.n * s.m} grids",
        f"  {'grids':<22} {s.grids:>16}",
        f"  {'locally solvable':<22} {s.solvable:>16}  {pct(s.solvable)}",
        f"  {'not locally solvable':<22} {s.not_solvable:>16}  {pct(s.not_solvable)}",
        f"  {'uniquely solvable':<22} {s.unique:>16}  {pct(s.unique)}",
        f"  {'stuck at the start':<22} {s.stuck_start:>16}  {pct(s.stuck_start)}",
        f"  rounds of local logic (rows, then columns) of the locally solvable grids: mean {s.mean_rounds:.4f}, max {s.max_rounds}",
    ]
    for k, v in enumerate(s.rounds):
        if v:
            share = f"{100 * v / s.solvable:.4g} %"
            lines.append(f"  {'':<4}{k:>3} round{'s' if k != 1 else ' '} {v:>16}  {share}")
    if s.steps:
        lines.append(
            f"  steps (a pass over every row or every column, rows first): mean {s.mean_steps:.4f}, max {s.max_steps}"
        )
        for k, v in enumerate(s.steps):
            if v:
                share = f"{100 * v / s.solvable:.4g} %"
                lines.append(f"  {'':<4}{k:>3} step{'s' if k != 1 else ' '}  {v:>16}  {share}")
    return "\n".join(lines)


def format_json(s: Stats) -> str:
    """The measures as one JSON object."""
    return json.dumps(s.as_dict())
