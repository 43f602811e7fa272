"""The generated kernels' gather variants (engines.grid.gather) against the plain kernel and the pure-Python
reference, shard by shard; the CPU's cached choice of a variant (engines.grid.choice); the kernel in the
sessions file (orchestration.checkpoint)."""

import functools
import json

import naive
import pytest

from localcount.engines.grid import choice, specialize
from localcount.engines.grid.count import context, count, count_shard, plan
from localcount.engines.grid.layout import GridLayout
from localcount.lines.tables import SPREAD_MAX_LEN, TABLE_MAX_LEN
from localcount.orchestration import checkpoint as C

GATHERS = ("gather4", "gather8", "gather16")
#: Every size of up to 16 cells that has a gather variant (table rows and columns), in every group it has;
#: each costs a compilation per variant (minutes in all on 2 cores), so the default suite keeps a single
#: column, tall rectangles (the lanes differ in two rows of 5x2 with 16 lanes), squares (4x4: the square
#: group's lanes), and ``-m slow`` the rest (single rows and 2-row sizes have no lanes: one grid a step).
#: In the sizes without table columns (1x14, 16x1) a generated kernel counts with "lanes".
DEFAULT = [(4, 1), (5, 2), (5, 3), (3, 3), (4, 4)]
SMALL = [
    (n, m) if (n, m) in DEFAULT else pytest.param(n, m, marks=pytest.mark.slow)
    for n in range(1, 17)
    for m in range(1, 17)
    if n * m <= 16 and specialize.column_mode(n, m, TABLE_MAX_LEN, SPREAD_MAX_LEN) == "table"
]


def groups(n, m):
    return ("none", "flips", "square") if n == m >= 2 else ("none", "flips")


@functools.cache
def reference(n, m, variant="nonogram"):
    return naive.count(n, m, variant)


def serial_count(n, m, symmetry, **opts):
    """The count by the serial kernels, shard by shard (no threaded kernel compiled)."""
    p = plan(n, m, shard_bits=min(4, n * m))
    return sum(count_shard(p, u, symmetry, **opts) for u in range(p.shards))


@pytest.fixture
def fresh_choice(monkeypatch):
    """No variant forced, nothing remembered in this process; restored afterwards."""
    monkeypatch.delenv(choice.ENV, raising=False)
    context.cache_clear()
    choice.chosen.cache_clear()
    yield
    context.cache_clear()
    choice.chosen.cache_clear()


@pytest.mark.parametrize("n,m", SMALL)
@pytest.mark.parametrize("kernel", GATHERS)
def test_gather_counts_equal_plain_kernel_and_reference(n, m, kernel):
    want = reference(n, m)
    for symmetry in groups(n, m):
        assert serial_count(n, m, symmetry, specialized=True, kernel=kernel) == want, symmetry
        assert serial_count(n, m, symmetry, specialized=False) == want


@pytest.mark.parametrize(
    "n,m,kernel",
    [(4, 5, k) for k in GATHERS]
    + [(5, 5, "gather16")]
    + [pytest.param(5, 5, k, marks=pytest.mark.slow) for k in GATHERS[:2]],
)
def test_gather_shards_equal_plain_shards(n, m, kernel):
    # The layout's shards are the plan's shards of its shard bits: equal one by one, in every group.
    lay = GridLayout.make(n, m)
    p = plan(n, m, shard_bits=lay.bits)
    for symmetry in groups(n, m):
        want = [count_shard(p, s, symmetry, specialized=False) for s in range(lay.shards)]
        got = [count_shard(p, s, symmetry, specialized=True, kernel=kernel) for s in range(lay.shards)]
        assert got == want, symmetry
        assert got == [count_shard(p, s, symmetry, specialized=True, kernel="lanes") for s in range(lay.shards)]


@pytest.mark.parametrize("kernel", GATHERS)
def test_gather_threaded_kernel_gives_the_known_counts(kernel):
    assert count(5, 5, kernel=kernel) == 24976511
    assert count(4, 5, symmetry="none", kernel=kernel) == count(4, 5, specialized=False)


@pytest.mark.parametrize("kernel", GATHERS)
@pytest.mark.parametrize("n,m", [(2, 3), (3, 4), (4, 3), (4, 4)])
def test_gather_yesnograms_equal_reference(n, m, kernel):
    want = reference(n, m, "yesnogram")
    for symmetry in ("none", "flips"):
        assert serial_count(n, m, symmetry, specialized=True, kernel=kernel, variant="yesnogram") == want


def test_gather_lanes_run_where_blocks_allow():
    # The gather half passes are in the lane loop of every group's enumeration, 4 or 8 lanes wide.
    src = specialize.source(5, 5, "table", "gather8")
    assert src.count("_cols_half(cgat") == 2 and src.count("_rows_half(rgat") == 2
    assert "range(0, 1 << step_bits, 8)" in src and src.count("= _rows_setup(") == src.count("= _square_setup(") == 1
    assert "range(0, 1 << step_bits, 4)" in specialize.source(5, 5, "table", "gather4")
    assert "range(0, 1 << step_bits, 16)" in specialize.source(5, 2, "table", "gather16")
    assert "= _rows_setup(" not in specialize.source(2, 5, "table", "gather16")  # no row varies: one grid a step


def test_lanes_source_is_untouched_by_the_variants():
    assert "gather" not in specialize.source(5, 6) and "half_pass" not in specialize.source(6, 6)


def test_gather_needs_table_columns_and_a_known_name():
    with pytest.raises(ValueError, match="table columns"):
        specialize.source(5, 2, "solver", "gather4")
    with pytest.raises(ValueError, match="kernel must be one of"):
        specialize.source(3, 3, "table", "gather2")
    with pytest.raises(ValueError, match="kernel must be one of"):
        context(3, 3, kernel="simd")
    # Columns too long for a table count with the lanes whatever is asked.
    assert context(5, 2, table_max=3, spread_max=16, specialized=True, kernel="gather4").kernel_name == "lanes"


def test_first_table_is_the_first_row_pass():
    from localcount.engines.grid.gather import first_table

    ctx = context(4, 5)
    first = first_table(ctx.rtab, ctx.rspread, 5)
    assert first.shape == ctx.rspread.shape
    for i in range(4):
        for x in range(32):
            assert first[i, x] == ctx.rspread[i, ctx.rtab[x << 5]]


def test_gather_table_is_the_spread_line_table():
    import numpy as np

    from localcount.engines.grid.gather import gather_table

    ctx = context(3, 4)
    rgat = gather_table(ctx.rtab, ctx.rspread)
    assert rgat.dtype == np.uint64 and rgat.shape == ctx.rtab.shape
    for x in range(0, len(ctx.rtab), 7):
        for i in range(3):
            assert int(rgat[x]) << i == int(ctx.rspread[i, ctx.rtab[x]])


# --- the choice: measured once per CPU and kernel digest, cached, forced by the environment ---


@pytest.fixture
def fake_measure(monkeypatch):
    """choice.measure replaced by a recorder that finds gather8 fastest."""
    calls = []

    def measure():
        calls.append(1)
        return {"lanes": [1.0, 1.1, 1.0], "gather8": [0.8, 0.9, 0.85], "gather16": [0.85, 0.95, 0.9]}

    monkeypatch.setattr(choice, "measure", measure)
    return calls


def test_choice_is_measured_once_then_read_back(tmp_path, fake_measure):
    path = tmp_path / "cpu_kernel_x.json"
    assert choice.choose(path) == "gather8" and len(fake_measure) == 1
    record = json.loads(path.read_text())
    assert record["kernel"] == "gather8" and record["best_seconds"] == {"lanes": 1.0, "gather8": 0.8, "gather16": 0.85}
    assert record["median_ratios"]["gather8"] == 0.8182
    assert choice.choose(path) == "gather8" and len(fake_measure) == 1


@pytest.mark.parametrize("text", ["", "{", "[]", '{"kernel": "simd9"}', '{"seconds": {}}', "\x00\xff"])
def test_a_broken_choice_file_is_measured_again(tmp_path, fake_measure, text):
    path = tmp_path / "cpu_kernel_x.json"
    path.write_text(text)
    assert choice.choose(path) == "gather8" and len(fake_measure) == 1
    assert json.loads(path.read_text())["kernel"] == "gather8"


def test_choice_file_is_keyed_by_cpu_and_kernels(monkeypatch, tmp_path):
    monkeypatch.setenv("LOCALCOUNT_KERNEL_DIR", str(tmp_path))
    first = choice.cache_path()
    assert first.parent == tmp_path and first.name.startswith("cpu_kernel_")
    monkeypatch.setattr(choice, "cpu_identity", lambda: "another CPU")
    assert choice.cache_path() != first
    second = choice.cache_path()
    monkeypatch.setattr(choice, "kernel_digest", lambda: "changed")
    assert choice.cache_path() not in (first, second)


def test_choice_file_is_keyed_by_the_protocol(monkeypatch):
    first = choice.kernel_digest()
    monkeypatch.setattr(choice.tuning, "CHOICE_ROUNDS", choice.tuning.CHOICE_ROUNDS + 1)
    assert choice.kernel_digest() != first


def test_chosen_variant_comes_from_the_cache_dir(monkeypatch, tmp_path, fresh_choice, fake_measure):
    monkeypatch.setenv("LOCALCOUNT_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(choice, "kernel_digest", lambda: "digest")  # no probe sources generated here
    # Not measured yet: the sure default, and nothing is measured to find it.
    assert choice.resolve() == choice.DEFAULT == "lanes" and choice.resolve("auto") == "lanes" and not fake_measure
    assert choice.record() is None
    assert choice.choose() == "gather8" and len(fake_measure) == 1
    assert choice.resolve() == "gather8" and len(fake_measure) == 1  # measuring clears this process's memory
    choice.chosen.cache_clear()
    assert choice.resolve() == "gather8" and len(fake_measure) == 1  # a new process reads the file
    assert choice.record()["kernel"] == "gather8"
    assert choice.tune()["kernel"] == "gather8" and len(fake_measure) == 2  # tune measures again
    assert choice.tune(again=False)["kernel"] == "gather8" and len(fake_measure) == 2


def test_only_a_long_count_measures_first(monkeypatch, tmp_path, fresh_choice, fake_measure):
    monkeypatch.setenv("LOCALCOUNT_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(choice, "kernel_digest", lambda: "digest")
    monkeypatch.setattr(choice, "candidates", lambda: ("lanes", "gather8", "gather16"))
    pays = choice.tuning.PROBE_PAYS_SECONDS
    assert not choice.due(None) and not choice.due(pays / 2) and choice.due(pays)
    said = []
    lay = GridLayout.make(5, 5)
    assert lay.tune(pays / 2, 2, said.append) == 2 and not said and not fake_measure
    assert lay.kernel_note() == "lanes"
    assert lay.tune(0.01, 2, said.append) == 1  # short: one thread, no threaded kernel
    assert lay.tune(pays, 2, said.append) == 2 and len(fake_measure) == 1
    assert len(said) == 1 and "measuring which kernel variant" in said[0]
    assert lay.kernel_note() == "gather8"  # (counts of a chosen variant: test_a_forced_variant_is_honoured)
    assert lay.tune(10 * pays, 2, said.append) == 2 and len(fake_measure) == 1 and len(said) == 1  # known now
    assert not choice.due(pays)
    monkeypatch.setattr(choice, "candidates", lambda: ("lanes",))
    (tmp_path / choice.cache_path().name).unlink()
    choice.chosen.cache_clear()
    assert not choice.due(pays)  # one candidate: nothing to measure


def test_tune_command_measures_and_shows(monkeypatch, tmp_path, fresh_choice, fake_measure):
    from incli import cli

    import localcount as lc

    monkeypatch.setenv("LOCALCOUNT_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(choice, "kernel_digest", lambda: "digest")
    status, out, err = cli("tune", "--show")
    assert (status, out) == (0, "lanes\n") and "not measured" in err and not fake_measure
    assert lc.tune(measure=False) == lc.Tuning("lanes", "default", None, str(choice.cache_path()))
    status, out, err = cli("tune")
    assert (status, out) == (0, "gather8\n") and len(fake_measure) == 1
    assert "gather8 0.800 s" in err and str(tmp_path) in err
    found = lc.tune(measure=False)
    assert (found.kernel, found.how, found.record["kernel"]) == ("gather8", "measured", "gather8")
    monkeypatch.setenv(choice.ENV, "gather4")
    status, out, err = cli("tune")
    assert (status, out) == (0, "gather4\n") and "forced" in err and len(fake_measure) == 1
    assert cli("tune", "--bogus")[0] == 2


def test_a_forced_variant_is_honoured(monkeypatch, fresh_choice, fake_measure):
    monkeypatch.setenv(choice.ENV, "gather4")
    assert choice.resolve() == "gather4" and choice.resolve("lanes") == "lanes"
    assert context(5, 5).kernel_name == "gather4"
    assert GridLayout.make(5, 5).kernel_note() == "gather4"
    assert GridLayout.make(5, 5).compute(7) == count_shard(plan(5, 5, GridLayout.make(5, 5).bits), 7, specialized=False)
    monkeypatch.setenv(choice.ENV, "auto")
    context.cache_clear()
    monkeypatch.setattr(choice, "choose", lambda: "lanes")
    assert GridLayout.make(5, 5).kernel_note() == "lanes"
    assert not fake_measure
    monkeypatch.setenv(choice.ENV, "avx")
    with pytest.raises(ValueError, match=choice.ENV):
        choice.resolve()


def test_pick_needs_a_clear_win_for_a_gather():
    assert choice.pick({"lanes": [1.0, 1.0], "gather4": [0.99, 0.98], "gather8": [1.2, 1.3]}) == "lanes"
    assert choice.pick({"lanes": [1.0, 1.0], "gather4": [0.9, 0.9], "gather8": [0.95, 0.93]}) == "gather4"
    assert choice.pick({"lanes": [0.7, 0.8], "gather4": [1.0, 1.0], "gather8": [0.9, 0.9]}) == "lanes"
    assert choice.pick({"lanes": []}) == "lanes"
    # A busy machine slowed lanes' first round: the paired ratios say lanes, whatever the best times say.
    busy = {"lanes": [2.0, 1.0, 1.0, 1.0], "gather16": [1.2, 1.2, 1.2, 1.2]}
    assert choice.ratios(busy) == {"gather16": 1.2} and choice.pick(busy) == "lanes"
    # Rounds slowed alike (another process on the core) keep their ratios.
    assert choice.pick({"lanes": [2.0, 1.0, 4.0], "gather16": [1.8, 0.9, 3.6]}) == "gather16"


def test_measure_on_this_cpu_times_every_candidate():
    seconds = choice.measure()
    assert set(seconds) == set(choice.candidates())
    assert all(len(ts) == choice.tuning.CHOICE_ROUNDS and all(0 < t < 60 for t in ts) for ts in seconds.values())
    assert choice.pick(seconds) in choice.candidates()


def test_candidates_follow_the_vector_gathers():
    assert choice.candidates("+sse4.2,-avx2,+popcnt") == ("lanes",)
    assert choice.candidates("+avx2,-avx512f,+bmi2") == ("lanes", "gather4", "gather8")
    assert choice.candidates("+avx2,+avx512f") == ("lanes", "gather8", "gather16")
    assert choice.measure(("lanes",)) == {"lanes": []}


def test_kernel_note_without_a_generated_kernel(fresh_choice, monkeypatch):
    monkeypatch.setattr(choice, "choose", lambda: pytest.fail("measured for a size without a generated kernel"))
    assert GridLayout.make(2, 3).kernel_note() == "plain"
    assert GridLayout.make(0, 3).kernel_note() == ""
    from localcount.engines.base import Layout

    assert Layout.kernel_note(GridLayout.make(2, 3)) == ""


# --- the kernel in the sessions file: a 7th column when noted; 6-column lines still read ---


def _old_line(key, start, processes, version, commit, cpu):
    """A session line as written before the kernel column."""
    body = "\t".join([f"{start:.3f}", str(processes), version, commit, cpu])
    return f"{C.crc(key + chr(9) + body)}\t{body}\n"


def test_sessions_keep_reading_six_columns_and_read_the_kernel(tmp_path):
    key = "5x5-v1-s8-sq"
    log = tmp_path / f"{key}.log"
    old = _old_line(key, 1.5, 2, "0.9", "abc", "AMD EPYC, 2 cores")
    new = C.Session(2.5, 2, "1.0", "def", "Intel Xeon, 2 cores", "gather8")
    plain = C.Session(3.5, 1, "1.0", "def", "AMD EPYC, 2 cores")
    assert C.session_line(key, plain) == _old_line(key, 3.5, 1, "1.0", "def", "AMD EPYC, 2 cores")
    bad = C.session_line(key, new).replace("gather8", "gather4")  # checksum covers the kernel
    eight = C.session_line(key, new).rstrip("\n") + "\textra\n"
    C.sessions_path(log).write_text(old + C.session_line(key, new) + bad + eight + C.session_line(key, plain))
    got = C.read_sessions(log, key)
    assert got == [C.Session(1.5, 2, "0.9", "abc", "AMD EPYC, 2 cores"), new, plain]
    assert got[0].kernel == "" and got[1].kernel == "gather8"
    assert C.session_line(key, new).count("\t") == 6
