"""Every locally solvable puzzle by its number (``api.numbering``, ``engines.numbering``, ``results.numberings``, the commands
``nth``, ``rank``, ``list`` and ``index``), against tests/naive.py's literal reading of the order."""

import json
import pathlib
import random

import naive
import numpy as np
import pytest
from incli import cli

import localcount as lc
from localcount.api import numbering
from localcount.engines.numbering import count as numbering_count
from localcount.engines.numbering.layout import NumberingLayout, default_rows
from localcount.results import numberings

ROOT = pathlib.Path(__file__).resolve().parent.parent
FAMILIES = ("nonogram", "yesnogram")
#: Every size up to 4x4 (and the empty sizes).
SMALL = [(n, m) for n in range(0, 5) for m in range(0, 5) if (n * m or n == m == 0)]


@pytest.fixture(autouse=True)
def index_dir(tmp_path, monkeypatch):
    """Indexes built on first use go to a fresh directory (the package's shipped ones are still read)."""
    monkeypatch.setenv(numberings.ENV_DIR, str(tmp_path / "index"))
    monkeypatch.setenv("LOCALCOUNT_CHECKPOINT_DIR", str(tmp_path / "ck"))
    return tmp_path / "index"


def reference(n, m, variant, steps=None):
    """naive's numbered puzzles, within a steps range (a, b)."""
    every_one = naive.numbered(n, m, variant) if n * m else ((("",) * n, 0),)
    return [(rows, d) for rows, d in every_one if steps is None or steps[0] <= d <= steps[1]]


# --- the order ---


@pytest.mark.parametrize("n,m", [(0, 0), (1, 1), (2, 3), (3, 2), (5, 5), (6, 7)])
def test_a_grid_s_number_and_rows_are_the_docs_formula_and_inverses(n, m):
    from localcount.clues import grid_rows
    from localcount.engines.numbering import order

    rng = random.Random(n * 8 + m)
    for _ in range(20):
        cells = [[rng.randrange(2) for _ in range(m)] for _ in range(n)]
        g = sum(v << (n * m - 1 - (r * m + c)) for r, row in enumerate(cells) for c, v in enumerate(row))
        words = [int("".join(map(str, row)) or "0", 2) for row in cells]
        assert numbering.number_of(cells) == order.number(words, m) == g and order.rows(g, n, m) == tuple(words)
        assert numbering.rows_of_number(g, n, m) == tuple("".join(map(str, row)) for row in cells)
        mask = numbering.grid_of_number(g, n, m)
        assert [[(line >> c) & 1 for c in range(m)] for line in grid_rows(mask, n, m)] == cells
    grids = np.arange(1 << min(n * m, 10), dtype=np.int64)  # numpy arrays too (``vector``)
    for r, row in enumerate(order.rows(grids, n, m)):
        assert row.tolist() == [order.rows(int(x), n, m)[r] for x in grids]


# --- the kernels ---


@pytest.mark.parametrize("variant", FAMILIES)
@pytest.mark.parametrize("n,m", [(n, m) for n, m in SMALL if n * m] + [(1, 12), (12, 1), (2, 6), (6, 2), (3, 4)])
def test_every_code_equals_the_reference_in_both_kernels(n, m, variant):
    """The plain, generated and numpy kernels give each grid's steps (0 stuck, 1 + steps), as naive's definition does."""
    plain = numbering_count.codes(n, m, 0, 1 << (n * m), variant, how="plain")
    fast = numbering_count.codes(n, m, 0, 1 << (n * m), variant, how="generated")
    serial = numbering_count.codes(n, m, 0, 1 << (n * m), variant, parallel=False, how="generated")
    vector = numbering_count.codes(n, m, 0, 1 << (n * m), variant, how="vector")
    assert (plain == fast).all() and (fast == serial).all() and (vector == plain).all()
    expected = np.zeros(1 << (n * m), np.int8)
    for rows, d in reference(n, m, variant):
        expected[int("".join(rows), 2)] = d + 1
    assert (plain == expected).all()
    hist = numbering_count.hist(n, m, 0, 1 << (n * m), variant)
    assert (hist == np.bincount(plain, minlength=numbering_count.width(n, m))).all()


@pytest.mark.parametrize(
    "n,m,variant", [(5, 5, "nonogram"), (6, 6, "nonogram"), (6, 6, "yesnogram"), (4, 7, "nonogram")]
)
def test_the_three_kernels_agree_on_random_stretches(n, m, variant):
    rng = random.Random(f"{n}{m}{variant}")
    for _ in range(4):
        g0 = rng.randrange(0, 1 << (n * m - 12)) << 12
        plain = numbering_count.codes(n, m, g0, 1 << 12, variant, how="plain")
        assert (numbering_count.codes(n, m, g0, 1 << 12, variant, how="generated") == plain).all()
        assert (numbering_count.codes(n, m, g0, 1 << 12, variant, how="vector") == plain).all()
        odd = rng.randrange(0, (1 << (n * m)) - 999)  # not whole last rows: plain and numpy only
        assert (
            numbering_count.codes(n, m, odd, 999, variant)
            == numbering_count.codes(n, m, odd, 999, variant, how="plain")
        ).all()
        h = np.zeros(numbering_count.width(n, m), np.int64)
        h[: plain.max() + 1] = np.bincount(plain)
        assert (numbering_count.hist(n, m, g0, 1 << 12, variant) == h).all()


def test_the_kernels_refuse_what_they_cannot_number():
    with pytest.raises(ValueError, match="2\\^42"):
        numbering_count.codes(7, 7, 0, 1)
    with pytest.raises(ValueError, match="not all numbers"):
        numbering_count.codes(2, 2, 10, 7)
    with pytest.raises(ValueError, match="lines of at most"):
        numbering_count.codes(1, 14, 0, 1)
    with pytest.raises(ValueError, match="how must be"):
        numbering_count.codes(2, 2, 0, 1, how="gpu")


# --- the layout and its two paths ---


@pytest.mark.parametrize("variant", FAMILIES)
@pytest.mark.parametrize("n,m,rows", [(4, 4, 2), (3, 5, 1), (5, 3, 2), (4, 3, 3), (2, 2, 1)])
def test_the_mirror_and_every_block_give_the_same_index(n, m, rows, variant):
    mirror = NumberingLayout.make(n, m, rows=rows, bits=min(3, rows * m), variant=variant)
    every_block = NumberingLayout.make(n, m, rows=rows, symmetry="none", bits=min(2, rows * m), variant=variant)
    assert mirror.code_path != every_block.code_path
    a = mirror.finish(mirror.add(mirror.compute(s) for s in range(mirror.shards)))
    b = every_block.finish(every_block.in_process(2)[0])
    assert (a == b).all() and mirror.computed().sum() < mirror.blocks
    expected = np.zeros_like(a)
    for rows_, d in reference(n, m, variant):
        expected[int("".join(rows_), 2) >> ((n - rows) * m), d + 1] += 1
    expected[:, 0] = (1 << ((n - rows) * m)) - expected.sum(axis=1)
    assert (a == expected).all()


def test_a_layout_refuses_what_does_not_add_up():
    lay = NumberingLayout.make(3, 3, rows=1, bits=1)
    values = [lay.compute(s) for s in range(lay.shards)]
    with pytest.raises(ValueError, match="cover"):
        lay.finish(lay.add(values[:1]))
    broken = list(values[0])
    broken[2] += 1  # one more stuck grid in a block
    with pytest.raises(ValueError, match="add up"):
        lay.finish(lay.add([tuple(broken), *values[1:]]))
    with pytest.raises(ValueError, match="two different"):
        lay.add([tuple(broken), values[0]])
    for bad in ("", "1,2", "-2," + ",".join("0" * (lay.width + 1))):
        with pytest.raises(ValueError):
            lay.parse_value(bad)
    assert default_rows(5, 5) == 2 and default_rows(6, 6) == 2 and default_rows(4, 4) == 0 and default_rows(6, 5) == 2


# --- nth, rank and iter_puzzles against the reference ---


@pytest.mark.parametrize("variant", FAMILIES)
@pytest.mark.parametrize("n,m", SMALL)
def test_every_number_of_every_small_size(n, m, variant):
    """Every k, both ways: nth(k) is naive's k-th puzzle, rank of it is k, and the list is naive's list."""
    ref = reference(n, m, variant)
    order = numbering.numbering(n, m, variant=variant)
    assert order.total() == len(ref)
    for k, (rows, d) in enumerate(ref, 1):
        x = order.nth(k)
        assert (x.k, x.rows, x.steps, x.of) == (k, rows, d, len(ref))
        assert order.rank(x.number).k == k
    listed = [(x.rows, x.steps) for x in lc.iter_puzzles(n, m, variant=variant)]
    assert listed == ref


@pytest.mark.parametrize("variant", FAMILIES)
@pytest.mark.parametrize("n,m", [(3, 3), (3, 4), (4, 3), (4, 4), (2, 4)])
def test_every_number_within_each_difficulty(n, m, variant):
    ref = reference(n, m, variant)
    order = numbering.numbering(n, m, variant=variant)
    for d in sorted({d for _, d in ref}):
        within = [rows for rows, e in ref if e == d]
        assert order.total((d, d)) == len(within)
        for k, rows in enumerate(within, 1):
            x = order.nth(k, (d, d))
            assert (x.rows, x.steps, x.filter) == (rows, d, (d, d))
            assert order.rank(x.number, (d, d)).k == k
    wide = (2, 4)
    within = [rows for rows, e in ref if wide[0] <= e <= wide[1]]
    assert [x.rows for x in lc.iter_puzzles(n, m, variant=variant, steps="2-4")] == within
    assert [x.rows for x in lc.iter_puzzles(n, m, 3, variant=variant, steps=(2, 4))] == within[2:]


def test_the_first_and_last_puzzles():
    for n, m in [(5, 5), (2, 5), (4, 4)]:
        first, last = lc.nth(n, m, 1), lc.nth(n, m, lc.known(n, m).count)
        assert first.rows == ("0" * m,) * n and first.number == 0
        assert last.rows == ("1" * m,) * n and last.number == (1 << (n * m)) - 1 and last.k == last.of
        assert lc.rank(["1" * m] * n).k == last.of and lc.rank(np.zeros((n, m), int)).k == 1


@pytest.mark.parametrize("n,variant", [(5, "nonogram"), (5, "yesnogram"), (6, "nonogram")])
def test_rank_undoes_nth_on_5x5_and_6x6(n, variant):
    """The shipped indexes (6x6 yesnograms are not shipped: they would be built, in 15 minutes)."""
    rng = random.Random(variant)
    order = numbering.numbering(n, n, variant=variant, build=False)
    for k in [rng.randrange(1, order.total() + 1) for _ in range(4 if n == 5 else 2)]:
        x = order.nth(k)
        assert numbering.rank(list(x.rows), variant=variant).k == k == x.k
        assert lc.Puzzle.from_grid(list(x.rows), variant=variant).difficulty == x.steps
    d = 9 if n == 5 else 12
    k = rng.randrange(1, order.total((d, d)) + 1)
    x = order.nth(k, (d, d))
    assert x.steps == d and order.rank(x.number, (d, d)).k == k


def test_the_shipped_indexes_agree_with_the_recorded_results():
    """Each shipped index: its total is the recorded count, its steps the recorded stats, its provenance two runs."""
    from localcount.results import records

    shipped = sorted(numberings.SHIPPED.glob("*.npz"))
    assert {p.name for p in shipped} >= {"5x5.npz", "5x5-yes.npz", "6x6.npz"}
    for path in shipped:
        idx = numberings.read(path)
        assert idx.solvable == lc.known(idx.n, idx.m, variant=idx.variant).count
        stats = records.read_stats_table(ROOT / "results" / ("yesnogram" if idx.variant == "yesnogram" else ""))
        row = next(r for r in stats if (r.n, r.m) == tuple(sorted((idx.n, idx.m))))
        assert idx.steps() == records.parse_rounds(row.steps)
        assert len({run["code_path"] for run in idx.meta["runs"]}) >= 1 and len(idx.meta["checked"]) >= 3
        assert any("grid engine" in c for c in idx.meta["checked"])


@pytest.mark.parametrize("variant", FAMILIES)
def test_the_shipped_5x5_index_is_what_the_engine_builds(variant, index_dir):
    path = numbering.build_numbering(5, 5, variant=variant)
    assert path.parent == index_dir
    assert (
        numberings.read(path).counts == numberings.read(numberings.SHIPPED / numberings.name(5, 5, variant)).counts
    ).all()


def test_the_grid_engine_check_sees_a_wrong_index():
    idx = numberings.read(numberings.SHIPPED / "5x5.npz")
    assert "grid engine" in numbering.check_first_rows(idx)
    counts = idx.counts.copy()
    counts[3, 0] -= 1
    counts[3, 2] += 1
    with pytest.raises(numbering.NumberingMismatch, match="top row"):
        numbering.check_first_rows(numberings.NumberingFile(5, 5, "nonogram", idx.rows, counts, {}))
    with pytest.raises(numbering.NumberingMismatch, match="steps"):
        numbering.check_steps(idx, {1: 1}, "a test")


# --- the index files ---


def test_an_index_is_built_on_first_use_then_read(index_dir):
    assert numberings.find(3, 4) is None
    assert lc.nth(3, 4, 100).of == naive.count(3, 4)
    path = index_dir / "3x4.npz"
    idx = numberings.read(path)
    assert idx.meta["runs"][0]["code_path"] == "3x4-index-mir" and idx.meta["checked"][0].startswith("count 3116")
    assert numberings.find(3, 4) == path and numbering.numbering(3, 4, build=False).total() == 3116
    with pytest.raises(lc.UsageError, match="no index yet"):
        numbering.numbering(4, 3, build=False)


def test_a_damaged_index_file_is_named_and_never_used(index_dir):
    path = numbering.build_numbering(2, 3)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(numberings.NumberingFileError, match=str(path.name)):
        numbering.numbering(2, 3)
    code, out, err = cli("nth", "2", "3", "1")
    assert code == 1 and "2x3.npz" in err and "remove it" in err and out == ""
    path.unlink()
    assert numbering.numbering(2, 3).total() == 52  # rebuilt


def test_an_index_whose_blocks_do_not_add_up_is_refused(index_dir):
    idx = numberings.read(numbering.build_numbering(3, 3))
    counts = idx.counts.copy()
    counts[0, 1] += 1
    numberings.write(index_dir / "3x3.npz", numberings.NumberingFile(3, 3, "nonogram", 0, counts, idx.meta))
    with pytest.raises(numberings.NumberingFileError, match="do not add up"):
        numbering.numbering(3, 3)


def test_a_checkpointed_build_resumes_and_an_index_that_disagrees_is_not_kept(tmp_path, monkeypatch):
    ck = tmp_path / "build-ck"
    first = numbering.build_numbering(4, 4, checkpoint_dir=ck, directory=tmp_path / "a")
    again = numbering.build_numbering(4, 4, checkpoint_dir=ck, directory=tmp_path / "b")
    assert (
        numberings.read(first).meta["runs"][0]["computed"] == 1
        and numberings.read(again).meta["runs"][0]["computed"] == 0
    )
    assert (numberings.read(first).counts == numberings.read(again).counts).all()
    from localcount.results import records

    real = records.known

    def wrong(n, m, variant="nonogram"):
        row = real(n, m, variant)
        return row.__class__(**{**row.__dict__, "count": row.count + 1})

    monkeypatch.setattr(records, "known", wrong)
    with pytest.raises(numbering.NumberingMismatch, match="not kept"):
        numbering.build_numbering(2, 2, directory=tmp_path / "c")
    assert not (tmp_path / "c" / "2x2.npz").exists()


# --- bounds and bad input ---


@pytest.mark.parametrize("call,match", [
    (lambda: lc.nth(3, 3, 0), "between 1 and 384"),
    (lambda: lc.nth(3, 3, 385), "between 1 and 384"),
    (lambda: lc.nth(3, 3, 1, steps=9), "no 3x3 puzzles of 9 steps"),
    (lambda: lc.nth(3, 3, 1.5), "integer"),
    (lambda: lc.nth(3, 3, 1, steps="x"), "steps"),
    (lambda: lc.nth(3, 3, 1, steps="3-2"), "steps"),
    (lambda: lc.nth(3, 3, 1, steps=0), "steps"),
    (lambda: lc.nth(7, 7, 1), "2\\^42"),
    (lambda: lc.nth(1, 14, 1), "lines of at most"),
    (lambda: lc.nth(3, 3, 1, variant="maybe"), "variant"),
    (lambda: lc.iter_puzzles(3, 3, 0), "start"),
    (lambda: lc.iter_puzzles(3, 3, 385), "between 1 and 384"),
    (lambda: lc.rank("10/1"), "row 2"),
])  # fmt: skip
def test_bad_calls_are_one_line_usage_errors(call, match):
    with pytest.raises(ValueError, match=match) as err:
        call()
    assert "\n" not in str(err.value)


def test_a_grid_local_logic_does_not_solve_has_no_number():
    with pytest.raises(lc.NotNumbered, match="does not solve"):
        lc.rank("0110/1001/1001/0110")  # two solutions: stuck
    with pytest.raises(lc.NotNumbered, match="in 1 step, not 2 steps"):
        lc.rank("0000/0000/0000/0000", steps=2)  # 1 step


# --- the commands ---


def test_nth_prints_txt_with_its_number_then_json_then_any_format():
    code, out, _ = cli("nth", "5", "5", "1234")
    assert (
        code == 0
        and "// title: 5x5 puzzle #1234 of 24976511 (4 steps)" in out
        and "catalogue: localcount 5x5 #1234" in out
    )
    assert lc.Puzzle.parse(out).rows == lc.Puzzle.from_grid(list(lc.nth(5, 5, 1234).rows)).rows
    code, out, _ = cli("nth", "5", "5", "1234", "--json")
    assert json.loads(out) == {"k": 1234, "of": 24976511, "n": 5, "m": 5, "variant": "nonogram",
                               "grid": ["00000", "00000", "00001", "11000", "10011"], "steps": 4, "number": 1811}  # fmt: skip
    code, out, _ = cli("nth", "5", "5", "5", "--steps", "7", "--format", "non")
    assert code == 0 and 'title "5x5 puzzle #5 of 633400 with 7 steps"' in out
    code, out, _ = cli("nth", "4", "4", "3", "--variant", "yesnogram", "--json")
    assert json.loads(out)["grid"] == list(reference(4, 4, "yesnogram")[2][0])


def test_rank_prints_the_number_or_says_there_is_none(tmp_path):
    assert cli("rank", "--grid", "00000/00000/00001/11000/10011") == (0, "1234\n", "")
    path = tmp_path / "p.txt"
    path.write_text(lc.nth(4, 4, 777).puzzle.to_string().split("\n", 2)[2])  # clues only: no goal, no title
    code, out, _ = cli("rank", str(path))
    assert code == 0 and out == "777\n"
    code, out, _ = cli("rank", str(path), "--json", "--steps", str(lc.nth(4, 4, 777).steps))
    assert json.loads(out)["number"] == lc.nth(4, 4, 777).number
    code, out, err = cli("rank", "--grid", "0110/1001/1001/0110")
    assert code == 1 and out == "" and err.count("\n") == 1 and "does not solve" in err


def test_list_streams_in_order():
    code, out, _ = cli("list", "3", "3", "--from", "380")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5 and lines[-1] == "384\t111/111/111\t1"
    assert [line.split("\t")[1] for line in lines] == ["/".join(rows) for rows, _ in reference(3, 3, "nonogram")[379:]]
    code, out, _ = cli("list", "4", "4", "--steps", "5-6", "--count", "3", "--json")
    got = [json.loads(line) for line in out.splitlines()]
    assert [g["grid"] for g in got] == [list(rows) for rows, d in reference(4, 4, "nonogram") if 5 <= d <= 6][:3]
    code, out, _ = cli("list", "2", "2", "--count", "2", "--format", "txt")
    assert code == 0 and out.count("// title: 2x2 puzzle #") == 2
    assert cli("list", "2", "2", "--count", "0") == (0, "", "")


@pytest.mark.parametrize("argv,match", [
    (("nth", "5", "5", "0"), "between 1 and 24976511"),
    (("nth", "5", "5", "24976512"), "between 1 and 24976511"),
    (("nth", "5", "5"), "required"),
    (("nth", "5", "x", "1"), "m must be a whole number"),
    (("nth", "7", "7", "1"), "2^42"),
    (("nth", "5", "5", "1", "--steps", "0"), "steps"),
    (("nth", "5", "5", "1", "--format", "gif"), "invalid choice"),
    (("rank",), "no grid given"),
    (("rank", "x.txt", "--grid", "01"), "not both"),
    (("rank", "--grid", "012"), "not a 0/1 cell"),
    (("rank", "missing-file.non"), "missing-file.non"),
    (("list", "3", "3", "--count", "-1"), "--count"),
    (("list", "3", "3", "--from", "0"), "between 1 and 384"),
    (("index", "8", "8"), "2^42"),
    (("index", "3", "3", "--symmetry", "square"), "invalid choice"),
])  # fmt: skip
def test_bad_command_lines_are_one_line_exit_2(argv, match):
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and match in err


def test_the_index_command_builds_into_a_directory(tmp_path):
    code, out, _ = cli("index", "3", "4", "--output", str(tmp_path / "o"), "--symmetry", "none", "-q")
    assert code == 0 and out == f"{tmp_path / 'o' / '3x4.npz'}\n"
    assert numberings.read(tmp_path / "o" / "3x4.npz").meta["runs"][0]["code_path"] == "3x4-index-all"
