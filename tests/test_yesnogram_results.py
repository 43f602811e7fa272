"""The committed yesnogram results (results/yesnogram/): two agreeing paths per size, the published
uniqueness values reproduced, generated files up to date, and never mixed with the nonograms'."""

import pathlib
import shutil

import pytest

from localcount.engines.grid.count import count
from localcount.engines.registry import parse_key
from localcount.results import publish
from localcount.results import records as results

ROOT = pathlib.Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
YES = results.variant_dir(RESULTS, "yesnogram")
#: OEIS A385862 (uniquely solvable n×m yesnograms, Felgenhauer): antidiagonals n + m <= 10 and A(5, 6),
#: as the entry shows them; n <= m (A(n, m) = A(m, n)).
PUBLISHED_UNIQUE = {
    (0, 0): 1, (1, 1): 2, (1, 2): 4, (1, 3): 8, (1, 4): 16, (1, 5): 32, (1, 6): 64, (1, 7): 128, (1, 8): 256,
    (1, 9): 512, (2, 2): 14, (2, 3): 52, (2, 4): 210, (2, 5): 816, (2, 6): 3206, (2, 7): 12536, (2, 8): 48962,
    (3, 3): 368, (3, 4): 2992, (3, 5): 23058, (3, 6): 179576, (3, 7): 1388978, (4, 4): 49578, (4, 5): 775204,
    (4, 6): 12129616, (5, 5): 24177516, (5, 6): 754845831,
}  # fmt: skip
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


def test_the_published_uniqueness_table_is_reproduced(rows):
    stat_rows = results.read_stats_table(YES)
    assert stat_rows == results.stats_rows(results.read_stats_runs(YES))
    c = publish.counts(rows)
    compared = 0
    for r in stat_rows:
        assert r.solvable == c[(r.n, r.m)] and r.solvable <= r.unique
        if (r.n, r.m) in PUBLISHED_UNIQUE:
            assert r.unique == PUBLISHED_UNIQUE[r.n, r.m], f"{r.n}x{r.m}"
            compared += 1
    assert compared == len(PUBLISHED_UNIQUE), "a published size has no stats row"


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
