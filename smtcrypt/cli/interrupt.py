"""Ctrl-C during a search: the search stops cleanly with what it found."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
from collections.abc import Iterator

from smtcrypt.search import Search


@contextlib.contextmanager
def stopped_by_ctrl_c(search: Search) -> Iterator[None]:
    """Ctrl-C ends the search cleanly, with what it found so far, and no line cut in half.

    Python runs its signal handlers only between bytecodes, never inside a long solver call, so
    the signal is also written to a socket that a helper thread watches: the thread interrupts
    the running call at once.
    """
    if threading.current_thread() is not threading.main_thread():  # signals reach the main thread only
        yield
        return
    watched, written = socket.socketpair()
    written.setblocking(False)

    def watch() -> None:
        with watched:
            while signals := watched.recv(64):
                if signal.SIGINT in signals:
                    search.request_stop()

    previous = signal.signal(signal.SIGINT, lambda signum, frame: search.request_stop())
    previous_fd = signal.set_wakeup_fd(written.fileno(), warn_on_full_buffer=False)
    threading.Thread(target=watch, daemon=True).start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous_fd)
        signal.signal(signal.SIGINT, previous)
        written.close()  # the watcher's recv returns empty and the thread ends
