#!/usr/bin/env python
"""Make the shipped puzzles: localcount/puzzle/shipped/*.non (deterministic: run it again, get the same files).

    python scripts/make_examples.py            # write the files
    python scripts/make_examples.py --check    # exit 1 if a file differs from what would be written

Two kinds, both made here:

* pixel drawings (``DRAWINGS``), kept only if their clues have one
  solution (complete search); the title says whether local logic alone
  solves them;
* random grids (``RANDOM``: size, density, seed) grown until local logic
  solves them: while cells stay unknown, flip a random unknown cell;
* random grids that local logic leaves stuck but whose clues have one
  solution (``STUCK``: the first such grid from the seed on), for the search;
* for large sizes, where such grids are rare, random grids made unique
  (``DISAMBIGUATED``): while the search finds two solutions, flip a cell
  where they differ; kept if local logic still gets stuck.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from localcount.clues import grid_from_rows  # noqa: E402
from localcount.puzzle import formats  # noqa: E402
from localcount.puzzle.solving import search as solve  # noqa: E402

DRAWINGS = {
    "heart": """
        .XX...XX.
        XXXX.XXXX
        XXXXXXXXX
        XXXXXXXXX
        .XXXXXXX.
        ..XXXXX..
        ...XXX...
        ....X....
    """,
    "cat": """
        X........X
        XX......XX
        XXX....XXX
        XXXXXXXXXX
        XX.XXXX.XX
        XXXXXXXXXX
        XXX.XX.XXX
        .XXX..XXX.
        ..XXXXXX..
        ...XXXX...
    """,
    "house": """
        ....XX....
        ...XXXX...
        ..XXXXXX..
        .XXXXXXXX.
        XXXXXXXXXX
        .X......X.
        .X.XX.X.X.
        .X.XX...X.
        .X.XX...X.
        .XXXXXXXX.
    """,
    "tree": """
        .....XX.....
        ....XXXX....
        ...XXXXXX...
        ....XXXX....
        ...XXXXXX...
        ..XXXXXXXX..
        ...XXXXXX...
        ..XXXXXXXX..
        .XXXXXXXXXX.
        XXXXXXXXXXXX
        .....XX.....
        ....XXXX....
    """,
    "duck": """
        ....XXX.....
        ...XXXXX....
        ..XX.XXX....
        XXXXXXXX....
        ...XXXX.....
        ....XXX.....
        ...XXXXXXXX.
        ..XXXXXXXXXX
        ..XXX.XXXXXX
        ..XXXX...XX.
        ...XXXXXXX..
        .....XXX....
    """,
    "key": """
        ..XXXX.........
        .XX..XX........
        XX....XXXXXXXXX
        XX....XXXXXXXXX
        .XX..XX....X.XX
        ..XXXX.....X.X.
    """,
    "sailboat": """
        .......X.......
        .......XX......
        ......XXXX.....
        ......XXXXX....
        .....XXXXXX....
        .....XXXXXXX...
        ....XXXXXXXX...
        ....XXXXXXXXX..
        ...XXXXXXXXXX..
        .......X.......
        XXXXXXXXXXXXXXX
        .XXXXXXXXXXXXX.
        ..XXXXXXXXXXX..
        ...............
        XX..XX..XX..XX.
    """,
    "arrow": """
        ..........X.........
        ..........XX........
        ..........XXX.......
        ..........XXXX......
        XXXXXXXXXXXXXXX.....
        XXXXXXXXXXXXXXXX....
        XXXXXXXXXXXXXXX.....
        ..........XXXX......
        ..........XXX.......
        ..........XX........
        ..........X.........
    """,
}

#: name: (rows, cols, fraction of filled cells, seed)
RANDOM = {
    "grow5": (5, 5, 0.5, 1),
    "grow6": (6, 6, 0.5, 2),
    "grow8": (8, 8, 0.5, 3),
    "grow10": (10, 10, 0.5, 4),
    "grow10x15": (10, 15, 0.55, 5),
    "grow12": (12, 12, 0.5, 6),
    "grow15": (15, 15, 0.5, 7),
    "grow15x20": (15, 20, 0.55, 8),
    "grow20": (20, 20, 0.5, 9),
    "grow25": (25, 25, 0.55, 10),
    "grow30": (30, 30, 0.5, 11),
    "grow30b": (30, 30, 0.6, 12),
}


#: name: (rows, cols, fraction of filled cells, first seed)
STUCK = {
    "stuck8": (8, 8, 0.5, 100),
    "stuck12": (12, 12, 0.5, 200),
    "stuck20": (20, 20, 0.5, 300),
}


#: name: (rows, cols, fraction of filled cells, first seed)
DISAMBIGUATED = {
    "stuck30": (30, 30, 0.5, 0),
}
#: The search gives up on a seed after this many nodes (random 30x30 grids can be very hard).
MAX_NODES = 3000


def drawing(art: str) -> tuple:
    """(grid, n, m) of a drawing: X filled, . empty."""
    rows = [r.strip() for r in art.strip().splitlines()]
    m = len(rows[0])
    assert all(len(r) == m and set(r) <= set("X.") for r in rows), rows
    return grid_from_rows([sum(1 << c for c, v in enumerate(r) if v == "X") for r in rows], m), len(rows), m


def grow(n: int, m: int, density: float, seed: int) -> int:
    """A random grid changed cell by cell until local logic solves its clues."""
    rng = random.Random(seed)
    grid = sum(1 << k for k in range(n * m) if rng.random() < density)
    while True:
        out = solve.local(formats.from_grid(grid, n, m))
        if out.status == "solved":
            return grid
        unknown = [k for k in range(n * m) if not out.known >> k & 1]
        grid ^= 1 << rng.choice(unknown)


def stuck_unique(n: int, m: int, density: float, seed: int) -> int:
    """The first random grid (seeds from ``seed`` on) that local logic leaves stuck and that is uniquely solvable."""
    while True:
        rng = random.Random(seed)
        grid = sum(1 << k for k in range(n * m) if rng.random() < density)
        p = formats.from_grid(grid, n, m)
        if solve.local(p).status == "stuck" and solve.plain_search(p, limit=2).verdict == solve.UNIQUE:
            return grid
        seed += 1


def disambiguated(n: int, m: int, density: float, seed: int) -> int:
    """A random grid, changed where two solutions differ until its clues have one solution but local logic is stuck."""
    while True:
        rng = random.Random(seed)
        grid = sum(1 << k for k in range(n * m) if rng.random() < density)
        while True:
            p = formats.from_grid(grid, n, m)
            if solve.local(p).status == "solved":
                break
            found = solve.plain_search(p, limit=2, max_nodes=MAX_NODES)
            if found.verdict == solve.UNIQUE:
                return grid
            if found.verdict != solve.MULTIPLE:
                break
            a, b = found.solutions[:2]
            grid ^= 1 << rng.choice([k for k in range(n * m) if (a ^ b) >> k & 1])
        seed += 1


def puzzles() -> dict:
    """name -> Puzzle of every shipped puzzle."""
    out = {}
    for name, art in DRAWINGS.items():
        grid, n, m = drawing(art)
        p = formats.from_grid(grid, n, m)
        found = solve.plain_search(p, limit=2)
        if found.verdict != solve.UNIQUE:
            print(f"skipped {name}: {found.verdict}", file=sys.stderr)
            continue
        how = "local logic solves it" if solve.local(p).status == "solved" else "needs search"
        out[name] = formats.from_grid(grid, n, m, f"{name} (drawing; {how})")
    for name, (n, m, density, seed) in RANDOM.items():
        out[name] = formats.from_grid(
            grow(n, m, density, seed), n, m, f"{name} (random, grown until local logic solves it)"
        )
    for name, (n, m, density, seed) in STUCK.items():
        grid = stuck_unique(n, m, density, seed)
        out[name] = formats.from_grid(grid, n, m, f"{name} (random; local logic gets stuck, one solution)")
    for name, (n, m, density, seed) in DISAMBIGUATED.items():
        grid = disambiguated(n, m, density, seed)
        out[name] = formats.from_grid(grid, n, m, f"{name} (random, made unique; local logic gets stuck, one solution)")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = ap.parse_args()
    directory = ROOT / "localcount" / "puzzle" / "shipped"
    directory.mkdir(exist_ok=True)
    status = 0
    for name, p in puzzles().items():
        path = directory / f"{name}.non"
        text = formats.format_non(p)
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path} differs from what make_examples.py writes", file=sys.stderr)
                status = 1
        else:
            path.write_text(text)
            print(f"{name}: {p.n}x{p.m} {p.title}")
    return status


if __name__ == "__main__":
    sys.exit(main())
