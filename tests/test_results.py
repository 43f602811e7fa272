"""The committed results: consistent, reproduced by the kernel where quick, and the generated files up to date."""

import pathlib
import shutil

import pytest

from localcount.engines.grid.count import count
from localcount.engines.registry import parse_key
from localcount.results import publish
from localcount.results import records as results

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
#: Sizes the plain kernel recounts quickly (no per-size compilation).
RECOUNT_CELLS = 19


@pytest.fixture(scope="module")
def rows():
    return results.read_table(RESULTS)


def test_every_size_has_two_agreeing_runs_with_provenance(rows):
    runs = results.read_runs(RESULTS)
    assert rows == results.table_rows(runs)  # local.csv is what the runs say (and they agree)
    assert rows, "results/local.csv is empty"
    for r in rows:
        # independent: the runs differ in orientation, symmetry group or row update, not just in shard bits
        kinds = {parse_key(key).code_path for key in r.layouts.split(";")}
        assert len(kinds) >= 2, f"{r.n}x{r.m}: {r.layouts} are not independent code paths"
        assert r.grids == 2 ** (r.n * r.m) and 0 <= r.count <= r.grids
    for run in runs:
        assert run.command.startswith("python -m localcount") and run.cpu and run.date.endswith("UTC")
        assert run.commit and not run.commit.endswith("+dirty"), f"{run.layout} was counted by uncommitted code"
        rows_, cols = map(int, run.layout.split("-")[0].split("x"))
        assert sorted((rows_, cols)) == [run.n, run.m]


def test_no_recorded_command_names_an_absolute_path():
    """Every command in results/ (both variants) and in the package's copies has its paths relative to its
    results folder (scripts/relative_commands.py; util.provenance.relative_paths): no path of the machine that ran it."""
    import csv

    from localcount.util.provenance import has_absolute_path

    files = [
        results.variant_dir(where, variant) / name
        for where in (RESULTS, results.SHIPPED)
        for variant in results.VARIANT_DIRS
        for name in (results.RUNS, results.TABLE, results.STATS_RUNS, results.STATS_TABLE)
    ]
    files = [path for path in files if path.exists()]
    assert len(files) >= 10  # four files of each variant in results/, local.csv and stats.csv of each shipped
    for path in files:
        with open(path, newline="") as f:
            commands = [row["command"] for row in csv.DictReader(f)]
        assert commands
        bad = sorted({c for c in commands if has_absolute_path(c) or "/work/" in c})
        assert not bad, f"{path}: {bad[0]} (run scripts/relative_commands.py, then table --render)"


def test_the_given_values(rows):
    c = publish.counts(rows)
    assert [c[(n, n)] for n in range(6)] == [1, 2, 14, 384, 51234, 24976511]
    assert c[(2, 5)] == 810


def test_small_sizes_are_recounted_by_the_kernel(rows):
    small = [r for r in rows if r.n * r.m <= RECOUNT_CELLS]
    assert len(small) > 30
    for r in small:
        assert count(r.n, r.m, specialized=False) == r.count, f"{r.n}x{r.m}"


def test_generated_files_are_up_to_date(tmp_path):
    shutil.copy(RESULTS / results.RUNS, tmp_path / results.RUNS)
    if (RESULTS / results.STATS_RUNS).exists():
        shutil.copy(RESULTS / results.STATS_RUNS, tmp_path / results.STATS_RUNS)
    if (RESULTS / "yesnogram" / "README.md").exists():  # its link in results/README.md
        (tmp_path / "yesnogram").mkdir()
        shutil.copy(RESULTS / "yesnogram" / "README.md", tmp_path / "yesnogram" / "README.md")
    if (RESULTS / "checkpoints").is_dir():  # the campaigns under way, named in results/README.md
        (tmp_path / "checkpoints").symlink_to(RESULTS / "checkpoints")
    (tmp_path / "project").mkdir()
    readme = tmp_path / "project" / "README.md"
    shutil.copy(ROOT / "README.md", readme)
    assert publish.render(tmp_path, readme, quiet=True) == 0
    names = ["README.md", publish.SQUARES_BFILE, publish.TABLE_BFILE]
    if (RESULTS / results.STATS_RUNS).exists():
        names += [publish.UNIQUE_BFILE, results.STATS_TABLE]
    for name in names:
        assert (tmp_path / name).read_text() == (RESULTS / name).read_text(), (
            f"results/{name} is stale: run table --render"
        )
    assert readme.read_text() == (ROOT / "README.md").read_text(), "README's known values are stale: run table --render"
    assert (RESULTS / publish.PLOT).exists()


def test_readme_states_the_square_sequence_from_results(rows):
    text = (ROOT / "README.md").read_text()
    seq = ", ".join(str(v) for _, v in publish.square_terms(rows))
    assert f"Squares, n = 0..{len(publish.square_terms(rows)) - 1}: {seq}." in text


def test_bfiles_have_consecutive_indices():
    for name, first in ((publish.SQUARES_BFILE, 0), (publish.TABLE_BFILE, 1)):
        lines = [x for x in (RESULTS / name).read_text().splitlines() if not x.startswith("#")]
        assert [int(x.split()[0]) for x in lines] == list(range(first, first + len(lines)))


def test_stats_have_two_runs_agree_with_the_counts_and_are_recomputed_where_quick(rows):
    from localcount.engines.stats.compute import stats

    runs = results.read_stats_runs(RESULTS)
    stat_rows = results.read_stats_table(RESULTS)
    assert stat_rows == results.stats_rows(runs)
    c = publish.counts(rows)
    for r in stat_rows:
        assert len(set(r.layouts.split(";"))) >= 2 and r.solvable <= r.unique <= r.grids == 2 ** (r.n * r.m)
        assert r.solvable == c[(r.n, r.m)], f"{r.n}x{r.m}: stats and count disagree"
        if r.n * r.m <= RECOUNT_CELLS:
            s = stats(r.n, r.m)
            assert (s.solvable, s.unique, s.stuck_start, results.rounds_text(s.rounds)) == (
                r.solvable,
                r.unique,
                r.stuck_start,
                r.rounds,
            ), f"{r.n}x{r.m}"
            assert r.steps in ("", results.rounds_text(s.steps)), f"{r.n}x{r.m} steps"
    for run in runs:
        assert run.commit and not run.commit.endswith("+dirty"), f"{run.layout} was run by uncommitted code"


CHECKPOINTS = RESULTS / "checkpoints"


def _committed_logs():
    from localcount.orchestration.checkpoint import find_logs

    return find_logs([CHECKPOINTS]) if CHECKPOINTS.is_dir() else []


@pytest.mark.parametrize("path", _committed_logs(), ids=lambda p: p.stem)
def test_committed_checkpoints_are_whole_and_agree_with_runs(path):
    """A long run's committed log: undamaged, its own key, every shard once; when finished, the total in runs.csv."""
    import dataclasses
    import random

    from localcount.engines.thin.layout import ThinLayout
    from localcount.orchestration.checkpoint import read_log, read_sessions, sessions_path

    log = read_log(path)
    assert log.damaged == 0, f"{path.name} has a damaged or torn record: commit only whole lines"
    assert log.layout.key == path.stem and log.records
    if sessions_path(path).exists():  # where its shards were counted: every line whole and its own
        lines = sessions_path(path).read_text().splitlines()
        assert len(read_sessions(path, path.stem)) == len(lines) > 0
    finished = {run.layout: run for run in results.read_runs(RESULTS)}
    if path.stem in finished:
        assert sorted(log.records) == list(range(log.layout.shards)), f"{path.stem} is in runs.csv but has gaps"
        assert sum(r.count for r in log.records.values()) == finished[path.stem].count
    if isinstance(log.layout, ThinLayout):
        # one recorded shard, recounted by the other row update (the same first rows, the same group)
        shard = random.Random(path.stem).choice(sorted(log.records))
        other = "word" if log.layout.rows == "table" else "table"
        lay = dataclasses.replace(log.layout, rows=other)
        assert lay.compute(shard) == log.records[shard].count, f"{path.stem} shard {shard}"
