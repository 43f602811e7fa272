"""Hints (``puzzle.solving.hints``, ``Puzzle.hint``, ``POST /api/hint``): every hint's cells are exactly what its line
forces from the marks so far (brute force over the line's placements, ``tests/naive.py``), and hints one after the
other take every simple puzzle of a size from the empty board to the solution."""

import random
import warnings

import pytest
from naive import UNKNOWN, clues_of, line_step, row_runs, solve_grid

import localcount as lc

MARK = {1: "1", 0: "x", UNKNOWN: "."}


def marks_of(cells) -> list:
    return ["".join(MARK[v] for v in row) for row in cells]


def forced(clues, cells, variant):
    """{line name: (filled, empty)} of the unmarked cells each line forces, by brute force (naive.line_step)."""
    row_clues, col_clues = clues
    n, m = len(row_clues), len(col_clues)
    out = {}
    for name, clue, line, at, runs in (
        [(f"row {r + 1}", row_clues[r], tuple(cells[r]), lambda j, r=r: (r, j), row_runs(variant)) for r in range(n)]
        + [(f"column {c + 1}", col_clues[c], tuple(cells[r][c] for r in range(n)), lambda j, c=c: (j, c), 1) for c in range(m)]
    ):  # fmt: skip
        new = line_step(tuple(clue), line, runs)
        assert new is not None, name
        gain = [j for j, (old, v) in enumerate(zip(line, new)) if old is UNKNOWN and v is not UNKNOWN]
        out[name] = ({at(j) for j in gain if new[j] == 1}, {at(j) for j in gain if new[j] == 0})
    return out


def play(g: int, n: int, m: int, variant: str = "nonogram", hint=None) -> int:
    """Hints from the empty board of grid g's puzzle until solved, each checked against brute force; the hint count."""
    clues = clues_of(g, n, m, variant)
    p = lc.Puzzle(rows=clues[0], columns=clues[1], variant=variant)
    hint = hint or (lambda cells: p.hint(marks_of(cells)))
    cells = [[UNKNOWN] * m for _ in range(n)]
    for k in range(2 * n * m + 2):
        h = hint(cells)
        if h.kind == "solved":
            assert all(
                (v == 1) == bool(g >> (r * m + c) & 1)
                for r, row in enumerate(cells)
                for c, v in enumerate(row)
                if v is not UNKNOWN
            )
            return k
        assert h.kind == "line", (g, h)
        options = forced(clues, cells, variant)
        assert (set(h.filled), set(h.empty)) == options[h.line], (g, h)
        assert len(h.filled) + len(h.empty) == max(len(a) + len(b) for a, b in options.values())
        assert h.reason.startswith(h.line + ": clue ")
        for (r, c), v in [(x, 1) for x in h.filled] + [(x, 0) for x in h.empty]:
            assert cells[r][c] is UNKNOWN and v == g >> (r * m + c) & 1  # a hint is never wrong for a simple puzzle
            cells[r][c] = v
    raise AssertionError(f"grid {g}: no end after {2 * n * m + 2} hints")


def simple_grids(n: int, m: int, variant: str = "nonogram") -> list:
    return [g for g in range(1 << (n * m)) if solve_grid(g, n, m, variant)[0] == "solved"]


@pytest.mark.parametrize("variant", ["nonogram", "yesnogram"])
def test_hints_solve_every_simple_3x3_and_2x4_puzzle(variant):
    for n, m in ((3, 3), (2, 4), (4, 2)):
        grids = simple_grids(n, m, variant)
        assert grids and all(
            play(g, n, m, variant) >= 1 for g in grids if g
        )  # the empty grid is solved before any hint


def test_hints_solve_random_simple_4x4_and_5x5_puzzles():
    rng = random.Random(46)
    for n, m, k in ((4, 4, 150), (5, 5, 40)):
        done = 0
        while done < k:
            g = rng.getrandbits(n * m)
            if solve_grid(g, n, m)[0] == "solved":
                play(g, n, m)
                done += 1


@pytest.mark.slow
def test_hints_solve_every_simple_4x4_puzzle():
    grids = simple_grids(4, 4)
    assert len(grids) == 51234
    for g in grids:
        play(g, 4, 4)


def test_wrong_marks_are_named_against_the_solution():
    p = lc.Puzzle.from_grid(["110", "011", "111"])
    h = p.hint(["1x.", "1..", "..1"])
    assert (h.kind, set(h.mistakes)) == ("mistakes", {(0, 1), (1, 0)})
    assert p.hint(["1x.", "...", "..."]).kind == "mistakes"
    # a solution given by the caller is what marks are checked against
    assert p.hint(["1..", "...", "..."], solution=["110", "011", "111"]).kind == "line"


def test_a_line_with_no_placement_is_named_when_no_solution_is_known():
    p = lc.Puzzle(rows=[[1], [1]], columns=[[1], [1]])  # two solutions: local logic decides nothing
    h = p.hint(["11", ".."])
    assert (h.kind, h.line, h.filled, h.empty) == ("contradiction", "row 1", (), ())
    assert "no placement" in h.reason


def test_probing_names_one_cell_and_the_line_of_its_contradiction():
    # a grid local logic cannot start on, that probing decides (found by search below, kept if it is one)
    for g in range(1 << 16):
        rows, cols = clues_of(g, 4, 4)
        status, _ = solve_grid(g, 4, 4)
        if status != "stuck":
            continue
        h = lc.Puzzle(rows=rows, columns=cols).hint(["...."] * 4)
        if h.kind == "probe":
            break
    else:
        raise AssertionError("no 4x4 puzzle that probing decides")
    (cell,) = h.filled + h.empty
    assert h.line is None and "local logic would find no placement for" in h.reason
    assert (1 if h.filled else 0) == g >> (cell[0] * 4 + cell[1]) & 1 or lc.Puzzle(
        rows=rows, columns=cols
    ).solve().verdict != "unique"


def test_several_solutions_and_no_deduction_is_stuck_and_any_solution_is_solved():
    p = lc.Puzzle.from_grid(["10", "01"])
    assert p.hint(["..", ".."]).kind == "stuck"
    assert p.hint(["1.", ".1"]).kind == "solved" and p.hint(["x1", "1x"]).kind == "solved"


def test_reasons_in_words():
    p = lc.Puzzle(rows=[[4], [0], [1]], columns=[[1], [1, 1], [1], [1]])
    h = p.hint(["....", "....", "...."])
    assert h.reason == "row 1: clue 4 in 4 cells — only one placement fits: cells 1–4 are filled"
    h = p.hint(["1111", "....", "...."])
    assert h.reason == "row 2: clue 0 in 4 cells — the clue has no run: every cell is empty"
    q = lc.Puzzle(rows=[[4]], columns=[[1], [1], [1], [1], [0]])
    h = q.hint(["....."])
    assert h.reason == "row 1: clue 4 in 5 cells — cells 2–4 are filled in every placement that fits"
    one = lc.Puzzle(rows=[[1], [0]], columns=[[1]])  # a column of one cell: the singular
    assert one.hint([".", "."]).reason.startswith(("row 1: clue 1 in 1 cell —", "row 2: clue 0 in 1 cell —"))


@pytest.mark.parametrize("marks,says", [
    (["...", "..."], "marks have 2 rows, the puzzle 3"),
    (["...", "..", "..."], "marks row 2 has 2 cells, the puzzle 3"),
    (["...", ".0.", "..."], "marks row 2: '0' is not a mark"),
    ([1, 2, 3], "marks are 3 strings of 3 characters"),
])  # fmt: skip
def test_bad_marks_are_one_line_naming_the_row(marks, says):
    with pytest.raises(lc.PuzzleError, match=says):
        lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]]).hint(marks)


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's note about httpx's successor
        from starlette.testclient import TestClient

        from localcount.web import app as web

        return TestClient(web.create_app(), raise_server_exceptions=False)


def test_api_hint_plays_simple_puzzles_to_the_end(client):
    def through_api(clues):
        def hint(cells):
            a = client.post("/api/hint", json={"rows": clues[0], "columns": clues[1], "marks": marks_of(cells)})
            assert a.status_code == 200, a.text
            a = a.json()
            if a.get("solved"):
                return lc.puzzle.solving.hints.Hint("solved")
            return lc.puzzle.solving.hints.Hint(a["kind"], a["line"], tuple(map(tuple, a["filled"])),
                                                tuple(map(tuple, a["empty"])), reason=a["reason"])  # fmt: skip

        return hint

    import localcount.puzzle.solving.hints  # noqa: F401 (lc.puzzle.solving.hints above)

    rng = random.Random(47)
    for g in rng.sample(simple_grids(3, 4), 25):
        play(g, 3, 4, hint=through_api(clues_of(g, 3, 4)))


def test_api_hint_answers_mistakes_solved_and_bad_marks(client):
    puzzle = {"rows": [[1, 1], [1], [3]], "columns": [[1, 1], [2], [1, 1]]}
    assert client.post("/api/hint", json={**puzzle, "marks": ["1x1", "x1x", "111"]}).json()["solved"] is True
    assert client.post("/api/hint", json={**puzzle, "marks": ["11.", "...", "..."]}).json()["mistakes"] == [[0, 1]]
    for marks, status in ((["..", "...", "..."], 422), (["..q", "...", "..."], 422), ("...", 400), (None, 400)):
        a = client.post("/api/hint", json={**puzzle, "marks": marks})
        assert a.status_code == status and "\n" not in a.json()["error"], (marks, a.text)


def test_a_solution_that_does_not_fit_the_clues_is_refused():
    p = lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]])
    with pytest.raises(lc.PuzzleError, match="the solution does not fit the clues: row 1 differs"):
        p.hint(["...", "...", "..."], solution=["111", "010", "111"])
    assert p.hint(["...", "...", "..."], solution=["101", "010", "111"]).kind in ("line", "probe")


# --- colour puzzles: a cell's mark is its colour ('1', '2', ...), a cross the background ---

COLOUR_PALETTE = (("white", ".", "FFFFFF"), ("red", "r", "FF0000"), ("blue", "b", "0000FF"), ("green", "g", "00B000"))


def colour_puzzle(cells, n: int, m: int, k: int):
    from localcount.puzzle.solving.colour import ColourPuzzle, line_clue

    rows = tuple(line_clue(cells[r * m : (r + 1) * m]) for r in range(n))
    cols = tuple(line_clue(cells[c::m]) for c in range(m))
    return lc.Puzzle.of(ColourPuzzle(rows, cols, COLOUR_PALETTE[: k + 1]))


def colour_marks(cells, m: int) -> list:
    line = "".join("." if v is None else lc.api.puzzles.COLOUR_MARKS[v - 1] if v else "x" for v in cells)
    return [line[i : i + m] for i in range(0, len(line), m)]


def colour_forced(clue, line, k: int) -> dict:
    """{position: colour} of the unmarked cells (None) of a line that every colouring fitting its clue and marks
    gives one colour, by listing every colouring."""
    import itertools

    from localcount.puzzle.solving.colour import line_clue

    fits = [c for c in itertools.product(range(k + 1), repeat=len(line))
            if line_clue(c) == tuple(clue) and all(v is None or v == x for v, x in zip(line, c))]  # fmt: skip
    assert fits
    return {j: fits[0][j] for j, v in enumerate(line) if v is None and len({f[j] for f in fits}) == 1}


def test_colour_hints_take_random_colour_puzzles_to_the_end_each_what_its_line_forces():
    rng = random.Random(77)
    solved = 0
    for _ in range(60):
        n, m, k = rng.randint(2, 4), rng.randint(2, 4), rng.randint(2, 3)
        truth = [rng.randint(0, k) for _ in range(n * m)]
        p = colour_puzzle(truth, n, m, k)
        cells = [None] * (n * m)
        for _ in range(2 * n * m + 2):
            h = p.hint(colour_marks(cells, m))
            if h.kind in ("solved", "stuck"):
                solved += h.kind == "solved"
                break
            assert h.kind in ("line", "probe"), h
            got = {(r, c): v for (r, c), v in zip(h.filled, h.colours)} | {cell: 0 for cell in h.empty}
            if h.kind == "line":
                kind, number = h.line.split()
                i = int(number) - 1
                idx = [i * m + c for c in range(m)] if kind == "row" else [r * m + i for r in range(n)]
                clue = p.rows[i] if kind == "row" else p.columns[i]
                want = colour_forced(clue, [cells[x] for x in idx], k)
                assert got == {divmod(idx[j], m): v for j, v in want.items()}, h
                assert h.reason.startswith(h.line + ": clue ")
            else:
                assert len(got) == 1 and "no colouring for" in h.reason
            for (r, c), v in got.items():
                assert cells[r * m + c] is None
                cells[r * m + c] = v
        else:
            raise AssertionError(f"{truth}: no end after {2 * n * m + 2} hints")
    assert solved > 30


def test_colour_hints_name_colours_mistakes_and_bad_marks():
    p = colour_puzzle((1, 1, 2, 0, 1, 0, 2, 2, 0, 2, 2, 0, 2, 2, 0, 1), 4, 4, 2)
    h = p.hint(["...."] * 4)
    assert (h.kind, h.line, h.filled, h.colours) == ("line", "column 3", ((1, 2), (2, 2)), (2, 2))
    assert h.reason == "column 3: clue 3 blue in 4 cells — cells 2–3 are blue in every colouring that fits"
    h = p.hint(["2...", "....", "....", "...."])
    assert (h.kind, h.mistakes) == ("mistakes", ((0, 0),))
    assert (
        p.hint(["112x", "1x22", "x22x", "22x1"]).kind == "solved"
        and p.hint(["112.", "1.22", ".22.", "22.1"]).kind == "solved"
    )
    assert p.hint(["...."] * 4, solution=["rrb.", "r.bb", ".bb.", "bb.r"]).kind == "line"
    with pytest.raises(lc.PuzzleError, match="the solution does not fit the clues: row 1 differs"):
        p.hint(["...."] * 4, solution=["rbb.", "r.bb", ".bb.", "bb.r"])
    with pytest.raises(lc.PuzzleError, match="marks row 1: '3' is not a mark \\('1'-'2' a colour"):
        p.hint(["3...", "....", "....", "...."])


def test_api_hint_answers_a_colour_puzzles_hint_with_its_colours(client):
    text = colour_puzzle((1, 1, 2, 0, 1, 0, 2, 2, 0, 2, 2, 0, 2, 2, 0, 1), 4, 4, 2).to_string("non")
    a = client.post("/api/hint", json={"text": text, "format": "non", "marks": ["...."] * 4}).json()
    assert (a["line"], a["filled"], a["colours"], a["kind"]) == ("column 3", [[1, 2], [2, 2]], [2, 2], "line")
    a = client.post("/api/hint", json={"text": text, "format": "non", "marks": ["2..."] + ["...."] * 3}).json()
    assert a["mistakes"] == [[0, 0]]
    a = client.post("/api/hint", json={"text": text, "format": "non", "marks": ["q..."] + ["...."] * 3})
    assert a.status_code == 422 and "'q' is not a mark" in a.json()["error"]
