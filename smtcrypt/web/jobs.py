"""The work of one request, done in a process of its own: reading the puzzle, searching, explaining,
a move of a game, a worksheet.

Why a process: a search is CPU work in Python and in Z3, and neither can be made to stop from
outside a thread at a moment of our choosing (a Z3 call looks at its interrupt only between large
steps; building an encoding or folding a constant looks at no clock). A process can always be
ended, and ending it gives back all its memory. `searches.py` starts one per request, from a fork
server that has the solver loaded already (`warm.py`), and kills it when its time is up or its
client has gone.

The process talks to the server over one pipe. A spare process, forked before it is needed,
receives its `Job` first. A process receives `("stop",)`; it sends

    ("start", {"formula", "letters", "timeout",    a search has read its puzzle and begins (`fields`: what
               "fields"})                          its verdict's object says of the puzzle as written)
    ("solution", {...})                          one solution of a stream, as the page shows it
    ("solutions", [{...}, ...])                  solutions of a JSON answer, in batches
    ("found", n)                                 the count so far, every PROGRESS_EVERY seconds
    ("done", verdict, shown)                     the verdict (`smtcrypt --json`'s object, its
                                                 solutions sent before)
    ("result", data)                             the answer of any other work
    ("refused", status, body)                    bad input: the 4xx to answer
    ("memory",)                                  the work ran out of the memory it may use
    ("error", text)                              an internal error

Nothing here imports the web framework.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.letters import is_wildcard
from smtcrypt.errors import FormulaError
from smtcrypt.present.data import explanation
from smtcrypt.present.report import Report
from smtcrypt.search import DEFAULT_MEMORY_MB, Search, set_memory_limit
from smtcrypt.search.verdicts import impossible
from smtcrypt.teach.worksheet import build_worksheet
from smtcrypt.web.play import play
from smtcrypt.web.query import BadQuery, Query, formula_error, puzzle_of

STREAMED_SOLUTIONS = 200  # solutions sent one by one to the page; past this only the count grows
BATCH = 1000  # solutions of a JSON answer sent to the server at once
PROGRESS_EVERY = 0.2  # seconds between two counts sent to the server
MIN_SECONDS = 0.01  # what a search is given when reading its puzzle used up the time


@dataclass
class Job:
    """One request's work, and the seconds it may take from the start of its process, reading the
    puzzle included: the work gets the time left (`seconds_left`)."""

    kind: str  # "search", "check", "explain", "play" or "worksheet"
    timeout: float
    query: Query | None = None  # the search's, the check's and the explanation's puzzle and options
    stream: bool = False  # a search: each solution as an event (the page), or the verdict only (the JSON API)
    body: Any = None  # a move: the request's JSON; a worksheet: (formulas, title, paper)
    memory_mb: int = DEFAULT_MEMORY_MB
    deadline: float = math.inf  # a `time.monotonic()` moment, set where the work starts

    def start_clock(self) -> None:
        self.deadline = time.monotonic() + self.timeout

    def seconds_left(self) -> float:
        return max(self.deadline - time.monotonic(), MIN_SECONDS)


class Channel:
    """The process's end of the pipe: sends from the search and from the counter thread, one at a time."""

    def __init__(self, conn: Connection):
        self.conn = conn
        self.lock = threading.Lock()
        self.search: Search | None = None
        self.stop_requested = False

    def send(self, message: tuple[Any, ...]) -> None:
        with self.lock:
            self.conn.send(message)

    def listen(self) -> None:
        """A thread: `stop` stops the search; the server gone (the pipe closed) ends the process."""
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                os._exit(0)  # nobody to answer: the server has gone
            if message == ("stop",):
                self.stop_requested = True
                if self.search is not None:
                    self.search.request_stop()

    def count(self, stopped: threading.Event) -> None:
        """A thread: the count found so far, for the stream's progress lines and a verdict made without us."""
        sent = -1
        while not stopped.wait(PROGRESS_EVERY):
            found = self.search.found if self.search is not None else 0
            if found != sent:
                sent = found
                with contextlib.suppress(OSError):
                    self.send(("found", found))


def limit_memory(megabytes: int) -> None:
    """Z3's cap, and the process's address space: room for what is loaded now plus `megabytes`,
    so that any allocation past it is a MemoryError here, never the machine's memory."""
    set_memory_limit(megabytes)
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            loaded = int(statm.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return  # no /proc: Z3's own cap only
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = loaded + megabytes * 2**20
    if hard == resource.RLIM_INFINITY or wanted <= hard:
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


def run(conn: Connection, job: Job | None = None) -> None:
    """The process's whole life: do `job` (None: a spare process, which first waits for its job on
    the pipe), send its answer, end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the server's terminal: the server ends us
    if job is None:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return  # never used: the server has gone, or no longer needs a spare
    assert isinstance(job, Job)
    job.start_clock()
    channel = Channel(conn)
    threading.Thread(target=channel.listen, name="listen", daemon=True).start()
    try:
        limit_memory(job.memory_mb)
        if job.kind == "search":
            search(channel, job)
        else:
            channel.send(("result", WORK[job.kind](job)))
    except BadQuery as error:
        channel.send(("refused", error.status, error.body))
    except MemoryError:
        channel.send(("memory",))
    except Exception as error:  # an internal error: reported to this request only
        channel.send(("error", f"internal error: {type(error).__name__}: {error}"))


def named_letters(problem: Problem) -> list[str]:
    """The puzzle's letters as the user wrote them: the hidden names of its `?`s are no letters to show."""
    return [letter for letter in problem.letters if not is_wildcard(letter)]


def search(channel: Channel, job: Job) -> None:
    """Read the puzzle, search within the time left, send the solutions and the verdict, written by
    the one report of every interface (`present.report`): the object `smtcrypt --json` prints."""
    query = job.query
    assert query is not None
    started = time.monotonic()
    puzzle = puzzle_of(query)
    mode = query.mode
    try:
        output = Report(puzzle.reading)
    except FormulaError as error:  # the notation's answer expression (enigma.py's --answer)
        raise formula_error(error) from None
    options = {**query.search_options, "timeout": job.seconds_left()}
    try:
        searching = puzzle.search(**options, keep=mode != "count")  # a count is the number only, as `--count --json`
    except ValueError as error:  # a strategy that cannot search this puzzle
        raise BadQuery(400, str(error), option="strategy") from None
    channel.search = searching
    if channel.stop_requested:
        searching.request_stop()
    problem = puzzle.problem
    channel.send(("start", {"formula": problem.source, "letters": named_letters(problem),
                            "timeout": job.timeout,  # the request's limit; the search has what is left
                            "fields": {"formula": searching.formula, **output.fields()}}))
    if puzzle.reading.impossible is not None:  # ruled out before any search, as on the command line
        channel.send(("done", output.verdict(impossible(puzzle.reading.text, time.monotonic() - started),
                                             stats=query.stats, solutions=False), 0))
        return
    stopped = threading.Event()
    threading.Thread(target=channel.count, args=(stopped,), name="count", daemon=True).start()
    shown, batch = 0, []
    try:
        for solution in searching:
            if job.stream:
                if shown < STREAMED_SOLUTIONS:
                    shown += 1
                    channel.send(("solution", {"event": "solution", "index": shown, **output.page(solution)}))
                    if shown == STREAMED_SOLUTIONS:  # the page shows no more: count the rest without making them
                        searching.keep = False
            else:
                batch.append(output.entry(solution, output.found(solution)))
                if len(batch) >= BATCH:
                    channel.send(("solutions", batch))
                    batch = []
        if batch:
            channel.send(("solutions", batch))
        verdict = output.verdict(searching.verdict(), stats=query.stats, solutions=False)
    finally:
        stopped.set()
    channel.send(("done", verdict, shown))


def check(job: Job) -> dict[str, Any]:
    assert job.query is not None
    problem = puzzle_of(job.query).problem
    return {"ok": True, "letters": named_letters(problem), "unknowns": list(problem.unknowns)}


def explain(job: Job) -> dict[str, Any]:
    assert job.query is not None
    puzzle = puzzle_of(job.query)
    return explanation(puzzle, job.seconds_left())


def move(job: Job) -> dict[str, Any]:
    return play(job.body, job.seconds_left())


def worksheet(job: Job) -> str:
    formulas, title, paper = job.body
    seconds = job.seconds_left()
    try:  # the whole sheet within the limit
        return build_worksheet(formulas, title=title, paper=paper, timeout=seconds, total=seconds)
    except FormulaError as error:
        raise formula_error(error) from None


WORK: dict[str, Callable[[Job], Any]] = {"check": check, "explain": explain, "play": move, "worksheet": worksheet}
