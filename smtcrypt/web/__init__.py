"""`smtcrypt serve`: a local web page to type, solve, share and print puzzles, and a JSON API.

The server stack (Starlette on uvicorn) is the optional `web` extra, `pip install ".[web]"`: the
core keeps its two dependencies, and this package imports the stack only when serving.
"""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import socket
import sys
from typing import Sequence

DEFAULT_HOST, DEFAULT_PORT, DEFAULT_TIMEOUT = "127.0.0.1", 8000, 10.0
NEEDED = ("starlette", "uvicorn")


def missing_stack() -> str | None:
    """Why the server cannot start here, or None."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        return (f"the web page needs {' and '.join(missing)}: install the web extra, "
                f"pip install \"smtcrypt[web]\" (or pip install \".[web]\" in a checkout)")
    return None


def build_parser() -> argparse.ArgumentParser:
    from ..cli import positive_number

    parser = argparse.ArgumentParser(
        prog="smtcrypt serve", description="Serve the smtcrypt web page and its JSON API on this machine.",
        epilog="example: smtcrypt serve --port 8080, then open http://127.0.0.1:8080/?formula=SEND+%2B+MORE+%3D+MONEY")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--timeout", type=positive_number, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"bound each request's search to S seconds (default {DEFAULT_TIMEOUT:g})")
    return parser


def listening_socket(host: str, port: int) -> socket.socket:
    """Bound before the server starts, so that the URL printed has the real port (also for --port 0)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def make_server(sock: socket.socket, timeout: float = DEFAULT_TIMEOUT):
    """A uvicorn server of the app for `sock`; run it with `server.run(sockets=[sock])`."""
    import uvicorn

    from .app import create_app

    config = uvicorn.Config(create_app(timeout), http="h11", lifespan="on", log_level="warning",
                            h11_max_incomplete_event_size=1 << 20,  # room for a URL with a formula at the limit
                            timeout_graceful_shutdown=2)
    return uvicorn.Server(config)


def serve_main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    why = missing_stack()
    if why:
        print(f"smtcrypt serve: error: {why}", file=sys.stderr)
        return 2
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        print(f"smtcrypt serve: error: cannot listen on {args.host}:{args.port}: {error.strerror or error}",
              file=sys.stderr)
        return 2
    server = make_server(sock, args.timeout)
    print(f"smtcrypt: serving on {url_of(sock)}  (Ctrl-C stops)", flush=True)
    if not ipaddress.ip_address(sock.getsockname()[0]).is_loopback:
        print(f"smtcrypt serve: note: listening on {args.host}: other machines that reach it can run searches "
              f"({args.timeout:g} s each)", file=sys.stderr, flush=True)
    server.run(sockets=[sock])
    return 0
