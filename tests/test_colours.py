"""The colour line solver against the list of every fitting colouring."""

import itertools
import random

from localcount.lines.colours import line_options


def clue_of(cells) -> tuple:
    """The colour clue of a colouring: its runs (length, colour) of non-background cells."""
    runs = []
    for colour, group in itertools.groupby(cells):
        if colour:
            runs.append((len(list(group)), colour))
    return tuple(runs)


def naive(clue, allowed):
    values = max([m.bit_length() for m in allowed] + [1])
    fits = [cells for cells in itertools.product(range(values), repeat=len(allowed))
            if all(allowed[i] >> v & 1 for i, v in enumerate(cells)) and clue_of(cells) == tuple(clue)]  # fmt: skip
    if not fits:
        return None
    can = [0] * len(allowed)
    for cells in fits:
        for i, v in enumerate(cells):
            can[i] |= 1 << v
    return can


def test_the_colour_solver_matches_every_fitting_colouring():
    rng = random.Random(0)
    for _ in range(1500):
        length = rng.randint(0, 7)
        colours = rng.randint(1, 3)
        truth = [rng.choice([0, 0] + list(range(1, colours + 1))) for _ in range(length)]
        clue = clue_of(truth)
        if rng.random() < 0.2:  # sometimes a clue that does not fit the truth
            clue = clue_of([rng.randint(0, colours) for _ in range(length)])
        allowed = [(1 << (colours + 1)) - 1 for _ in range(length)]
        for i in range(length):
            if rng.random() < 0.3:
                allowed[i] = 1 << truth[i] if rng.random() < 0.7 else rng.randint(1, (1 << (colours + 1)) - 1)
        assert line_options(clue, allowed) == naive(clue, allowed), (clue, allowed)


def test_runs_of_different_colours_may_touch_and_of_one_colour_may_not():
    assert line_options(((2, 1), (1, 2)), [0b111] * 3) == [0b10, 0b10, 0b100]
    assert line_options(((2, 1), (1, 1)), [0b11] * 3) is None
    assert line_options(((2, 1), (1, 1)), [0b11] * 4) == [0b10, 0b10, 0b01, 0b10]
    assert line_options((), [0b11, 0b01]) == [0b01, 0b01]
    assert line_options(((1, 1),), []) is None
