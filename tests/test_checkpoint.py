"""Checkpoint files: durable records, tolerant reads, no foreign or conflicting data."""

import os

import pytest

from localcount.engines.grid.layout import GridLayout
from localcount.orchestration.checkpoint import (
    Checkpoint,
    CheckpointError,
    Session,
    describe_machines,
    header_line,
    machine_names,
    machine_shares,
    read_log,
    read_sessions,
    record_line,
    session_line,
    sessions_path,
    work_and_machines,
)

layout = GridLayout.make
LAY = layout(4, 4, 4)


def write(path, text):
    path.write_text(text)


def test_records_survive_reopening(tmp_path):
    with Checkpoint(tmp_path, LAY) as ck:
        assert ck.open() == {}
        ck.record(3, 17, 0.5)
        ck.record(7, 0, 0.1)
    with Checkpoint(tmp_path, LAY) as ck:
        done = ck.open()
    assert {s: r.count for s, r in done.items()} == {3: 17, 7: 0}


def put(path, data: bytes):
    """Put a file in place of ``path`` as ``git stash pop`` or ``git checkout`` do: a new file renamed over it."""
    tmp = path.with_name(path.name + ".new")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def test_a_log_replaced_or_removed_while_the_run_writes_it_is_written_again(tmp_path):
    with Checkpoint(tmp_path, LAY) as ck:
        ck.open()
        ck.record(3, 17, 0.5)
        older = ck.path.read_bytes()
        ck.record(5, 2, 0.1)
        put(ck.path, older)  # an older copy of the log in its place
        ck.record(7, 0, 0.1)
        assert {s: r.count for s, r in read_log(ck.path).records.items()} == {3: 17, 5: 2, 7: 0}
        assert any("replaced while this run wrote it" in w for w in ck.warnings)
        ck.path.unlink()  # removed outright
        ck.record(9, 4, 0.2)
        ck.record(10, 1, 0.2)  # appended to the new file
    assert {s: r.count for s, r in read_log(ck.path).records.items()} == {3: 17, 5: 2, 7: 0, 9: 4, 10: 1}


def test_a_replacing_log_is_merged_and_a_conflicting_one_refused(tmp_path):
    key = LAY.key
    with Checkpoint(tmp_path, LAY) as ck:
        ck.open()
        ck.record(3, 17, 0.5)
        put(
            ck.path, (header_line(key) + record_line(key, 3, 17, 0.5, 1.0) + record_line(key, 11, 6, 0.5, 1.0)).encode()
        )
        ck.record(4, 1, 0.1)  # the file there had shard 11 (from another machine, say): kept
        assert {s: r.count for s, r in read_log(ck.path).records.items()} == {3: 17, 11: 6, 4: 1}
        put(ck.path, (header_line(key) + record_line(key, 4, 99, 0.5, 1.0)).encode())
        with pytest.raises(CheckpointError, match="another value for shard 4"):
            ck.record(8, 1, 0.1)


def test_fresh_starts_over(tmp_path):
    with Checkpoint(tmp_path, LAY) as ck:
        ck.open()
        ck.record(3, 17, 0.5)
    with Checkpoint(tmp_path, LAY) as ck:
        assert ck.open(fresh=True) == {}


def test_damaged_and_truncated_records_are_dropped_and_kept_aside(tmp_path):
    key = LAY.key
    good = record_line(key, 1, 10, 0.1, 1.0)
    bad_crc = record_line(key, 2, 20, 0.1, 1.0).replace(" 20 ", " 21 ")
    garbage = "this is not a record\n"
    truncated = record_line(key, 4, 40, 0.1, 1.0)[:-7]  # cut short, no newline
    path = tmp_path / f"{key}.log"
    write(path, header_line(key) + good + bad_crc + garbage + truncated)
    with Checkpoint(tmp_path, LAY) as ck:
        done = ck.open()
        assert ck.warnings and "3 damaged" in ck.warnings[0]
        ck.record(4, 40, 0.1)  # appending after the repair gives a clean record
    assert {s: r.count for s, r in read_log(path).records.items()} == {1: 10, 4: 40}
    assert read_log(path).damaged == 0
    assert list(tmp_path.glob(f"{key}.log.damaged-*"))
    assert set(done) == {1}


def test_foreign_header_is_refused(tmp_path):
    other = layout(4, 4, 5)
    write(tmp_path / f"{LAY.key}.log", header_line(other.key))
    with pytest.raises(CheckpointError, match="belongs to run"):
        Checkpoint(tmp_path, LAY).open()


def test_unreadable_header_is_refused(tmp_path):
    write(tmp_path / f"{LAY.key}.log", "garbage\n")
    with pytest.raises(CheckpointError, match="no valid header"):
        Checkpoint(tmp_path, LAY).open()


def test_record_of_another_run_fails_its_checksum(tmp_path):
    other = layout(4, 4, 5)
    write(tmp_path / f"{LAY.key}.log", header_line(LAY.key) + record_line(other.key, 1, 5, 0.1, 1.0))
    assert read_log(tmp_path / f"{LAY.key}.log").records == {}


def test_conflicting_records_are_refused(tmp_path):
    key = LAY.key
    write(
        tmp_path / f"{key}.log",
        header_line(key) + record_line(key, 1, 10, 0.1, 1.0) + record_line(key, 1, 11, 0.1, 1.0),
    )
    with pytest.raises(CheckpointError, match="two different counts"):
        read_log(tmp_path / f"{key}.log")


def test_out_of_range_shard_is_damage(tmp_path):
    key = LAY.key
    write(tmp_path / f"{key}.log", header_line(key) + record_line(key, LAY.shards, 1, 0.1, 1.0))
    assert read_log(tmp_path / f"{key}.log").damaged == 1


def test_stage_checkpoints_commits_whole_lines_only(tmp_path):
    """scripts/stage_checkpoints.py stages a log being appended to up to its last newline."""
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(__file__).resolve().parent.parent
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "ck").mkdir()
    key = LAY.key
    whole = header_line(key) + record_line(key, 0, 5, 0.1, 1.0) + record_line(key, 1, 7, 0.1, 2.0)
    log = tmp_path / "ck" / f"{key}.log"
    log.write_text(whole + record_line(key, 2, 9, 0.1, 3.0)[:10])  # a record half written
    one = session_line(key, Session(0.5, 2, "0.1.0", "abc1234", "CPU A, 2 cores"))
    sessions_path(log).write_text(one + one[:12])  # a session line half written
    script = root / "scripts" / "stage_checkpoints.py"
    res = subprocess.run([sys.executable, str(script), "ck"], cwd=tmp_path, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "2 records staged" in res.stderr and "1 sessions staged" in res.stderr
    staged = subprocess.run(["git", "show", f":ck/{key}.sessions"], cwd=tmp_path, capture_output=True, check=True)
    assert staged.stdout.decode() == one
    staged = subprocess.run(["git", "show", f":ck/{key}.log"], cwd=tmp_path, capture_output=True, check=True).stdout
    assert staged.decode() == whole
    assert log.read_text().startswith(whole) and log.read_text() != whole  # the file itself is left alone
    (tmp_path / "copy.log").write_bytes(staged)
    assert read_log(tmp_path / "copy.log").damaged == 0


A = Session(100.0, 2, "0.1.0", "abc1234", "CPU A, 2 cores")
B = Session(200.0, 4, "0.1.0", "def5678+dirty", "Dask: 4 threads on CPU B, 8 cores")


def test_sessions_round_trip_and_skip_damaged_lines(tmp_path):
    key = LAY.key
    log = tmp_path / f"{key}.log"
    assert read_sessions(log, key) == []  # no sessions file: nothing recorded
    other = session_line("3x3-v1-s2-sym", A)  # checksum of another run's key
    bad = session_line(key, A).replace("CPU A", "CPU Z")  # altered after it was written
    sessions_path(log).write_text(session_line(key, A) + other + bad + "garbage\n" + session_line(key, B) + "a1b2")
    assert read_sessions(log, key) == [A, B]
    assert sessions_path(log).name == f"{key}.sessions"


def test_records_belong_to_the_last_session_started_before_them(tmp_path):
    key = LAY.key
    log = tmp_path / f"{key}.log"
    recs = [(0, 50.0, 1.0), (1, 150.0, 2.0), (2, 199.0, 4.0), (3, 250.0, 8.0), (4, 300.0, 16.0)]
    log.write_text(header_line(key) + "".join(record_line(key, s, 1, sec, when) for s, when, sec in recs))
    shares = machine_shares(read_log(log), [B, A])  # file order does not matter, start times do
    assert shares == [(B.cpu, 24.0), (A.cpu, 6.0), (None, 1.0)]
    text = describe_machines(shares)
    assert text == f"{B.cpu} (77 %) + {A.cpu} (19 %) + not recorded (3 %)"
    assert machine_names(text) == [B.cpu, A.cpu]
    assert describe_machines([(A.cpu, 5.0)]) == A.cpu and machine_names(A.cpu) == [A.cpu]
    assert describe_machines([(None, 5.0)]) == "not recorded (100 %)" and machine_names("not recorded (100 %)") == []
    sessions_path(log).write_text(session_line(key, A) + session_line(key, B))
    assert work_and_machines(log) == (31.0, text)


def test_a_run_notes_its_session_only_when_it_counts(tmp_path):
    """runner.run writes this machine once per session that counts shards; --fresh forgets the old ones."""
    from localcount.orchestration.runner import run
    from localcount.util.provenance import cpu_model

    lay = layout(3, 3, 4)
    run(lay, tmp_path, 1, group=(0, 2))
    run(lay, tmp_path, 1)  # resumes: a second session
    run(lay, tmp_path, 1)  # nothing left to count: no session
    log = tmp_path / f"{lay.key}.log"
    sessions = read_sessions(log, lay.key)
    assert [(s.processes, s.cpu) for s in sessions] == [(1, cpu_model())] * 2
    assert sessions[0].start <= sessions[1].start
    assert work_and_machines(log)[1] == cpu_model()
    run(lay, tmp_path, 1, fresh=True)
    assert len(read_sessions(log, lay.key)) == 1
