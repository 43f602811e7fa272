"""Which search solves a puzzle, and with how much time: the ``solve`` methods' policy.

Local logic first (``search.local``, or ``colour.local`` for a colour
puzzle); if it leaves cells unknown, the method's search with what is left
of the time limit: ``auto`` (the search, then SAT on what it has not
decided: ``sat.solve_auto``), ``search`` (local logic, probing, branching),
``plain`` (branching without probing) or ``sat``.  A colour puzzle has the
colour search alone.  The API's ``solve`` (``api.puzzles``) calls
``settle`` and wraps its records in its result types.

Imports the rooms of ``solving`` it chooses between (``sat`` inside the
functions, so that python-sat loads only when asked) and ``model``.
"""

from __future__ import annotations

import time

from ..model import PuzzleError

#: ``solve``'s methods: auto (search, then SAT on what it has not decided), search, plain (no probing), sat.
METHODS = ("auto", "search", "plain", "sat")
#: Search verdicts as the API (and ``solve --json``) names them.
VERDICTS = {"unique": "unique", "multiple": "multiple", "no solution": "none"}


def check(method: str, limit: int, max_nodes, timeout) -> None:
    """PuzzleError unless ``solve``'s options are usable (before any work)."""
    if method not in METHODS:
        raise PuzzleError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise PuzzleError(f"--limit must be at least 1, got {limit}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1):
        raise PuzzleError(f"--max-nodes must be at least 1, got {max_nodes}")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0):
        raise PuzzleError(f"--timeout must be a positive number of seconds, got {timeout:g}" if isinstance(timeout, (int, float))
                          else f"--timeout must be a positive number of seconds, got {timeout!r}")  # fmt: skip


def verdict(found) -> str:
    """'unique', 'multiple', 'none' or 'undecided' of a search record."""
    if found.complete:
        return VERDICTS.get(found.verdict, "undecided")
    return "multiple" if len(found.solutions) >= 2 else "undecided"


class Left:
    """What is left of a ``timeout`` that started at ``start`` (``perf_counter``), read when the search starts."""

    def __init__(self, start: float, timeout: float):
        self.end = start + timeout

    def seconds(self) -> float:
        return max(self.end - time.perf_counter(), 1e-3)


def search_by(p, method: str, limit: int, max_nodes, timeout, progress):
    """The chosen method's search record (``search.Search`` or the SAT search's); PuzzleError from SAT."""
    from . import sat, search

    if method == "sat":
        return sat.search_sat(p, limit, timeout, progress)
    if method == "plain":
        return search.plain_search(p, limit, max_nodes)
    if method == "auto":
        return sat.solve_auto(p, limit, max_nodes, timeout, progress)
    return search.search(p, limit, max_nodes, timeout, progress)


def settle(p, method: str, limit: int, max_nodes, left: Left | None, report, steps: list, on_local) -> tuple:
    """(local, search record, Difficulty or None) of a puzzle: local logic, then the method's search if it is not
    enough, with what ``left`` leaves of the time.  ``local`` is (status, filled, empty, line, board) as local logic
    ends (``board``: a colour puzzle's, else None); ``on_local(local, steps)`` is told it before any search."""
    return (_colour if hasattr(p, "palette") else _black_and_white)(p, method, limit, max_nodes, left, report, steps,
                                                                     on_local)  # fmt: skip


def _colour(p, method: str, limit: int, max_nodes, left, report, steps: list, on_local) -> tuple:
    from . import colour, search

    if method not in ("auto", "search"):
        raise PuzzleError(f"colour puzzles are solved by the search (--method auto or search), not --method {method}")
    status, board, bad = colour.local(p, steps)
    local = (status, 0, 0, bad, board)
    if on_local:
        on_local(local, tuple(steps))
    if status == colour.SOLVED:
        found = search.Search(search.UNIQUE, [tuple(mask.bit_length() - 1 for mask in board)], level=search.LINE)
    else:
        found = colour.search(p, limit, max_nodes, left and left.seconds(), report)
    found.method = "search"
    return local, found, None


def _black_and_white(p, method: str, limit: int, max_nodes, left, report, steps: list, on_local) -> tuple:
    from . import logic, search

    out = search.local(p, steps)
    local = (out.status, out.filled, out.empty, out.line, None)
    if on_local:
        on_local(local, tuple(steps))
    if out.status == logic.SOLVED:
        found = search.Search(search.UNIQUE, [out.filled], nodes=0, level=search.LINE,
                              method="search" if method == "auto" else method)  # fmt: skip
        return local, found, logic.difficulty(p.rows, p.cols, p.given_filled, p.given_empty, p.variant)
    found = search_by(p, method, limit, max_nodes, left and left.seconds(), report)
    if out.status == logic.CONTRADICTION:
        found.level = search.LINE
    return local, found, None
