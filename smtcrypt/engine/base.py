"""What every backend is: a search of one problem toward a goal before a deadline, in batches.

The portfolio (portfolio.py) reads only what `Backend` declares here, so that a new backend is a new
module and one row of its table (`BACKENDS`): a `name`, `fit()` (does it take a problem), `batches()`
(read `_stopping()` between steps, set `end` before returning) and whether its solutions are `exact`.
"""

from __future__ import annotations

import abc
import enum
import functools
import importlib.util
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from smtcrypt.core.results import Ending, Proof
from smtcrypt.core.statistics import Statistics
from smtcrypt.core.tree import letters_of

if TYPE_CHECKING:  # z3 loads with the backends that need it; compiled.py imports this module
    import z3

    from smtcrypt.core.check import Problem
    from smtcrypt.engine.compiled import Compiled

Assignment = dict[str, int]  # like {"S": 9, "E": 5, ...}
Clock = Callable[[str], AbstractContextManager[Any]]  # times a stage: `with clock("compile"): ...`
# Where Python can start no thread (Pyodide, the page without a server), no timer interrupts Z3 and no
# race runs: the page ends a search by ending its worker.
THREADS = sys.platform not in ("emscripten", "wasi")
DEADLINE_SLACK = 0.01  # seconds: this close to a deadline, no new solver check (nor a switch of backend) starts

__all__ = ["DEADLINE_SLACK", "STRATEGIES", "Assignment", "Backend", "Clock", "Ending", "Executor", "Fit", "Halted",
           "Means", "Proof", "SearchEnd", "Statistics", "Strategy", "compiled_available", "letters_of", "past",
           "untimed"]


class Halted(Exception):
    """Long work before or inside a search (a plan, a sample of the costs) gave up at a look at
    `halted()`: stopped or out of time, which whoever started the work says from its own state."""


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


class Executor(str, enum.Enum):
    """How the kernel searches (the sums', the digit plan's) run, handed down to the backends in `Means` so
    that what runs is what the caller asked. PLAIN: the interpreter alone, no numba or numpy (the browser's
    path). COMPILED: numba's kernels where installed (loaded once a process: worth it for a batch or the
    generator). AUTO: plain, but the digit plan's walk compiled past `digits.PLAIN_STEPS` steps."""

    AUTO = "auto"
    PLAIN = "plain"
    COMPILED = "compiled"


@functools.cache
def compiled_available() -> bool:
    """True where numba is installed, so that `Executor.COMPILED` can run the compiled kernels
    (found without importing it, whose import alone is dear; looked up once a process)."""
    return importlib.util.find_spec("numba") is not None


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
        return self.detail if self.ending is Ending.CAPPED and self.detail else self.ending.value


def untimed(stage: str) -> AbstractContextManager[Any]:
    """A `Clock` that times nothing."""
    return nullcontext()


# Where a backend that has no place for integer unknowns sends a user (its refusal's `instead`)
UNKNOWNS_ELSEWHERE = "every strategy takes unknowns the formula bounds (such as 0 <= x <= 3), and z3 the others"


@dataclass(frozen=True)
class Fit:
    """A backend's answer to whether it takes a problem, before it searches: a forced strategy is refused at
    once in words a user can act on, and `auto` passes over it. `made` is what the answer took to work out
    (the backend itself, Z3 terms, the compiled formula), so that the search does not work it out again."""

    ok: bool
    reason: str = ""
    instead: str = ""
    made: Any = None

    @classmethod
    def taken(cls, made: Any = None) -> Fit:
        return cls(True, made=made)

    @classmethod
    def refused(cls, reason: str, instead: str = "") -> Fit:
        return cls(False, reason, instead)

    def refusal(self, strategy: str) -> str:
        """The refusal as a user reads it: `the join strategy cannot search this puzzle: it needs ...`."""
        text = f"the {strategy} strategy cannot search this puzzle: {self.reason}"
        return f"{text}; {self.instead}" if self.instead else text


@dataclass(frozen=True)
class Means:
    """What a fit test (and a backend's `start()`) may use besides the problem, lent by the search
    that asks, so that the work of deciding is bounded, timed and shared as the search's own."""

    compiled: Callable[[], Compiled | None]  # the formula compiled once (None where it cannot be)
    context: Callable[[], z3.Context]  # a new Z3 context, made under the memory cap and known to the stop
    halted: Callable[[], bool] = lambda: False  # read in long loops (a plan, an encoding): `Halted` ends them
    clock: Clock = untimed
    listing: bool = True  # False where solutions are only counted
    executor: Executor = Executor.AUTO
    limit: int | None = None  # the solutions wanted (None: all): a solver splits no search for one
    budget: float | None = None  # seconds of solver time before a backend gives up as TIME (None: no share)
    expected: float | None = None  # solutions expected in all (a cube search gives up early past its budget)


class Backend(abc.ABC):
    """One way to search: `batches()` yields the solutions as they are found, and `end` is set
    once it finishes. Iterating a backend gives the assignments one by one."""

    name: ClassVar[str]
    # True while the current batch's solutions are proved without the exact re-check, each a fresh
    # dict keyed alphabetically; False for a solver's model, which must be re-checked
    exact: bool = False
    bulk: int = 0  # solutions counted but not yielded (when counting)
    deadline: float | None = None  # time.monotonic() by which the search ends as Ending.TIME
    end: SearchEnd | None = None
    stop_requested: bool = False
    checks: int = 0  # solver checks made (a search of its own makes none)
    # Solutions reported before a switch (alphabetical digit tuples: True to pass over), for a backend
    # that passes over them in its own loop; the portfolio drops them from any other's batches itself
    skip: Callable[[tuple[int, ...]], bool] | None = None
    # Asked as the search goes with its steps and solutions so far, where the backend supports it: True
    # ends it early with `end` left None, so that the portfolio can hand the puzzle on
    progress: Callable[[int, int], bool] | None = None

    @classmethod
    def start(cls, problem: Problem, made: Any, means: Means) -> Backend:
        """The backend ready to search, from what its fit made (`Fit.made`): by default the backend itself;
        a backend whose fit made only its material makes itself here, with what `means` lends."""
        assert isinstance(made, Backend)
        return made

    def estimate(self, most: float | None = None) -> float | None:
        """About how many steps the search takes, worked out before it runs; None where it has no such
        guess, or where the guess is over `most` (which bounds the work of counting)."""
        return None

    def reported(self) -> Callable[[tuple[int, ...]], bool] | None:
        """A test of the solutions this search has reported (alphabetical digit tuples), where it
        keeps them more compactly than a set of them (a cube covers many); None: the caller keeps them."""
        return None

    @classmethod
    @abc.abstractmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Whether this backend takes `problem`: `Fit.taken(made)`, or `Fit.refused(reason)` with
        what it needs that the problem lacks. May raise `Halted` once `means.halted()` is true."""

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

    def statistics(self, stats: Statistics) -> None:
        """What this search cost, written into the backend's own fields of `stats`; a backend without
        fields in `Statistics` adds its counters to `counters`. The portfolio asks each backend it
        started, in order, once the search is over, filling one record (made once a search: a record
        copied per backend would cost more than the search of a small sum)."""
        return  # a backend with no figures of its own adds none

    def _stopping(self) -> bool:
        """For a backend that runs in Python, read between its steps: True, with `end` set, once
        the search was stopped or its time is up."""
        if self.stop_requested:
            self.end = SearchEnd(Ending.INTERRUPTED)
        elif past(self.deadline):
            self.end = SearchEnd(Ending.TIME)
        return self.end is not None
