"""The public Python API (``localcount.api``, re-exported by ``localcount``): every name against the naive
reference, the recorded values or the command line it shares its work with."""

import json
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from incli import cli
from naive import clues_of, solve_grid
from naive import stats as naive_stats

import localcount as lc

ROOT = pathlib.Path(__file__).resolve().parent.parent


# --- the package ---


def test_every_public_name_is_exported_and_documented():
    assert set(lc.__all__) >= {"count", "stats", "known", "Puzzle", "Solution", "generate", "design", "__version__"}
    for name in lc.__all__:
        obj = getattr(lc, name)
        if callable(obj) and name != "__version__":
            assert obj.__doc__, name
    assert (ROOT / "localcount" / "py.typed").exists()


FRESH = """
import sys, time
start = time.perf_counter()
import localcount as lc
assert 'numba' not in sys.modules and 'numpy' not in sys.modules, 'import localcount loaded numba or numpy'
print(lc.count(2, 5), lc.count(0), lc.count(1, 7), 'numba' in sys.modules, f"{time.perf_counter() - start:.3f}")
"""


def test_import_loads_no_numba_and_a_tiny_count_compiles_nothing(tmp_path):
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=str(tmp_path / "nc"),
        LOCALCOUNT_KERNEL_DIR=str(tmp_path / "kd"),
        PYTHONPATH=str(ROOT),
    )
    out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    two_five, empty, one_seven, numba_loaded, _seconds = out.stdout.split()
    assert (two_five, empty, one_seven, numba_loaded) == ("810", "1", "128", "False")
    assert out.stderr == ""  # the library says nothing unless asked
    assert not (tmp_path / "nc").exists()  # nothing compiled, nothing cached


# --- counting ---


@pytest.mark.parametrize("n, m", [(0, 0), (1, 4), (2, 3), (3, 3), (3, 4), (2, 6)])
def test_count_equals_the_naive_reference(n, m):
    from naive import count as naive_count

    assert lc.count(n, m) == naive_count(n, m)
    assert lc.count(n, m, variant="yesnogram") == naive_count(n, m, "yesnogram")


def test_count_of_one_number_is_the_square_and_the_known_values_hold():
    assert [lc.count(k) for k in range(5)] == [1, 2, 14, 384, 51234]
    assert lc.count(2, 5) == 810


def test_a_checkpointed_count_uses_the_command_lines_keys_and_files(tmp_path):
    run = lc.run_count(3, 5, checkpoint_dir=tmp_path, jobs=1)
    assert run.total == 24052 and run.checkpoint and run.computed == run.shards > 0
    assert sorted(p.name for p in tmp_path.glob("*.log")) == ["3x5-v1-s8-sym.log"]
    status, out, err = cli("3", "5", "--checkpoint-dir", str(tmp_path), "-j", "1")
    assert (status, out) == (0, "24052\n")
    assert f"{run.shards} of {run.shards} shards from the checkpoint" in err  # nothing counted twice


def test_count_says_nothing_unless_asked(capsys):
    assert lc.count(4, 5) == 801832
    assert capsys.readouterr() == ("", "")


# --- stats and known ---


def test_stats_equal_the_naive_reference():
    for n, m in [(2, 2), (2, 3), (3, 3)]:
        s, want = lc.stats(n, m), naive_stats(n, m)
        assert (s.grids, s.solvable, s.unique, s.stuck) == (
            want["grids"],
            want["solvable"],
            want["unique"],
            want["stuck_start"],
        )
        assert s.steps == want["steps"] and s.rounds == want["rounds"]
        assert s.max_steps == max(want["steps"]) and s.mean_steps == pytest.approx(
            sum(k * v for k, v in want["steps"].items()) / want["solvable"]
        )
    with pytest.raises(AttributeError):
        s.grids = 0  # frozen


def test_stats_is_what_the_command_line_prints():
    status, out, _ = cli("stats", "4", "--json", "-q")
    s, printed = lc.stats(4), json.loads(out)
    assert status == 0
    assert (s.solvable, s.unique, s.stuck, s.max_steps) == (
        printed["solvable"],
        printed["unique"],
        printed["stuck_start"],
        printed["max_steps"],
    )
    assert s.steps == {int(k): v for k, v in printed["steps"].items()}


def test_known_is_the_results_table_with_its_provenance():
    from localcount.results import records

    for variant in ("nonogram", "yesnogram"):
        rows = records.read_table(records.variant_dir(ROOT / "results", variant))
        assert len(rows) > 20
        for row in rows:
            k = lc.known(row.n, row.m, variant=variant)
            assert (k.count, k.commit, k.date) == (row.count, row.commit, row.date)
            assert len(k.runs) >= 2 and k.runs == tuple(row.layouts.split(";"))
            assert lc.known(row.m, row.n, variant=variant).count == row.count  # either orientation
    assert lc.known(8, 8) is None


def test_the_shipped_table_is_the_projects():
    from localcount.results import records

    for variant in ("nonogram", "yesnogram"):
        for name in (records.TABLE, records.STATS_TABLE):
            shipped = records.variant_dir(records.SHIPPED, variant) / name
            results = records.variant_dir(ROOT / "results", variant) / name
            assert shipped.read_bytes() == results.read_bytes(), (
                f"{shipped} is stale: run python -m localcount table --render"
            )


def test_known_carries_the_recorded_stats():
    from localcount.results import records

    for variant in ("nonogram", "yesnogram"):
        directory = records.variant_dir(ROOT / "results", variant)
        stat_rows = {(r.n, r.m): r for r in records.read_stats_table(directory)}
        assert len(stat_rows) > 20
        for row in records.read_table(directory):
            k, t = lc.known(row.n, row.m, variant=variant), lc.known(row.m, row.n, variant=variant)
            r = stat_rows.get((row.n, row.m))
            if r is None:
                assert k.stats is None and t.stats is None, f"{row.n}x{row.m}"
                continue
            s = k.stats
            assert isinstance(s, lc.Stats) and t.stats == s  # the recorded orientation, n <= m, either way asked
            assert (s.n, s.m, s.variant, s.grids, s.solvable, s.unique, s.stuck) == (
                r.n, r.m, variant, r.grids, r.solvable, r.unique, r.stuck_start
            )  # fmt: skip
            assert s.solvable == row.count and s.rounds == records.parse_rounds(r.rounds)
            assert s.steps == records.parse_rounds(r.steps) and s.max_steps == int(r.max_steps)
            assert f"{s.mean_steps:.6f}" == r.mean_steps and f"{s.mean_rounds:.6f}" == r.mean_rounds
    assert lc.known(5).stats.unique == 25309575
    assert lc.known(2, 20).count and lc.known(2, 20).stats is None  # counted, stats not recorded
    for n, m in [(2, 3), (3, 3), (3, 4)]:
        for variant in ("nonogram", "yesnogram"):
            assert lc.known(n, m, variant=variant).stats == lc.stats(n, m, variant=variant)  # the same measures
    with pytest.raises(AttributeError):
        lc.known(4).stats.unique = 0  # frozen


KNOWN_FRESH = """
import sys
import localcount as lc
k = lc.known(5)
y = lc.known(4, 6, variant="yesnogram")
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("numba", "numpy", "llvmlite") or ".engines.stats" in m)
print(k.stats.unique, y.stats.unique, heavy)
"""


def test_known_loads_no_numba_nor_numpy():
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", KNOWN_FRESH], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    unique, yes_unique, heavy = out.stdout.split(maxsplit=2)
    assert (unique, heavy.strip()) == ("25309575", "[]")
    assert int(yes_unique) == lc.known(4, 6, variant="yesnogram").stats.unique > 0


# --- puzzles ---


def every_grid(n, m):
    for g in range(1 << (n * m)):
        yield g, [[g >> (r * m + c) & 1 for c in range(m)] for r in range(n)]


def test_solve_and_difficulty_agree_with_brute_force_on_every_3x3_grid():
    from naive import steps_to_solve

    by_clues: dict = {}
    for g, _ in every_grid(3, 3):
        by_clues.setdefault(clues_of(g, 3, 3), []).append(g)
    for (rows, cols), grids in by_clues.items():
        p = lc.Puzzle(rows=rows, columns=cols)
        r = p.solve(limit=10)
        assert r.verdict == ("unique" if len(grids) == 1 else "multiple")
        assert sorted(lc.Puzzle.from_grid(a.astype(int)).model.goal for a in r.solutions) == sorted(grids)
        simple = solve_grid(grids[0], 3, 3)[0] == "solved"
        assert (r.level == "line") == simple and p.difficulty == (steps_to_solve(rows, cols) if simple else None)
        assert r.steps == p.difficulty


def test_the_r_package_example_and_a_puzzle_with_no_solution():
    p = lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]])
    r = p.solve()
    assert (r.verdict, r.level, r.steps, r.rounds, r.nodes) == ("unique", "line", 2, 1, 0)
    assert r.solutions[0].dtype == bool and r.solutions[0].astype(int).tolist() == [[1, 0, 1], [0, 1, 0], [1, 1, 1]]
    none = lc.Puzzle(rows=[[2], []], columns=[[], [2]]).solve()
    assert (none.verdict, none.solutions, none.level) == ("none", (), "line")
    many = lc.Puzzle(rows=[[1], [1]], columns=[[1], [1]]).solve()
    assert (many.verdict, many.level, len(many.solutions)) == ("multiple", "branching", 2)


def test_solve_is_what_solve_json_prints(tmp_path):
    for name in ("stuck12", "cat"):
        status, out, _ = cli("solve", name, "--json")
        printed, r = json.loads(out), lc.Puzzle.read(name).solve()
        assert status == 0 and (printed["verdict"], printed["level"]) == (r.verdict, r.level)
        assert printed["solutions"] == [["".join("1" if v else "0" for v in row) for row in a] for a in r.solutions]


def test_limits_leave_a_puzzle_undecided_or_stop_at_enough_solutions():
    p = lc.Puzzle.from_grid(np.eye(6, dtype=int))  # every 6x6 permutation matrix has these clues
    for method in ("plain", "search"):
        r = p.solve(method=method, max_nodes=1)
        assert (r.verdict, r.complete, r.solutions, r.level, r.method) == ("undecided", False, (), None, method)
    r = p.solve(limit=2)
    assert (r.verdict, r.complete, len(r.solutions)) == ("multiple", False, 2)
    r = p.solve(limit=1000)
    assert (r.verdict, r.complete, r.level, len(r.solutions)) == ("multiple", True, "branching", 720)
    assert {tuple(np.argmax(a, axis=1)) for a in r.solutions} == set(__import__("itertools").permutations(range(6)))


def test_explain_records_every_step_and_the_cells_left_unknown():
    n, m = 3, 3
    for g, rows in every_grid(n, m):
        e = lc.Puzzle.from_grid(rows).explain()
        status, known = solve_grid(g, n, m)
        assert e.status == status
        decided = {cell for step in e for cell in step.filled + step.empty}
        assert len(decided) == sum(len(s.filled) + len(s.empty) for s in e)  # each cell decided once
        assert decided == {divmod(k, m) for k in range(n * m) if known >> k & 1}
        assert set(e.unknown) == {divmod(k, m) for k in range(n * m) if not known >> k & 1}
        for step in e:
            assert all(rows[r][c] == 1 for r, c in step.filled) and all(rows[r][c] == 0 for r, c in step.empty)


def test_explain_is_what_the_explain_command_prints():
    status, out, _ = cli("explain", "--grid", "1010/0100/1010/0011")
    e = lc.Puzzle.from_grid("1010/0100/1010/0011").explain()
    printed = [line.split(":")[1].strip() for line in out.splitlines() if line.startswith("step ")]
    assert status == 0 and printed == [s.line for s in e]


@pytest.mark.parametrize(
    "grid",
    [
        [[1, 0, 1], [0, 1, 0], [1, 1, 1]],
        ["101", "010", "111"],
        "101/010/111",
        np.array([[1, 0, 1], [0, 1, 0], [1, 1, 1]], dtype=bool),
    ],
)
def test_from_grid_takes_lists_strings_and_arrays(grid):
    p = lc.Puzzle.from_grid(grid)
    assert p.rows == ((1, 1), (1,), (3,)) and p.columns == ((1, 1), (2,), (1, 1))
    assert p.goal.astype(int).tolist() == [[1, 0, 1], [0, 1, 0], [1, 1, 1]]
    assert p == lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]], goal=grid)


def test_yesnogram_puzzles_solve_with_their_own_clues():
    from naive import count as naive_count

    simple = sum(lc.Puzzle.from_grid(rows, variant="yesnogram").difficulty is not None for _, rows in every_grid(3, 3))
    assert simple == naive_count(3, 3, "yesnogram")
    p = lc.Puzzle.from_grid("110/001", variant="yesnogram")
    assert p.variant == "yesnogram" and p.rows == ((1,), (2,)) and p.to_string().startswith("// variant: yesnogram")
    for _, rows in every_grid(2, 3):
        q = lc.Puzzle.from_grid(rows, variant="yesnogram")
        assert (q.solve().level == "line") == (q.difficulty is not None)


@pytest.mark.parametrize("fmt", lc.FORMATS)
def test_every_format_round_trips_through_text_and_files(fmt, tmp_path):
    p = lc.Puzzle.read("cat")
    text = p.to_string(fmt)
    q = lc.Puzzle.parse(text, fmt)
    assert (q.rows, q.columns) == (p.rows, p.columns)
    if fmt != "nin":  # nin reads as txt's transpose: its content alone does not say which
        assert lc.Puzzle.parse(text).rows == p.rows  # the format told from the content
    status, out, _ = cli("convert", "cat", "--to", fmt)
    assert (status, out) == (0, text)  # the same text as convert
    p.write(tmp_path / f"cat.{fmt}", fmt)
    assert lc.Puzzle.read(tmp_path / f"cat.{fmt}", fmt) == q


def test_write_takes_the_format_from_the_suffix(tmp_path):
    p = lc.Puzzle.read("cat")
    p.write(tmp_path / "cat.xml")
    assert (tmp_path / "cat.xml").read_text().startswith("<?xml")
    assert lc.Puzzle.read(tmp_path / "cat.xml").columns == p.columns


def test_pictures_are_svg_for_jupyter():
    p = lc.Puzzle.read("stuck12")
    blank = ET.fromstring(p._repr_svg_())
    assert blank.tag.endswith("svg") and not blank.findall(".//{*}g[@class='filled']/{*}rect")
    r = p.solve()
    drawn = ET.fromstring(r._repr_svg_())
    filled = drawn.findall(".//{*}g[@class='filled']/{*}rect")
    assert len(filled) == int(r.solutions[0].sum())
    undecided = (p.n * p.m) - bin(r.local.filled | r.local.empty).count("1")
    assert undecided > 0 and len(drawn.findall(".//{*}g[@class='marked']/{*}rect")) == undecided
    simple = lc.Puzzle.read("cat").solve()
    assert not ET.fromstring(simple.to_svg()).findall(".//{*}g[@class='marked']/{*}rect")  # local logic decides all


def test_generate_and_design_make_checked_simple_puzzles():
    p = lc.generate(10, 10, steps=(8, 12), seed=1)
    assert p.n == p.m == 10 and 8 <= p.difficulty <= 12 and p.solve().level == "line"
    assert lc.generate(10, 10, steps=(8, 12), seed=1) == p  # same seed, same puzzle
    status, out, _ = cli("generate", "10", "10", "--steps", "8-12", "--seed", "1")
    assert status == 0 and lc.Puzzle.parse(out, "txt").rows == p.rows
    pytest.importorskip("PIL")
    d = lc.design("heart", (12, 10), seed=1)
    assert (d.n, d.m) == (12, 10) and d.difficulty is not None
    status, out, _ = cli("design", "heart", "--size", "10x12", "--seed", "1")
    assert status == 0 and lc.Puzzle.parse(out, "txt").rows == d.rows


def test_a_colour_puzzle_solves_and_draws():
    p = lc.Puzzle.read(ROOT / "tests" / "puzzles" / "webpbn-color-00047.xml")
    assert p.palette is not None
    r = p.solve()
    assert r.verdict in ("unique", "multiple") and r.solutions[0].shape == (p.n, p.m)
    ET.fromstring(r.to_svg())
    ET.fromstring(p.to_svg())
