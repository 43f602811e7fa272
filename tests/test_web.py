"""The page's HTTP API (``localcount.web.app``, docs/web.md) through Starlette's TestClient: every endpoint against
the Python API and the naive reference, and bad requests of every kind (a 4xx with one line, never a 500)."""

import base64
import io
import json
import pathlib
import random
import warnings

import pytest

import localcount as lc
from naive import clues_of, solve_grid

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx's successor
    from starlette.testclient import TestClient

from localcount.web import app as web  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(web.create_app(), raise_server_exceptions=False)


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
    assert (answer["verdict"], answer["level"], answer["steps"], answer["simple"]) == (a.verdict, a.level, a.steps, a.simple)
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
    assert (answer["verdict"], answer["level"], answer["solutions"]) == (printed["verdict"], printed["level"], printed["solutions"])
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
    assert d["grid"] == ["".join("1" if v else "0" for v in row) for row in lc.design("heart", (12, 10), seed=1).goal.tolist()]
    changed = {(r, c) for r, row in enumerate(d["grid"]) for c, v in enumerate(row) if v != d["thresholded"][r][c]}
    assert changed == {tuple(c) for c in d["changed"]}
    png = (ROOT / "localcount" / "puzzle" / "shipped" / "pictures" / "heart.png").read_bytes()
    uploaded = {"image": "data:image/png;base64," + base64.b64encode(png).decode(), "rows": 12, "columns": 10, "seed": 1}
    assert client.post("/api/design", json=uploaded).json()["grid"] == d["grid"]
    drawing = ["1101", "0110", "1011", "0111"]
    s = client.post("/api/simplify", json={"grid": drawing, "seed": 2}).json()
    assert client.post("/api/analyze", json={"grid": s["grid"]}).json()["simple"]
    assert {(r, c) for r in range(4) for c in range(4) if s["grid"][r][c] != drawing[r][c]} == {tuple(c) for c in s["changed"]}
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


def test_a_huge_picture_is_refused_under_pillows_limit(client, monkeypatch):
    PIL = pytest.importorskip("PIL.Image")
    monkeypatch.setattr(PIL, "MAX_IMAGE_PIXELS", 1000)  # a 100x100 picture is then a decompression bomb
    buffer = io.BytesIO()
    PIL.new("L", (100, 100)).save(buffer, "PNG")
    r = client.post("/api/design", json={"image": base64.b64encode(buffer.getvalue()).decode(), "rows": 5})
    assert r.status_code == 422 and "too many pixels" in r.json()["error"]


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
    slow = threading.Thread(target=client.post, args=("/api/solve",), kwargs={"json": {"text": hard, "method": "search", "timeout": 3}})
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
