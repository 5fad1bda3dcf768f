"""Running a job's chunks on local processes or on a Dask cluster, in order, and resumably.

A job is a picklable callable `task(chunk) -> result` over the chunks 0, 1, ..., n - 1. The
results are handed back in chunk order whatever order they finish in, so a run's output does not
depend on how many processes or machines shared it. Without a scheduler address the chunks run
here (`jobs` processes); with one they run on an existing Dask cluster (`dask scheduler` and
`dask worker` processes anywhere), which redoes the chunks of a worker lost mid-run. Dask is an
optional extra (`pip install "smtcrypt[dask]"`), imported only when a scheduler is given.

A checkpoint file records each chunk's result as soon as it finishes (one JSON line, written
and flushed whole); a run given the same file again replays those chunks from it instead of
computing them. A run killed at any moment loses only its unfinished chunks: a last line cut
short by the kill is dropped when the file is read.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import threading
import uuid
from collections.abc import Callable, Generator
from pathlib import Path
from typing import IO, Any, TypeVar

R = TypeVar("R")
Task = Callable[[int], Any]


class CheckpointError(ValueError):
    """A checkpoint file that belongs to another run, or that cannot be read."""


class Checkpoint:
    """Finished chunks of one run: a header line that names the run, then one line per chunk,
    `{"chunk": i, "result": ...}`. Only the byte offsets of the lines stay in memory."""

    def __init__(self, path: str | os.PathLike[str], run: dict[str, Any]):
        self.path = Path(path)
        self.offsets: dict[int, int] = {}
        header = json.dumps(run, sort_keys=True)
        try:
            self._open(header)
        except OSError as error:
            raise CheckpointError(f"cannot use checkpoint {self.path}: {error.strerror or error}") from None

    def _open(self, header: str) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.write_bytes((header + "\n").encode())
        with open(self.path, "rb") as existing:
            first = existing.readline()
            if first.rstrip(b"\n").decode(errors="replace") != header:
                raise CheckpointError(f"checkpoint {self.path} belongs to another run (other words, shape or "
                                      "options): give a new file, or delete this one to start over")
            good = existing.tell()
            for line in iter(existing.readline, b""):
                try:
                    chunk = json.loads(line)["chunk"] if line.endswith(b"\n") else None
                except (ValueError, KeyError, TypeError):
                    chunk = None
                if chunk is None:  # a line cut short by a kill: it and anything after it is redone
                    break
                self.offsets[chunk] = good
                good = existing.tell()
        # Kept open for the whole run, each chunk's line written as it finishes; `close()` ends it.
        self.file: IO[bytes] = open(self.path, "r+b")  # noqa: SIM115 - held past this method, closed by close()
        self.file.truncate(good)
        self.file.seek(good)

    def done(self) -> set[int]:
        return set(self.offsets)

    def load(self, chunk: int) -> Any:
        with open(self.path, "rb") as existing:
            existing.seek(self.offsets[chunk])
            return json.loads(existing.readline())["result"]

    def record(self, chunk: int, result: Any) -> None:
        offset = self.file.tell()
        self.file.write((json.dumps({"chunk": chunk, "result": result}, separators=(",", ":")) + "\n").encode())
        self.file.flush()
        self.offsets[chunk] = offset

    def close(self) -> None:
        self.file.close()


def run_chunks(task: Task, chunks: int, *, jobs: int = 1, scheduler: Any = None,
               checkpoint: Checkpoint | None = None, encode: Callable[[Any], Any] = lambda result: result,
               decode: Callable[[Any], Any] = lambda data: data,
               finished: Callable[[int, int], None] | None = None) -> Generator[tuple[int, Any], None, None]:
    """(chunk, task(chunk)) for every chunk, in chunk order. `finished(done, chunks)` is called as
    each chunk finishes, wherever it ran; chunks in `checkpoint` are read back, not run, and the
    others are recorded there as they finish (`encode` and `decode` turn results into JSON data
    and back). Closing the iterator (a limit reached, Ctrl-C) cancels the work still running."""
    done = checkpoint.done() if checkpoint is not None else set()
    todo = [chunk for chunk in range(chunks) if chunk not in done]
    waiting: dict[int, Any] = {}  # finished, not yet handed back
    count = len(done)
    released = 0
    if finished is not None:
        finished(count, chunks)
    source = (on_dask(task, todo, scheduler) if scheduler is not None else on_processes(task, todo, jobs))
    try:
        while True:
            while released < chunks and (released in waiting or released in done):
                if released in waiting:
                    yield released, waiting.pop(released)
                else:
                    assert checkpoint is not None  # only a checkpoint's chunks are done before they run
                    yield released, decode(checkpoint.load(released))
                released += 1
            if released >= chunks:
                return
            chunk, result = next(source)
            if checkpoint is not None:
                checkpoint.record(chunk, encode(result))
            waiting[chunk] = result
            count += 1
            if finished is not None:
                finished(count, chunks)
    finally:
        source.close()


_task: Task | None = None  # each pool process's own


def _start(task: Task) -> None:
    global _task
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it ends the pool
    _task = task


def _run(chunk: int) -> tuple[int, Any]:
    assert _task is not None
    return chunk, _task(chunk)


def on_processes(task: Task, todo: list[int], jobs: int) -> Generator[tuple[int, Any], None, None]:
    """The chunks on `jobs` local processes (here, with one), as they finish."""
    if jobs <= 1 or len(todo) <= 1:
        for chunk in todo:
            yield chunk, task(chunk)
        return
    pool = multiprocessing.Pool(jobs, initializer=_start, initargs=(task,))
    try:
        yield from pool.imap_unordered(_run, todo)
    finally:
        pool.terminate()
        pool.join()


def _on_worker(task: Task, chunk: int) -> Any:
    return task(chunk)


def on_dask(task: Task, todo: list[int], scheduler: Any) -> Generator[tuple[int, Any], None, None]:
    """The chunks on a Dask cluster (a scheduler address such as tcp://host:8786), as they finish.
    The task is sent to every worker once; each chunk is one Dask task that the scheduler
    reruns elsewhere if its worker is lost. Closing the iterator cancels what is left."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RuntimeError('a Dask scheduler needs the dask extra: pip install "smtcrypt[dask]"') from None
    client = Client(scheduler, set_as_default=False, timeout="20s") if isinstance(scheduler, str) else scheduler
    futures: dict[Any, int] = {}
    try:
        remote = client.scatter(task, broadcast=True, hash=False)
        run = uuid.uuid4().hex[:12]
        futures = {client.submit(_on_worker, remote, chunk, key=f"smtcrypt-{run}-{chunk}", pure=False): chunk
                   for chunk in todo}
        for future in as_completed(futures, loop=client.loop):
            chunk = futures.pop(future)
            yield chunk, future.result()
            future.release()
    finally:
        if futures:
            client.cancel(list(futures))
        if client is not scheduler:
            client.close()


class PerThread:
    """A value built once per process and thread (a Dask worker runs tasks on several threads),
    for a task's state that is costly to build, such as a Z3 context."""

    def __init__(self) -> None:
        self.local = threading.local()

    def get(self, token: str, build: Callable[[], R]) -> R:
        if getattr(self.local, "token", None) != token:
            self.local.value = build()
            self.local.token = token
        return self.local.value
