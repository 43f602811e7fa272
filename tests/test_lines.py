"""Line tables and the table-free line solver against the naive pattern lists."""

import random

import naive
import numpy as np
import pytest

from localcount.clues import line_clue
from localcount.lines import words
from localcount.lines.solvers import MAX_BITS_LINE, line_options, line_options_bits
from localcount.lines.tables import SPREAD_MAX_LEN, TABLE_MAX_LEN, clue_ids, line_table, spread_table


def naive_new_known(p: int, k: int, length: int) -> int:
    """Known mask after one step on a line with true cells p and known mask k."""
    cells = tuple((p >> i & 1) if k >> i & 1 else None for i in range(length))
    new = naive.line_step(line_clue(p, length), cells)
    return sum(1 << i for i, v in enumerate(new) if v is not None)


@pytest.mark.parametrize("length", range(0, 7))
def test_table_equals_naive_everywhere(length):
    table = line_table(length)
    for p in range(1 << length):
        for k in range(1 << length):
            assert table[p << length | k] == naive_new_known(p, k, length), (p, k)


@pytest.mark.parametrize("length", [7, 8, 9, TABLE_MAX_LEN])
def test_table_equals_line_dp(length):
    table = line_table(length)
    full = (1 << length) - 1
    rng = random.Random(length)
    pairs = [(p, k) for p in range(1 << length) for k in (0, full)]
    pairs += [(rng.randrange(1 << length), rng.randrange(1 << length)) for _ in range(3000)]
    for p, k in pairs:
        can0, can1 = line_options(line_clue(p, length), length, p & k, ~p & k & full)
        assert table[p << length | k] == full & ~(can0 & can1), (p, k)


def test_all_tables_of_a_size_stay_under_one_gib():
    longest = 2 * (4**TABLE_MAX_LEN) * np.dtype(np.uint16).itemsize  # a row table and a column table
    spreads = 2 * 64 * (2**SPREAD_MAX_LEN) * 8  # at most 64 lines of at most SPREAD_MAX_LEN cells
    assert longest + spreads < 2**30
    assert line_table(TABLE_MAX_LEN).nbytes == 4**TABLE_MAX_LEN * 2


def test_line_dp_matches_naive_on_arbitrary_knowledge():
    """Including knowledge that contradicts the clue: then no cell is possible."""
    rng = random.Random(7)
    for _ in range(3000):
        length = rng.randrange(0, 11)
        clue = tuple(rng.randint(1, 4) for _ in range(rng.randrange(0, 4)))
        cells = tuple(rng.choice((None, None, 0, 1)) for _ in range(length))
        known1 = sum(1 << i for i, v in enumerate(cells) if v == 1)
        known0 = sum(1 << i for i, v in enumerate(cells) if v == 0)
        fits = [pat for pat in naive.patterns(clue, length) if all(c is None or c == v for c, v in zip(cells, pat))]
        want0 = sum(1 << i for i in range(length) if any(pat[i] == 0 for pat in fits))
        want1 = sum(1 << i for i in range(length) if any(pat[i] == 1 for pat in fits))
        assert line_options(clue, length, known1, known0) == (want0, want1), (clue, cells)


def test_line_dp_on_a_64_cell_line():
    clue = (20, 3, 39)  # 20 + 1 + 3 + 1 + 39 = 64 cells: a single pattern
    line = ((1 << 20) - 1) | (0b111 << 21) | (((1 << 39) - 1) << 25)
    assert line_clue(line, 64) == clue
    can0, can1 = line_options(clue, 64)
    assert (can0, can1) == (~line & ((1 << 64) - 1), line)


def _naive_options(clue, cells) -> tuple:
    """(can0, can1) from the list of every pattern of the clue that fits the known cells."""
    fits = [pat for pat in naive.patterns(clue, len(cells)) if all(c is None or c == v for c, v in zip(cells, pat))]
    return (
        sum(1 << i for i in range(len(cells)) if any(pat[i] == 0 for pat in fits)),
        sum(1 << i for i in range(len(cells)) if any(pat[i] == 1 for pat in fits)),
    )


@pytest.mark.parametrize("length", range(1, 7))
def test_word_solver_matches_naive_on_every_knowledge(length):
    """Every clue of the length (and some that cannot fit), every known-cell assignment."""
    clues = {line_clue(p, length) for p in range(1 << length)} | {(length + 1,), (1,) * length, (2, 2, 2, 2)}
    for clue in clues:
        for code in range(3**length):
            cells = tuple((None, 0, 1)[code // 3**i % 3] for i in range(length))
            known1 = sum(1 << i for i, v in enumerate(cells) if v == 1)
            known0 = sum(1 << i for i, v in enumerate(cells) if v == 0)
            assert line_options_bits(clue, length, known1, known0) == _naive_options(clue, cells), (clue, cells)


@pytest.mark.parametrize("length", [7, 9, 12, 16, 23, 33, 47, MAX_BITS_LINE])
def test_word_solver_matches_line_dp(length):
    """Lines of the grids' true cells with random knowledge, and random knowledge against random clues."""
    rng = random.Random(length)
    full = (1 << length) - 1
    for _ in range(2000):
        p = rng.getrandbits(length) & rng.getrandbits(length) if rng.random() < 0.3 else rng.getrandbits(length)
        k = rng.getrandbits(length) | rng.getrandbits(length)
        clue = line_clue(p, length)
        assert line_options_bits(clue, length, p & k, ~p & k & full) == line_options(clue, length, p & k, ~p & k & full)
        other = line_clue(rng.getrandbits(length), length)
        known1, known0 = p & k & rng.getrandbits(length), ~p & k & full & rng.getrandbits(length)
        want = line_options(other, length, known1, known0)
        assert line_options_bits(other, length, known1, known0) == want, (other, known1, known0)


def test_word_solver_refuses_lines_beyond_its_width():
    with pytest.raises(ValueError, match="longer than"):
        line_options_bits((1,), MAX_BITS_LINE + 1)


def test_line_dp_says_no_fit_for_clues_longer_than_the_line():
    """A clue needing more cells than the line has no pattern (and must not overrun the DP's arrays)."""
    assert line_options((1,) * 10, 5) == (0, 0)
    assert line_options((6,), 5) == (0, 0)
    assert line_options_bits((1,) * 10, 5) == (0, 0)


@pytest.mark.parametrize("length", range(0, 7))
def test_python_word_solver_matches_naive_on_every_knowledge(length):
    """The pure-Python solver (single puzzles): every clue of the length and some that cannot fit, every knowledge."""
    clues = {line_clue(p, length) for p in range(1 << length)} | {(length + 1,), (1,) * max(length, 1), (2, 2, 2, 2)}
    for clue in clues:
        for code in range(3**length):
            cells = tuple((None, 0, 1)[code // 3**i % 3] for i in range(length))
            known1 = sum(1 << i for i, v in enumerate(cells) if v == 1)
            known0 = sum(1 << i for i, v in enumerate(cells) if v == 0)
            assert words.line_options(clue, length, known1, known0) == _naive_options(clue, cells), (clue, cells)


def test_python_word_solver_matches_the_line_dp_up_to_62_cells():
    """Random lines, clues and knowledge (consistent or not) on every length the numba solvers take."""
    rng = random.Random(11)
    for length in range(0, MAX_BITS_LINE + 1):
        full = (1 << length) - 1
        for _ in range(60):
            p = rng.getrandbits(length) if length else 0
            k = (rng.getrandbits(length) | rng.getrandbits(length)) if length else 0
            clue = line_clue(p if rng.random() < 0.7 else rng.getrandbits(max(length, 1)) & full, length)
            known1, known0 = p & k, ~p & k & full
            want = line_options(clue, length, known1, known0)
            assert words.line_options(clue, length, known1, known0) == want, (length, clue, known1, known0)


def _placements(clue, length, known1, known0) -> tuple:
    """(can0, can1) by placing the runs one after another, recursively: a reference for any length."""
    can0 = can1 = 0

    def place(j, start, line):
        nonlocal can0, can1
        if j == len(clue):
            if line & known0 == 0 and known1 & ~line == 0:
                can0 |= ~line & ((1 << length) - 1)
                can1 |= line
            return
        need = sum(clue[j:]) + len(clue) - j - 1
        for s in range(start, length - need + 1):
            run = ((1 << clue[j]) - 1) << s
            if run & known0 or known1 & ((1 << s) - 1) & ~line & ~((1 << start) - 1):
                continue  # a run over a known empty cell, or a known filled cell left before it
            place(j + 1, s + clue[j] + 1, line | run)

    place(0, 0, 0)
    return can0, can1


@pytest.mark.parametrize("length", [65, 90, 130, 513])
def test_python_word_solver_on_lines_longer_than_a_machine_word(length):
    rng = random.Random(length)
    for _ in range(40):
        runs = rng.randint(0, 3)
        clue = tuple(rng.randint(1, length // 4) for _ in range(runs))
        if sum(clue) + len(clue) - 1 > length:
            continue
        p = sum(1 << i for i in range(length) if rng.random() < 0.02)
        k = sum(1 << i for i in range(length) if rng.random() < 0.05)
        known1, known0 = p & k, ~p & k & ((1 << length) - 1)
        assert words.line_options(clue, length, known1, known0) == _placements(clue, length, known1, known0), clue
    # one full line: a single pattern
    clue = (length - 40, 39)
    line = ((1 << (length - 40)) - 1) | (((1 << 39) - 1) << (length - 39))
    assert words.line_options(clue, length) == (~line & ((1 << length) - 1), line)


def test_clue_ids_group_lines_by_clue():
    ids = clue_ids(5)
    for p in range(32):
        for q in range(32):
            assert (ids[p] == ids[q]) == (line_clue(p, 5) == line_clue(q, 5))


def test_spread_table_moves_cells_to_the_crossing_layout():
    n, m = 3, 4
    spread = spread_table(n, m)
    for r in range(n):
        for x in range(1 << m):
            want = sum(1 << (c * n + r) for c in range(m) if x >> c & 1)
            assert int(spread[r, x]) == want
    assert spread.dtype == np.uint64
