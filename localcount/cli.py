"""Command line: ``python -m localcount [n [m]]`` prints the n×m count on stdout.

The size comes from the arguments or, when there are none, from stdin
(``echo "2 5" | python -m localcount``).  stdout holds the count alone;
progress, the time estimate and a summary line go to stderr.  Bad input exits
with status 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

from . import __version__

#: Sizes expected to take longer than this print their estimated time first.
ANNOUNCE_SECONDS = 60.0
#: Aim for progress updates about this often.
BATCH_SECONDS = 3.0


class UsageError(Exception):
    """Bad input: reported as one line on stderr with exit status 2."""


def parse_size(tokens) -> tuple:
    """(n, m) from one or two integer tokens; one number means a square."""
    if not tokens:
        raise UsageError("no size given: expected 'n' (a square) or 'n m' (n rows, m columns)")
    if len(tokens) > 2:
        raise UsageError(f"expected one or two numbers (n or n m), got {len(tokens)}: {' '.join(tokens)}")
    sizes = []
    for tok in tokens:
        if not re.fullmatch(r"[+-]?\d+", tok):
            raise UsageError(f"size must be a whole number, got {tok!r}")
        v = int(tok)
        if v < 0:
            raise UsageError(f"size must be non-negative, got {v}")
        sizes.append(v)
    n, m = sizes if len(sizes) == 2 else sizes * 2
    from .count import MAX_CELLS

    if n * m > MAX_CELLS:
        raise UsageError(f"{n}x{m} has {n * m} cells; at most {MAX_CELLS} cells are supported")
    return n, m


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m localcount",
        description="Count the n x m nonogram grids that local (line-by-line) logic solves.",
        epilog="With no size arguments the size is read from stdin, e.g. echo '2 5' | python -m localcount.",
    )
    p.add_argument("size", nargs="*", help="n (square) or n m (n rows, m columns)")
    p.add_argument("-j", "--jobs", type=int, default=None, help="threads (default: all cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress or summary on stderr")
    p.add_argument(
        "--no-symmetry",
        action="store_true",
        help="enumerate every grid instead of one border per symmetry class (slower; a cross-check)",
    )
    p.add_argument("--version", action="version", version=f"localcount {__version__}")
    return p


def _say(msg: str) -> None:
    print(f"localcount: {msg}", file=sys.stderr, flush=True)


def _format_seconds(s: float) -> str:
    if s < 120:
        return f"{s:.0f} s"
    if s < 7200:
        return f"{s / 60:.0f} min"
    if s < 3 * 86400:
        return f"{s / 3600:.1f} h"
    return f"{s / 86400:.0f} days"


def _split_argv(argv):
    """Pull negative numbers out of argv before argparse takes them for options."""
    sizes = [a for a in argv if re.fullmatch(r"-\d+", a)]
    return [a for a in argv if a not in sizes], sizes


def main(argv=None) -> int:
    """Entry point; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    rest, negatives = _split_argv(argv)
    args = _parser().parse_args(rest)
    try:
        if negatives:
            raise UsageError(f"size must be non-negative, got {negatives[0]}")
        tokens = args.size if args.size else sys.stdin.read().split()
        n, m = parse_size(tokens)
        if args.jobs is not None and args.jobs < 1:
            raise UsageError(f"--jobs must be at least 1, got {args.jobs}")
    except UsageError as err:
        _say(f"error: {err}")
        return 2
    return _run(n, m, args)


def _run(n: int, m: int, args) -> int:
    import numba
    from tqdm import tqdm

    from .count import count, estimate_seconds, plan

    threads = min(args.jobs or os.cpu_count() or 1, numba.config.NUMBA_NUM_THREADS)
    numba.set_num_threads(threads)
    symmetry = not args.no_symmetry
    quiet = args.quiet
    p = plan(n, m)
    batch = 64
    if n * m > 24:
        est = estimate_seconds(n, m, symmetry)
        if est > ANNOUNCE_SECONDS:
            _say(f"{n}x{m} is 2^{n * m} grids; estimated time {_format_seconds(est)} on {threads} threads")
        per_unit = est * threads / p.units  # one thread's seconds per unit
        batch = max(threads, min(p.units, int(threads * BATCH_SECONDS / max(per_unit, 1e-9))))
    bar = tqdm(
        total=2 ** (n * m),
        unit="grid",
        unit_scale=True,
        file=sys.stderr,
        disable=quiet or not sys.stderr.isatty(),
        desc=f"{n}x{m}",
    )
    done = [0]

    def progress(units_done, units_total, elapsed):
        grids = units_done << p.inner_bits
        bar.update(grids - done[0])
        done[0] = grids

    start = time.perf_counter()
    try:
        total = count(n, m, symmetry=symmetry, batch=batch, progress=progress)
    except KeyboardInterrupt:
        bar.close()
        _say("interrupted; nothing was saved (checkpoints come with sharded runs)")
        return 130
    bar.close()
    wall = time.perf_counter() - start
    print(total, flush=True)
    if not quiet:
        _say(f"{n}x{m}: {total} of 2^{n * m} grids locally solvable; {wall:.2f} s on {threads} threads")
    return 0
