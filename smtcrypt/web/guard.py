"""The server's door: what a request must be before any route reads it (ASGI middleware).

- **Host**: one of the names the server serves (`localhost`, `127.0.0.1`, `[::1]`, the address the
  request came in on, and the names given to `smtcrypt serve --host` / `--allow-host`), with the
  server's port or none; anything else is 400. A page elsewhere whose name was made to point at
  this machine (DNS rebinding) sends its own name, and is refused; an address written as numbers
  is no name another site can have.
- **Content-Type**: a request that is not GET or HEAD must say `application/json` (else 415), so
  that no page elsewhere can send one without the browser asking this server first (CORS preflight),
  which it never allows.
- **Body**: at most MAX_BODY_BYTES. A larger Content-Length is 413 before any of the body is read;
  a body without a length (chunked) is counted as it comes, and 413 the moment it passes the cap.
  The route then gets the whole body at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 1 << 20  # 1 MiB: a move with a formula at the length limit, escaped, fits
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
SAFE_METHODS = ("GET", "HEAD")


def host_name(address: str) -> str:
    """An address as a Host header names it: IPv6 in brackets, lower case."""
    address = address.strip().lower()
    if ":" in address and not address.startswith("["):
        return f"[{address}]"
    return address


def split_host(header: str) -> tuple[str, str | None]:
    """`name:port` as (name, port); the port None when the header has none."""
    header = header.strip().lower()
    if header.startswith("["):
        name, _, rest = header.partition("]")
        return name + "]", rest[1:] if rest.startswith(":") else None if not rest else "?"
    name, colon, port = header.rpartition(":")
    return (name, port) if colon else (header, None)


async def refuse(send: Send, status: int, error: str, *, close: bool = False) -> None:
    """A short JSON refusal; `close` where the body was left unread, so the connection cannot be reused."""
    body = json.dumps({"error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The middleware: see the module."""

    def __init__(self, app: ASGIApp, names: Iterable[str] = (), max_body: int = MAX_BODY_BYTES):
        self.app = app
        self.names = {host_name(name) for name in (*LOCAL_NAMES, *names)}
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        why = self.wrong_host(scope, headers.get("host"))
        if why:
            await refuse(send, 400, why)
            return
        if scope["method"] not in SAFE_METHODS:
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media != "application/json":
                await refuse(send, 415, f"a {scope['method']} request must say Content-Type: application/json, "
                                        f"not {media or 'none'!r}", close=True)
                return
        length = headers.get("content-length")
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if length is not None:
            if not length.isdigit():
                await refuse(send, 400, "a bad Content-Length", close=True)
                return
            if int(length) > self.max_body:
                await refuse(send, 413, f"a body of {int(length):,} bytes: the limit is {self.max_body:,}",
                             close=True)
                return
        if not chunked and not int(length or 0):
            await self.app(scope, receive, send)  # no body: the route's receive is the server's
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client has gone before it sent its request
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await refuse(send, 413, f"a body of more than {self.max_body:,} bytes: the limit", close=True)
                return
            if not message.get("more_body", False):
                break
        await self.app(scope, replay(bytes(body), receive), send)

    def wrong_host(self, scope: Scope, header: str | None) -> str | None:
        """Why the Host header is not one this server serves, or None."""
        if header is None:
            return "a request must name the host it is for (Host)"
        name, port = split_host(header)
        local, local_port = scope.get("server") or (None, None)  # the address the request came in on
        if name not in self.names and (local is None or name != host_name(str(local))):
            return f"this server does not serve the host {header[:100]!r} (smtcrypt serve --allow-host adds one)"
        if port is not None and local_port is not None and port != str(local_port):
            return f"this server does not serve the port of {header[:100]!r}"
        return None


def replay(body: bytes, receive: Receive) -> Receive:
    """The route's receive: the body read already, then the server's (a disconnect)."""
    sent = False

    async def receive_again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return receive_again
