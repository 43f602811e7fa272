"""Local logic on arbitrary clues (not only clues of a known grid).

The counting kernel knows the true grid, so it can never meet a
contradiction.  Given clues alone, a line may have no fitting pattern; this
module reports that as a verdict, naming the line, instead of failing.

Yesnograms (``clues.VARIANTS``): a Board knows its puzzle's variant, so
every ``settle`` on it (and on its copies: probing, the search, the dive)
uses the right rule.  A yesnogram row with clue c is the complement of a
nonogram row with clue c, so its update is the nonogram update of the
complemented row: what is known filled is known empty there and the other
way round (``line_options`` with ``known1`` and ``known0`` swapped), and
what it finds comes back swapped too.  Columns are solved as usual.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

from ... import tuning
from ...clues import rows_count_zeros
from ...lines import words


@functools.lru_cache(maxsize=tuning.LOGIC_LINE_CACHE)  # probing and search meet the same line states over and over
def line_options(clue, length: int, known1: int, known0: int) -> tuple:
    """``lines.words.line_options``, remembered."""
    return words.line_options(clue, length, known1, known0)


SOLVED, STUCK, CONTRADICTION = "solved", "stuck", "contradiction"


@dataclass(frozen=True)
class Outcome:
    """Result of local logic: verdict, filled and empty cells (Grid bit masks), bad line."""

    status: str
    filled: int
    empty: int
    line: str | None = None  # e.g. "row 3" (1-based) when status is CONTRADICTION

    @property
    def known(self) -> int:
        """Grid-layout mask of the known cells."""
        return self.filled | self.empty


def bit_positions(x: int):
    """The positions of x's set bits, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class Board:
    """What is known of an n×m grid, kept by line: ``rows1[r]``/``rows0[r]`` (bit c: cell (r, c) filled/empty)
    and ``cols1[c]``/``cols0[c]`` (bit r), so a line is read and written in O(1) whatever the size.  ``yes``:
    the rows are a yesnogram's (their clues count runs of 0s; see the module doc)."""

    __slots__ = ("n", "m", "rows1", "rows0", "cols1", "cols0", "known", "yes")

    def __init__(self, n: int, m: int, variant: str = "nonogram"):
        self.n, self.m = n, m
        self.yes = rows_count_zeros(variant)
        self.rows1, self.rows0 = [0] * n, [0] * n
        self.cols1, self.cols0 = [0] * m, [0] * m
        self.known = 0  # how many cells are known (kept by set and settle)

    @classmethod
    def from_masks(cls, n: int, m: int, filled: int = 0, empty: int = 0, variant: str = "nonogram") -> Board:
        """The board of two Grid masks (bit r*m + c), for a puzzle of this variant."""
        b = cls(n, m, variant)
        full = (1 << m) - 1
        for r in range(n):
            b.rows1[r], b.rows0[r] = filled >> (r * m) & full, empty >> (r * m) & full
            for c in bit_positions(b.rows1[r]):
                b.cols1[c] |= 1 << r
            for c in bit_positions(b.rows0[r]):
                b.cols0[c] |= 1 << r
            b.known += (b.rows1[r] | b.rows0[r]).bit_count()
        return b

    def copy(self) -> Board:
        """An independent copy."""
        b = Board.__new__(Board)
        b.n, b.m, b.known, b.yes = self.n, self.m, self.known, self.yes
        b.rows1, b.rows0, b.cols1, b.cols0 = self.rows1[:], self.rows0[:], self.cols1[:], self.cols0[:]
        return b

    def set(self, r: int, c: int, value: int) -> None:
        """Cell (r, c) is known to be ``value`` (1 filled, 0 empty)."""
        if not (self.rows1[r] | self.rows0[r]) >> c & 1:
            self.known += 1
        if value:
            self.rows1[r] |= 1 << c
            self.cols1[c] |= 1 << r
        else:
            self.rows0[r] |= 1 << c
            self.cols0[c] |= 1 << r

    def filled(self) -> int:
        """Grid mask of the filled cells."""
        return sum(x << (r * self.m) for r, x in enumerate(self.rows1))

    def empty(self) -> int:
        """Grid mask of the empty cells."""
        return sum(x << (r * self.m) for r, x in enumerate(self.rows0))

    def known_cells(self) -> int:
        """How many cells are known."""
        return self.known

    def solved(self) -> bool:
        """True when every cell is known."""
        return self.known == self.n * self.m

    def unknown_in_row(self, r: int) -> int:
        """Mask (bit c) of row r's unknown cells."""
        return ~(self.rows1[r] | self.rows0[r]) & ((1 << self.m) - 1)


#: The compiled local logic (module ``compiled``, numba) once ``use_compiled()`` loaded it; None: interpreted.
_compiled = None


def use_compiled(on: bool = True) -> None:
    """From now on in this process, ``settle`` runs compiled (``compiled``: the same passes, steps and verdicts)
    on boards of at most ``compiled.MAX_SIDE`` cells a side, or interpreted again (``on=False``).  The first
    call loads numba and the compiled code (from its disk cache, or compiling it: seconds)."""
    global _compiled, _switch
    _switch = None
    if on:
        from . import compiled

        compiled.load()
        _compiled = compiled
    else:
        _compiled = None


def compiled_for(n: int, m: int):
    """The compiled module (``compiled``) when ``use_compiled`` is on and an n×m board fits it, else None."""
    if _compiled is not None and 0 < n <= _compiled.MAX_SIDE and 0 < m <= _compiled.MAX_SIDE:
        return _compiled
    return None


#: ``compile_when_slow``'s plan: (the moment to switch, the deadline to leave room before, what to tell), or None.
_switch = None


def compile_when_slow(after: float | None = 1.0, deadline: float | None = None, notice=None) -> None:
    """From now on in this process, ``settle`` switches itself to compiled (``use_compiled``) once ``after`` more
    seconds have passed, so long work pays numba's load (about a second) and short work does not; never when a
    ``deadline`` (``time.monotonic``) is less than ``tuning.LOGIC_LOAD_SECONDS`` away, or
    ``tuning.LOGIC_COMPILE_SECONDS`` when numba's cache does not hold the code (``compiled.cached``).
    ``notice(text)`` is told when it switches (and if it cannot).  The answers are the same either way; only the
    time differs.  ``after=None``: no switch planned any more."""
    global _switch
    _switch = None if _compiled is not None or after is None else (time.monotonic() + after, deadline, notice)


def switch_planned() -> bool:
    """True while a switch that ``compile_when_slow`` planned has not yet come (nor been cancelled)."""
    return _switch is not None


def _switch_now() -> None:
    """The switch ``compile_when_slow`` planned, now that its time has come (or not, when the deadline is near)."""
    global _switch
    _, deadline, notice = _switch
    _switch = None
    tell = notice or (lambda text: None)
    if deadline is not None and deadline - time.monotonic() < tuning.LOGIC_LOAD_SECONDS:
        return
    try:
        from . import compiled  # numba, imported: nothing compiled or loaded yet

        if (
            deadline is not None
            and deadline - time.monotonic() < tuning.LOGIC_COMPILE_SECONDS
            and not compiled.cached()
        ):
            tell("local logic stays interpreted: compiling it (numba's cache is empty) would outlast the time limit")
            return
        tell("long work: local logic compiled from now on (numba; seconds more when it first compiles)")
        use_compiled()
    except Exception as err:  # no compiled code to be had: the interpreted one gives the same answers
        tell(f"local logic stays interpreted ({err.__class__.__name__}: {err})")


def settle(
    board: Board, row_clues, col_clues, rows=None, cols=None, steps: list | None = None, halves: list | None = None
) -> str | None:
    """Local logic to the fixpoint on ``board`` (in place): None, or the line that has no fitting pattern.

    ``rows``/``cols``: the lines to update first (default all), for a board
    that is a fixpoint except for them.  Full passes, rows then columns, in
    order; a pass skips the lines none of whose cells changed since their
    last update (a line update is idempotent, so skipping them changes
    neither the result nor the steps).  ``halves``: if a list, the number
    of known cells after each pass is appended to it (``difficulty``).
    The rows of a yesnogram board (``board.yes``) are solved complemented
    (module doc).
    """
    if _switch is not None and time.monotonic() > _switch[0]:
        _switch_now()
    n, m = board.n, board.m
    rows1, rows0, cols1, cols0 = board.rows1, board.rows0, board.cols1, board.cols0
    rows_todo = (1 << n) - 1 if rows is None else sum(1 << r for r in set(rows))  # bit r: row r to update
    cols_todo = (1 << m) - 1 if cols is None else sum(1 << c for c in set(cols))
    known = board.known
    row_cells = None if steps is None else (lambda r, x: x << (r * m))
    gap = "0" * (m - 1)  # a column's cell r is Grid bit r*m + c: its bits spread m apart
    col_cells = None if steps is None else (lambda c, x: int(gap.join(bin(x)[2:]), 2) << c)
    if compiled_for(n, m) is not None:
        code, trace, learnt, total = _compiled.settle(
            rows1, rows0, cols1, cols0, row_clues, col_clues, board.yes, rows_todo, cols_todo
        )
        board.known = known + total
        if steps is not None:
            for line, new1, new0 in trace:
                if line < n:
                    steps.append(Step(f"row {line + 1}", row_cells(line, new1), row_cells(line, new0)))
                else:
                    c = line - n
                    steps.append(Step(f"column {c + 1}", col_cells(c, new1), col_cells(c, new0)))
        if halves is not None:
            halves += [known + x for x in learnt]
        return None if code < 0 else f"row {code + 1}" if code < n else f"column {code - n + 1}"
    try:
        while rows_todo or cols_todo:
            bad, crossing, learnt = _pass(
                rows_todo, row_clues, m, rows1, rows0, cols1, cols0, board.yes, "row", row_cells, steps
            )
            rows_todo, cols_todo, known = 0, cols_todo | crossing, known + learnt
            if bad:
                return bad
            if halves is not None:
                halves.append(known)
            bad, crossing, learnt = _pass(
                cols_todo, col_clues, n, cols1, cols0, rows1, rows0, False, "column", col_cells, steps
            )
            cols_todo, rows_todo, known = 0, rows_todo | crossing, known + learnt
            if bad:
                return bad
            if halves is not None:
                halves.append(known)
    finally:
        board.known = known
    return None


def _pass(todo: int, clues, length: int, ones: list, zeros: list, cross_ones: list, cross_zeros: list, complemented: bool,
          kind: str, cells, steps: list | None) -> tuple:  # fmt: skip
    """One pass of ``settle`` over the lines of one direction in ``todo`` (bit i: line i), in order, in place.

    ``ones``/``zeros``: the lines' known filled and empty cells (bit j: cell j), ``cross_ones``/``cross_zeros``
    the crossing lines'; ``complemented``: the lines are a yesnogram's rows (module doc); ``cells(i, x)`` is
    line i's cells x as a Grid mask, for ``steps``.  Returns (the line ("row 3") that has no fitting pattern,
    or None; the crossing lines whose cells it decided, as bits; how many cells it decided).
    """
    full = (1 << length) - 1
    options = line_options
    crossing = learnt = 0
    while todo:
        low = todo & -todo
        todo ^= low
        i = low.bit_length() - 1
        clue = clues[i]
        if complemented:  # the complemented row is a nonogram row: its 1s are our 0s
            can1, can0 = options(clue, length, zeros[i], ones[i])
        else:
            can0, can1 = options(clue, length, ones[i], zeros[i])
        if (can0 | can1) != full if length else any(clue):
            return f"{kind} {i + 1}", crossing, learnt
        new1, new0 = can1 & ~can0 & ~ones[i], can0 & ~can1 & ~zeros[i]
        if new1 or new0:
            ones[i] |= new1
            zeros[i] |= new0
            new = new1 | new0
            crossing |= new
            learnt += new.bit_count()
            _mark(cross_ones, new1, low)
            _mark(cross_zeros, new0, low)
            if steps is not None:
                steps.append(Step(f"{kind} {i + 1}", cells(i, new1), cells(i, new0)))
    return None, crossing, learnt


@dataclass(frozen=True)
class Difficulty:
    """How long local logic takes to solve a puzzle, from all unknown (and the givens).

    A *step* is one pass over every row, or over every column: steps 1, 3,
    5, ... are rows, steps 2, 4, 6, ... columns (rows first).  ``steps`` is
    the number of the step in which the last unknown cell became known; a
    *round* is a row step and the column step after it, so ``rounds`` is
    ``ceil(steps / 2)``, as the ``stats`` histogram counts.  An empty grid,
    or one the givens already fill, takes 0 steps; a pass that only confirms
    that nothing changes is not counted.  (Batenburg, Henstra, Kosters and
    Palenstijn, "Constructing simple nonograms of varying difficulty",
    2009, measure difficulty in such steps.)
    """

    steps: int

    @property
    def rounds(self) -> int:
        return (self.steps + 1) // 2


def difficulty(row_clues, col_clues, filled: int = 0, empty: int = 0, variant: str = "nonogram") -> Difficulty | None:
    """The Difficulty of the puzzle with these clues (and given cells, in a variant), or None if local logic does
    not solve it."""
    n, m = len(row_clues), len(col_clues)
    if filled & empty:
        return None
    board = Board.from_masks(n, m, filled, empty, variant)
    full = board.known == n * m
    halves: list = []
    if settle(board, row_clues, col_clues, halves=halves) is not None or not board.solved():
        return None
    return Difficulty(0 if full else halves.index(n * m) + 1)


def _mark(lines: list, cells: int, bit: int) -> None:
    """Set ``bit`` in ``lines[k]`` for every set bit k of ``cells`` (a line's news, told to the lines crossing it)."""
    while cells:
        low = cells & -cells
        lines[low.bit_length() - 1] |= bit
        cells ^= low


@dataclass(frozen=True)
class Step:
    """One line update that changed something: the line ("row 3", 1-based) and the cells it decided."""

    line: str
    filled: int  # Grid mask of the cells it found filled
    empty: int  # ... and empty


def propagate(
    row_clues,
    col_clues,
    filled: int = 0,
    empty: int = 0,
    steps: list | None = None,
    dirty: tuple | None = None,
    variant: str = "nonogram",
) -> Outcome:
    """Local logic to the fixpoint from the given known cells (Grid masks; none by default): ``settle`` on a Board.

    Each line update that decides a cell is appended to ``steps`` when a list
    is given; ``dirty`` = (rows, columns) names the lines to update first
    when the start is a fixpoint except for those lines, else every line is.
    ``variant``: ``yesnogram`` solves the rows complemented (module doc).
    """
    n, m = len(row_clues), len(col_clues)
    if filled & empty:
        return Outcome(CONTRADICTION, filled, empty, "the start (a cell both filled and empty)")
    board = Board.from_masks(n, m, filled, empty, variant)
    rows, cols = (None, None) if dirty is None else dirty
    bad = settle(board, row_clues, col_clues, rows, cols, steps)
    return outcome(board, bad)


def outcome(board: Board, bad: str | None = None) -> Outcome:
    """The Outcome of a settled board (``bad``: the line ``settle`` found without a fitting pattern)."""
    if bad is not None:
        return Outcome(CONTRADICTION, board.filled(), board.empty(), bad)
    return Outcome(SOLVED if board.solved() else STUCK, board.filled(), board.empty())
