"""Campaigns in short runs: ``--max-seconds`` (``orchestration.budget``), the enumeration's plan in numpy
(``engines.enumeration``), and a GPU count's seeded sample recounted on the CPU (``orchestration.verify``,
``verify``), the GPU engine in numba's CUDA simulator (tests/conftest.py)."""

import math
import time
from dataclasses import dataclass

import numpy as np
import pytest
from incli import cli

import localcount as lc
from localcount import tuning
from localcount.api.campaign import verify
from localcount.api.counting import Unfinished, run_count
from localcount.engines import enumeration
from localcount.engines.base import GROUP_IDS
from localcount.engines.gpu.layout import GpuLayout
from localcount.engines.grid.layout import GridLayout
from localcount.orchestration import verify as verification
from localcount.orchestration.budget import Budget
from localcount.orchestration.checkpoint import Checkpoint, CheckpointError, read_log
from localcount.orchestration.runner import run

# --- the plan in numpy, against the CPU kernel's own ---


@pytest.mark.parametrize("n,m,group", [
    (1, 6, "flips"), (2, 2, "flips"), (2, 5, "flips"), (3, 4, "flips"), (4, 3, "flips"), (5, 4, "flips"), (4, 6, "flips"),
    (2, 2, "square"), (3, 3, "square"), (4, 4, "square"), (5, 5, "square"), (6, 6, "square"), (3, 5, "none"),
])  # fmt: skip
def test_representatives_are_the_cpu_kernels_border_by_border(n, m, group):
    from localcount.engines.grid.kernel import representatives

    mine = enumeration.representatives(n, m, group)
    assert np.array_equal(mine, representatives(enumeration.border_bits(n, m, group), n, m, GROUP_IDS[group]))


@pytest.mark.parametrize("n,m,bits", [(4, 4, 4), (4, 4, 14), (5, 5, 13), (3, 5, 15), (5, 3, 7), (1, 9, 3)])
def test_shard_work_is_the_cpu_kernels_representatives_times_the_indices_under_each(n, m, bits):
    from localcount.engines.grid.kernel import representatives

    gpu = GpuLayout.make(n, m, bits=bits)
    border = n * m - enumeration.low_bits(n, m, gpu.symmetry)
    reps = representatives(border, n, m, GROUP_IDS[gpu.symmetry]).astype(np.int64)
    if bits <= border:  # whole borders a shard
        expected = reps.reshape(1 << bits, -1).sum(axis=1) << (n * m - border)
    else:  # a part of one border a shard
        expected = np.repeat(reps, 1 << (bits - border)) << (n * m - bits)
    assert np.array_equal(gpu.shard_work(), expected)
    assert np.array_equal(GridLayout.make(n, m, bits=bits).shard_work(), expected)


def test_gpu_shards_of_the_large_sizes_are_about_a_second_on_an_h100():
    # 6x7 took 65.5 s for 2^42 indices on an H100: 2^36 indices a shard is about one second, far below ten
    assert GpuLayout.make(7, 7).bits == 13 and GpuLayout.make(6, 8).bits == 12 and GpuLayout.make(5, 9).bits == 9
    assert GpuLayout.make(4, 4).key == "4x4-gpu1-s4-d4"  # small sizes keep their keys (at least 2^4 shards)


# --- the budget ---


class FakeLayout:
    shards = 4

    def shard_work(self):
        return np.array([0, 1, 2, 4])


@dataclass
class Rec:
    seconds: float


def test_a_shard_is_expected_to_take_its_work_times_the_rate_seen_with_a_margin_and_the_overhead():
    b = Budget(100, start=0.0)
    b.prepare(FakeLayout(), {0: Rec(0.5), 1: Rec(2.0), 2: Rec(4.0)})  # 6 s for 3 units of work; no work: 0.5 s
    assert b.expected(3) == pytest.approx(0.5 + 4 * 2.0 * tuning.BUDGET_MARGIN)
    assert b.expected(0) == pytest.approx(0.5)  # no work: the overhead
    b.note(1, 1.0)  # this run's own shards decide from now on
    assert b.expected(3) == pytest.approx(0.5 + 4 * 1.0 * tuning.BUDGET_MARGIN)
    assert b.fits(3, now=94.5) and not b.stopped
    assert not b.fits(3, now=95.0) and b.stopped


def test_with_nothing_known_one_shard_is_taken_while_there_is_time():
    b = Budget(10, start=0.0)
    b.prepare(FakeLayout(), {})
    assert b.expected(2) is None and b.fits(2, now=9.9) and not b.fits(2, now=10.0)
    b.one_core = 70.0  # the layout's estimate: 70 s for 7 units of work
    b.prepare(FakeLayout(), {})
    assert b.expected(2) == pytest.approx(2 * 10.0 * tuning.BUDGET_MARGIN)


def test_a_shard_longer_than_the_whole_budget_is_still_taken_first_so_the_campaign_advances(caplog):
    b = Budget(10, start=0.0)
    b.prepare(FakeLayout(), {1: Rec(20.0)})  # 20 s a unit of work: shard 2 would take 50 s
    assert b.fits(2, now=0.0) and "more than the whole budget" in caplog.text
    assert not b.fits(1, now=0.1)  # the next one waits for the next run


def test_a_budgeted_run_stops_before_the_shard_that_would_pass_it_and_resumes_to_the_count(tmp_path, monkeypatch):
    compute = GridLayout.compute

    def slow(self, shard):  # each shard computed in this process and slowed to a known time
        time.sleep(0.15)
        return compute(self, shard)

    monkeypatch.setattr(GridLayout, "compute", slow)
    monkeypatch.setattr(GridLayout, "in_parent", True)
    lay = GridLayout.make(3, 3, bits=4)
    runs = []
    while True:
        start = time.monotonic()
        out = run(lay, tmp_path, 1, budget=Budget(0.8, start))
        runs.append((out.computed, out.left, time.monotonic() - start))
        if not out.left:
            break
    assert all(0 < computed <= 6 for computed, _, _ in runs) and len(runs) >= 3
    assert all(seconds < 0.8 + 0.1 for _, _, seconds in runs[1:])  # once a rate is known, no shard passes the budget
    assert lay.finish(out.total) == 384 and len(read_log(tmp_path / f"{lay.key}.log").records) == 16


def test_the_count_command_stops_on_its_budget_says_what_is_left_and_the_resume_command_finishes(tmp_path):
    d = str(tmp_path)
    code, out, err = cli("4", "5", "--checkpoint-dir", d, "--max-seconds", "0.001", "-j", "1")
    assert code == 0 and out == ""  # nothing on stdout: the count is not known yet
    last = err.strip().splitlines()[-3:]
    assert "stopped within its 0.001 s budget" in last[0] and "left" in last[0], err
    assert (
        last[-1] == f"localcount: resume with: python -m localcount 4 5 --checkpoint-dir {d} --max-seconds 0.001 -j 1"
    )
    code, out, err = cli("4", "5", "--checkpoint-dir", d, "--max-seconds", "600")
    assert (code, out) == (0, "801832\n")


def test_a_size_from_stdin_goes_into_the_resume_command(tmp_path):
    code, out, err = cli("--checkpoint-dir", str(tmp_path), "--max-seconds", "1e-9", stdin="4 5\n")
    assert code == 0 and out == ""
    assert (
        err.strip()
        .splitlines()[-1]
        .endswith(f"python -m localcount 4 5 --checkpoint-dir {tmp_path} --max-seconds 1e-9")
    )


def test_the_api_returns_the_partial_run_or_raises_unfinished(tmp_path):
    out = run_count(4, 5, checkpoint_dir=tmp_path, max_seconds=1e-9, jobs=1)
    assert not out.complete and out.left == out.shards - out.computed and out.max_seconds == 1e-9
    with pytest.raises(Unfinished, match="the same call resumes"):
        lc.count(4, 5, checkpoint_dir=tmp_path, max_seconds=1e-9, jobs=1)
    assert lc.count(4, 5, checkpoint_dir=tmp_path, max_seconds=600) == 801832


@pytest.mark.parametrize("args,message", [
    (["--max-seconds", "0"], "--max-seconds must be a positive number"),
    (["--max-seconds", "-5"], "--max-seconds must be a positive number"),
    (["--max-seconds", "nan"], "--max-seconds must be a positive number"),
    (["--max-seconds", "soon"], "--max-seconds: invalid float value"),
    (["--max-seconds", "60", "--dask-local", "1"], "not on Dask"),
])  # fmt: skip
def test_a_bad_budget_is_one_line_and_exit_status_2(tmp_path, args, message):
    code, out, err = cli("4", "5", "--checkpoint-dir", str(tmp_path), *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) <= 3, err


def test_statistics_take_no_budget():
    with pytest.raises(lc.UsageError, match="for counts"):
        lc.stats(3, 3, max_seconds=10)


# --- the GPU's sample, recounted on the CPU ---


def test_the_sample_is_drawn_once_among_shards_with_work_and_read_back(tmp_path):
    lay = GpuLayout.make(4, 4, bits=8)
    sample = verification.fix_sample(lay, tmp_path)
    work = lay.shard_work()
    assert len(sample) == math.ceil(lay.shards / 100) == 3 and all(work[s] > 0 for s in sample)
    assert sample == verification.draw(lay) == verification.fix_sample(lay, tmp_path)  # seeded: anyone draws it again
    path = verification.sample_path(tmp_path, lay)
    path.write_text(path.read_text().replace(f"\n{sample[0]} ", f"\n{sample[0] + 1} "))
    with pytest.raises(CheckpointError, match="damaged line"):
        verification.fix_sample(lay, tmp_path)
    path.write_text("something else\n")
    with pytest.raises(CheckpointError, match="not the sample file"):
        verification.fix_sample(lay, tmp_path)


def test_a_gpu_count_fixes_its_sample_first_and_verify_recounts_it_on_the_cpu(tmp_path):
    d = str(tmp_path)
    code, out, err = cli("4", "4", "--method", "gpu", "--shard-bits", "8", "--checkpoint-dir", d)
    assert (code, out) == (0, "51234\n")
    assert "sample: 0 of 3 sample shards recounted by 4x4-v1-s8-d4" in err
    assert (tmp_path / "4x4-gpu1-s8-d4.sample").exists()
    code, out, err = cli("verify", d, "-j", "1")
    assert code == 0 and out == "4x4-gpu1-s8-d4 sample 3 counted 3 recounted 3 compared 3 equal 3 differ 0\n", err
    assert len(read_log(tmp_path / "4x4-v1-s8-d4.log").records) == 3  # the CPU kernel's own checkpoint, the sample only
    code, out, err = cli("status", d)
    gpu_line = next(line for line in out.splitlines() if line.startswith("4x4-gpu1"))
    assert "CPU sample 3 of 3 recounted, 3 compared, all equal" in gpu_line and "complete" in gpu_line
    cpu_line = next(line for line in out.splitlines() if line.startswith("4x4-v1"))
    assert "the CPU's recount of the sample of 4x4-gpu1-s8-d4: 3 of 3" in cpu_line and "complete" in cpu_line


def test_a_disagreement_stops_the_campaign_and_names_the_shard(tmp_path):
    gpu = GpuLayout.make(4, 4, bits=8)
    sample = verification.fix_sample(gpu, tmp_path)
    cpu = verification.twin(gpu)
    with Checkpoint(tmp_path, cpu) as ckpt:  # a wrong recount of the first sample shard
        ckpt.open()
        ckpt.record(sample[0], 10**9, 1.0)
    code, out, err = cli("4", "4", "--method", "gpu", "--shard-bits", "8", "--checkpoint-dir", str(tmp_path))
    assert code == 1 and out == "" and f"shard {sample[0]} of 4x4-gpu1-s8-d4" in err and "campaign stops" in err
    records = read_log(tmp_path / "4x4-gpu1-s8-d4.log").records
    assert sample[0] in records and len(records) < 256  # it stopped on the shard it had just recorded
    code, out, err = cli("4", "4", "--method", "gpu", "--shard-bits", "8", "--checkpoint-dir", str(tmp_path))
    assert code == 1 and f"shard {sample[0]} of 4x4-gpu1-s8-d4" in err  # and stays stopped: checked before counting
    assert len(read_log(tmp_path / "4x4-gpu1-s8-d4.log").records) == len(records)
    code, out, err = cli("verify", str(tmp_path), "--no-recount")
    assert code == 1 and f"shard {sample[0]} of 4x4-gpu1-s8-d4" in err


def test_a_disagreement_found_during_the_run_stops_it_after_recording_the_shard(tmp_path):
    gpu = GpuLayout.make(4, 4, bits=8)
    sample = verification.fix_sample(gpu, tmp_path)
    watch = verification.Watch(gpu, tmp_path, sample)
    with Checkpoint(tmp_path, verification.twin(gpu)) as ckpt:
        ckpt.open()
        ckpt.record(sample[1], 10**9, 1.0)
    watch(sample[0], 5)  # no recount of it yet: nothing to say
    with pytest.raises(verification.Disagreement, match=f"shard {sample[1]} of 4x4-gpu1-s8-d4 is 5, but 1000000000"):
        watch(sample[1], 5)
    with Checkpoint(tmp_path, gpu) as ckpt:
        ckpt.open()
        ckpt.record(sample[1], 5, 1.0)
    with pytest.raises(verification.Disagreement, match=f"shard {sample[1]}"):
        verify(tmp_path, recount=False)
    code, out, err = cli("verify", str(tmp_path), "--no-recount")
    assert code == 1 and f"shard {sample[1]} of 4x4-gpu1-s8-d4" in err


def test_verify_needs_a_directory_with_a_gpu_count(tmp_path):
    code, out, err = cli("verify", str(tmp_path / "nowhere"))
    assert code == 2 and "no such checkpoint directory" in err
    cli("3", "3", "--checkpoint-dir", str(tmp_path))
    code, out, err = cli("verify", str(tmp_path))
    assert code == 2 and "holds no run whose shards another engine recounts" in err


def test_a_budgeted_gpu_run_resumes_to_the_count(tmp_path):
    d = str(tmp_path)
    for _ in range(20):
        code, out, err = cli("3", "4", "--method", "gpu", "--checkpoint-dir", d, "--max-seconds", "0.5")
        assert code == 0
        if out:
            break
    assert out == "3116\n"


# --- recording a campaign's runs: table --layouts ---


def test_table_records_the_runs_its_layouts_name(tmp_path):
    d, results = str(tmp_path / "runs"), str(tmp_path / "results")
    assert cli("3", "4", "--method", "gpu", "--checkpoint-dir", d)[:2] == (0, "3116\n")
    assert cli("4", "3", "--shard-bits", "5", "--checkpoint-dir", d)[:2] == (0, "3116\n")
    code, out, err = cli(
        "table", "--layouts", "3x4-gpu1-s4-sym,4x3-v1-s5-sym", "--checkpoint-dir", d, "--results", results
    )
    assert (code, out) == (0, "3 4 3116\n"), err
    layouts = (tmp_path / "results" / "runs.csv").read_text()
    assert "3x4-gpu1-s4-sym" in layouts and "4x3-v1-s5-sym" in layouts


@pytest.mark.parametrize("keys,message", [
    ("3x4-gpu1-s4-sym,3x4-gpu1-s3-sym", "not independent"),
    ("3x4-gpu1-s4-sym,3x5-v1-s5-sym", "one size"),
    ("3x4-nothing", "not a checkpoint key"),
])  # fmt: skip
def test_table_layouts_must_be_independent_runs_of_one_size(tmp_path, keys, message):
    code, out, err = cli("table", "--layouts", keys, "--results", str(tmp_path))
    assert code == 2 and message in err
