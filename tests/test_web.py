"""The page's HTTP API (``localcount.web.app``, docs/web.md) through Starlette's TestClient: every endpoint against
the Python API and the naive reference, and bad requests of every kind (a 4xx with one line, never a 500)."""

import base64
import json
import pathlib
import random
import warnings

import pytest
from naive import clues_of, solve_grid

import localcount as lc

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx's successor
    from starlette.testclient import TestClient

from localcount import tuning
from localcount.web import app as web

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    """The app with its lifespan, as ``serve`` runs it: the worker processes start first."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = TestClient(web.create_app(), raise_server_exceptions=False)
    with app:
        yield app


def rows_of(g: int, n: int, m: int) -> list:
    return ["".join(str(g >> (r * m + c) & 1) for c in range(m)) for r in range(n)]


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<html" in page.text.lower()
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "http" not in "".join(p.read_text() for p in web.STATIC.glob("*.html")).replace("http://www.w3.org", "")


def test_analyze_agrees_with_the_naive_reference_on_every_3x3_drawing(client):
    for g in range(1 << 9):
        answer = client.post("/api/analyze", json={"grid": rows_of(g, 3, 3)}).json()
        rows, cols = clues_of(g, 3, 3)
        status, known = solve_grid(g, 3, 3)
        assert (tuple(map(tuple, answer["rows"])), tuple(map(tuple, answer["columns"]))) == (rows, cols)
        assert answer["simple"] == (status == "solved")
        assert {tuple(c) for c in answer["unknown"]} == {divmod(k, 3) for k in range(9) if not known >> k & 1}
        if answer["simple"]:
            assert (answer["verdict"], answer["level"]) == ("unique", "line") and answer["steps"] >= 1 or g == 0
        else:
            assert answer["verdict"] in ("unique", "multiple") and answer["level"] in ("probing", "branching")


def test_analyze_is_the_api_and_says_the_server_time(client):
    grid = ["0110", "1001", "1111", "1001"]
    r = client.post("/api/analyze", json={"grid": grid})
    a = lc.api.puzzles.analyze(grid)
    answer = r.json()
    assert (answer["verdict"], answer["level"], answer["steps"], answer["simple"]) == (
        a.verdict,
        a.level,
        a.steps,
        a.simple,
    )
    assert r.headers["server-timing"].startswith("app;dur=")


def test_solve_gives_the_verdict_the_solutions_and_the_replay(client):
    answer = client.post("/api/solve", json={"rows": [[1, 1], [1], [3]], "columns": [[1, 1], [2], [1, 1]]}).json()
    assert (answer["verdict"], answer["level"], answer["steps"], answer["local"]) == ("unique", "line", 2, "solved")
    assert answer["solutions"] == [["101", "010", "111"]]
    replayed = {tuple(c) for s in answer["replay"] for c in s["filled"]}
    assert replayed == {(0, 0), (0, 2), (1, 1), (2, 0), (2, 1), (2, 2)}
    assert [s["line"] for s in answer["replay"]] == [s.line for s in lc.Puzzle.from_grid("101/010/111").explain()]


def test_solve_of_a_file_is_solve_json(client):
    from incli import cli

    text = (lc.Puzzle.read("stuck12")).to_string("non")
    answer = client.post("/api/solve", json={"text": text, "format": "non"}).json()
    _, out, _ = cli("solve", "stuck12", "--json")
    printed = json.loads(out)
    assert (answer["verdict"], answer["level"], answer["solutions"]) == (
        printed["verdict"],
        printed["level"],
        printed["solutions"],
    )
    assert answer["local"] == "stuck" and answer["replay"]


def test_a_colour_file_is_parsed_and_solved(client):
    text = (ROOT / "tests" / "puzzles" / "webpbn-color-00047.xml").read_text()
    parsed = client.post("/api/parse", json={"text": text}).json()
    assert parsed["format"] == "xml" and len(parsed["puzzle"]["palette"]) > 2
    solved = client.post("/api/solve", json={"text": text}).json()
    assert solved["verdict"] == "unique" and len(solved["solutions"][0]) == parsed["puzzle"]["n"]


@pytest.mark.parametrize("fmt", ["txt", "non", "nin", "tatham", "xml"])
def test_convert_is_convert(client, fmt):
    from incli import cli

    text = lc.Puzzle.read("cat").to_string("non")
    answer = client.post("/api/convert", json={"text": text, "to": fmt}).json()
    assert answer["text"] == cli("convert", "cat", "--to", fmt)[1]


def test_generate_design_simplify_and_example(client):
    g = client.post("/api/generate", json={"rows": 8, "columns": 9, "steps": "4-6", "seed": 3}).json()
    p = lc.generate(8, 9, steps="4-6", seed=3)
    assert g["grid"] == ["".join("1" if v else "0" for v in row) for row in p.goal.tolist()] and 4 <= g["steps"] <= 6
    pytest.importorskip("PIL")
    d = client.post("/api/design", json={"picture": "heart", "rows": 12, "columns": 10, "seed": 1}).json()
    assert d["grid"] == [
        "".join("1" if v else "0" for v in row) for row in lc.design("heart", (12, 10), seed=1).goal.tolist()
    ]
    changed = {(r, c) for r, row in enumerate(d["grid"]) for c, v in enumerate(row) if v != d["thresholded"][r][c]}
    assert changed == {tuple(c) for c in d["changed"]}
    png = (ROOT / "localcount" / "puzzle" / "shipped" / "pictures" / "heart.png").read_bytes()
    uploaded = {
        "image": "data:image/png;base64," + base64.b64encode(png).decode(),
        "rows": 12,
        "columns": 10,
        "seed": 1,
    }
    assert client.post("/api/design", json=uploaded).json()["grid"] == d["grid"]
    drawing = ["1101", "0110", "1011", "0111"]
    s = client.post("/api/simplify", json={"grid": drawing, "seed": 2}).json()
    assert client.post("/api/analyze", json={"grid": s["grid"]}).json()["simple"]
    assert {(r, c) for r in range(4) for c in range(4) if s["grid"][r][c] != drawing[r][c]} == {
        tuple(c) for c in s["changed"]
    }
    e = client.post("/api/example", json={"name": "cat"}).json()
    assert e["puzzle"]["title"] == lc.Puzzle.read("cat").title


def test_results_are_the_shipped_table(client):
    answer = client.get("/api/results").json()
    five = next(r for r in answer["nonogram"] if (r["n"], r["m"]) == (5, 5))
    assert int(five["count"]) == lc.known(5).count == 24976511
    assert len(answer["yesnogram"]) > 20 and client.get("/api/info").json()["max_side"] == web.MAX_SIDE


#: A 40x40 drawing of noise: local logic decides little of it, so making it simple takes long.
NOISE = [format(random.Random(r).getrandbits(40), "040b") for r in range(40)]

BAD = [
    ("/api/analyze", b"{not json", 400),
    ("/api/analyze", b"\xff\xfe", 400),
    ("/api/analyze", b"[1, 2]", 400),
    ("/api/analyze", {"grid": "101"}, 400),
    ("/api/analyze", {"grid": [1, 0]}, 400),
    ("/api/analyze", {}, 400),
    ("/api/analyze", {"grid": []}, 400),
    ("/api/analyze", {"grid": ["1" * 101]}, 400),
    ("/api/analyze", {"grid": ["1"] * 101}, 400),
    ("/api/analyze", {"grid": ["10", "1"]}, 422),
    ("/api/analyze", {"grid": ["12"]}, 422),
    ("/api/analyze", {"grid": ["10"], "timeout": 99}, 400),
    ("/api/analyze", {"grid": ["10"], "timeout": "soon"}, 400),
    ("/api/analyze", {"grid": ["10"], "variant": "maybe"}, 422),
    ("/api/solve", {"rows": [[5]], "columns": [[1]]}, 422),
    ("/api/solve", {"rows": [["a"]], "columns": [[1]]}, 400),
    ("/api/solve", {"rows": [[1]], "columns": [[1]], "method": "magic"}, 422),
    ("/api/solve", {"rows": [[1]] * 101, "columns": [[1]]}, 400),
    ("/api/solve", {"text": "hello world"}, 422),
    ("/api/solve", {"text": 5}, 400),
    ("/api/parse", {"text": '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>'}, 422),
    ("/api/parse", {"text": "1\n1\n1\n", "format": "bogus"}, 422),
    ("/api/convert", {"text": "1\n1\n1\n"}, 400),
    ("/api/convert", {"text": "1\n1\n1\n", "to": "bogus"}, 422),
    ("/api/generate", {"rows": 1000}, 400),
    ("/api/generate", {"rows": 0}, 400),
    ("/api/generate", {"rows": True}, 400),
    ("/api/generate", {"rows": 5, "steps": "x"}, 422),
    ("/api/generate", {"rows": 5, "steps": "99"}, 422),
    ("/api/generate", {"rows": 5, "timeout": 0}, 400),
    ("/api/generate", {"rows": 5, "timeout": 31}, 400),
    ("/api/generate", {"rows": 6, "steps": "25-", "seed": 1, "timeout": 0.5}, 422),  # none found in time
    ("/api/design", {"picture": "../../etc/passwd", "rows": 5}, 400),
    ("/api/design", {"image": "not base64!", "rows": 5}, 400),
    ("/api/design", {"image": base64.b64encode(b"not a picture").decode(), "rows": 5}, 422),
    ("/api/design", {"picture": "heart", "rows": 5, "threshold": 3}, 422),
    ("/api/simplify", {"grid": ["1"] * 200}, 400),
    ("/api/simplify", {"grid": NOISE, "timeout": 0.05}, 422),  # gave up: the page never waits for long
    ("/api/example", {"name": "../README"}, 404),
    ("/api/example", {"name": 7}, 400),
]


@pytest.mark.parametrize("path, data, status", BAD, ids=lambda v: str(v)[:40])
def test_a_bad_request_gets_a_4xx_and_one_line(client, path, data, status):
    kwargs = {"content": data} if isinstance(data, bytes) else {"json": data}
    r = client.post(path, **kwargs)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error and "\n" not in error and "Traceback" not in error


def png_header(width: int, height: int) -> bytes:
    """A PNG that says it is width x height (one bit a pixel) but holds one row: Pillow checks the size on opening."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 9)) + chunk(b"IEND", b"")


def test_a_huge_picture_is_refused_under_pillows_limit(client):
    PIL = pytest.importorskip("PIL.Image")
    side = int((2 * PIL.MAX_IMAGE_PIXELS) ** 0.5) + 100  # past twice Pillow's limit: a decompression bomb
    r = client.post("/api/design", json={"image": base64.b64encode(png_header(side, side)).decode(), "rows": 5})
    assert r.status_code == 422 and "too many pixels" in r.json()["error"], r.text


def test_an_oversized_body_is_refused_unread(client):
    r = client.post("/api/analyze", content=b" " * (web.MAX_BODY + 1))
    assert r.status_code == 413 and "2 MB" in r.json()["error"]
    r = client.post("/api/analyze", content=b"{}", headers={"content-length": "99999999"})
    assert r.status_code == 413


def test_unknown_paths_and_methods_answer_in_json(client):
    assert client.get("/api/nothing").status_code == 404 and client.get("/api/nothing").json()["error"]
    assert client.get("/api/analyze").status_code == 405 and client.get("/api/analyze").json()["error"]


def test_a_long_search_is_given_up_at_the_time_limit(client):
    hard = (ROOT / "tests" / "puzzles" / "webpbn-survey-knotty.xml").read_text()
    r = client.post("/api/solve", json={"text": hard, "method": "search", "timeout": 0.5}).json()
    assert r["verdict"] == "undecided" and not r["complete"] and r["seconds"] < 5


def test_serve_binds_loopback_and_warns_otherwise():
    from localcount.cli.serve import loopback

    assert loopback("127.0.0.1") and loopback("::1") and loopback("localhost") and loopback("127.3.4.5")
    assert not loopback("0.0.0.0") and not loopback("192.168.1.2") and not loopback("example.org")


def test_analyze_without_the_search_answers_local_logic_alone(client):
    stuck = ["10", "01"]  # two solutions: local logic decides nothing
    fast = client.post("/api/analyze", json={"grid": stuck, "search": False}).json()
    assert (fast["simple"], fast["verdict"], fast["level"], len(fast["unknown"])) == (False, None, None, 4)
    full = client.post("/api/analyze", json={"grid": stuck}).json()
    assert (full["verdict"], full["level"]) == ("multiple", "branching")
    simple = client.post("/api/analyze", json={"grid": ["11", "10"], "search": False}).json()
    assert (simple["simple"], simple["verdict"], simple["level"]) == (True, "unique", "line")
    assert client.post("/api/analyze", json={"grid": stuck, "search": "no"}).status_code == 400


def test_a_long_search_does_not_hold_up_other_tabs(client):
    import threading
    import time

    hard = (ROOT / "tests" / "puzzles" / "webpbn-survey-knotty.xml").read_text()
    slow = threading.Thread(
        target=client.post, args=("/api/solve",), kwargs={"json": {"text": hard, "method": "search", "timeout": 3}}
    )
    slow.start()
    time.sleep(0.3)  # the search is running in the pool
    start = time.perf_counter()
    assert client.post("/api/analyze", json={"grid": ["101", "010", "111"]}).json()["verdict"] == "unique"
    assert time.perf_counter() - start < 1.5 and slow.is_alive()  # answered while the other tab's search went on
    slow.join()


def test_serve_says_in_one_line_when_its_port_is_taken():
    import socket

    from incli import cli

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, out, err = cli("serve", "--port", str(port))
    assert (status, out) == (1, "") and err.count("\n") == 1 and "cannot listen on 127.0.0.1 port" in err


# --- every puzzle by its number: /api/nth, /api/rank, /api/indexes ---

FAMILIES = ("nonogram", "yesnogram")


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory):
    """The indexes of 3x3 and 4x4, both families, built into a directory of their own (well under a second each)."""
    from localcount.api import numbering

    where = tmp_path_factory.mktemp("index")
    for n in (3, 4):
        for variant in FAMILIES:
            numbering.build_numbering(n, n, variant=variant, directory=where)
    return where


@pytest.fixture
def indexed(index_dir, monkeypatch):
    """The library reads (and would build) its indexes in index_dir: the page offers those and the shipped ones."""
    from localcount.results import numberings

    monkeypatch.setenv(numberings.ENV_DIR, str(index_dir))
    return index_dir


def nth(client, n, m, k, **more):
    return client.post("/api/nth", json={"rows": n, "columns": m, "k": k, **more})


def row_runs(line: str, of: str = "1") -> list:
    return [len(run) for run in line.split("0" if of == "1" else "1") if run]


@pytest.mark.parametrize("variant", FAMILIES)
def test_nth_answers_every_3x3_puzzle_as_the_api_and_the_literal_order(client, indexed, variant):
    """Puzzle #k for every k: the API's nth, naive's order (k + 1 is the next grid that local logic solves), the clues."""
    from naive import numbered

    from localcount.api import numbering

    reference = numbered(3, 3, variant)
    last, family = len(reference), "" if variant == "nonogram" else f" {variant}"
    answers = [nth(client, 3, 3, k, variant=variant).json() for k in range(1, last + 2)]
    assert answers[-1]["error"] == f"k must be between 1 and {last} (3x3{family} puzzles), got {last + 1}"
    for k, (answer, (rows, steps)) in enumerate(zip(answers, reference), 1):
        x = numbering.nth(3, 3, k, variant=variant, build=False)
        assert {key: answer[key] for key in x.to_json()} == x.to_json() and answer["title"] == x.title
        assert (answer["k"], answer["of"], answer["grid"], answer["steps"]) == (k, last, list(rows), steps)
        assert answer["number"] == numbering.number_of(rows) and "within_steps" not in answer
        p = answer["puzzle"]
        assert (p["n"], p["m"], p["variant"], p["goal"], p["title"]) == (3, 3, variant, list(rows), x.title)
        assert p["rows"] == [list(c) for c in x.puzzle.rows] and p["columns"] == [list(c) for c in x.puzzle.columns]
        assert p["rows"] == [row_runs(r, "0" if variant == "yesnogram" else "1") for r in rows]
        assert p["columns"] == [row_runs("".join(col)) for col in zip(*rows)]
        assert lc.Puzzle.parse(answer["text"], "non").rows == x.puzzle.rows
    numbers = [a["number"] for a in answers[:-1]]
    assert numbers == sorted(set(numbers)) and numbers[0] == 0  # #1 is the empty grid; next is always a larger number


def test_steps_number_only_the_puzzles_of_those_steps_in_the_same_order(client, indexed):
    from naive import numbered

    from localcount.api import numbering

    reference = [numbering.number_of(rows) for rows, _ in numbered(3, 3)], [steps for _, steps in numbered(3, 3)]
    for steps in (1, 2, 3, "1-2", "2-3"):
        a, b = numbering.steps_range(steps)
        expected = [g for g, d in zip(*reference) if a <= d <= b]
        ks = range(1, len(expected) + 1) if a == b else (1, 2, len(expected) // 2, len(expected))  # ranges: a few
        got = [nth(client, 3, 3, k, steps=steps).json() for k in ks]
        assert [x["number"] for x in got] == [expected[k - 1] for k in ks] and {x["of"] for x in got} == {len(expected)}
        assert all(x["within_steps"] == [a, b] and a <= x["steps"] <= b for x in got)
        assert nth(client, 3, 3, len(expected) + 1, steps=steps).status_code == 422
    histogram = numbering.numbering(4, 4, variant="yesnogram", build=False).file.steps()
    for d, count in histogram.items():
        for k in (1, count):
            answer = nth(client, 4, 4, k, steps=d, variant="yesnogram").json()
            x = numbering.nth(4, 4, k, steps=d, variant="yesnogram", build=False)
            assert (answer["number"], answer["steps"], answer["of"]) == (x.number, d, count)


@pytest.mark.parametrize("variant", FAMILIES)
def test_rank_numbers_a_painted_grid_or_says_in_one_line_why_not(client, indexed, variant):
    """Every 3x3 grid: rank gives the k that nth answers for it; a grid local logic does not solve is a 422."""
    from naive import numbered

    from localcount.api import numbering

    number_of = {rows: (k, steps) for k, (rows, steps) in enumerate(numbered(3, 3, variant), 1)}
    for g in range(1 << 9):
        rows = tuple(format(g, "09b")[r * 3 : r * 3 + 3] for r in range(3))
        r = client.post("/api/rank", json={"grid": list(rows), "variant": variant})
        if rows not in number_of:
            assert (
                r.status_code == 422
                and r.json()["error"] == "local logic does not solve this grid's clues: it has no number"
            )
            continue
        k, steps = number_of[rows]
        answer = r.json()
        assert (answer["k"], answer["number"], answer["steps"], answer["grid"]) == (k, g, steps, list(rows))
        assert answer == dict(numbering.rank(list(rows), variant=variant, build=False).to_json(), title=answer["title"])
        if k % 10 == 1:  # and among the puzzles of its steps (not of others), for some of them
            within = client.post("/api/rank", json={"grid": list(rows), "variant": variant, "steps": steps}).json()
            assert within["within_steps"] == [steps, steps] and within["k"] <= k
            assert nth(client, 3, 3, within["k"], variant=variant, steps=steps).json()["number"] == g
            other = client.post("/api/rank", json={"grid": list(rows), "variant": variant, "steps": steps % 3 + 1})
            assert other.status_code == 422 and other.json()["error"].endswith("it has no number there")


def test_indexes_offers_the_sizes_with_an_index_and_nothing_else(client, indexed):
    from localcount.api import numbering
    from localcount.results import numberings

    (indexed / "2x2.npz").write_bytes(b"not an index")  # unusable: not offered, a one-line 422 if asked for
    (indexed / "9x9.npz").write_bytes(b"too big to number")
    try:
        answer = client.get("/api/indexes").json()["indexes"]
        offered = {(s["n"], s["m"], s["variant"]) for s in answer}
        shipped = {(int(p.name.split("x")[0]), int(p.name.split("x")[1].split("-")[0].split(".")[0]),
                    "yesnogram" if "-yes" in p.name else "nonogram") for p in numberings.SHIPPED.glob("*.npz")}  # fmt: skip
        assert offered == {(n, n, v) for n in (3, 4) for v in FAMILIES} | shipped
        for s in answer:
            order = numbering.numbering(s["n"], s["m"], variant=s["variant"], build=False)
            assert s["puzzles"] == order.total() == sum(s["steps"].values())
            assert s["steps"] == {str(d): v for d, v in order.file.steps().items()}
        r = nth(client, 2, 2, 1)
        assert (
            r.status_code == 422 and "not a readable index file" in r.json()["error"] and "\n" not in r.json()["error"]
        )
    finally:
        (indexed / "2x2.npz").unlink()
        (indexed / "9x9.npz").unlink()


def test_a_request_never_builds_an_index(client, indexed):
    r = nth(client, 3, 4, 1)
    assert (
        r.status_code == 422
        and r.json()["error"] == "3x4 has no index yet: build it with python -m localcount index 3 4"
    )
    r = client.post("/api/rank", json={"grid": ["1000", "0000", "0000"]})
    assert r.status_code == 422 and "has no index yet" in r.json()["error"]
    r = nth(client, 3, 4, 1, variant="yesnogram")
    assert r.json()["error"].endswith("python -m localcount index 3 4 --variant yesnogram")
    assert not list(indexed.glob("3x4*"))


def test_5x5_puzzle_1234_of_24976511(client, tmp_path, monkeypatch):
    """The size the page opens on: the shipped index."""
    from localcount.api import numbering
    from localcount.results import numberings

    monkeypatch.setenv(numberings.ENV_DIR, str(tmp_path))
    assert numberings.find(5, 5) == numberings.SHIPPED / "5x5.npz"
    answer = nth(client, 5, 5, 1234).json()
    assert answer["of"] == lc.known(5).count == 24976511
    assert (
        answer["grid"]
        == list(numbering.nth(5, 5, 1234, build=False).rows)
        == ["00000", "00000", "00001", "11000", "10011"]
    )
    after = nth(client, 5, 5, 1235).json()
    assert after["number"] > answer["number"] and nth(client, 5, 5, 1233).json()["number"] < answer["number"]
    assert client.post("/api/rank", json={"grid": after["grid"]}).json()["k"] == 1235
    assert nth(client, 5, 5, 24976511).json()["grid"] == ["11111"] * 5
    offered = client.get("/api/indexes").json()["indexes"]
    assert any((s["n"], s["m"], s["variant"], s["puzzles"]) == (5, 5, "nonogram", 24976511) for s in offered)


EVERY_BAD = [
    ("/api/nth", {"rows": 3, "columns": 3, "k": 0}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": -5}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 385}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 10**30}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": "7"}, 400),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1.5}, 400),
    ("/api/nth", {"rows": 3, "columns": 3, "k": True}, 400),
    ("/api/nth", {"rows": 3, "columns": 3}, 400),
    ("/api/nth", {"k": 1}, 400),
    ("/api/nth", {"rows": 0, "k": 1}, 400),
    ("/api/nth", {"rows": 101, "k": 1}, 400),
    ("/api/nth", {"rows": 7, "columns": 7, "k": 1}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "steps": "x"}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "steps": "0"}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "steps": "3-2"}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "steps": ""}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "steps": 99}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "steps": [1, 2]}, 400),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "variant": "maybe"}, 422),
    ("/api/nth", {"rows": 3, "columns": 3, "k": 1, "variant": 3}, 400),
    ("/api/nth", b"{not json", 400),
    ("/api/rank", {"grid": ["100", "010", "001"]}, 422),
    ("/api/rank", {"grid": ["102", "010", "001"]}, 422),
    ("/api/rank", {"grid": ["10", "010", "001"]}, 422),
    ("/api/rank", {"grid": "100/010/001"}, 400),
    ("/api/rank", {"grid": []}, 400),
    ("/api/rank", {}, 400),
    ("/api/rank", {"grid": ["1" * 7] * 7}, 422),
    ("/api/rank", {"grid": ["111", "101", "111"], "steps": "7"}, 422),
    ("/api/rank", {"grid": ["111", "101", "111"], "steps": "many"}, 422),
]


@pytest.mark.parametrize("path, data, status", EVERY_BAD, ids=lambda v: str(v)[:40])
def test_a_bad_number_request_gets_a_4xx_and_one_line(client, indexed, path, data, status):
    kwargs = {"content": data} if isinstance(data, bytes) else {"json": data}
    r = client.post(path, **kwargs)
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error and "\n" not in error and "Traceback" not in error


def test_a_live_answer_never_waits_behind_a_search_and_a_full_search_pool_answers_503(monkeypatch):
    import concurrent.futures
    import time
    import urllib.error
    import urllib.request

    monkeypatch.setattr(tuning, "WEB_SEARCH_WORKERS", (1, 1))
    rng = random.Random(5)
    big = ["".join(rng.choice("01") for _ in range(100)) for _ in range(100)]  # a random drawing: searched to its limit
    small = ["".join(rng.choice("01") for _ in range(30)) for _ in range(30)]
    puzzle = {"rows": [[1, 1], [1], [3]], "columns": [[1, 1], [2], [1, 1]]}

    def post(base, path, data):
        req = urllib.request.Request(base + path, json.dumps(data).encode(), {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    with web.running() as base, concurrent.futures.ThreadPoolExecutor(1) as other:
        assert post(base, "/api/solve", puzzle)[0] == 200  # the search process started
        start = time.perf_counter()
        search = other.submit(post, base, "/api/analyze", {"grid": big, "timeout": 4})
        for _ in range(40):  # until the search holds the one search process (a busy machine may take a moment)
            time.sleep(0.05)
            status, busy = post(base, "/api/solve", puzzle)
            if status == 503:
                break
        assert status == 503 and "busy" in busy["error"] and "\n" not in busy["error"]
        live = time.perf_counter()
        status, answer = post(base, "/api/analyze", {"grid": small, "search": False})
        assert (
            status == 200 and answer["verdict"] is None and time.perf_counter() - live < 3
        )  # loose: the bench measures it
        status, hint = post(base, "/api/hint", {**puzzle, "marks": ["...", "...", "..."]})
        assert status == 200 and hint["line"] == "row 1"
        status, answer = search.result()
        assert status == 200 and answer["verdict"] in ("undecided", "unique", "multiple")
        assert time.perf_counter() - start < 4 + 6  # its time limit holds (loose: a busy CI machine, niced search)
        # the pool is free again once the search's worker is done: a search the answer gave up on (``web.analysis``:
        # local logic's answer at its timeout + tuning.WEB_GRACE) runs on in its worker, which keeps its place, to its
        # own deadline
        for _ in range(60):
            if post(base, "/api/solve", puzzle)[0] == 200:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the search pool stayed busy 6 s after the search's answer")


def test_a_worker_process_that_dies_costs_one_answer_not_the_server(client):
    import os
    import signal

    puzzle = {"rows": [[1, 1], [1], [3]], "columns": [[1, 1], [2], [1, 1]], "marks": ["...", "...", "..."]}
    assert client.post("/api/hint", json=puzzle).status_code == 200  # the live workers are up
    pool = client.app.state.live
    for pid in list(pool._pool._processes):
        os.kill(pid, signal.SIGKILL)
    answers = [client.post("/api/hint", json=puzzle) for _ in range(3)]
    assert answers[0].status_code == 503 and "ask again" in answers[0].json()["error"]
    assert answers[-1].status_code == 200 and answers[-1].json()["line"] == "row 1"
