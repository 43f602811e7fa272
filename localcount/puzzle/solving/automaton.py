"""The automaton that reads a line of a clue: used by the SAT encoding (``sat``) and by belief propagation (``beliefs``)."""

from __future__ import annotations


def line_automaton(clue) -> tuple:
    """(moves, accept): ``moves[q][b]`` is the state after reading cell value b in state q (None: no move).

    State q means the first q characters of the clue's shortest line
    ``1^a1 0 1^a2 ... 0 1^at`` are matched; zeros before, between (beyond the
    one required) and after the runs are read without moving.
    """
    shortest = "0".join("1" * a for a in clue)
    moves = []
    for q in range(len(shortest) + 1):
        after_run = q > 0 and shortest[q - 1] == "1"
        zero = q if not after_run or q == len(shortest) else q + 1 if shortest[q] == "0" else None
        one = q + 1 if q < len(shortest) and shortest[q] == "1" else None
        moves.append((zero, one))
    return moves, len(shortest)
