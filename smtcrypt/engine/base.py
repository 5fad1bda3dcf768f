"""What every backend is: a search of one problem toward a goal before a deadline, in batches.

A backend yields the solutions it finds as batches (lists of letter assignments: one per model
from Z3, many from the others), can be stopped from another thread, reports what it cost, and
says how it ended as data: a `SearchEnd` with an `Ending` and, for a complete search, the `Proof`.
The portfolio (portfolio.py) reads only what `Backend` declares here.

A new backend is a new module: subclass `Backend`, give it a `name`, write `batches()` (read
`_stopping()` between steps, set `end` before returning), and say whether its solutions are
`exact` (proved without the re-check) or a solver's models.
"""

from __future__ import annotations

import abc
import enum
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from smtcrypt.core.results import Ending, Proof

Assignment = dict[str, int]  # like {"S": 9, "E": 5, ...}
DEADLINE_SLACK = 0.01  # seconds: this close to a deadline, no new solver check (nor a switch of backend) starts

__all__ = ["DEADLINE_SLACK", "STRATEGIES", "Assignment", "Backend", "Ending", "Halted", "Proof", "SearchEnd",
           "Strategy", "past"]


class Halted(Exception):
    """Long work before or inside a search (a plan, a sample of the costs, a block of rows) gave up
    at one of its looks at `halted()`: the search was stopped or its time is up. Whoever started the
    work says which, from its own state: the exception carries nothing."""


def past(deadline: float | None) -> bool:
    """True once `deadline` (a time.monotonic() value; None: none) has passed."""
    return deadline is not None and time.monotonic() >= deadline


class Strategy(str, enum.Enum):
    """The backend a caller may force; AUTO lets the portfolio choose and switch by cost."""

    AUTO = "auto"
    Z3 = "z3"
    LINEAR = "linear"
    DIGITS = "digits"
    JOIN = "join"
    CUBES = "cubes"
    EXHAUSTIVE = "exhaustive"


STRATEGIES = tuple(strategy.value for strategy in Strategy)  # the names a caller may pass


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


class Backend(abc.ABC):
    """One way to search: `batches()` yields the solutions as they are found, and `end` is set
    once it finishes. Iterating a backend gives the assignments one by one."""

    name: ClassVar[str]
    # True while the current batch's solutions are proved without the exact re-check (the compiled
    # formula's own evaluation, a bounded search, a cube's completions), each a fresh dict keyed
    # alphabetically; False for a solver's model, which must be re-checked
    exact: bool = False
    bulk: int = 0  # solutions counted but not yielded (when counting)
    deadline: float | None = None  # time.monotonic() by which the search ends as Ending.TIME
    end: SearchEnd | None = None
    stop_requested: bool = False

    @abc.abstractmethod
    def batches(self) -> Iterator[list[Assignment]]:
        """The solutions, each once, a list at a time (a list costs less to hand over than a
        generator step per solution)."""

    def __iter__(self) -> Iterator[Assignment]:
        for batch in self.batches():
            yield from batch

    def request_stop(self) -> None:
        """End the search soon; safe from a signal handler and from another thread."""
        self.stop_requested = True

    def statistics(self) -> dict[str, Any]:
        """What the search cost, in the backend's own counters."""
        return {}

    def _stopping(self) -> bool:
        """For a backend that runs in Python, read between its steps: True, with `end` set, once
        the search was stopped or its time is up."""
        if self.stop_requested:
            self.end = SearchEnd(Ending.INTERRUPTED)
        elif self.deadline is not None and time.monotonic() >= self.deadline:
            self.end = SearchEnd(Ending.TIME)
        return self.end is not None
