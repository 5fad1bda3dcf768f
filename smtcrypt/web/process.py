"""The server's end of a request's work: a process of its own, talking to the server over one pipe.

Why a process: a search is CPU work in Python and in Z3, and neither can be made to stop from
outside a thread at a moment of our choosing (a Z3 call looks at its interrupt only between large
steps; building an encoding or folding a constant looks at no clock). A process can always be
ended, and ending it gives back all its memory. `searches.py` starts one per request, from a fork
server that has the solver loaded already (`warm.py`), and kills it when its time is up or its
client has gone. A spare process, forked before it is needed, receives its `Job` first; a process
receives `("stop",)` and sends the messages of `jobs.py`.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from smtcrypt.search import set_memory_limit
from smtcrypt.web.jobs import WORK, Job, Outbox, search
from smtcrypt.web.query import BadQuery

PROGRESS_EVERY = 0.2  # seconds between two counts sent to the server


class Channel(Outbox):
    """The process's end of the pipe: sends from the search and from the counter thread, one at a time."""

    def __init__(self, conn: Connection):
        super().__init__()
        self.conn = conn
        self.lock = threading.Lock()

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

    def counting(self) -> Callable[[], None]:
        stopped = threading.Event()
        threading.Thread(target=self.count, args=(stopped,), name="count", daemon=True).start()
        return stopped.set

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
