"""The generated stats kernel (vector version 3) against the brute-force reference and the plain kernel (version 2)."""

import naive
import numpy as np
import pytest

from localcount import tuning
from localcount.engines.stats import compute as S
from localcount.engines.stats import kernel as K
from localcount.engines.stats import prepare as P
from localcount.engines.stats import specialize
from localcount.engines.stats.layout import STATS_VERSION, StatsLayout
from localcount.engines.stats.measures import GRIDS

#: Sizes whose version-3 kernels are compiled for the reference check (one module per size and path).
SIZES = [(1, 1), (1, 5), (5, 1), (2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (3, 4), (4, 3), (4, 4)]


@pytest.mark.parametrize("n,m", SIZES)
def test_the_generated_kernel_equals_the_reference(n, m):
    expect = naive.stats(n, m)
    for path in P.PATHS:
        for symmetry in S.SYMMETRIES:
            got = S.stats(n, m, path=path, symmetry=symmetry, version=3)
            assert naive.shaped(got) == expect, (n, m, path, symmetry)


@pytest.mark.parametrize("n,m", [(2, 3), (3, 3)])
def test_the_generated_kernel_equals_the_reference_for_yesnograms(n, m):
    expect = naive.stats(n, m, variant="yesnogram")
    for path in P.PATHS:
        assert naive.shaped(S.stats(n, m, path=path, variant="yesnogram", version=3)) == expect, (n, m, path)


@pytest.mark.parametrize("n,m,path", [(5, 6, "rows"), (5, 6, "transposed"), (4, 8, "rows"), (4, 8, "transposed")])
def test_random_shards_equal_the_plain_kernels_shard_by_shard(n, m, path):
    # Without symmetry both versions enumerate the same groups in the same shards: equal vector by vector.
    depth = P.default_depth(n, m, path)
    shards = np.random.default_rng(n * m).choice(P.shard_count(n, m, path, depth), size=6, replace=False)
    new = S.stats_shards(n, m, shards, path, "none", depth, version=3)
    old = S.stats_shards(n, m, shards, path, "none", depth, version=2)
    assert new.tolist() == old.tolist()
    assert new[:, 0].sum() > 0  # the shards hold grids


def test_two_or_three_flat_rows_give_the_same_vectors(monkeypatch):
    # The odometer over a group's last rows (specialize.flat_count): 3 rows for 4x5 by default, 2 when capped.
    n, m = 4, 5
    prep = P.prepare(n, m)
    assert specialize.flat_count(n, int(np.diff(prep.pat_start).max())) == 3
    depth = P.default_depth(n, m)
    shards = np.arange(P.shard_count(n, m, "rows", depth))
    args = specialize.shard_args(prep, depth, S.SYMMETRIES["flips"])
    vectors = []
    for flat_max in (3, 2):
        monkeypatch.setattr(tuning, "FLAT_MAX", flat_max)
        mod = specialize.generated.load(f"stats_{n}x{m}_flat{flat_max}", specialize.source(n, m, prep.base))
        vectors.append(mod.stats_shards(shards, *args, StatsLayout.make(n, m).width))
    assert vectors[0].tolist() == vectors[1].tolist()
    assert vectors[0][:, GRIDS].sum() == 1 << (n * m)


def test_both_paths_and_both_versions_agree_on_5x5():
    rows = S.stats(5, 5, version=3)
    assert rows == S.stats(5, 5, path="transposed", version=3) == S.stats(5, 5, version=2)
    assert (rows.solvable, rows.unique, rows.stuck_start) == (24976511, 25309575, 100110)


def test_yesnogram_versions_agree():
    assert S.stats(4, 5, variant="yesnogram", version=3) == S.stats(4, 5, variant="yesnogram", version=2)


def test_the_whole_tuple_weights_add_up_to_every_grid():
    # Weight times group size over every clue tuple is every grid, and only about a quarter is enumerated.
    n, m = 4, 5
    prep = P.prepare(n, m)
    sizes = np.diff(prep.pat_start)
    order = K.row_order(n)
    total = enumerated = by_border = 0
    for t in np.ndindex(*(prep.clues,) * n):
        clue = np.array(t, np.int64)
        w = K.tuple_weight_full(clue, n, prep.clues, prep.rev, S.SYMMETRIES["flips"], order)
        group = int(np.prod(sizes[clue]))
        total += w * group
        enumerated += group if w else 0
        border = K.tuple_weight(clue, n, prep.clues, prep.rev, S.SYMMETRIES["flips"])
        assert w == 0 or border > 0  # whole shards are still skipped
        by_border += group if border else 0
    assert total == 1 << (n * m)
    assert enumerated < 0.35 * total and enumerated < 0.8 * by_border


@pytest.mark.parametrize("count,bits", [(0, 10), (5, 10), (300, 9), (5000, 27), (20000, 40), (3000, 1)])
def test_singletons_count_the_keys_met_once(count, bits):
    rng = np.random.default_rng(count + bits)
    keys = rng.integers(0, 1 << bits, size=count, dtype=np.int64)
    keys[: count // 3] = keys[count // 3 : 2 * (count // 3)]  # many twins
    values, times = np.unique(keys, return_counts=True)
    buf = np.concatenate([keys, np.full(7, -1, np.int64)])  # the kernel counts a prefix of a larger buffer
    # A table of twice the keys or more: hashed up to HASH_MAX keys, the keys left as they are.
    assert K.count_singletons(buf, count, np.zeros(4 * count + 64, np.int64), bits) == int((times == 1).sum())
    assert buf[:count].tolist() == keys.tolist() or count > K.HASH_MAX
    # A scratch buffer as large as the keys (as the kernel's when its groups are small): the radix sort, in place.
    assert K.count_singletons(buf, count, np.zeros_like(buf), bits) == int((times == 1).sum())
    assert buf[:count].tolist() == sorted(keys.tolist())


def test_new_runs_use_version_3_from_20_cells_and_version_2_checkpoints_still_resume():
    assert StatsLayout.make(4, 5).version == STATS_VERSION == 3
    assert StatsLayout.make(4, 4).version == 2
    old = StatsLayout.from_key("4x5-stats2-d2-rows-sym")
    assert old.version == 2 and old.compute(0) == StatsLayout.make(4, 5, depth=2, version=2).compute(0)
    with pytest.raises(ValueError, match="version"):
        StatsLayout.make(4, 5, version=1)


def test_the_generated_source_names_its_size():
    src = specialize.source(3, 4, P.prepare(3, 4).base, "columns")
    assert "3x4, columns first" in src and "tuple_weight_full" in src
    with pytest.raises(ValueError):
        specialize.source(3, 4, 5, "diagonal")


def test_a_run_past_a_year_is_refused_naming_what_a_day_does():
    from localcount.api import counting
    from localcount.engines.base import Layout
    from localcount.orchestration.launch import launch
    from localcount.util.errors import UsageError

    class Huge(Layout):  # a stats layout of 7x7 estimated at three years
        n = m = 7
        kind = "stats"
        in_parent = False

        def warm(self, parallel=False):
            pass

        def estimate_one_core(self):
            return 3 * 365 * 86400.0

    with pytest.raises(UsageError) as err:
        launch(Huge(), counting.run_options(7, 7, jobs=1))
    assert "a day here does about 2^38 grids, e.g. 6x6" in str(err.value) and "--shard" not in str(err.value)


# OEIS A384764 (uniquely solvable n x m nonograms by antidiagonals, offset 0), its DATA section as published
# (https://oeis.org/A384764, B. Felgenhauer, 2025): antidiagonals n + m = 0 .. 10.  Facts to check against.
A384764_DATA = [
    1,
    1,
    1,
    1,
    2,
    1,
    1,
    4,
    4,
    1,
    1,
    8,
    14,
    8,
    1,
    1,
    16,
    52,
    52,
    16,
    1,
    1,
    32,
    210,
    384,
    210,
    32,
    1,
    1,
    64,
    816,
    3152,
    3152,
    816,
    64,
    1,
    1,
    128,
    3206,
    24230,
    52362,
    24230,
    3206,
    128,
    1,
    1,
    256,
    12536,
    189898,
    814632,
    814632,
    189898,
    12536,
    256,
    1,
    1,
    512,
    48962,
    1473674,
    12819322,
    25309575,
    12819322,
    1473674,
    48962,
    512,
    1,
]


def test_the_unique_table_b_file_starts_with_the_published_terms():
    import pathlib

    from localcount.results import publish, records

    results = pathlib.Path(__file__).resolve().parent.parent / "results"
    terms = publish.unique_antidiagonal_terms(records.read_stats_table(results))
    assert [k for k, _ in terms] == list(range(len(terms))) and len(terms) >= len(A384764_DATA)
    assert [v for _, v in terms[: len(A384764_DATA)]] == A384764_DATA
    lines = (results / publish.UNIQUE_TABLE_BFILE).read_text().splitlines()
    assert [line for line in lines if not line.startswith("#")] == [f"{k} {v}" for k, v in terms]


def test_any_number_of_lanes_gives_the_same_vectors():
    # tuning.STATS_LANES is a speed choice: 1, 2, 3 and 4 lanes (3: groups that end mid-step) agree shard by shard.
    for path in ("rows", "transposed"):
        n, m, first = (4, 5, "rows") if path == "rows" else (5, 4, "columns")
        prep = P.prepare(n, m)
        depth = P.default_depth(4, 5, path)
        shards = np.arange(P.shard_count(4, 5, path, depth))
        args = specialize.shard_args(prep, depth, S.SYMMETRIES["flips"])
        width = StatsLayout.make(4, 5, path=path).width
        vectors = {}
        for lanes in (1, 2, 3, 4):
            src = specialize.source(n, m, prep.base, first, lanes)
            mod = specialize.generated.load(f"stats_{n}x{m}_{first}_lanes{lanes}", src)
            vectors[lanes] = mod.stats_shards(shards, *args, width).tolist()
        assert vectors[1] == vectors[2] == vectors[3] == vectors[4], path
        assert np.asarray(vectors[1])[:, GRIDS].sum() == 1 << 20


def test_the_lanes_stop_at_the_same_fixpoints_whether_checked_every_half_pass_or_every_round(monkeypatch):
    # tuning.STATS_CHECK is a speed choice: a lane stopped after a round's first half rides the second
    # unchanged, and its steps count only the half passes it began unsolved.
    n, m = 4, 5
    prep = P.prepare(n, m)
    depth = P.default_depth(n, m)
    shards = np.arange(P.shard_count(n, m, "rows", depth))
    args = specialize.shard_args(prep, depth, S.SYMMETRIES["none"])
    vectors = {}
    for check in ("half", "round"):
        monkeypatch.setattr(tuning, "STATS_CHECK", check)
        mod = specialize.generated.load(f"stats_{n}x{m}_check_{check}", specialize.source(n, m, prep.base))
        vectors[check] = mod.stats_shards(shards, *args, StatsLayout.make(n, m).width).tolist()
    assert vectors["half"] == vectors["round"]
    assert S.stats(n, m, version=3) == S.stats(n, m, version=2)


def test_lockstep_checks_where_it_is_told():
    from localcount.engines import codegen

    def breaks(check):
        return sum(line.strip() == "break" for line in codegen.lockstep(3, 3, 2, steps=True, check=check))

    assert (breaks("half"), breaks("round")) == (2, 1)
    with pytest.raises(ValueError, match="check must be one of"):
        codegen.lockstep(3, 3, 2, check="never")
    assert codegen.or_tree(["a", "b", "c", "d", "e"]) == "(((a | b) | c) | (d | e))"


def test_lockstep_names_the_half_pass_done_rows_or_columns():
    from localcount.engines import codegen

    def first_lookup(done):
        return next(line.strip() for line in codegen.lockstep(2, 3, 1, done=done) if "tab[" in line)

    assert "ctab[" in first_lookup("rows") and "KC0" in first_lookup("rows")
    assert "rtab[" in first_lookup("columns") and "KR0" in first_lookup("columns")
    for wrong in ("cols", "row", "Rows", ""):
        with pytest.raises(ValueError, match="done must be one of"):
            codegen.lockstep(2, 3, 1, done=wrong)
    with pytest.raises(ValueError, match="columns must be one of"):
        codegen.lockstep(2, 3, 1, columns="solver+table")


def test_the_estimate_times_a_few_small_shards_drawn_by_their_grids(monkeypatch):
    # Whole shards of 6x7 (63 s each on average) made the estimate take 50 minutes: it times shards of at
    # most about 2^20 grids instead, for about tuning.STATS_ESTIMATE_SECONDS; the first batch is one shard.
    lay = StatsLayout.make(5, 6)
    depth = lay.probe_depth()
    assert depth > lay.depth and (1 << 30) // lay.clues**depth <= 1 << 20 < (1 << 30) // lay.clues ** (depth - 1)
    assert StatsLayout.make(2, 3).probe_depth() == 2  # every row fixed at most
    calls = []
    real = S.stats_shards

    def counted(n, m, shards, path, symmetry, depth, *rest):
        calls.append((len(shards), depth))
        return real(n, m, shards, path, symmetry, depth, *rest)

    monkeypatch.setattr(S, "stats_shards", counted)
    monkeypatch.setattr(tuning, "STATS_ESTIMATE_SECONDS", 0.0)
    assert lay.estimate_one_core() > 0
    assert calls == [(1, 5), (1, depth)]  # the warm-up's smallest shard, then one probe
    monkeypatch.setattr(tuning, "STATS_ESTIMATE_SECONDS", 1e9)
    monkeypatch.setattr(tuning, "STATS_ESTIMATE_SHARDS", 7)
    calls.clear()
    lay.estimate_one_core()
    assert calls[1:] == [(1, depth), (2, depth), (4, depth)]
