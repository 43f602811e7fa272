"""Puzzle files: read and write single nonograms in five formats, keeping what each file says about its puzzle.

A *Puzzle* (``model.py``) is its row clues (top to bottom), column clues
(left to right), optionally the intended solution (``goal``, a Grid), its
metadata (title, author, copyright, licence, catalogue) and the cells given
at the start (``given_filled``, ``given_empty``).  Formats, each a
parse/format pair in a module of its own, whose doc describes the format:

* ``txt`` — this project's plain text;
* ``non`` — Steve Simpson's ``.non`` as extended by nonogram-db, colour included;
* ``nin`` — the format of Jakub Wilk's ``nonogram`` solver, also exported by webpbn;
* ``tatham`` — Simon Tatham's Pattern game IDs, given cells included;
* ``xml`` — webpbn's XML, colour included (parsed by ``defusedxml``);
* ``common`` — what they share: clue numbers and sizes, ``check`` and ``check_givens``.

This module holds the dispatch (``read``, ``parse``, ``format_puzzle``,
the format told from a suffix or a text) and re-exports the public names of
the format modules, so that callers write ``formats.parse_txt`` and the
like.  A colour puzzle (``solving.colour.ColourPuzzle``, more than one
colour in a ``non`` or ``xml`` file) is written back to those two only.

Yesnograms (``Puzzle.variant``; rows count runs of 0s): ``txt`` says so in
a comment above the size, ``// variant: yesnogram``; ``non`` in a keyword
line, ``variant yesnogram``; ``xml`` in an attribute of the puzzle,
``<puzzle type="grid" variant="yesnogram" ...>``.  A file that says
nothing (or ``nonogram``) is a nonogram, and a nonogram is written without
the mark, as before.  ``nin`` and ``tatham`` have no room for it:
``format_puzzle`` refuses to write a yesnogram in them (a reader would take
its row clues for runs of 1s), and read a file of theirs as a yesnogram
only when told (``read``'s ``variant``).  The checks of ``check`` follow
the variant (a yesnogram's row clues count its empty cells).

What a format cannot hold is left out when writing it: metadata in ``nin``
and ``tatham``, the goal in ``txt``, ``nin`` and ``tatham``, given cells in
all but ``tatham``.  ``read`` takes the format from its argument, else the
file's suffix, else the content, and says whether it guessed, so that the
caller can report it (``guessed_message``); a text that is none of the
formats is an error naming them.  Errors are ``PuzzleError`` with the line
number where there is one; the command line turns them into exit status 2.

Imports ``model`` and ``clues``; ``non`` and ``xml`` import
``solving.colour`` when a file has colours, and ``xml`` imports
``defusedxml``.  Nothing here loads numba.
"""

from __future__ import annotations

import pathlib
import re

from ..model import METADATA, Puzzle, PuzzleError, from_grid
from .common import check, check_givens, clue_problem
from .nin import format_nin, parse_nin
from .non import NON_DEFAULT_HEX, NON_KEYS, format_non, parse_non
from .tatham import format_tatham, format_tatham_givens, parse_tatham, parse_tatham_givens
from .txt import TXT_KEYS, format_txt, parse_txt
from .xml import XML_KEYS, format_xml, parse_xml

__all__ = [
    "FORMATS", "VARIANT_MARKS", "VARIANT_FORMATS", "SUFFIXES", "PARSERS", "FORMATTERS",
    "read", "parse", "format_puzzle", "guess_format", "content_format", "guessed_message",
    "METADATA", "Puzzle", "PuzzleError", "from_grid", "check", "check_givens", "clue_problem",
    "TXT_KEYS", "parse_txt", "format_txt", "NON_DEFAULT_HEX", "NON_KEYS", "parse_non", "format_non",
    "parse_nin", "format_nin", "parse_tatham", "format_tatham", "parse_tatham_givens", "format_tatham_givens",
    "XML_KEYS", "parse_xml", "format_xml",
]  # fmt: skip

FORMATS = ("txt", "non", "nin", "tatham", "xml")
#: The formats that can say a puzzle is a yesnogram (module doc), and how.
VARIANT_MARKS = {"txt": "txt marks a yesnogram with '// variant: yesnogram' above the size",
                 "non": "non marks a yesnogram with a line 'variant yesnogram'",
                 "xml": 'xml marks a yesnogram with <puzzle variant="yesnogram">'}  # fmt: skip
VARIANT_FORMATS = tuple(VARIANT_MARKS)
#: File suffixes that name a format.
SUFFIXES = {".txt": "txt", ".non": "non", ".nin": "nin", ".xml": "xml", ".pbn": "xml", ".pattern": "tatham"}

PARSERS = {"txt": parse_txt, "non": parse_non, "nin": parse_nin, "tatham": parse_tatham, "xml": parse_xml}
FORMATTERS = {"txt": format_txt, "non": format_non, "nin": format_nin, "tatham": format_tatham, "xml": format_xml}


def _parse_as(fmt: str, text: str, source: str = "", variant: str | None = None) -> Puzzle:
    """The puzzle of a text in a format; ``variant``: what a format that cannot say it reads (None: nonogram)."""
    if variant is not None and fmt not in VARIANT_FORMATS:
        return PARSERS[fmt](text, source, variant=variant)
    return PARSERS[fmt](text, source)


def _reads_as(fmt: str, text: str, variant: str | None = None) -> bool:
    """True if the text is a puzzle in this format (``variant``: as ``_parse_as``)."""
    try:
        _parse_as(fmt, text, "", variant)
    except PuzzleError:
        return False
    return True


def _size_line(text: str) -> str | None:
    """The first line that is neither blank nor a // comment, without its comment; None if there is none."""
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if line:
            return line
    return None


def content_format(text: str, variant: str | None = None) -> str | None:
    """The format a text looks like, or None; between txt and nin (which read each other's files transposed), nin
    only when the text is a nin puzzle and not a txt one (nin read as a ``variant`` puzzle, if given)."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return "xml"
    if re.match(r"\d+(x\d+)?:", head):
        return "tatham"
    if re.search(r"^[ \t]*((width|height)\s|(rows|columns)[ \t]+\d)", text, re.M | re.I):
        return "non"
    first = _size_line(text)
    if first is None or not re.fullmatch(r"\d+(\s*x\s*\d+|\s+\d+)?", first):
        return None
    if re.fullmatch(r"\d+[ \t]+\d+", first) and _reads_as("nin", text, variant) and not _reads_as("txt", text):
        return "nin"
    return "txt"


def _unknown(text: str, source: str) -> PuzzleError:
    """The error for a text that is none of the formats."""
    empty = " (it is empty)" if not text.strip() else ""
    return PuzzleError(
        f"could not tell the format of {source or 'the input'}{empty}; these are supported: {', '.join(FORMATS)}"
    )


def guess_format(text: str, name: str = "") -> str:
    """The format of a file, from its suffix, else from its content; PuzzleError if it is none of them."""
    fmt = SUFFIXES.get(pathlib.Path(name).suffix.lower()) or content_format(text)
    if fmt is None:
        raise _unknown(text, name)
    return fmt


def read(text: str, fmt: str | None = None, source: str = "", variant: str | None = None) -> tuple:
    """(puzzle, its format, guessed): ``guessed`` is True when neither ``fmt`` nor the suffix of ``source`` named the
    format and it was told from the content (say so: see ``guessed_message``).

    ``variant`` (None: whatever the file says): the puzzle's variant.  A
    format that cannot say it (nin, tatham) is read as that variant; in the
    others the file says it (no mark: a nonogram), and a file that says the
    other one is a PuzzleError.
    """
    text = text.removeprefix("\ufeff")
    guessed = False
    if fmt is None:
        fmt = SUFFIXES.get(pathlib.Path(source).suffix.lower())
        guessed = fmt is None
        fmt = fmt or content_format(text, variant)
        if fmt is None:
            raise _unknown(text, source)
    if fmt not in PARSERS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    p = _parse_as(fmt, text, source, variant)
    said = getattr(p, "variant", "nonogram")
    if variant is not None and hasattr(p, "palette") and variant != "nonogram":
        raise PuzzleError(f"it is a colour puzzle, not a {variant}", None, source)
    if variant is not None and said != variant:
        how = f" ({VARIANT_MARKS[fmt]})" if variant == "yesnogram" else ""
        raise PuzzleError(f"it is a {said}, not a {variant}{how}", None, source)
    return p, fmt, guessed


def guessed_message(text: str, fmt: str, source: str = "") -> str:
    """The line that reports a guessed format, e.g. 'guessed the format of p: non (give --format to choose)'."""
    other = {"txt": "nin", "nin": "txt"}.get(fmt)
    note = f"{other} would read it transposed; " if other and _reads_as(other, text.removeprefix("\ufeff")) else ""
    return f"guessed the format of {source or 'the input'}: {fmt} ({note}give --format to choose)"


def parse(text: str, fmt: str | None = None, source: str = "") -> Puzzle:
    """A puzzle from text in a format (guessed when None)."""
    return read(text, fmt, source)[0]


def format_puzzle(p: Puzzle, fmt: str) -> str:
    """A puzzle as text in a format."""
    if fmt not in FORMATTERS:
        raise PuzzleError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")
    if hasattr(p, "palette") and fmt not in ("xml", "non"):
        raise PuzzleError(f"a colour puzzle can be written as xml or non only, not {fmt}")
    if getattr(p, "variant", "nonogram") != "nonogram" and fmt not in VARIANT_FORMATS:
        raise PuzzleError(f"{fmt} cannot say that a puzzle is a {p.variant} (its rows would read as a nonogram's); "
                          f"write it as {', '.join(VARIANT_FORMATS[:-1])} or {VARIANT_FORMATS[-1]}")  # fmt: skip
    return FORMATTERS[fmt](p)
