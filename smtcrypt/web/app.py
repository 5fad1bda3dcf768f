"""The web application: one page, a JSON API, a solution stream and worksheets (Starlette, ASGI).

    GET  /                    the page (the puzzle in the address: /?formula=SEND+%2B+MORE+%3D+MONEY)
    GET  /api/solve           `smtcrypt --json`'s object; 400 bad input, 413 a formula over the limit
    GET  /api/stream          the same search as lines of JSON: start, solution..., progress..., done
    POST /api/stop?id=ID      end a streamed search (its stream ends with status unknown, interrupted)
    GET  /api/check           the parser's verdict on a formula as it is typed
    GET  /api/explain         the puzzle's explanation steps and difficulty, where smtcrypt explains
    POST /api/play            one move of a game played by hand (JSON: the puzzle, the decisions, the move)
    GET  /api/health          version, searches running, the time limit
    GET  /worksheet           a printable worksheet of the puzzles given as formula=...

Each request that reads a puzzle has its own process (searches.py), killed at the time limit or
when its client disconnects; beyond the cap on processes a request gets 503 with Retry-After.
Every request passes the guard first (guard.py): its Host, its Content-Type, its body's size.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from smtcrypt._version import __version__
from smtcrypt.search import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
from smtcrypt.web.guard import MAX_BODY_BYTES, Guard
from smtcrypt.web.jobs import Job
from smtcrypt.web.query import (
    CHECK_OPTIONS,
    KNOWN,
    BadQuery,
    Query,
    puzzle_of,
    read_json,
    read_query,
    worksheet_request,
)
from smtcrypt.web.searches import END, Busy, Gone, Running, Searches, start_fork_server

__all__ = ["create_app", "puzzle_of"]  # puzzle_of: the one door a request's puzzle is read through (query.py)

PROGRESS_EVERY = 0.5  # seconds between progress lines of a stream
EXIT_WAIT = 1.0  # seconds an answer waits for its process to end (killed, it ends in milliseconds)
STATIC = ("index.html", "app.js", "style.css")
MEDIA = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}


def static_file(name: str) -> str:
    return resources.files("smtcrypt.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def bad(error: BadQuery) -> JSONResponse:
    return JSONResponse(error.body, status_code=error.status)


def went_away() -> JSONResponse:
    """For a client that has gone (499, nginx's code): nobody reads it, but a handler answers."""
    return JSONResponse({"error": "the client went away"}, status_code=499)


def busy(error: Busy) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=503, headers={"Retry-After": str(error.retry_after)})


def refused(error: BadQuery | Busy | Gone) -> JSONResponse:
    """The answer to work refused or abandoned: a bad query, no slot free in time, or a client gone."""
    if isinstance(error, BadQuery):
        return bad(error)
    if isinstance(error, Busy):
        return busy(error)
    return went_away()


async def until_disconnected(request: Request) -> None:
    """Returns when the client has gone away (the request's body is read already, so any message but the end is)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


class StopOnExit(StreamingResponse):
    """A stream whose process ends with the response: finished, or cancelled by a disconnect."""

    def __init__(self, running: Running, content: AsyncIterator[str]):
        super().__init__(content, media_type="application/x-ndjson",
                         headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})
        self.running = running

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.running.kill()


def searches_of(request: Request) -> Searches:
    return request.app.state.searches


def timeout_of(request: Request) -> float:
    """The server's time limit for one request's search, in seconds."""
    return request.app.state.timeout


def query_of(request: Request, known: Iterable[str] = KNOWN) -> Query:
    return read_query(request.query_params.multi_items(), max_timeout=timeout_of(request), known=known)


async def run(request: Request, job: Job) -> Running:
    """`job` started in its process; for a search, once it has read its puzzle. A client that
    leaves first kills it; `BadQuery` where the puzzle is refused, `Busy` where there is no room,
    `Gone` where the client left while the request waited for room."""
    gone = asyncio.ensure_future(until_disconnected(request))
    try:
        running = await searches_of(request).start(job, gone)
        await asyncio.wait({gone, running.first}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if not running.first.done():  # the client left: no one waits for this work
        running.kill()
    elif running.refusal is not None:
        await ended(running)
        raise BadQuery(running.refusal[0], **running.refusal[1])
    return running


async def ended(running: Running) -> None:
    """Wait for the process to end, once it has answered (it ends at once): a request's answer comes
    when its work is over, and the server is idle once every answer has been sent."""
    if running.finished.is_set():
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(running.exited.wait(), EXIT_WAIT)


async def work(request: Request, job: Job) -> Any:
    """The answer of a job other than a search, run to its end (or the limit) in its process."""
    running = await run(request, job)
    await ended(running)
    if not running.finished.is_set() or running.result is None:
        return internal_error(running)  # the client has gone (499), or the work failed (500)
    return running.result


async def page(request: Request) -> Response:
    return HTMLResponse(static_file("index.html"), headers={"Cache-Control": "no-store"})


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return JSONResponse({"error": f"no file {name!r}"}, status_code=404)
    return Response(static_file(name), media_type=MEDIA[name.rsplit(".", 1)[1]])


async def solve(request: Request) -> Response:
    """`smtcrypt --json`'s object once the search ends; a client that leaves first stops it."""
    try:
        query = query_of(request)
        running = await run(request, Job("search", query.timeout, query=query))
    except (BadQuery, Busy, Gone) as error:
        return refused(error)
    if not running.finished.is_set():
        gone = asyncio.ensure_future(until_disconnected(request))
        finished = asyncio.ensure_future(running.finished.wait())
        try:
            await asyncio.wait({gone, finished}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            finished.cancel()
            running.kill()  # the client left first, or the verdict has come: the process ends
    await ended(running)
    if running.result is None:
        return unfinished(running)
    return Response(json.dumps(running.result, ensure_ascii=False), media_type="application/json")


def internal_error(running: Running) -> JSONResponse:
    """What a process that failed said (500), or the client gone (499)."""
    while not running.events.empty():
        event = running.events.get_nowait()
        if event is not END and event.get("event") == "error":
            return JSONResponse({"error": event["error"]}, status_code=500)
    return went_away()


def unfinished(running: Running) -> JSONResponse:
    """A search that ended without a verdict: refused, its internal error (500), or the client gone (499)."""
    if running.refusal is not None:
        return JSONResponse(running.refusal[1], status_code=running.refusal[0])
    return internal_error(running)


async def events(running: Running) -> AsyncIterator[str]:
    """A stream's lines: start, then each event of the search, with progress while it is quiet."""
    info = running.start_info or {}
    yield line({"event": "start", "id": running.id, "formula": info.get("formula"), "letters": info.get("letters"),
                "mode": running.mode, "timeout": running.timeout})
    while True:
        try:
            event = await asyncio.wait_for(running.events.get(), PROGRESS_EVERY)
        except asyncio.TimeoutError:
            yield line({"event": "progress", "found": running.found, "seconds": round(running.seconds, 2)})
            continue
        if event is END:
            await ended(running)  # the stream ends with its work
            return
        yield line(event)


async def stream(request: Request) -> Response:
    try:
        query = query_of(request)
        running = await run(request, Job("search", query.timeout, query=query, stream=True))
    except (BadQuery, Busy, Gone) as error:
        return refused(error)
    return StopOnExit(running, events(running))


async def stop(request: Request) -> Response:
    search_id = request.query_params.get("id", "")
    if not searches_of(request).stop(search_id):
        return JSONResponse({"error": f"no search {search_id!r} is running"}, status_code=404)
    return JSONResponse({"stopped": search_id})


async def answer(request: Request, job: Job) -> Response:
    """The JSON answer of a job run in its process, or its refusal."""
    try:
        result = await work(request, job)
    except (BadQuery, Busy, Gone) as error:
        return refused(error)
    return result if isinstance(result, Response) else JSONResponse(result)


async def check(request: Request) -> Response:
    try:
        query = query_of(request, CHECK_OPTIONS)
    except BadQuery as error:
        return bad(error)
    return await answer(request, Job("check", timeout_of(request), query=query))


async def explain(request: Request) -> Response:
    try:
        query = query_of(request, CHECK_OPTIONS)
    except BadQuery as error:
        return bad(error)
    return await answer(request, Job("explain", timeout_of(request), query=query))


async def play(request: Request) -> Response:
    """One move of a game: the decisions replayed, the move answered; the whole move within the time limit."""
    try:
        body = read_json(await request.body())
    except BadQuery as error:
        return bad(error)
    return await answer(request, Job("play", timeout_of(request), body=body))


async def health(request: Request) -> Response:
    return JSONResponse({"version": __version__, "searches": len(searches_of(request).running),
                         "timeout": timeout_of(request)})


async def worksheet(request: Request) -> Response:
    try:
        formulas, paper, title = worksheet_request(request.query_params.multi_items())
        sheet = await work(request, Job("worksheet", timeout_of(request), body=(formulas, title[:200], paper)))
    except (BadQuery, Busy, Gone) as error:
        return refused(error)
    return sheet if isinstance(sheet, Response) else HTMLResponse(sheet)


ROUTES = [
    Route("/", page),
    Route("/static/{name}", asset),
    Route("/api/solve", solve),
    Route("/api/stream", stream),
    Route("/api/stop", stop, methods=["POST"]),
    Route("/api/check", check),
    Route("/api/explain", explain),
    Route("/api/play", play, methods=["POST"]),
    Route("/api/health", health),
    Route("/worksheet", worksheet),
]


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    await asyncio.get_running_loop().run_in_executor(None, start_fork_server)  # it warms up while we serve
    app.state.searches.make_spares()
    yield
    app.state.searches.stop_all()  # the server stops: so do its searches


def create_app(timeout: float = DEFAULT_TIMEOUT, *, searches: int | None = None, hosts: Iterable[str] = (),
               wait: float | None = None, memory_mb: int = DEFAULT_MEMORY_MB,
               max_body: int = MAX_BODY_BYTES) -> Starlette:
    """The application; `timeout` bounds each request's work, in seconds; at most `searches`
    processes at once (default: one per core, at least two), a request beyond waiting up to `wait`
    seconds for room; `hosts` are names served besides this machine's; `memory_mb` caps each
    process. The routes read the running searches and the limit from `app.state`."""
    app = Starlette(routes=ROUTES, lifespan=lifespan,
                    middleware=[Middleware(Guard, names=tuple(hosts), max_body=max_body)])
    app.state.searches = Searches(searches, memory_mb=memory_mb) if wait is None else \
        Searches(searches, wait=wait, memory_mb=memory_mb)
    app.state.timeout = timeout
    return app


def line(event: dict[str, Any]) -> str:
    """One event of a stream: a line of JSON."""
    return json.dumps(event, ensure_ascii=False) + "\n"
