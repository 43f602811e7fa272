"""Single puzzles from Python: ``Puzzle`` (read, write, solve, explain, rate, draw) and its ``Solution``.

A ``Puzzle`` wraps the model's puzzle (``puzzle.model.Puzzle``, or a
``ColourPuzzle`` read from a colour file) and gives it the operations of
the command line's puzzle commands: ``solve`` (local logic, probing, the
complete search or SAT, as ``solve``), ``explain`` (local logic's steps, as
``explain``), ``difficulty`` (steps), ``to_string``/``write`` (``convert``)
and pictures (SVG for Jupyter, PNG with the ``pictures`` extra).  The
command line's ``solve``, ``explain`` and ``convert`` call these functions
and only print what they return.

Grids are numpy arrays of bools (n rows, m columns) on the way out, and
lists of 0/1, strings such as ``"101"`` (or one string ``"101/010/111"``)
or numpy arrays on the way in.  Errors are ``PuzzleError`` (a
``ValueError``) with the command line's one-line message.  Nothing is
printed on stdout; ``progress=True`` says how a long search goes on stderr.
"""

from __future__ import annotations

import os
import pathlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..clues import Grid, check_variant, grid_from_rows
from ..puzzle import examples, formats
from ..puzzle.model import Puzzle as Model
from ..puzzle.model import PuzzleError, from_grid
from ..puzzle.solving import policy
from ..util.errors import usage_errors
from ..util.messages import say

#: ``solve``'s methods and the search verdicts as the API names them (the policy: ``puzzle.solving.policy``).
METHODS, VERDICTS = policy.METHODS, policy.VERDICTS
#: PuzzleError unless ``solve``'s options are usable (before any work).
check_solve = policy.check


# --- grids and clues in, grids out ---


def grid_cells(grid) -> list:
    """Rows of 0/1 ints from lists, strings or a numpy array; PuzzleError if it is not a 0/1 grid."""
    if isinstance(grid, str):
        grid = [r.strip() for r in grid.replace("\n", "/").split("/") if r.strip()]
    if hasattr(grid, "tolist") and getattr(grid, "ndim", 2) == 2:
        grid = grid.tolist()
    try:
        rows = [list(row) for row in grid]
    except TypeError:
        raise PuzzleError(
            f"a grid is rows of 0/1 cells (lists, strings or a 2-D array), got {type(grid).__name__}"
        ) from None
    out = []
    for r, row in enumerate(rows):
        line = []
        for v in row:
            if v in ("0", "1", 0, 1) and not isinstance(v, float) or isinstance(v, bool):
                line.append(int(v))
            else:
                raise PuzzleError(f"grid row {r + 1}: {v!r} is not a 0/1 cell")
        if out and len(line) != len(out[0]):
            raise PuzzleError(f"grid row {r + 1} has {len(line)} cells, row 1 has {len(out[0])}")
        out.append(line)
    return out


def parse_grid(grid) -> tuple:
    """(Grid, n, m) of a grid given as lists, strings or a numpy array."""
    if isinstance(grid, list | tuple) and grid and all(isinstance(row, str) for row in grid):
        m = len(grid[0])
        if all(len(row) == m and not row.strip("01") for row in grid):  # the page's rows: read as numbers
            return grid_from_rows([int(row[::-1] or "0", 2) for row in grid], m), len(grid), m
    rows = grid_cells(grid)
    n, m = len(rows), len(rows[0]) if rows else 0
    return grid_from_rows([sum(v << c for c, v in enumerate(row)) for row in rows], m), n, m


def cells_of(mask: Grid, m: int) -> tuple:
    """The cells of a Grid mask as (row, column) pairs, in order."""
    bits = bin(mask)[:1:-1]  # bit 0 first
    out = []
    at = bits.find("1")
    while at >= 0:
        out.append(divmod(at, m))
        at = bits.find("1", at + 1)
    return tuple(out)


#: A player's marks, cell by cell: filled, crossed (known empty), unknown.
MARKS = {"1": "filled", "x": "crossed", ".": "unknown"}
#: A colour puzzle's marks of colours 1, 2, ... (the i-th character: colour i + 1; no 'X', which reads as a cross);
#: '.' unknown and 'x' crossed (the background) as in ``MARKS``.  Black and white's '1' is colour 1.
COLOUR_MARKS = "123456789ABCDEFGHIJKLMNOPQRSTUVWYZ"


def parse_colour_marks(marks, n: int, m: int, colours: int) -> list:
    """A colour puzzle's marks as a board of colour masks, row by row (``puzzle.solving.hints.next_colour_hint``):
    n strings of m characters, '.' unknown, 'x' crossed, ``COLOUR_MARKS`` for colours 1 to ``colours``."""
    if isinstance(marks, str):
        marks = marks.split("/")
    chars = COLOUR_MARKS[:colours]
    what = f"'{chars[0]}'-'{chars[-1]}' a colour, 'x' crossed, '.' unknown"
    if not isinstance(marks, (list, tuple)) or not all(isinstance(row, str) for row in marks):
        raise PuzzleError(f"marks are {n} strings of {m} characters ({what})")
    if colours > len(COLOUR_MARKS):
        raise PuzzleError(f"marks name at most {len(COLOUR_MARKS)} colours, the puzzle has {colours}")
    if len(marks) != n:
        raise PuzzleError(f"marks have {len(marks)} rows, the puzzle {n}")
    full, board = (1 << (colours + 1)) - 1, []
    for r, row in enumerate(marks):
        if len(row) != m:
            raise PuzzleError(f"marks row {r + 1} has {len(row)} cells, the puzzle {m}")
        bad = sorted(set(row) - set(chars) - {".", "x"})
        if bad:
            raise PuzzleError(f"marks row {r + 1}: {bad[0]!r} is not a mark ({what})")
        board += [full if v == "." else 1 if v == "x" else 2 << chars.index(v) for v in row]
    return board


def parse_marks(marks, n: int, m: int) -> tuple:
    """(filled, empty) Grid masks of a player's marks: n strings of m characters of ``MARKS`` (or one string with the
    rows separated by '/'); PuzzleError naming the row that is not."""
    if isinstance(marks, str):
        marks = marks.split("/")
    if not isinstance(marks, (list, tuple)) or not all(isinstance(row, str) for row in marks):
        raise PuzzleError(f"marks are {n} strings of {m} characters ('1' filled, 'x' crossed, '.' unknown)")
    if len(marks) != n:
        raise PuzzleError(f"marks have {len(marks)} rows, the puzzle {n}")
    filled = empty = 0
    for r, row in enumerate(marks):
        if len(row) != m:
            raise PuzzleError(f"marks row {r + 1} has {len(row)} cells, the puzzle {m}")
        bad = sorted(set(row) - set(MARKS))
        if bad:
            raise PuzzleError(f"marks row {r + 1}: {bad[0]!r} is not a mark ('1' filled, 'x' crossed, '.' unknown)")
        for c, v in enumerate(row):
            if v == "1":
                filled |= 1 << (r * m + c)
            elif v == "x":
                empty |= 1 << (r * m + c)
    return filled, empty


def to_array(grid: Grid, n: int, m: int):
    """A Grid as an n×m numpy array of bools."""
    import numpy as np

    return np.array([[bool(grid >> (r * m + c) & 1) for c in range(m)] for r in range(n)], dtype=bool).reshape(n, m)


def _clue(clue, kind: str, i: int) -> tuple:
    """A clue as a tuple of positive ints, from an int, a sequence of ints or a string '3 1' ([] and 0: empty)."""
    if isinstance(clue, str):
        clue = clue.replace(",", " ").split()
    elif isinstance(clue, int) and not isinstance(clue, bool):
        clue = [clue]
    try:
        numbers = list(clue)
    except TypeError:
        raise PuzzleError(f"{kind} {i + 1}: a clue is a list of numbers, got {clue!r}") from None
    out = []
    for v in numbers:
        if isinstance(v, str) and v.strip().isdigit():
            v = int(v)
        if isinstance(v, bool) or not hasattr(v, "__index__") or v < 0:
            raise PuzzleError(f"{kind} {i + 1}: clue numbers are whole numbers >= 0, got {v!r}")
        if v:
            out.append(int(v))
    return tuple(out)


def _clues(clues, kind: str) -> tuple:
    if isinstance(clues, (str, bytes)) or not hasattr(clues, "__iter__"):
        raise PuzzleError(f"the {kind} clues are a list of clues, one per {kind}, got {clues!r}")
    return tuple(_clue(c, kind, i) for i, c in enumerate(clues))


def _variant(variant: str) -> str:
    with usage_errors(error=PuzzleError):
        return check_variant(variant)


# --- reading ---


def load_variant(variant: str) -> str:
    """``clues.check_variant`` as a PuzzleError naming the option (one line, exit 2 on the command line)."""
    with usage_errors("--variant: ", PuzzleError):
        return check_variant(variant)


def load(source, fmt: str | None = None, variant: str | None = None) -> tuple:
    """(model puzzle, its format, a note) from a file or a shipped example's name; PuzzleError if unusable.

    A name that is no file but a shipped example's (``examples``; 'cat' or
    'cat.non') is that example.  ``variant`` (None: what the file says): as
    ``formats.read``.  The note says how the format was guessed from the
    content (``formats.guessed_message``), or is None when it was named.
    """
    if variant is not None:
        load_variant(variant)
    source = os.fspath(source)
    path = pathlib.Path(source)
    name = path.stem if path.suffix == ".non" and path.parent == pathlib.Path(".") else source  # 'cat.non': the example
    if not path.exists() and examples.exists(name):
        p = examples.load(name)
        if variant is not None and p.variant != variant:
            raise PuzzleError(f"{source}: the shipped example is a {p.variant}, not a {variant}")
        return p, "non", None
    try:
        text = path.read_text()
    except OSError as err:
        hint = " (nor a shipped example: see python -m localcount examples)" if not path.suffix else ""
        raise PuzzleError(f"cannot read {source}: {err.strerror}{hint}") from None
    except UnicodeDecodeError:
        raise PuzzleError(f"{source} is not a text file") from None
    return read_text(text, fmt, source, variant)


def read_text(text: str, fmt: str | None = None, source: str = "", variant: str | None = None) -> tuple:
    """(model puzzle, its format, a note on the guessed format or None) of a puzzle's text."""
    p, found, guessed = formats.read(text, fmt, source, variant)
    return p, found, formats.guessed_message(text, found, source) if guessed else None


def _check_format(fmt) -> None:
    if fmt is not None and fmt not in formats.FORMATS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(formats.FORMATS)}")


# --- solving ---


def _progress(state, seconds):
    """How a long search goes, on stderr (``solve(progress=True)``, and the command line)."""
    if state.get("dive"):
        say(f"guided dive: {state.get('known', 0)} of {state.get('cells', 0)} cells known, {seconds:.0f} s")
        return
    if state.get("sat"):
        say(f"SAT solver: {plural(state['solutions'], 'solution')} so far, {seconds:.0f} s")
        return
    say(
        f"searching: {plural(state['nodes'], 'node')}, {plural(state['probes'], 'probe')}, depth {state['depth']}, "
        f"{plural(state['solutions'], 'solution')} so far, {seconds:.0f} s"
    )


def plural(k: int, word: str) -> str:
    """'1 node', '2 nodes'."""
    return f"{k} {word}{'' if k == 1 else 's'}"


def solve(p: Model, method: str = "auto", limit: int = 2, max_nodes=None, timeout=None, progress: bool = False,
          on_local=None) -> Solution:  # fmt: skip
    """Local logic, then (if it is not enough) the method's search: the ``Solution`` of a model puzzle.

    ``on_local(local, trace)`` is called once local logic is done, before
    any search (the command line shows local logic's result while the search runs).
    """
    check_solve(method, limit, max_nodes, timeout)
    start, steps = time.perf_counter(), []
    left = None if timeout is None else policy.Left(start, timeout)  # the search gets what local logic left of it
    told = None if on_local is None else (lambda local, trace: on_local(Local(*local), trace))
    local, found, hard = policy.settle(p, method, limit, max_nodes, left, _progress if progress else None, steps, told)
    local = Local(*local)
    return Solution(
        Puzzle.of(p), policy.verdict(found), (found.level or None) if found.complete else None,
        Arrays(p, found.solutions), None if hard is None else hard.steps,
        None if hard is None else hard.rounds, found.nodes, getattr(found, "probes", 0),
        time.perf_counter() - start, found.method, found.complete, local, found, tuple(steps),
    )  # fmt: skip


class Arrays(Sequence):
    """The solutions of a ``Solution`` as numpy arrays (``_solution_array``), made when first read: a solve on the
    command line, which prints the grids, does not pay numpy's import (about a tenth of a second).  A sequence
    like the tuple it stands for (``len``, indexing, iteration, ``==`` with a tuple or list)."""

    def __init__(self, p, grids):
        self._p, self._grids, self._arrays = p, tuple(grids), None

    def _all(self) -> tuple:
        if self._arrays is None:
            self._arrays = tuple(_solution_array(self._p, g) for g in self._grids)
        return self._arrays

    def __getitem__(self, k):
        return self._all()[k]

    def __len__(self) -> int:
        return len(self._grids)

    def __eq__(self, other) -> bool:
        if isinstance(other, Arrays):
            other = tuple(other)
        return tuple(self) == tuple(other) if isinstance(other, (tuple, list)) else NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(self._all())


def _solution_array(p, grid):
    """A solution as an array: bools for black and white (a Grid), colour ids for a colour puzzle (a tuple)."""
    if hasattr(p, "palette"):
        import numpy as np

        return np.array(grid, dtype=np.int64).reshape(p.n, p.m)
    return to_array(grid, p.n, p.m)


@dataclass(frozen=True)
class Local:
    """What local logic made of a puzzle: 'solved', 'stuck' or 'contradiction', the cells it decided (Grid masks,
    black and white), the line that had no pattern (contradiction), and a colour puzzle's board of colour masks."""

    status: str
    filled: Grid = 0
    empty: Grid = 0
    line: str | None = None
    board: list | None = None


@dataclass(frozen=True)
class Solution:
    """What solving a puzzle found.

    ``verdict``: 'unique', 'multiple', 'none' or 'undecided' (the search
    stopped at its limit, node budget or timeout before deciding);
    ``level``: what deciding it needed, 'line' (local logic alone),
    'probing' or 'branching' (None when undecided or when SAT decided);
    ``solutions``: the solutions found (numpy arrays n×m: bools, or colour
    ids for a colour puzzle, made when first read: ``Arrays``), every one
    checked against the clues;
    ``steps`` and ``rounds``: the difficulty of a puzzle local logic solves
    (None otherwise); ``nodes``, ``probes``, ``seconds``, ``method`` and
    ``complete`` (False when the search stopped early): how it went.
    """

    puzzle: Puzzle
    verdict: str
    level: str | None
    solutions: Arrays
    steps: int | None
    rounds: int | None
    nodes: int
    probes: int
    seconds: float
    method: str
    complete: bool
    local: Local = field(repr=False)  # local logic's outcome (the command line draws it)
    found: object = field(repr=False)  # the search's own record (``puzzle.solving.search.Search``)
    trace: tuple = field(repr=False)  # local logic's line steps (``puzzle.solving.logic.Step``)

    @property
    def grid(self):
        """The first solution, or None."""
        return self.solutions[0] if self.solutions else None

    def to_svg(self, cell: int = 20) -> str:
        """The first solution as SVG, the cells local logic could not decide outlined; with no solution, what local
        logic knows (unknown cells shaded)."""
        from ..puzzle.drawing import svg

        p = self.puzzle.model
        if hasattr(p, "palette"):
            board = [1 << k for k in self.found.solutions[0]] if self.solutions else self.local.board
            return svg.colour_puzzle(p, board, cell)
        full = (1 << (p.n * p.m)) - 1
        undecided = full & ~(self.local.filled | self.local.empty)
        if self.solutions:
            g = self.found.solutions[0]
            return svg.puzzle(p, g, full & ~g, 0, cell, marked=undecided)
        return svg.puzzle(p, self.local.filled, self.local.empty, None, cell)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def to_png(self, path) -> None:
        """Write the first solution (or what local logic knows) as a PNG (needs the ``pictures`` extra)."""
        from ..puzzle.drawing import raster
        from ..util.files import write_atomic

        p = self.puzzle.model
        if hasattr(p, "palette"):
            data = raster.colour_png(
                p, [1 << k for k in self.found.solutions[0]] if self.solutions else self.local.board
            )
        else:
            full = (1 << (p.n * p.m)) - 1
            g = self.found.solutions[0] if self.solutions else None
            data = raster.png(p, g, full & ~g) if g is not None else raster.png(p, self.local.filled, self.local.empty)
        write_atomic(path, data)


@dataclass(frozen=True)
class LineStep:
    """One step of local logic: the line it looked at and the cells it decided ((row, column), 0-based)."""

    line: str  # 'row 3' or 'column 1' (1-based, as the command line says it)
    filled: tuple  # cells it found filled
    empty: tuple  # cells it found empty

    @classmethod
    def of(cls, step, m: int) -> LineStep:
        return cls(step.line, cells_of(step.filled, m), cells_of(step.empty, m))


@dataclass(frozen=True)
class Explanation:
    """Local logic on a puzzle, step by step: iterate it for its ``LineStep`` records.

    ``status``: 'solved', 'stuck' or 'contradiction' (``line`` names the
    line with no pattern); ``unknown``: the cells it leaves unknown
    ((row, column), 0-based); ``difficulty``: steps, when it solves it.
    """

    steps: tuple
    status: str
    unknown: tuple
    difficulty: int | None
    line: str | None = None
    local: Local = field(default=None, repr=False)
    trace: tuple = field(default=(), repr=False)  # the model's steps (Grid masks)

    @property
    def rounds(self) -> int | None:
        """The difficulty in rounds (a row step and the column step after it), when local logic solves it."""
        from ..puzzle.solving import logic

        return None if self.difficulty is None else logic.Difficulty(self.difficulty).rounds

    def __iter__(self):
        return iter(self.steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, k):
        return self.steps[k]


def explain(p: Model) -> Explanation:
    """Local logic from all unknown on a black-and-white model puzzle, step by step."""
    from ..puzzle.solving import logic, search

    if hasattr(p, "palette"):
        raise PuzzleError("explain takes black-and-white puzzles; solve a colour puzzle with solve")
    trace: list = []
    out = search.local(p, trace)
    full = (1 << (p.n * p.m)) - 1
    unknown = full & ~out.known
    hard = (
        logic.difficulty(p.rows, p.cols, p.given_filled, p.given_empty, p.variant)
        if out.status == logic.SOLVED
        else None
    )
    return Explanation(
        tuple(LineStep.of(s, p.m) for s in trace), out.status, cells_of(unknown, p.m),
        None if hard is None else hard.steps, out.line, Local(out.status, out.filled, out.empty, out.line), tuple(trace),
    )  # fmt: skip


# --- the puzzle ---


def _check_solution(p, goal: int) -> None:
    """PuzzleError unless ``goal`` (a grid's bit mask) has the clues and keeps the given cells of the model ``p``:
    marks checked against another grid would be called wrong for fitting the clues."""
    from ..clues import grid_clues
    from ..puzzle.solving.search import is_solution

    if is_solution(p, goal):
        return
    rows, cols = grid_clues(goal, p.n, p.m, p.variant)
    wrong = [f"row {r + 1}" for r in range(p.n) if rows[r] != p.rows[r]]
    wrong += [f"column {c + 1}" for c in range(p.m) if cols[c] != p.cols[c]]
    raise PuzzleError(f"the solution does not fit the clues: {wrong[0]} differs" if wrong
                      else "the solution does not keep the puzzle's given cells")  # fmt: skip


class Puzzle:
    """A nonogram: row clues (top to bottom), column clues (left to right), perhaps its intended solution.

    >>> p = Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]])
    >>> p.solve().verdict, p.difficulty
    ('unique', 2)

    ``variant="yesnogram"``: the row clues count runs of empty cells.  A
    puzzle read from a colour file is a colour puzzle (``palette``; its
    clues are (length, colour) runs); it solves, writes and draws, but has no
    ``explain``.  Puzzles are immutable and compare by their contents.
    """

    __slots__ = ("model",)

    def __init__(self, rows, columns, *, variant: str = "nonogram", title: str = "", goal=None):
        rows, columns = _clues(rows, "row"), _clues(columns, "column")
        grid = None
        if goal is not None:
            grid, n, m = parse_grid(goal)
            if (n, m) != (len(rows), len(columns)):
                raise PuzzleError(f"the goal is {n}x{m}, the clues {len(rows)}x{len(columns)}")
        model = Model(rows, columns, grid, str(title), variant=_variant(variant))
        object.__setattr__(self, "model", formats.check(model))

    def __setattr__(self, name, value):
        raise AttributeError("a Puzzle is immutable")

    @classmethod
    def of(cls, model) -> Puzzle:
        """The Puzzle of a model puzzle (``puzzle.model.Puzzle`` or ``ColourPuzzle``), unchecked."""
        p = cls.__new__(cls)
        object.__setattr__(p, "model", model)
        return p

    # --- making one ---

    @classmethod
    def from_grid(cls, grid, *, variant: str = "nonogram", title: str = "") -> Puzzle:
        """The puzzle whose clues are a grid's (lists of 0/1, strings like '101', '101/010', a numpy array), the grid
        as its goal."""
        g, n, m = parse_grid(grid)
        return cls.of(from_grid(g, n, m, str(title), _variant(variant)))

    @classmethod
    def read(cls, path, format: str | None = None, *, variant: str | None = None) -> Puzzle:
        """A puzzle from a file (format from ``format``, else its suffix, else its content), or a shipped example's
        name (``examples()``)."""
        _check_format(format)
        return cls.of(load(path, format, variant)[0])

    @classmethod
    def parse(cls, text: str, format: str | None = None, *, variant: str | None = None) -> Puzzle:
        """A puzzle from text in one of ``FORMATS`` (None: told from the content)."""
        _check_format(format)
        if not isinstance(text, str):
            raise PuzzleError(f"parse takes the text of a puzzle, got {type(text).__name__}")
        if variant is not None:
            _variant(variant)
        return cls.of(formats.read(text, format, "", variant)[0])

    # --- what it is ---

    @property
    def rows(self) -> tuple:
        """The row clues, top to bottom (tuples of numbers; a colour puzzle's of (length, colour) runs)."""
        return self.model.rows

    @property
    def columns(self) -> tuple:
        """The column clues, left to right."""
        return self.model.cols

    @property
    def n(self) -> int:
        """Rows."""
        return self.model.n

    @property
    def m(self) -> int:
        """Columns."""
        return self.model.m

    @property
    def variant(self) -> str:
        """'nonogram' or 'yesnogram' (a colour puzzle: 'nonogram')."""
        return getattr(self.model, "variant", "nonogram")

    @property
    def title(self) -> str:
        return self.model.title

    @property
    def metadata(self) -> dict:
        """What the file said about the puzzle: title, author, copyright, licence, catalogue (the non-empty ones)."""
        return self.model.metadata()

    @property
    def palette(self) -> tuple | None:
        """A colour puzzle's colours ((name, char, hex), colour 0 the background), else None."""
        return getattr(self.model, "palette", None)

    @property
    def goal(self):
        """The intended solution (an array, as ``Solution.solutions``), or None."""
        goal = self.model.goal
        return None if goal is None else _solution_array(self.model, goal)

    @property
    def difficulty(self) -> int | None:
        """Local logic's steps to solve it (a pass over every row or every column, rows first), or None when local
        logic does not solve it."""
        if self.palette is not None:
            return None
        from ..puzzle.solving import logic

        hard = logic.difficulty(
            self.model.rows, self.model.cols, self.model.given_filled, self.model.given_empty, self.variant
        )
        return None if hard is None else hard.steps

    # --- doing things ---

    def solve(self, *, method: str = "auto", limit: int = 2, max_nodes: int | None = None, timeout: float | None = None,
              progress: bool = False) -> Solution:  # fmt: skip
        """Local logic, then probing and the complete search (``method``: auto, search, plain or sat), looking for up
        to ``limit`` solutions within ``max_nodes`` and ``timeout`` seconds."""
        return solve(self.model, method, limit, max_nodes, timeout, progress)

    def explain(self) -> Explanation:
        """Local logic's steps, one record per line step (which line, which cells it decided)."""
        return explain(self.model)

    def hint(self, marks, *, solution=None):
        """The next hint for a player's ``marks`` (``parse_marks``): a ``puzzle.solving.hints.Hint``.

        Solved, the wrong marks (against ``solution``, a grid, or local logic's solution when it solves the
        clues), a line with no placement, the line that decides the most unmarked cells and why in words, a cell
        probing decides, or stuck (``puzzle.solving.hints``).  Given cells (a Tatham puzzle's) count as marked.
        A colour puzzle's marks are ``parse_colour_marks``'s (a colour's character, 'x', '.'), its ``solution``
        rows of its palette's characters, and a hint's ``colours`` are the colours of its ``filled`` cells.
        """
        from ..puzzle.solving import hints, logic

        if self.palette is not None:
            return self._colour_hint(marks, solution)
        p = self.model
        filled, empty = parse_marks(marks, p.n, p.m)
        filled, empty = filled | p.given_filled, empty | p.given_empty
        if filled & empty:
            r, c = divmod((filled & empty).bit_length() - 1, p.m)
            raise PuzzleError(f"marks: row {r + 1}, column {c + 1} contradicts a given cell of the puzzle")
        if solution is not None:
            goal, n, m = parse_grid(solution)
            if (n, m) != (p.n, p.m):
                raise PuzzleError(f"the solution is {n}x{m}, the puzzle {p.n}x{p.m}")
            _check_solution(p, goal)
        else:
            local = logic.propagate(p.rows, p.cols, p.given_filled, p.given_empty, variant=p.variant)
            goal = local.filled if local.status == logic.SOLVED else None
        return hints.next_hint(p.rows, p.cols, filled, empty, p.variant, goal)

    def _colour_hint(self, marks, solution):
        """``hint`` for a colour puzzle: marks of ``COLOUR_MARKS``; ``solution`` rows of the palette's characters."""
        from ..puzzle.solving import colour, hints

        p = self.model
        board = parse_colour_marks(marks, p.n, p.m, len(p.palette) - 1)
        if solution is not None:
            chars = [char for _, char, _ in p.palette]
            if (
                not isinstance(solution, (list, tuple))
                or len(solution) != p.n
                or not all(isinstance(row, str) and len(row) == p.m and set(row) <= set(chars) for row in solution)
            ):
                raise PuzzleError(f"the solution is {p.n} rows of {p.m} of the palette's characters ({''.join(chars)})")
            goal = tuple(chars.index(v) for row in solution for v in row)
            if not colour.is_solution(p, goal):
                wrong = [
                    f"row {r + 1}" for r in range(p.n) if colour.line_clue(goal[r * p.m : (r + 1) * p.m]) != p.rows[r]
                ]
                wrong += [f"column {c + 1}" for c in range(p.m) if colour.line_clue(goal[c :: p.m]) != p.cols[c]]
                raise PuzzleError(f"the solution does not fit the clues: {wrong[0]} differs")
        else:
            status, local, _ = colour.local(p)
            goal = tuple(mask.bit_length() - 1 for mask in local) if status == colour.SOLVED else None
        return hints.next_colour_hint(p, board, goal)

    def to_string(self, format: str = "txt") -> str:
        """The puzzle in one of ``FORMATS``."""
        _check_format(format)
        return formats.format_puzzle(self.model, format)

    def write(self, path, format: str | None = None) -> None:
        """Write the puzzle to a file (atomically), in ``format`` or the one its suffix names."""
        from ..util.files import write_atomic

        fmt = format or formats.SUFFIXES.get(pathlib.Path(path).suffix.lower())
        if fmt is None:
            raise PuzzleError(f"{path}: name the format (one of {', '.join(formats.FORMATS)}); the suffix does not")
        write_atomic(path, self.to_string(fmt))

    def to_svg(self, cell: int = 20) -> str:
        """The puzzle as SVG: its clues and a blank grid."""
        from ..puzzle.drawing import svg

        if self.palette is not None:
            return svg.colour_puzzle(self.model, None, cell)
        return svg.puzzle(self.model, 0, 0, 0, cell)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def to_png(self, path) -> None:
        """Write the puzzle (clues, blank grid) as a PNG (needs the ``pictures`` extra)."""
        from ..puzzle.drawing import raster
        from ..util.files import write_atomic

        data = (
            raster.colour_png(self.model, [(1 << len(self.palette)) - 1] * (self.n * self.m))
            if self.palette
            else raster.png(self.model)
        )
        write_atomic(path, data)

    def __eq__(self, other) -> bool:
        return isinstance(other, Puzzle) and self.model == other.model

    def __hash__(self) -> int:
        return hash(self.model)

    def __repr__(self) -> str:
        extra = f", variant={self.variant!r}" if self.variant != "nonogram" else ""
        extra += f", title={self.title!r}" if self.title else ""
        if self.palette is not None:
            return f"<colour Puzzle {self.n}x{self.m}, {len(self.palette) - 1} colours{extra}>"
        rows = [list(c) for c in self.rows]
        cols = [list(c) for c in self.columns]
        return f"Puzzle(rows={rows}, columns={cols}{extra})"


def use_compiled(on: bool = True) -> None:
    """Run local logic compiled (numba) in this process from now on, wherever the puzzle's sides are at most 62
    cells (the same steps, verdicts and solutions; the server's worker processes do), or interpreted again
    (``on=False``).  The first call loads numba and the compiled code from its disk cache (compiling it the first
    time: seconds)."""
    from ..puzzle.solving import logic

    logic.use_compiled(on)


def compile_when_slow(after: float | None = 1.0, timeout: float | None = None, notice=None) -> None:
    """Run local logic compiled in this process once ``after`` seconds of work have passed (numba's load, about a
    second, is then worth it; short work never pays it), unless ``timeout`` (seconds from now) leaves less than two
    seconds, or less than fifteen when numba's cache does not hold the code (compiling it takes seconds); ``notice(text)``
    is told when it switches or stays interpreted.  The command line's ``solve``, ``generate`` and ``design``
    do this, and cancel it when they end (``after=None``).  Answers are the same either way."""
    import time

    from ..puzzle.solving import logic

    logic.compile_when_slow(after, None if timeout is None else time.monotonic() + timeout, notice)


def examples_list() -> list:
    """The names of the shipped puzzles (``Puzzle.read(name)`` reads one)."""
    return examples.names()


FORMATS = formats.FORMATS


@dataclass(frozen=True)
class Analysis:
    """What a drawing is as a puzzle: its ``puzzle`` (clues, the drawing as goal), whether local logic solves it
    (``simple``) and in how many ``steps``, the cells it leaves ``unknown`` ((row, column), 0-based), and
    (under the time limit) ``verdict`` ('unique', 'multiple' or 'undecided') and ``level``; ``last``: each
    line's last deduction from all unknown ({'row 3': (k, LineStep)}: local logic's k-th line update, from 1, of
    ``updates``), for a maker asking why a line stops where it does."""

    puzzle: Puzzle
    simple: bool
    steps: int | None
    unknown: tuple
    verdict: str | None
    level: str | None
    seconds: float
    last: dict = field(default_factory=dict, repr=False)
    updates: int = 0


def analyze(grid, *, variant: str = "nonogram", timeout: float | None = 5.0, search: bool = True) -> Analysis:
    """A drawing's clues and what local logic makes of them; when it is not simple, whether it is unique anyway
    (probing and search, given up after ``timeout`` seconds: 'undecided'; ``search=False``: not asked, verdict
    and level None).

    >>> a = analyze(["101", "010", "111"])
    >>> a.simple, a.steps, a.verdict, a.level, a.unknown
    (True, 2, 'unique', 'line', ())
    """
    from ..puzzle.solving import logic
    from ..puzzle.solving import search as searching

    start = time.perf_counter()
    p = Puzzle.from_grid(grid, variant=variant)
    model = p.model
    trace: list = []
    out = searching.local(model, trace)
    last = {s.line: (k, s) for k, s in enumerate(trace, 1)}
    last = {line: (k, LineStep.of(s, model.m)) for line, (k, s) in last.items()}
    full = (1 << (model.n * model.m)) - 1
    if out.status == logic.SOLVED:
        hard = logic.difficulty(model.rows, model.cols, 0, 0, model.variant)
        return Analysis(
            p, True, hard.steps, (), "unique", searching.LINE, time.perf_counter() - start, last, len(trace)
        )
    unknown = cells_of(full & ~out.known, model.m)
    if not search:
        return Analysis(p, False, None, unknown, None, None, time.perf_counter() - start, last, len(trace))
    found = solve(model, "auto", 2, None, timeout)
    level = "branching" if found.verdict == "multiple" else found.level  # two solutions: no reasoning decides it
    return Analysis(p, False, None, unknown, found.verdict, level, time.perf_counter() - start, last, len(trace))
