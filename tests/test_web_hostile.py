"""Hostile requests to every endpoint of the page's server (``localcount.web.app``, issue 69: no 500 on any request):
JSON nested thousands of levels deep, wrong types in every field, oversized bodies, invalid UTF-8, non-JSON.  Every
answer is a 4xx (or a 200) with one line of error, and the server logs at most one line a request, never a
traceback.  The app runs in-process, through Starlette's TestClient, as in tests/test_web.py."""

import base64
import json
import logging
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx's successor
    from starlette.testclient import TestClient

from localcount.web import app as web

PUZZLE = {"rows": [[1, 1], [1], [3]], "columns": [[1, 1], [2], [1, 1]]}
SOLUTION = ["101", "010", "111"]
TEXT = "1 1\n1\n3\n\n1 1\n2\n1 1\n"

#: Each POST endpoint: a request it answers quickly, and the fields it reads (each is given every wrong value).
REQUESTS = [
    ("analyze", {"grid": SOLUTION}, ["grid", "variant", "timeout", "search"]),
    ("solve", PUZZLE, ["rows", "columns", "variant", "method", "timeout", "text"]),
    ("solve", {"text": TEXT}, ["text", "format", "variant"]),
    ("hint", {**PUZZLE, "marks": ["...", "...", "..."], "solution": SOLUTION}, ["rows", "columns", "marks", "solution"]),
    ("hint", {"text": TEXT, "marks": ["...", "...", "..."]}, ["text", "format", "variant"]),
    ("parse", {"text": TEXT}, ["text", "format", "variant"]),
    ("convert", {"text": TEXT, "to": "non"}, ["text", "to", "format"]),
    ("generate", {"rows": 3, "columns": 3, "seed": 1, "timeout": 0.5}, ["rows", "columns", "steps", "seed", "timeout"]),
    ("design", {"picture": "heart", "rows": 5, "columns": 5, "seed": 1}, ["picture", "rows", "columns", "threshold",
                                                                          "steps", "seed", "timeout"]),
    ("design", {"image": base64.b64encode(b"not a picture").decode(), "rows": 5}, ["image"]),
    ("simplify", {"grid": SOLUTION, "seed": 1}, ["grid", "seed", "timeout"]),
    ("example", {"name": "cat"}, ["name"]),
    ("nth", {"rows": 3, "columns": 3, "k": 1}, ["rows", "columns", "k", "steps", "variant"]),
    ("rank", {"grid": ["000", "000", "000"]}, ["grid", "steps", "variant"]),
]  # fmt: skip
POSTS = sorted({name for name, _, _ in REQUESTS})
GETS = ["indexes", "results", "info"]
#: Wrong values of every JSON type: a string where a list is, numbers where strings are, null, booleans, containers.
WRONG = ["x", "", 7, -1, 1.5, 10**30, None, True, False, [], {}, ["x"], [7], [None], [[[]]], {"a": 1}]
DEEP = 5000


def deep(levels: int, kind: str = "array") -> bytes:
    """JSON nested ``levels`` deep: ``[[[…]]]``, or ``{"rows": {"rows": …}}``."""
    if kind == "array":
        return b"[" * levels + b"]" * levels
    return b'{"rows": ' * levels + b"1" + b"}" * levels


@pytest.fixture(scope="module")
def client():
    """The app with its lifespan, as ``serve`` runs it; an exception that escapes the app (a traceback in a real
    server's log) fails the test instead of becoming a 500."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        app = TestClient(web.create_app(), raise_server_exceptions=True)
    with app:
        yield app


@pytest.fixture
def ask(client, caplog):
    """``ask(method, path, **kwargs)``: the response, checked: not a 5xx, its error one line, and at most one line
    in the server's log for it (records of the client's own logger, httpx, are not the server's)."""
    caplog.set_level(logging.DEBUG)

    def request(method: str, path: str, **kwargs):
        caplog.clear()
        r = client.request(method, path, **kwargs)
        server = [rec for rec in caplog.records if not rec.name.startswith(("httpx", "httpcore"))]
        described = f"{method} {path} {str(kwargs)[:120]}"
        assert r.status_code < 500, f"{described}: {r.status_code} {r.text[:200]}"
        assert len(server) <= 1 and not any(rec.exc_info for rec in server), f"{described}: logged {server}"
        assert all("Traceback" not in rec.getMessage() for rec in server), described
        if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
            error = r.json()["error"]
            assert error and "\n" not in error and "Traceback" not in error, f"{described}: {error!r}"
        return r

    return request


# --- issue 69's bugs, one by one ---


@pytest.mark.parametrize("name", POSTS)
@pytest.mark.parametrize("kind", ["array", "object"])
@pytest.mark.parametrize("levels", [1000, DEEP])
def test_deeply_nested_json_is_a_400_that_names_the_limit(ask, name, kind, levels):
    r = ask("POST", f"/api/{name}", content=deep(levels, kind))
    assert r.status_code == 400 and f"nested more than {web.MAX_NESTING} levels" in r.json()["error"], r.text


def test_nesting_up_to_the_limit_is_read(ask):
    inside = deep(web.MAX_NESTING - 2).decode()  # in a list, in the request's object: MAX_NESTING levels
    r = ask("POST", "/api/analyze", content=f'{{"grid": [{inside}]}}')
    assert r.status_code == 400 and "'grid' must be" in r.json()["error"], r.text
    r = ask("POST", "/api/analyze", content=f'{{"grid": [[{inside}]]}}')
    assert r.status_code == 400 and "nested more than" in r.json()["error"], r.text


def test_brackets_inside_strings_are_not_nesting(ask):
    text = "[" * DEEP + '\\"{' * DEEP  # a string of brackets and escaped quotes is one level, however many
    r = ask("POST", "/api/parse", json={"text": text})
    assert r.status_code == 422, r.text


@pytest.mark.parametrize("marks", [[1, 2, 3], ["...", None, "..."], [["..."], "...", "..."], ["...", True, "..."]])
def test_marks_of_a_wrong_type_are_a_400_as_documented(ask, marks):
    r = ask("POST", "/api/hint", json={**PUZZLE, "marks": marks})
    assert r.status_code == 400 and "'marks'" in r.json()["error"], r.text


def test_marks_of_a_wrong_character_or_size_stay_a_422(ask):
    for marks in (["..2", "...", "..."], ["...", "..."], [".", "...", "..."]):
        assert ask("POST", "/api/hint", json={**PUZZLE, "marks": marks}).status_code == 422


@pytest.mark.parametrize("solution", [["111", "010", "111"], ["000", "000", "000"], ["010", "101", "000"]])
def test_a_solution_that_contradicts_the_clues_is_refused(ask, solution):
    r = ask("POST", "/api/hint", json={**PUZZLE, "marks": ["...", "...", "..."], "solution": solution})
    assert r.status_code == 422 and "does not fit the clues" in r.json()["error"], r.text  # refused content


def test_a_solution_that_fits_the_clues_is_used(ask):
    r = ask("POST", "/api/hint", json={**PUZZLE, "marks": ["1..", "1..", "..."], "solution": SOLUTION})
    assert r.status_code == 200 and r.json()["mistakes"] == [[1, 0]], r.text


# --- every endpoint, every hostile request ---


def test_every_route_of_the_app_is_covered():
    assert set(web.ENDPOINTS) == set(POSTS) | set(GETS)
    assert all(web.ENDPOINTS[name][1] == "POST" for name in POSTS)


@pytest.mark.parametrize("name, base, fields", REQUESTS, ids=lambda v: v if isinstance(v, str) else "")
def test_wrong_types_in_every_field_are_a_4xx(ask, name, base, fields):
    assert ask("POST", f"/api/{name}", json=base).status_code in (200, 422)  # the request itself is fine
    for key in fields:
        for value in WRONG:
            ask("POST", f"/api/{name}", json={**base, key: value})
            if isinstance(base.get(key), list) and base[key]:  # and each item of a list
                ask("POST", f"/api/{name}", json={**base, key: [value, *base[key][1:]]})
        ask("POST", f"/api/{name}", json={k: v for k, v in base.items() if k != key})
        ask("POST", f"/api/{name}", content=json.dumps({**base, key: "\ud800[" + TEXT}))  # a lone surrogate, echoed
        ask("POST", f"/api/{name}", json={**base, key: [deep(DEEP // 2).decode()]})


BAD_BODIES = [
    b"",
    b"{not json",
    b"null",
    b"[]",
    b'"a string"',
    b"7",
    b"{}",
    b'{"grid": NaN}',
    b'{"timeout": Infinity, "rows": -Infinity}',
    b'{"k": 1' + b"0" * 5000 + b"}",
    b"\xff\xfe\x00",
    b'{"text": "\xff"}',
    b'{"grid": ["\xed\xa0\x80"]}',  # a UTF-8 surrogate: not UTF-8
    b'\xef\xbb\xbf{"name": "cat"}',
    b'{"name": "\\ud800"}',  # a lone surrogate, escaped
    b'{"name": "cat"',
    b'{"name": "cat"}}',
    b"[" * 10 + b'"',
    b"\x00" * 100,
]


@pytest.mark.parametrize("name", POSTS)
def test_non_json_invalid_utf8_and_oversized_bodies_are_a_4xx(ask, name):
    for content in BAD_BODIES:
        assert 400 <= ask("POST", f"/api/{name}", content=content).status_code < 500
    for content in (b"[" * (web.MAX_BODY + 1), b"1" * (web.MAX_BODY + 1)):
        r = ask("POST", f"/api/{name}", content=content)
        assert r.status_code == 413 and "2 MB" in r.json()["error"], r.text
    r = ask("POST", f"/api/{name}", content=b"{}", headers={"content-length": "-1"})
    assert 400 <= r.status_code < 500
    assert ask("GET", f"/api/{name}").status_code == 405


@pytest.mark.parametrize("name", GETS)
def test_the_gets_ignore_bodies_and_refuse_posts(ask, name):
    assert ask("GET", f"/api/{name}", params={"x": "[" * 100}).status_code == 200
    assert ask("POST", f"/api/{name}", content=deep(DEEP)).status_code == 405


def test_other_paths_are_a_4xx(ask):
    for path in ("/api/", "/api/nothing", "/static/../app.py", "/static/%2e%2e/app.py", "/static/nothing.js"):
        assert 400 <= ask("GET", path).status_code < 500
    assert ask("DELETE", "/").status_code == 405
