"""The line solver for colour puzzles: which colours each cell can still take, in pure Python.

A colour clue is a sequence of runs ``(length, colour)`` with colours 1, 2,
...; colour 0 is the background.  Two consecutive runs of the same colour
need at least one background cell between them; runs of different colours
may touch.  A cell's knowledge is a bit mask of the colours it may take
(bit k: colour k).

The solver is a dynamic program over states (i, j): the first i cells are
accounted for by the first j runs and background.  From (i, j) a
background cell leads to (i + 1, j), and run j placed at cell i to
(i + len_j + gap, j + 1), where gap is 1 (a background cell, taken at
once) when run j + 1 has run j's colour.  A state is useful when it can be
reached from (0, 0) and can reach (L, t); a cell can take colour k when a
useful move paints it k.  Placing a run costs O(1) with prefix counts of
the cells that allow each colour, so a line costs O(L · t).  Black and
white puzzles keep the bit-parallel solver (``lines.words``); the tests
compare this one with the list of every fitting colouring.
"""

from __future__ import annotations


def _runs_fit(allowed: list, colours: set) -> dict:
    """For each colour, prefix counts: ``fit[k][i]`` = cells among the first i that allow colour k."""
    fit = {}
    for k in colours:
        counts = [0]
        for mask in allowed:
            counts.append(counts[-1] + (mask >> k & 1))
        fit[k] = counts
    return fit


def line_options(clue, allowed: list) -> list | None:
    """Per cell, the mask of colours it takes in some colouring that fits ``clue`` and ``allowed``; None if none fits."""
    length, t = len(allowed), len(clue)
    fit = _runs_fit(allowed, {0} | {k for _, k in clue})

    def run_fits(j: int, i: int) -> int | None:
        """The state index after placing run j at cell i (with its required gap), or None if it cannot go there."""
        size, colour = clue[j]
        end = i + size
        if end > length or fit[colour][end] - fit[colour][i] != size:
            return None
        if j + 1 < t and clue[j + 1][1] == colour:
            if end >= length or not allowed[end] & 1:
                return None
            end += 1
        return end

    # forward: reach[j][i] when (i, j) can be reached from (0, 0); every move goes to a larger i
    reach = [[False] * (length + 1) for _ in range(t + 1)]
    reach[0][0] = True
    for j in range(t + 1):
        for i in range(length + 1):
            if not reach[j][i]:
                continue
            if i < length and allowed[i] & 1:
                reach[j][i + 1] = True
            if j < t:
                nxt = run_fits(j, i)
                if nxt is not None:
                    reach[j + 1][nxt] = True
    if not reach[t][length]:
        return None
    # backward: done[j][i] when (i, j) is reachable and can reach (length, t)
    done = [[False] * (length + 1) for _ in range(t + 1)]
    done[t][length] = True
    for j in range(t, -1, -1):
        for i in range(length - 1, -1, -1):
            if not reach[j][i]:
                continue
            if allowed[i] & 1 and done[j][i + 1]:
                done[j][i] = True
            elif j < t:
                nxt = run_fits(j, i)
                done[j][i] = nxt is not None and done[j + 1][nxt]
    can = [0] * length
    # paint every useful move; a run's cells are marked through a difference array per colour
    starts: dict = {}
    for j in range(t + 1):
        for i in range(length):
            if not done[j][i]:
                continue
            if allowed[i] & 1 and done[j][i + 1]:
                can[i] |= 1
            if j < t:
                nxt = run_fits(j, i)
                if nxt is not None and done[j + 1][nxt]:
                    size, colour = clue[j]
                    marks = starts.setdefault(colour, [0] * (length + 1))
                    marks[i] += 1
                    marks[i + size] -= 1
                    if nxt > i + size:
                        can[i + size] |= 1  # the gap before a run of the same colour
    for colour, marks in starts.items():
        depth = 0
        for i in range(length):
            depth += marks[i]
            if depth:
                can[i] |= 1 << colour
    return can
