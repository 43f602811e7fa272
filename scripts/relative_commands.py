"""Rewrite the recorded commands of results/ once: their paths relative to the results folder, not the machine's.

    python scripts/relative_commands.py            # rewrite the command column of results/ and results/yesnogram/
    python scripts/relative_commands.py --check    # only list the commands that still name an absolute path

Runs recorded before ``table`` wrote its paths relative to the results folder
(``util.provenance.relative_paths``) carry the command as run, with the
absolute paths of the machine that ran it (``--results /work/main/results
--checkpoint-dir /work/runs/ck``).  This rewrites the ``command`` column of
runs.csv, stats-runs.csv, local.csv and stats.csv the same way (the results
folder of a command: its own ``--results``), keeping every other byte of
every file; a file that would not be written back byte for byte is left
alone.  A command without an absolute path is kept as it is, so a second
run changes nothing.  Then ``python -m localcount table --render`` (and with
``--variant yesnogram``) refreshes the package's copies.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import pathlib
import shlex
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from localcount.results import records  # noqa: E402
from localcount.util.files import write_atomic  # noqa: E402
from localcount.util.provenance import has_absolute_path, relative_paths  # noqa: E402

FILES = (records.RUNS, records.STATS_RUNS, records.TABLE, records.STATS_TABLE)
PREFIX = ["python", "-m", "localcount"]


def relative_command(command: str) -> str:
    """A recorded command with its paths relative to its own ``--results`` (unchanged if it names no absolute path)."""
    if not has_absolute_path(command):
        return command
    words = shlex.split(command)
    if words[:3] != PREFIX:
        raise ValueError(f"not a localcount command: {command!r}")
    argv = words[3:]
    results = [argv[i + 1] for i, word in enumerate(argv[:-1]) if word == "--results"]
    if len(results) != 1 or not os.path.isabs(results[0]):
        raise ValueError(f"no absolute --results to make the paths relative to: {command!r}")
    out = shlex.join(PREFIX + relative_paths(argv, results[0], cwd=results[0]))
    if has_absolute_path(out):
        raise ValueError(f"still an absolute path in {out!r}")
    return out


def _csv_text(rows: list) -> str:
    """Rows as ``records`` writes them (csv, '\\n' line ends)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def rewrite(path: pathlib.Path, write: bool) -> list:
    """[(old, new)] commands of one results file that change; written back if ``write``."""
    text = path.read_text()
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if _csv_text(rows) != text:
        raise ValueError(f"{path}: not written as records writes it; left alone")
    column = rows[0].index("command")
    changed, new_rows = [], [rows[0]]
    for row in rows[1:]:
        new = relative_command(row[column])
        if new != row[column]:
            changed.append((row[column], new))
        new_rows.append(row[:column] + [new] + row[column + 1 :])
    new_text = _csv_text(new_rows)
    check = list(csv.reader(io.StringIO(new_text, newline="")))
    assert [r[:column] + r[column + 1 :] for r in check] == [r[:column] + r[column + 1 :] for r in rows]
    if write and changed:
        write_atomic(path, new_text)
    return changed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", default=str(ROOT / "results"), help="the results directory (default: the project's)")
    p.add_argument("--check", action="store_true", help="change nothing; exit 1 if a command names an absolute path")
    args = p.parse_args(argv)
    total = 0
    for variant in records.VARIANT_DIRS:
        for name in FILES:
            path = records.variant_dir(args.results, variant) / name
            if not path.exists():
                continue
            changed = rewrite(path, not args.check)
            total += len(changed)
            for old, new in sorted(set(changed)):
                print(f"{path}: {old}\n  -> {new}" if args.check else f"{path}: -> {new}")
    verb = "would rewrite" if args.check else "rewrote"
    print(f"{verb} {total} commands", file=sys.stderr)
    return 1 if args.check and total else 0


if __name__ == "__main__":
    sys.exit(main())
