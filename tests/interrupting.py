"""Ctrl-C sent to a real `smtcrypt` process once it shows a sign of work, never after a fixed delay.

A fixed delay is wrong both ways: on a fast machine the command may be done before the signal (the
test then interrupts nothing), on a loaded one it may still be loading modules (the test then
interrupts the wrong stage). So the command runs after a prelude (`SIGNS`) that writes a line on
stderr as a stage begins (`test-sign: search`, `test-sign: solution` at the first and `test-sign: 100000 solutions`,
`test-sign: explain`, `test-sign: move`), and the signal goes once that line, or a number of lines on stdout, has come.
The prelude only announces; it changes nothing the command does. Its lines are taken out of the
stderr that tests see.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = "test-sign: "
WAIT = 120.0  # seconds to wait for the sign (start-up on a loaded machine): past this the test fails

SIGNS = f"""
import functools, sys
def _sign(name):
    print({MARK!r} + name, file=sys.stderr, flush=True)
def _announce(owner, attribute, name):
    method = getattr(owner, attribute)
    @functools.wraps(method)
    def announced(*args, **kwargs):
        _sign(name)
        return method(*args, **kwargs)
    setattr(owner, attribute, announced)
from smtcrypt.search.loop import Search
_iterate = Search.__iter__
def _searching(self):
    _sign("search")
    for number, solution in enumerate(_iterate(self)):
        if number == 0:
            _sign("solution")
        elif number == 99_999:
            _sign("100000 solutions")
        yield solution
Search.__iter__ = _searching
import smtcrypt.api
_announce(smtcrypt.api.Puzzle, "explain", "explain")
_play = smtcrypt.api.Puzzle.play
def _playing(self, *args, **kwargs):
    game = _play(self, *args, **kwargs)
    _announce(game, "play", "move")
    return game
smtcrypt.api.Puzzle.play = _playing
"""
RUN = "\nimport sys\nsys.argv[0] = 'smtcrypt'\nfrom smtcrypt.cli import run\nrun()\n"


@dataclass
class Interrupted:
    code: int
    out: str
    err: str  # without the prelude's lines
    seconds: float  # from the signal to the end of the command


def environment() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def command(*args: str, script: str = "") -> list[str]:
    """The command line of `smtcrypt ARGS` after the prelude and `script` (which may make a stage
    slow, and call `_sign(name)` itself as it begins)."""
    return [sys.executable, "-c", SIGNS + script + RUN, *args]


def interrupt(argv: list[str], *, sign: str | None = None, signs: int = 1, lines: int = 0,
              stdin: str | None = None) -> Interrupted:
    """Run `argv` (a `command`) and send SIGINT once stderr has shown `sign` `signs` times and
    stdout `lines` lines. Fails if the command ends before that: it would have been interrupted too late."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(),
                               cwd=ROOT, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    out: list[str] = []
    err: list[str] = []
    changed = threading.Condition()

    def read(stream, into: list[str]) -> None:
        for line in stream:
            with changed:
                into.append(line)
                changed.notify_all()
        with changed:
            into.append("")  # the end
            changed.notify_all()

    readers = [threading.Thread(target=read, args=(process.stdout, out), daemon=True),
               threading.Thread(target=read, args=(process.stderr, err), daemon=True)]
    for reader in readers:
        reader.start()
    if stdin is not None:  # kept open: the command waits for more, as at a terminal
        process.stdin.write(stdin)
        process.stdin.flush()

    def shown() -> bool:
        seen = sum(line == MARK + f"{sign}\n" for line in err) if sign is not None else signs
        return seen >= signs and len([line for line in out if line]) >= lines

    def ended() -> bool:
        return "" in out and "" in err

    with changed:
        changed.wait_for(lambda: shown() or ended(), timeout=WAIT)
        ready = shown()
    if not ready:
        process.kill()
    assert ready, f"no sign of work ({sign!r}, {lines} lines) before the command ended: {''.join(out + err)[-2000:]}"
    assert process.poll() is None, "the command ended before it could be interrupted"
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    seconds = time.monotonic() - sent
    for reader in readers:
        reader.join(10)
    with contextlib.suppress(OSError):
        process.stdin.close()
    return Interrupted(process.returncode, "".join(out),
                       "".join(line for line in err if not line.startswith(MARK)), seconds)


def stop_once_started(search) -> threading.Thread:
    """From another thread, `search.request_stop()` as soon as the search has begun iterating (in
    Python a state to wait for, not a delay that a fast search outruns)."""
    def stop() -> None:
        deadline = time.monotonic() + WAIT
        while not search._started and time.monotonic() < deadline:
            time.sleep(0.001)
        search.request_stop()

    thread = threading.Thread(target=stop, daemon=True)
    thread.start()
    return thread
