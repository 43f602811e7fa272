"""The count of uniquely solvable thin grids (``engines.thin.unique``) against brute force, this
project's own tables and OEIS A383345."""

import ast
import collections
import csv
import itertools
import pathlib

import numpy as np
import pytest

from localcount.clues import grid_clues, line_clue, row_clue
from localcount.engines.thin import unique as thin_unique
from localcount.engines.thin.unique import unique_2xm, unique_thin

ROOT = pathlib.Path(__file__).resolve().parent.parent

# OEIS A383345, "Number of uniquely solveable n X 2 nonograms (hanjie)", a(0)..a(22), as published
# (https://oeis.org/A383345, B. Felgenhauer, 2025).  Its comments note that it also counts the
# n X 2 yesnograms.  These are published values, not this project's output.
A383345 = [
    1,
    4,
    14,
    52,
    210,
    816,
    3206,
    12536,
    48962,
    191226,
    746456,
    2913544,
    11371040,
    44376798,
    173181564,
    675834086,
    2637392942,
    10292179494,
    40164144690,
    156736057740,
    611644171812,
    2386868430698,
    9314465669046,
]


def brute_plain(n: int, m: int, variant: str) -> int:
    """Every grid, grouped by its clues (``clues.grid_clues``): the classes of one grid."""
    classes = collections.Counter(grid_clues(g, n, m, variant) for g in range(1 << (n * m)))
    return sum(1 for size in classes.values() if size == 1)


def brute(n: int, m: int, variant: str) -> int:
    """The same as ``brute_plain``, vectorised: every grid's clues as numbers, then the classes of one.

    Each line's clue comes from a table of ``row_clue`` / ``line_clue`` over all lines of its length,
    numbered; a grid's key is those numbers in mixed radix (row clues, then column clues).
    """
    grids = np.arange(1 << (n * m), dtype=np.int64)
    row_ids: dict = {}
    row_table = np.array([row_ids.setdefault(row_clue(p, m, variant), len(row_ids)) for p in range(1 << m)])
    col_ids: dict = {}
    col_table = np.array([col_ids.setdefault(line_clue(q, n), len(col_ids)) for q in range(1 << n)])
    assert len(row_ids) ** n * len(col_ids) ** m < 2**62
    key = np.zeros_like(grids)
    for r in range(n):
        key = key * len(row_ids) + row_table[(grids >> (r * m)) & ((1 << m) - 1)]
    for c in range(m):
        col = np.zeros_like(grids)
        for r in range(n):
            col |= ((grids >> (r * m + c)) & 1) << r
        key = key * len(col_ids) + col_table[col]
    _, counts = np.unique(key, return_counts=True)
    return int(np.count_nonzero(counts == 1))


@pytest.mark.parametrize("variant", ["nonogram", "yesnogram"])
@pytest.mark.parametrize("n,m", [(1, 5), (5, 1), (2, 2), (2, 5), (5, 2), (2, 6), (6, 2), (3, 3), (3, 4)])
def test_the_vectorised_brute_force_is_the_plain_one(n, m, variant):
    assert brute(n, m, variant) == brute_plain(n, m, variant)


@pytest.mark.parametrize("variant", ["nonogram", "yesnogram"])
def test_2xm_and_mx2_equal_brute_force(variant):
    for m in range(1, 11):
        assert unique_thin(2, m, variant) == brute(2, m, variant), (2, m)
        assert unique_thin(m, 2, variant) == brute(m, 2, variant), (m, 2)
        assert unique_2xm(m, variant) == unique_thin(2, m, variant)


@pytest.mark.parametrize("variant", ["nonogram", "yesnogram"])
def test_one_row_one_column_and_empty_grids(variant):
    for m in range(1, 13):
        assert unique_thin(1, m, variant) == brute(1, m, variant) == 2**m
        assert unique_thin(m, 1, variant) == brute(m, 1, variant) == 2**m
    assert unique_thin(0, 5, variant) == unique_thin(4, 0, variant) == unique_2xm(0, variant) == 1


def table_rows(path: pathlib.Path) -> list:
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f) if min(int(row["n"]), int(row["m"])) in (1, 2)]


@pytest.mark.parametrize(
    "variant,path", [("nonogram", "results/stats.csv"), ("yesnogram", "results/yesnogram/stats.csv")]
)
def test_matches_this_projects_tables(variant, path):
    rows = table_rows(ROOT / path)
    assert {(int(r["n"]), int(r["m"])) for r in rows} >= {(2, m) for m in range(2, 14)}
    for row in rows:
        n, m = int(row["n"]), int(row["m"])
        assert unique_thin(n, m, variant) == int(row["unique"]), (n, m)
        assert unique_thin(m, n, variant) == int(row["unique"]), (m, n)


def test_matches_oeis_a383345():
    assert [unique_2xm(n) for n in range(len(A383345))] == A383345


def test_other_shapes_and_bad_arguments_are_refused():
    for n, m in [(3, 3), (3, 7), (10, 4)]:
        with pytest.raises(ValueError):
            unique_thin(n, m)
    with pytest.raises(ValueError):
        unique_thin(2, 4, "kakuro")
    with pytest.raises(ValueError):
        unique_2xm(5, "colour")
    with pytest.raises(ValueError):
        unique_2xm(-1)


def from_kinds(kinds: str) -> int:
    """A 2×m grid from its columns: E(mpty), F(ull), T(op only), B(ottom only)."""
    m = len(kinds)
    return sum((k in "FT") << c | (k in "FB") << (m + c) for c, k in enumerate(kinds))


def twins(kinds: str) -> set:
    """The other 2×m grids with the clues of this one: the same columns but for the one-cell ones."""
    m, g = len(kinds), from_kinds(kinds)
    ones = [c for c, k in enumerate(kinds) if k in "TB"]
    out = set()
    for tops in itertools.product("TB", repeat=len(ones)):
        other = list(kinds)
        for c, k in zip(ones, tops):
            other[c] = k
        h = from_kinds("".join(other))
        if h != g and grid_clues(h, 2, m) == grid_clues(g, 2, m):
            out.add("".join(other))
    return out


def test_a_twin_can_be_far_out_of_step():
    # Why the walk keeps whole lists of pending runs: these grids' only twins are their reversal
    # and their row swap, which run three runs ahead of them in one row.
    assert twins("TETTTEBTBEB") == {"BEBTBETTTET"}
    assert twins("TTETEFBEBEB") == {"BBEBEFTETET"}
    assert twins("ETTB") == {"EBTT"} and twins("TBT") == set()


def test_the_module_imports_only_its_layer():
    tree = ast.parse(pathlib.Path(thin_unique.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    project = {name for name in imported if name.startswith("localcount")}
    assert project <= {"localcount.clues", "localcount.lines", "localcount.util"}
    assert "numba" not in imported


# --- through the API and the command line -------------------------------------------------------------------


def test_the_api_takes_the_walk_where_the_enumeration_ends():
    import localcount as lc

    assert lc.unique(2, 6) == lc.unique(2, 6, method="thin") == lc.stats(2, 6).unique  # both methods
    with pytest.raises(lc.UsageError, match="at most 2 cells"):
        lc.unique(3, 20, method="thin")
    with pytest.raises(lc.UsageError, match="method must be"):
        lc.unique(2, 3, method="guess")


def test_the_api_walks_past_the_enumeration():  # long: 2x20 by the walk
    import localcount as lc

    assert lc.unique(2, 20) == unique_2xm(20) == lc.unique(20, 2, variant="yesnogram")


def test_stats_of_a_long_thin_size_prints_the_unique_count_alone():
    import json

    from incli import cli

    status, out, err = cli("stats", "2", "20")
    assert status == 0 and f" {unique_2xm(20)} " in out and "only these" in out and "thin" in err
    status, out, _ = cli("stats", "20", "2", "--json", "--variant", "yesnogram", "--quiet")
    assert status == 0 and json.loads(out) == {"variant": "yesnogram", "n": 20, "m": 2, "grids": 1 << 40,
                                               "unique": unique_2xm(20), "method": "thin"}  # fmt: skip


@pytest.mark.parametrize("args,says", [
    (("stats", "3", "20", "--method", "thin"), "at most 2 cells, not 3x20"),
    (("stats", "14", "2", "--method", "enumeration"), "the largest with a side of 2 is 2x13; a side of 1 or 2"),
    (("stats", "3", "14"), "the largest with a side of 3 is 3x13"),
    (("stats", "7"), "the largest square within reach is 6x6"),
])  # fmt: skip
def test_sizes_past_a_methods_reach_are_one_line_naming_what_it_does(args, says):
    from incli import cli

    status, out, err = cli(*args)
    assert status == 2 and out == "" and says in err and err.count("\n") == 1


def test_the_committed_b_file_is_the_walks_and_the_published_terms():
    path = pathlib.Path(__file__).resolve().parent.parent / "results" / "b-unique-2xm.txt"
    terms = [tuple(map(int, line.split())) for line in path.read_text().splitlines() if not line.startswith("#")]
    assert [m for m, _ in terms] == list(range(len(terms))) and len(terms) > len(A383345)
    assert [v for _, v in terms[: len(A383345)]] == A383345
    assert all(v == unique_2xm(m) for m, v in terms[:17])  # recomputed where it takes well under a second
