#!/usr/bin/env python
"""Draw the shipped pictures for ``design``: localcount/puzzle/shipped/pictures/*.png (no downloads).

    python scripts/make_pictures.py            # write the files
    python scripts/make_pictures.py --check    # exit 1 if a file's pixels differ from what would be drawn

Grey-level drawings, SIZE × SIZE pixels, drawn four times larger and
scaled down (soft edges, as a photo's would be), each with something
``design`` must work for:

* ``heart`` — a solid black shape on white (most cells far from the threshold);
* ``smiley`` — a light-grey face with black outline, eyes and mouth (thin lines);
* ``moon`` — a blurred crescent, stars and hills on a grey sky (soft edges: many cells near the threshold).

Needs Pillow (the optional extra ``pictures``).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFilter

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "localcount" / "puzzle" / "shipped" / "pictures"
SIZE = 96
SCALE = 4


def _canvas(colour: int = 255):
    """(image, draw) of a SCALE-times larger grey canvas."""
    img = Image.new("L", (SIZE * SCALE, SIZE * SCALE), colour)
    return img, ImageDraw.Draw(img)


def _down(img) -> Image.Image:
    """Back to SIZE × SIZE, averaging."""
    return img.resize((SIZE, SIZE), Image.Resampling.BOX)


def heart() -> Image.Image:
    """Two circles and a triangle, black on white."""
    img, d = _canvas()
    s = SCALE
    d.ellipse((10 * s, 14 * s, 50 * s, 54 * s), fill=0)
    d.ellipse((46 * s, 14 * s, 86 * s, 54 * s), fill=0)
    d.polygon([(12 * s, 40 * s), (84 * s, 40 * s), (48 * s, 86 * s)], fill=0)
    return _down(img)


def smiley() -> Image.Image:
    """A light-grey face: black outline, eyes and a smiling mouth."""
    img, d = _canvas()
    s = SCALE
    d.ellipse((8 * s, 8 * s, 88 * s, 88 * s), fill=205, outline=0, width=6 * s)
    d.ellipse((30 * s, 28 * s, 40 * s, 44 * s), fill=0)
    d.ellipse((56 * s, 28 * s, 66 * s, 44 * s), fill=0)
    d.arc((26 * s, 34 * s, 70 * s, 72 * s), start=20, end=160, fill=0, width=5 * s)
    return _down(img)


def moon() -> Image.Image:
    """A dark crescent, stars and hills with blurred edges on a grey sky."""
    img, d = _canvas(170)
    s = SCALE
    d.ellipse((10 * s, 8 * s, 62 * s, 60 * s), fill=30)
    d.ellipse((26 * s, 2 * s, 74 * s, 50 * s), fill=170)
    for x, y, r in ((72, 14, 3), (84, 32, 2), (62, 50, 2), (80, 56, 3), (50, 22, 2)):
        d.ellipse(((x - r) * s, (y - r) * s, (x + r) * s, (y + r) * s), fill=20)
    d.ellipse((-30 * s, 70 * s, 50 * s, 130 * s), fill=60)
    d.ellipse((30 * s, 78 * s, 130 * s, 140 * s), fill=90)
    img = img.filter(ImageFilter.GaussianBlur(2 * s))
    return _down(img)


PICTURES = {"heart": heart, "smiley": smiley, "moon": moon}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if a shipped picture differs from its drawing")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    bad = 0
    for name, draw in PICTURES.items():
        path, img = OUT / f"{name}.png", draw()
        if args.check:
            same = path.exists() and ImageChops.difference(Image.open(path).convert("L"), img).getbbox() is None
            bad += not same
            print(f"{path.relative_to(ROOT)}: {'up to date' if same else 'differs'}")
        else:
            img.save(path, optimize=True)
            print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size} bytes)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
