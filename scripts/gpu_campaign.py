#!/usr/bin/env python
"""A lent GPU in one call: check the machine, count a known size, choose the kernel variant where this GPU model
has none, then advance the GPU campaigns, all within one budget (docs/gpu.md, "A lent GPU: one call").

    python3 scripts/gpu_campaign.py --out $OUT --max-seconds 480      # on the lent machine, numpy<2.5 carried
    python scripts/gpu_campaign.py --out /tmp/out --check 2x3 --plan 2x5,3x3 --max-seconds 60   # NUMBA_ENABLE_CUDASIM=1
    python scripts/gpu_campaign.py --adopt OUT/variants.json           # a measured choice into choices.json

Steps, in order; each starts only if it is expected to fit what is left of ``--max-seconds`` (counted from the
start) less ``--margin`` seconds kept for writing the files:

1. *Requirements*, nothing installed: numpy 2.4 or older (numba-cuda 0.30.4 compiles nothing under numpy 2.5,
   which has no ``np.row_stack``), numba, numba-cuda (in numba's CUDA simulator, ``NUMBA_ENABLE_CUDASIM=1``,
   numba's own CUDA target does), tqdm (a count's progress bar), and a CUDA device
   (``localcount.engines.gpu.count.available``; the simulator counts as one).  Each one missing is a line on
   stderr, and the exit status is 2.
2. *The check*: ``--check`` (6x6) counted on the GPU (``lc.run_count(n, m, method="gpu")``, in a temporary
   checkpoint directory: nothing resumed) against its recorded count (``lc.known``).  A difference stops the
   call: exit status 1.  Its seconds (a compile and a count) are what a later step needs to start.
3. *The kernel variants*, for the ``--plan`` sizes without a stored choice for this GPU model
   (``count.chosen_kernel``, ``localcount/engines/gpu/choices.json``): ``gpu_variants.time_variants``'s slices,
   all within ``--variants-seconds`` and half the budget left.  A size whose every variant was timed, counting
   alike, gets the fastest; ``OUT/variants.json`` holds the measurement in choices.json's shape (``--adopt``
   merges it there for a commit) and the runs that follow use it ($LOCALCOUNT_GPU_CHOICES).  A count unlike its
   reference: exit status 1.
4. *The campaign*: each ``--plan`` size in turn, ``lc.run_count(n, m, method="gpu", checkpoint_dir=DIR,
   max_seconds=S)`` with S the budget left less the margin, the next size only once one is complete; a size
   completed here is compared with its recorded count where there is one (exit status 1 on a difference).

Into ``--out``, at most 8 files: each run's changed checkpoint files (``<key>.log``, ``.sessions``, ``.sample``:
copy them into results/checkpoints/), ``variants.json`` if a measurement was made, and ``summary.json``.  Progress
on stderr; one line on stdout at the end.  Exit status 0 when all went well (a budget ending a run is fine),
1 when a count differs, 2 when a requirement is missing (or a checkpoint cannot be used).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import importlib.util
import json
import os
import pathlib
import platform
import shutil
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [p for p in (str(HERE.parent), str(HERE)) if p not in sys.path]  # the project, gpu_variants

import gpu_variants  # noqa: E402 (after the path; imports nothing of numba)

CHECK = "6x6"
#: The campaigns in order: 5x9 (key 5x9-gpu1-s9-sym) until it is complete, then 7x7 (7x7-gpu1-s13-d4).
PLAN = "5x9,7x7"
MAX_SECONDS = 540.0
#: Seconds kept at the end for copying the checkpoint files and writing the summary.
MARGIN_S = 15.0
#: Seconds the kernel variants may take in all (compiles included), where they are measured.
VARIANTS_S = 120.0
#: The newest numpy numba-cuda 0.30.4 compiles under (numpy 2.5 has no ``np.row_stack``).
NUMPY_MAX = (2, 4)
#: What may come back from the device: each plan size's three checkpoint files, the variants and the summary.
MAX_FILES = 8
CHECKPOINT_SUFFIXES = (".log", ".sessions", ".sample")
VARIANTS_FILE = "variants.json"
SUMMARY_FILE = "summary.json"


def say(msg: str) -> None:
    """A progress line on stderr."""
    print(f"gpu_campaign: {msg}", file=sys.stderr, flush=True)


def version_of(text: str) -> tuple:
    """'2.4.6' -> (2, 4); '2.5.0rc1' -> (2, 5)."""
    parts = (text.split(".") + ["0"])[:2]
    return tuple(int("".join(c for c in part if c.isdigit()) or 0) for part in parts)


def simulator_on() -> bool:
    """Whether numba's CUDA simulator is asked for (read as numba reads it, without importing numba)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0").strip() not in ("", "0")


def requirements(numpy_version: str | None = None, simulated: bool | None = None) -> list:
    """One line for each requirement missing here (none: []); ``numpy_version`` and ``simulated`` stand in for
    this machine's (tests)."""
    missing = []
    simulated = simulator_on() if simulated is None else simulated
    if numpy_version is None:
        try:
            import numpy

            numpy_version = numpy.__version__
        except ImportError as err:
            missing.append(f"numpy cannot be imported ({err})")
    if numpy_version is not None and version_of(numpy_version) > NUMPY_MAX:
        missing.append(f"numpy {numpy_version} is too new: numba-cuda 0.30.4 compiles nothing under numpy 2.5 (it "
                       f"names np.row_stack); carry numpy<2.5 (docs/gpu.md, A lent GPU: one call)")  # fmt: skip
    for module in ("numba", "tqdm"):
        try:
            importlib.import_module(module)
        except Exception as err:
            missing.append(f"{module} cannot be imported ({err.__class__.__name__}: {str(err)[:100]})")
    if not simulated:  # numba.cuda is numba-cuda's where it is installed (the device check below imports it)
        try:
            importlib.metadata.version("numba-cuda")
        except importlib.metadata.PackageNotFoundError:
            missing.append("numba-cuda is not installed (numba's CUDA target for a GPU): pip install '.[gpu]'")
    if not any(line.startswith("numba ") for line in missing):
        from localcount.engines.gpu import count

        reason = count.available()
        if reason:
            missing.append(f"no CUDA device: {reason}")
    return missing


def versions() -> dict:
    """The versions that decide whether the kernels compile: python, numpy, numba, numba-cuda."""
    found = {"python": platform.python_version()}
    for package in ("numpy", "numba", "numba-cuda"):
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = None
    return found


def known_count(n: int, m: int) -> int | None:
    """The recorded count of n×m (``lc.known``), or None."""
    import localcount as lc

    found = lc.known(n, m)
    return None if found is None else found.count


def run_kernel(run) -> str:
    """The kernel variant a GPU run used (``count.kernel_name`` of its layout, read from its checkpoint's key)."""
    from localcount.engines.gpu import count
    from localcount.engines.registry import parse_key

    lay = parse_key(pathlib.Path(run.checkpoint).stem)
    return count.kernel_name(lay.n, lay.m, lay.symmetry, lay.variant)


def snapshot(directory: pathlib.Path) -> dict:
    """{name: (size, mtime)} of the checkpoint files in ``directory``."""
    if not directory.is_dir():
        return {}
    return {p.name: (p.stat().st_size, p.stat().st_mtime_ns) for p in directory.iterdir()
            if p.suffix in CHECKPOINT_SUFFIXES and p.is_file()}  # fmt: skip


class Campaign:
    """One call's steps and what they found (``summary``)."""

    def __init__(self, args, start: float):
        self.args, self.start = args, start
        self.out = pathlib.Path(args.out)
        self.directory = pathlib.Path(args.checkpoint_dir)
        self.startup = 1.0  # seconds a step needs before its first shard: the check's, once known
        self.summary = {"started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
                        "max_seconds": args.max_seconds, "versions": versions(), "files": []}  # fmt: skip

    def left(self) -> float:
        """Seconds left for steps: the budget from the start, less the margin."""
        return self.args.max_seconds - (time.monotonic() - self.start) - self.args.margin

    def feedback(self):
        from localcount.api.feedback import Feedback

        return Feedback(notices=True, estimates=True)  # compile notices and estimates on stderr; no bar

    def check(self) -> int:
        """Step 2: the known size on the GPU; 1 on a difference, 2 where nothing is recorded for it."""
        import localcount as lc

        n, m = self.args.check
        expected = known_count(n, m)
        if expected is None:
            say(f"--check {n}x{m}: no recorded count to compare with (results/local.csv)")
            return 2
        say(f"check: counting {n}x{m} on the GPU, against the recorded {expected}")
        began = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="gpu_campaign-check-") as scratch:
            run = lc.run_count(n, m, method="gpu", checkpoint_dir=scratch, feedback=self.feedback())
            kernel = run_kernel(run)
        seconds = time.monotonic() - began
        self.startup = max(self.startup, seconds)
        equal = run.total == expected
        self.summary["check"] = {"size": f"{n}x{m}", "count": run.total, "known": expected, "equal": equal,
                                 "seconds": round(seconds, 2), "kernel": kernel}  # fmt: skip
        say(f"check: {n}x{m} = {run.total} in {seconds:.1f} s with kernel {kernel}: "
            + ("equal to the recorded count" if equal else f"DIFFERS from the recorded {expected}: stopping"))  # fmt: skip
        return 0 if equal else 1

    def variants(self) -> int:
        """Step 3: time the kernel variants of the plan's sizes without a stored choice; 1 if a count differs."""
        from localcount.engines.gpu import count
        from localcount.engines.gpu.layout import GpuLayout

        todo = [(n, m) for n, m in self.args.plan if count.chosen_kernel(n, m) is None]
        stored = {count.size_key(n, m): count.kernel_name(n, m) for n, m in self.args.plan if (n, m) not in todo}
        self.summary["variants"] = {"measured": False, "stored": stored}
        if not todo:
            say(f"variants: chosen before for {count.device_name()} ({stored}): not measured")
            return 0
        allowed = min(self.args.variants_seconds, self.left() / 2)  # half of what is left, at least, for the runs
        if allowed < self.startup:
            say(f"variants: {allowed:.0f} s left for them, not enough: not measured")
            return 0
        began, timings, left_out = time.perf_counter(), [], {}
        for n, m in todo:
            lay = GpuLayout.make(n, m, bits=gpu_variants.shard_bits(n, m, gpu_variants.SHARD_BITS))
            longest = max((t.compile_s + t.wall_s for t in timings), default=0.0)
            report = lambda t: say(f"variants: {t.kernel} {t.n}x{t.m} {t.rate:.3g} grids/s, compile {t.compile_s:.1f} s"
                                   + ("" if t.equal else f", count {t.total} DIFFERS from {t.reference}"))  # fmt: skip
            done, skipped = gpu_variants.time_variants(lay, gpu_variants.SHARDS, None, allowed - longest, began, report)
            timings += done
            left_out[count.size_key(n, m)] = skipped + (not done)
        entry = self.measurement(timings, left_out)
        self.summary["variants"] = {"measured": True, "stored": stored, "chosen": entry["kernels"],
                                    "left_out": left_out, "seconds": round(time.perf_counter() - began, 1)}  # fmt: skip
        if any(not t.equal for t in timings):
            say("variants: a kernel variant's count differs from its reference: stopping")
            return 1
        return 0

    def measurement(self, timings: list, left_out: dict) -> dict:
        """The measured choice in choices.json's shape, written to OUT/variants.json and used from now on."""
        from localcount.engines.gpu import count

        device = count.device_name()
        rates = {}
        for t in timings:
            rates.setdefault(count.size_key(t.n, t.m), {})[t.kernel] = float(f"{t.rate:.4g}")
        chosen = {key: max(by, key=by.get) for key, by in rates.items() if not left_out.get(key)}
        before = count.stored_choices().get(device, {})
        entry = {**before, "kernels": {**before.get("kernels", {}), **chosen},
                 "rates": {**before.get("rates", {}), **rates}, "measured": self.summary["started"],
                 "how": f"scripts/gpu_campaign.py: scripts/gpu_variants.py's slices ({gpu_variants.SHARDS} shards of "
                        f"2^{gpu_variants.SHARD_BITS} indices a size), the fastest of every variant; "
                        + ", ".join(f"{k} {v}" for k, v in self.summary["versions"].items())}  # fmt: skip
        path = self.out / VARIANTS_FILE
        path.write_text(json.dumps({device: entry}, indent=2, sort_keys=True) + "\n")
        self.summary["files"].append(VARIANTS_FILE)
        if chosen:
            os.environ[count.CHOICES_ENV] = str(path.resolve())
        say(f"variants: chosen {chosen or 'none (a size not timed whole)'}; written to {path}")
        return entry

    def runs(self) -> int:
        """Step 4: the plan's sizes in turn while the budget lasts; 1 if a completed size differs from its record."""
        import localcount as lc
        from localcount.orchestration.runner import Stopped
        from localcount.orchestration.verify import Disagreement

        self.summary["runs"] = []
        for n, m in self.args.plan:
            seconds = self.left()
            if seconds < self.startup:
                say(f"campaign: {seconds:.0f} s left, not enough to start {n}x{m}")
                break
            say(f"campaign: {n}x{m} on the GPU for at most {seconds:.0f} s, checkpoints in {self.directory}")
            before, began = snapshot(self.directory), time.monotonic()
            try:
                run = lc.run_count(n, m, method="gpu", checkpoint_dir=self.directory, max_seconds=seconds,
                                   shard_bits=self.args.shard_bits, feedback=self.feedback())  # fmt: skip
            except Disagreement as err:
                say(f"campaign: {n}x{m}: {err}")
                self.copy_changed(before, None)
                return 1
            except Stopped:  # a signal: what was recorded comes back all the same
                self.copy_changed(before, None)
                raise
            status = self.record(run, time.monotonic() - began, before)
            if status or not run.complete:
                return status
        return 0

    def record(self, run, seconds: float, before: dict) -> int:
        """A campaign run into the summary and its changed files into OUT; 1 if complete and unlike its record."""
        key = pathlib.Path(run.checkpoint).stem
        done = run.layout_shards - run.left
        entry = {"key": key, "shards": run.layout_shards, "before": done - run.computed, "after": done,
                 "computed": run.computed, "seconds": round(seconds, 1), "kernel": run_kernel(run),
                 "complete": run.complete}  # fmt: skip
        if run.sample is not None:
            entry["sample"] = run.sample.line()
        if run.complete:
            entry["total"], entry["known"] = run.total, known_count(run.n, run.m)
        self.summary["runs"].append(entry)
        self.copy_changed(before, key)
        differs = run.complete and entry["known"] is not None and entry["known"] != run.total
        say(f"campaign: {key} {entry['before']} -> {done} of {run.layout_shards} shards in {seconds:.1f} s"
            + (f"; complete: {run.total}" if run.complete else "")
            + (f", DIFFERS from the recorded {entry['known']}: stopping" if differs else ""))  # fmt: skip
        return 1 if differs else 0

    def copy_changed(self, before: dict, key: str | None) -> None:
        """The checkpoint files (of ``key``, or any) that changed since ``before``, copied into OUT whole."""
        for name, stamp in sorted(snapshot(self.directory).items()):
            if before.get(name) != stamp and (key is None or name.rsplit(".", 1)[0] == key):
                if len(self.summary["files"]) < MAX_FILES - 1:  # the summary is the last
                    shutil.copyfile(self.directory / name, self.out / name)
                    self.summary["files"].append(name)
                else:
                    say(f"{name} changed but is left behind: at most {MAX_FILES} files come back")

    def steps(self) -> int:
        """Every step while they go well: the exit status."""
        from localcount.engines.gpu import count
        from localcount.orchestration.checkpoint import CheckpointError
        from localcount.orchestration.runner import Stopped

        self.summary["device"] = count.device_name()
        try:
            for step in (self.check, self.variants, self.runs):
                status = step()
                if status:
                    return status
        except Stopped as err:
            say(f"stopped: {err}")
            return err.exit_status
        except CheckpointError as err:
            say(f"checkpoint: {err}")
            return 2
        return 0


def one_line(summary: dict, status: int) -> str:
    """The call in one line for stdout."""
    parts = [f"exit {status}", summary.get("device", "no device")]
    if summary.get("requirements"):
        parts.append("missing: " + "; ".join(summary["requirements"]))
    check = summary.get("check")
    if check:
        parts.append(f"{check['size']} {check['count']} {'equal' if check['equal'] else 'DIFFERS'} "
                     f"({check['seconds']} s, kernel {check['kernel']})")  # fmt: skip
    variants = summary.get("variants")
    if variants:
        parts.append(f"variants chosen {variants.get('chosen')}" if variants["measured"] else "variants stored")
    for run in summary.get("runs", []):
        parts.append(f"{run['key']} {run['before']}->{run['after']}/{run['shards']} ({run['seconds']} s)")
    parts.append(f"{summary['seconds']} s; {len(summary['files'])} files")
    return "gpu_campaign: " + "; ".join(parts)


def adopt(path, into=None) -> dict:
    """Merge a measurement (OUT/variants.json) into the committed choices (``into``: default choices.json);
    the merged choices."""
    if into is None:
        from localcount.engines.gpu import count

        into = count.CHOICES_FILE
    into = pathlib.Path(into)
    stored = json.loads(into.read_text()) if into.exists() else {}
    for device, entry in json.loads(pathlib.Path(path).read_text()).items():
        old = stored.get(device, {})
        merged = {**old, **entry}
        for field in ("kernels", "rates"):
            merged[field] = {**old.get(field, {}), **entry.get(field, {})}
        stored[device] = merged
    into.write_text(json.dumps(stored, indent=2, sort_keys=True) + "\n")
    return stored


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="the folder of the files that come back (the device's $OUT)")
    ap.add_argument("--max-seconds", type=float, default=MAX_SECONDS,
                    help=f"the whole call's budget from its start (default {MAX_SECONDS:g})")  # fmt: skip
    ap.add_argument("--margin", type=float, default=MARGIN_S,
                    help=f"seconds kept at the end for the files (default {MARGIN_S:g})")  # fmt: skip
    ap.add_argument("--variants-seconds", type=float, default=VARIANTS_S,
                    help=f"seconds the kernel variants may take where measured (default {VARIANTS_S:g})")  # fmt: skip
    ap.add_argument("--check", default=CHECK, help=f"the size counted against its recorded count (default {CHECK})")
    ap.add_argument("--plan", default=PLAN, help=f"the campaign's sizes in order, at most two (default {PLAN})")
    ap.add_argument("--checkpoint-dir", default="results/checkpoints", help="default results/checkpoints")
    ap.add_argument("--shard-bits", type=int, help="the campaign runs' shard bits (default: the GPU engine's)")
    ap.add_argument("--adopt", metavar="VARIANTS_JSON", help="merge a measurement into choices.json, and nothing else")
    args = ap.parse_args(argv)
    if args.adopt:
        return args
    if not args.out:
        ap.error("--out is required")
    try:
        [args.check] = gpu_variants.parse_sizes(args.check)
        args.plan = gpu_variants.parse_sizes(args.plan)
    except ValueError:
        ap.error("--check is one size and --plan sizes, each NxM (e.g. 6x6 and 5x9,7x7)")
    if 3 * len(args.plan) + 2 > MAX_FILES:
        ap.error(f"--plan: at most {(MAX_FILES - 2) // 3} sizes (their checkpoint files, 3 a size, come back)")
    if not args.max_seconds > args.margin >= 0:
        ap.error("--max-seconds must be more than --margin, which must not be negative")
    return args


def main(argv=None) -> int:
    start = time.monotonic()
    args = parse_args(argv)
    if args.adopt:
        choices = adopt(args.adopt)
        say(f"{args.adopt} merged into choices.json: {', '.join(choices)}")
        return 0
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    campaign = Campaign(args, start)
    missing = requirements()
    for line in missing:
        say(line)
    if missing:
        campaign.summary["requirements"] = missing
    status = 2 if missing else campaign.steps()
    summary = {**campaign.summary, "status": status, "seconds": round(time.monotonic() - start, 1)}
    summary["files"].append(SUMMARY_FILE)
    (out / SUMMARY_FILE).write_text(json.dumps(summary, indent=2) + "\n")
    print(one_line(summary, status), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
