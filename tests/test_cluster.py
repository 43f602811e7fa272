"""Shards as Dask tasks (localcount.orchestration.cluster): exact counts, the same checkpoint, worker and client deaths."""

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

distributed = pytest.importorskip("distributed")

from records import record_shards, wait_for_records  # noqa: E402

from localcount import cli  # noqa: E402
from localcount.engines.grid.count import count  # noqa: E402
from localcount.engines.grid.layout import GridLayout  # noqa: E402
from localcount.engines.stats.layout import StatsLayout  # noqa: E402
from localcount.orchestration import cluster, runner  # noqa: E402
from localcount.orchestration.checkpoint import Checkpoint, read_log  # noqa: E402
from localcount.orchestration.runner import DELAY_ENV, Stopped, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIVE = 24976511
layout = GridLayout.make


@pytest.fixture(scope="module")
def client():
    """A LocalCluster of 2 single-thread worker processes, shared by this module's tests."""
    with cluster.connect(local_workers=2) as c:
        yield c


def test_two_workers_count_5x5_and_4x6_exactly(client, tmp_path):
    out = run(layout(5, 5), tmp_path, 2, execute=cluster.executor(client))
    assert out.total == FIVE and out.computed == out.shards
    # 4x6 has no given value: the Dask run must agree with the in-process threaded count, in both groups.
    for symmetry in ("flips", "none"):
        lay = layout(4, 6, symmetry=symmetry)
        out = run(lay, tmp_path, 2, execute=cluster.executor(client, batch=3))
        assert out.total == count(4, 6, symmetry="none")


def test_thin_shards_run_as_tasks_too(client, tmp_path):
    from localcount.engines.thin.layout import ThinLayout

    lay = ThinLayout.make(9, 5, rows="word")
    out = run(lay, tmp_path, 2, execute=cluster.executor(client))
    assert out.total == count(2, 9) and read_log(out.path).layout == lay


def test_stats_shards_run_as_tasks_too(client, tmp_path):
    from localcount.engines.stats.compute import stats
    from localcount.engines.stats.measures import from_vector

    lay = StatsLayout(4, 4, 1, path="transposed", symmetry="none")
    out = run(lay, tmp_path, 2, execute=cluster.executor(client))
    assert from_vector(4, 4, out.total) == stats(4, 4)  # rows path with flips, in process


def test_gpu_shards_run_as_tasks_too(client, tmp_path):
    """The workers inherit tests/conftest.py's NUMBA_ENABLE_CUDASIM=1: each runs the GPU engine's launches."""
    from localcount.engines.gpu.layout import GpuLayout

    lay = GpuLayout.make(3, 4, bits=3)
    out = run(lay, tmp_path, 2, execute=cluster.executor(client))
    assert out.total == 3116 and out.computed == 8 and read_log(out.path).layout == lay


def test_stats_command_on_a_local_cluster_matches_in_process(tmp_path, capsys):
    from localcount.cli import stats as statscli

    assert statscli.main(["4", "4", "--json", "--dask-local", "2", "--checkpoint-dir", str(tmp_path)]) == 0
    dask_out = capsys.readouterr()
    assert "2 Dask worker threads" in dask_out.err
    assert statscli.main(["4", "4", "--json"]) == 0
    assert capsys.readouterr().out == dask_out.out


def test_a_campaign_moves_between_local_processes_and_the_cluster(client, tmp_path):
    lay = layout(5, 5)
    half = run(lay, tmp_path, 2, group=(0, 2))  # local worker processes, even shards
    assert half.computed == lay.shards // 2
    out = run(lay, tmp_path, 2, execute=cluster.executor(client))  # the cluster does the rest
    assert out.computed == lay.shards // 2 and out.total == FIVE
    shards = record_shards(tmp_path / f"{lay.key}.log")
    assert sorted(shards) == list(range(lay.shards))


def test_a_worker_killed_mid_run_still_gives_the_exact_count(client, tmp_path):
    lay = layout(5, 5)
    path = tmp_path / f"{lay.key}.log"
    client.run(os.environ.__setitem__, DELAY_ENV, "0.01")  # slow the live workers down, not a restarted one
    before = client.run(os.getpid)
    victim = sorted(before.values())[0]
    killed = []

    def kill_when_started():
        deadline = time.time() + 60
        while len(record_shards(path)) < 40 and time.time() < deadline:
            time.sleep(0.005)
        os.kill(victim, signal.SIGKILL)
        killed.append(len(record_shards(path)))

    t = threading.Thread(target=kill_when_started)
    t.start()
    try:
        out = run(lay, tmp_path, 2, execute=cluster.executor(client, batch=4))
    finally:
        t.join()
        client.run(os.environ.pop, DELAY_ENV, None)
    assert killed and killed[0] < lay.shards  # it died mid-run
    assert out.total == FIVE
    shards = record_shards(path)
    assert sorted(shards) == list(range(lay.shards))  # each shard recorded once: nothing counted twice
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it
    assert victim not in client.run(os.getpid).values()


def _cli(ckdir, *extra, delay=0.0):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env[DELAY_ENV] = str(delay)
    return [
        sys.executable,
        "-m",
        "localcount",
        "5",
        "5",
        "--dask-local",
        "2",
        "--checkpoint-dir",
        str(ckdir),
        *extra,
    ], env


@pytest.mark.parametrize("how", ["sigkill", "sigint"])
def test_a_client_stopped_mid_run_resumes_from_the_checkpoint(tmp_path, how):
    lay = layout(5, 5, symmetry="square")
    path = tmp_path / f"{lay.key}.log"
    cmd, env = _cli(tmp_path, delay=0.05)
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        wait_for_records(path, proc, 30)
        status = subprocess.run([sys.executable, "-m", "localcount", "status", str(tmp_path)], env=env,
                                capture_output=True, text=True, timeout=60)  # fmt: skip
        assert lay.key in status.stdout and "running" in status.stdout  # the same view as local runs
        if how == "sigkill":
            os.killpg(proc.pid, signal.SIGKILL)  # client, cluster and workers, with no warning
            proc.wait(timeout=60)
        else:
            os.kill(proc.pid, signal.SIGINT)  # Ctrl-C to the client
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 130, err
            assert "run the same command again to resume" in err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    saved = len(record_shards(path))
    assert 30 <= saved < lay.shards
    cmd, env = _cli(tmp_path)
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout == f"{FIVE}\n"
    assert f"{saved} of {lay.shards} shards from the checkpoint" in res.stderr
    assert sorted(record_shards(path)) == list(range(lay.shards))


def test_a_result_that_comes_back_twice_is_checked_never_added(tmp_path):
    lay = layout(3, 3)
    with Checkpoint(tmp_path, lay) as ckpt:
        done = ckpt.open()
        tally = runner.Tally(lay, ckpt, done, None, 0)
        tally(1, 5, 0.1)
        tally(1, 5, 0.1)
        with pytest.raises(Stopped, match="computed twice with different values"):
            tally(1, 6, 0.1)
    assert record_shards(tmp_path / f"{lay.key}.log") == [1]
    assert read_log(tmp_path / f"{lay.key}.log").records[1].count == 5


def test_workers_with_other_code_are_refused(client, tmp_path, monkeypatch):
    with pytest.raises(RuntimeError, match="install the same version"):
        cluster.compute_batch(layout(2, 2), [0], "0.0.0-other")
    monkeypatch.setattr(cluster, "__version__", "0.0.0-other")  # the client's version, as the workers see it
    with pytest.raises(Stopped, match="install the same version"):
        run(layout(3, 3), tmp_path, 2, execute=cluster.executor(client))


def test_batch_size_aims_at_short_tasks_and_enough_of_them():
    assert cluster.batch_size(256, 2) == 16  # 8 tasks per thread
    assert cluster.batch_size(256, 2, shard_seconds=0.25) == 4  # about a second per task
    assert cluster.batch_size(256, 2, shard_seconds=30.0) == 1
    assert cluster.batch_size(3, 64) == 1


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", "1s")
    status = cli.main(["4", "4", "--scheduler", "tcp://127.0.0.1:1", "--checkpoint-dir", str(tmp_path)])
    assert status == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in capsys.readouterr().err


def test_without_dask_installed_the_error_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    status = cli.main(["4", "4", "--dask-local", "2", "--checkpoint-dir", str(tmp_path)])
    assert status == 1
    assert "pip install 'localcount[dask]'" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["0", "-2"])
def test_dask_local_needs_a_worker(value, capsys):
    assert cli.main(["4", "--dask-local", value]) == 2
    assert "--dask-local must be at least 1" in capsys.readouterr().err


def test_scheduler_and_dask_local_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["4", "--dask-local", "2", "--scheduler", "tcp://h:1"])
    assert exc.value.code == 2 and "not allowed with" in capsys.readouterr().err


def _free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_lost_scheduler_stops_the_run_and_a_local_cluster_resumes_it(tmp_path):
    """A real cluster (dask scheduler + dask worker processes); the scheduler dies mid-run."""
    lay = layout(5, 5, symmetry="square")
    path = tmp_path / f"{lay.key}.log"
    address = f"tcp://127.0.0.1:{_free_port()}"
    env = dict(os.environ, PYTHONPATH=ROOT, **{DELAY_ENV: "0.05"})
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen([*dask, "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--dashboard-address", ":0"],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nworkers", "2", "--nthreads", "1"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        cmd = [sys.executable, "-m", "localcount", "5", "5", "--scheduler", address, "--checkpoint-dir", str(tmp_path)]
        client = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_for_records(path, client, 20)
        os.killpg(scheduler.pid, signal.SIGKILL)
        out, err = client.communicate(timeout=120)
        assert client.returncode == 1 and out == ""
        assert f"lost the connection to the Dask scheduler at {address}" in err
        assert "run the same command again to resume" in err and "Traceback" not in err
    finally:
        for proc in (scheduler, worker):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    saved = len(record_shards(path))
    assert 20 <= saved < lay.shards
    cmd, env = _cli(tmp_path)
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0 and res.stdout == f"{FIVE}\n", res.stderr
    assert f"{saved} of {lay.shards} shards from the checkpoint" in res.stderr
    assert sorted(record_shards(path)) == list(range(lay.shards))


def test_table_records_runs_made_on_the_cluster(client, tmp_path, capsys):
    from localcount.cli import table
    from localcount.engines.stats.compute import stats
    from localcount.results.records import read_runs, read_stats_runs
    from localcount.util.provenance import cpu_model

    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n<!-- known-values:begin -->\n<!-- known-values:end -->\n")
    where = ["--scheduler", client.scheduler.address, "--results", str(tmp_path / "res"), "--readme", str(readme)]
    assert table.main(["--sizes", "4x5", "--checkpoint-dir", str(tmp_path / "ck"), *where]) == 0
    counted = capsys.readouterr()
    assert counted.out == f"4 5 {count(4, 5)}\n"  # both paths (4x5 flips, 5x4 every grid) agree with the threads path
    assert "on 2 Dask worker threads" in counted.err
    assert table.main(["--stats", "--sizes", "3x4", "--checkpoint-dir", str(tmp_path / "ck2"), *where]) == 0
    s = stats(3, 4)
    assert capsys.readouterr().out == f"3 4 {s.solvable} {s.unique} {s.stuck_start} {s.max_rounds} {s.max_steps}\n"
    runs = read_runs(tmp_path / "res") + read_stats_runs(tmp_path / "res")
    assert len(runs) == 4
    for r in runs:  # provenance names the cluster's machines and threads, not the client's
        assert (r.processes, r.cpu) == (2, f"Dask: 2 threads on {cpu_model()}")


def test_table_with_an_unreachable_scheduler_says_so(tmp_path, capsys):
    from localcount.cli import table

    args = ["--sizes", "2x2", "--results", str(tmp_path / "res"), "--readme", str(tmp_path / "README.md")]
    assert table.main([*args, "--scheduler", "tcp://127.0.0.1:9"]) == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in capsys.readouterr().err
    assert not (tmp_path / "res" / "runs.csv").exists()
