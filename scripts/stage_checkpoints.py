"""Stage the checkpoint logs of a running count for a commit, whole lines only.

    python scripts/stage_checkpoints.py [results/checkpoints]

A running count appends to its log while git reads it, so a plain
``git add`` may catch half a record (the resumed run would repair it, but
the committed file would be damaged).  This stages each ``*.log``,
``*.sessions`` file (where the shards were counted) and ``*.sample`` file (a
GPU count's sample, fixed before its first shard: ``orchestration.verify``)
cut after its last newline, read once, and leaves the file on disk alone.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys


def whole_lines(data: bytes) -> bytes:
    """``data`` up to and including its last newline."""
    return data[: data.rfind(b"\n") + 1]


def stage(path: pathlib.Path) -> int:
    """Stage ``path``'s whole lines in git's index; the number of records (or sessions) staged."""
    data = whole_lines(path.read_bytes())
    blob = (
        subprocess.run(["git", "hash-object", "-w", "--stdin"], input=data, capture_output=True, check=True)
        .stdout.decode()
        .strip()
    )
    subprocess.run(["git", "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"], check=True)
    header = path.suffix in (".log", ".sample")  # their first line is a header; a sessions file has none
    return max(0, data.count(b"\n") - header)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = pathlib.Path(args[0] if args else "results/checkpoints")
    logs = sorted(directory.glob("*.log"))
    if not logs:
        print(f"stage_checkpoints: no *.log in {directory}", file=sys.stderr)
        return 1
    for path in logs + sorted(directory.glob("*.sessions")) + sorted(directory.glob("*.sample")):
        what = {".log": "records", ".sessions": "sessions"}.get(path.suffix, "lines (sample)")
        print(f"{path}: {stage(path)} {what} staged", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
