"""Print the number of uniquely solvable 2×m grids, m = 1 .. --max, and the seconds each took.

    python scripts/thin_unique.py                       # 2×1 .. 2×30, nonograms
    python scripts/thin_unique.py --max 24 --variant yesnogram
    python scripts/thin_unique.py --min 31 --max 32
    python scripts/thin_unique.py --min 0 --max 30 --bfile results/b-unique-2xm.txt

With ``--bfile`` it also writes an OEIS b-file (``m unique``, from ``--min``) with its provenance
in comment lines: what made it, when, on which machine, and what it was checked against
(``results/stats.csv`` by enumeration to 2×13, OEIS A383345 to 2×22: ``tests/test_thin_unique.py``).

One line per m: ``m unique seconds`` (each m counted on its own, nothing shared between them).
The method: ``localcount.engines.thin.unique`` (m×2 grids give the same numbers, and so do
yesnograms; see that module's doc).  The time roughly doubles with each m.
"""

from __future__ import annotations

import argparse
import datetime
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from localcount.clues import VARIANTS  # noqa: E402
from localcount.engines.thin.unique import unique_2xm  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--max", type=int, default=30, help="the largest m (default 30)")
    p.add_argument("--min", type=int, default=1, help="the smallest m (default 1)")
    p.add_argument("--variant", choices=VARIANTS, default="nonogram")
    p.add_argument("--bfile", help="also write the terms as an OEIS b-file with provenance here")
    args = p.parse_args(argv)
    print(f"# 2xm {args.variant}s: m unique seconds", flush=True)
    terms = []
    total = 0.0
    for m in range(max(args.min, 0), args.max + 1):
        start = time.perf_counter()
        count = unique_2xm(m, args.variant)
        seconds = time.perf_counter() - start
        total += seconds
        terms.append((m, count))
        print(f"{m} {count} {seconds:.2f}", flush=True)
    if args.bfile:
        write_bfile(pathlib.Path(args.bfile), terms, args, total)
    return 0


def write_bfile(path: pathlib.Path, terms: list, args, seconds: float) -> None:
    """The b-file of ``terms`` with its provenance, written atomically."""
    from localcount.util.files import write_atomic
    from localcount.util.provenance import cpu_model, git_commit
    from localcount.util.version import __version__

    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    command = " ".join(
        ["python", "scripts/thin_unique.py", "--min", str(args.min), "--max", str(args.max)]
        + (["--variant", args.variant] if args.variant != "nonogram" else [])
        + ["--bfile", path.name]
    )
    head = [
        f"# uniquely solvable 2 x m {args.variant} grids (OEIS A383345 for nonograms), m = {terms[0][0]}, {terms[0][0] + 1}, ...",
        "# computed by localcount.engines.thin.unique (a walk along the columns over the would-be twins; not an enumeration)",
        f"# {command}: localcount {__version__}, commit {git_commit() or 'unknown'}, {when}, {cpu_model()}, {seconds:.0f} s",
        "# checked (tests/test_thin_unique.py): brute force to 2x10, results/stats.csv (two enumeration paths) to 2x13,",
        "# and A383345's published terms to 2x22; m x 2 and yesnograms give the same numbers (engines/thin/unique.py)",
    ]
    write_atomic(path, "\n".join(head + [f"{m} {v}" for m, v in terms]) + "\n")


if __name__ == "__main__":
    sys.exit(main())
