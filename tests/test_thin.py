"""The thin (2×m) counter against the pure-Python reference and the general kernel."""

import functools
import itertools
import pathlib
import random
import subprocess
import sys

import naive
import numpy as np
import pytest

from localcount import tuning
from localcount.cli import table
from localcount.engines.grid.count import count
from localcount.engines.registry import parse_key, table_paths, thin_preferred
from localcount.engines.thin import kernel as thin
from localcount.engines.thin import layout as tl
from localcount.results import records as results

RESULTS = pathlib.Path(__file__).resolve().parent.parent / "results"
MODES = list(itertools.product(tl.ROW_MODES, tl.THIN_GROUPS))


@functools.cache
def reference(m):
    """The pure-Python count of 2×m (once per m and process)."""
    return naive.count(2, m)


@functools.cache
def kernel_count(m):
    """The general kernel's count of 2×m, which must agree with its m×2 count over every grid."""
    rows = count(2, m)
    assert count(m, 2, symmetry=False) == rows
    return rows


@pytest.mark.parametrize("m", range(1, 9))
@pytest.mark.parametrize("rows,symmetry", MODES)
def test_thin_equals_reference(m, rows, symmetry):
    assert tl.count_thin(m, rows, symmetry) == reference(m)


@pytest.mark.parametrize("m", [9, 10, 11, 12])
@pytest.mark.parametrize("rows,symmetry", MODES)
def test_thin_equals_general_kernel(m, rows, symmetry):
    assert tl.count_thin(m, rows, symmetry) == kernel_count(m)


def test_row_updates_equal_the_reference_line_step():
    """The zeta table and the word solver give the cells a row leaves unknown, as naive.line_step does."""
    m = 7
    order, start, end = thin.clue_groups(m)
    T = np.zeros(1 << m, np.int32)  # as the kernel keeps it
    clue = np.zeros(m + 1, np.int64)
    Q = np.zeros(m + 2, np.uint64)
    rng = random.Random(5)
    for a in rng.sample(range(1 << m), 40):
        thin.zeta_table(a, m, order, start[a], end[a], T)
        t = thin.line_clue_into(np.uint64(a), m, clue)
        line_clue = tuple(int(v) for v in clue[:t])
        for U in range(1 << m):
            cells = tuple(None if U >> i & 1 else a >> i & 1 for i in range(m))
            step = naive.line_step(line_clue, cells)
            expected = sum(1 << i for i, v in enumerate(step) if v is None)
            assert T[U] == expected == thin.still_unknown(a, U, clue, t, m, Q), (a, U)


def test_clue_groups_hold_the_lines_with_each_clue():
    m = 6

    def runs(x):  # the clue, read from the binary digits (the same order for every line)
        return tuple(len(r) for r in f"{x:0{m}b}".split("0") if r)

    order, start, end = thin.clue_groups(m)
    for x in range(1 << m):
        group = sorted(int(v) for v in order[start[x] : end[x]])
        assert group == [y for y in range(1 << m) if runs(y) == runs(x)]


def test_orbit_weights_cover_every_grid_once():
    """Exactly one grid of each orbit under {swap rows, reverse rows} has a weight, and it is the orbit's size."""
    m = 5

    def rev(x):
        return int(f"{x:0{m}b}"[::-1], 2)

    seen = {}
    for a, b in itertools.product(range(1 << m), repeat=2):
        orbit = frozenset({(a, b), (b, a), (rev(a), rev(b)), (rev(b), rev(a))})
        w = thin.orbit_weight(a, b, rev(a), rev(b), m)
        if w:
            assert orbit not in seen and w == len(orbit)
            seen[orbit] = w
    assert sum(seen.values()) == 4**m


@pytest.mark.parametrize("bits", [0, 3, 7])
def test_shards_add_up_and_rerun_alone(bits):
    lay = tl.ThinLayout.make(7, bits)
    parts = [lay.compute(s) for s in range(lay.shards)]
    assert sum(parts) == reference(7)
    assert lay.compute(lay.shards - 1) == parts[-1]


def test_keys_round_trip_and_bad_layouts_are_refused():
    for lay in (tl.ThinLayout.make(19), tl.ThinLayout.make(19, 14, "word", "none")):
        assert parse_key(lay.key) == lay
    assert tl.ThinLayout.make(19).key == "2x19-thin1-tab-s15-sym"
    for bad in [
        dict(m=0),
        dict(m=tuning.THIN_MAX_M + 1),
        dict(m=5, bits=6),
        dict(m=5, rows="dp"),
        dict(m=5, symmetry="square"),
    ]:
        with pytest.raises(ValueError):
            tl.ThinLayout.make(**bad)
    with pytest.raises(ValueError):
        thin.count_thin_shard(tl.ThinLayout.make(5, 2), 4)


def test_thin_is_preferred_for_two_long_rows_only():
    assert thin_preferred(2, 14) and thin_preferred(17, 2)
    assert not thin_preferred(2, 13) and not thin_preferred(3, 14) and not thin_preferred(1, 20)


def test_estimate_is_positive():
    assert thin.estimate_thin_seconds(tl.ThinLayout.make(10), samples=4) > 0


def _cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "localcount", *args], input=stdin, capture_output=True, text=True)


def test_cli_thin_method(tmp_path):
    expected = str(kernel_count(9))
    for args in (
        ["2", "9", "--method", "thin"],
        ["9", "2", "--method", "thin", "--thin-rows", "word", "--no-symmetry"],
    ):
        out = _cli(*args)
        assert out.returncode == 0 and out.stdout == expected + "\n", out.stderr
    out = _cli("2", "9", "--method", "thin", "--checkpoint-dir", str(tmp_path), "--shard-bits", "3")
    assert out.returncode == 0 and out.stdout == expected + "\n", out.stderr
    assert (tmp_path / "2x9-thin1-tab-s3-sym.log").exists()
    status = _cli("status", str(tmp_path))
    assert "2x9-thin1-tab-s3-sym" in status.stdout and "complete" in status.stdout
    merged = _cli("merge", str(tmp_path))
    assert merged.returncode == 0 and expected in merged.stdout
    parts = []
    for k in range(2):  # shard groups in two directories, added up by merge
        out = _cli("9", "2", "--shard", f"{k}/2", "--checkpoint-dir", str(tmp_path / f"g{k}"), "--method", "thin")
        assert out.returncode == 0, out.stderr
        parts.append(int(out.stdout))
    assert sum(parts) == int(expected) and 0 not in parts
    merged = _cli("merge", str(tmp_path / "g0"), str(tmp_path / "g1"))
    assert merged.returncode == 0 and expected in merged.stdout


@pytest.mark.parametrize(
    "args,message",
    [
        (["3", "9", "--method", "thin"], "2 rows or 2 columns"),
        (["2", "2", "--method", "thin", "--symmetry", "square"], "flips or none"),
        (["2", "9", "--method", "thin", "--shard-bits", "10"], "between 0 and 9"),
    ],
)
def test_cli_thin_bad_input_exits_2(args, message):
    out = _cli(*args)
    assert out.returncode == 2 and message in out.stderr and out.stdout == ""


def test_table_counts_a_thin_size_by_two_paths(tmp_path, monkeypatch):
    """With the thin counter preferred from 2x9 on, table records both thin paths and they agree with the kernel."""
    from localcount.engines import registry

    monkeypatch.setattr(registry, "thin_preferred", lambda n, m: min(n, m) == 2 and max(n, m) >= 9)
    a, b = table_paths(2, 9)
    assert a.key != b.key and {a.rows, b.rows} == {"table", "word"} and a.bits != b.bits
    res = tmp_path / "results"
    status = table.main(
        [
            "--sizes",
            "2x9",
            "--results",
            str(res),
            "--checkpoint-dir",
            str(tmp_path / "ck"),
            "--readme",
            str(tmp_path / "R.md"),
        ]
    )
    assert status == 0
    runs = results.read_runs(res)
    assert sorted(r.layout for r in runs) == sorted([a.key, b.key])
    assert {r.count for r in runs} == {kernel_count(9)}
    assert [(r.n, r.m, r.runs) for r in results.read_table(res)] == [(2, 9, 2)]


@pytest.mark.slow
@pytest.mark.parametrize("m", [13, 14, 15, 16])
def test_thin_equals_recorded_general_kernel_counts_slow(m):
    """Against the counts in results/ made by two runs of the general kernel (n×m and m×n)."""
    recorded = {(r.n, r.m): r for r in results.read_table(RESULTS)}[(2, m)]
    assert not any("thin" in key for key in recorded.layouts.split(";"))
    assert tl.count_thin(m) == recorded.count
