"""Real runs stopped by SIGKILL, SIGINT and SIGTERM, then resumed: exact, nothing recomputed."""

import os
import signal
import subprocess
import sys

import pytest
from records import record_shards, wait_for_records

from localcount.engines.grid.layout import GridLayout
from localcount.orchestration import status as report
from localcount.orchestration.checkpoint import Record, read_log
from localcount.orchestration.runner import DELAY_ENV

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIVE = 24976511
layout = GridLayout.make
LAY = layout(5, 5)  # default layout: 256 shards


def command(ckdir, *extra):
    return [sys.executable, "-m", "localcount", "5", "5", "--jobs", "2", "--checkpoint-dir", str(ckdir), *extra]


def env(delay=0.0):
    e = dict(os.environ, PYTHONPATH=ROOT)
    e[DELAY_ENV] = str(delay)
    return e


def log_path(ckdir):
    """The 5x5 checkpoint log in `ckdir`."""
    return ckdir / f"{LAY.key}.log"


def start(ckdir, delay):
    return subprocess.Popen(
        command(ckdir),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(delay),
        start_new_session=True,  # its own process group, like a job in a terminal
    )


def finish(ckdir):
    res = subprocess.run(command(ckdir), capture_output=True, text=True, env=env(), timeout=300)
    assert res.returncode == 0, res.stderr
    return res


def assert_each_shard_once(ckdir):
    shards = record_shards(log_path(ckdir))
    assert len(shards) == len(set(shards)) == LAY.shards  # nothing recomputed, nothing missing
    log = read_log(log_path(ckdir))
    assert log.damaged == 0 and sum(r.count for r in log.records.values()) == FIVE


def test_sigkill_at_several_moments_then_resume(tmp_path):
    before = 0
    for at_least in (1, 40, 120, 200):
        proc = start(tmp_path, delay=0.02)
        wait_for_records(log_path(tmp_path), proc, at_least)
        os.killpg(proc.pid, signal.SIGKILL)  # the whole job: parent and workers, no warning
        proc.wait()
        now = len(record_shards(log_path(tmp_path)))
        assert before < now < LAY.shards
        before = now
    res = finish(tmp_path)
    assert res.stdout == f"{FIVE}\n"
    assert f"{before} of {LAY.shards} shards from the checkpoint" in res.stderr
    assert_each_shard_once(tmp_path)


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_keeps_finished_shards(tmp_path, sig, status):
    for at_least in (5, 100):
        proc = start(tmp_path, delay=0.02)
        wait_for_records(log_path(tmp_path), proc, at_least)
        os.killpg(proc.pid, sig)  # Ctrl-C reaches the whole foreground job
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == status, err
        assert out == ""
        assert "run the same command again to resume" in err
        assert "Traceback" not in err
        saved = len(record_shards(log_path(tmp_path)))
        assert f"{saved} of {LAY.shards} shards are saved" in err
    assert finish(tmp_path).stdout == f"{FIVE}\n"
    assert_each_shard_once(tmp_path)


def test_second_run_on_the_same_checkpoint_is_refused(tmp_path):
    proc = start(tmp_path, delay=0.05)
    try:
        wait_for_records(log_path(tmp_path), proc, 1)
        res = subprocess.run(command(tmp_path), capture_output=True, text=True, env=env(), timeout=120)
        assert res.returncode == 1
        assert res.stdout == ""
        assert "in use by another run" in res.stderr
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_corrupt_checkpoint_recomputes_only_the_damage(tmp_path):
    finish(tmp_path)
    path = log_path(tmp_path)
    lines = path.read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace(" ", "  ", 1)[:-4] + "zz\n"  # a bad checksum
    lines[-1] = lines[-1][:10]  # a torn last write
    path.write_text("".join(lines))
    res = finish(tmp_path)
    assert res.stdout == f"{FIVE}\n"
    assert "2 damaged record(s) ignored" in res.stderr
    assert f"{LAY.shards - 2} of {LAY.shards} shards from the checkpoint" in res.stderr
    assert_each_shard_once(tmp_path)


def test_foreign_checkpoint_is_refused_with_instructions(tmp_path):
    other = layout(4, 4)
    subprocess.run(
        [sys.executable, "-m", "localcount", "4", "4", "--checkpoint-dir", str(tmp_path)],
        env=env(),
        check=True,
        capture_output=True,
    )
    os.replace(tmp_path / f"{other.key}.log", log_path(tmp_path))
    res = subprocess.run(command(tmp_path), capture_output=True, text=True, env=env(), timeout=120)
    assert res.returncode == 1 and res.stdout == ""
    assert "belongs to run 4x4" in res.stderr and "Traceback" not in res.stderr


def test_shard_groups_merge_to_the_full_count(tmp_path):
    dirs = []
    for k in range(3):
        d = tmp_path / f"machine{k}"
        res = subprocess.run(
            [sys.executable, "-m", "localcount", "4", "6", "--shard", f"{k}/3", "--checkpoint-dir", str(d)],
            capture_output=True,
            text=True,
            env=env(),
            timeout=120,
        )
        assert res.returncode == 0, res.stderr
        assert "shard group" in res.stderr
        dirs.append(str(d))
    merge = [sys.executable, "-m", "localcount", "merge"]
    res = subprocess.run(merge + dirs, capture_output=True, text=True, env=env())
    assert res.returncode == 0 and res.stdout == "12560410\n"
    res = subprocess.run(merge + dirs[:2], capture_output=True, text=True, env=env())
    assert res.returncode == 1 and res.stdout == "" and "missing" in res.stderr


def test_status_lists_runs(tmp_path):
    finish(tmp_path)
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "status", str(tmp_path)], capture_output=True, text=True, env=env()
    )
    assert res.returncode == 0
    assert LAY.key in res.stdout and "complete" in res.stdout
    assert res.stdout.split()[:6] == ["run", "shards", "done", "grids", "done", "grids/s/proc"]
    assert res.stdout.split()[6:8] == ["active", "ETA"]
    (tmp_path / "bad.log").write_text("not a checkpoint\n")  # one unreadable log hides none of the others
    res = subprocess.run(
        [sys.executable, "-m", "localcount", "status", str(tmp_path)], capture_output=True, text=True, env=env()
    )
    assert res.returncode == 1 and LAY.key in res.stdout and "complete" in res.stdout
    assert len(res.stderr.strip().splitlines()) == 1 and "bad.log" in res.stderr


def test_active_time_adds_up_sessions_without_the_gaps_between_them():
    def rec(start, end):
        return Record(1, end - start, end)

    assert report.active_seconds([]) == 0
    two_processes = [rec(0, 10), rec(2, 6), rec(6, 14), rec(10, 12)]  # overlapping shards: 0..14
    next_session = [rec(1000, 1005), rec(1003, 1009)]  # resumed after a stop: 1000..1009
    assert report.active_seconds(two_processes) == 14
    assert report.active_seconds(two_processes + next_session) == 14 + 9
    assert report.active_seconds(reversed(two_processes + next_session)) == 23  # order of the records


def test_a_worker_killed_alone_stops_the_run_cleanly(tmp_path):
    proc = start(tmp_path, delay=0.05)
    try:
        wait_for_records(log_path(tmp_path), proc, 4)
        kids = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        os.kill(int(kids[0]), signal.SIGKILL)  # e.g. the out-of-memory killer
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 1 and out == ""
    assert "died" in err and "run the same command again to resume" in err and "Traceback" not in err
    assert finish(tmp_path).stdout == f"{FIVE}\n"
    assert_each_shard_once(tmp_path)
