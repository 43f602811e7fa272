"""Drawings of one puzzle: text for the terminal, PNG and GIF pictures, SVG.

* ``text`` — the text drawings: a puzzle with its clues and what is known (``draw``), a grid's cells alone
  (``grid_only``);
* ``raster`` — PNG and animated GIF pictures of a puzzle or a colour puzzle, and ``design``'s three panels
  (Pillow: the optional extra ``pictures``);
* ``svg`` — SVG drawings of puzzles and solutions (no dependency).

The functions of ``text`` and ``raster`` are also names of this package (``drawing.draw``, ``drawing.png``, ...),
which the commands use.  A colour puzzle's text drawing is ``solving.colour.draw``.

Imports ``model`` and ``clues`` only (Pillow inside the functions of ``raster``); nothing here loads numba.
"""

from .raster import colour_gif, colour_png, design_png, gif, png
from .text import draw, grid_only

__all__ = ["draw", "grid_only", "png", "gif", "colour_png", "colour_gif", "design_png"]
