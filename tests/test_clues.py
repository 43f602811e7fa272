import pytest

from localcount.clues import (
    format_clue,
    format_grid,
    grid_clues,
    grid_cols,
    grid_from_rows,
    grid_rows,
    line_clue,
    parse_clue,
    parse_grid,
)


def test_line_clue():
    assert line_clue(0, 5) == ()
    assert line_clue(0b10110, 5) == (2, 1)  # cells 1,2 and 4
    assert line_clue(0b11111, 5) == (5,)
    assert line_clue(0b101, 3) == (1, 1)


def test_kernel_clue_matches_line_clue_on_every_length():
    """The kernels' branch-free clue (one step per run) against the cell-by-cell one,
    with bits above the line's length set to show they are ignored."""
    import random

    import numpy as np

    from localcount.lines.bits import line_clue_into

    rng = random.Random(5)
    out = np.zeros(33, np.int64)
    for length in range(1, 65):
        full = (1 << length) - 1
        lines = [0, full, 0x5555555555555555 & full, 1, 1 << (length - 1)]
        lines += [rng.getrandbits(length) for _ in range(200)]
        for line in lines:
            noisy = line | (rng.getrandbits(64) & ~full & ((1 << 64) - 1))
            t = line_clue_into(np.uint64(noisy), length, out)
            assert tuple(int(x) for x in out[:t]) == line_clue(line, length), (length, line)


def test_grid_round_trips():
    grid, n, m = parse_grid("1010/0100/1010/0011")
    assert (n, m) == (4, 4)
    assert format_grid(grid, n, m) == "1010/0100/1010/0011"
    assert grid_from_rows(grid_rows(grid, n, m), m) == grid
    assert grid_cols(grid, n, m)[0] == 0b0101  # rows 0 and 2
    rows, cols = grid_clues(grid, n, m)
    assert rows == ((1, 1), (1,), (1, 1), (2,))
    assert cols == ((1, 1), (1,), (1, 2), (1,))


def test_clue_round_trips():
    assert parse_clue("3 1") == (3, 1)
    assert parse_clue("0") == parse_clue("") == ()
    assert format_clue(()) == "0" and format_clue((3, 1)) == "3 1"
    with pytest.raises(ValueError):
        parse_clue("-1")


def test_parse_grid_rejects_ragged_rows():
    with pytest.raises(ValueError, match="row 2"):
        parse_grid("101/10")
