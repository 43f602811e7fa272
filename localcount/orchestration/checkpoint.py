"""Checkpoints: an append-only, checksummed log of finished shards per run.

One file per shard layout, ``<dir>/<layout key>.log`` (e.g.
``5x6-v1-s8-sym.log``); the key holds n, m, the counting-logic version, the
shard bits and the symmetry setting, and is repeated in the header, so
records made with other parameters are never mixed in.

    localcount-checkpoint 1 5x6-v1-s8-sym 1a2b3c4d
    17 3021347 0.254 1795000000.123 9f8e7d6c
    ...

A record is ``shard count seconds unix-time crc32`` and is written with one
``write`` on an O_APPEND descriptor followed by ``fsync`` before the shard is
reported done, so a crash loses at most the shards in flight.  On reading, a
record with a bad checksum or a truncated last line is *damaged*: it is
ignored (the shard is recomputed), the file is rewritten without it
atomically (temp file, fsync, ``os.replace``) and the damaged original is
kept beside it.  Two valid records that disagree about a shard, or a header
that does not match, stop the run with instructions: never a wrong total.

A run holds a POSIX lock on ``<key>.lock`` while it writes; the lock dies
with the process (even on SIGKILL) and is not inherited by worker processes.

Beside the log, ``<key>.sessions`` says where the shards were counted: each
session that computes shards first appends one checksummed line (start
time, processes, localcount version, git commit, CPU, and where noted the
kernel variant and, for a run at idle priority, what was set), tab-separated:

    9f8e7d6c	1795000000.000	2	0.1.0	4739ff0	AMD EPYC, 2 cores	lanes	idle: SCHED_IDLE, nice 19

A record belongs to the last session that started before it was written, so
a run resumed on other machines can name them all, with their shares of the
work (``machine_shares``).  The file is provenance only: a damaged line is
skipped and never touches a count.
"""

from __future__ import annotations

import fcntl
import logging
import os
import pathlib
import re
import time
import zlib
from dataclasses import dataclass, field

from ..engines.base import Layout
from ..engines.registry import parse_key
from ..util.files import write_atomic

MAGIC = "localcount-checkpoint"
FORMAT = 1
ENV_DIR = "LOCALCOUNT_CHECKPOINT_DIR"


class CheckpointError(Exception):
    """A checkpoint that cannot be used as it is; the message says what to do."""


class CheckpointBusy(CheckpointError):
    """Another live run holds the checkpoint's lock."""


def default_dir() -> pathlib.Path:
    """$LOCALCOUNT_CHECKPOINT_DIR, else the per-user data directory."""
    if os.environ.get(ENV_DIR):
        return pathlib.Path(os.environ[ENV_DIR]).expanduser()
    data = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return pathlib.Path(data) / "localcount" / "checkpoints"


def crc(text: str) -> str:
    return f"{zlib.crc32(text.encode()):08x}"


def header_line(key: str) -> str:
    """The first line of a checkpoint for a layout key."""
    return f"{MAGIC} {FORMAT} {key} {crc(key)}\n"


def record_line(key: str, shard: int, count, seconds: float, when: float) -> str:
    """One checksummed record (the checksum covers the key too); ``count`` may be a stats vector."""
    body = f"{shard} {Layout.format_value(count)} {seconds:.3f} {when:.3f}"
    return f"{body} {crc(key + ' ' + body)}\n"


@dataclass(slots=True)
class Record:
    """A finished shard: its value (an int for counts, a tuple for stats runs)."""

    count: int | tuple
    seconds: float
    when: float


@dataclass
class Log:
    """What a checkpoint file holds."""

    path: pathlib.Path
    layout: Layout
    records: dict = field(default_factory=dict)  # shard -> Record
    damaged: int = 0  # lines ignored (bad checksum, truncated, malformed)


def read_log(path, expect: Layout | None = None) -> Log:
    """Read a checkpoint, skipping damaged records; CheckpointError if unusable."""
    path = pathlib.Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise CheckpointError(f"cannot read checkpoint {path}: {err.strerror}") from None
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    head = lines[0].split()
    ok_head = len(head) == 4 and head[0] == MAGIC and head[1] == str(FORMAT) and crc(head[2]) == head[3]
    try:
        lay = parse_key(head[2]) if ok_head else None
    except ValueError:
        lay = None
    if lay is None:
        raise CheckpointError(
            f"checkpoint {path} has no valid header (not a localcount checkpoint, or damaged at the start); "
            "move it away, or start over with --fresh"
        )
    if expect is not None and lay != expect:
        raise CheckpointError(f"checkpoint {path} belongs to run {lay.key}, not {expect.key}; move it away")
    log = Log(path, lay)
    # The text after the last newline is a record whose write was cut short.
    body, tail = lines[1:-1], lines[-1]
    log.damaged += bool(tail.strip())
    shards, key = lay.shards, lay.key  # properties some layouts compute: once, not once a record
    for line in body:
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != 5 or crc(key + " " + " ".join(parts[:4])) != parts[4]:
                raise ValueError
            shard, count = int(parts[0]), lay.parse_value(parts[1])
            rec = Record(count, float(parts[2]), float(parts[3]))
            if not 0 <= shard < shards:
                raise ValueError
        except ValueError:
            log.damaged += 1
            continue
        old = log.records.get(shard)
        if old is not None and old.count != rec.count:
            raise CheckpointError(
                f"checkpoint {path} has two different counts for shard {shard} ({old.count} and {rec.count}); "
                "its results cannot be trusted: start over with --fresh"
            )
        log.records[shard] = rec
    return log


@dataclass(frozen=True)
class Session:
    """One stretch of a run that counted shards: when it started, with what, where."""

    start: float  # unix time
    processes: int
    version: str
    commit: str
    cpu: str
    kernel: str = ""  # the counting kernel's variant (``Layout.kernel_note``), '' if none was noted
    priority: str = ""  # 'idle: SCHED_IDLE, nice 19, ...' for a run at idle priority (``util.priority``), else ''


def sessions_path(log_path) -> pathlib.Path:
    """The sessions file beside a checkpoint log: ``<key>.sessions``."""
    return pathlib.Path(log_path).with_suffix(".sessions")


def session_line(key: str, s: Session) -> str:
    """One checksummed, tab-separated session line (the checksum covers the key too).

    Six columns, a seventh, the kernel, only when one was noted, and an eighth, the priority, only for an
    idle run (``--idle``): older readers took six or seven, and lines without them stay as they were."""
    fields = [f"{s.start:.3f}", str(s.processes), s.version, s.commit, " ".join(s.cpu.split())]
    if s.kernel or s.priority:
        fields.append(" ".join(s.kernel.split()))
    if s.priority:
        fields.append(" ".join(s.priority.split()))
    body = "\t".join(fields)
    return f"{crc(key + chr(9) + body)}\t{body}\n"


def read_sessions(log_path, key: str) -> list:
    """The sessions of a run in file order, skipping damaged lines; [] if there is no sessions file."""
    try:
        text = sessions_path(log_path).read_bytes().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return []
    except OSError as err:
        raise CheckpointError(f"cannot read {sessions_path(log_path)}: {err.strerror}") from None
    out = []
    for line in text.split("\n")[:-1]:  # text after the last newline was cut short
        parts = line.split("\t")
        if len(parts) not in (6, 7, 8) or crc(key + "\t" + "\t".join(parts[1:])) != parts[0]:
            continue
        try:
            out.append(Session(float(parts[1]), int(parts[2]), parts[3], parts[4], parts[5], *parts[6:]))
        except ValueError:
            continue
    return out


def machine_shares(log: Log, sessions: list) -> list:
    """[(cpu or None, seconds)]: the shard seconds of ``log`` by the session's CPU, most first.

    A record belongs to the last session started before it was written;
    records older than every session (written before sessions were noted)
    go to None.
    """
    starts = sorted((s.start, s.cpu) for s in sessions)
    seconds = {}
    for rec in log.records.values():
        cpu = None
        for start, name in starts:
            if start > rec.when:
                break
            cpu = name
        seconds[cpu] = seconds.get(cpu, 0.0) + rec.seconds
    return sorted(seconds.items(), key=lambda item: (-item[1], item[0] or ""))


def describe_machines(shares: list) -> str:
    """'AMD EPYC, 2 cores' for one machine, else each with its share of the shard seconds, joined by ' + '."""
    if len(shares) == 1 and shares[0][0] is not None:
        return shares[0][0]
    total = sum(sec for _, sec in shares) or 1.0
    return " + ".join(f"{cpu or 'not recorded'} ({100 * sec / total:.0f} %)" for cpu, sec in shares)


def machine_names(described: str) -> list:
    """The machines named in a ``describe_machines`` text, without shares or 'not recorded'."""
    names = [re.sub(r" \(\d+ %\)$", "", part) for part in described.split(" + ")]
    return [name for name in names if name and name != "not recorded"]


def work_and_machines(log_path) -> tuple:
    """(shard seconds summed, ``describe_machines`` of who counted them) for a run's log."""
    log = read_log(log_path)
    shares = machine_shares(log, read_sessions(log_path, log.layout.key))
    return sum(sec for _, sec in shares), describe_machines(shares)


class Checkpoint:
    """The locked, open checkpoint of one run: read what is done, append what finishes."""

    def __init__(self, directory, lay: Layout):
        self.dir = pathlib.Path(directory)
        self.layout = lay
        self.path = self.dir / f"{lay.key}.log"
        self.lock_path = self.dir / f"{lay.key}.lock"
        self._lock_fd = None
        self._fd = None
        self._records: dict = {}
        self.warnings: list = []

    def open(self, fresh: bool = False) -> dict:
        """Lock the run, read its records (shard -> Record) and get ready to append."""
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CheckpointError(f"cannot create checkpoint directory {self.dir}: {err.strerror}") from None
        self._lock()
        try:
            if fresh:
                for old in (self.path, sessions_path(self.path)):
                    if old.exists():
                        old.unlink()
            records = {}
            if self.path.exists():
                log = read_log(self.path, self.layout)
                records = log.records
                if log.damaged:
                    kept = self._set_aside(".damaged")
                    self.warnings.append(
                        f"checkpoint {self.path}: {log.damaged} damaged record(s) ignored, their shards will be "
                        f"recomputed (the damaged file is kept as {kept.name})"
                    )
                    self._rewrite(records)
            else:
                self._rewrite({})
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            self._records = dict(records)  # and every shard recorded from now on (``_restore`` writes them again)
            return records
        except BaseException:
            self.close()
            raise

    def record(self, shard: int, count: int, seconds: float) -> None:
        """Append one finished shard durably (write + fsync) before it counts as done.

        If the log was replaced or removed while the run held it open (``git stash`` or ``git checkout`` of a
        committed campaign log, say), appending to the open file would write into a file nobody can read any
        more: the log is first written again, with the records of the file now there and every record this run
        knows (``_restore``)."""
        when = time.time()
        if self._replaced():
            self._restore({shard: Record(count, seconds, when)})
        else:
            os.write(self._fd, record_line(self.layout.key, shard, count, seconds, when).encode())
            os.fsync(self._fd)
        self._records[shard] = Record(count, seconds, when)

    def _replaced(self) -> bool:
        """True if the log's path no longer names the file this run appends to."""
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return True
        held = os.fstat(self._fd)
        return (now.st_ino, now.st_dev) != (held.st_ino, held.st_dev)

    def _restore(self, new: dict) -> None:
        """Rewrite the log with the records of what is at its path now, this run's records and ``new``, and
        append to it from now on (CheckpointError if the file there gives a shard another value)."""
        merged = dict(self._records)
        if self.path.exists():
            for shard, rec in read_log(self.path, self.layout).records.items():
                if shard in merged and merged[shard].count != rec.count:
                    raise CheckpointError(
                        f"checkpoint {self.path} was replaced while this run wrote it, and the file there has "
                        f"another value for shard {shard}; keep one of them and start over with --fresh"
                    )
                merged.setdefault(shard, rec)
        merged.update(new)
        self._rewrite(merged)
        os.close(self._fd)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        warning = (
            f"checkpoint {self.path} was replaced while this run wrote it: written again with {len(merged)} records"
        )
        self.warnings.append(warning)
        logging.getLogger("localcount").warning(warning)

    def note_session(self, session: Session) -> None:
        """Append where this session counts to the sessions file (written and synced before any record)."""
        fd = os.open(sessions_path(self.path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, session_line(self.layout.key, session).encode())
            os.fsync(fd)
        finally:
            os.close(fd)

    def close(self) -> None:
        """Close the log and release the lock."""
        for name in ("_fd", "_lock_fd"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _lock(self) -> None:
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            finally:
                os.close(fd)
            raise CheckpointBusy(
                f"checkpoint {self.path} is in use by another run (pid {holder}); "
                "wait for it to finish or stop it, then run again"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def _set_aside(self, suffix: str) -> pathlib.Path:
        """Copy the log aside (before it is rewritten), for inspection."""
        kept = self.path.with_name(f"{self.path.name}{suffix}-{time.strftime('%Y%m%d-%H%M%S')}")
        kept.write_bytes(self.path.read_bytes())
        return kept

    def _rewrite(self, records: dict) -> None:
        """Atomically replace the log with a header and the given records."""
        key = self.layout.key
        text = header_line(key) + "".join(
            record_line(key, s, r.count, r.seconds, r.when) for s, r in sorted(records.items())
        )
        write_atomic(self.path, text)
        dir_fd = os.open(self.dir, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def lock_holder(lock_path) -> int | None:
    """The process id of the live run that holds this lock file (0 if it wrote none), else None.

    Only for processes that hold no checkpoint lock themselves: POSIX locks
    belong to the process, so probing our own lock file would release it.
    """
    try:
        fd = os.open(lock_path, os.O_RDWR)
    except OSError:
        return None
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        text = os.pread(fd, 32, 0).decode(errors="replace").strip()
        return int(text) if text.isdigit() else 0
    finally:
        os.close(fd)
    return None


def find_logs(paths) -> list:
    """Checkpoint files in the given directories (or the files themselves)."""
    found = []
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            found.extend(sorted(p.glob("*.log")))
        elif p.exists():
            found.append(p)
        else:
            raise CheckpointError(f"no such checkpoint directory or file: {p}")
    return found
