"""The page's server: a Starlette app that serves the static page and answers its HTTP API (``docs/web.md``).

Every endpoint takes a JSON object and answers one: it checks the request
(types, sizes, options), calls the Python API (``localcount.api``) and
shapes the answer.  Three pools (``ProcessPool``): searches and the making
commands in worker processes of their own at a lower CPU priority, so
that a search, which holds its GIL for seconds, never makes a live answer
wait, and a search asked for while they are all busy is refused at once
(503); the live requests that run local logic (an analysis without the
search, a hint) in one worker process a core, queued; the rest (parsing,
numbering, the GETs) in a bounded thread pool.  The worker processes start
with the server and stop with it, even killed (``_die_with_server``), run
local logic compiled, and send their answers back as JSON bytes.  A bad request gets a 4xx with
``{"error": "one line"}``, never a traceback; a body over ``MAX_BODY``
bytes is refused unread (413), JSON nested over ``MAX_NESTING`` levels
before it is parsed (400); grids are at most ``MAX_SIDE`` cells a side;
the search is given up after ``timeout`` seconds (default
``DEFAULT_TIMEOUT``, at most ``MAX_TIMEOUT``), and an analysis not back
``tuning.WEB_GRACE`` seconds later is answered without it (``analysis``).
The pools' sizes and the server's other speed tunables are in ``tuning``
("the page's server").  No server-side path ever
comes from the client: examples and pictures are named, and must be
shipped ones; uploads are content, never file names.  Puzzles by their
number (``nth``, ``rank``) come only from the indexes already there: a
request never builds one.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import functools
import itertools
import json
import os
import pathlib
import re
import socket
import sys
import threading
import time

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import api, tuning
from ..api import making, numbering, puzzles
from ..puzzle import examples, formats
from ..puzzle.making import design as designer
from ..puzzle.making import generate as generator
from ..util import cores

STATIC = pathlib.Path(__file__).resolve().parent / "static"
#: Request bodies larger than this are refused (413) before they are read whole.
MAX_BODY = 2 * 1024 * 1024
#: JSON nested deeper than this is refused (400) before it is parsed (json's parser recurses: a thousand levels were a
#: RecursionError, a 500).  A request's deepest is 4: a colour puzzle's clue runs, in lists, in the request's object.
MAX_NESTING = 64
#: The largest grid the page draws, analyses or makes: this many cells a side.
MAX_SIDE = 100
#: Search time limits, in seconds: the default and the most a request may ask for; making a simple drawing's default.
DEFAULT_TIMEOUT, MAX_TIMEOUT, MAKING_TIMEOUT = 5.0, 30.0, 20.0
#: The endpoints that search or make (``analyze`` too, unless its search is turned off): they run in worker
#: processes of their own (a search holds the GIL for seconds, so in a thread it would make every live answer wait),
#: at most ``pool_size(tuning.WEB_SEARCH_WORKERS)`` at once; one more is refused at once with 503.
SEARCHING = frozenset({"solve", "generate", "design", "simplify"})
#: Live requests that run local logic (interpreted, a GIL each) go to worker processes too, one a core
#: (``tuning.WEB_LIVE_WORKERS``), so that live answers use every core; the others (parsing, converting, numbering,
#: the GETs) run in at most ``pool_size(tuning.WEB_WORKERS)`` threads.
LIVE_PROCESSES = frozenset({"analyze", "hint"})
#: Queries of the numbering run one at a time: its kernels are numba ``parallel`` ones, which numba's workqueue
#: threading layer (the one always there) does not let several threads enter at once.
NUMBERING = threading.Lock()


def pool_size(bounds: tuple) -> int:
    """A pool's size: the usable cores (``util.cores.usable``), at least ``bounds[0]`` and at most ``bounds[1]``."""
    low, high = bounds
    return max(low, min(high, cores.usable()))


class BadRequest(Exception):
    """A request the API cannot take: answered with ``status`` and one line."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


# --- reading requests ---


async def body(request: Request) -> dict:
    """The request's JSON object; BadRequest if it is too large, not JSON, nested too deep or not an object."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BadRequest(f"the request body is over {MAX_BODY // (1024 * 1024)} MB", 413)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise BadRequest(f"the request body is over {MAX_BODY // (1024 * 1024)} MB", 413)
    try:
        text = raw.decode("utf-8")
        if nesting(text) > MAX_NESTING:
            raise BadRequest(f"the request body is nested more than {MAX_NESTING} levels deep")
        data = json.loads(text, parse_constant=_not_json)
    except (UnicodeDecodeError, ValueError) as err:  # JSONDecodeError, NaN, an integer of over 4300 digits
        raise BadRequest(
            f"the request body is not JSON ({err.__class__.__name__}: {str(err).splitlines()[0]})"
        ) from None
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


#: A JSON string (escapes included), and what is not a bracket: what ``nesting`` leaves out.
STRING, NOT_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL), re.compile(r"[^\[\]{}]+")
BRACKETS = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting(text: str) -> int:
    """How deep a JSON text nests: its brackets outside strings, counted without recursion (and before ``json``
    recurses); a malformed text may count deeper than it is, never less deep than ``json`` would go."""
    brackets = NOT_BRACKET.sub("", STRING.sub("", text))
    return max(itertools.accumulate(map(BRACKETS.__getitem__, brackets)), default=0)


def _not_json(constant: str):
    raise ValueError(f"{constant} is not a JSON number")


def field(data: dict, name: str, kinds, default=None, required: bool = False):
    """``data[name]`` if it has one of ``kinds`` (bools are not numbers), else ``default``; BadRequest otherwise."""
    if name not in data or data[name] is None:
        if required:
            raise BadRequest(f"'{name}' is missing")
        return default
    value = data[name]
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        names = " or ".join(
            {int: "a whole number", float: "a number", str: "a string", list: "a list", bool: "true or false"}[k]
            for k in kinds
        )
        raise BadRequest(f"'{name}' must be {names}")
    return value


def grid_rows(data: dict, name: str = "grid") -> list:
    """A grid as row strings of 0/1, checked: rectangular, at most MAX_SIDE a side."""
    rows = field(data, name, list, required=True)
    if len(rows) > MAX_SIDE or not all(isinstance(r, str) for r in rows):
        raise BadRequest(f"'{name}' must be a list of at most {MAX_SIDE} strings of 0/1")
    if any(len(r) > MAX_SIDE for r in rows):
        raise BadRequest(f"'{name}' rows must be at most {MAX_SIDE} cells")
    if not rows or not rows[0]:
        raise BadRequest(f"'{name}' must have at least one row and one column")
    return rows


def clue_lists(data: dict, name: str) -> list:
    clues = field(data, name, list, required=True)
    if not clues or len(clues) > MAX_SIDE:
        raise BadRequest(f"'{name}' must be a list of 1 to {MAX_SIDE} clues")
    for clue in clues:
        if not isinstance(clue, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in clue):
            raise BadRequest(f"each of '{name}' must be a list of whole numbers")
    return clues


def timeout_of(data: dict, default: float = DEFAULT_TIMEOUT) -> float:
    t = float(field(data, "timeout", (int, float), default))
    if not 0 < t <= MAX_TIMEOUT:
        raise BadRequest(f"'timeout' must be more than 0 and at most {MAX_TIMEOUT:g} seconds")
    return t


def size_of(data: dict) -> tuple:
    n = field(data, "rows", int, required=True)
    m = field(data, "columns", int, n)
    if not (1 <= n <= MAX_SIDE and 1 <= m <= MAX_SIDE):
        raise BadRequest(f"sizes are 1 to {MAX_SIDE} rows and columns, got {n}x{m}")
    return n, m


# --- shaping answers ---


def cells(pairs) -> list:
    return [list(pair) for pair in pairs]


def rows_of(array) -> list:
    """An n×m solution as row strings: '0'/'1' for black and white, colour characters for a colour puzzle."""
    return ["".join("1" if v else "0" for v in row) for row in array.tolist()]


def puzzle_json(p: api.Puzzle) -> dict:
    """What the page shows of a puzzle: size, clues, title, variant, goal, and a colour puzzle's palette."""
    out = {"n": p.n, "m": p.m, "title": p.title, "variant": p.variant, "rows": [list(c) for c in p.rows],
           "columns": [list(c) for c in p.columns], "goal": None, "palette": None}  # fmt: skip
    if p.palette is not None:
        out["palette"] = [{"name": name, "char": char, "rgb": rgb} for name, char, rgb in p.palette]
        out["rows"] = [[list(run) for run in c] for c in p.rows]
        out["columns"] = [[list(run) for run in c] for c in p.columns]
        if p.goal is not None:
            chars = [char for _, char, _ in p.palette]
            out["goal"] = ["".join(chars[v] for v in row) for row in p.goal.tolist()]
    elif p.goal is not None:
        out["goal"] = rows_of(p.goal)
    return out


def solution_rows(p: api.Puzzle, array) -> list:
    if p.palette is None:
        return rows_of(array)
    chars = [char for _, char, _ in p.palette]
    return ["".join(chars[v] for v in row) for row in array.tolist()]


# --- the endpoints (each: the checked request in, a JSON-able dict out; run in the thread pool) ---


def do_analyze(data: dict) -> dict:
    rows = grid_rows(data)
    search = field(data, "search", bool, True)
    a = puzzles.analyze(rows, variant=field(data, "variant", str, "nonogram"), timeout=timeout_of(data), search=search)
    return {"rows": [list(c) for c in a.puzzle.rows], "columns": [list(c) for c in a.puzzle.columns],
            "simple": a.simple, "verdict": a.verdict, "level": a.level, "steps": a.steps,
            "unknown": cells(a.unknown), "seconds": round(a.seconds, 4), "updates": a.updates,
            "last": {line: {"update": k, "filled": cells(x.filled), "empty": cells(x.empty)} for line, (k, x) in a.last.items()}}  # fmt: skip


def _puzzle_of(data: dict) -> tuple:
    """(the puzzle of a request, its format): ``text`` (a file's content; ``format``, or told from the text), or
    ``rows`` and ``columns`` (format None)."""
    variant = field(data, "variant", str)
    fmt = None
    if "text" in data:
        text = field(data, "text", str, required=True)
        wanted = field(data, "format", str)
        if variant is not None:
            puzzles.load_variant(variant)
        model, fmt, _ = puzzles.read_text(text, wanted, "", variant)
        p = api.Puzzle.of(model)
    else:
        p = api.Puzzle(clue_lists(data, "rows"), clue_lists(data, "columns"), variant=variant or "nonogram")
    if p.n > MAX_SIDE or p.m > MAX_SIDE:
        raise BadRequest(f"the page takes puzzles of at most {MAX_SIDE}x{MAX_SIDE}, this one is {p.n}x{p.m}")
    return p, fmt


def do_solve(data: dict) -> dict:
    p, _ = _puzzle_of(data)
    method = field(data, "method", str, "auto")
    r = p.solve(method=method, timeout=timeout_of(data), limit=2)
    replay = []
    if p.palette is None:
        replay = [{"line": s.line, "filled": cells(s.filled), "empty": cells(s.empty)} for s in p.explain()]
    return {"puzzle": puzzle_json(p), "verdict": r.verdict, "level": r.level, "steps": r.steps,
            "solutions": [solution_rows(p, a) for a in r.solutions], "replay": replay,
            "local": r.local.status, "method": r.method, "nodes": r.nodes, "probes": r.probes,
            "complete": r.complete, "seconds": round(r.seconds, 4)}  # fmt: skip


def do_hint(data: dict) -> dict:
    """The next hint for a player's marks (``Puzzle.hint``): the line, its cells and the reason; or the wrong
    marks; or solved.  ``solution`` (row strings of 0/1), when the page knows it, is what marks are checked against:
    one that does not fit the clues is refused (``Puzzle.hint``: a 422).  A colour puzzle's marks name colours
    (``api.puzzles.COLOUR_MARKS``), its solution is rows of its palette's characters, and a hint's ``colours`` are
    its filled cells' colours."""
    p, _ = _puzzle_of(data)
    marks = field(data, "marks", list, required=True)
    if not all(isinstance(row, str) for row in marks):
        raise BadRequest("'marks' must be a list of strings (one a row: '1' filled, 'x' crossed, '.' unknown)")
    solution = grid_rows(data, "solution") if data.get("solution") is not None else None
    h = p.hint(marks, solution=solution)
    if h.kind == "solved":
        return {"solved": True, "reason": h.reason}
    if h.kind == "mistakes":
        return {"mistakes": cells(h.mistakes), "reason": h.reason}
    answer = {"line": h.line, "filled": cells(h.filled), "empty": cells(h.empty), "reason": h.reason, "kind": h.kind}
    if p.palette is not None:
        answer["colours"] = list(h.colours)
    return answer


def do_parse(data: dict) -> dict:
    p, fmt = _puzzle_of(data)
    return {"puzzle": puzzle_json(p), "format": fmt}


def do_convert(data: dict) -> dict:
    p, _ = _puzzle_of(data)
    to = field(data, "to", str, required=True)
    return {"text": p.to_string(to), "format": to}


#: What the page's user can change when making a puzzle fails: said in place of the command line's options.
PAGE_ADVICE = {
    "generate": "try a wider range of Steps, another Seed (or none), or a smaller size",
    "design": "try again (each try takes another seed), or another Threshold or size",
    "simplify": "try again (each try takes another seed)",
}


@contextlib.contextmanager
def page_advice(name: str):
    """A making error (``ValueError``) as the page says it: "try more --tries" and the like become what the page's
    controls for ``name`` can change (``PAGE_ADVICE``)."""
    try:
        yield
    except ValueError as err:
        line = str(err).splitlines()[0] if str(err) else err.__class__.__name__
        cli = re.search(r"; try [^;(]*--[\w-]+[^;(]*", line)  # what follows it (" (seed 3)") goes before the advice
        if cli:
            line = f"{line[: cli.start()]} {line[cli.end() :].strip()}".rstrip() + f"; {PAGE_ADVICE[name]}"
        raise BadRequest(line, 422) from None


def do_generate(data: dict) -> dict:
    n, m = size_of(data)
    steps = field(data, "steps", (str, int))
    seed = field(data, "seed", int)
    with page_advice("generate"):
        made = making.make_random(n, m, steps=steps, seed=seed, timeout=timeout_of(data, MAKING_TIMEOUT))
    return {"puzzle": puzzle_json(made.puzzle), "seed": made.seed, "steps": made.made.steps,
            "grid": rows_of(made.puzzle.goal), "seconds": round(made.seconds, 4)}  # fmt: skip


def _picture_bytes(data: dict) -> bytes | str:
    """An uploaded picture's bytes (a data URL or base64), or a shipped picture's name."""
    if "picture" in data:
        name = field(data, "picture", str, required=True)
        if name not in designer.shipped():
            raise BadRequest(f"no shipped picture {name!r}; one of {', '.join(designer.shipped())}")
        return name
    encoded = field(data, "image", str, required=True)
    encoded = encoded.split(",", 1)[1] if encoded.startswith("data:") else encoded
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest("'image' must be a picture's bytes in base64 (or a data: URL)") from None


def do_design(data: dict) -> dict:
    n, m = size_of(data)
    threshold = float(field(data, "threshold", (int, float), 0.5))
    picture = _picture_bytes(data)
    with page_advice("design"):
        made = making.make_design(picture, (n, m), steps=field(data, "steps", (str, int)),
                                  seed=field(data, "seed", int), threshold=threshold,
                                  timeout=timeout_of(data, MAKING_TIMEOUT))  # fmt: skip
    target = made.made.target
    preview = ["".join("1" if target >> (r * m + c) & 1 else "0" for c in range(m)) for r in range(n)]
    return {"puzzle": puzzle_json(made.puzzle), "grid": rows_of(made.puzzle.goal), "thresholded": preview,
            "changed": cells(puzzles.cells_of(made.made.changed, m)), "steps": made.made.steps, "seed": made.seed,
            "seconds": round(made.seconds, 4)}  # fmt: skip


def do_simplify(data: dict) -> dict:
    rows = grid_rows(data)
    with page_advice("simplify"):
        made = making.simplify(rows, seed=field(data, "seed", int), timeout=timeout_of(data, MAKING_TIMEOUT))
    m = len(rows[0])
    return {"grid": rows_of(made.puzzle.goal), "changed": cells(puzzles.cells_of(made.made.changed, m)),
            "steps": made.made.steps, "seed": made.seed, "seconds": round(made.seconds, 4)}  # fmt: skip


def do_example(data: dict) -> dict:
    name = field(data, "name", str, required=True)
    if not examples.exists(name):
        raise BadRequest(f"no shipped example {name!r}", 404)
    return {"puzzle": puzzle_json(api.Puzzle.read(name)), "text": api.Puzzle.read(name).to_string("non")}


def _numbering(n: int, m: int, variant: str) -> numbering.Numbering:
    """The index of a size, loaded (never built: a missing one is a 422 saying how to build it)."""
    from ..results.numberings import NumberingFileError

    try:
        return numbering.numbering(n, m, variant=variant, build=False)
    except NumberingFileError as err:
        raise BadRequest(str(err).splitlines()[0], 422) from None


def _numbered_json(x: numbering.Numbered) -> dict:
    return dict(x.to_json(), title=x.title)


def do_nth(data: dict) -> dict:
    """Puzzle #k of a size (of ``steps`` only, if given): its number, grid and steps, and the puzzle."""
    n, m = size_of(data)
    k = field(data, "k", int, required=True)
    variant = field(data, "variant", str, "nonogram")
    window = numbering.steps_range(field(data, "steps", (str, int)))
    with NUMBERING:
        x = _numbering(n, m, variant).nth(k, window)
    p = x.puzzle
    return dict(_numbered_json(x), puzzle=puzzle_json(p), text=p.to_string("non"))


def do_rank(data: dict) -> dict:
    """The number of a grid among the puzzles of its size (of ``steps`` only, if given); 422 if it has none."""
    n, m, g, variant = numbering.grid_number(grid_rows(data), field(data, "variant", str, "nonogram"))
    window = numbering.steps_range(field(data, "steps", (str, int)))
    with NUMBERING:
        x = _numbering(n, m, variant).rank(g, window)
    return _numbered_json(x)


def do_indexes(_data: dict) -> dict:
    """The sizes whose puzzles are numbered (an index shipped or already built): how many puzzles, of how many steps."""
    from ..results import numberings

    out = []
    for n, m, variant in numberings.available():
        try:
            order = _numbering(n, m, variant)  # loading runs no kernel: no need to wait for the lock
        except (BadRequest, ValueError):  # too big, or a file that cannot be used: not offered
            continue
        steps = order.file.steps()
        out.append({"n": n, "m": m, "variant": variant, "puzzles": order.total(),
                    "steps": {str(d): steps[d] for d in sorted(steps)}})  # fmt: skip
    return {"indexes": out}


def do_results(_data: dict) -> dict:
    """The recorded counts of both families, from the table the package ships."""
    from ..results import records

    out = {}
    for variant in records.VARIANT_DIRS:
        rows = records.read_table(records.variant_dir(records.SHIPPED, variant))
        out[variant] = [{"n": r.n, "m": r.m, "count": str(r.count), "grids": str(r.grids), "fraction": float(r.fraction),
                         "runs": r.layouts.split(";"), "date": r.date} for r in rows]  # fmt: skip
    return out


def do_info(_data: dict) -> dict:
    return {"version": _version(), "formats": list(formats.FORMATS),
            "examples": examples.names(), "pictures": designer.shipped(), "max_side": MAX_SIDE,
            "max_cells_generate": generator.MAX_CELLS, "timeout": DEFAULT_TIMEOUT}  # fmt: skip


def _version() -> str:
    from ..util.version import __version__

    return __version__


#: Endpoint -> (handler, method).  GET ones take no body.
ENDPOINTS = {
    "analyze": (do_analyze, "POST"), "solve": (do_solve, "POST"), "hint": (do_hint, "POST"), "parse": (do_parse, "POST"),
    "convert": (do_convert, "POST"), "generate": (do_generate, "POST"), "design": (do_design, "POST"),
    "simplify": (do_simplify, "POST"), "example": (do_example, "POST"), "nth": (do_nth, "POST"),
    "rank": (do_rank, "POST"), "indexes": (do_indexes, "GET"), "results": (do_results, "GET"), "info": (do_info, "GET"),
}  # fmt: skip


def answered(name: str, data: dict) -> tuple:
    """(HTTP status, JSON answer) of endpoint ``name`` on a checked request body: its answer, or one line of error."""
    try:
        return 200, ENDPOINTS[name][0](data)
    except BadRequest as err:
        return err.status, {"error": str(err)}
    except ValueError as err:  # UsageError, PuzzleError, GenerateError, DesignError: one line each
        return 422, {"error": str(err).splitlines()[0] if str(err) else err.__class__.__name__}


def encoded(answer) -> bytes:
    """An answer as the bytes of its JSON (compact, as Starlette's ``JSONResponse`` writes it)."""
    return json.dumps(answer, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode()


def answered_encoded(name: str, data: dict) -> tuple:
    """``answered`` with the answer encoded, where it is made: a worker process sends bytes back, which cost the
    server's event loop nothing to pass on (a live analysis's answer, thousands of cells in small lists, took
    about 0.6 ms to encode and as much again to pickle and unpickle)."""
    status, answer = answered(name, data)
    return status, encoded(answer)


class EncodedResponse(Response):
    """A response of JSON already encoded (``answered_encoded``)."""

    media_type = "application/json"


def searches(name: str, data: dict) -> bool:
    """True when the request goes to the search pool."""
    return name in SEARCHING or name == "analyze" and data.get("search", True) is not False


async def analysis(app, data: dict, start: float) -> tuple:
    """(status, answer's JSON bytes) of an analysis with its search, answered within its ``timeout`` and
    ``tuning.WEB_GRACE`` seconds of ``start`` (the request's arrival, a ``perf_counter``): the search worker's answer
    if it has come by then, else local logic's from a live worker (``local_logic``), asked for
    ``tuning.WEB_FALLBACK_AHEAD`` seconds before that time, so that it is there when the time comes.  The search
    itself looks at its deadline often, but not everywhere: a SAT solver being set up, or left, went on up to 0.8 s
    past it; and a search may wait for its worker (one still starting with the server, on a busy machine, took
    seconds).  A search given up goes on in its worker, which keeps its place, to its own deadline."""
    try:
        deadline = start + timeout_of(data) + tuning.WEB_GRACE
    except BadRequest:
        return await app.state.searches.run("analyze", data)  # the worker answers what is wrong, as to any other
    search = asyncio.ensure_future(app.state.searches.run("analyze", data))
    known = app.state.local_answers.get(data)  # the page asks local logic alone first: its answer, if kept
    await asyncio.wait({search}, timeout=max(0.0, deadline - tuning.WEB_FALLBACK_AHEAD - time.perf_counter()))
    fallback = None
    if not search.done():
        if known is None:
            fallback = asyncio.ensure_future(app.state.live.run("analyze", data, job=local_logic))
            fallback.add_done_callback(_unread)
        await asyncio.wait({search}, timeout=max(0.0, deadline - time.perf_counter()))
    if search.done() or (fallback is None and known is None):
        return await search  # its answer, or its error (BadRequest: busy, a worker gone)
    search.add_done_callback(_unread)
    status, answer = (200, json.loads(known)) if fallback is None else await fallback
    if status == 200:
        answer.update(verdict="undecided", seconds=round(time.perf_counter() - start, 4))
    return status, encoded(answer)


class LocalAnswers:
    """The last ``size`` answers of ``analyze`` without its search (JSON bytes), by drawing: what ``analysis``
    answers when a search has not answered in time, at no cost when the page asked for local logic first (it
    does, for every drawing).  Read and written by the event loop only."""

    def __init__(self, size: int | None = None):
        self.size, self.answers = tuning.WEB_LOCAL_ANSWERS if size is None else size, {}

    @staticmethod
    def key(data: dict) -> str:
        return json.dumps([data.get("grid"), data.get("variant", "nonogram")])

    def keep(self, data: dict, answer: bytes) -> None:
        key = self.key(data)
        self.answers.pop(key, None)
        self.answers[key] = answer
        while len(self.answers) > self.size:
            self.answers.pop(next(iter(self.answers)))

    def get(self, data: dict) -> bytes | None:
        return self.answers.get(self.key(data))


def _unread(task: asyncio.Future) -> None:
    """A request's side task that nobody awaits any more: its error (a worker gone) is not an unread one."""
    if not task.cancelled():
        task.exception()


def local_logic(name: str, data: dict) -> tuple:
    """(status, answer) of an analysis without its search, in a worker process: what ``analysis`` answers when
    the search has not answered in time (an answer, not bytes: the verdict and seconds are set after)."""
    return answered(name, dict(data, search=False))


def _die_with_server(server: int, signalled: bool) -> None:
    """Make this worker process stop when its server (pid ``server``) does, even killed with SIGKILL (no
    ``close`` then): a daemon thread ends the process once its parent is no longer ``server`` (the worker was
    handed to init or a subreaper), and, if ``signalled``, Linux sends it SIGTERM at once (PR_SET_PDEATHSIG).
    That signal comes when the server's *thread* that started the worker ends, so it is asked for only when
    that thread is the server's main one (``serve``), not a thread that may end before the server (a test
    client's).  The multiprocessing resource tracker then stops by itself: the last process holding its pipe
    is gone."""
    if signalled:
        with contextlib.suppress(OSError, AttributeError):
            import ctypes
            import signal

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    threading.Thread(target=_watch_server, args=(server,), name="localcount-watch-server", daemon=True).start()


def _watch_server(server: int) -> None:
    while os.getppid() == server:
        time.sleep(tuning.WEB_SERVER_CHECK)
    os._exit(1)  # the server is gone: nobody is left to answer (a search may hold the main thread for seconds)


def worker_start(niceness: int, server: int | None = None, signalled: bool = False) -> None:
    """A worker process of a pool: it stops when its server ``server`` (a pid) does (``_die_with_server``); local
    logic runs compiled (``api.puzzles.use_compiled``: an analysis of a new 30x30 drawing in about 2.5 ms instead
    of 15), loaded first, then a search process yields the cores to the live answers (a lower priority).  Should
    the compiled code fail to load, local logic stays interpreted (the same answers, slower), and the worker says
    so on stderr."""
    if server is not None:
        _die_with_server(server, signalled)
    try:
        puzzles.use_compiled()
    except Exception as err:  # a broken numba cache, no compiler: not worth a worker that answers nothing
        print(f"localcount serve: local logic stays interpreted ({err.__class__.__name__}: {err})", file=sys.stderr)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)


class ProcessPool:
    """Worker processes (spawned on first use) for one kind of request.

    ``busy_message``: a request that finds all ``workers`` busy is refused at once with it (BadRequest 503) —
    searches, never queued behind minutes of other searches; None: it waits its turn — live requests, each a
    few milliseconds.  ``niceness``: the workers' lower CPU priority (``worker_start``).  Errors come back as
    answers, so nothing but JSON crosses the process boundary.
    """

    def __init__(self, workers: int, niceness: int = 0, busy_message: str | None = None):
        self.workers, self.niceness, self.busy_message = workers, niceness, busy_message
        self.busy, self._pool = 0, None

    def _executor(self):
        if self._pool is None:
            import concurrent.futures
            import multiprocessing

            context = multiprocessing.get_context("spawn")  # the server has threads: never fork it
            signalled = threading.current_thread() is threading.main_thread()  # the thread that starts the workers
            self._pool = concurrent.futures.ProcessPoolExecutor(self.workers, mp_context=context, initializer=worker_start,
                                                                initargs=(self.niceness, os.getpid(), signalled))  # fmt: skip
        return self._pool

    async def start(self) -> None:
        """Start every worker now, and wait until they have (each loads the compiled local logic)."""
        pool = self._executor()
        await asyncio.gather(*(asyncio.wrap_future(pool.submit(os.getpid)) for _ in range(self.workers)))

    async def run(self, name: str, data: dict, job=None) -> tuple:
        """(status, answer's JSON bytes) of endpoint ``name`` from a worker process (``job(name, data)`` there,
        ``answered_encoded`` by default).  A caller that stops waiting (``analysis`` gives up on a search) leaves
        the worker to go on, and to keep its place in ``busy``, until it is done."""
        if self.busy_message is not None and self.busy >= self.workers:
            raise BadRequest(self.busy_message.format(busy=self.busy), 503)
        from concurrent.futures.process import BrokenProcessPool

        try:
            pool = self._executor()
            work = asyncio.wrap_future(pool.submit(job or answered_encoded, name, data))
            self.busy += 1  # the event loop's own counter: no lock needed
            work.add_done_callback(functools.partial(self._done, pool))
            return await asyncio.shield(work)
        except BrokenProcessPool:  # a worker died (killed, out of memory): the next request starts new ones
            self.close()
            raise BadRequest("a worker process of the server stopped: ask again", 503) from None

    def _done(self, pool, work: asyncio.Future) -> None:
        """A worker's job is over (answered, given up by ``run`` or not): its place is free."""
        from concurrent.futures.process import BrokenProcessPool

        self.busy -= 1
        if not work.cancelled() and isinstance(work.exception(), BrokenProcessPool) and self._pool is pool:
            self.close()  # found by a job nobody waited for any more

    def close(self) -> None:
        """Stop the workers, a search still running included (the server is stopping, or a worker died): left
        alone, a search would go on using a core until its time limit, the server gone."""
        if self._pool is not None:
            workers = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                with contextlib.suppress(OSError, ValueError):
                    worker.terminate()
            self._pool = None


def endpoint(name: str, method: str):
    async def run(request: Request) -> Response:
        start = time.perf_counter()
        try:
            data = await body(request) if method == "POST" else {}
            if name == "analyze" and searches(name, data):
                status, answer = await analysis(request.app, data, start)
            elif searches(name, data):
                status, answer = await request.app.state.searches.run(name, data)
            elif name in LIVE_PROCESSES:
                status, answer = await request.app.state.live.run(name, data)
                if name == "analyze" and status == 200:
                    request.app.state.local_answers.keep(data, answer)
            else:
                if request.app.state.limiter is None:  # made in the event loop, on the first request
                    request.app.state.limiter = anyio.CapacityLimiter(pool_size(tuning.WEB_WORKERS))
                status, answer = await anyio.to_thread.run_sync(
                    answered_encoded, name, data, limiter=request.app.state.limiter
                )
        except BadRequest as err:
            return JSONResponse({"error": str(err)}, status_code=err.status)
        response = EncodedResponse(answer, status_code=status)
        if status == 200:
            response.headers["Server-Timing"] = f"app;dur={1000 * (time.perf_counter() - start):.1f}"
        return response

    return run


async def index(_request: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html")


async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse(
        {"error": exc.detail if isinstance(exc.detail, str) else "bad request"}, status_code=exc.status_code
    )


async def server_error(_request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover - a bug: still one line
    return JSONResponse({"error": f"internal error: {exc.__class__.__name__}"}, status_code=500)


def create_app() -> Starlette:
    """The app: the page at /, its files at /static, the API at /api/NAME."""
    routes = [Route("/", index)]
    routes += [
        Route(f"/api/{name}", endpoint(name, method), methods=[method]) for name, (_, method) in ENDPOINTS.items()
    ]
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC), name="static"))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # Every worker process starts now (a pool starts one only when the others are busy): the live ones before
        # the first drawing is analysed, the search ones meanwhile (started later, under load, a search's start,
        # Python and numba, took the live answers' cores).
        await app.state.live.start()
        searches = asyncio.ensure_future(app.state.searches.start())
        yield
        searches.cancel()
        app.state.searches.close()
        app.state.live.close()

    app = Starlette(
        routes=routes, exception_handlers={HTTPException: http_error, Exception: server_error}, lifespan=lifespan
    )
    app.state.limiter = None
    app.state.searches = ProcessPool(
        pool_size(tuning.WEB_SEARCH_WORKERS),
        niceness=10,
        busy_message="the server is busy with {busy} searches: ask again in a moment",
    )
    app.state.live = ProcessPool(pool_size(tuning.WEB_LIVE_WORKERS))
    app.state.local_answers = LocalAnswers()
    return app


@contextlib.contextmanager
def running(host: str = "127.0.0.1", port: int = 0):
    """The app served by uvicorn in a daemon thread of this process (port 0: a free one): yields its base URL.

    For the browser tests, the screenshot script, and a notebook that wants the page beside it.
    """
    import uvicorn

    if port == 0:
        with socket.socket() as s:
            s.bind((host, 0))
            port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the page's server did not start on {host} port {port}")
        time.sleep(0.02)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(5)
