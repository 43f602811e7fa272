"""Shard layouts: disjoint groups that cover everything and nest; shard counts add up."""

import pytest

from localcount.engines.grid.count import count
from localcount.engines.grid.layout import GridLayout, default_bits
from localcount.engines.registry import parse_key
from localcount.orchestration.groups import group_shards, parse_group

layout = GridLayout.make


def test_groups_partition_the_shards_and_nest():
    lay = layout(4, 4, 6)
    for mod in (1, 2, 3, 5, 64):
        seen = sorted(s for k in range(mod) for s in group_shards(lay, k, mod))
        assert seen == list(range(lay.shards))
    for k in range(4):  # group k of 4 = groups k and k+4 of 8
        assert set(group_shards(lay, k, 4)) == set(group_shards(lay, k, 8)) | set(group_shards(lay, k + 4, 8))


@pytest.mark.parametrize("n,m,bits", [(4, 4, 6), (3, 5, 15), (2, 6, 3), (1, 9, 4), (5, 3, 0), (0, 4, 0), (3, 3, 9)])
@pytest.mark.parametrize("symmetry", ["auto", "none", "flips", "square"])
def test_shard_counts_add_up_to_the_count(n, m, bits, symmetry):
    if symmetry == "square" and not n == m >= 2:
        with pytest.raises(ValueError):
            layout(n, m, bits, symmetry)
        return
    lay = layout(n, m, bits, symmetry)
    assert sum(lay.compute(s) for s in range(lay.shards)) == count(n, m, symmetry=False)


def test_keys_round_trip_and_name_every_parameter():
    lay = layout(5, 6, 8, symmetry=False)
    assert lay.key == "5x6-v1-s8-all"
    assert parse_key(lay.key) == lay
    for n, m, sym, key in [
        (5, 6, True, "5x6-v1-s8-sym"),
        (6, 6, True, "6x6-v1-s14-d4"),
        (6, 6, "flips", "6x6-v1-s14-sym"),
    ]:
        lay = layout(n, m, symmetry=sym)
        assert lay.key == key and parse_key(key) == lay
    with pytest.raises(ValueError):
        parse_key("5x6-s8")


def test_default_bits_give_enough_shards():
    assert default_bits(5, 5) >= 6  # at least 64 shards
    assert default_bits(6, 7) == 42 - 22
    assert default_bits(7, 7) == 20  # no more than a million checkpoint records
    assert default_bits(2, 2) == 4  # never more bits than cells


@pytest.mark.parametrize("text", ["3", "3/3", "-1/4", "a/b", "1/0", ""])
def test_bad_groups(text):
    with pytest.raises(ValueError):
        parse_group(text)


def test_bad_shard_bits():
    with pytest.raises(ValueError):
        layout(2, 2, 5)


def _border_orbits(n, m, square):
    """Orbits of the kernel's border patterns under the flips (and transposition), by brute force on cells.

    The border is the outer ring for the square group, rows 0 and n-1 for the flips.
    """
    border = [(r, c) for r in range(n) for c in range(m) if r in (0, n - 1) or (square and c in (0, m - 1))]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (r, m - 1 - c),
        lambda r, c: (n - 1 - r, m - 1 - c),
    ]
    if square:
        maps += [lambda r, c, f=f: f(c, r) for f in maps]
    orbits = set()
    for bits in range(1 << len(border)):
        cells = {border[i] for i in range(len(border)) if bits >> i & 1}
        orbits.add(min(tuple(sorted(f(r, c) for r, c in cells)) for f in maps))
    return len(orbits)


@pytest.mark.parametrize("n,m,bits,symmetry", [(3, 3, 9, "square"), (4, 4, 6, "square"), (4, 4, 14, "square"),
                                               (3, 4, 5, "flips"), (3, 5, 12, "flips"), (1, 7, 5, "flips"),
                                               (4, 5, 8, "flips"), (3, 4, 6, "none")])  # fmt: skip
def test_shard_work_is_one_border_per_orbit(n, m, bits, symmetry):
    lay = layout(n, m, bits, symmetry)
    work = lay.shard_work()
    assert len(work) == lay.shards and all(0 <= w <= lay.grids_per_shard for w in work)
    interior = 2 ** ((n - 2) * (m - 2 if symmetry == "square" else m)) if n > 1 else 1
    if symmetry == "none":
        assert all(w == lay.grids_per_shard for w in work)
    else:  # the kernel visits one border per orbit, with every interior
        assert work.sum() == _border_orbits(n, m, symmetry == "square") * interior
    for s in range(lay.shards):  # no work, no count
        if work[s] == 0:
            assert lay.compute(s) == 0
