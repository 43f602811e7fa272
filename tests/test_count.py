"""The counting kernel against the pure-Python reference, and the known values."""

import functools
import random

import naive
import numpy as np
import pytest

from localcount.engines.grid.count import count, solve_grids
from localcount.engines.grid.kernel import SOLVED

SMALL = [(n, m) for n in range(0, 17) for m in range(0, 17) if n * m <= 16]
#: (symmetry, table options): the fast table path with and without the
#: symmetry reduction, and the table-free path (line DP, loop spreads).
VARIANTS = {
    "tables+symmetry": (True, {}),
    "tables, every grid": (False, {}),
    "line-dp+symmetry": (True, {"table_max": 0, "spread_max": 0}),
}


@functools.cache
def reference(n, m):
    return naive.count(n, m)


@pytest.mark.parametrize("n,m", SMALL)
@pytest.mark.parametrize("variant", VARIANTS)
def test_count_equals_reference(n, m, variant):
    symmetry, opts = VARIANTS[variant]
    assert count(n, m, symmetry=symmetry, **opts) == reference(n, m)


@pytest.mark.slow
@pytest.mark.parametrize("n,m", [(4, 5), (5, 4), (2, 10), (10, 2), (3, 6), (6, 3), (2, 9)])
def test_count_equals_reference_slow(n, m):
    assert count(n, m) == naive.count(n, m)


KNOWN_SQUARES = [1, 2, 14, 384, 51234, 24976511]


@pytest.mark.parametrize("n", range(len(KNOWN_SQUARES)))
def test_known_squares(n):
    assert count(n, n) == KNOWN_SQUARES[n]


def test_known_rectangle():
    assert count(2, 5) == 810
    assert count(5, 2) == 810


def test_degenerate_sizes():
    assert count(0, 7) == count(7, 0) == 1
    assert count(1, 9) == 2**9  # every 1-cell column clue fixes its cell


#: Each size beyond the reference compiles a generated kernel per orientation (seconds each with empty
#: caches): the default suite keeps one, ``-m slow`` the rest.
SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    "n,m", [(4, 5), pytest.param(3, 7, marks=SLOW), pytest.param(2, 11, marks=SLOW), pytest.param(3, 8, marks=SLOW)]
)
def test_transpose_gives_the_same_count(n, m):
    assert count(n, m) == count(m, n)


@pytest.mark.parametrize(
    "n,m",
    [(4, 5), (1, 18), pytest.param(5, 4, marks=SLOW), pytest.param(3, 7, marks=SLOW), pytest.param(2, 10, marks=SLOW)],
)
def test_symmetry_reduction_equals_full_enumeration_beyond_the_reference(n, m):
    assert count(n, m) == count(n, m, symmetry=False, specialized=False)


#: Sizes for the kernels generated per size (each one costs a compilation): single rows and columns,
#: a rectangle each way up, squares (their own group); the rest under ``-m slow``.
SPECIALISED = [(1, 1), (1, 5), (4, 1), (2, 5), (3, 3), (5, 3)] + [
    pytest.param(n, m, marks=SLOW) for n, m in [(2, 2), (3, 5), (4, 4), (2, 8), (1, 12)]
]


@pytest.mark.parametrize("n,m", SPECIALISED)
def test_specialised_kernel_equals_reference(n, m):
    assert count(n, m, specialized=True) == count(n, m, symmetry=False, specialized=True) == reference(n, m)


@pytest.mark.parametrize(
    "n,m", [(4, 5), (5, 5)] + [pytest.param(n, m, marks=SLOW) for n, m in [(3, 7), (2, 10), (4, 6), (6, 4)]]
)
def test_specialised_kernel_equals_plain_kernel(n, m):
    assert count(n, m) == count(n, m, specialized=False)


#: Generated kernels whose columns are longer than the tables allow (the word
#: line solver, with or without a column spread table): (n, m, table_max, spread_max).
SOLVER_COLUMNS = [(5, 2, 3, 16), (5, 2, 3, 4), (4, 3, 3, 16), (6, 1, 4, 4), (3, 2, 2, 2)]


@pytest.mark.parametrize("n,m,table_max,spread_max", SOLVER_COLUMNS)
def test_specialised_kernel_with_solver_columns_equals_reference(n, m, table_max, spread_max):
    from localcount.engines.grid.count import context

    opts = {"table_max": table_max, "spread_max": spread_max}
    assert context(n, m, specialized=True, **opts).columns.startswith("solver")
    want = reference(n, m)
    assert count(n, m, specialized=True, **opts) == count(n, m, symmetry=False, specialized=True, **opts) == want


@pytest.mark.parametrize(
    "n,m,mode", [(14, 2, "solver+spread"), (17, 2, "solver"), (33, 1, "solver"), (15, 3, "solver+spread")]
)
def test_specialised_shards_with_long_columns_equal_plain_shards(n, m, mode):
    """Real tall sizes (columns beyond the tables): a random sample of 4096-grid shards, shard by shard."""
    from localcount.engines.grid.count import context, count_shard, plan

    assert context(n, m).columns == mode
    p = plan(n, m, shard_bits=n * m - 12)
    for shard in random.Random(n * m).sample(range(p.shards), 12):
        for group in ("flips", "none"):
            assert count_shard(p, shard, group, specialized=True) == count_shard(p, shard, group, specialized=False)


def test_generated_source_refuses_an_unknown_column_mode():
    from localcount.engines.grid.specialize import source

    with pytest.raises(ValueError, match="columns must be one of"):
        source(3, 3, "dp")


def test_every_generator_writes_the_one_header_and_digest():
    # util.generated.header's line first, then the digest of the modules the generated code calls.
    from localcount.engines import enumeration
    from localcount.engines.grid import gather, kernel, specialize
    from localcount.engines.numbering import fast
    from localcount.engines.stats import kernel as stats_kernel
    from localcount.engines.stats import specialize as stats
    from localcount.lines import bits, solvers
    from localcount.util.generated import digest

    for src, what, called in [
        (specialize.source(4, 5), "grid.specialize for 4x5", (kernel, bits, solvers, enumeration)),
        (stats.source(4, 5, 9, "columns"), "stats.specialize for 4x5, columns first", (stats_kernel, bits)),
        (fast.source(3, 4), "numbering.fast for 3x4", (bits,)),
    ]:
        lines = src.split("\n")
        assert lines[0] == f'"""Generated by localcount.engines.{what}; do not edit (see that module)."""'
        assert lines[2].startswith(f"# Digest of the modules called here {digest(*called)}: ")
    assert f"# Digest of engines/grid/gather.py: {digest(gather)}." in specialize.source(5, 5, "table", "gather4")


def test_specialised_shards_equal_plain_shards():
    from localcount.engines.grid.count import count_shard, plan

    p = plan(4, 5, shard_bits=7)  # 4x5: the size the quick suite's other generated-kernel tests compile
    for shard in range(p.shards):
        assert count_shard(p, shard, specialized=True) == count_shard(p, shard, specialized=False)


@pytest.mark.slow
def test_five_by_six_both_orientations():
    assert count(5, 6) == count(6, 5)


@pytest.mark.parametrize("path", ["tables", "line-dp"])
def test_random_grids_match_reference_grid_by_grid(path):
    """10,000 random grids up to 8x8: same verdict and same final known mask."""
    opts = {} if path == "tables" else {"table_max": 0, "spread_max": 0}
    rng = random.Random(2024)
    by_size = {}
    for _ in range(10_000):
        n, m = rng.randint(1, 8), rng.randint(1, 8)
        by_size.setdefault((n, m), []).append(rng.getrandbits(n * m))
    checked = stuck = 0
    for (n, m), grids in by_size.items():
        status, known = solve_grids(grids, n, m, **opts)
        for g, st, kn in zip(grids, status, known):
            want_status, want_known = naive.solve_grid(g, n, m)
            assert (st == SOLVED) == (want_status == "solved"), (n, m, g)
            assert int(kn) == want_known, (n, m, g)
            stuck += want_status == "stuck"
            checked += 1
    assert checked == 10_000
    assert stuck > 100  # the sample really exercises stuck grids


def test_solve_grids_on_a_64_cell_grid():
    grid = (1 << 64) - 1  # all filled: solved at once
    status, known = solve_grids([grid], 8, 8)
    assert status[0] == SOLVED and int(known[0]) == grid
    status, known = solve_grids(np.array([0x8000000000000001], np.uint64), 1, 64)
    assert status[0] == SOLVED


@pytest.mark.parametrize("n,m", [(2, 20), (20, 2), (3, 18), (1, 40), (40, 1), (2, 32), (1, 63), (64, 1)])
def test_long_lines_match_the_clue_solver(n, m):
    """Lines beyond the tables (word solver up to 62 cells, the DP beyond) against
    ``logic.propagate``, which runs the DP on every line from the clues alone."""
    from localcount.clues import grid_clues
    from localcount.puzzle.solving.logic import propagate

    rng = random.Random(n * 100 + m)
    grids = [rng.getrandbits(n * m) & rng.getrandbits(n * m) | rng.getrandbits(n * m) for _ in range(60)]
    status, known = solve_grids(grids, n, m)
    for g, st, kn in zip(grids, status, known):
        want = propagate(*grid_clues(g, n, m))
        assert (st == SOLVED) == (want.status == "solved"), (n, m, g)
        assert int(kn) == want.known, (n, m, g)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_square_border_weights_sum_to_the_number_of_borders(n):
    """Orbit-stabilizer: the weights of the representatives add up to all 2^(4n-4) borders."""
    from localcount.engines.grid.kernel import square_weight

    assert sum(square_weight(np.uint64(b), n) for b in range(1 << (4 * n - 4))) == 1 << (4 * n - 4)


@pytest.mark.parametrize("n,m", [(1, 5), (2, 3), (3, 4), (4, 4)])
def test_flip_border_weights_sum_to_the_number_of_borders(n, m):
    from localcount.engines.grid.kernel import border_weight

    bits = m if n == 1 else 2 * m
    assert sum(border_weight(np.uint64(b), n, m) for b in range(1 << bits)) == 1 << bits


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("specialized", [False, True])
def test_every_group_gives_the_known_square_counts(n, specialized):
    counts = {g: count(n, n, symmetry=g, specialized=specialized) for g in ("none", "flips", "square")}
    assert set(counts.values()) == {KNOWN_SQUARES[n]}


def test_square_group_needs_a_square():
    with pytest.raises(ValueError):
        count(3, 4, symmetry="square")


def test_popcount_counts_set_bits():
    from numba import njit

    from localcount.lines.bits import popcount

    count_bits = njit(lambda x: popcount(x))
    rng = random.Random(7)
    values = [0, 1, 2**63, 2**64 - 1, 2**36 - 1] + [rng.getrandbits(64) for _ in range(100)]
    assert [int(count_bits(np.uint64(v))) for v in values] == [bin(v).count("1") for v in values]


@pytest.mark.parametrize("n,m", [(1, 13), (13, 1)])
def test_longest_table_lines_equal_the_line_dp(n, m):
    assert count(n, m) == count(n, m, table_max=12) == 2**13


@pytest.mark.slow
@pytest.mark.parametrize("n,m", [(2, 13), (13, 2)])
def test_longest_table_lines_equal_the_line_dp_slow(n, m):
    assert count(n, m) == count(n, m, table_max=12)


@pytest.mark.parametrize("n,m,table_max", [(2, 6, 3), (3, 5, 4), (2, 8, 5), (1, 14, 13), (4, 5, 4)])
def test_columns_first_when_only_rows_need_the_line_dp(n, m, table_max):
    """Rows longer than table_max use the DP, columns a table: the kernel starts with the columns."""
    expected = naive.count(n, m) if n * m <= 12 else count(n, m, table_max=0, spread_max=0)
    assert count(n, m, table_max=table_max, specialized=False) == expected
