"""The web server holds against hostile requests: each limit answers with its 4xx before any work,
bad input is never a 500, searches are capped and every one ends at its limit or with its client,
killed if need be, and the server is idle soon after."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.parse

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from webserver import get, request, running_server, searches_running, wait_for  # noqa: E402

from smtcrypt.web.guard import MAX_BODY_BYTES, Guard, split_host  # noqa: E402
from smtcrypt.web.query import MAX_JSON_DEPTH, BadQuery, read_json  # noqa: E402
from smtcrypt.web.searches import GRACE  # noqa: E402

JSON = {"Content-Type": "application/json"}
LONG = "x*x*x + y*y*y + z*z*z = 42"  # Z3 searches this for as long as it is let
# building its encoding looks at no clock (seconds past a short limit): only a kill ends it in time
UNSTOPPABLE = "is_prime(ABCDEFGHIJ) and is_prime(JIHGFEDCBA)"


def nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


# ---- reading a body -----------------------------------------------------------------------------

@pytest.mark.parametrize("raw, part", [
    (nested(MAX_JSON_DEPTH + 1), "nested more than"),
    (nested(100_000), "nested more than"),  # Python's reader would recurse out of its stack
    (b'{"a": ' + nested(MAX_JSON_DEPTH) + b"}", "nested more than"),
    (b'{"formula": "\\ud800"}', "lone surrogate"),
    (b'{"\\udfff": 1}', "lone surrogate"),
    (b'{"formula": "A\xff"}', "not UTF-8"),
    (b'{"formula": "' + "é".encode("latin-1") + b'"}', "not UTF-8"),
    (b'{"base": ' + b"9" * 5000 + b"}", "must be JSON"),  # past Python's 4,300 digits of int()
    (b"{not json", "must be JSON"),
    (b"", "must be JSON"),
])
def test_a_body_that_is_not_plain_json_is_refused_by_name(raw, part):
    with pytest.raises(BadQuery) as refused:
        read_json(raw)
    assert refused.value.status == 400 and part in refused.value.body["error"]


def test_a_body_of_json_is_read():
    assert read_json(nested(MAX_JSON_DEPTH)) == json.loads(nested(MAX_JSON_DEPTH))
    assert read_json('{"formula": "ДВА + ДВА = ЧЕТЫРЕ", "decisions": ["Д = 1"]}'.encode()) == \
        {"formula": "ДВА + ДВА = ЧЕТЫРЕ", "decisions": ["Д = 1"]}
    assert read_json(b'{"formula": "\\ud83d\\ude00"}') == {"formula": "\U0001f600"}  # a pair is a character


# ---- the guard, as ASGI middleware --------------------------------------------------------------

class Exchange:
    """One request through the guard to an app that echoes the body it was given."""

    def __init__(self, method: str = "GET", headers: dict[str, str] | None = None, chunks: list[bytes] = (),
                 server: tuple[str, int] = ("127.0.0.1", 8000)):
        self.scope = {"type": "http", "method": method, "path": "/", "server": server,
                      "headers": [(name.lower().encode("latin-1"), value.encode("latin-1"))
                                  for name, value in ({"Host": "127.0.0.1:8000"} if headers is None else headers).items()]}
        self.chunks = list(chunks)
        self.received = 0  # body messages the guard took from the server
        self.sent: list[dict] = []
        self.app_body: bytes | None = None

    async def receive(self) -> dict:
        if not self.chunks:
            await asyncio.sleep(3600)  # a client that sends no more
        self.received += 1
        chunk = self.chunks.pop(0)
        return {"type": "http.request", "body": chunk, "more_body": bool(self.chunks)}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    async def app(self, scope, receive, send) -> None:
        message = await receive() if scope["method"] != "GET" else {"body": b""}
        self.app_body = message["body"]
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    def run(self, **options) -> tuple[int, dict]:
        asyncio.run(asyncio.wait_for(Guard(self.app, **options)(self.scope, self.receive, self.send), 5))
        body = self.sent[1]["body"]
        return self.sent[0]["status"], json.loads(body) if body != b"ok" else {}


@pytest.mark.parametrize("host, served", [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("LOCALHOST:8000", True), ("[::1]:8000", True),
    ("localhost", True),  # no port: the name is what matters
    ("localhost:8001", False), ("evil.example:8000", False), ("evil.example", False),
    ("127.0.0.1.evil.example:8000", False), ("[::1]x", False), ("", False),
    ("puzzles.example:8000", True),  # given by --allow-host
])
def test_the_host_must_be_one_the_server_serves(host, served):
    status, answer = Exchange(headers={"Host": host}).run(names=["puzzles.example"])
    assert (status == 200) == served, (host, status, answer)
    if not served:
        assert status == 400 and ("host" in answer["error"] or "port" in answer["error"])


def test_the_address_a_request_came_in_on_is_served():
    exchange = Exchange(headers={"Host": "192.168.1.5:8000"}, server=("192.168.1.5", 8000))  # bound to 0.0.0.0
    assert exchange.run()[0] == 200
    assert Exchange(headers={"Host": "10.0.0.1:8000"}, server=("192.168.1.5", 8000)).run()[0] == 400
    assert Exchange(headers={}).run()[0] == 400  # no Host at all (HTTP/1.0)
    assert split_host("[::1]:8000") == ("[::1]", "8000") and split_host("a.b") == ("a.b", None)


@pytest.mark.parametrize("content_type, status", [
    ("application/json", 200), ("application/json; charset=utf-8", 200), ("Application/JSON", 200),
    ("text/plain", 415), ("application/x-www-form-urlencoded", 415), ("multipart/form-data; boundary=x", 415),
    (None, 415), ("application/jsonp", 415),
])
def test_a_post_must_be_json(content_type, status):
    headers = {"Host": "127.0.0.1:8000", "Content-Length": "2"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    exchange = Exchange("POST", headers, [b"{}"])
    got, answer = exchange.run()
    assert got == status, answer
    if status == 415:
        assert "application/json" in answer["error"] and exchange.received == 0 and exchange.app_body is None


def test_a_body_over_the_limit_is_refused_before_it_is_read():
    announced = Exchange("POST", {"Host": "localhost:8000", "Content-Type": "application/json",
                                  "Content-Length": str(200 << 20)}, [b"x" * 65536] * 4)
    assert announced.run() == (413, {"error": f"a body of {200 << 20:,} bytes: the limit is {MAX_BODY_BYTES:,}"})
    assert announced.received == 0 and announced.app_body is None  # not a byte read
    assert announced.sent[0]["headers"][-1] == (b"connection", b"close")
    chunk = b"x" * 65536
    chunked = Exchange("POST", {"Host": "localhost:8000", "Content-Type": "application/json",
                                "Transfer-Encoding": "chunked"}, [chunk] * 3200)  # 200 MB, without a length
    assert chunked.run()[0] == 413
    assert chunked.received == MAX_BODY_BYTES // len(chunk) + 1 and chunked.app_body is None  # read up to the cap
    lying = Exchange("POST", {"Host": "localhost:8000", "Content-Type": "application/json",
                              "Content-Length": "10"}, [chunk] * 100)  # more than it said: h11 refuses that itself
    assert lying.run(max_body=1000)[0] == 413
    fits = Exchange("POST", {"Host": "localhost:8000", "Content-Type": "application/json",
                             "Transfer-Encoding": "chunked"}, [b"[1,", b"2]"])
    assert fits.run()[0] == 200 and fits.app_body == b"[1,2]"  # the route gets the whole body at once
    assert Exchange("POST", {"Host": "localhost:8000", "Content-Type": "application/json",
                             "Content-Length": "ten"}, [b"{}"]).run()[0] == 400


# ---- every endpoint, hostile input: a 2xx or a 4xx, never a 5xx ---------------------------------

@pytest.fixture(scope="module")
def base():
    with running_server(timeout=2.0, searches=3, memory_mb=1024) as url:
        yield url


DIGITS = ["0-99999999999", "0-" + "9" * 5000, "9-0", "-", "0--9", "a-z", "1," * 10_000, "0-9" * 1000, "\u0660-\u0669"]
NUMBERS = ["1e999", "-1e999", "nan", "inf", "9" * 5000, "-" + "9" * 5000, "0x10", "1_000", "٣", "1e-400", ""]
TEXTS = ["\x00", "\ufffd", "%ED%A0%80", "\U0001f600" * 1000, "<script>alert(1)</script>", "A" * 50_000,
         "'; DROP TABLE", "__import__('os')", "\n" * 10_000, "((((" * 2000]
QUERY_ENDPOINTS = ["/api/solve", "/api/stream", "/api/check", "/api/explain", "/worksheet"]


def hostile_queries() -> list[str]:
    """Query strings as a client may send them: raw, so that bad percent-encoding gets through."""
    queries = ["", "formula", "formula=", "=", "&&&", "formula=A+%3D+B&formula=" + "%ff" * 1000,
               "formula=%ED%A0%80+%3D+A",  # a surrogate written as UTF-8: no UTF-8 at all
               "formula=%C0%AF", "formula=A+%3D+B&" + "&".join(f"x{i}=1" for i in range(2000)),
               "formula=" + "A%3D" * 200, "formula[]=A", "formula=A+%3D+B&mode=all&mode=all"]
    for digits in DIGITS:
        queries.append("formula=A+%2B+B+%3D+C&digits=" + urllib.parse.quote(digits))
    for name in ("base", "limit", "timeout", "assign", "domain", "distinct", "mode", "strategy", "stats", "paper"):
        queries += [f"formula=A+%2B+B+%3D+C&{name}=" + urllib.parse.quote(value) for value in NUMBERS[:6]]
    queries += ["formula=" + urllib.parse.quote(text) for text in TEXTS]
    queries += ["formula=A+%3D+" + "9" * 5000, "formula=A+%3D+B&assign=A%3D" + "9" * 5000,
                "formula=A+%3D+B&domain=A%3D0-99999999999", "formula=A+%3D+B&syntax=enigma",
                "formula=SubstitutedExpression+%22A+%3D+B%22+--digits%3D0-99999999999&syntax=enigma",
                "formula=A+%3D+B&syntax=cryptator&base=99999999999", "formula=A+%3D+B&syntax=%00",
                "formula=" + urllib.parse.quote("A = ((2 ** 1000) ** 1000) ** 1000"),
                "formula=" + urllib.parse.quote(UNSTOPPABLE)]
    return queries


def hostile_bodies() -> list[tuple[bytes, dict[str, str]]]:
    """Bodies for POST /api/play, with the headers they come with."""
    bodies = [nested(MAX_JSON_DEPTH + 1), nested(200_000), b'{"formula": "\\ud800 = A"}', b'{"\\udc00": 1}',
              b'{"formula": "A\xff\xfe"}', b"\xef\xbb\xbf{}", b"{}", b"[]", b"null", b"1", b'"A = B"', b"",
              b'{"formula": "A + B = C", "decisions": [1, 2]}', b'{"formula": "A + B = C", "decisions": "A = 1"}',
              b'{"formula": "A + B = C", "decisions": ["A = 1"], "undo": "yes", "hint": [1]}',
              b'{"formula": "A + B = C", "undo": true}', b'{"formula": "A + B = C", "hint": 2}',
              b'{"formula": "A + B = C", "move": 7}', b'{"formula": "A + B = C", "move": {"A": 1}}',
              b'{"formula": ["A + B = C", {"x": 1}]}', b'{"formula": 5}', b'{"formula": null}',
              b'{"formula": true}', b'{"formula": "A + B = C", "colour": "red"}', b'{"decisions": []}',
              b'{"formula": "A + B = C", "base": 1e999}', b'{"formula": "A + B = C", "base": -1e999}',
              b'{"formula": "A + B = C", "base": ' + b"9" * 5000 + b"}",
              b'{"formula": "A + B = C", "base": ' + b"9" * 4000 + b"}",
              b'{"formula": "A + B = C", "digits": "0-99999999999"}',
              b'{"formula": "A + B = C", "decisions": ["A = ' + b"9" * 4000 + b'"]}',
              b'{"formula": "A + B = C", "decisions": ' + json.dumps(["A != 1"] * 201).encode() + b"}",
              b'{"formula": "A + B = C", "move": "' + b"A" * 500_000 + b'"}',
              json.dumps({"formula": "A" * 100_001}).encode(),
              json.dumps({"formula": UNSTOPPABLE, "move": "A = 1"}).encode(),
              b'{"formula": "A + B = C", "formula": "D = E"}', b'{"formula": "A + B = C"} trailing',
              b'{"formula": "A + B = C", "decisions": ["A = 1"], "move": "A = 1", "undo": true, "hint": true}']
    sent = [(body, JSON) for body in bodies]
    sent += [(b'{"formula": "A + B = C"}', {"Content-Type": kind})
             for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "")]
    sent.append((b"x" * (MAX_BODY_BYTES + 1), JSON))
    return sent


def assert_answered(status: int, answer, what) -> None:
    assert 200 <= status < 500, (what, status, answer)
    if status >= 400:
        assert isinstance(answer, dict) and answer.get("error"), (what, status, answer)


# a search, a stream and a check every run; the explanation and the worksheet take the same queries in the slow run
@pytest.mark.parametrize("path", [pytest.param(path, marks=pytest.mark.slow) if path in ("/api/explain", "/worksheet")
                                  else path for path in QUERY_ENDPOINTS])
def test_hostile_queries_get_a_2xx_or_a_4xx(base, path):
    for query in hostile_queries():
        status, answer, headers = request(base, "GET", path, query)
        assert_answered(status, answer, (path, query[:80]))
        if status == 503:
            assert int(headers["retry-after"]) >= 1
    assert wait_for(lambda: searches_running(base) == 0, seconds=2 + GRACE + 1)


def test_hostile_bodies_get_a_2xx_or_a_4xx(base):
    for body, headers in hostile_bodies():
        try:
            status, answer, _ = request(base, "POST", "/api/play", body=body, headers=headers)
        except ConnectionError:  # refused (413) and closed before the client had sent it all
            assert len(body) > MAX_BODY_BYTES
            continue
        assert_answered(status, answer, body[:80])
        if headers.get("Content-Type") != "application/json":
            assert status == 415
    status, answer, _ = request(base, "POST", "/api/stop", "id=nosuch", body=b"", headers={"Content-Type": "text/plain"})
    assert status == 415
    for path in ("/api/solve", "/api/check", "/api/health", "/", "/static/app.js", "/worksheet", "/nosuch"):
        for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):  # the wrong method: 405, 404 or 415
            status, answer, _ = request(base, method, path, "formula=A+%3D+B", body=b"{}", headers=JSON)
            assert 400 <= status < 500, (method, path, status)
    assert get(base, "/api/solve", {"formula": "SEND + MORE = MONEY"})[1]["status"] == "unique"  # still serving


def test_a_move_over_the_time_limit_is_refused_in_time(base):
    started = time.monotonic()
    status, answer, _ = request(base, "POST", "/api/play", body=json.dumps({"formula": UNSTOPPABLE}).encode(),
                                headers=JSON)
    assert status in (200, 422) and time.monotonic() - started < 2 + GRACE + 1.5, (status, answer)
    if status == 422:
        assert answer == {"error": "the move did not end within this server's time limit (2 s)"}


def test_hostile_headers(base):
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    for headers, status in [({"Host": "evil.example"}, 400), ({"Host": f"evil.example:{port}"}, 400),
                            ({"Host": f"localhost:{port}"}, 200), ({"Host": "localhost:1"}, 400),
                            ({"Host": "a" * 10_000}, 400), ({"Content-Length": str(10**30)}, (400, 413))]:
        got, answer, _ = request(base, "GET", "/api/health", headers=headers)
        assert got == status or got in (status if isinstance(status, tuple) else ()), (headers, got, answer)
    raw = socket.create_connection((host, int(port)))  # a bare HTTP/1.0 request: no Host
    raw.sendall(b"GET /api/health HTTP/1.0\r\n\r\n")
    assert raw.recv(100).startswith(b"HTTP/1.1 400")
    raw.close()


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(QUERY_ENDPOINTS),
       pairs=st.lists(st.tuples(st.sampled_from(["formula", "base", "digits", "assign", "domain", "mode", "limit",
                                                 "timeout", "strategy", "syntax", "distinct", "paper", "title", "x"]),
                                st.text(max_size=40) | st.sampled_from(DIGITS + NUMBERS + TEXTS)), max_size=6))
def test_random_queries_get_a_2xx_or_a_4xx(base, path, pairs):
    status, answer, _ = request(base, "GET", path, urllib.parse.urlencode(pairs))
    assert_answered(status, answer, (path, pairs))


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                         lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                             st.sampled_from(["formula", "decisions", "move", "undo", "hint", "base", "digits",
                                              "assign", "x"]) | st.text(max_size=5), inner, max_size=5),
                         max_leaves=20))
def test_random_bodies_get_a_2xx_or_a_4xx(base, body):
    if isinstance(body, dict):
        body.setdefault("formula", "A + B = C")
    raw = json.dumps(body).encode()
    status, answer, _ = request(base, "POST", "/api/play", body=raw, headers=JSON)
    assert_answered(status, answer, raw[:200])


# ---- searches: capped, and each ended at its limit or with its client ---------------------------

def open_request(base: str, path: str, params: dict) -> socket.socket:
    """A request sent on a raw connection, its answer left unread (close the socket to go away)."""
    host, port = urllib.parse.urlsplit(base).netloc.split(":")
    client = socket.create_connection((host, int(port)))
    client.sendall(f"GET {path}?{urllib.parse.urlencode(params)} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
    return client


def test_searches_beyond_the_cap_wait_then_get_503_with_retry_after():
    with running_server(timeout=20.0, searches=1, wait=0.5) as url:
        running = open_request(url, "/api/stream", {"formula": LONG})
        assert wait_for(lambda: searches_running(url) == 1)
        started = time.monotonic()
        status, answer, headers = request(url, "GET", "/api/solve", {"formula": "SEND + MORE = MONEY"})
        assert status == 503 and "busy" in answer["error"] and 0.5 <= time.monotonic() - started < 3
        assert 1 <= int(headers["retry-after"]) <= 21  # the time left to the running search's limit
        for path in ("/api/check", "/api/explain", "/worksheet"):  # all work that reads a puzzle is counted
            assert request(url, "GET", path, {"formula": "A + B = C"})[0] == 503
        assert get(url, "/api/health")[0] == 200  # what reads no puzzle is served
        waiting = []
        thread = threading.Thread(target=lambda: waiting.append(
            request(url, "GET", "/api/solve", {"formula": "SEND + MORE = MONEY"})))
        thread.start()
        time.sleep(0.2)
        running.close()  # the first search's client goes: its room goes to the one waiting
        thread.join(10)
        assert waiting[0][0] == 200 and waiting[0][1]["status"] == "unique"
        assert wait_for(lambda: searches_running(url) == 0)


def test_a_request_waits_for_room_while_it_may():
    with running_server(timeout=20.0, searches=1, wait=10.0) as url:
        first = open_request(url, "/api/solve", {"formula": LONG, "timeout": "1"})
        assert wait_for(lambda: searches_running(url) == 1)
        started = time.monotonic()
        status, answer = get(url, "/api/solve", {"formula": "ODD * ODD = FREAKY"})
        assert status == 200 and answer["count"] == 2 and time.monotonic() - started < 1 + GRACE + 2
        assert first.recv(1000).startswith(b"HTTP/1.1 200")  # the first ended at its limit, with its verdict
        first.close()


@pytest.mark.parametrize("path", ["/api/solve", "/api/stream", pytest.param("/api/explain", marks=pytest.mark.slow),
                                  "/api/check", pytest.param("/worksheet", marks=pytest.mark.slow)])
def test_work_that_ignores_its_limit_is_killed_and_the_server_is_idle(path):
    """The time limit holds where the search does not look at the clock: its process is killed."""
    with running_server(timeout=1.0, searches=2) as url:
        started = time.monotonic()
        status, answer, _ = request(url, "GET", path, {"formula": UNSTOPPABLE})
        seconds = time.monotonic() - started
        assert status in (200, 422) and seconds < 1 + GRACE + 1, (status, answer, seconds)
        if path == "/api/solve":
            assert answer["status"] == "unknown" and answer["reason"] == "time limit" and not answer["complete"]
        if path == "/api/stream" and status == 200:
            events = [json.loads(line) for line in answer.splitlines()] if isinstance(answer, str) else [answer]
            assert events[-1]["event"] == "done" and events[-1]["verdict"]["reason"] == "time limit"
        assert searches_running(url) == 0  # the answer comes when the process has ended


def test_heavy_searches_whose_clients_go_away_leave_the_server_idle():
    """The case measured before: 16 heavy searches, their clients gone, ran for minutes."""
    with running_server(timeout=3.0, searches=2, wait=30.0) as url:
        clients = [open_request(url, "/api/solve", {"formula": formula})
                   for formula in [LONG, UNSTOPPABLE] * 8]
        assert wait_for(lambda: searches_running(url) == 2)
        time.sleep(0.5)
        for client in clients:
            client.close()
        gone = time.monotonic()
        assert wait_for(lambda: searches_running(url) == 0, seconds=5)
        assert time.monotonic() - gone < 1.5  # none waited for its limit, none of the waiting started
        status, answer = get(url, "/api/solve", {"formula": "SEND + MORE = MONEY"})
        assert status == 200 and answer["status"] == "unique"
