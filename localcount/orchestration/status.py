"""``merge`` and ``status``: read checkpoint records, never write them (the commands: ``cli.checkpoints``).

``merge DIR...`` adds up the shard records of one run found in several
directories (e.g. from ``--shard K/N`` runs on several machines), like
nauty's sumlines: the total is printed only when every shard is there, and
two records that disagree about a shard are an error.  ``status [DIR...]``
lists the runs a checkpoint directory holds: shards done, grids per second,
active time (a run's wall time summed over every session that resumed it),
ETA; for a GPU run the device time left, and how much of its sample the CPU has
recounted (``verify``).  A run whose lock a live process holds is ``running``
or, stopped by SIGSTOP, ``paused``, with that process's id (``stepping aside``
while only its workers are stopped: an idle run's, ``yielding``); a run not complete
also gets its rate over the last ``RECENT_SECONDS`` of its records and the ETA
at that rate (``recent_rate``): what a campaign sharing its machine does now.
"""

from __future__ import annotations

import os
import time

from ..util.messages import format_seconds, say
from .checkpoint import CheckpointError, find_logs, lock_holder, read_log
from .yielding import stat_fields

#: The window of a run's recent rate: the last 10 minutes of its records.
RECENT_SECONDS = 600.0


def merge_logs(paths) -> dict:
    """Layout key -> (Layout, {shard: count or stats vector}, [files]); CheckpointError on disagreement."""
    runs: dict = {}
    for path in find_logs(paths):
        log = read_log(path)
        if log.damaged:
            say(f"warning: {path}: {log.damaged} damaged record(s) ignored")
        lay, counts, files = runs.setdefault(log.layout.key, (log.layout, {}, []))
        files.append(str(path))
        for shard, rec in log.records.items():
            if counts.get(shard, rec.count) != rec.count:
                raise CheckpointError(
                    f"shard {shard} of {lay.key} has different counts in {', '.join(files)}: "
                    f"{counts[shard]} and {rec.count}; do not trust either, recompute it"
                )
            counts[shard] = rec.count
    return runs


def merge(paths) -> int:
    """Print the total of each complete run in the given directories; exit status."""
    try:
        runs = merge_logs(paths)
    except CheckpointError as err:
        say(f"error: {err}")
        return 1
    if not runs:
        say(f"error: no checkpoint files in {' '.join(map(str, paths))}")
        return 1
    status = 0
    for key, (lay, counts, files) in sorted(runs.items()):
        missing = lay.shards - len(counts)
        if missing:
            first = [s for s in range(lay.shards) if s not in counts][:5]
            say(
                f"{key}: {missing} of {lay.shards} shards missing (e.g. {', '.join(map(str, first))}); "
                "no total. Count them, e.g. with --shard K/N, then merge again"
            )
            status = 1
            continue
        total = lay.add(counts.values())
        text = lay.format_total(total)
        print(text if len(runs) == 1 else f"{lay.n} {lay.m} {text}", flush=True)
        say(f"{key}: all {lay.shards} shards from {len(files)} file(s): {lay.n}x{lay.m} {lay.describe(total)}")
    return status


def active_seconds(records) -> float:
    """Seconds during which some shard was being counted: the union of [when - seconds, when] over the records.

    A run resumed over several sessions has no single wall time; this is the
    wall time of its sessions added up, without the gaps between them.
    """
    total, reach = 0.0, float("-inf")
    for start, end in sorted((r.when - r.seconds, r.when) for r in records):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def status(paths, jobs: int) -> int:
    """Print one line per checkpoint: progress, rate, active time and ETA; a log that cannot be read gets one
    line on stderr, the others are still listed, and the exit status is then 1."""
    try:
        found = find_logs(paths)
    except CheckpointError as err:
        say(f"error: {err}")
        return 1
    # Each run's live state before its records are read: reading them takes a core for a second or more, and an
    # idle run (``--idle``) steps aside for that; its state should not be this command's own doing.
    states = {path: live_state(path.with_suffix(".lock")) for path in found}
    logs, unreadable = [], 0
    for path in found:
        try:
            logs.append(read_log(path))
        except CheckpointError as err:
            say(f"error: {err}")
            unreadable += 1
    if not logs:
        if not unreadable:
            say(f"no checkpoints in {' '.join(map(str, paths))}")
        return 1 if unreadable else 0
    samples = _samples(logs)
    print(f"{'run':<24} {'shards done':>15} {'grids done':>12} {'grids/s/proc':>13} {'active':>8} {'ETA':>10}  state")
    for log in logs:
        print(_run_line(log, samples.get(log.layout.key), jobs, states[log.path]))
    return 1 if unreadable else 0


def _run_line(log, recount, jobs: int, live: str) -> str:
    """One run's line of ``status``: ``recount`` (key, sample shards) when it recounts another run's sample;
    ``live``: its ``live_state``, for a run not complete."""
    lay = log.layout
    done = len(log.records)
    busy = sum(r.seconds for r in log.records.values())
    grids = done * lay.grids_per_shard
    rate = grids / busy if busy > 0 else 0.0
    per_shard = busy / done if done else 0.0  # shards are taken in a fixed random order: a fair mean
    procs = 1 if lay.in_parent else jobs  # one device drives a GPU run
    wanted = lay.shards if recount is None else len(recount[1])
    left = wanted - (done if recount is None else sum(s in log.records for s in recount[1]))
    if left == 0:
        eta, state = "-", "complete"
    else:
        eta = format_seconds(left * per_shard / procs) if per_shard else "?"
        state = live + _recent(log, left)
    if lay.in_parent and left:
        eta += " GPU"  # device time, projected from this run's own shards
    if log.damaged:
        state += f", {log.damaged} damaged"
    if recount is not None:
        state += f", the CPU's recount of the sample of {recount[0]}: {wanted - left} of {wanted}"
    state += _sample_state(log)
    last = max((r.when for r in log.records.values()), default=None)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last)) if last else "-"
    return (
        f"{lay.key:<24} {done:>7}/{lay.shards:<7} {grids:>12.3g} {rate:>13.3g} "
        f"{format_seconds(active_seconds(log.records.values())):>8} {eta:>10}  "
        f"{state}, last record {when}, {log.path}"
    )


def live_state(lock_path) -> str:
    """'running (pid N)' while a live process holds the run's lock, 'paused (pid N)' while that process is
    stopped (SIGSTOP, Ctrl-Z), 'stepping aside (pid N)' while only its workers are (an idle run's, while other
    work keeps the machine busy: ``yielding``), else 'stopped'."""
    pid = lock_holder(lock_path)
    if pid is None:
        return "stopped"
    if not pid:
        return "running"
    if _stat(pid)[0] in ("T", "t"):
        return f"paused (pid {pid})"
    workers = [p for p, (_, parent) in _processes().items() if parent == pid]
    if workers and all(_stat(p)[0] in ("T", "t") for p in workers):
        return f"stepping aside for other work (pid {pid})"
    return f"running (pid {pid})"


def _stat(pid: int) -> tuple:
    """(state, parent pid) of a process from /proc ('T': stopped by a signal); ('', 0) if unknown."""
    fields = stat_fields(pid)
    return (fields[0], int(fields[1])) if fields else ("", 0)


def _processes() -> dict:
    """pid -> (state, parent pid) of every process /proc shows ({} without /proc)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    return {int(n): _stat(int(n)) for n in names if n.isdigit()}


def recent_rate(records, window: float = RECENT_SECONDS, grids_per_shard: int = 1) -> float | None:
    """Grids a second of wall clock over the last ``window`` seconds of the records (ending at the last one),
    whatever the processes and whatever stopped them meanwhile: each shard's grids in the share of its seconds
    inside the window (all of them for a shard of 0 s recorded in it: a mirror image, done with its shard), over
    the window, or the part of it since the earliest of those shards began; None without records or time."""
    records = list(records)
    if not records:
        return None
    end = max(r.when for r in records)
    start, first, grids = end - window, end, 0.0
    for r in records:
        if r.when <= start:
            continue
        lo = max(r.when - r.seconds, start)
        grids += grids_per_shard * ((r.when - lo) / r.seconds if r.seconds > 0 else 1.0)
        first = min(first, lo)
    return grids / (end - first) if end > first else None


def _recent(log, left: int) -> str:
    """', last 10 min 2.1e+08 grids/s, ETA 40 h at that rate' for a run not complete, '' without a rate."""
    rate = recent_rate(log.records.values(), RECENT_SECONDS, log.layout.grids_per_shard)
    if not rate:
        return ""
    eta = format_seconds(left * log.layout.grids_per_shard / rate)
    return f", last {RECENT_SECONDS / 60:g} min {rate:.3g} grids/s, ETA {eta} at that rate"


def _samples(logs) -> dict:
    """Twin key -> (key, sample shards) of each run whose sample another engine recounts (``verify``), read only."""
    from .verify import read_sample, sample_path, twin

    out = {}
    for log in logs:
        if log.layout.verified_by:
            try:
                sample = read_sample(sample_path(log.path.parent, log.layout), log.layout)
            except CheckpointError:
                continue
            if sample is not None:
                out[twin(log.layout).key] = (log.layout.key, sample)
    return out


def _sample_state(log) -> str:
    """', CPU sample 3 of 82 recounted, all equal' for a run whose sample another engine recounts, else ''."""
    from .verify import compare, read_sample, sample_path

    lay = log.layout
    if not lay.verified_by:
        return ""
    try:
        sample = read_sample(sample_path(log.path.parent, lay), lay)
        if sample is None:
            return ", no sample drawn yet"
        c = compare(lay, log.path.parent, sample)
    except CheckpointError as err:
        return f", sample unreadable ({err})"
    if c.differ:
        return (
            f", CPU sample: {len(c.differ)} shard(s) DIFFER, e.g. shard {c.differ[0][0]}: python -m localcount verify"
        )
    return f", CPU sample {c.recounted} of {len(c.sample)} recounted, {c.equal} compared, all equal"
