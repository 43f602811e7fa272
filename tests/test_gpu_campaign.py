"""scripts/gpu_campaign.py, a lent GPU in one call, rehearsed in numba's CUDA simulator at tiny sizes; and the
kernel variants stored per GPU model (``engines.gpu.count.chosen_kernel``) that it measures where none is stored."""

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

from localcount.engines.gpu import count as gpu
from localcount.engines.registry import parse_key
from localcount.orchestration.checkpoint import header_line, read_log, record_line
from localcount.orchestration.verify import twin

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "gpu_campaign.py"
SIMULATOR = "numba CUDA simulator"


def load_script():
    spec = importlib.util.spec_from_file_location("gpu_campaign", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def campaign(tmp_path, out, *options, env=None):
    """The script in a subprocess, in the simulator: (exit status, stdout, stderr, summary or None)."""
    argv = [sys.executable, str(SCRIPT), "--out", str(tmp_path / out), "--checkpoint-dir", str(tmp_path / "ck"),
            "--check", "2x3", "--margin", "1", *options]  # fmt: skip
    env = {**os.environ, gpu.SIMULATOR_ENV: "1", "PYTHONPATH": str(ROOT), **(env or {})}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path)
    summary = tmp_path / out / "summary.json"
    return proc.returncode, proc.stdout, proc.stderr, json.loads(summary.read_text()) if summary.exists() else None


def keys_of(summary):
    return [(run["key"], run["before"], run["after"], run["computed"], run["complete"]) for run in summary["runs"]]


def test_a_rehearsal_checks_chooses_the_kernel_counts_and_a_second_call_resumes(tmp_path):
    code, out, err, summary = campaign(tmp_path, "out", "--plan", "2x5,3x3", "--max-seconds", "120")
    assert code == 0, out + err
    assert out.count("\n") == 1 and out.startswith("gpu_campaign: exit 0; numba CUDA simulator; 2x3 52 equal")
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert len(files) <= 8 and files == sorted(summary["files"]) == sorted(
        ["summary.json", "variants.json", *(f"{key}.{ext}" for key in ("2x5-gpu1-s4-sym", "3x3-gpu1-s4-d4")
                                             for ext in ("log", "sessions", "sample"))])  # fmt: skip
    assert summary["check"] == {**summary["check"], "size": "2x3", "count": 52, "known": 52, "equal": True}
    assert summary["device"] == SIMULATOR and summary["versions"]["numpy"] and summary["status"] == 0
    assert keys_of(summary) == [("2x5-gpu1-s4-sym", 0, 16, 16, True), ("3x3-gpu1-s4-d4", 0, 16, 16, True)]
    # the measurement: the fastest of every variant of each size, in choices.json's shape, used by the runs
    measured = json.loads((tmp_path / "out" / "variants.json").read_text())[SIMULATOR]
    assert set(measured["kernels"]) == {"2x5", "3x3"} and len(measured["rates"]["3x3"]) == 9
    for size, name in measured["kernels"].items():
        assert measured["rates"][size][name] == max(measured["rates"][size].values())
    assert [run["kernel"] for run in summary["runs"]] == [measured["kernels"]["2x5"], measured["kernels"]["3x3"]]
    sessions = (tmp_path / "out" / "2x5-gpu1-s4-sym.sessions").read_text()
    assert f"{SIMULATOR}, kernel {measured['kernels']['2x5']}" in sessions
    # what comes back is the checkpoint: each shard as the CPU kernel counts it, the totals the recorded ones
    five = read_log(tmp_path / "out" / "2x5-gpu1-s4-sym.log")
    cpu = twin(five.layout)
    assert {s: r.count for s, r in five.records.items()} == {s: cpu.compute(s) for s in range(16)}
    assert sum(r.count for r in five.records.values()) == 810 == summary["runs"][0]["total"]
    assert sum(r.count for r in read_log(tmp_path / "out" / "3x3-gpu1-s4-d4.log").records.values()) == 384
    # a second call with the measurement stored: no variants timed, nothing recounted, only the summary back
    stored = {gpu.CHOICES_ENV: str(tmp_path / "out" / "variants.json")}
    code, out, err, again = campaign(tmp_path, "out2", "--plan", "2x5,3x3", "--max-seconds", "120", env=stored)
    assert code == 0, out + err
    assert sorted(p.name for p in (tmp_path / "out2").iterdir()) == ["summary.json"]
    assert again["variants"] == {"measured": False, "stored": measured["kernels"]}
    assert keys_of(again) == [("2x5-gpu1-s4-sym", 16, 16, 0, True), ("3x3-gpu1-s4-d4", 16, 16, 0, True)]


def test_a_budget_ends_a_run_and_the_next_calls_resume_it(tmp_path):
    """4x5 in 256 shards on budgets too short for it (the simulator counts it in 20 s or more): each call goes on
    where the last one stopped, until the count is complete and equal to the recorded one."""
    stored = tmp_path / "choices.json"
    stored.write_text(json.dumps({SIMULATOR: {"kernel": "global"}}))
    done, calls = 0, 0
    while calls < 40:
        calls += 1
        code, out, err, summary = campaign(tmp_path, f"out{calls}", "--plan", "4x5", "--shard-bits", "8",
                                           "--max-seconds", "6", env={gpu.CHOICES_ENV: str(stored)})  # fmt: skip
        assert code == 0, out + err
        if not summary["runs"]:
            continue  # the check took the budget
        [run] = summary["runs"]
        assert run["key"] == "4x5-gpu1-s8-sym" and run["before"] == done and run["after"] == done + run["computed"]
        done = run["after"]
        drawn = {".sample"} if run["before"] == 0 else set()  # the sample: once, before the first shard
        counted = {".log", ".sessions"} if run["computed"] else set()
        assert {p.suffix for p in (tmp_path / f"out{calls}").iterdir()} == {".json"} | counted | drawn
        if run["complete"]:
            assert run["total"] == run["known"] == 801832
            break
    assert done == 256 and calls > 1


def test_a_count_unlike_its_record_stops_the_call_with_status_1(tmp_path, monkeypatch, capsys):
    script = load_script()
    stored = tmp_path / "choices.json"
    stored.write_text(json.dumps({gpu.device_name(): {"kernel": "global"}}))  # no variants timed
    monkeypatch.setenv(gpu.CHOICES_ENV, str(stored))
    monkeypatch.setattr(script, "known_count", lambda n, m: 53 if (n, m) == (2, 3) else None)  # planted
    argv = ["--out", str(tmp_path / "out"), "--checkpoint-dir", str(tmp_path / "ck"), "--check", "2x3", "--plan", "2x5"]
    assert script.main(argv) == 1
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["check"]["equal"] is False and "runs" not in summary and summary["files"] == ["summary.json"]
    assert "2x3 52 DIFFERS" in capsys.readouterr().out and not (tmp_path / "ck").exists()
    # a campaign size completed with a wrong shard in its checkpoint: the total is not the recorded one
    monkeypatch.setattr(script, "known_count", lambda n, m: {(2, 3): 52, (2, 5): 810}[(n, m)])
    key = "2x5-gpu1-s4-sym"
    (tmp_path / "ck").mkdir()
    cpu = twin(parse_key(key))
    lines = [record_line(key, s, cpu.compute(s) + (s == 5), 0.1, 1.0) for s in range(16)]
    (tmp_path / "ck" / f"{key}.log").write_text(header_line(key) + "".join(lines))
    assert script.main(argv) == 1
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["runs"][0] == {**summary["runs"][0], "computed": 0, "total": 811, "known": 810}


def test_each_missing_requirement_is_one_line_and_status_2(tmp_path):
    script = load_script()
    assert script.requirements(numpy_version="2.4.6", simulated=True) == []
    [line] = script.requirements(numpy_version="2.5.0", simulated=True)
    assert "numpy 2.5.0 is too new" in line and "np.row_stack" in line and "numpy<2.5" in line
    assert script.version_of("2.5.0rc1") == (2, 5) and script.version_of("2.4") == (2, 4)
    # no simulator and no GPU (or numba-cuda): a line each, exit status 2, the summary only
    code, out, err, summary = campaign(tmp_path, "out", "--plan", "2x5",
                                       env={gpu.SIMULATOR_ENV: "0", "CUDA_VISIBLE_DEVICES": ""})  # fmt: skip
    if code == 0:  # pragma: no cover - a machine with a GPU and numba-cuda counts
        return
    assert code == 2 and out.startswith("gpu_campaign: exit 2; no device; missing: ") and out.count("\n") == 1
    lines = err.splitlines()
    assert lines == [f"gpu_campaign: {line}" for line in summary["requirements"]] and 1 <= len(lines) <= 2
    assert any("no CUDA device" in line for line in lines) and summary["files"] == ["summary.json"]
    assert not (tmp_path / "ck").exists()


def test_the_default_kernel_is_the_one_stored_for_the_gpu_model(tmp_path, monkeypatch):
    committed = json.loads(gpu.CHOICES_FILE.read_text())
    for model, entry in committed.items():  # the committed file: variants by name, for sizes by key
        assert isinstance(model, str) and entry.get("measured") and entry.get("how")
        for name in [*entry.get("kernels", {}).values(), *([entry["kernel"]] if "kernel" in entry else [])]:
            gpu.Kernel.parse(name)
    design = {size: gpu.default_kernel(*size) for size in [(3, 3), (2, 5), (3, 4)]}
    stored = tmp_path / "choices.json"
    here = {"kernels": {"3x3": "lanes2-shared-one", "2x5": "shared-one"}, "kernel": "lanes4-global"}
    stored.write_text(json.dumps({gpu.device_name(): here, "another GPU": {"kernel": "shared"}}))
    monkeypatch.setenv(gpu.CHOICES_ENV, str(stored))
    assert gpu.default_kernel(3, 3) == gpu.Kernel("shared-one", 2) == gpu.chosen_kernel(3, 3)
    assert gpu.default_kernel(3, 4) == gpu.Kernel("global", 4)  # the model's one variant for the sizes not listed
    assert gpu.chosen_kernel(2, 5) is None and gpu.default_kernel(2, 5) == design[(2, 5)]  # shared-one cannot: rule
    assert gpu.chosen_kernel(3, 3, device="another GPU") == gpu.Kernel("shared")
    assert gpu.chosen_kernel(3, 3, device="a third GPU") is None
    assert gpu.count_indices(3, 3, 0, 512, "square") == 384
    monkeypatch.delenv(gpu.CHOICES_ENV)
    assert {size: gpu.default_kernel(*size) for size in design} == design
    # --adopt: a measurement merged into the committed file's shape
    into = tmp_path / "committed.json"
    into.write_text(json.dumps({"GPU A": {"kernels": {"7x7": "shared-one"}, "measured": "then", "how": "by hand"}}))
    new = tmp_path / "variants.json"
    new.write_text(json.dumps({"GPU A": {"kernels": {"5x9": "shared"}, "measured": "now", "how": "the script"}}))
    merged = load_script().adopt(new, into)
    entry = {"kernels": {"7x7": "shared-one", "5x9": "shared"}, "rates": {}, "measured": "now", "how": "the script"}
    assert merged == json.loads(into.read_text()) == {"GPU A": entry}
