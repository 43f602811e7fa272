"""Word helpers for the numba kernels: a line's clue (``clues.line_clue`` is the readable twin), masks, reversal, bit counts."""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _trailing_zeros(typingctx, x):
    """Number of trailing zero bits of a uint64 (64 for 0; one TZCNT instruction)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@njit(cache=True)
def line_clue_into(line, length, out):
    """Write the clue of ``line`` into ``out``; return the number of runs.

    One step per run, without a branch per cell: a run starts at a 1 after
    a 0 and ends at a 1 before a 0, so the i-th start and the i-th end are
    the lowest remaining bits of those two masks.
    """
    one = np.uint64(1)
    line &= (one << np.uint64(length)) - one if length < 64 else ~np.uint64(0)
    starts = line & ~(line << one)
    ends = line & ~(line >> one)
    t = 0
    while starts:
        out[t] = np.int64(_trailing_zeros(ends) - _trailing_zeros(starts)) + 1
        t += 1
        starts &= starts - one
        ends &= ends - one
    return t


ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def low_mask(length):
    """The mask of the low ``length`` bits (0 <= length <= 64) as uint64."""
    if length == 0:
        return np.uint64(0)
    return ALL >> np.uint64(64 - length)


@njit(cache=True)
def reverse_bits(x, length):
    """The low ``length`` bits of x in reverse order (1 <= length <= 64)."""
    x = ((x >> np.uint64(1)) & np.uint64(0x5555555555555555)) | ((x & np.uint64(0x5555555555555555)) << np.uint64(1))
    x = ((x >> np.uint64(2)) & np.uint64(0x3333333333333333)) | ((x & np.uint64(0x3333333333333333)) << np.uint64(2))
    x = ((x >> np.uint64(4)) & np.uint64(0x0F0F0F0F0F0F0F0F)) | ((x & np.uint64(0x0F0F0F0F0F0F0F0F)) << np.uint64(4))
    x = ((x >> np.uint64(8)) & np.uint64(0x00FF00FF00FF00FF)) | ((x & np.uint64(0x00FF00FF00FF00FF)) << np.uint64(8))
    x = ((x >> np.uint64(16)) & np.uint64(0x0000FFFF0000FFFF)) | ((x & np.uint64(0x0000FFFF0000FFFF)) << np.uint64(16))
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    return x >> np.uint64(64 - length)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (one POPCNT instruction)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen
