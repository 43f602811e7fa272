"""``solve``, ``explain``, ``examples`` and ``convert``: the commands for one puzzle at a time.

    python -m localcount solve puzzle.non            # or '-' for stdin, or a shipped example's name
    python -m localcount solve --trace puzzle.txt    # every deduction, line by line
    python -m localcount solve --json puzzle.xml     # one JSON object: verdict, level, solutions, nodes, seconds
    python -m localcount explain --grid 1010/0100/1010/0011
    python -m localcount explain --grid 0111/0101/1100 --variant yesnogram   # rows count runs of 0s
    python -m localcount examples
    python -m localcount convert puzzle.xml --to non

stdout gets the pictures and verdicts; errors go to stderr.  Exit status:
0 done (whatever the verdict), 2 bad input (with the file's line number
where there is one), 1 a file that cannot be written.

Yesnograms: a txt, non or xml file says it is one; ``--variant`` reads a
nin or tatham file as one, and is an error for a file that says the other
variant (``formats.read``).  ``explain --variant yesnogram`` gives a grid's
yesnogram clues.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..api import puzzles as api
from ..api.puzzles import plural
from ..clues import parse_grid
from ..puzzle import drawing as pictures
from ..puzzle import examples, formats
from ..puzzle.model import Puzzle, PuzzleError
from ..puzzle.solving import colour, logic
from ..util.files import write_atomic
from ..util.messages import Parser, say


def load(source: str, fmt: str | None = None, variant: str | None = None) -> Puzzle:
    """A puzzle from a file, '-' (stdin) or a shipped example's name (``api.puzzles.load``), saying on stderr when
    the format was guessed from the content; PuzzleError if unusable."""
    if source == "-":
        if variant is not None:
            api.load_variant(variant)
        p, _, note = api.read_text(sys.stdin.read(), fmt, "<stdin>", variant)
    else:
        p, _, note = api.load(source, fmt, variant)
    if note:
        say(note)
    return p


def _step_cells(p, step) -> str:
    """Which cells of its line a step decided, e.g. 'filled 1 4, empty 2' (1-based positions along the line)."""

    def positions(mask):
        cells = [k for k in range(p.n * p.m) if mask >> k & 1]
        along = [k % p.m + 1 for k in cells] if step.line.startswith("row") else [k // p.m + 1 for k in cells]
        return " ".join(map(str, along))

    parts = [f"{what} {positions(mask)}" for what, mask in (("filled", step.filled), ("empty", step.empty)) if mask]
    return ", ".join(parts)


def _local_report(p, out, steps, trace: bool, replay: bool) -> None:
    """Print local logic's outcome (``api.puzzles.Local``) and picture, and with ``trace`` every step."""
    if trace:
        filled = empty = 0
        for k, s in enumerate(steps, 1):
            filled |= s.filled
            empty |= s.empty
            print(f"step {k}: {s.line}: {_step_cells(p, s)}")
            if replay:
                print(pictures.draw(p, filled, empty))
    what = {logic.SOLVED: "solved by local logic", logic.STUCK: "stuck: local logic leaves unknown cells"}
    if out.status == logic.CONTRADICTION:
        print(f"contradiction: {out.line} has no pattern that fits its clue and the known cells")
    else:
        print(what[out.status] + f" ({len(steps)} line steps)")
    print(pictures.draw(p, out.filled, out.empty), end="")


def solve_parser() -> argparse.ArgumentParser:
    """The arguments of ``solve``."""
    ap = Parser(prog="python -m localcount solve", description="Solve one puzzle: local logic, then a complete search.")
    ap.add_argument("source", help="a puzzle file, '-' for stdin, or a shipped example's name")
    ap.add_argument("--format", choices=formats.FORMATS, help="the file's format (default: from its suffix or content)")
    ap.add_argument("--trace", action="store_true", help="list every deduction of local logic, line by line")
    ap.add_argument("--replay", action="store_true", help="with --trace: draw the grid after every step")
    ap.add_argument("--all", action="store_true", help="list every solution up to --limit")
    ap.add_argument("--png", metavar="FILE", help="write a picture: the solution if found, else what local logic knows")
    ap.add_argument(
        "--gif", metavar="FILE", help="write local logic's deductions as an animated GIF, one frame per line step"
    )
    ap.add_argument("--limit", type=int, default=None, help="solutions to look for (default 2; 100 with --all)")
    ap.add_argument(
        "--method",
        choices=["auto", "search", "plain", "sat"],
        default="auto",
        help="auto (default): search, handing a puzzle it has not decided after 5,000 probes to a SAT solver when "
        "python-sat is installed; search: local logic, probing, then branching; plain: branching without probing (for "
        "comparison); sat: CNF with python-sat (pip install 'localcount[sat]')",
    )
    ap.add_argument(
        "--max-nodes", type=int, default=None, help="give up the search after this many nodes (default: never)"
    )
    ap.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="give up the search after this long (default: never)",
    )
    ap.add_argument(
        "--json", action="store_true", help="print one JSON object instead: verdict, level, solutions, nodes, seconds"
    )
    _variant_option(ap, "the puzzle's variant: a nin or tatham file is read as one; a txt, non or xml file says its "
                    "own, and a different --variant is an error (default: what the file says)")  # fmt: skip
    return ap


def _variant_option(ap: argparse.ArgumentParser, what: str, default: str | None = None) -> None:
    """``--variant`` (checked by ``api.puzzles.load_variant``, not by argparse choices, for a one-line error)."""
    ap.add_argument("--variant", default=default, metavar="{nonogram,yesnogram}", help=what)


def explain_parser() -> argparse.ArgumentParser:
    """The arguments of ``explain``."""
    ap = Parser(prog="python -m localcount explain", description="Clues of a grid and what local logic makes of them.")
    ap.add_argument("--grid", required=True, help="rows of 0/1 separated by '/', e.g. 1010/0100/1010/0011")
    ap.add_argument("--replay", action="store_true", help="draw the grid after every step")
    _variant_option(ap, "the grid's clues: nonogram (default), or yesnogram (row clues count runs of 0s)", "nonogram")
    return ap


def examples_parser() -> argparse.ArgumentParser:
    """The arguments of ``examples``."""
    return Parser(prog="python -m localcount examples", description="List the shipped puzzles.")


def convert_parser() -> argparse.ArgumentParser:
    """The arguments of ``convert``."""
    ap = Parser(prog="python -m localcount convert", description="Convert a puzzle between formats.")
    ap.add_argument("source", help="a puzzle file, '-' for stdin, or a shipped example's name")
    ap.add_argument("--to", required=True, choices=formats.FORMATS, help="the output format")
    ap.add_argument("--format", choices=formats.FORMATS, help="the input format (default: guessed)")
    ap.add_argument("-o", "--output", help="write here instead of stdout")
    _variant_option(ap, "the input's variant, as for solve (a yesnogram is written as txt, non or xml only)")
    return ap


def solve_main(argv) -> int:
    """``solve``: local logic, then probing and the complete search; Ctrl-C stops it with 'interrupted', exit 130."""
    args = solve_parser().parse_args(argv)
    try:
        return _solve_main(args)
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    finally:
        api.compile_when_slow(None)


def _solve_main(args) -> int:
    limit = args.limit if args.limit is not None else (100 if args.all else 2)
    try:
        api.check_solve(args.method, limit, args.max_nodes, args.timeout)
        api.compile_when_slow(timeout=args.timeout, notice=say)
        p = load(args.source, args.format, args.variant)
        if hasattr(p, "palette"):
            return _solve_colour(p, args, limit)
        if args.json:
            print(json.dumps(_answer(p, api.solve(p, args.method, limit, args.max_nodes, args.timeout, True))))
            return 0
        return _solve_text(p, args, limit)
    except PuzzleError as err:
        say(f"error: {err}")
        return 2


def _solve_text(p, args, limit) -> int:
    title = f"{p.title} " if p.title else ""
    print(f"{title}({p.n} rows x {p.m} columns{_variant_note(p)})")
    sol = api.solve(p, args.method, limit, args.max_nodes, args.timeout, True,
                    lambda out, steps: _local_report(p, out, steps, args.trace, args.replay))  # fmt: skip
    out, steps, found = sol.local, sol.trace, sol.found
    if out.status != logic.STUCK and args.gif and write_picture(args.gif, lambda: pictures.gif(p, steps)):
        return 1
    if out.status == logic.SOLVED:
        print("unique: local logic only deduces what every solution shares, so this is the only one (level: line)")
        print(_difficulty_line(sol.steps, sol.rounds))
        return 1 if args.png and write_picture(args.png, lambda: pictures.png(p, out.filled, out.empty)) else 0
    print(f"{found.method}: {_summary(found, found.method)}")
    shown = found.solutions if args.all else found.solutions[:2]
    for k, g in enumerate(shown, 1):
        print(f"solution {k}:")
        print(pictures.grid_only(p.n, p.m, g), end="")
    if args.gif and out.status == logic.STUCK:  # local logic's steps, then the first solution found
        solution = found.solutions[0] if found.solutions else None
        if write_picture(args.gif, lambda: pictures.gif(p, steps, solution=solution)):
            return 1
    if p.goal is not None and found.solutions and p.goal not in found.solutions and found.complete:
        say("warning: the file's goal is not among the solutions")
    if args.png:
        full = (1 << (p.n * p.m)) - 1
        shown = (found.solutions[0], full & ~found.solutions[0]) if found.solutions else (out.filled, out.empty)
        if write_picture(args.png, lambda: pictures.png(p, *shown)):
            return 1
    return 0


def _variant_note(p) -> str:
    """What the title line says of a yesnogram: ', yesnogram: row clues count runs of 0s' (nothing for a nonogram)."""
    return ", yesnogram: row clues count runs of 0s" if p.variant == "yesnogram" else ""


def _colour_rows(p, cells) -> list:
    """A colour solution's rows as strings of its colours' characters."""
    chars = [ch for _, ch, _ in p.palette]
    return ["".join(chars[k] for k in cells[r * p.m : (r + 1) * p.m]) for r in range(p.n)]


def _solve_colour(p, args, limit) -> int:
    """``solve`` of a colour puzzle: local logic, probing and the search with the colour line solver."""
    if args.json:
        sol = api.solve(p, args.method, limit, args.max_nodes, args.timeout, True)
        found = sol.found
        answer = {"title": p.title, "rows": p.n, "columns": p.m, "palette": [{"name": n, "char": c, "rgb": h} for n, c, h in p.palette],
                  "verdict": sol.verdict, "level": sol.level, "solutions": [_colour_rows(p, cells) for cells in found.solutions],
                  "complete": found.complete, "method": "search", "nodes": found.nodes, "probes": found.probes,
                  "seconds": round(sol.seconds, 4)}  # fmt: skip
        print(json.dumps(answer))
        return 0

    def report(out, steps):
        title = f"{p.title} " if p.title else ""
        print(
            f"{title}({p.n} rows x {p.m} columns, {len(p.palette) - 1} colours: "
            + ", ".join(f"{c} {n}" for n, c, _ in p.palette[1:])
            + ")"
        )
        if args.trace:
            replayed = [(1 << len(p.palette)) - 1] * (p.n * p.m)
            for k, step in enumerate(steps, 1):
                print(f"step {k}: {step.line}: {colour.describe_step(p, step)}")
                if args.replay:
                    for i, mask in step.cells:
                        replayed[i] = mask
                    print(colour.draw(p, replayed))
        if out.status == colour.CONTRADICTION:
            print(f"contradiction: {out.line} has no colouring that fits its clue and the known cells")
        else:
            print(
                ("solved by local logic" if out.status == colour.SOLVED else "stuck: local logic leaves unknown cells")
                + f" ({len(steps)} line steps)"
            )
            print(colour.draw(p, out.board), end="")

    sol = api.solve(p, args.method, limit, args.max_nodes, args.timeout, True, report)
    found, board, steps = sol.found, sol.local.board, sol.trace
    solution = found.solutions[0] if found.solutions else None
    if args.gif and write_picture(args.gif, lambda: pictures.colour_gif(p, steps, solution=solution)):
        return 1
    if sol.local.status == colour.SOLVED:
        print("unique: local logic only deduces what every solution shares, so this is the only one (level: line)")
        return 1 if args.png and write_picture(args.png, lambda: pictures.colour_png(p, board)) else 0
    print(f"search: {_summary(found, 'search')}")
    for k, cells in enumerate(found.solutions if args.all else found.solutions[:2], 1):
        print(f"solution {k}:")
        print("\n".join(_colour_rows(p, cells)))
    if p.goal is not None and found.solutions and p.goal not in found.solutions and found.complete:
        say("warning: the file's goal is not among the solutions")
    if args.png:
        shown = [1 << k for k in found.solutions[0]] if found.solutions else board
        if write_picture(args.png, lambda: pictures.colour_png(p, shown)):
            return 1
    return 0


#: Why a search stopped early, as the summary says it.
_STOPPED = {"limit": "stopped at the limit of solutions", "nodes": "node limit reached", "time": "time limit reached"}


def _summary(found, method: str) -> str:
    """E.g. 'unique (level: probing; 3 nodes, 120 probes, 0.41 s)' or '4 solutions (all of them; ...)'."""
    k = len(found.solutions)
    verdict = f"{k} solutions, all of them" if found.complete and k >= 2 else found.verdict
    if not found.complete:
        verdict += f" ({_STOPPED.get(getattr(found, 'stopped', ''), 'stopped at the limit')})"
    counts = [plural(found.nodes, "SAT call" if method == "sat" else "node")]
    if getattr(found, "probes", 0):
        counts.append(plural(found.probes, "probe"))
    if method == "search+sat":
        counts.append(f"then {plural(found.sat_calls, 'SAT call')}")
    if getattr(found, "seconds", 0):
        counts.append(f"{found.seconds:.2f} s")
    level = f"level: {found.level}; " if getattr(found, "level", None) and found.complete else ""
    return f"{verdict} ({level}{', '.join(counts)})"


def _answer(p, sol) -> dict:
    """``solve --json``'s object for a black-and-white puzzle's ``api.puzzles.Solution``."""
    found = sol.found
    answer = {
        "title": p.title,
        "rows": p.n,
        "columns": p.m,
        "variant": p.variant,
        "verdict": sol.verdict,
        "level": sol.level,
        "solutions": [
            [format(g >> (r * p.m) & ((1 << p.m) - 1), f"0{p.m}b")[::-1] if p.m else "" for r in range(p.n)]
            for g in found.solutions
        ],
        "complete": found.complete,
        "method": found.method,
        "nodes": found.nodes,
        "probes": getattr(found, "probes", 0),
        "seconds": round(sol.seconds, 4),
    }
    if sol.local.status == logic.SOLVED:  # a simple puzzle: how long local logic takes
        answer["steps"], answer["rounds"] = sol.steps, sol.rounds
    return answer


def _difficulty_line(steps: int, rounds: int) -> str:
    """How long local logic takes on a simple puzzle, in steps and rounds (``logic.Difficulty``)."""
    return f"difficulty: {plural(steps, 'step')} ({plural(rounds, 'round')}; a step is a pass over every row or every column, rows first)"


def write_picture(path: str, make) -> bool:
    """Write ``make()``'s bytes to ``path``; True (after saying why) if it failed."""
    try:
        data = make()
    except ImportError:
        say("error: pictures need Pillow: pip install 'localcount[pictures]'")
        return True
    try:
        write_atomic(path, data)
    except OSError as err:
        say(f"error: cannot write {path}: {err.strerror}")
        return True
    return False


def explain_main(argv) -> int:
    """``explain --grid``: a grid's clues, local logic step by step, where it gets stuck."""
    args = explain_parser().parse_args(argv)
    try:
        variant = api.load_variant(args.variant)
        grid, n, m = parse_grid(args.grid)
    except ValueError as err:
        say(f"error: {err}")
        return 2
    p = formats.from_grid(grid, n, m, variant=variant)
    as_yes = " as a yesnogram (the row clues count runs of 0s)" if p.variant == "yesnogram" else ""
    print(f"a {n}x{m} grid; its clues{as_yes}:")
    print(formats.format_txt(p), end="")
    e = api.explain(p)
    _local_report(p, e.local, e.trace, True, args.replay)
    if e.status == logic.SOLVED:
        print(_difficulty_line(e.difficulty, e.rounds))
    if e.status == logic.STUCK:
        print(f"{len(e.unknown)} cells unknown; no line alone can decide any of them")
    return 0


def examples_main(argv) -> int:
    """``examples``: the shipped puzzles."""
    examples_parser().parse_args(argv)
    for name, p in examples.catalogue():
        print(f"{name:<14} {p.n:>2}x{p.m:<2}  {p.title}")
    return 0


def convert_main(argv) -> int:
    """``convert SRC --to FMT``: between puzzle formats."""
    args = convert_parser().parse_args(argv)
    try:
        text = formats.format_puzzle(load(args.source, args.format, args.variant), args.to)
    except PuzzleError as err:
        say(f"error: {err}")
        return 2
    return emit(text, args.output)


def emit(text: str, output: str | None) -> int:
    """Write a puzzle's text to ``output`` (atomically), or to stdout when None; exit status (1: cannot write)."""
    if output:
        try:
            write_atomic(output, text)
        except OSError as err:
            say(f"error: cannot write {output}: {err.strerror}")
            return 1
    else:
        print(text, end="", flush=True)
    return 0
