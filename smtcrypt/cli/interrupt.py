"""Ctrl-C and the time limit at every stage of a command: reading, encoding, planning, searching.

A command runs inside a `CommandGuard` (cli/__init__.py makes one for every subcommand but `serve`) and
says, stage by stage, how it can be ended (`CommandGuard.stage`). When Ctrl-C comes or the command's
time is up, three layers act, each for what the one before cannot reach:

1. The stage's own stop (a search's `request_stop`): the search ends with what it found, and the
   command prints its verdict as ever. Python runs signal handlers only between bytecodes, never
   inside a long solver call, so the signal is also written to a socket that a helper thread
   watches: the thread stops the search, which interrupts the running call at once.
2. Ctrl-C in a stage without a stop of its own (the readers, an explanation, the generator's loop):
   KeyboardInterrupt in the main thread, raised only where that is safe, never inside Z3's Python
   API (its ctypes calls would turn it into an ArgumentError, a traceback) nor in a finalizer
   (Python would print it and go on); elsewhere it is tried again a few milliseconds later. The
   command's own handler then prints its totals.
3. The last resort, GRACE seconds after the event if the command has not ended by then (at once
   for a stage that can neither stop nor be interrupted): the stage's last words (what was found
   so far, or why there is nothing) and the process ends at once, whatever still runs. A timer's
   signal brings it into the main thread even inside a long computation in C (a power of a
   billion bits checks for signals as it multiplies); the helper thread brings it while the main
   thread waits in a call that releases the interpreter (Z3). Only where the command owns the
   process (the `smtcrypt` program, not `main()` called from Python): a library must not end
   its host. Once the search has ended, writing its verdict is a `final` stage, which the last
   resort spares: hundreds of thousands of solutions take longer than GRACE to write as JSON, and
   a document cut off there is no document (a second Ctrl-C still ends it at once).

What neither reaches is a call in C that holds the interpreter and never checks for signals;
the limits at the door keep inputs from making such calls long.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

from smtcrypt.core.results import Ending

GRACE = 0.3  # seconds a stage has to end by itself after Ctrl-C or its deadline, before the last resort
RETRY = 0.005  # seconds between two tries at raising KeyboardInterrupt where it was not safe to
INTERRUPTED_CODE = 130
TIME_CODE = 3

_owner = False  # the running program is the `smtcrypt` command: the last resort may end the process
_current: CommandGuard | None = None


@contextlib.contextmanager
def owning_process() -> Iterator[None]:
    """While the program is the `smtcrypt` command itself (cli.run): the last resort may end the process."""
    global _owner
    _owner = True
    try:
        yield
    finally:
        _owner = False


def owns_process() -> bool:
    """True while the program is the `smtcrypt` command (not `main()` called from Python): what
    acts on the whole process (the last resort, the memory cap) may."""
    return _owner


def current() -> CommandGuard:
    """The guard of the running command; outside one (a function called from Python), a guard that
    installs nothing and whose stages only record what they are given."""
    return _current if _current is not None else CommandGuard()


@dataclass(frozen=True)
class Stage:
    """How the running stage can be ended."""

    # its own stop, safe from another thread and from a signal handler, told why (Ctrl-C or the time limit)
    stop: Callable[[Ending], None] | None = None
    # what the command prints if the last resort ends it now, and the exit code (None: a line on stderr)
    words: Callable[[Ending], int] | None = None
    raises: bool = True  # Ctrl-C raises KeyboardInterrupt in the main thread (at a safe point)
    clocked: bool = False  # the stage reads the same deadline itself (it gets GRACE to end on its own)
    # the stage writes what is already known (a verdict and the solutions found): the last resort does
    # not cut it short, for a document cut short is worse than one a little late (a second Ctrl-C still does)
    final: bool = False


def quietly(ending: Ending) -> int:
    """Last words that print nothing: the exit code only."""
    return INTERRUPTED_CODE if ending is Ending.INTERRUPTED else TIME_CODE


def default_words(ending: Ending) -> int:
    """`interrupted`, or the time limit, on stderr; 130 or 3."""
    print("interrupted" if ending is Ending.INTERRUPTED else "smtcrypt: time limit reached", file=sys.stderr)
    return quietly(ending)


def _unsafe_files() -> tuple[str, ...]:
    """The directories of code in which KeyboardInterrupt must not be raised: the Python side of
    libraries called through ctypes (Z3's API; llvmlite's, as numba compiles), which would turn it
    into an ArgumentError."""
    found = []
    for name in ("z3", "llvmlite", "ctypes"):
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        if path:
            found.append(os.path.dirname(path) + os.sep)
    return tuple(found)


def safe_to_raise(frame: FrameType | None) -> bool:
    """True if KeyboardInterrupt raised in `frame` (where the main thread is) reaches the command's
    handler: not inside Z3's API or ctypes, nor in a finalizer."""
    unsafe = _unsafe_files()
    while frame is not None:
        code = frame.f_code
        if code.co_name == "__del__" or (unsafe and code.co_filename.startswith(unsafe)):
            return False
        frame = frame.f_back
    return True


class CommandGuard:
    """Ctrl-C and the deadline of one command (see the module). Enter it in the main thread; in
    another thread (or not entered) it installs nothing, and only `left()` and the stages' own
    deadlines bound the work."""

    def __init__(self, timeout: float | None = None, *, started: float | None = None):
        self.started = time.monotonic() if started is None else started
        self._active = False
        self.deadline: float | None = None if timeout is None else self.started + timeout
        self.ending: Ending | None = None  # what ended the command early: Ctrl-C or the time limit
        self._stage = Stage()
        self._cut_at: float | None = None  # when the last resort acts
        self._raise_pending = False
        self._interrupts = 0  # Ctrl-C seen by the watcher: a second one ends the command at once
        self._lock = threading.RLock()  # events come from the main thread's handlers and from the watcher
        self._finishing = False
        self._restore: list[Callable[[], Any]] = []

    # --- what commands use ------------------------------------------------------------------------

    def limit(self, timeout: float | None) -> None:
        """The command's time limit: `timeout` seconds from its start (None: none, or no more)."""
        self.deadline = None if timeout is None else self.started + timeout
        if self._active:
            self._arm()

    def left(self) -> float | None:
        """Seconds left before the deadline (0 once past it); None without one."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    @contextlib.contextmanager
    def stage(self, stop: Callable[[Ending], None] | None = None, words: Callable[[Ending], int] | None = None,
              *, raises: bool = True, clocked: bool = False, final: bool = False) -> Iterator[None]:
        """Run a stage that ends as `Stage` says. An event that came before it (Ctrl-C while it was
        being set up) reaches its stop at once; a `final` stage calls off the last resort set for the
        stage before it (the search it reports has ended)."""
        with self._lock:
            previous = self._stage
            self._stage = Stage(stop, words, raises and not final, clocked, final)
            pending = self.ending
            self._raise_pending = self._raise_pending and raises and not final
            if final:
                self._cut_at = None
        if pending is not None and stop is not None:
            stop(pending)
        try:
            yield
        finally:
            with self._lock:
                self._stage = previous

    # --- installing ---------------------------------------------------------------------------------

    def __enter__(self) -> CommandGuard:
        global _current
        self._previous_guard = _current
        _current = self
        if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
            return self
        watched, written = socket.socketpair()
        written.setblocking(False)
        interrupt = signal.signal(signal.SIGINT, self._on_interrupt)
        alarm = signal.signal(signal.SIGALRM, self._on_alarm)
        wakeup = signal.set_wakeup_fd(written.fileno(), warn_on_full_buffer=False)
        self._restore = [lambda: signal.setitimer(signal.ITIMER_REAL, 0),
                         lambda: signal.set_wakeup_fd(wakeup), lambda: signal.signal(signal.SIGINT, interrupt),
                         lambda: signal.signal(signal.SIGALRM, alarm), written.close]
        self._active = True
        threading.Thread(target=self._watch, args=(watched,), name="smtcrypt-guard", daemon=True).start()
        self._arm()
        return self

    def __exit__(self, *exc: object) -> None:
        global _current
        _current = self._previous_guard
        with self._lock:
            self._active = False
        for restore in self._restore:  # the watcher's recv returns empty once `written` is closed, and it ends
            restore()
        self._restore = []

    # --- events -------------------------------------------------------------------------------------

    def _event(self, ending: Ending) -> None:
        """Ctrl-C or the deadline, once: the stage's stop is told, and the last resort is set."""
        with self._lock:
            if self.ending is not None or not self._active:
                return
            self.ending = ending
            stage = self._stage
            waits = stage.stop is not None or (stage.raises if ending is Ending.INTERRUPTED else stage.clocked)
            self._cut_at = None if stage.final else time.monotonic() + (GRACE if waits else 0.0)
            self._raise_pending = ending is Ending.INTERRUPTED and stage.raises
        if stage.stop is not None:
            stage.stop(ending)
        self._arm()

    def _tick(self) -> None:
        """The deadline, the last resort: acted on once due (from the timer's handler and the watcher)."""
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            self._event(Ending.TIME)
        if self._cut_at is not None and now >= self._cut_at:
            self._cut_at = None  # once: where the process is not ours, the stage's own end is all there is
            self._finish()
        self._arm()

    def _next(self) -> float | None:
        """When something is due next: the deadline (before it has struck), the last resort, a retry."""
        times = [self._cut_at]
        if self.ending is None:
            times.append(self.deadline)
        if self._raise_pending:
            times.append(time.monotonic() + RETRY)
        return min((moment for moment in times if moment is not None), default=None)

    def _arm(self) -> None:
        """The timer set for what is due next (a signal, so that it reaches the main thread in C)."""
        with self._lock:
            if not self._active:
                return
            due = self._next()
            with contextlib.suppress(ValueError, OSError):
                signal.setitimer(signal.ITIMER_REAL, 0 if due is None else max(1e-4, due - time.monotonic()))

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        """Ctrl-C, in the main thread (the watcher sees it too, and may have told the stage already)."""
        self._event(Ending.INTERRUPTED)
        self._try_raise(frame)

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        self._tick()
        self._try_raise(frame)

    def _try_raise(self, frame: FrameType | None) -> None:
        """KeyboardInterrupt for a stage that takes it, where it is safe; else again soon (`_next`)."""
        if not self._raise_pending or self._finishing or not self._active:  # (not while the guard is left)
            return
        if safe_to_raise(frame):
            self._raise_pending = False
            self._arm()
            raise KeyboardInterrupt
        self._arm()

    def _watch(self, watched: socket.socket) -> None:
        """The helper thread: signals as bytes on the socket, and the clock while the main thread is in C."""
        with watched:
            while True:
                due = self._next()
                timeout = None if due is None else max(0.0, due - time.monotonic())
                try:
                    ready, _, _ = select.select([watched], [], [], timeout)
                    data = watched.recv(64) if ready else b""
                except OSError:
                    return
                if ready and not data:  # the guard was left
                    return
                if signal.SIGINT in data:
                    self._interrupts += data.count(signal.SIGINT)
                    self._event(Ending.INTERRUPTED)
                    if self._interrupts > 1:  # asked twice: at once
                        self._finish()
                self._tick()

    def _finish(self) -> None:
        """The last resort: the stage's last words, and the process ends (only where it is ours)."""
        with self._lock:
            if self._finishing or not self._active or not _owner or self.ending is None:
                return
            self._finishing = True
            words, ending = self._stage.words or default_words, self.ending
        code = quietly(ending)
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            code = words(ending)
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        if "multiprocessing" in sys.modules:  # the processes it started (a pool's) end with it
            import multiprocessing

            with contextlib.suppress(Exception):
                for child in multiprocessing.active_children():
                    child.terminate()
        os._exit(code)
