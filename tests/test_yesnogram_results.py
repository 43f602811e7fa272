"""The committed yesnogram results (results/yesnogram/): two agreeing paths per size, the uniqueness
table recomputed where the reference is quick, generated files up to date, never mixed with the nonograms'."""

import pathlib
import shutil

import naive
import pytest

from localcount.engines.grid.count import count
from localcount.engines.registry import parse_key
from localcount.results import publish
from localcount.results import records as results

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
YES = results.variant_dir(RESULTS, "yesnogram")
#: The sizes the issue asks for: every n <= m with n·m <= 30, and the squares to 6×6.
WANTED = [(0, 0)] + [(n, m) for n in range(1, 31) for m in range(n, 31) if n * m <= 30] + [(6, 6)]


@pytest.fixture(scope="module")
def rows():
    return results.read_table(YES)


def test_every_wanted_size_has_two_agreeing_independent_runs(rows):
    runs = results.read_runs(YES)
    assert rows == results.table_rows(runs)
    have = {(r.n, r.m) for r in rows}
    assert not set(WANTED) - have, f"missing yesnogram sizes: {sorted(set(WANTED) - have)}"
    for r in rows:
        paths = {parse_key(key).code_path for key in r.layouts.split(";")}
        assert len(paths) >= 2 and all(p.endswith("-yes") for p in paths), r.layouts
    for run in runs:
        assert parse_key(run.layout).variant == "yesnogram" and results.variant_of(run.layout) == "yesnogram"
        assert run.commit and not run.commit.endswith("+dirty"), f"{run.layout} was counted by uncommitted code"
        assert "--variant yesnogram" in run.command


def test_small_sizes_are_recounted(rows):
    for r in rows:
        if r.n * r.m <= 16 and r.m <= 13:
            assert count(r.n, r.m, symmetry="none", variant="yesnogram") == r.count, f"{r.n}x{r.m}"


def test_the_uniqueness_table_is_recomputed(rows):
    """Two stats paths agree on every row (stats_rows refuses otherwise), the solvable column is the
    count's, and the small sizes are recounted by the brute-force reference.  The published A385862
    values are not typed here: the closing note of issue 29 lists ours for comparison."""
    stat_rows = results.read_stats_table(YES)
    assert stat_rows == results.stats_rows(results.read_stats_runs(YES))
    c = publish.counts(rows)
    have = {(r.n, r.m) for r in stat_rows}
    assert {(n, m) for n, m in WANTED if m <= 13} <= have, "a size with lines of at most 13 cells has no stats"
    for r in stat_rows:
        assert r.solvable == c[(r.n, r.m)] and r.solvable <= r.unique
        if r.n * r.m <= 12:
            want = naive.stats(r.n, r.m, "yesnogram")
            assert (r.unique, r.stuck_start) == (want["unique"], want["stuck_start"]), f"{r.n}x{r.m}"


def test_generated_files_are_up_to_date(tmp_path):
    (tmp_path / "yesnogram").mkdir()
    shutil.copy(RESULTS / results.RUNS, tmp_path / results.RUNS)
    for name in (results.RUNS, results.STATS_RUNS):
        shutil.copy(YES / name, tmp_path / "yesnogram" / name)
    assert publish.render(tmp_path / "yesnogram", None, quiet=True) == 0
    for name in ("README.md", publish.SQUARES_BFILE, publish.TABLE_BFILE, publish.UNIQUE_BFILE, results.STATS_TABLE):
        assert (tmp_path / "yesnogram" / name).read_text() == (YES / name).read_text(), f"{name} is stale"
    assert (YES / publish.PLOT).exists()
    assert "[yesnogram/README.md](yesnogram/README.md)" in (RESULTS / "README.md").read_text()


def test_a_file_never_mixes_the_variants(tmp_path):
    nonogram = results.read_runs(RESULTS)[0]
    yes = results.read_runs(YES)[0]
    assert results.add_run(tmp_path, nonogram)
    with pytest.raises(results.ConflictError, match="its own results directory"):
        results.add_run(tmp_path, yes)
    assert [r.layout for r in results.read_runs(tmp_path)] == [nonogram.layout]
