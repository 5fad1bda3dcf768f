"""A real smtcrypt web server on 127.0.0.1 (any free port) in a thread of the test process, for the
server and browser tests. In-process, so that a test may patch what the server sees."""

from __future__ import annotations

import contextlib
import http.client
import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def running_server(timeout: float = 20.0, **limits: Any) -> Iterator[str]:
    """The base URL of a server that runs until the block ends; `limits` as `make_server` takes them."""
    from smtcrypt.web import listening_socket, make_server, url_of

    sock = listening_socket("127.0.0.1", 0)
    server = make_server(sock, timeout, **limits)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield url_of(sock).rstrip("/")
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def get(base: str, path: str, params: Any = None, timeout: float = 30) -> tuple[int, Any]:
    """(HTTP status, decoded JSON body) of a GET; 4xx and 5xx are answers, not exceptions."""
    query = "" if params is None else "?" + (params if isinstance(params, str) else urllib.parse.urlencode(params, doseq=True))
    try:
        with urllib.request.urlopen(base + path + query, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        body = error.read()
        try:
            return error.code, json.loads(body)
        except ValueError:
            return error.code, body.decode("utf-8", "replace")


def searches_running(base: str) -> int:
    return get(base, "/api/health")[1]["searches"]


def wait_for(condition, seconds: float = 5.0, every: float = 0.05) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


def request(base: str, method: str, path: str, params: Any = None, body: bytes | None = None,
            headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, Any, dict[str, str]]:
    """(HTTP status, decoded JSON body or text, headers) of any request, sent as given (no header added
    but Host and Content-Length)."""
    host, port = urllib.parse.urlsplit(base).netloc.rsplit(":", 1)
    query = "" if params is None else "?" + (params if isinstance(params, str) else urllib.parse.urlencode(params, doseq=True))
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        connection.request(method, path + query, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
    finally:
        connection.close()
    try:
        decoded: Any = json.loads(data)
    except ValueError:
        decoded = data.decode("utf-8", "replace")
    return response.status, decoded, {name.lower(): value for name, value in response.getheaders()}
