"""The server under load, over real HTTP: ``scripts/bench_web.py --load`` on a small scale (its keep-alive
clients, live answers while searches run, every answer timed), and the server's worker processes: they run
local logic compiled, and stopping a pool stops a search still running."""

import asyncio
import pathlib
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from localcount.puzzle.solving import logic
from localcount.web import app as web

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_load_bench_runs_and_answers_every_live_request():
    run = subprocess.run(
        [sys.executable, "scripts/bench_web.py", "--load", "--searches", "1", "--clients", "3", "--live", "12",
         "--search-timeout", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("live: 12 answered, p50 ") for line in lines), run.stdout
    assert any(line.startswith("searches: ") and "(limit 1 s)" in line for line in lines), run.stdout


def test_a_worker_process_runs_local_logic_compiled():
    try:
        web.worker_start(0)
        assert logic.compiled_for(3, 4) is not None
    finally:
        logic.use_compiled(False)


def test_a_worker_whose_compiled_code_fails_stays_interpreted(monkeypatch, capsys):
    def broken(on=True):
        raise OSError("no cache")

    monkeypatch.setattr(web.puzzles, "use_compiled", broken)
    web.worker_start(0)
    assert logic.compiled_for(3, 4) is None
    assert "local logic stays interpreted (OSError: no cache)" in capsys.readouterr().err


def test_closing_a_pool_stops_a_search_still_running():
    hard = (ROOT / "tests" / "puzzles" / "webpbn-survey-knotty.xml").read_text()
    pool = web.ProcessPool(1, niceness=10, busy_message="busy")

    async def go():
        await pool.start()
        worker = next(iter(pool._pool._processes.values()))
        search = asyncio.ensure_future(pool.run("solve", {"text": hard, "method": "search", "timeout": 30}))
        await asyncio.sleep(1.0)  # the search is running
        assert not search.done() and worker.is_alive()
        pool.close()
        deadline = time.monotonic() + 10
        while worker.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not worker.is_alive()  # not left using a core until its time limit
        search.cancel()

    asyncio.run(go())
