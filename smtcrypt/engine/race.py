"""The race for one solution: Z3 on a helper thread against trying every assignment here.

Z3's first solution is a matter of luck (its time varies widely with the random seed), trying
every assignment is not; the portfolio races them where one solution is wanted (see
`Portfolio._race`). Threads live here, apart from the cost model.
"""

from __future__ import annotations

import itertools
import sys
import threading

from smtcrypt.engine.base import Assignment, Backend

RACE_SWITCH_INTERVAL = 2e-4  # seconds: the interpreter's thread switch interval while Z3 races on a helper thread


def race(solver: Backend, exhaustive: Backend, first: list[Assignment], alone: float) -> list[Assignment] | None:
    """Runs the race after `alone` seconds of Z3 by itself: Z3's first model lands in `first`; the
    exhaustive side's first batch is returned (None if Z3 answered first or it found none)."""
    answered = threading.Event()

    def run() -> None:
        try:
            first.extend(itertools.islice(solver, 1))
        finally:
            exhaustive.request_stop()
            answered.set()

    # Z3's checks come back to Python now and then and must wait for the interpreter lock each
    # time: at the default switch interval, a check beside a busy Python loop takes many times
    # longer than alone. A short interval while racing, restored after the race.
    interval = sys.getswitchinterval()
    thread = threading.Thread(target=run, name="smtcrypt-race", daemon=True)
    thread.start()
    try:
        found = None
        if not answered.wait(alone):  # Z3 alone first: most first solutions take it less
            sys.setswitchinterval(RACE_SWITCH_INTERVAL)
            found = next((batch for batch in exhaustive.batches() if batch), None)
    finally:
        solver.request_stop()
        thread.join()
        sys.setswitchinterval(interval)
    return found
