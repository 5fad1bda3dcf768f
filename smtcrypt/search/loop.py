"""The search loop: the portfolio's models, each re-checked exactly, made into `Solution`s and a `Verdict`.

    >>> from smtcrypt.api import Puzzle
    >>> from smtcrypt.search import Search
    >>> Search(Puzzle("SEND + MORE = MONEY").problem, decide=True).verdict().status
    <Status.UNIQUE: 'unique'>

It owns the policy between the backends and the user: the deadline, the stop request, which models
are re-checked, the proof of an infinite family, and the statistics.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from smtcrypt.analysis.stats import Clock, search_space
from smtcrypt.core.check import Problem
from smtcrypt.core.results import INTERRUPTED, Solution, Status, Verdict, filler
from smtcrypt.core.verify import confirm, satisfies
from smtcrypt.errors import IncompleteSearch, InfinitelyMany, StrategyError
from smtcrypt.search.family import find_family

PROCESS_WIDE = {"memory", "max memory", "num allocs"}  # Z3 counters about the process, not the search
RECHECKED_EXACT = 100  # solutions of the exhaustive backend re-checked all the same: a guard on its generated code
SHOWN_OF_INFINITE = 10  # solutions listed once a search has proved there are infinitely many
DEFAULT_MEMORY_MB = 4096
MIN_MEMORY_MB = 256  # below this Z3 may abort the whole process instead of giving up (seen at 20 MB)
_memory_limit_mb = DEFAULT_MEMORY_MB


def set_memory_limit(megabytes: int) -> None:
    """Cap the memory Z3 may use, in MB, for every search in this process (Z3 keeps one such limit
    per process); a search that reaches it ends as `unknown` with the reason "memory limit"."""
    global _memory_limit_mb
    if megabytes < MIN_MEMORY_MB:
        raise ValueError(f"the memory limit must be at least {MIN_MEMORY_MB} MB")
    _memory_limit_mb = int(megabytes)


class Search:
    """One search over a puzzle: iterate to get solutions as they are found, then ask for the verdict.

    `limit` stops after that many solutions (status `found`); `decide` stops after two, which is
    enough to decide uniqueness (status `multiple`); `timeout` bounds the whole search in seconds.
    """

    def __init__(self, problem: Problem, *, limit: int | None = None, timeout: float | None = None,
                 decide: bool = False, clock: Clock | None = None, strategy: str = "auto", keep: bool = True,
                 fill: Callable[[dict[str, int]], str] | None = None):
        from smtcrypt.engine.portfolio import STRATEGIES, Portfolio  # z3 loads with the first search, not on import

        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ValueError(f"limit must be a positive integer, not {limit!r}")
        if strategy not in STRATEGIES:
            raise StrategyError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        if strategy in ("cubes", "linear") and problem.unknowns:  # the exhaustive one says for itself (bounded ones it takes)
            raise StrategyError(f"the {strategy} strategy cannot search a puzzle with integer unknowns "
                                "(they have no finite set of values to try)")
        self.problem = problem
        self.clock = Clock() if clock is None else clock
        self.limit = 2 if decide else limit
        self.keep = keep  # False: count the solutions without making `Solution`s (and yield none)
        # made here, so that a strategy that cannot search this puzzle is refused before iterating
        self.engine = Portfolio(problem, limit=self.limit, strategy=strategy, listing=keep, clock=self.clock)
        self.stop_requested = False
        self.decide = decide
        self.timeout = timeout
        self.strategy = strategy
        self.fill = fill  # how a solution's text is made (a layout's own); by default the formula filled in
        self.formula = problem.source  # as shown in the verdict (a layout's own text)
        self.solutions: list[Solution] = []
        self.found = 0
        self.complete = False
        self.reason: str | None = None
        self.stopped_early = False
        self.family: Any = None  # a proof of infinitely many solutions, once found
        self.seconds = 0.0
        self._started = False

    def __iter__(self) -> Iterator[Solution]:
        if self._started:
            raise RuntimeError("a Search can be iterated once; start a new one")
        self._started = True
        import z3

        start = time.monotonic()
        deadline = None if self.timeout is None else start + self.timeout
        try:
            z3.set_param("memory_max_size", _memory_limit_mb)
            engine = self.engine
            engine.deadline = deadline
            fill = self.fill or filler(self.problem)
            wildcards = self.problem.wildcards
            names = sorted([*self.problem.letters, *self.problem.unknowns])  # a mapping lists them alphabetically
            if wildcards:  # the `?`s are shown in the text and apart, not in the mapping
                names = [name for name in names if name not in wildcards]
            base, unbounded = self.problem.rules.base, engine.unbounded
            batches = iter(engine)
            clock, solving = time.perf_counter, 0.0  # the solve stage timed by hand: a with-block per solution costs
            while True:
                before = clock()
                batch = next(batches, None)
                solving += clock() - before
                if batch is None:
                    break
                exact = engine.exact
                for index, assignment in enumerate(batch):
                    if index & 1023 == 1023 and self._stop_in_batch(deadline):
                        self._add_solving(solving)
                        return
                    if not exact or self.found < RECHECKED_EXACT:
                        with self.clock("verify"):
                            confirm(self.problem, assignment)
                    self.found += 1
                    if unbounded and self.found == 1 and (self.limit is None or self.decide):
                        with self.clock("solve"):
                            self.family = find_family(self.problem, assignment)
                    if self.keep:
                        if wildcards:
                            solution = Solution({name: assignment[name] for name in names}, fill(assignment), base,
                                                tuple(assignment[name] for name in wildcards), self.problem)
                        else:
                            mapping = assignment if exact else {name: assignment[name] for name in names}
                            solution = Solution(mapping, fill(mapping), base, problem=self.problem)
                        self.solutions.append(solution)
                        yield solution
                    if self.family is not None:  # no end to the models: show a few of the family, say why
                        self._add_solving(solving)
                        yield from self._family_members(names, wildcards, fill)
                        return
                    if self.limit is not None and self.found >= self.limit:
                        self._add_solving(solving)
                        self.stopped_early = True
                        return
            self._add_solving(solving)
            self.found += engine.bulk  # solutions counted by cubes, never listed
            assert engine.end is not None
            self.complete, self.reason = engine.end.complete, engine.end.reason
        finally:
            self.seconds = time.monotonic() - start

    def _family_members(self, names: list[str], wildcards: Sequence[str],
                        fill: Callable[[dict[str, int]], str]) -> Iterator[Solution]:
        """The proved family's next members (start + t * step), up to SHOWN_OF_INFINITE solutions
        in all (two when deciding uniqueness), so that the rows shown walk as its summary says. Each
        passes the exact re-check; a member that fails a `!=` (at most one does) is left out."""
        assert self.family is not None
        self.reason = self.family.describe()
        shown = 2 if self.decide else SHOWN_OF_INFINITE
        t = 0
        while self.found < shown and not self.stop_requested:
            t += 1
            member = self.family.member(t)
            if not satisfies(self.problem, member):
                continue
            with self.clock("verify"):
                confirm(self.problem, member)
            self.found += 1
            if self.keep:
                solution = Solution({name: member[name] for name in names}, fill(member), self.problem.rules.base,
                                    tuple(member[name] for name in wildcards), self.problem)
                self.solutions.append(solution)
                yield solution

    def _stop_in_batch(self, deadline: float | None) -> bool:
        """A large batch is long work for this loop too: stop in it when asked or out of time."""
        if self.stop_requested:
            self.reason = INTERRUPTED
        elif deadline is not None and time.monotonic() >= deadline:
            self.reason = "time limit"
        return self.reason is not None

    def _add_solving(self, seconds: float) -> None:
        """The engine's time, less the stages it timed itself inside (compile, encode)."""
        seconds -= sum(self.clock.seconds.get(stage, 0.0) for stage in ("compile", "encode"))
        self.clock.seconds["solve"] = self.clock.seconds.get("solve", 0.0) + max(seconds, 0.0)

    def request_stop(self) -> None:
        """End the search soon, with what it found so far: the running solver call is interrupted.
        Safe from a signal handler and from another thread."""
        self.stop_requested = True
        self.engine.request_stop()

    def raise_if_incomplete(self) -> None:
        """`IncompleteSearch` (or `InfinitelyMany`) unless the search finished or stopped as asked."""
        if not self.complete and not self.stopped_early:
            if self.family is not None:
                raise InfinitelyMany(self.reason or self.family.describe(), self.found)
            raise IncompleteSearch(self.reason or "unknown", self.found)

    def run(self) -> Search:
        """Search to the end (or the limit) without looking at solutions on the way."""
        for _ in self:
            pass
        return self

    def verdict(self) -> Verdict:
        if not self._started:
            self.run()
        count = self.found
        if self.family is not None:
            status = Status.INFINITE
        elif self.stopped_early:
            status = Status.MULTIPLE if self.decide and count >= 2 else Status.FOUND
        elif not self.complete:
            status = Status.UNKNOWN
        else:
            status = Status.NONE if count == 0 else Status.UNIQUE if count == 1 else Status.MULTIPLE
        return Verdict(self.formula, status, tuple(self.solutions), self.complete, self.reason,
                       self.seconds, self.statistics(), None if self.keep else self.found)

    def statistics(self) -> dict[str, Any]:
        """What the search cost: the brute-force space, models found, Z3's counters, seconds per stage."""
        space, exact = search_space(self.problem)
        engine = self.engine.statistics() if self.engine is not None else {}
        z3_counters = engine.pop("z3_counters", {})
        return {
            "search_space": space,  # None: infinite (integer unknowns)
            "search_space_exact": exact,  # False: distinct assignments too many to count; product of domains
            "strategy": engine.pop("strategy", None),  # the backends that searched: "z3", "exhaustive", "z3 -> exhaustive"
            "proof": engine.pop("proof", None),  # for a complete search: "unsat", "every assignment tried", ...
            "models": self.found,
            "solver_checks": engine.pop("solver_checks", 0),
            **engine,  # the exhaustive backend's candidates, and its price estimate
            "z3": {key: (round(value, 6) if isinstance(value, float) else value)
                   for key, value in sorted(z3_counters.items()) if key not in PROCESS_WIDE},
            "seconds": {stage: round(self.clock.seconds.get(stage, 0.0), 6)
                        for stage in ("parse", "check", "compile", "encode", "solve", "verify")},
        }
