"""``python -m localcount serve``: the page for puzzle makers and players, on a local web server.

    python -m localcount serve                 # http://127.0.0.1:8000/
    python -m localcount serve --port 8080 --open

It binds 127.0.0.1 unless ``--host`` says otherwise (then it warns: the
page has no login).  Needs the extra ``web`` (Starlette and uvicorn).
Exit status: 0 stopped, 1 the address cannot be listened on (in use, say),
2 bad arguments or the extra missing.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import socket
import threading
import webbrowser

from ..util.messages import Parser, say


def parser() -> argparse.ArgumentParser:
    """The arguments of ``serve``."""
    ap = Parser(prog="python -m localcount serve", description="Serve the page: draw or type a puzzle, see local "
                "logic live, replay the steps, open, save, generate, design and play puzzles with hints (see docs/web.md).")  # fmt: skip
    ap.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    ap.add_argument("--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1: this machine only)")
    ap.add_argument("--open", action="store_true", help="open the page in a browser")
    return ap


def loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def cannot_listen(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (e.g. 'Address already in use'), or None if it can."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as err:
        return err.strerror or str(err)
    return None


def main(argv) -> int:
    """``serve``; returns the exit status."""
    args = parser().parse_args(argv)
    if not 0 < args.port < 65536:
        say(f"error: serve: --port must be 1 to 65535, got {args.port}")
        return 2
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError:
        say("error: the page needs Starlette and uvicorn: pip install 'localcount[web]'")
        return 2
    problem = cannot_listen(args.host, args.port)
    if problem:
        say(f"error: serve: cannot listen on {args.host} port {args.port}: {problem}")
        return 1
    if not loopback(args.host):
        say(f"warning: serving on {args.host}: anyone who can reach it can use the page (it has no login)")
    url = f"http://{'[' + args.host + ']' if ':' in args.host else args.host}:{args.port}/"
    say(f"serving the page on {url} (Ctrl-C stops it)")
    if args.open:
        threading.Timer(1.0, webbrowser.open, (url,)).start()
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.run(create_app(), host=args.host, port=args.port, log_level="warning")
    return 0
