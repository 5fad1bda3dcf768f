"""The work of requests, each in a process of its own, at most `most` at once, reported to the event loop.

A request's search (and any other work that reads a puzzle: a check, an explanation, a move, a
worksheet) runs in a process forked from a fork server that has the solver loaded (`warm.py`), so
that it starts in a few milliseconds, and SPARES processes are forked ahead, so that a request
mostly finds one waiting for its job; `process.py` runs `jobs.py` there. A thread of the server relays
the process's messages to the event loop. The process is killed

- at its deadline: the request's time limit plus GRACE (the search stops itself at the limit and
  has GRACE to send its verdict; past it the verdict is made here, status `unknown`, reason `time
  limit`, with what was found);
- when its client has gone (nobody waits for it), or when the server stops;
- STOP_GRACE after a Stop that the search did not answer (reason `interrupted`).

A killed process frees its memory at once, and whatever it was doing (a Z3 call, building an
encoding, folding a constant) ends with it: the server is idle within GRACE of every limit.

Beyond `most` processes a request waits up to `wait` seconds for one to end (at most `most *
WAITING_PER_SEARCH` requests wait), then is refused with `Busy`: 503 with Retry-After.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import math
import multiprocessing
import secrets
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from smtcrypt.core.results import Ending
from smtcrypt.present.data import to_dict, with_solutions
from smtcrypt.search import DEFAULT_MEMORY_MB
from smtcrypt.search.verdicts import unfinished
from smtcrypt.web.jobs import STREAMED_SOLUTIONS, Job
from smtcrypt.web.process import run

__all__ = ["END", "GRACE", "SPARES", "STOP_GRACE", "STREAMED_SOLUTIONS", "Busy", "Gone", "Running", "Searches",
           "default_most"]

GRACE = 0.5  # seconds a process has past its limit to send its verdict, before it is killed
STOP_GRACE = 0.5  # seconds a stopped search has to send its verdict
WAIT = 2.0  # seconds a request beyond the cap waits for a search to end
WAITING_PER_SEARCH = 16  # requests that may wait, per search allowed (a waiting request costs next to nothing)
END = None  # the last item of a search's event queue
SPARES = 1  # processes forked ahead of the requests
PRELOAD = ["smtcrypt.web.warm"]  # the solver, warmed (and the server's main module left alone: see there)


def default_most() -> int:
    """One search per core, and at least two: the page checks a formula while it solves one."""
    return max(2, multiprocessing.cpu_count())


def context() -> ForkServerContext | SpawnContext:
    """Processes forked from a fork server that preloads the solver: safe in a server with threads
    (a plain fork is not), and quick. Where there is no fork server, each process starts afresh."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        forkserver = multiprocessing.get_context("forkserver")
        forkserver.set_forkserver_preload(PRELOAD)  # before the fork server starts; later, no effect
        return forkserver
    return multiprocessing.get_context("spawn")


def start_fork_server() -> None:
    """Start the fork server now (it loads and warms the solver in the background), not on the first request."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context()
        from multiprocessing import forkserver

        forkserver.ensure_running()


class Busy(Exception):
    """Every search process is taken and the wait is over: 503, try again in `retry_after` seconds."""

    def __init__(self, most: int, retry_after: int):
        super().__init__(f"the server is busy: {most} searches are running, its limit; try again in "
                         f"{retry_after} s")
        self.retry_after = retry_after


class Gone(Exception):
    """The client went away while its request waited for room: nothing was started."""


class Spare:
    """A process forked before it is needed, waiting for its job (`process.run` without one): a request's
    work then starts without waiting for a fork. Made in a thread, as starting a process waits."""

    def __init__(self, context: ForkServerContext | SpawnContext):
        self.conn, theirs = context.Pipe()
        self.process: BaseProcess = context.Process(target=run, args=(theirs,), daemon=True, name="smtcrypt spare")
        try:
            self.process.start()
        finally:
            theirs.close()

    def end(self) -> None:
        """A spare no longer wanted: closing its pipe ends it (and so does a kill, should it linger)."""
        self.conn.close()
        with contextlib.suppress(Exception):
            self.process.kill()  # (the fork server, its parent, collects it)


class Running:
    """One request's process. `first` resolves with the first answer that matters to the request: a
    search's start (a dict), or a refusal or result (`finished`). A search's events (dicts:
    `solution`, `done`, `error`), then END, go to `events`."""

    def __init__(self, job: Job, searches: Searches):
        self.id = secrets.token_urlsafe(12)
        self.job = job
        self.searches = searches
        self.loop = asyncio.get_running_loop()
        self.started = time.monotonic()
        self.events: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.first: asyncio.Future[None] = self.loop.create_future()
        self.finished = asyncio.Event()
        self.exited = asyncio.Event()
        self.start_info: dict[str, Any] | None = None  # a search's: formula, letters, timeout
        self.result: Any = None  # a search's verdict (`smtcrypt --json`'s object), or the work's answer
        self.refusal: tuple[int, dict[str, Any]] | None = None  # (status, body) for a request refused
        self.found = 0
        self.shown = 0
        self.solutions: list[dict[str, Any]] = []  # a JSON answer's, as they come
        self.killed: str | None = None  # why the process was killed: a verdict's reason
        self.stop_sent = False
        self.deadline = self.started + job.timeout  # the limit, set again once the process has started
        self.overdue: asyncio.TimerHandle | None = None
        self.conn: Connection | None = None
        self.process: BaseProcess | None = None

    async def launch(self, spare: Spare | None) -> None:
        """Give the job to `spare`, or to a process started now (in a thread: the fork server answers
        once it has forked); then start its relay and its clock."""
        if spare is not None:
            try:
                spare.conn.send(self.job)
            except OSError:  # the spare has gone: a process of its own, then
                spare.end()
                spare = None
            else:
                self.conn, self.process = spare.conn, spare.process
        if spare is None:
            conn, theirs = self.searches.context.Pipe()
            process = self.searches.context.Process(target=run, args=(theirs, self.job), daemon=True,
                                                    name=f"smtcrypt search {self.id}")
            try:
                await self.loop.run_in_executor(None, process.start)
            finally:
                theirs.close()  # the process's end is the process's: its death closes the pipe
            self.conn, self.process = conn, process
        self.started = time.monotonic()
        self.deadline = self.started + self.job.timeout
        threading.Thread(target=self._relay, name=f"relay {self.id}", daemon=True).start()
        self.overdue = self.loop.call_later(self.job.timeout + GRACE, self.kill, "time limit")

    @property
    def mode(self) -> str:
        return self.job.query.mode if self.job.query is not None else self.job.kind

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.started

    @property
    def timeout(self) -> float:
        return self.start_info["timeout"] if self.start_info else self.job.timeout

    # ---- from the event loop

    def request_stop(self) -> None:
        """End the search soon with what it found (status `unknown`, reason `interrupted`); safe at any time."""
        if self.finished.is_set() or self.stop_sent or self.conn is None:
            return
        self.stop_sent = True
        with contextlib.suppress(OSError):  # the process has ended: its verdict is on its way
            self.conn.send(("stop",))
        self.loop.call_later(STOP_GRACE, self.kill, "interrupted")

    def kill(self, reason: str = "interrupted") -> None:
        """End the process now; the request's answer, where it has not come, is made from what came."""
        if not self.finished.is_set():
            self.killed = reason
            self._finish_without_answer()
        # started and not ended (whether it has ended, only the relay thread asks the process)
        if not self.exited.is_set() and self.process is not None and self.process.pid is not None:
            self.process.kill()

    # ---- the relay thread: messages to the loop, then the process's end

    def _relay(self) -> None:
        assert self.conn is not None and self.process is not None
        try:
            while True:
                message = self.conn.recv()
                self._to_loop(self._receive, message)
        except (EOFError, OSError):  # the process has ended, or was killed
            pass
        finally:
            self.process.join()
            self.conn.close()
            self._to_loop(self._exit)

    def _to_loop(self, call: Any, *args: Any) -> None:
        try:
            self.loop.call_soon_threadsafe(call, *args)
        except RuntimeError:  # the loop is closed: the server has stopped, nobody listens
            if self.process is not None:
                self.process.kill()

    # ---- on the loop

    def _receive(self, message: tuple[Any, ...]) -> None:
        if self.finished.is_set():
            return  # answered already (killed at a limit): what comes late is dropped
        kind = message[0]
        if kind == "start":
            self.start_info = message[1]
            self._resolve_first()
        elif kind == "solution":
            self.shown = message[1]["index"]
            self.found = max(self.found, self.shown)
            self.events.put_nowait(message[1])
        elif kind == "solutions":
            self.solutions.extend(message[1])
            self.found = max(self.found, len(self.solutions))
        elif kind == "found":
            self.found = max(self.found, message[1])
        elif kind == "done":
            verdict, shown = message[1], message[2]
            self.result = self._with_solutions(verdict)
            self._finish({"event": "done", "verdict": verdict, "shown": shown})
        elif kind == "result":
            self.result = message[1]
            self._finish(None)
        elif kind == "refused":
            self.refusal = (message[1], message[2])
            self._finish(None)
        elif kind == "memory":
            self.killed = "memory limit"
            self._finish_without_answer()
        elif kind == "error":
            self._finish({"event": "error", "error": message[1]})

    def _exit(self) -> None:
        """The process has ended: its slot is free. Ended without an answer, it failed."""
        if not self.finished.is_set():
            code = self.process.exitcode if self.process is not None else None
            self._finish({"event": "error", "error": f"internal error: the search process ended (exit code {code})"})
        if self.overdue is not None:
            self.overdue.cancel()
        self.exited.set()
        self.searches.forget(self)

    def _resolve_first(self) -> None:
        if not self.first.done():
            self.first.set_result(None)

    def _finish(self, event: dict[str, Any] | None) -> None:
        if event is not None:
            self.events.put_nowait(event)
        self.events.put_nowait(END)
        self.finished.set()
        self._resolve_first()

    def _finish_without_answer(self) -> None:
        """The answer when the process gave none: a search that has started ends `unknown` with the
        reason and what it found; anything else is refused, 422 at a limit."""
        if self.job.kind == "search" and self.start_info is not None:
            self.result = self._with_solutions(self._unknown_verdict())
            verdict = {key: value for key, value in self.result.items() if key != "solutions"}
            self._finish({"event": "done", "verdict": verdict, "shown": self.shown})
            return
        what = {"search": "reading the puzzle", "check": "reading the puzzle", "explain": "the explanation",
                "play": "the move", "worksheet": "the worksheet"}[self.job.kind]
        limit = self.job.timeout
        if self.killed == "memory limit":
            error = f"{what} needed more than the {self.job.memory_mb} MB this server allows it"
        elif self.killed == "time limit":
            error = f"{what} did not end within this server's time limit ({limit:g} s)"
        else:
            error = f"{what} was stopped"
        self.refusal = (422, {"error": error})
        self._finish(None)

    def _unknown_verdict(self) -> dict[str, Any]:
        """`smtcrypt --json`'s object for a search ended from outside (the solutions are added after),
        from the search's fields it sent at its start."""
        assert self.start_info is not None
        fields = self.start_info.get("fields", {})
        verdict = unfinished(fields.get("formula", self.start_info["formula"]), Ending(self.killed or "interrupted"),
                             self.seconds, found=self.found)
        return to_dict(verdict, solutions=False, fields=fields)

    def _with_solutions(self, verdict: dict[str, Any]) -> dict[str, Any]:
        """A JSON answer's verdict with the solutions sent before it, where `to_dict` puts them."""
        if self.job.stream or (self.job.query is not None and self.job.query.mode == "count"):
            return verdict
        return with_solutions(verdict, self.solutions)


class Searches:
    """The processes running now, by id (so that a Stop request finds its search), at most `most`."""

    def __init__(self, most: int | None = None, *, wait: float = WAIT, memory_mb: int = DEFAULT_MEMORY_MB):
        self.most = default_most() if most is None else most
        self.wait = wait
        self.memory_mb = memory_mb
        self.running: dict[str, Running] = {}
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self.context = context()
        self.spares: list[Spare] = []
        self.making = 0  # spares being started
        self.closed = False

    async def start(self, job: Job, gone: asyncio.Future[Any] | None = None) -> Running:
        """Start `job` in a process of its own once there is room; `Busy` when there is none in time,
        `Gone` when `gone` (the client's disconnect) comes first. Call on the event loop."""
        await self._room(gone)
        job.memory_mb = self.memory_mb
        running = Running(job, self)
        self.running[running.id] = running  # the room is taken before the process has started
        try:
            await running.launch(self.spares.pop(0) if self.spares else None)
        except BaseException:
            running.kill()
            self.forget(running)
            raise
        finally:
            self.make_spares()
        return running

    def make_spares(self) -> None:
        """Start SPARES processes ahead, in threads, where there are fewer; call on the event loop."""
        loop = asyncio.get_running_loop()
        while not self.closed and len(self.spares) + self.making < SPARES:
            self.making += 1
            loop.run_in_executor(None, Spare, self.context).add_done_callback(self._made)

    def _made(self, made: asyncio.Future[Spare]) -> None:
        self.making -= 1
        if made.cancelled() or made.exception() is not None:
            return  # no spare this time: the next request starts its own process
        spare = made.result()
        if self.closed:
            spare.end()
        else:
            self.spares.append(spare)

    async def _room(self, gone: asyncio.Future[Any] | None) -> None:
        """Return once a process may start; first come, first served."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.wait
        while self.waiting or len(self.running) >= self.most:
            left = deadline - loop.time()
            if left <= 0 or len(self.waiting) >= self.most * WAITING_PER_SEARCH:
                raise Busy(self.most, self.retry_after())
            room = loop.create_future()
            self.waiting.append(room)
            try:
                await asyncio.wait({room} if gone is None else {room, gone}, timeout=left,
                                   return_when=asyncio.FIRST_COMPLETED)
            finally:
                if room in self.waiting:
                    self.waiting.remove(room)
                elif room.done() and not room.cancelled() and (gone is not None and gone.done()):
                    self._wake_next()  # woken, but its client has gone: the room passes on
            if gone is not None and gone.done():
                raise Gone
            if not room.done():
                room.cancel()
                raise Busy(self.most, self.retry_after())
            if len(self.running) < self.most:
                return

    def retry_after(self) -> int:
        """Whole seconds until the first running search reaches its deadline."""
        now = time.monotonic()
        soonest = min((running.deadline + GRACE - now for running in self.running.values()), default=1.0)
        return max(1, math.ceil(soonest))

    def forget(self, running: Running) -> None:
        """A process has ended: its room goes to the first request waiting."""
        self.running.pop(running.id, None)
        self._wake_next()

    def _wake_next(self) -> None:
        while self.waiting:
            room = self.waiting.popleft()
            if not room.done():
                room.set_result(None)
                break

    def stop(self, search_id: str) -> bool:
        running = self.running.get(search_id)
        if running is None or running.job.kind != "search":
            return False
        running.request_stop()
        return True

    def stop_all(self) -> None:
        """The server stops: every process ends, the spares too."""
        self.closed = True
        for running in list(self.running.values()):
            running.kill()
        while self.spares:
            self.spares.pop().end()
