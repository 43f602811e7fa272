"""The command line: stdout holds the count alone; bad input exits 2 with one line."""

import os
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args=(), stdin="", ckdir=None):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    # a slow machine may checkpoint even 5x5 (estimated over a second): keep it out of $HOME
    env["LOCALCOUNT_CHECKPOINT_DIR"] = str(ckdir or tempfile.mkdtemp(prefix="localcount-test-"))
    return subprocess.run(
        [sys.executable, "-m", "localcount", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


@pytest.mark.parametrize(
    "args,stdin,out",
    [
        ((), "5\n", "24976511\n"),
        ((), "2 5", "810\n"),
        (("4", "4"), "", "51234\n"),
        (("0", "7"), "", "1\n"),
        (("3",), "", "384\n"),
        (("3", "--no-symmetry", "--jobs", "1"), "", "384\n"),
    ],
)
def test_count_on_stdout(args, stdin, out):
    res = run(args, stdin)
    assert res.returncode == 0, res.stderr
    assert res.stdout == out


@pytest.mark.parametrize(
    "args,stdin,word",
    [
        ((), "", "no size"),
        ((), "abc", "whole number"),
        ((), "2.5", "whole number"),
        ((), "-3", "non-negative"),
        (("-3",), "", "non-negative"),
        (("4", "-1"), "", "non-negative"),
        ((), "1 2 3", "one or two"),
        ((), "9 9", "64 cells"),
        (("5", "--jobs", "0"), "", "--jobs"),
        (("5", "--jobs", "-1"), "", "--jobs"),
        (("5", "--shard", "7/4"), "", "shard group"),
        (("3", "4", "--symmetry", "square"), "", "n = m"),
    ],
)
def test_bad_input(args, stdin, word):
    res = run(args, stdin)
    assert res.returncode == 2
    assert res.stdout == ""
    assert word in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_long_size_announces_its_estimate(tmp_path):
    """A size expected to take over a minute says so before starting (then we stop it)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "localcount", "7", "7"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=ROOT, LOCALCOUNT_CHECKPOINT_DIR=str(tmp_path)),
    )
    try:
        lines = [proc.stderr.readline()]
        while lines[-1].startswith(("localcount: compiling", "localcount: done in", "localcount: measuring")):
            # with empty caches the compile is announced first, and a count this long measures the CPU's
            # kernel variant first if it is not known yet (in one line)
            lines.append(proc.stderr.readline())
    finally:
        proc.kill()
        proc.wait()
    line = lines[-1]
    assert sum(x.startswith("localcount: measuring") for x in lines) <= 1
    assert "estimated time" in line and "2^49" in line
    assert (tmp_path / "7x7-v1-s20-d4.log").exists()  # a long run is checkpointed by default


def test_log_file_gets_every_worker_record(tmp_path):
    log = tmp_path / "run.log"
    res = run(("4", "4", "--checkpoint-dir", str(tmp_path), "--shard-bits", "5", "--log", str(log)))
    assert res.returncode == 0 and res.stdout == "51234\n"
    lines = log.read_text().splitlines()
    assert len([line for line in lines if "shard " in line]) == 32
    assert len({line.split()[2] for line in lines if "shard " in line}) >= 1  # worker pids


def test_unwritable_log_file_is_bad_input(tmp_path):
    res = run(("3", "--log", str(tmp_path / "no" / "such" / "dir" / "x.log")))
    assert res.returncode == 2 and res.stdout == ""
    assert "cannot write the log file" in res.stderr


def test_a_run_beyond_any_machines_life_is_refused_with_a_hint():
    res = run(("1", "64"))
    assert res.returncode == 2 and res.stdout == ""
    (line,) = [x for x in res.stderr.splitlines() if "error" in x]
    assert "1x64 is 2^64 grids; estimated time" in line and "days" in line
    assert "--shard K/N" in line and "--scheduler" in line and "--force" in line


def test_force_starts_what_the_estimate_would_refuse(monkeypatch, capsys, tmp_path):
    from localcount.cli import count as command
    from localcount.orchestration import launch

    monkeypatch.setattr(launch, "REFUSE_SECONDS", 1e-9)  # every estimated run is "too long"
    monkeypatch.setenv("LOCALCOUNT_CHECKPOINT_DIR", str(tmp_path))
    assert command.main(["5", "5", "-q"]) == 2
    assert capsys.readouterr().out == ""
    assert command.main(["5", "5", "-q", "--force"]) == 0
    assert capsys.readouterr().out == "24976511\n"


def test_slow_steps_are_announced_once_they_take_a_second(capsys):
    import time

    from localcount.api.feedback import said_if_slow

    with said_if_slow("compiling the kernels for 9x9", quiet=False, seconds=0.05):
        time.sleep(0.3)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "localcount: compiling the kernels for 9x9" and err[1].startswith("localcount: done in 0.")
    with said_if_slow("compiling", quiet=False, seconds=5):
        pass
    with said_if_slow("compiling", quiet=True, seconds=0.01):
        time.sleep(0.1)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", [None, *__import__("localcount.cli", fromlist=["COMMANDS"]).COMMANDS])
def test_every_command_says_a_usage_error_in_one_line(command, capsys):
    """argparse's own errors (an unknown option, a missing argument) follow the rule: exit 2, one line."""
    from localcount.cli import parser_for

    ap, _ = parser_for([command] if command else [])
    with pytest.raises(SystemExit) as stop:
        ap.parse_args(["--no-such-option"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("localcount: error: ") and err.rstrip().endswith("(see --help)")
    assert "--no-such-option" in err or "required" in err


def test_help_lists_every_command_once_in_its_group():
    from localcount.cli import COMMANDS, SUMMARIES

    listed = [name for _, rows in SUMMARIES for name, _ in rows]
    assert sorted(listed) == sorted([*COMMANDS, "(none)"])
    res = run(["--help"])
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    for title, rows in SUMMARIES:
        assert f"  {title}:" in lines
        for name, line in rows:
            assert sum(1 for x in lines if x.split()[:1] == [name] and x.rstrip().endswith(line)) == 1, name
    for name in COMMANDS:  # each one-liner names a command that answers --help
        assert run([name, "--help"]).returncode == 0, name
