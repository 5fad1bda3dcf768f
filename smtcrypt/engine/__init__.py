"""Stage 4: search a checked problem for its solutions, by whichever backend is cheapest.

Every backend takes a `Problem` toward a goal (all solutions, or the first few) before a
deadline, yields letter assignments as it finds them, can be stopped from another thread, and
says how it ended as data: a `SearchEnd` with an `Ending` and, for a complete search, the proof.
`portfolio.Portfolio` picks and switches between them; `api.Search` only wires it to the rest.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

Assignment = dict[str, int]  # like {"S": 9, "E": 5, ...}


class Ending(str, enum.Enum):
    """Why a search ended."""

    COMPLETE = "complete"  # every solution was found, and that is proved (see SearchEnd.proof)
    LIMIT = "limit"  # the solutions asked for were found; more may exist
    TIME = "time limit"
    MEMORY = "memory limit"
    INTERRUPTED = "interrupted"
    GAVE_UP = "solver gave up"
    CAPPED = "capped"  # many models over unbounded integer unknowns: perhaps infinitely many


class Proof(str, enum.Enum):
    """How a complete search showed there is nothing more."""

    UNSAT = "unsat"  # Z3 answered unsat to "is there another solution?"
    EXHAUSTIVE = "every assignment tried"  # the compiled exact evaluator on every assignment the rules allow
    BOUNDED = "every assignment covered by a bounded search"  # a linear equation's digits, cut by its bounds
    CUBES = "unsat, each cube of solutions proved by unsat"  # blocking whole cubes, each proved to hold only solutions


@dataclass(frozen=True)
class SearchEnd:
    """How an enumeration ended: complete (with its proof), or why not."""

    ending: Ending
    detail: str | None = None  # the solver's own words when it gave up, or the cap's explanation
    proof: Proof | None = None  # how completeness was shown, for a complete search

    @property
    def complete(self) -> bool:
        return self.ending is Ending.COMPLETE

    @property
    def reason(self) -> str | None:
        """Why the search is incomplete, in words for people; None when it is complete."""
        if self.ending is Ending.COMPLETE:
            return None
        if self.ending is Ending.GAVE_UP:
            return f"solver gave up: {self.detail}"
        if self.ending is Ending.CAPPED and self.detail:
            return self.detail
        return self.ending.value


class Backend(Protocol):
    """One way to search: iterate for assignments; `end` is set once iteration finishes."""

    name: str
    end: SearchEnd | None

    def __iter__(self) -> Iterator[Assignment]:
        """Each solution's assignment once, as it is found."""

    def request_stop(self) -> None:
        """End the search soon; safe from a signal handler and from another thread."""

    def statistics(self) -> dict[str, Any]:
        """What the search cost, in the backend's own counters."""


class Stoppable:
    """The stop flag and the deadline of a backend that runs in Python, read between its steps."""

    deadline: float | None = None
    end: SearchEnd | None = None
    stop_requested = False

    def request_stop(self) -> None:
        self.stop_requested = True

    def _stopping(self) -> bool:
        """True, with `end` set, once the search was stopped or its time is up."""
        if self.stop_requested:
            self.end = SearchEnd(Ending.INTERRUPTED)
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            self.end = SearchEnd(Ending.TIME)
        return self.end is not None
