"""Where the time goes: seconds per stage, for `--stats` and `Verdict.stats`."""

from __future__ import annotations

import time


class Clock:
    """Seconds spent per stage, accumulated: `with clock("solve"): ...`. Stages may nest (the engine
    compiles and encodes inside the first "solve"); the inner stage's time is not the outer's.

    A plain class rather than a generator-based context manager: a search with many solutions
    enters it twice per solution."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._open: list[tuple[str, float]] = []
        self._next = ""

    def __call__(self, stage: str) -> Clock:
        self._next = stage
        return self

    def __enter__(self) -> None:
        self._open.append((self._next, time.perf_counter()))

    def __exit__(self, *exc: object) -> None:
        stage, start = self._open.pop()
        spent = time.perf_counter() - start
        self.seconds[stage] = self.seconds.get(stage, 0.0) + spent
        if self._open:
            outer = self._open[-1][0]
            self.seconds[outer] = self.seconds.get(outer, 0.0) - spent
