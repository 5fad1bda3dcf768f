"""`smtcrypt serve` as run from the command line, in a process of its own: a body too large is
refused before it is read (the server's memory does not grow), searches are capped by
`--searches`, names are added by `--host` and `--allow-host`, and Ctrl-C leaves no process behind."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

from webserver import get, request, searches_running, wait_for  # noqa: E402

from smtcrypt.cli.serve import build_parser  # noqa: E402
from smtcrypt.search import DEFAULT_MEMORY_MB  # noqa: E402
from smtcrypt.web.guard import MAX_BODY_BYTES  # noqa: E402
from smtcrypt.web.searches import SPARES, default_most  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
LONG = "x*x*x + y*y*y + z*z*z = 42"
JSON = {"Content-Type": "application/json"}


def descendants(pid: int) -> set[int]:
    """The processes under `pid` (its fork server and the searches), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def resident_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


@pytest.fixture(scope="module")
def served():
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["PYTHONPATH"] = str(REPO)
    process = subprocess.Popen([sys.executable, "-m", "smtcrypt", "serve", "--port", "0", "--timeout", "3",
                                "--searches", "2", "--allow-host", "puzzles.example", "--max-memory", "1024"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = process.stdout.readline()
        assert line.startswith("smtcrypt: serving on http://127.0.0.1:"), line + process.stderr.read()
        url = line.split()[3].rstrip("/")
        assert wait_for(lambda: get(url, "/api/health")[0] == 200, seconds=10)
        assert get(url, "/api/solve", {"formula": "A + B = C", "mode": "first"})[0] == 200  # the processes are warm
        yield process, url
    finally:
        if process.poll() is None:
            process.terminate()
        process.wait(10)
        process.stdout.close(), process.stderr.close()


def test_serve_takes_the_limits():
    args = build_parser().parse_args([])
    assert (args.searches, args.max_memory, args.allow_host) == (None, DEFAULT_MEMORY_MB, [])
    assert default_most() == max(2, os.cpu_count() or 1)
    args = build_parser().parse_args(["--searches", "3", "--allow-host", "a.example", "--allow-host", "b.example"])
    assert args.searches == 3 and args.allow_host == ["a.example", "b.example"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--searches", "0"])


def test_a_body_too_large_is_refused_unread(served):
    process, url = served
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    before = resident_mb(process.pid)
    client = socket.create_connection((host, int(port)), timeout=10)
    started = time.monotonic()
    client.sendall(f"POST /api/play HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                   f"Content-Length: {200 << 20}\r\n\r\n".encode())  # 200 MB announced, none sent
    answer = client.recv(65536)  # an answer at all shows that the server did not wait for the body
    assert answer.startswith(b"HTTP/1.1 413") and time.monotonic() - started < 5, answer
    client.close()
    client = socket.create_connection((host, int(port)), timeout=10)
    client.sendall(f"POST /api/play HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                   f"Transfer-Encoding: chunked\r\n\r\n".encode())
    chunk, sent, answer = b"[" * 65536, 0, b""
    client.setblocking(False)
    while not answer and sent < 200 << 20:  # a body without a length: sent until the server answers
        try:
            client.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        except (BlockingIOError, BrokenPipeError, ConnectionResetError):
            time.sleep(0.01)
        with contextlib.suppress(BlockingIOError):
            answer = client.recv(65536)
    client.close()
    assert answer.startswith(b"HTTP/1.1 413") and b"limit" in answer, answer
    assert sent < 64 * MAX_BODY_BYTES, sent  # what the connection's buffers took; not 200 MB
    assert resident_mb(process.pid) - before < 50, (before, resident_mb(process.pid))
    assert get(url, "/api/health")[0] == 200


def test_the_names_served(served):
    _, url = served
    port = urllib.parse.urlsplit(url).port
    for host, status in [(f"127.0.0.1:{port}", 200), (f"localhost:{port}", 200), (f"puzzles.example:{port}", 200),
                         (f"rebound.example:{port}", 400), (f"localhost:{port + 1}", 400)]:
        got, answer, _ = request(url, "GET", "/api/health", headers={"Host": host})
        assert got == status, (host, answer)
    assert request(url, "POST", "/api/play", body=b'{"formula": "A = B"}', headers={"Content-Type": "text/plain"})[0] \
        == 415


def test_searches_are_capped_and_the_server_is_idle_after_the_limit(served):
    process, url = served
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    clients = []
    for _ in range(2):
        client = socket.create_connection((host, int(port)))
        client.sendall(f"GET /api/solve?{urllib.parse.urlencode({'formula': LONG})} HTTP/1.1\r\n"
                       f"Host: {host}:{port}\r\n\r\n".encode())
        clients.append(client)
    assert wait_for(lambda: searches_running(url) == 2)
    started = time.monotonic()
    status, answer, headers = request(url, "GET", "/api/solve", {"formula": "SEND + MORE = MONEY"})
    assert status == 503 and int(headers["retry-after"]) >= 1, answer  # after waiting 2 s for room
    assert wait_for(lambda: searches_running(url) == 0, seconds=10)
    assert time.monotonic() - started < 3 + 1.5  # the limit, then their processes ended
    for client in clients:
        assert client.recv(1000).startswith(b"HTTP/1.1 200")
        client.close()
    left = descendants(process.pid)  # the fork server, its resource tracker, the spares: no search left
    assert len(left) <= 2 + SPARES, [Path(f"/proc/{pid}/cmdline").read_bytes()[:80] for pid in left]


def test_ctrl_c_leaves_no_process_behind(served):
    process, url = served
    host, port = urllib.parse.urlsplit(url).netloc.split(":")
    client = socket.create_connection((host, int(port)))
    client.sendall(f"GET /api/stream?{urllib.parse.urlencode({'formula': LONG})} HTTP/1.1\r\n"
                   f"Host: {host}:{port}\r\n\r\n".encode())
    assert wait_for(lambda: searches_running(url) == 1)
    under = descendants(process.pid)
    assert len(under) >= 2  # the fork server and the search
    process.send_signal(signal.SIGINT)
    assert process.wait(10) in (0, 130)  # (130: the signal, raised again once the server has stopped)
    client.close()
    assert wait_for(lambda: not any(os.path.exists(f"/proc/{pid}") and not zombie(pid) for pid in under), seconds=5)
    assert "Traceback" not in process.stderr.read()


def zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True
