"""`smtcrypt serve`: the web page and its JSON API on this machine."""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Sequence

from smtcrypt.cli.options import Exit, integer_in, positive, positive_number
from smtcrypt.search import DEFAULT_MEMORY_MB, MIN_MEMORY_MB
from smtcrypt.web import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_TIMEOUT,
    listening_socket,
    make_server,
    missing_stack,
    url_of,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smtcrypt serve", description="Serve the smtcrypt web page and its JSON API on this machine.",
        epilog="example: smtcrypt serve --port 8080, then open http://127.0.0.1:8080/?formula=SEND+%2B+MORE+%3D+MONEY")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"the address to listen on (default {DEFAULT_HOST}: this machine only); a name given "
                             "here is also a name the server answers to")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="answer requests that name this host too (repeatable); by default only localhost, "
                             "127.0.0.1, [::1] and --host are answered, so that no other site's name can reach the "
                             "server (DNS rebinding)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the port (default {DEFAULT_PORT}; 0: any free port)")
    parser.add_argument("--timeout", type=positive_number, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"bound each request's search to S seconds (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--searches", type=positive, default=None, metavar="N",
                        help="run at most N searches at once, each in its own process (default: one per core, at "
                             "least 2); a request beyond waits up to 2 s, then gets 503 with Retry-After")
    parser.add_argument("--max-memory", type=integer_in(MIN_MEMORY_MB), default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"the memory each search's process may take (default {DEFAULT_MEMORY_MB})")
    return parser


def main(argv: Sequence[str]) -> int:
    """Serve until Ctrl-C: exit 0, or 2 without the web stack or when the address is taken."""
    args = build_parser().parse_args(argv)
    why = missing_stack()
    if why:
        print(f"smtcrypt serve: error: {why}", file=sys.stderr)
        return Exit.USAGE
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as error:
        print(f"smtcrypt serve: error: cannot listen on {args.host}:{args.port}: {error.strerror or error}",
              file=sys.stderr)
        return Exit.USAGE
    server = make_server(sock, args.timeout, searches=args.searches, hosts=[args.host, *args.allow_host],
                         memory_mb=args.max_memory)
    print(f"smtcrypt: serving on {url_of(sock)}  (Ctrl-C stops)", flush=True)
    if not ipaddress.ip_address(sock.getsockname()[0]).is_loopback:
        print(f"smtcrypt serve: note: listening on {args.host}: other machines that reach it can run searches "
              f"({args.timeout:g} s each)", file=sys.stderr, flush=True)
    server.run(sockets=[sock])
    return Exit.FOUND
