"""The page's work where there is no server: smtcrypt in the browser, in a Web Worker under Pyodide.

`smtcrypt page` writes the page of `smtcrypt serve` to a static folder; its script talks to a Web
Worker (`static/worker.mjs`) that loads Pyodide, Z3's WebAssembly wheel, lark and smtcrypt, and
hands each request to `handle` here. A request is what the page would have asked the server (the
API's path, its query and body); the answers are the server's: the same `jobs.py` work, read from
the same `query.py`, so the page shows the same objects whichever way it runs.

What the browser has not: a process to kill, a thread, a memory cap. The page ends a search by
ending its worker (at Stop, or past the time limit: the worker then starts afresh), so nothing
here stops a search from outside.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from smtcrypt._version import __version__
from smtcrypt.search import DEFAULT_TIMEOUT
from smtcrypt.web.jobs import WORK, Job, Outbox, search
from smtcrypt.web.query import CHECK_OPTIONS, KNOWN, BadQuery, read_query, worksheet_request

ROUTES = {"/api/stream": "search", "/api/check": "check", "/api/explain": "explain", "/api/play": "play",
          "/worksheet": "worksheet", "/api/health": "health"}


class Page(Outbox):
    """The worker's outbox: each message of a request's work, posted to the page as the server
    would have answered it (a stream's lines, or a status and a body)."""

    def __init__(self, request_id: int, post: Callable[[str], None], mode: str):
        super().__init__()
        self.request_id = request_id
        self.post = post
        self.mode = mode
        self.started = time.monotonic()

    def answer(self, **fields: Any) -> None:
        self.post(json.dumps({"id": self.request_id, **fields}, ensure_ascii=False))

    def line(self, event: dict[str, Any]) -> None:
        self.answer(line=event)

    def send(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "start":
            info = message[1]
            self.line({"event": "start", "id": str(self.request_id), "formula": info["formula"],
                       "letters": info["letters"], "mode": self.mode, "timeout": info["timeout"]})
        elif kind == "solution":
            self.line(message[1])
        elif kind == "done":
            self.line({"event": "done", "verdict": message[1], "shown": message[2]})
        elif kind == "result":
            self.answer(status=200, body=message[1])
        elif kind == "refused":
            self.answer(status=message[1], body=message[2])


def handle(request_text: str, post: Callable[[str], None], timeout: float = DEFAULT_TIMEOUT) -> None:
    """Answer one request of the page, `{"id", "path", "query": [[name, value], ...], "body"}` in
    JSON, by `post`ing JSON texts: `{"id", "line"}` for each line of a stream, `{"id", "status",
    "body"}` for an answer; then `{"id", "end": true}`. `timeout` is the page's limit per request."""
    request = json.loads(request_text)
    pairs = [(str(name), str(value)) for name, value in request.get("query", [])]
    kind = ROUTES.get(request.get("path", ""))
    page = Page(request["id"], post, "all")
    try:
        if kind is None:
            raise BadQuery(404, f"no route {request.get('path')!r}")
        if kind == "health":
            page.answer(status=200, body={"version": __version__, "searches": 0, "timeout": timeout})
        elif kind == "worksheet":
            formulas, paper, title = worksheet_request(pairs)
            job = Job("worksheet", timeout, body=(formulas, title[:200], paper))
            job.start_clock()
            page.answer(status=200, html=WORK["worksheet"](job))
        else:
            run(page, kind, pairs, request.get("body"), timeout)
    except BadQuery as error:
        page.answer(status=error.status, body=error.body)
    except MemoryError:
        page.answer(status=422, body={"error": "the work needed more memory than the browser gives it"})
    except Exception as error:  # an internal error: reported to this request only
        page.answer(status=500, body={"error": f"internal error: {type(error).__name__}: {error}"})
    page.answer(end=True)


def run(page: Page, kind: str, pairs: list[tuple[str, str]], body: Any, timeout: float) -> None:
    """A search (streamed, as `/api/stream`), a check, an explanation or a move, as `jobs.py` does it."""
    if kind == "play":
        job = Job("play", timeout, body=body)
    else:
        query = read_query(pairs, max_timeout=timeout, known=KNOWN if kind == "search" else CHECK_OPTIONS)
        page.mode = query.mode
        job = Job(kind, query.timeout if kind == "search" else timeout, query=query, stream=True)
    job.start_clock()
    if kind == "search":
        search(page, job)
    else:
        page.send(("result", WORK[kind](job)))
