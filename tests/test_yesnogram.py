"""Yesnograms (rows count runs of 0s, columns runs of 1s): every engine against the naive reference.

The uniquely solvable counts are OEIS A385862 (Felgenhauer); no published value is typed here: every
number is computed, by the engines and by the reference, and compared (docs/results.md, "Yesnograms").
"""

import functools

import naive
import numpy as np
import pytest

from localcount.clues import VARIANTS, grid_clues, line_clue, row_clue, rows_count_zeros
from localcount.engines.base import variant_of_key
from localcount.engines.grid.count import count, solve_grids
from localcount.engines.grid.layout import GridLayout
from localcount.engines.registry import parse_key
from localcount.engines.stats import compute as S
from localcount.engines.stats.layout import StatsLayout
from localcount.engines.tiny.layout import TinyLayout
from localcount.lines.tables import line_table, row_table
from localcount.results import records as results

YES = "yesnogram"
#: Every size with at most 16 cells (both orientations), the issue's bar for comparing with the reference.
SIZES = [(n, m) for n in range(1, 17) for m in range(1, 17) if n * m <= 16]


@functools.cache
def reference(n, m) -> dict:
    return naive.stats(n, m, YES)


def test_row_clues_count_runs_of_zeros():
    assert row_clue(0b0110, 4, YES) == (1, 1) and row_clue(0b0110, 4) == (2,) == line_clue(0b0110, 4)
    assert row_clue(0b1111, 4, YES) == () and row_clue(0, 3, YES) == (3,)
    # the 3x4 example of A385862: rows 0111 / 0101 / 1100 (left cell first) have clues 1 / 1 1 / 2, columns 1 3 1 2
    grid = 0b0011_1010_1110
    assert grid_clues(grid, 3, 4, YES) == (((1,), (1, 1), (2,)), ((1,), (3,), (1,), (2,)))
    assert naive.solve_grid(grid, 3, 4, YES)[0] == "solved"


@pytest.mark.parametrize("length", range(0, 7))
def test_the_yesnogram_row_table_is_the_table_of_the_complemented_row(length):
    full = (1 << length) - 1
    table, rows = line_table(length), row_table(length, YES)
    for p in range(1 << length):
        for k in range(1 << length):
            assert rows[p << length | k] == table[(full ^ p) << length | k]
    assert row_table(length) is table


def complement_transpose(grid: int, n: int, m: int) -> int:
    """The m×n grid whose row j is column j of the n×m grid, complemented (bit r*m + c is cell (r, c))."""
    out = 0
    for r in range(n):
        for c in range(m):
            if not grid >> (r * m + c) & 1:
                out |= 1 << (c * n + r)
    return out


@pytest.mark.parametrize("n,m", [(2, 3), (3, 3), (3, 4), (2, 5)])
def test_the_reference_agrees_with_itself_on_complement_transposes(n, m):
    """Grid by grid: the complement-transpose has the clues swapped and the same verdict, so the
    reference's measures of n×m and m×n are equal (A(n, m) = A(m, n) computed, not looked up)."""
    for g in range(1 << (n * m)):
        t = complement_transpose(g, n, m)
        rows, cols = naive.clues_of(g, n, m, YES)
        assert naive.clues_of(t, m, n, YES) == (cols, rows)
        assert (naive.solve_grid(g, n, m, YES)[0] == "solved") == (naive.solve_grid(t, m, n, YES)[0] == "solved")
    a, b = reference(n, m), reference(m, n)
    assert (a["solvable"], a["unique"], a["stuck_start"]) == (b["solvable"], b["unique"], b["stuck_start"])


@pytest.mark.parametrize("n,m", SIZES)
def test_every_counter_equals_the_reference(n, m):
    """The general kernel, the tiny counter and the stats enumeration, with and without the flips."""
    want = reference(n, m)
    for group in ("none", "flips"):
        if m > 13:  # the general kernel needs a table for a yesnogram's rows
            with pytest.raises(ValueError, match=f"count {m}x{n} instead"):
                count(n, m, symmetry=group, variant=YES)
        else:
            assert count(n, m, symmetry=group, variant=YES) == want["solvable"], (n, m, group)
        if TinyLayout.takes(n, m):
            assert TinyLayout.make(n, m, 0, group, YES).compute(0) == want["solvable"], (n, m, group)
        if max(n, m) <= 13:
            for path in ("rows", "transposed"):
                assert naive.shaped(S.stats(n, m, path=path, symmetry=group, variant=YES)) == want, (n, m, path, group)


def test_single_grids_reach_the_reference_knowledge():
    n, m = 3, 4
    grids = list(range(1 << (n * m)))
    status, known = solve_grids(grids, n, m, variant=YES)
    for g in grids[::7]:
        verdict, mask = naive.solve_grid(g, n, m, YES)
        assert (status[g] == 1) == (verdict == "solved") and int(known[g]) == mask


@pytest.mark.parametrize("n,m", [(2, 5), (3, 5), (4, 5), (3, 7)])
def test_complement_transposition_counts_the_same(n, m):
    assert count(n, m, variant=YES) == count(m, n, variant=YES)
    assert S.stats(n, m, variant=YES).unique == S.stats(m, n, variant=YES).unique


def test_uniqueness_to_20_cells_from_both_stats_paths():
    """Beyond the reference's reach: the two stats paths, n×m rows first and m×n columns first."""
    for n, m in [(2, 7), (2, 8), (3, 6), (4, 5)]:
        rows = S.stats(n, m, path="rows", variant=YES)
        assert rows.unique == S.stats(n, m, path="transposed", variant=YES).unique == S.stats(m, n, variant=YES).unique
        assert rows.solvable == count(n, m, variant=YES) and rows.solvable < rows.unique < rows.grids


def test_keys_name_the_variant_and_nonogram_keys_stay():
    layouts = [
        GridLayout.make(5, 6, variant=YES),
        GridLayout.make(4, 4, symmetry="none", variant=YES),
        TinyLayout.make(3, 4, 2, "flips", YES),
        StatsLayout.make(4, 5, variant=YES),
        StatsLayout.make(4, 5, path="transposed", symmetry="none", variant=YES),
    ]
    for lay in layouts:
        assert lay.key.endswith("-yes") and lay.code_path.endswith("-yes") and parse_key(lay.key) == lay
    assert GridLayout.make(5, 6).key == "5x6-v1-s8-sym" and parse_key("5x6-v1-s8-sym").variant == "nonogram"
    assert GridLayout.make(5, 6, variant=YES).key == "5x6-v1-s8-sym-yes"
    assert StatsLayout.make(4, 5).key == "4x5-stats3-d2-rows-sym"
    assert TinyLayout.make(3, 4).key == "3x4-tiny1-s0-sym"
    for lay in layouts + [GridLayout.make(5, 6), StatsLayout.make(4, 5), TinyLayout.make(3, 4)]:
        assert variant_of_key(lay.key) == variant_of_key(lay.code_path) == lay.variant == results.variant_of(lay.key)
        assert lay.variant_option == ("" if lay.variant == "nonogram" else " --variant yesnogram")


def test_which_variants_read_rows_complemented():
    assert [v for v in VARIANTS if rows_count_zeros(v)] == [YES]
    with pytest.raises(ValueError, match="variant must be one of nonogram, yesnogram"):
        rows_count_zeros("nonogramm")


def test_the_square_group_and_long_rows_are_refused():
    with pytest.raises(ValueError, match="flips or none"):
        GridLayout.make(4, 4, symmetry="square", variant=YES)
    assert GridLayout.make(4, 4, variant=YES).symmetry == "flips"  # auto: the flips, not the square's group
    with pytest.raises(ValueError, match="count 20x1"):
        GridLayout.make(1, 20, variant=YES)
    with pytest.raises(ValueError, match="variant"):
        GridLayout.make(3, 3, variant="maybenogram")


def test_flips_weights_match_every_grid_on_a_non_square_size():
    """The flips group proved for yesnograms (engines.grid.layout): weighted orbits equal every grid."""
    for n, m in [(3, 5), (4, 5), (2, 9)]:
        assert count(n, m, symmetry="flips", variant=YES) == count(n, m, symmetry="none", variant=YES)
    counts = np.array([TinyLayout.make(4, 4, 4, g, YES).compute(s) for g in ("flips",) for s in range(16)])
    assert counts.sum() == TinyLayout.make(4, 4, 0, "none", YES).compute(0)
