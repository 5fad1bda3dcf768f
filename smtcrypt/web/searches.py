"""Searches run for requests: each in its own thread, with its own Z3 context, reported to the event loop.

A search is CPU work and a solver call that may run for seconds, so it never runs on the event
loop: a thread iterates the `Search` and hands each event to the loop with `call_soon_threadsafe`.
Whoever stops listening (a Stop button, a client that went away, the time limit) ends the search
with `Search.request_stop()`, which interrupts even a running solver call.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.present.data import solution_data, to_dict
from smtcrypt.search import Search

STREAMED_SOLUTIONS = 200  # solutions sent one by one to the page; past this only the count grows
END = None  # the last item of a search's event queue


class Running:
    """One search for one request. `events` receives dicts (`solution`, `done`, `error`), then END."""

    def __init__(self, puzzle: Puzzle, search: Search, *, mode: str, stream: bool, stats: bool,
                 loop: asyncio.AbstractEventLoop):
        self.id = secrets.token_urlsafe(12)
        self.puzzle = puzzle
        self.search = search
        self.mode = mode
        self.stream = stream  # send each solution as an event (the page), or only the verdict (the JSON API)
        self.stats = stats
        self.loop = loop
        self.events: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.finished = asyncio.Event()
        self.result: dict[str, Any] | None = None  # `smtcrypt --json`'s object, once done
        self.started = time.monotonic()
        self.forgotten: asyncio.Future[None] | None = None  # the task that drops this search from the running ones
        self.thread = threading.Thread(target=self._run, name=f"search {self.id}", daemon=True)

    @property
    def found(self) -> int:
        return self.search.found

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    def start(self) -> Running:
        self.thread.start()
        return self

    def request_stop(self) -> None:
        """End the search soon with what it found (status `unknown`, reason `interrupted`); safe at any time."""
        if not self.finished.is_set():
            self.search.request_stop()

    def _emit(self, event: dict[str, Any] | None) -> None:
        try:
            self.loop.call_soon_threadsafe(self._receive, event)
        except RuntimeError:  # the loop is closed: the server is shutting down, nobody listens
            self.search.request_stop()

    def _receive(self, event: dict[str, Any] | None) -> None:
        """On the loop: queue the event; the end marks the search finished."""
        if event is not None and event.get("event") == "done":
            self.result = event["verdict"]
        self.events.put_nowait(event)
        if event is END:
            self.finished.set()

    def _run(self) -> None:
        try:
            shown = 0
            for solution in self.search:
                if self.stream and shown < STREAMED_SOLUTIONS:
                    shown += 1
                    self._emit({"event": "solution", "index": shown, **solution_data(solution)})
                    if shown == STREAMED_SOLUTIONS:  # the page shows no more: count the rest without making them
                        self.search.keep = False
            verdict = to_dict(self.search.verdict(), stats=self.stats, solutions=self.mode != "count")
            if self.stream:  # the page has the solutions already, one event each
                verdict.pop("solutions", None)
            self._emit({"event": "done", "verdict": verdict, "shown": shown})
        except Exception as error:  # an internal error: reported to this request, the server goes on
            self._emit({"event": "error", "error": f"internal error: {type(error).__name__}: {error}"})
        finally:
            self._emit(END)


def prepare(puzzle: Puzzle, options: dict[str, Any], *, mode: str) -> Search:
    """The search a request asks for; a `ValueError` for a strategy that cannot search the puzzle."""
    return puzzle.search(**options, keep=mode != "count")  # a count is the number only, as `--count --json`


class Searches:
    """The searches running now, by id, so that a Stop request can find its search."""

    def __init__(self) -> None:
        self.running: dict[str, Running] = {}

    def start(self, puzzle: Puzzle, search: Search, *, mode: str, stream: bool, stats: bool = False) -> Running:
        """Run `search` (of `puzzle`, see `prepare`) in a thread of its own; call on the event loop."""
        running = Running(puzzle, search, mode=mode, stream=stream, stats=stats, loop=asyncio.get_running_loop())
        self.running[running.id] = running
        running.forgotten = asyncio.ensure_future(self._forget(running))
        return running.start()

    async def _forget(self, running: Running) -> None:
        await running.finished.wait()
        self.running.pop(running.id, None)

    def stop(self, search_id: str) -> bool:
        running = self.running.get(search_id)
        if running is None:
            return False
        running.request_stop()
        return True

    def stop_all(self) -> None:
        for running in list(self.running.values()):
            running.request_stop()
