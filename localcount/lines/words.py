"""The word-operation line solver on Python ints: any line length, no numba.

The same algorithm as ``solvers.line_options_bits_kernel`` (read its comment for
the derivation), with Python's unbounded ints as the words, so a line may
have any number of cells.  Bits above position L + 1 never reach the cells:
``W`` masks the only left shift that could carry them, and ``Z`` holds the
line's end (positions L and L + 1) as "cannot be filled", which is all a
smear from above can see.  The single-puzzle tools use it
(``puzzle.solving.logic``), so they start without compiling anything; the
tests compare it with the dynamic program and with the list of every
fitting pattern.
"""

from __future__ import annotations


def _smear_up(x: int, width: int) -> int:
    """OR of x << i for 0 <= i < width (width >= 1)."""
    w = 1
    while w * 2 <= width:
        x |= x << w
        w *= 2
    if w < width:
        x |= x << (width - w)
    return x


def _smear_down(x: int, width: int) -> int:
    """OR of x >> i for 0 <= i < width (width >= 1)."""
    w = 1
    while w * 2 <= width:
        x |= x >> w
        w *= 2
    if w < width:
        x |= x >> (width - w)
    return x


def _reach_up(x: int, a: int) -> int:
    """Positions p >= some q in x with every cell of [q, p) in a (one addition)."""
    return x | ((a + (x & a)) ^ a)


def _reach_down(x: int, a: int, steps: int) -> int:
    """Positions p <= some q in x with every cell of [p, q) in a, for q - p < 2^steps."""
    d = 1
    for _ in range(steps):
        x |= (x >> d) & a
        a &= a >> d
        d <<= 1
    return x


def line_options(clue, length: int, known1: int = 0, known0: int = 0) -> tuple:
    """(can0, can1): the cells that are 0 / 1 in some pattern fitting ``clue`` and the known cells.

    A cell in neither mask means that no pattern fits (then both are 0).
    """
    t, L = len(clue), length
    W = (1 << (L + 2)) - 1  # positions 0 .. L + 1
    full = (1 << L) - 1
    E = (~known1 & full) | (1 << L)  # may be empty, and the virtual empty cell L
    Z = W & ~(~known0 & full)  # may not be filled: known empty, and the positions past the line
    steps = L.bit_length()
    Q = [0] * (t + 1)
    Q[0] = _reach_down(1 << L, E, steps)
    for k in range(1, t + 1):
        b = clue[t - k]
        starts = ~_smear_down(Z, b) & (E << 1) & (Q[k - 1] >> b)
        Q[k] = _reach_down(starts >> 1, E, steps)
    R = _reach_up(1, E)
    can0 = can1 = 0
    for j in range(t):
        b = clue[j]
        can0 |= R & Q[t - j]
        starts = R & ~_smear_down(Z, b) & (E >> b)
        fits = starts & (Q[t - 1 - j] >> b)
        can1 |= _smear_up(fits, b)
        can0 |= fits << b  # the empty cell after the run
        R = _reach_up((starts << (b + 1)) & W, E)
    can0 |= R & Q[0]
    if not (R >> (L + 1)) & 1:
        return 0, 0
    return can0 & full, can1 & full
