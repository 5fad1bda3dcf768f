"""The web page: a local page to type, solve, share and print puzzles, and a JSON API (`smtcrypt serve`).

The server stack (Starlette on uvicorn) is the optional `web` extra, `pip install ".[web]"`: the
core keeps its two dependencies, and this package imports the stack only when serving.
"""

from __future__ import annotations

import importlib.util
import socket
from collections.abc import Iterable
from typing import TYPE_CHECKING

from smtcrypt.search import DEFAULT_TIMEOUT

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 8000
NEEDED = ("starlette", "uvicorn")


def missing_stack() -> str | None:
    """Why the server cannot start here, or None."""
    missing = [name for name in NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        return (f"the web page needs {' and '.join(missing)}: install the web extra, "
                f"pip install \"smtcrypt[web]\" (or pip install \".[web]\" in a checkout)")
    return None


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


if TYPE_CHECKING:
    import uvicorn

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "DEFAULT_TIMEOUT", "listening_socket", "make_server", "missing_stack",
           "url_of"]


def make_server(sock: socket.socket, timeout: float = DEFAULT_TIMEOUT, *, searches: int | None = None,
                hosts: Iterable[str] = (), memory_mb: int | None = None, wait: float | None = None) -> uvicorn.Server:
    """A uvicorn server of the app for `sock`; run it with `server.run(sockets=[sock])`. See
    `create_app` for the limits; `hosts` adds names to those the server answers to."""
    import uvicorn

    from smtcrypt.search import DEFAULT_MEMORY_MB
    from smtcrypt.web.app import create_app

    app = create_app(timeout, searches=searches, hosts=hosts, wait=wait,
                     memory_mb=DEFAULT_MEMORY_MB if memory_mb is None else memory_mb)
    config = uvicorn.Config(app, http="h11", lifespan="on", log_level="warning",
                            h11_max_incomplete_event_size=1 << 20,  # room for a URL with a formula at the limit
                            timeout_graceful_shutdown=2)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            """The searches end first (their streams close with their verdicts), so that the
            connections are done at once rather than cut at the graceful limit."""
            app.state.searches.stop_all()
            await super().shutdown(sockets)

    return Server(config)
