"""Build a size's index by two paths, check it against the recorded results, and ship it in the package.

    python scripts/ship_numbering.py 5 5                       # nonograms
    python scripts/ship_numbering.py 5 5 --variant yesnogram
    python scripts/ship_numbering.py 6 6 --checkpoint-dir /work/runs/index-ck

The first path is the numbering engine with the mirror (``python -m localcount index``).  The
second, where it is affordable (``--second none``, the default up to SECOND_NONE_CELLS cells), is
the same engine computing every block, compared block by block; every size of two rows or more is
also compared per top row with the *grid* engine (``api.numbering.check_first_rows``), and its steps
histogram with the stats engine's recorded one (results/stats.csv, two independent runs).  Nothing
is shipped unless everything agrees; the file's ``meta`` lists the runs and the checks.

Writes ``localcount/results/shipped/index/NxM[-yes].npz``; prints a summary on stdout.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from localcount.api import numbering  # noqa: E402
from localcount.api.feedback import Feedback  # noqa: E402
from localcount.results import numberings, records  # noqa: E402

#: Sizes up to this many cells are built a second time with every block (the mirror's check).
SECOND_NONE_CELLS = 30


def recorded_steps(n: int, m: int, variant: str) -> dict | None:
    """The stats table's steps histogram of n×m (either orientation), or None."""
    directory = ROOT / "results" / ("yesnogram" if variant == "yesnogram" else "")
    a, b = sorted((n, m))
    for row in records.read_stats_table(directory):
        if (row.n, row.m) == (a, b) and row.steps:
            return records.parse_rounds(row.steps)
    return None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("n", type=int)
    p.add_argument("m", type=int)
    p.add_argument("--variant", default="nonogram")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--checkpoint-dir", default=None)
    p.add_argument(
        "--second",
        choices=("auto", "none", "rows"),
        default="auto",
        help="none: build every block again and compare; rows: only the grid engine's per-row check",
    )
    p.add_argument("--output", default=str(numberings.SHIPPED), help="where the checked index goes")
    args = p.parse_args(argv)
    n, m, variant = args.n, args.m, args.variant
    feedback = Feedback.command_line(False)
    second = args.second if args.second != "auto" else ("none" if n * m <= SECOND_NONE_CELLS else "rows")
    with tempfile.TemporaryDirectory() as tmp:
        first = numberings.read(numbering.build_numbering(n, m, variant=variant, jobs=args.jobs, checkpoint_dir=args.checkpoint_dir,
                                               directory=f"{tmp}/mirror", feedback=feedback))  # fmt: skip
        runs, checked = list(first.meta["runs"]), list(first.meta["checked"])
        if second == "none":
            other = numberings.read(numbering.build_numbering(n, m, variant=variant, symmetry="none", jobs=args.jobs,
                                                   checkpoint_dir=args.checkpoint_dir, directory=f"{tmp}/none",
                                                   feedback=feedback))  # fmt: skip
            if not (other.counts.shape == first.counts.shape and (other.counts == first.counts).all()):
                raise SystemExit(f"{n}x{m}: the two numbering paths disagree; nothing shipped")
            runs += other.meta["runs"]
            checked.append(f"every block: {other.meta['runs'][0]['code_path']} (every block computed)")
    if n >= 2 and first.rows >= 1:
        start = time.perf_counter()
        checked.append(numbering.check_first_rows(first) + f" in {time.perf_counter() - start:.1f} s")
    steps = recorded_steps(n, m, variant)
    if steps is not None:
        checked.append(
            numbering.check_steps(
                first, steps, "results/" + ("yesnogram/" if variant == "yesnogram" else "") + "stats.csv"
            )
        )
    meta = dict(first.meta, runs=runs, checked=checked)
    out = pathlib.Path(args.output) / numberings.name(n, m, variant)
    numberings.write(out, numberings.NumberingFile(n, m, variant, first.rows, first.counts, meta))
    print(json.dumps({"file": str(out.relative_to(ROOT) if out.is_relative_to(ROOT) else out), "bytes": out.stat().st_size,
                      "solvable": first.solvable, "runs": [r["key"] for r in runs], "checked": checked}, indent=1))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
