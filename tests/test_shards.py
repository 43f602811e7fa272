"""Shard layouts: disjoint groups that cover everything and nest; shard counts add up."""

import pytest

from localcount.count import count
from localcount.shards import count_shard, default_bits, group_shards, layout, parse_group, parse_key


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
    assert sum(count_shard(lay, s) for s in range(lay.shards)) == count(n, m, symmetry=False)


def test_keys_round_trip_and_name_every_parameter():
    lay = layout(5, 6, 8, symmetry=False)
    assert lay.key == "5x6-v1-s8-all"
    assert parse_key(lay.key) == lay
    for n, m, sym, key in [(5, 6, True, "5x6-v1-s8-sym"), (6, 6, True, "6x6-v1-s14-d4"), (6, 6, "flips", "6x6-v1-s14-sym")]:
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
