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

Each request has its own search in its own thread; a client that disconnects stops its search.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from smtcrypt._version import __version__
from smtcrypt.api import Puzzle
from smtcrypt.core.check import Problem
from smtcrypt.core.letters import is_wildcard
from smtcrypt.errors import FormulaError
from smtcrypt.notations import shared_options
from smtcrypt.present.data import explanation
from smtcrypt.search import DEFAULT_TIMEOUT, Search
from smtcrypt.teach.worksheet import PAPERS, build_worksheet
from smtcrypt.web.play import play as play_move
from smtcrypt.web.query import KNOWN, BadQuery, Query, formula_error, read_query
from smtcrypt.web.searches import END, Running, Searches, prepare

PROGRESS_EVERY = 0.5  # seconds between progress lines of a stream
STATIC = ("index.html", "app.js", "style.css")
MEDIA = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8"}
CHECK_OPTIONS = ("formula", "distinct", "allow_leading_zeros", "nonzero_single_letters", "base", "digits", "domain",
                 "assign", "syntax")
WORKSHEET_OPTIONS = ("formula", "title", "paper", "timeout")
MAX_WORKSHEET_PUZZLES = 60


def static_file(name: str) -> str:
    return resources.files("smtcrypt.web").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def bad(error: BadQuery) -> JSONResponse:
    return JSONResponse(error.body, status_code=error.status)


def puzzle_of(query: Query) -> Puzzle:
    try:
        return Puzzle.read(query.formula, query.syntax, **shared_options(query.syntax, query.rules))
    except FormulaError as error:
        raise formula_error(error) from None


async def until_disconnected(request: Request) -> None:
    """Returns when the client has gone away (the request's body is empty, so any message but the end is)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


class StopOnExit(StreamingResponse):
    """A stream whose search ends with the response: finished, cancelled by a disconnect, or failed."""

    def __init__(self, running: Running, content: AsyncIterator[str]):
        super().__init__(content, media_type="application/x-ndjson",
                         headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})
        self.running = running

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.running.request_stop()


def searches_of(request: Request) -> Searches:
    return request.app.state.searches


def timeout_of(request: Request) -> float:
    """The server's time limit for one request's search, in seconds."""
    return request.app.state.timeout


def query_of(request: Request, known: Iterable[str] = KNOWN) -> Query:
    return read_query(request.query_params.multi_items(), max_timeout=timeout_of(request), known=known)


async def start(request: Request, stream: bool) -> Running:
    """The request's search, started in a thread of its own; `BadQuery` for a bad request."""
    query = query_of(request)

    def puzzle_and_search() -> tuple[Puzzle, Search]:  # parsing and checking a long formula takes a while
        puzzle = puzzle_of(query)
        try:
            return puzzle, prepare(puzzle, query.search_options, mode=query.mode)
        except ValueError as error:  # a strategy that cannot search this puzzle
            raise BadQuery(400, str(error), option="strategy") from None

    puzzle, search = await run_in_threadpool(puzzle_and_search)  # not on the event loop
    return searches_of(request).start(puzzle, search, mode=query.mode, stream=stream, stats=query.stats)


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
        running = await start(request, stream=False)
    except BadQuery as error:
        return bad(error)
    gone = asyncio.ensure_future(until_disconnected(request))
    finished = asyncio.ensure_future(running.finished.wait())
    try:
        await asyncio.wait({gone, finished}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
        finished.cancel()
        running.request_stop()  # the client left first: no one waits for this search
    if running.result is None:
        return unfinished(running)
    return Response(json.dumps(running.result, ensure_ascii=False), media_type="application/json")


def unfinished(running: Running) -> JSONResponse:
    """A search that ended without a verdict: its internal error (500), or the client gone (499)."""
    while not running.events.empty():
        event = running.events.get_nowait()
        if event is not END and event.get("event") == "error":
            return JSONResponse({"error": event["error"]}, status_code=500)
    return JSONResponse({"error": "the client went away"}, status_code=499)


def named_letters(problem: Problem) -> list[str]:
    """The puzzle's letters as the user wrote them: the hidden names of its `?`s are no letters to show."""
    return [letter for letter in problem.letters if not is_wildcard(letter)]


async def events(running: Running) -> AsyncIterator[str]:
    """A stream's lines: start, then each event of the search, with progress while it is quiet."""
    problem = running.puzzle.problem
    yield line({"event": "start", "id": running.id, "formula": problem.source, "letters": named_letters(problem),
                "mode": running.mode, "timeout": running.search.timeout})
    while True:
        try:
            event = await asyncio.wait_for(running.events.get(), PROGRESS_EVERY)
        except asyncio.TimeoutError:
            yield line({"event": "progress", "found": running.found, "seconds": round(running.seconds, 2)})
            continue
        if event is END:
            return
        yield line(event)


async def stream(request: Request) -> Response:
    try:
        running = await start(request, stream=True)
    except BadQuery as error:
        return bad(error)
    return StopOnExit(running, events(running))


async def stop(request: Request) -> Response:
    search_id = request.query_params.get("id", "")
    if not searches_of(request).stop(search_id):
        return JSONResponse({"error": f"no search {search_id!r} is running"}, status_code=404)
    return JSONResponse({"stopped": search_id})


async def check(request: Request) -> Response:
    try:
        query = query_of(request, CHECK_OPTIONS)
        problem = (await run_in_threadpool(puzzle_of, query)).problem
    except BadQuery as error:
        return bad(error)
    return JSONResponse({"ok": True, "letters": named_letters(problem), "unknowns": list(problem.unknowns)})


async def explain(request: Request) -> Response:
    try:
        puzzle = await run_in_threadpool(puzzle_of, query_of(request, CHECK_OPTIONS))
    except BadQuery as error:
        return bad(error)
    return JSONResponse(await run_in_threadpool(explanation, puzzle, timeout_of(request)))


async def play(request: Request) -> Response:
    """One move of a game: the decisions replayed, the move answered; each search within the time limit."""
    try:
        body = await request.json()
    except ValueError:
        return bad(BadQuery(400, "the body must be JSON: {\"formula\": ..., \"decisions\": [...], \"move\": ...}"))
    try:
        answer = await run_in_threadpool(play_move, body, timeout_of(request))
    except BadQuery as error:
        return bad(error)
    return JSONResponse(answer)


async def health(request: Request) -> Response:
    return JSONResponse({"version": __version__, "searches": len(searches_of(request).running),
                         "timeout": timeout_of(request)})


def worksheet_request(request: Request) -> tuple[list[str], str, str]:
    """The formulas, paper and title a worksheet request asks for; `BadQuery` where it cannot be made."""
    pairs = request.query_params.multi_items()
    unknown = sorted({name for name, _ in pairs} - set(WORKSHEET_OPTIONS))
    formulas = [value for name, value in pairs if name == "formula" and value.strip()]
    paper = request.query_params.get("paper", "a4").lower()
    if unknown:
        raise BadQuery(400, f"unknown option {unknown[0]!r} (known: {', '.join(WORKSHEET_OPTIONS)})")
    if not formulas:
        raise BadQuery(400, "no puzzles: give them as formula=...&formula=...")
    if len(formulas) > MAX_WORKSHEET_PUZZLES:
        raise BadQuery(413, f"{len(formulas)} puzzles: at most {MAX_WORKSHEET_PUZZLES} on a worksheet")
    if paper not in PAPERS:
        raise BadQuery(400, f"paper must be one of {', '.join(PAPERS)}")
    return formulas, paper, request.query_params.get("title", "Cryptarithms")


async def worksheet(request: Request) -> Response:
    timeout = timeout_of(request)
    try:
        formulas, paper, title = worksheet_request(request)
        sheet = await run_in_threadpool(build_worksheet, formulas, title=title[:200], paper=paper,
                                         timeout=timeout, total=timeout)  # the whole sheet within the limit
    except BadQuery as error:
        return bad(error)
    except FormulaError as error:
        return bad(formula_error(error))
    return HTMLResponse(sheet)


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
    yield
    app.state.searches.stop_all()  # the server stops: so do its searches


def create_app(timeout: float = DEFAULT_TIMEOUT) -> Starlette:
    """The application; `timeout` bounds each request's search, in seconds. The routes read the
    running searches and the limit from `app.state`."""
    app = Starlette(routes=ROUTES, lifespan=lifespan)
    app.state.searches = Searches()
    app.state.timeout = timeout
    return app


def line(event: dict[str, Any]) -> str:
    """One event of a stream: a line of JSON."""
    return json.dumps(event, ensure_ascii=False) + "\n"
