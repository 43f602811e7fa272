#!/usr/bin/env python
"""The simple fraction of random n×n grids against n, by ``sample``, beside the exact fractions of ``results/``.

    python scripts/sample_curve.py                     # n = 1..60, 100000 grids each, density 0.5
    python scripts/sample_curve.py --max 20 --count 20000 --csv /tmp/s.csv --png /tmp/s.png

For each n, ``localcount.api.sample.run_sample(n, n, density, count, seed)``
(sharded over ``--jobs`` processes, checkpointed in ``--checkpoint-dir``, so
an interrupted curve resumes); where ``results/local.csv`` has the exact
count of n×n (density 0.5 only: every grid equally likely), the exact
fraction beside it and whether it lies in the sample's 95 % interval.
Writes ``--csv`` (with a provenance header: the command, the date, the
machine, the commit) and ``--png`` (matplotlib), and prints the rows.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def exact_squares(results: pathlib.Path) -> dict:
    """n -> the exact simple fraction of n×n, from ``results/local.csv`` (its count column over 2^(n·n))."""
    out = {}
    path = results / "local.csv"
    if not path.exists():
        return out
    with path.open() as f:
        for row in csv.DictReader(line for line in f if not line.startswith("#")):
            n, m = int(row["n"]), int(row["m"])
            if n == m and n >= 1:
                out[n] = int(row["count"]) / 2 ** (n * n)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min", type=int, default=1)
    ap.add_argument("--max", type=int, default=60)
    ap.add_argument("--count", type=int, default=100_000, help="grids per size (default 100000)")
    ap.add_argument("--density", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--checkpoint-dir", default=os.path.join(tempfile.gettempdir(), "localcount-sample-curve"))
    ap.add_argument("--csv", default=str(ROOT / "results" / "sample-squares.csv"))
    ap.add_argument("--png", default=str(ROOT / "docs" / "sample-squares.png"))
    args = ap.parse_args()
    from localcount.api.feedback import Feedback
    from localcount.api.sample import run_sample
    from localcount.util import provenance

    exact = exact_squares(ROOT / "results") if args.density == 0.5 else {}
    rows = []
    start = time.perf_counter()
    for n in range(args.min, args.max + 1):
        out = run_sample(n, n, density=args.density, count=args.count, seed=args.seed, jobs=args.jobs,
                         checkpoint_dir=args.checkpoint_dir, feedback=Feedback.command_line(True))  # fmt: skip
        s = out.sample
        low, high = s.interval
        truth = exact.get(n)
        rows.append({"n": n, "grids": s.grids, "simple": s.simple, "fraction": f"{s.fraction:.6g}",
                     "low": f"{low:.6g}", "high": f"{high:.6g}", "mean_steps": f"{s.mean_steps:.4f}",
                     "exact": "" if truth is None else f"{truth:.6g}",
                     "inside": "" if truth is None else str(low <= truth <= high).lower(),
                     "seconds": f"{out.seconds:.1f}"})  # fmt: skip
        print(" ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    head = (f"# python scripts/sample_curve.py {' '.join(sys.argv[1:])}; density {args.density:g}, seed {args.seed}; "
            f"{time.strftime('%Y-%m-%d')}; {provenance.cpu_model()}; git {provenance.git_commit(str(ROOT))}; "
            f"{time.perf_counter() - start:.0f} s\n")  # fmt: skip
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    pathlib.Path(args.csv).write_text(head + text.getvalue())
    _plot(rows, exact, args)
    return 1 if any(r["inside"] == "false" for r in rows) else 0


def _plot(rows: list, exact: dict, args) -> None:
    """The fractions with their intervals, the exact ones beside them (a log scale: they fall fast)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    shown = [r for r in rows if r["simple"]]
    ns = [r["n"] for r in shown]
    frac = [float(r["fraction"]) for r in shown]
    err = [[f - float(r["low"]) for f, r in zip(frac, shown)], [float(r["high"]) - f for f, r in zip(frac, shown)]]
    ax.errorbar(ns, frac, yerr=err, fmt="o", ms=3, capsize=2, label=f"sample of {args.count} grids, 95 % interval")
    known = sorted((n, f) for n, f in exact.items() if args.min <= n <= args.max)
    if known:
        ax.plot([k[0] for k in known], [k[1] for k in known], "x", color="C3", ms=8, label="exact (results/local.csv)")
    ax.set_yscale("log")
    ax.set_xlabel("n (n x n grids)")
    ax.set_ylabel("fraction solved by local logic")
    ax.set_title(f"Random n x n grids, density {args.density:g}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png, metadata={"Software": "localcount", "CreationDate": None})
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
