"""Shard groups (``--shard K/N``), after nauty geng's res/mod.

Group K of N is every shard s with s % N == K.  The N groups are disjoint
and cover every shard, and splits nest: group K of N is the union of groups
K and K+N of 2N.  Works for any layout (``engines.base.Layout``).
"""

from __future__ import annotations

import re


def parse_group(text: str) -> tuple:
    """'K/N' -> (K, N) with 0 <= K < N."""
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not match:
        raise ValueError(f"shard group must look like K/N (e.g. 3/16), got {text!r}")
    k, mod = int(match.group(1)), int(match.group(2))
    if mod < 1 or not 0 <= k < mod:
        raise ValueError(f"shard group K/N needs 0 <= K < N, got {k}/{mod}")
    return k, mod


def group_shards(lay, k: int = 0, mod: int = 1) -> range:
    """The shards of group K of N (all shards for 0/1)."""
    return range(k, lay.shards, mod)
