"""The results table: runs recorded with provenance, conflicts refused, generated files."""

import csv
import dataclasses
import os
import subprocess
import sys

import naive
import pytest

from localcount.cli import table
from localcount.engines.registry import table_paths
from localcount.results import publish
from localcount.results import records as results
from localcount.util.provenance import cpu_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README_STUB = "# x\n\n## Known values\n\n<!-- known-values:begin -->\nold\n<!-- known-values:end -->\n\ntail\n"


def table_process(args, cwd=None):
    """``python -m localcount table ARGS`` run from ``cwd``, this checkout's package first on the path."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "localcount", "table", *args], cwd=cwd, capture_output=True,
                          text=True, env=env, timeout=600)  # fmt: skip


def run_table(args, tmp_path):
    return table_process([*args, "--results", str(tmp_path / "res"), "--checkpoint-dir", str(tmp_path / "ck"),
                          "--readme", str(tmp_path / "README.md")])  # fmt: skip


def fake_run(n, m, layout, count):
    return results.Run(
        n, m, layout, count, 2 ** (n * m), 1.0, 1.0, 2, "0", "abc", "2026-01-01 00:00:00 UTC", "cpu", "cmd"
    )


def test_sizes_up_to_lists_every_n_le_m_by_cells():
    assert table.sizes_up_to(4) == [(0, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 2)]
    assert table.sizes_up_to(6, min_cells=5) == [(1, 5), (1, 6), (2, 3)]
    assert all(n <= m and n * m <= 36 for n, m in table.sizes_up_to(36))
    assert len(table.sizes_up_to(36)) == 1 + sum(36 // n - n + 1 for n in range(1, 7))


def test_parse_sizes():
    assert table.parse_sizes("3x12, 12x3,6") == [(3, 12), (3, 12), (6, 6)]
    with pytest.raises(ValueError):
        table.parse_sizes("3y12")


def test_the_two_paths_are_different_layouts():
    for n, m in [(2, 2), (3, 5), (6, 6), (3, 12), (2, 13)]:
        (a, b) = table_paths(n, m)
        assert a.key != b.key and {(a.n, a.m), (b.n, b.m)} == {(n, m), (m, n)}
    (a, b) = table_paths(1, 33)  # one long row: both m×1, with different groups
    assert (a.n, a.m) == (b.n, b.m) == (33, 1) and {a.symmetry, b.symmetry} == {"flips", "none"}
    (a, b) = table_paths(2, 17)  # two long rows: the thin counter, its first row updated two ways
    assert a.key != b.key and (a.m, b.m) == (17, 17) and {a.rows, b.rows} == {"table", "word"}
    for n, m in [(2, 2), (3, 5), (6, 6), (3, 12), (2, 13), (1, 33), (2, 17), (2, 20)]:
        (a, b) = table_paths(n, m)
        assert a.code_path != b.code_path  # independent code paths, not only other shard bits
        assert dataclasses.replace(a, bits=a.bits - 1).code_path == a.code_path


def test_a_conflicting_run_is_refused_and_nothing_is_written(tmp_path):
    assert results.add_run(tmp_path, fake_run(2, 3, "2x3-v1-s6-sym", 52))
    assert results.read_table(tmp_path) == []  # one run: pending, not in the table yet
    assert [(n, m) for n, m, _ in results.pending(results.read_runs(tmp_path))] == [(2, 3)]
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(results.ConflictError, match="2x3"):
        results.add_run(tmp_path, fake_run(2, 3, "3x2-v1-s6-all", 53))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert not results.add_run(tmp_path, fake_run(2, 3, "2x3-v1-s6-sym", 52))  # same layout: not repeated
    assert results.add_run(tmp_path, fake_run(2, 3, "3x2-v1-s6-all", 52))
    (row,) = results.read_table(tmp_path)
    assert (row.n, row.m, row.count, row.runs, row.layouts) == (2, 3, 52, 2, "2x3-v1-s6-sym;3x2-v1-s6-all")
    assert results.read_runs(tmp_path) == [fake_run(2, 3, "2x3-v1-s6-sym", 52), fake_run(2, 3, "3x2-v1-s6-all", 52)]


def test_a_damaged_runs_file_is_an_error_not_an_empty_table(tmp_path):
    (tmp_path / results.RUNS).write_text("n,m,count\n1,2,3\n")
    with pytest.raises(ValueError, match="unexpected columns"):
        results.read_runs(tmp_path)
    assert publish.render(tmp_path) == 1


def test_table_counts_every_size_twice_and_matches_the_reference(tmp_path):
    (tmp_path / "README.md").write_text(README_STUB)
    proc = run_table(["--max-cells", "8"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    sizes = table.sizes_up_to(8)
    assert proc.stdout.splitlines() == [f"{n} {m} {naive.count(n, m)}" for n, m in sizes]
    rows = results.read_table(tmp_path / "res")
    assert [(r.n, r.m, r.count, r.runs) for r in rows] == [(n, m, naive.count(n, m), 2) for n, m in sizes]
    for r in rows:
        assert r.grids == 2 ** (r.n * r.m) and float(r.fraction) == pytest.approx(r.count / r.grids)
        assert r.command.startswith("python -m localcount table --max-cells 8") and r.date and r.commit
        # the paths relative to the results folder: nothing of this machine
        assert r.command == "python -m localcount table --max-cells 8 --results . --checkpoint-dir DIR --readme FILE"
        assert r.cpu == cpu_model()  # every shard counted here, in sessions noted beside the logs
    with open(tmp_path / "res" / "runs.csv", newline="") as f:
        layouts = [row["layout"] for row in csv.DictReader(f)]
    assert len(layouts) == len(set(layouts)) == 2 * len(sizes)
    # generated files
    res = tmp_path / "res"
    assert (res / "b-squares.txt").read_text().splitlines()[2:] == ["0 1", "1 2", "2 14"]
    assert (res / "b-table.txt").read_text().splitlines()[2:6] == ["1 2", "2 4", "3 4", "4 8"]
    readme = (tmp_path / "README.md").read_text()
    assert "old" not in readme and readme.endswith("<!-- known-values:end -->\n\ntail\n")
    assert "| **2** | 14 | 52 | 208 |" in readme
    assert "| 2×3 | 6 | 52 |" in (res / "README.md").read_text()
    # a second run resumes: nothing counted again, the same lines on stdout
    again = run_table(["--max-cells", "8"], tmp_path)
    assert again.returncode == 0 and again.stdout == proc.stdout and "counting" not in again.stderr
    assert results.read_table(tmp_path / "res") == rows


def test_table_stops_on_a_conflict(tmp_path):
    (tmp_path / "README.md").write_text(README_STUB)
    res = tmp_path / "res"
    results.add_run(res, fake_run(2, 2, "2x2-v1-s4-d4", 15))  # a wrong count
    before = (res / "runs.csv").read_bytes()
    proc = run_table(["--sizes", "2x2"], tmp_path)
    assert proc.returncode == 1
    assert "2x2" in proc.stderr and "gave 14" in proc.stderr and "nothing was written" in proc.stderr
    assert (res / "runs.csv").read_bytes() == before


def test_a_size_with_enough_runs_is_not_counted_again(tmp_path):
    """Even when its runs came from other paths (chosen by an older version): nothing is run or added."""
    (tmp_path / "README.md").write_text(README_STUB)
    res = tmp_path / "res"
    results.add_run(res, fake_run(2, 3, "2x3-v1-s6-all", 52))
    results.add_run(res, fake_run(2, 3, "3x2-v1-s6-sym", 52))
    before = (res / "runs.csv").read_bytes()
    proc = run_table(["--sizes", "2x3"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "2 3 52\n" and "counting" not in proc.stderr
    assert (res / "runs.csv").read_bytes() == before


def test_render_is_deterministic_and_idempotent(tmp_path):
    for n, m in [(0, 0), (1, 1), (1, 2), (2, 2)]:
        for group in ("sym", "all"):
            results.add_run(tmp_path, fake_run(n, m, f"{n}x{m}-v1-s0-{group}", naive.count(n, m)))
    results.add_run(tmp_path, fake_run(2, 3, "2x3-v1-s0-sym", 52))  # pending
    assert publish.render(tmp_path) == 0
    assert "* 2×3: `2x3-v1-s0-sym` gave 52" in (tmp_path / "README.md").read_text()
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert publish.render(tmp_path) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files
    assert publish.square_terms(results.read_table(tmp_path)) == [(0, 1), (1, 2), (2, 14)]
    assert publish.antidiagonal_terms(results.read_table(tmp_path)) == [(1, 2), (2, 4), (3, 4)]


def test_other_results_leave_the_readme_in_the_working_directory_alone(tmp_path):
    # `table --results DIR` (an estimate, a trial run) must not rewrite ./README.md's known values from DIR
    (tmp_path / "README.md").write_text(README_STUB)
    for args in (
        ["--render", "--results", "elsewhere"],
        ["--sizes", "1x2", "--results", "other", "--checkpoint-dir", "ck"],
        ["--render"],  # the default results (./results): this README is theirs, regenerated as before
    ):
        proc = table_process(args, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert ((tmp_path / "README.md").read_text() == README_STUB) == ("--results" in args), args


def test_bad_table_arguments_exit_2(tmp_path):
    for args in (
        ["--sizes", "3y4"], [], ["--sizes", "9x9"], ["--max-cells", "4", "--jobs", "0"],
        ["--sizes", "2x2", "--dask-local", "0"],
    ):  # fmt: skip
        proc = run_table(args, tmp_path)
        assert proc.returncode == 2 and proc.stderr.startswith("localcount: error:"), (args, proc.stderr)


def test_run_fields_round_trip_through_csv(tmp_path):
    run = dataclasses.replace(fake_run(3, 4, "3x4-v1-s8-sym", 5), command="python -m localcount table --sizes '3x4'")
    results.add_run(tmp_path, run)
    assert results.read_runs(tmp_path) == [run]


def test_plot_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    for n, m in [(1, 1), (1, 2), (2, 2), (2, 3)]:
        for group in ("sym", "all"):
            results.add_run(tmp_path, fake_run(n, m, f"{n}x{m}-v1-s0-{group}", naive.count(n, m)))
    png = publish.plot_png(results.read_table(tmp_path))
    assert png.startswith(b"\x89PNG") and png == publish.plot_png(results.read_table(tmp_path))


def test_logging_is_set_up_once_per_process():
    import logging
    import threading

    from localcount.orchestration.runner import setup_logging

    setup_logging(None, quiet=True)
    handlers, threads = list(logging.getLogger().handlers), threading.active_count()
    for _ in range(5):
        setup_logging(None, quiet=True)
    assert logging.getLogger().handlers == handlers and threading.active_count() == threads


def _add_many(directory, start):
    for i in range(start, start + 20):
        results.add_run(directory, fake_run(1, i, f"1x{i}-v1-s0-sym", 2**i))


def test_concurrent_writers_lose_no_run(tmp_path):
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_add_many, args=(tmp_path, 1 + 20 * k)) for k in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert sorted(r.m for r in results.read_runs(tmp_path)) == list(range(1, 81))


def fake_stats_run(n, m, layout, solvable=None, unique=None, rounds="1:1", steps=None):
    """A stats run of n×m with the reference's measures (or those given); steps=None: the reference's, '': none."""
    ref = naive.stats(n, m)
    hist = " ".join(f"{k}:{v}" for k, v in sorted(ref["rounds"].items()))
    step_hist = " ".join(f"{k}:{v}" for k, v in sorted(ref["steps"].items()))
    return results.StatsRun(
        n, m, layout, ref["grids"], ref["solvable"] if solvable is None else solvable,
        ref["unique"] if unique is None else unique, ref["stuck_start"], hist if rounds == "1:1" else rounds,
        1.0, 1.0, 2, "0", "abc", "2026-01-01 00:00:00 UTC", "cpu", "cmd", step_hist if steps is None else steps,
    )  # fmt: skip


def test_stats_files_from_before_steps_still_read_and_gain_steps_from_two_new_runs(tmp_path):
    old = [fake_stats_run(2, 4, f"2x4-stats1-{k}", steps="") for k in ("rows", "tr")]
    columns = [f.name for f in dataclasses.fields(results.StatsRun)][:-1]  # the columns before steps
    with open(tmp_path / results.STATS_RUNS, "w", newline="") as f:
        writer = csv.DictWriter(f, columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: v for k, v in dataclasses.asdict(r).items() if k in columns} for r in old)
    assert results.read_stats_runs(tmp_path) == old
    (row,) = results.stats_rows(old)
    assert (row.runs, row.steps, row.mean_steps, row.max_steps) == (2, "", "", "")
    assert not any(r.complete for r in old)
    with pytest.raises(results.ConflictError):  # an old run and a new one must agree on the measures both have
        results.add_stats_run(tmp_path, fake_stats_run(2, 4, "2x4-stats2-rows", unique=209))
    assert results.add_stats_run(tmp_path, fake_stats_run(2, 4, "2x4-stats2-rows"))
    assert results.stats_rows(results.read_stats_runs(tmp_path))[0].steps == ""  # one run with steps: not yet
    with pytest.raises(results.ConflictError, match="steps"):  # two runs with steps must agree on them
        results.add_stats_run(tmp_path, fake_stats_run(2, 4, "2x4-stats2-tr", steps="1:100 2:108"))
    assert results.add_stats_run(tmp_path, fake_stats_run(2, 4, "2x4-stats2-tr"))
    (row,) = results.read_stats_table(tmp_path)
    steps = naive.stats(2, 4)["steps"]
    assert row.runs == 4 and results.parse_rounds(row.steps) == steps and row.max_steps == str(max(steps))
    assert row.mean_steps == f"{sum(k * v for k, v in steps.items()) / row.solvable:.6f}"
    with open(tmp_path / results.STATS_RUNS) as f:
        assert next(csv.reader(f))[-1] == "steps"


def test_table_stats_runs_every_size_twice_and_matches_the_reference(tmp_path):
    (tmp_path / "README.md").write_text(README_STUB)
    proc = run_table(["--stats", "--max-cells", "6"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    sizes = table.sizes_up_to(6)
    expect = []
    for n, m in sizes:
        ref = naive.stats(n, m)
        expect.append(
            f"{n} {m} {ref['solvable']} {ref['unique']} {ref['stuck_start']} {max(ref['rounds'])} {max(ref['steps'])}"
        )
    assert proc.stdout.splitlines() == expect
    res = tmp_path / "res"
    rows = results.read_stats_table(res)
    assert [(r.n, r.m) for r in rows] == sizes and all(r.runs == 2 for r in rows)
    for r in rows:
        assert results.parse_rounds(r.rounds) == naive.stats(r.n, r.m)["rounds"]
        assert results.parse_rounds(r.steps) == naive.stats(r.n, r.m)["steps"]
        assert r.max_steps == str(max(results.parse_rounds(r.steps)))
        assert len(set(r.layouts.split(";"))) == 2 and r.command.startswith("python -m localcount table --stats")
    text = (res / "README.md").read_text()
    assert "## Uniqueness and difficulty" in text and "| 2×3 | 64 | 52 | 52 | 0 | 0 |" in text
    assert (res / publish.UNIQUE_BFILE).read_text().splitlines()[2:] == ["0 1", "1 2", "2 14"]
    again = run_table(["--stats", "--max-cells", "6"], tmp_path)  # everything recorded: nothing runs
    assert again.returncode == 0 and again.stdout == proc.stdout and "stats of" not in again.stderr


def test_table_stats_skips_sizes_beyond_the_line_tables(tmp_path):
    (tmp_path / "README.md").write_text(README_STUB)
    proc = run_table(["--stats", "--sizes", "1x14"], tmp_path)
    assert (
        proc.returncode == 0 and proc.stdout == "" and "1x14 stats: stats enumerates lines of at most 13" in proc.stderr
    )


def test_a_conflicting_stats_run_is_refused_and_nothing_is_written(tmp_path):
    assert results.add_stats_run(tmp_path, fake_stats_run(2, 4, "2x4-stats1-d2-rows-sym"))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for bad in (
        fake_stats_run(2, 4, "2x4-stats1-d4-tr-all", unique=209),
        fake_stats_run(2, 4, "2x4-stats1-d4-tr-all", rounds="1:208"),
    ):
        with pytest.raises(results.ConflictError, match="nothing was written"):
            results.add_stats_run(tmp_path, bad)
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    assert results.add_stats_run(tmp_path, fake_stats_run(2, 4, "2x4-stats1-d4-tr-all"))
    (row,) = results.read_stats_table(tmp_path)
    assert (row.unique, row.max_rounds, row.mean_rounds) == (210, 2, f"{(136 + 2 * 72) / 208:.6f}")


def test_a_stats_run_must_agree_with_the_count(tmp_path):
    results.add_run(tmp_path, fake_run(2, 3, "2x3-v1-s6-sym", 52))
    with pytest.raises(results.ConflictError, match="2x3-v1-s6-sym gave 52"):
        results.add_stats_run(tmp_path, fake_stats_run(2, 3, "2x3-stats1-d2-rows-sym", solvable=51))
    assert not (tmp_path / results.STATS_RUNS).exists()


def test_table_stats_runs_again_a_size_recorded_without_steps(tmp_path):
    (tmp_path / "README.md").write_text(README_STUB)
    for k in ("rows", "tr"):  # two runs from before steps were counted
        results.add_stats_run(tmp_path / "res", fake_stats_run(2, 3, f"2x3-stats1-{k}", steps=""))
    proc = run_table(["--stats", "--sizes", "2x3"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("stats of 2x3") == 2 and proc.stdout.split()[-1] == "3"  # max steps printed
    (row,) = results.read_stats_table(tmp_path / "res")
    assert row.runs == 4 and results.parse_rounds(row.steps) == naive.stats(2, 3)["steps"]
    again = run_table(["--stats", "--sizes", "2x3"], tmp_path)
    assert again.returncode == 0 and "stats of" not in again.stderr


def test_recorded_paths_are_relative_to_the_results_folder(tmp_path):
    import doctest
    import importlib.util

    from localcount.util import provenance
    from localcount.util.provenance import has_absolute_path, relative_path, relative_paths

    res = tmp_path / "work" / "results"
    (res / "checkpoints").mkdir(parents=True)
    assert relative_path(str(res), res) == "."
    assert relative_path(str(res / "checkpoints"), res) == "checkpoints"
    assert relative_path(str(res / "yesnogram" / "x"), res) == os.path.join("yesnogram", "x")  # need not exist
    assert relative_path(str(tmp_path / "work" / "ck"), res) == "DIR"  # outside: the placeholder
    assert relative_path(str(tmp_path / "work" / "results-old"), res) == "DIR"  # a sibling with the same start
    assert relative_path(str(tmp_path / "README.md"), res, outside="FILE") == "FILE"
    assert relative_path(os.devnull, res) == os.devnull
    # relative paths as typed, from the working directory
    assert relative_path("results/checkpoints", "results", cwd=tmp_path / "work") == "checkpoints"
    assert relative_path("ck", "results", cwd=tmp_path / "work") == "DIR"
    argv = ["--sizes", "2x20", "--results", str(res), "--readme", str(tmp_path / "README.md"),
            f"--checkpoint-dir={res / 'checkpoints'}", "--check", str(tmp_path / "ck"), "--jobs", "2"]  # fmt: skip
    assert relative_paths(argv, res) == ["--sizes", "2x20", "--results", ".", "--readme", "FILE",
                                         "--checkpoint-dir=checkpoints", "--check", "DIR", "--jobs", "2"]  # fmt: skip
    assert relative_paths(["--max-cells", "8"], res) == ["--max-cells", "8"]  # the default results: nothing to do
    assert relative_paths(["--results"], res) == ["--results"]  # no value: left as it is
    assert doctest.testmod(provenance).failed == 0
    assert has_absolute_path("python -m localcount table --results /w/results --readme /dev/null")
    assert has_absolute_path("python -m localcount table --checkpoint-dir=/w/ck")
    assert not has_absolute_path("python -m localcount table --results . --readme /dev/null --checkpoint-dir DIR")
    # the script that rewrote the recorded commands once
    spec = importlib.util.spec_from_file_location(
        "relative_commands", os.path.join(ROOT, "scripts", "relative_commands.py")
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    old = ("python -m localcount table --max-cells 36 --max-estimate 300 --results /work/main/results "
           "--readme /dev/null --checkpoint-dir /work/runs/ck")  # fmt: skip
    new = "python -m localcount table --max-cells 36 --max-estimate 300 --results . --readme /dev/null --checkpoint-dir DIR"
    assert script.relative_command(old) == new and script.relative_command(new) == new
    assert script.relative_command(
        "python -m localcount table --sizes 2x20 --results /w/r --readme /dev/null --checkpoint-dir /w/r/checkpoints"
    ).endswith("--results . --readme /dev/null --checkpoint-dir checkpoints")
    with pytest.raises(ValueError):
        script.relative_command("python -m localcount table --checkpoint-dir /w/ck")  # no --results to go by
    # a results file: only the command column changes, every other byte stays
    (res / "runs.csv").write_text(f'n,m,cpu,command\n1,2,"A, 2 cores",{old}\n3,4,"B ""x""",{new}\n')
    assert script.main(["--results", str(res), "--check"]) == 1
    assert script.main(["--results", str(res)]) == 0
    assert (res / "runs.csv").read_text() == f'n,m,cpu,command\n1,2,"A, 2 cores",{new}\n3,4,"B ""x""",{new}\n'
    assert script.main(["--results", str(res), "--check"]) == 0


def test_the_tools_own_output_does_not_make_the_code_dirty(tmp_path):
    # table's second path starts after its first has rewritten results/ (and the package's shipped copy):
    # the commit it records is still clean; a change to the code is '+dirty'.
    from localcount.util.provenance import git_commit

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    for path in ("results/stats.csv", "localcount/results/shipped/stats.csv", "localcount/kernel.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("a\n")
    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x")
    package = tmp_path / "localcount"
    clean = git_commit(package)
    assert len(clean) >= 7 and not clean.endswith("+dirty")
    (tmp_path / "results/stats.csv").write_text("b\n")
    (tmp_path / "localcount/results/shipped/stats.csv").write_text("b\n")
    assert git_commit(package) == clean
    (tmp_path / "localcount/kernel.py").write_text("b\n")
    assert git_commit(package) == clean + "+dirty"
