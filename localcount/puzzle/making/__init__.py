"""Making puzzles: random simple ones of a chosen difficulty, and simple ones that look like a picture.

* ``generate`` — random simple puzzles of a chosen difficulty in steps;
* ``design`` — simple puzzles that look like a picture (reading pictures needs the optional extra ``pictures``;
  the shipped pictures are in ``puzzle/shipped/pictures/``).

Both make nonograms, and check what they make with local logic.

Imports ``solving.logic``, ``clues`` and ``tuning`` (Pillow inside ``design.load_grey``); nothing here loads numba.
"""
