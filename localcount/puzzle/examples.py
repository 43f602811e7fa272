"""The shipped puzzles (``localcount/puzzle/shipped/*.non``), by name.

Made by this project with ``scripts/make_examples.py``: pixel drawings and
random grids grown until local logic solves them; each file carries its
solution as the ``goal``.
"""

from __future__ import annotations

import pathlib

from .formats import parse_non
from .model import Puzzle

DIRECTORY = pathlib.Path(__file__).resolve().parent / "shipped"


def names() -> list:
    """The names of the shipped puzzles, sorted by size then name."""
    found = [(load(p.stem), p.stem) for p in DIRECTORY.glob("*.non")]
    return [name for p, name in sorted(found, key=lambda t: (t[0].n * t[0].m, t[1]))]


def exists(name: str) -> bool:
    """True if a shipped puzzle has this name."""
    return name.isidentifier() and (DIRECTORY / f"{name}.non").exists()


def load(name: str) -> Puzzle:
    """The shipped puzzle of this name."""
    path = DIRECTORY / f"{name}.non"
    return parse_non(path.read_text(), f"{name}.non")


def catalogue() -> list:
    """[(name, Puzzle)] of every shipped puzzle."""
    return [(name, load(name)) for name in names()]
