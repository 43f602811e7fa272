#!/usr/bin/env python
"""Time the page's analysis of a drawing: ``POST /api/analyze`` after one edit, server time, median and worst.

    python scripts/bench_web.py                 # 30x30 and 100x100, 21 edits each
    python scripts/bench_web.py --sizes 30,60 --edits 51 --timeout 5

For each size it draws two kinds of picture and edits each one cell at a
time (a random cell flipped, seeded), asking ``/api/analyze`` after every
edit as the page does: *simple*, the shipped pictures made simple by
``design`` at that size (edits that keep or break simplicity, as a puzzle
maker's do), and *random*, a random drawing at density 0.55 that local
logic cannot solve, whose uniqueness the search tries until ``--timeout``.
The time is the server's, from the ``Server-Timing`` header: the handler
from the request's body to the answer, without the network.  Each edit is
asked twice, as the page asks: ``search: false`` (clues, local logic,
difficulty, unknown cells: the live answer) and then with the search for
uniqueness (given up at ``--timeout``).  The page's budget for the live
answer: 50 ms at 30x30, 300 ms at 100x100 (median of an edit).

    python scripts/bench_web.py --load          # live answers while searches run, over real HTTP

``--load``: the server on a local port (uvicorn, as ``serve``), ``--searches``
(default 4) searches of random 100x100 drawings in flight (time limit
``--search-timeout``, default 10 s, each asked again as soon as it is
answered), and ``--clients`` (default 20) clients sending ``--live``
(default 400) analyses without the search of 30x30 drawings between them,
each client editing a random drawing of its own one cell at a time and
asking after each edit, as the page does, on a keep-alive connection of its
own (``Connection``): the live answers' wall time, client side, p50, p95
and max (target on 2 cores: p95 at most 200 ms), and each search's time
against its limit.  A search asked for while the search pool is full is
refused at once (503): counted, not timed.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import warnings

import localcount as lc

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from localcount.web.app import create_app

PICTURES = ("heart", "moon", "smiley")


def drawings(kind: str, n: int, rng: random.Random) -> list:
    """Row strings of the starting drawings of a kind at n x n."""
    if kind == "simple":
        return [
            ["".join("1" if v else "0" for v in row) for row in lc.design(p, (n, n), seed=1).goal.tolist()]
            for p in PICTURES
        ]
    return [["".join("1" if rng.random() < 0.55 else "0" for _ in range(n)) for _ in range(n)]]


def edited(rows: list, rng: random.Random) -> list:
    r, c = rng.randrange(len(rows)), rng.randrange(len(rows[0]))
    row = rows[r]
    return rows[:r] + [row[:c] + ("0" if row[c] == "1" else "1") + row[c + 1 :]] + rows[r + 1 :]


def post(base: str, path: str, data: dict) -> tuple:
    """(status, seconds) of one request over HTTP."""
    import json
    import time
    import urllib.error
    import urllib.request

    req = urllib.request.Request(base + path, json.dumps(data).encode(), {"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            r.read()
            status = r.status
    except urllib.error.HTTPError as err:
        status = err.code
    return status, time.perf_counter() - start


class Connection:
    """One keep-alive HTTP/1.1 connection, as a browser tab keeps: ``post`` a JSON body, read the answer.

    Written out rather than taken from an HTTP client library: the clients run on the server's two cores, and a
    visitor's browser does not, so they must cost it little (httpx cost about 4 ms of CPU a request here, more
    than the server's own answer).
    """

    def __init__(self, reader, writer, host: str):
        self.reader, self.writer, self.host = reader, writer, host

    @classmethod
    async def open(cls, base: str) -> Connection:
        import asyncio
        import urllib.parse

        url = urllib.parse.urlsplit(base)
        reader, writer = await asyncio.open_connection(url.hostname, url.port)
        return cls(reader, writer, url.netloc)

    async def post(self, path: str, data: dict) -> tuple:
        """(status, body bytes) of a POST of ``data`` as JSON."""
        import json
        import re

        body = json.dumps(data).encode()
        head = f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
        self.writer.write(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        answer = await self.reader.readuntil(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length: *(\d+)", answer)
        if length is None:
            raise RuntimeError(f"{path}: an answer without Content-Length: {answer[:200]!r}")
        return int(answer.split(b" ", 2)[1]), await self.reader.readexactly(int(length.group(1)))

    def close(self) -> None:
        self.writer.close()


def percentile(values: list, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


@contextlib.contextmanager
def served():
    """``python -m localcount serve`` on a free local port, in a process of its own (the clients' threads here
    must not share its GIL): yields its base URL."""
    import socket
    import subprocess
    import time
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "localcount", "serve", "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/info", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the server did not start on port {port}") from None
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(10)


def load(searches: int, clients: int, live: int, seed: int, limit: float = 10.0) -> int:
    """The load case: live analyses of 30x30 drawings while searches of 100x100 drawings run.

    The clients are asyncio tasks in this one thread (threads here would wait for each other's GIL and add that
    to the times they measure), each on a keep-alive connection of its own (``Connection``), as a browser tab
    keeps one."""
    import asyncio
    import time

    rng = random.Random(seed)
    big = [drawings("random", 100, rng)[0] for _ in range(searches)]
    per = -(-live // clients)
    # each client edits a drawing of its own one cell at a time and asks after each edit, as the page does
    edits = []
    for _ in range(clients):
        rows = drawings("random", 30, rng)[0]
        edits.append([rows := edited(rows, rng) for _ in range(per)])

    async def timed(http, body) -> tuple:
        start = time.perf_counter()
        status, _ = await http.post("/api/analyze", body)
        return status, time.perf_counter() - start

    async def run(base) -> tuple:
        first = await Connection.open(base)
        await first.post("/api/solve", {"rows": [[1]], "columns": [[1]]})  # the search processes start
        stop, search_times, refused = asyncio.Event(), [], [0]

        async def searcher(rows):
            http = await Connection.open(base)
            while not stop.is_set():
                status, seconds = await timed(http, {"grid": rows, "timeout": limit})
                if status == 503:
                    refused[0] += 1
                    await asyncio.sleep(0.5)
                else:
                    search_times.append(seconds)
            http.close()

        async def client(drawings_):
            http = await Connection.open(base)
            answers = [await timed(http, {"grid": rows, "search": False}) for rows in drawings_]
            http.close()
            return answers

        searching = [asyncio.create_task(searcher(rows)) for rows in big]
        await asyncio.sleep(1.0 if big else 0)  # the searches are in flight
        answers = [a for batch in await asyncio.gather(*(client(e) for e in edits)) for a in batch]
        stop.set()
        await asyncio.gather(*searching)
        first.close()
        return answers, search_times, refused[0]

    with served() as base:
        answers, search_times, refused = asyncio.run(run(base))
    times = [1000 * s for status, s in answers if status == 200]
    print(
        f"# localcount {lc.__version__}: {len(answers)} live analyses (30x30, no search) from {clients} clients, "
        f"{searches} searches of 100x100 (timeout {limit:g} s) in flight; wall ms, client side"
    )
    print(
        f"live: {len(times)} answered, p50 {percentile(times, 0.5):.1f}, p95 {percentile(times, 0.95):.1f}, "
        f"max {max(times):.1f}"
    )
    if search_times:
        print(
            f"searches: {len(search_times)} answered, {min(search_times):.2f}-{max(search_times):.2f} s "
            f"(limit {limit:g} s), {refused} refused (503: pool full)"
        )
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="30,100", help="square sizes, comma-separated (default 30,100)")
    ap.add_argument("--edits", type=int, default=21, help="edits per drawing (default 21)")
    ap.add_argument(
        "--timeout", type=float, default=5.0, help="the search's time limit, seconds (default 5, as the page)"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--load", action="store_true", help="the load case instead: live answers while searches run")
    ap.add_argument("--searches", type=int, default=4, help="--load: searches in flight (default 4)")
    ap.add_argument("--clients", type=int, default=20, help="--load: live clients (default 20)")
    ap.add_argument("--live", type=int, default=400, help="--load: live analyses (default 400)")
    ap.add_argument("--search-timeout", type=float, default=10.0, help="--load: the searches' time limit (default 10)")
    args = ap.parse_args(argv)
    if args.load:
        return load(args.searches, args.clients, args.live, args.seed, args.search_timeout)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app())
    print(f"# localcount {lc.__version__}: POST /api/analyze after one edit, server time (Server-Timing), ms")
    print(
        f"{'size':>7} {'kind':<7} {'edits':>5} {'simple':>6} {'local median':>12} {'worst':>8} {'search median':>13} {'worst':>8}  verdicts"
    )
    for n in (int(s) for s in args.sizes.split(",")):
        for kind in ("simple", "random"):
            rng = random.Random(args.seed)
            local, searched, simple, verdicts = [], [], 0, {}
            for rows in drawings(kind, n, rng):
                for _ in range(args.edits):
                    rows = edited(rows, rng)
                    for times, search in ((local, False), (searched, True)):
                        r = client.post("/api/analyze", json={"grid": rows, "timeout": args.timeout, "search": search})
                        times.append(float(r.headers["server-timing"].split("dur=")[1]))
                    answer = r.json()
                    simple += answer["simple"]
                    verdicts[answer["verdict"]] = verdicts.get(answer["verdict"], 0) + 1
            print(
                f"{n:>3}x{n:<3} {kind:<7} {len(local):>5} {simple:>6} {statistics.median(local):>12.1f} {max(local):>8.1f} "
                f"{statistics.median(searched):>13.1f} {max(searched):>8.1f}  "
                + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())),
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
