"""Which variant of the generated kernels this CPU counts with: "lanes" until measured, then the fastest.

The variants (``specialize.KERNELS``) count the same grids in the same
order and return the same counts; they differ only in speed, and which is
fastest depends on the CPU (vector gathers are fast on recent Intel cores,
slow on others).  Measuring them costs compiling three 6x6 kernels and
timing them (5 to 25 s on 2 cores), far more than a small count, so a count
uses "lanes" (``DEFAULT``: never slow) until this CPU's choice has been
measured, and only a count expected to take ``tuning.PROBE_PAYS_SECONDS``
on one core or more measures it first (``due``; the count says so in one
line), or ``python -m localcount tune`` (``tune``).

The measurement times the variants this CPU's gathers can serve
(``candidates``) on one sample of a probe size (``PROBE``: the rows' kernel
of 6x6 without symmetry, every block doing work), by this thread's CPU
time, in ``tuning.CHOICE_ROUNDS`` rounds that alternate them, and picks a
gather variant only when it beats "lanes" by ``tuning.CHOICE_MARGIN`` both
in the median of the rounds' ratios and best time against best time
(``pick``): a machine busy with other work slows every variant of a round
alike, and noise never trades the sure kernel for a doubtful one.

The choice is a small JSON file in the kernel cache (``util.generated.kernel_dir``),
``cpu_kernel_<key>.json``; the key hashes the CPU (its model name and the
host CPU name and features LLVM compiles for) and the digest of the probe's
generated sources (which cover the generator and the modules it calls) and
of the protocol (this module, the ``tuning.CHOICE_*`` values), so another
CPU, a changed kernel or a changed protocol counts with "lanes" until
measured again.
The file is written atomically, under a lock file so that processes
starting together measure once; a file that cannot be read or names no
variant counts as not measured.  Every run records the variant it counted
with in its sessions file (``Layout.kernel_note``).

``LOCALCOUNT_CPU_KERNEL`` (ENV) forces a variant: one of KERNELS, or "auto"
(the default: the measured choice, else DEFAULT).

numba is imported only when a variant is measured.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import json
import os
import pathlib
import statistics
import time

from ... import tuning
from ...util import generated
from ...util.files import write_atomic
from . import specialize

#: The environment variable that forces a variant (module doc).
ENV = "LOCALCOUNT_CPU_KERNEL"
#: The size, symmetry group id and column mode of the probe timed for the choice.
PROBE = (6, 6, 0, "table")
#: The variant counted with until this CPU's choice is measured: as fast as any on many CPUs, never slow.
DEFAULT = "lanes"


def forced() -> str | None:
    """The variant $LOCALCOUNT_CPU_KERNEL forces, or None ("auto" or unset)."""
    value = os.environ.get(ENV, "").strip()
    if value in ("", "auto"):
        return None
    if value not in specialize.KERNELS:
        raise ValueError(f"{ENV} must be 'auto' or one of {specialize.KERNELS}, not {value!r}")
    return value


def resolve(kernel: str | None = None) -> str:
    """The variant to count with: ``kernel`` if one is named, else the forced one, else ``chosen()``
    (this CPU's measured choice, else DEFAULT: nothing is measured here)."""
    if kernel not in (None, "auto"):
        specialize.width(kernel)  # raises on an unknown name
        return kernel
    return forced() or chosen()


def cpu_identity() -> str:
    """What the kernels' machine code depends on: the CPU's model, LLVM's host CPU name and features."""
    import llvmlite.binding as llvm

    model = ""
    with contextlib.suppress(OSError):
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    features = llvm.get_host_cpu_features().flatten()
    overrides = os.environ.get("NUMBA_CPU_NAME", "") + "/" + os.environ.get("NUMBA_CPU_FEATURES", "")
    return f"{model}|{llvm.get_host_cpu_name()}|{features}|{overrides}"


def kernel_digest() -> str:
    """Digest of the probe's generated sources in every variant, and of the protocol: this module and the
    ``tuning.CHOICE_*`` values."""
    n, m, _, columns = PROBE
    protocol = [tuning.CHOICE_SAMPLE_SHARDS, tuning.CHOICE_SAMPLE_BITS, tuning.CHOICE_ROUNDS, tuning.CHOICE_MARGIN]
    sources = (specialize.source(n, m, columns, k) for k in specialize.KERNELS)
    return generated.digest(pathlib.Path(__file__), repr(protocol), *sources)


def cache_path() -> pathlib.Path:
    """The file holding this CPU's choice for these kernels."""
    key = generated.digest(f"{cpu_identity()}|{kernel_digest()}")
    return generated.kernel_dir() / f"cpu_kernel_{key}.json"


def read_cached(path: pathlib.Path) -> str | None:
    """The variant a choice file names, or None if it is missing, unreadable or names none."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    kernel = record.get("kernel") if isinstance(record, dict) else None
    return kernel if kernel in specialize.KERNELS else None


def candidates(features: str | None = None) -> tuple:
    """The variants worth timing on a CPU with LLVM's host ``features`` ('+avx2,-avx512f,...'; default: this
    CPU's): "lanes", and the gathers that fill its vector registers once or twice (none without AVX2, whose
    gathers LLVM would split into scalar loads; 4 and 8 lanes with AVX2's 4 x 64-bit gathers, 8 and 16 with
    AVX-512's 8 x 64-bit ones)."""
    if features is None:
        import llvmlite.binding as llvm

        features = llvm.get_host_cpu_features().flatten()
    have = set(features.split(","))
    if "+avx2" not in have:
        return ("lanes",)
    return ("lanes", "gather8", "gather16") if "+avx512f" in have else ("lanes", "gather4", "gather8")


def _probe_args(name: str) -> tuple:
    """The probe kernels' arguments after (shard, inner_bits, group), as ``count.Context.spec_args`` makes them."""
    from ...lines.tables import line_table, spread_table
    from .gather import first_table, gather_table

    n, m, _, _ = PROBE
    rtab, ctab, rspread, cspread = line_table(m), line_table(n), spread_table(n, m), spread_table(m, n)
    if name == "lanes":
        return rtab, ctab, rspread, cspread
    rgat, cgat = gather_table(rtab, rspread), gather_table(ctab, cspread)
    return rtab, ctab, rspread, cspread, rgat, cgat, first_table(rtab, rspread, m)


def _probe_kernels(names) -> dict:
    """Variant -> (serial entry point, its arguments after (shard, inner_bits, group)), compiled or loaded."""
    n, m, _, columns = PROBE
    return {name: (specialize.module(n, m, columns, name).kernel_shard, _probe_args(name)) for name in names}


def measure(names=None) -> dict:
    """Each variant's (default: ``candidates()``) CPU seconds on the probe's sample (``tuning.CHOICE_SAMPLE_SHARDS``
    blocks of 2^``tuning.CHOICE_SAMPLE_BITS`` indices, drawn at random, seed 1), a list of ``tuning.CHOICE_ROUNDS``
    (module doc); {"lanes": []} untimed when it is the only candidate.

    The clock is this thread's CPU time, which the other processes of a busy
    machine do not add to; the rounds alternate the variants' order, so a
    round's times are of the same seconds of the machine (``pick``).
    """
    import numpy as np

    names = candidates() if names is None else tuple(names)
    if names == ("lanes",):
        return {"lanes": []}
    n, m, group, _ = PROBE
    kernels = _probe_kernels(names)
    inner = tuning.CHOICE_SAMPLE_BITS
    shards = np.random.default_rng(1).integers(0, 1 << (n * m - inner), size=tuning.CHOICE_SAMPLE_SHARDS)
    for fn, args in kernels.values():
        fn(int(shards[0]), 8, group, *args)  # compile or load first
    times = {name: [] for name in names}
    for r in range(tuning.CHOICE_ROUNDS):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            fn, args = kernels[name]
            start = time.thread_time()
            for u in shards:
                fn(int(u), inner, group, *args)
            times[name].append(time.thread_time() - start)
    return times


def ratios(times: dict) -> dict:
    """Each gather variant's median over rounds of its time over lanes' time in the same round."""
    lanes = times["lanes"]
    return {
        name: statistics.median(t / max(base, 1e-12) for t, base in zip(ts, lanes))
        for name, ts in times.items()
        if name != "lanes" and ts
    }


def pick(times: dict) -> str:
    """The variant to use given ``measure``'s times: the gather variant of least median ratio to lanes
    (``ratios``) if that ratio and its best time's ratio to lanes' best are both under ``tuning.CHOICE_MARGIN``,
    else lanes."""
    paired = ratios(times)
    if not paired:
        return "lanes"
    fastest = min(paired, key=paired.get)
    margin = tuning.CHOICE_MARGIN
    if paired[fastest] < margin and min(times[fastest]) < margin * min(times["lanes"]):
        return fastest
    return "lanes"


@contextlib.contextmanager
def _locked(path: pathlib.Path):
    """An exclusive lock on ``path`` + '.lock' (none where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: two processes may both measure, and the last write wins
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def choose(path: pathlib.Path | None = None, again: bool = False) -> str:
    """The cached choice, or a new one, measured and written (module doc); ``again``: measure even if cached."""
    path = path or cache_path()
    kernel = None if again else read_cached(path)
    if kernel:
        return kernel
    with _locked(path):
        kernel = None if again else read_cached(path)  # another process may have measured meanwhile
        if kernel:
            return kernel
        times = measure()
        kernel = pick(times)
        written = {
            "kernel": kernel,
            "best_seconds": {k: round(min(v), 6) for k, v in times.items() if v},
            "median_ratios": {k: round(v, 4) for k, v in ratios(times).items()},
            "probe": "{}x{} group {} columns {}".format(*PROBE),
            "cpu": cpu_identity().split("|")[0],
            "measured": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        }
        write_atomic(path, json.dumps(written, indent=1) + "\n")
    chosen.cache_clear()
    return kernel


def record(path: pathlib.Path | None = None) -> dict | None:
    """This CPU's measurement as written (kernel, best seconds, median ratios, probe, cpu, date), or None."""
    path = path or cache_path()
    if not read_cached(path):
        return None
    return json.loads(path.read_text())


def tune(again: bool = True) -> dict:
    """Measure the variants on this CPU (``again``: even if measured before), keep the choice, and return its
    record (``record``); a CPU without AVX2 has one candidate, recorded without timing."""
    choose(again=again)
    return record()


def due(one_core_seconds: float | None) -> bool:
    """Whether a count expected to take ``one_core_seconds`` on one core should measure the variants before it
    starts: none is forced, none is measured on this CPU yet, there is more than one candidate, and the count
    is at least ``tuning.PROBE_PAYS_SECONDS`` (many times the measurement's cost)."""
    if one_core_seconds is None or one_core_seconds < tuning.PROBE_PAYS_SECONDS or forced():
        return False
    return len(candidates()) > 1 and read_cached(cache_path()) is None


@functools.cache
def chosen() -> str:
    """This process's variant when none is forced: this CPU's measured choice, else DEFAULT (read once)."""
    return read_cached(cache_path()) or DEFAULT
