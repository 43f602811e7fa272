"""``--idle`` and a live campaign: the workers' priority read from the OS, ``status`` of a run held, paused and
resumed, and SIGSTOP/SIGCONT losing and doubling nothing."""

import io
import os
import signal
import subprocess
import sys
import time

import pytest
from records import record_shards, wait_for_records

import localcount as lc
from localcount.engines.grid.layout import GridLayout
from localcount.orchestration import status as report
from localcount.orchestration import yielding
from localcount.orchestration.checkpoint import Record, Session, lock_holder, read_log, read_sessions, session_line
from localcount.orchestration.runner import DELAY_ENV
from localcount.util import priority

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIVE = 24976511
LAY = GridLayout.make(5, 5)  # 256 shards
linux_idle = pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")


def env(delay=0.0, busy="off"):
    """The runs' environment: shards slowed by ``delay`` s; ``busy``: the cores others may use before an idle
    run's workers step aside ('off' here: the tests beside these keep the machine busy)."""
    return dict(os.environ, PYTHONPATH=ROOT, **{DELAY_ENV: str(delay), yielding.ENV: busy})


def start(ckdir, *extra, delay=0.05, own_session=True, busy="off"):
    command = [sys.executable, "-m", "localcount", "5", "5", "--jobs", "2", "--checkpoint-dir", str(ckdir), *extra]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env(delay, busy), start_new_session=own_session)  # fmt: skip


def log_path(ckdir):
    return ckdir / f"{LAY.key}.log"


def children(pid):
    return [int(p) for p in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()]


def autogroup_nice(pid):
    """The nice value of a process's autogroup ('/autogroup-343 nice 19' -> 19).

    None without autogroups, and None in the kernel's default autogroup: a process whose session was never
    started since boot by a ``setsid`` (pid 1's, a container's first process's and so its every job's) reads
    an empty file there.
    """
    try:
        with open(f"/proc/{pid}/autogroup") as f:
            fields = f.read().split()
    except OSError:
        return None
    return int(fields[-1]) if fields else None


def autogroups_on():
    try:
        with open(priority.AUTOGROUP_SWITCH) as f:
            return f.read().strip() != "0" and os.path.exists(priority.AUTOGROUP)
    except OSError:
        return False


def test_autogroup_nice_reads_a_named_group_and_the_default_one(tmp_path, monkeypatch):
    real_open = open
    texts = {"/proc/1/autogroup": "/autogroup-343 nice 19\n", "/proc/2/autogroup": ""}
    monkeypatch.setattr("builtins.open", lambda path, *a, **k: io.StringIO(texts[path]) if path in texts
                        else real_open(path, *a, **k))  # fmt: skip
    assert autogroup_nice(1) == 19 and autogroup_nice(2) is None
    assert autogroup_nice(2**22 + 7) is None  # no such process


def status_line(ckdir):
    res = subprocess.run([sys.executable, "-m", "localcount", "status", str(ckdir)], capture_output=True, text=True,
                         env=env())  # fmt: skip
    assert res.returncode == 0, res.stderr
    return next(line for line in res.stdout.splitlines() if line.startswith(LAY.key))


def stop(proc):
    if proc.poll() is None:  # the whole job where it has its own group; else the run (its workers follow it)
        os.killpg(proc.pid, signal.SIGKILL) if os.getpgid(proc.pid) == proc.pid else proc.kill()
    return proc.communicate()


@linux_idle
@pytest.mark.parametrize("own_session", [True, False], ids=["session-leader", "terminal-session"])
def test_an_idle_run_and_its_workers_run_at_idle_priority(tmp_path, own_session):
    proc = start(tmp_path, "--idle", own_session=own_session)
    try:
        wait_for_records(log_path(tmp_path), proc, 2)
        workers = children(proc.pid)
        assert len(workers) == 2
        for pid in (proc.pid, *workers):
            assert os.sched_getscheduler(pid) == os.SCHED_IDLE
            assert os.getpriority(os.PRIO_PROCESS, pid) == priority.NICE
        if autogroups_on():
            if own_session:  # it leads its session: the whole run shares one lowered autogroup
                assert all(os.getsid(w) == proc.pid for w in workers)
                assert autogroup_nice(proc.pid) == priority.NICE
            else:  # the caller's session is left as it was; each worker took its own, lowered
                assert all(os.getsid(w) == w for w in workers)
                assert autogroup_nice(proc.pid) == autogroup_nice(os.getpid())
            assert all(autogroup_nice(w) == priority.NICE for w in workers)
        sessions = read_sessions(log_path(tmp_path), LAY.key)
        assert sessions[-1].priority.startswith("idle: SCHED_IDLE, nice 19")
    finally:
        out, err = stop(proc)
    assert err.splitlines()[0].startswith("localcount: idle priority: SCHED_IDLE, nice 19")


def test_a_run_without_idle_keeps_its_priority_and_records_none(tmp_path):
    proc = start(tmp_path, delay=0.0)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and out == f"{FIVE}\n" and "idle priority" not in err
    assert read_sessions(log_path(tmp_path), LAY.key)[-1].priority == ""


def test_where_the_os_has_no_idle_policy_nice_19_and_one_note():
    code = (
        "import os; from localcount.util import priority as p\n"
        "del os.SCHED_IDLE; p.AUTOGROUP = '/nonexistent/autogroup'\n"
        "idle = p.lower(); print(idle.line()); print(os.getpriority(os.PRIO_PROCESS, 0))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env(), timeout=60)
    line, nice = res.stdout.splitlines()
    assert line == "idle priority: nice 19 (SCHED_IDLE: not on this OS; autogroup: not in this kernel)"
    assert nice == "19"


def test_idle_is_refused_for_a_remote_dask_scheduler():
    res = subprocess.run([sys.executable, "-m", "localcount", "4", "--idle", "--scheduler", "tcp://nowhere:1"],
                         capture_output=True, text=True, env=env())  # fmt: skip
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and "--idle" in res.stderr and "Dask" in res.stderr


def test_the_sessions_file_keeps_the_priority_and_reads_older_lines(tmp_path):
    path = tmp_path / "k.log"
    lines = [
        Session(1.0, 2, "0.1.0", "abc", "CPU X", "lanes", "idle: SCHED_IDLE, nice 19"),
        Session(2.0, 2, "0.1.0", "abc", "CPU X", "", "idle: nice 19"),  # no kernel noted, a priority
        Session(3.0, 2, "0.1.0", "abc", "CPU X", "lanes"),  # seven columns, as before
        Session(4.0, 2, "0.1.0", "abc", "CPU X"),  # six, as before
    ]
    path.with_suffix(".sessions").write_text("".join(session_line("k", s) for s in lines))
    assert read_sessions(path, "k") == lines
    assert session_line("k", lines[3]).count("\t") == 5 and session_line("k", lines[2]).count("\t") == 6


def test_status_sees_a_run_held_paused_and_resumed_and_the_resumed_count_is_exact(tmp_path):
    proc = start(tmp_path, delay=0.05)
    try:
        wait_for_records(log_path(tmp_path), proc, 4)
        line = status_line(tmp_path)
        assert f"running (pid {proc.pid}), last 10 min " in line and " grids/s, ETA " in line
        os.killpg(proc.pid, signal.SIGSTOP)  # the whole job, as Ctrl-Z or the campaign's pause does
        assert f"paused (pid {proc.pid})" in status_line(tmp_path)
        held = len(record_shards(log_path(tmp_path)))
        os.killpg(proc.pid, signal.SIGCONT)
        assert f"running (pid {proc.pid})" in status_line(tmp_path)
        out, err = proc.communicate(timeout=300)
    finally:
        stop(proc)
    assert proc.returncode == 0 and out == f"{FIVE}\n"  # the plain count of 5x5
    shards = record_shards(log_path(tmp_path))
    assert held < LAY.shards and len(shards) == len(set(shards)) == LAY.shards  # nothing lost, nothing twice
    assert sum(r.count for r in read_log(log_path(tmp_path)).records.values()) == FIVE
    line = status_line(tmp_path)
    assert " complete, last record " in line and "pid" not in line and "last 10 min" not in line
    assert lock_holder(tmp_path / f"{LAY.key}.lock") is None


def test_status_reads_each_runs_live_state_before_its_records(tmp_path, monkeypatch, capsys):
    """Reading the records takes a core for a second or more, and an idle run steps aside for that: the state
    status gives must be the one it found, not its own doing."""
    proc = start(tmp_path, delay=0.0)
    proc.communicate(timeout=300)
    log_path(tmp_path).write_text(log_path(tmp_path).read_text().splitlines(keepends=True)[0])  # none done
    calls = []
    monkeypatch.setattr(report, "live_state", lambda lock: calls.append("state") or "running (pid 7)")
    real_read = report.read_log
    monkeypatch.setattr(report, "read_log", lambda path: calls.append("read") or real_read(path))
    assert report.status([tmp_path], 2) == 0
    assert calls == ["state", "read"] and "running (pid 7)" in capsys.readouterr().out


def test_a_stopped_run_is_stopped_with_its_recent_rate(tmp_path):
    proc = start(tmp_path, delay=0.02)
    wait_for_records(log_path(tmp_path), proc, 10)
    stop(proc)
    line = status_line(tmp_path)
    assert "  stopped, last 10 min " in line and "pid" not in line


def test_the_recent_rate_takes_the_last_ten_minutes_of_records():
    def rec(start, end):
        return Record(1, end - start, end)

    assert report.recent_rate([]) is None
    two = [rec(0, 10), rec(0, 10), rec(10, 20), rec(10, 20)]  # two processes, a shard each 10 s
    assert report.recent_rate(two, 600, 100) == pytest.approx(4 * 100 / 20)
    later = [rec(5000 + 10 * i, 5010 + 10 * i) for i in range(120)]  # one process: 20 minutes, a shard each 10 s
    assert report.recent_rate(two + later, 600, 100) == pytest.approx(10)  # the old records are out of the window
    half = [rec(0, 1200)]  # one long shard: the share of it inside the window
    assert report.recent_rate(half, 600, 100) == pytest.approx(100 / 1200)
    gap = [rec(0, 100), rec(400, 500)]  # stopped for 5 minutes, then on: the wall clock's rate, the stop included
    assert report.recent_rate(gap, 600, 100) == pytest.approx(2 * 100 / 500)
    # a layout with symmetry: a shard's mirror images are done with it, recorded at 0 s, and count as done
    mirrored = [rec(10 * i, 10 * i + 10) for i in range(6)] + [Record(0, 0.0, 10 * i + 10) for i in range(6)]
    assert report.recent_rate(mirrored, 600, 100) == pytest.approx(12 * 100 / 60)
    assert report.recent_rate(mirrored + [Record(0, 0.0, -1000)], 600, 100) == pytest.approx(12 * 100 / 60)


def state(pid):
    return yielding.stat_fields(pid)[0]


@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="the load is read from /proc")
def test_an_idle_runs_workers_step_aside_while_others_are_busy_and_an_interrupt_still_stops_it(tmp_path):
    proc = start(tmp_path, "--idle", busy="-1")  # every load is over -1 core: the workers step aside at once
    try:
        wait_for_records(log_path(tmp_path), proc, 1)
        workers = children(proc.pid)
        deadline = time.time() + 30
        while not all(state(w) == "T" for w in workers):
            assert time.time() < deadline
            time.sleep(0.1)
        assert f"stepping aside for other work (pid {proc.pid})" in status_line(tmp_path)
        held = len(record_shards(log_path(tmp_path)))
        time.sleep(1)
        assert len(record_shards(log_path(tmp_path))) <= held + 2  # at most the shards in hand when stopped
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # the stopped workers are let go and stopped: no hang
    finally:
        stop(proc)
    assert proc.returncode == 130 and out == "" and "shards are saved" in err
    res = subprocess.run([sys.executable, "-m", "localcount", "5", "5", "--jobs", "2", "--checkpoint-dir",
                          str(tmp_path), "--idle"], capture_output=True, text=True, env=env(), timeout=300)  # fmt: skip
    assert res.returncode == 0 and res.stdout == f"{FIVE}\n"
    shards = record_shards(log_path(tmp_path))
    assert len(shards) == len(set(shards)) == LAY.shards


def test_the_gate_steps_aside_at_once_and_goes_on_after_a_quiet_spell():
    gate = yielding.Gate(busy=0.5, quiet=5.0)
    assert gate.update(0.0, 0.0) is False and gate.update(0.4, 1.0) is False  # a little load: go on
    assert gate.update(1.9, 2.0) is True  # a busy foreground: step aside at once
    assert gate.update(0.1, 3.0) is True and gate.update(0.2, 7.9) is True  # quiet, but not for 5 s yet
    assert gate.update(1.0, 8.0) is True  # busy again: the quiet starts over at the next quiet reading
    assert gate.update(0.0, 9.0) is True and gate.update(0.3, 13.9) is True
    assert gate.update(0.0, 14.0) is False  # 5 s quiet since 9.0: go on
    assert gate.update(0.0, 15.0) is False


@pytest.mark.parametrize(
    "line,busy",
    [
        ("cpu  100 20 30 5000 40 6 7 800 90 9\n", 163),  # user nice system irq softirq; guests are in user
        ("cpu  100 20 30 5000\n", 150),  # an old kernel's four columns
    ],
)
def test_the_machines_load_counts_its_own_work_not_idle_iowait_or_a_hosts_steal(monkeypatch, line, busy):
    real_open = open
    monkeypatch.setattr("builtins.open", lambda path, *a, **k: io.StringIO(line) if path == "/proc/stat"
                        else real_open(path, *a, **k))  # fmt: skip
    assert yielding.machine_busy_ticks() == busy


def test_stepping_aside_is_off_when_asked_or_without_proc(monkeypatch):
    monkeypatch.setenv(yielding.ENV, "off")
    assert yielding.busy_cores() is None
    monkeypatch.setenv(yielding.ENV, "1.5")
    assert yielding.busy_cores() == (1.5 if os.path.exists("/proc/stat") else None)
    assert yielding.watch([], None) is None  # a run not at idle priority is never watched


@linux_idle
@pytest.mark.parametrize(
    "argv,stdout",
    [
        (["stats", "3", "--idle", "--json"], '"solvable": 384'),
        (["sample", "3", "--count", "50", "--idle"], "3x3"),
        (["verify", "NOWHERE", "--idle"], ""),  # bad input still exits 2, after saying what was set
    ],
    ids=["stats", "sample", "verify"],
)
def test_stats_sample_and_verify_take_idle_and_say_first_what_was_set(tmp_path, argv, stdout):
    argv = [str(tmp_path / "none") if a == "NOWHERE" else a for a in argv]
    res = subprocess.run([sys.executable, "-m", "localcount", *argv], capture_output=True, text=True, env=env(),
                         timeout=300)  # fmt: skip
    assert res.stderr.splitlines()[0].startswith("localcount: idle priority: SCHED_IDLE, nice 19")
    assert (res.returncode, stdout in res.stdout) == ((2, True) if argv[0] == "verify" else (0, True)), res.stderr


@pytest.mark.parametrize("idle", [True, False], ids=["idle", "normal"])
def test_an_idle_runs_records_give_the_shards_cpu_time_without_the_time_they_stood_aside(tmp_path, idle):
    """5x6 in 16 shards of about a second: its workers are stopped for 2 s in the middle of their shards. An idle
    run's records give each shard's own CPU time (the work results/ reports); a normal run's, the wall time."""
    lay = GridLayout.make(5, 6, 4)
    command = [sys.executable, "-m", "localcount", "5", "6", "--jobs", "2", "--shard-bits", "4", "--checkpoint-dir",
               str(tmp_path), *(["--idle"] if idle else [])]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env(),
                            start_new_session=True)  # fmt: skip
    path = tmp_path / f"{lay.key}.log"
    try:
        wait_for_records(path, proc, 1)
        workers = children(proc.pid)
        for w in workers:
            os.kill(w, signal.SIGSTOP)
        time.sleep(2)
        for w in workers:
            os.kill(w, signal.SIGCONT)
        out, err = proc.communicate(timeout=300)
    finally:
        stop(proc)
    assert proc.returncode == 0 and int(out) == lc.known(5, 6).count
    longest = max(r.seconds for r in read_log(path).records.values())
    assert (longest < 1.9) if idle else (longest >= 2)
