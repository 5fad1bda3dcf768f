"""The search loop: the portfolio's models, each re-checked exactly, made into `Solution`s and a `Verdict`.

    >>> from smtcrypt.api import Puzzle
    >>> from smtcrypt.search import Search
    >>> Search(Puzzle("SEND + MORE = MONEY").problem, decide=True).verdict().status
    <Status.UNIQUE: 'unique'>

It owns the policy between the backends and the user: the deadline, the stop request, which models
are re-checked, the proof of an infinite family, and the statistics.

The deadline bounds every stage of the search, not only the backends' loops: the portfolio's
choices before the first solution (building an encoding, planning, sampling the formula's cost)
read the clock too, each Z3 call is given the time left, and a search past its deadline ends as
`unknown` (time limit), never as "no solution". A search that runs out of memory (a MemoryError
in Python; Z3's own cap) ends as `unknown` (memory limit) with what it found.

Which solutions the exact re-check (core/verify.py) sees:

- every model a solver returns (Z3's, and the model that starts each cube), always;
- the first RECHECKED_EXACT solutions of every search, whatever their backend: a guard on the
  generated code and on the cubes' proofs.

Not re-checked are the solutions after those first RECHECKED_EXACT that a backend proves itself
(`Backend.exact`): those of the exhaustive and join backends (the compiled formula evaluated them
true, exactly), of the linear backend (integer arithmetic on the equation, the compiled formula
for the rest), and a cube's completions beyond its model (proved by the `unsat` that made the
cube); nor, when counting, the solutions the cubes, join and exhaustive backends count without
listing them (`bulk`). Why: the re-check walks the tree node by node for each solution, which
costs many times what the compiled formula does; re-checking them all would multiply the time to
list a dense puzzle, and counting by cubes would have to list every solution it now counts by
the cube.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

from smtcrypt.analysis.stats import search_space
from smtcrypt.core.check import Problem
from smtcrypt.core.clock import Clock
from smtcrypt.core.outcomes import IncompleteSearch, InfinitelyMany
from smtcrypt.core.results import INTERRUPTED, Ending, Proof, Solution, Status, Verdict, filler
from smtcrypt.core.statistics import Statistics
from smtcrypt.core.verify import confirm, satisfies
from smtcrypt.engine.base import Assignment, Executor, Strategy
from smtcrypt.engine.memory import cap_loaded_z3_memory, retain_freed_memory_once
from smtcrypt.engine.portfolio import Portfolio, strategy_named
from smtcrypt.search.family import Family, find_family
from smtcrypt.search.limits import memory_limit
from smtcrypt.search.unknowns import unknowns_as_digits
from smtcrypt.search.verdicts import unfinished

PROCESS_WIDE = {"memory", "max memory", "num allocs"}  # Z3 counters about the process, not the search
RECHECKED_EXACT = 100  # solutions of every search re-checked, even those a backend proved (see the module)
SHOWN_OF_INFINITE = 10  # solutions listed once a search has proved there are infinitely many
STOP_LOOK = 1024  # solutions of a batch between two looks at the stop flag and the clock


class Search:
    """One search over a puzzle: iterate to get solutions as they are found, then ask for the verdict.

    `limit` stops after that many solutions (status `found`); `decide` stops after two, which is
    enough to decide uniqueness (status `multiple`); `timeout` bounds the whole search in seconds.
    `ending` says how it ended (an `Ending`), `reason` the same in words for an incomplete search.
    `executor` says how the kernel searches run (`engine.base.Executor`: by the plan's size unless
    asked; a batch of many puzzles asks for them compiled).
    """

    def __init__(self, problem: Problem, *, limit: int | None = None, timeout: float | None = None,
                 decide: bool = False, clock: Clock | None = None, strategy: str | Strategy = Strategy.AUTO,
                 keep: bool = True, fill: Callable[[dict[str, int]], str] | None = None,
                 executor: Executor = Executor.AUTO):
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ValueError(f"limit must be a positive integer, not {limit!r}")
        chosen = strategy_named(strategy)  # a backend that cannot take the problem says why (its `fit`)
        self.problem = problem
        self.clock = Clock() if clock is None else clock
        self.limit = 2 if decide else limit
        self.keep = keep  # False: count the solutions without making `Solution`s (and yield none)
        # at most this many solutions kept for the verdict (None: all): past it each is still made, yielded
        # and counted, so that a caller that writes them as they come (or lists only so many) needs no memory
        self.retain: int | None = None
        # made here, so that a strategy that cannot search this puzzle is refused before iterating
        # the work of refusing a strategy (it may build terms or a plan) is bounded by the timeout too
        refusing = None if timeout is None else time.monotonic() + timeout
        # bounded unknowns searched as digits (search/unknowns.py), read back before the re-check
        self.as_digits = unknowns_as_digits(problem) if problem.unknowns else None
        searched = problem if self.as_digits is None else self.as_digits.problem
        self.engine: Portfolio = Portfolio(searched, deadline=refusing, limit=self.limit, strategy=chosen,
                                           listing=keep, clock=self.clock, executor=executor)
        self.stop_requested = False
        self.stop_ending = Ending.INTERRUPTED  # how a requested stop ends the search (see `request_stop`)
        self.decide = decide
        self.timeout = timeout
        self.strategy = chosen
        self.fill = fill  # how a solution's text is made (a layout's own); by default the formula filled in
        self.formula = problem.source  # as shown in the verdict (a layout's own text)
        self.solutions: list[Solution] = []
        self.found = 0
        self.complete = False
        self.ending: Ending | None = None  # how the search ended, once it has
        self.proof: Proof | None = None  # how completeness was shown, for a complete search
        self.reason: str | None = None
        self.stopped_early = False
        self.family: Family | None = None  # a proof of infinitely many solutions, once found
        self.seconds = 0.0
        self._started = False
        self._clock_started = 0.0  # time.monotonic() when iteration began
        self._finished = False  # the loop ended the search itself (a limit, a stop, a family)
        self._solving = 0.0  # seconds in the engine, the solve stage
        names = sorted([*problem.letters, *problem.unknowns])  # a mapping lists them alphabetically
        # the `?`s are shown in the text and apart, not in the mapping
        self._names = [name for name in names if name not in problem.wildcards]
        self._fill: Callable[[dict[str, int]], str] = str  # made when the search starts (see `fill`)
        # the first solution is tried as the start of an infinite family where the models may never run out
        self._watch_family = False

    def __iter__(self) -> Iterator[Solution]:
        if self._started:
            raise RuntimeError("a Search can be iterated once; start a new one")
        self._started = True
        start = self._clock_started = time.monotonic()
        try:
            yield from self._search(None if self.timeout is None else start + self.timeout)
        finally:
            self._add_solving()
            self.seconds = time.monotonic() - start

    def _search(self, deadline: float | None) -> Iterator[Solution]:
        retain_freed_memory_once()
        self.engine.memory_mb = memory_limit()  # Z3's cap, set as the engine makes a context (if it needs Z3)
        cap_loaded_z3_memory(self.engine.memory_mb)  # and now, where Z3 is loaded: one cap for the whole process
        if self.keep:  # a count makes no `Solution`, and needs no text
            self._fill = self.fill or filler(self.problem)
        engine = self.engine
        engine.deadline = deadline
        self._watch_family = engine.unbounded and (self.limit is None or self.decide)
        batches = engine.batches()
        try:
            yield from self._run(batches, deadline)
        finally:
            # closed here, not when the collector finds it: past the memory cap, the engine's generators
            # may fail to unwind, and Python prints a traceback for such a failure in a finalizer
            with contextlib.suppress(MemoryError):
                batches.close()

    def _run(self, batches: Iterator[list[Assignment]], deadline: float | None) -> Iterator[Solution]:
        engine = self.engine
        clock = time.perf_counter  # the solve stage timed by hand: a with-block per solution costs
        while not self._finished:
            before = clock()
            try:
                batch = next(batches, None)
            except MemoryError:  # past the process's cap (see engine/memory.py): what was found stands
                self._ended_by(Ending.MEMORY)
                return
            finally:
                self._solving += clock() - before
            if batch is None:
                self._ended_by_engine()
                return
            if self.as_digits is not None:
                batch = [self.as_digits.values(assignment) for assignment in batch]
            try:
                yield from self._solutions(batch, engine.exact, deadline)
            except MemoryError:
                self._ended_by(Ending.MEMORY)
                return

    def _ended_by(self, ending: Ending) -> None:
        """The search ends here, incomplete, for `ending` (memory): the engine is left as it is."""
        self.complete, self.ending, self.reason = False, ending, ending.value
        self._finished = True

    def abandon(self, ending: Ending) -> None:
        """End the search from outside, between two of its solutions, incomplete, for `ending`: the
        caller ran out of memory keeping them (a MemoryError there, not here), so they are dropped
        too (`drop_solutions`). Its iteration is not to be resumed."""
        self.stopped_early = False
        self._ended_by(ending)
        self.seconds = time.monotonic() - self._clock_started
        self.drop_solutions()

    def drop_solutions(self) -> None:
        """Forget the solutions kept, not their count: for a caller out of memory (the verdict then
        lists none and counts them all, as when counting)."""
        self.solutions = []
        self.keep = False

    def _ended_by_engine(self) -> None:
        """The engine's end is the search's: its solutions counted without listing added."""
        self.found += self.engine.bulk  # solutions counted by cubes, never listed
        end = self.engine.end
        assert end is not None
        self.complete, self.reason, self.ending, self.proof = end.complete, end.reason, end.ending, end.proof
        if self.ending is Ending.INTERRUPTED and self.stop_requested and self.stop_ending is not Ending.INTERRUPTED:
            self.ending, self.reason = self.stop_ending, self.stop_ending.value  # stopped for the time limit

    def _solutions(self, batch: list[Assignment], exact: bool, deadline: float | None) -> Iterator[Solution]:
        """A batch's solutions, re-checked as the module says; `_finished` is set where the search
        ends in it (a stop, the time limit, the limit asked for, an infinite family)."""
        for index, assignment in enumerate(batch):
            if index % STOP_LOOK == STOP_LOOK - 1 and self._stop_in_batch(deadline):
                return
            if not exact or self.found < RECHECKED_EXACT:
                with self.clock("verify"):
                    confirm(self.problem, assignment)
            self.found += 1
            if self._watch_family and self.found == 1:
                with self.clock("solve"):
                    self.family = find_family(self.problem, assignment, deadline)
            if self.keep:
                solution = self._solution(assignment, exact)
                self._kept(solution)
                yield solution
            if self.family is not None:  # no end to the models: show a few of the family, say why
                yield from self._family_members(self.family)
                return
            if self.limit is not None and self.found >= self.limit:
                self.stopped_early = self._finished = True
                self.ending = Ending.LIMIT
                return

    def _solution(self, assignment: Assignment, exact: bool) -> Solution:
        """A `Solution` of an assignment that passed (or needs not) the re-check."""
        wildcards = self.problem.wildcards
        if wildcards:
            return Solution({name: assignment[name] for name in self._names}, self._fill(assignment),
                            self.problem.rules.base, tuple(assignment[name] for name in wildcards), self.problem)
        # an exact backend's assignment is a fresh dict keyed alphabetically: no copy needed
        mapping = assignment if exact else {name: assignment[name] for name in self._names}
        return Solution(mapping, self._fill(mapping), self.problem.rules.base, problem=self.problem)

    def _family_members(self, family: Family) -> Iterator[Solution]:
        """The proved family's next members (start + t * step), up to SHOWN_OF_INFINITE solutions
        in all (two when deciding uniqueness), so that the rows shown walk as its summary says. Each
        passes the exact re-check; a member that fails a `!=` (at most one does) is left out."""
        self._finished = True
        self.reason, self.ending = family.describe(), Ending.INFINITE
        shown = 2 if self.decide else SHOWN_OF_INFINITE
        t = 0
        while self.found < shown and not self.stop_requested:
            t += 1
            member = family.member(t)
            if not satisfies(self.problem, member):
                continue
            with self.clock("verify"):
                confirm(self.problem, member)
            self.found += 1
            if self.keep:
                solution = self._solution(member, exact=False)
                self._kept(solution)
                yield solution

    def _kept(self, solution: Solution) -> None:
        """A solution kept for the verdict, up to `retain`."""
        if self.retain is None or len(self.solutions) < self.retain:
            self.solutions.append(solution)

    def _stop_in_batch(self, deadline: float | None) -> bool:
        """A large batch is long work for this loop too: stop in it when asked or out of time."""
        if self.stop_requested:
            self.ending = self.stop_ending
        elif deadline is not None and time.monotonic() >= deadline:
            self.ending = Ending.TIME
        else:
            return False
        self.reason = INTERRUPTED if self.ending is Ending.INTERRUPTED else self.ending.value
        self._finished = True
        return True

    def _add_solving(self) -> None:
        """The engine's time, less the stages it timed itself inside (compile, encode)."""
        seconds = self._solving - sum(self.clock.seconds.get(stage, 0.0) for stage in ("compile", "encode"))
        self.clock.seconds["solve"] = self.clock.seconds.get("solve", 0.0) + max(seconds, 0.0)

    def request_stop(self, ending: Ending = Ending.INTERRUPTED) -> None:
        """End the search soon, with what it found so far: the running solver call is interrupted.
        Safe from a signal handler and from another thread. `ending` says why, as the verdict will:
        interrupted (Ctrl-C, a caller's stop) or the time limit (a caller's own clock, such as the
        command line's, which counts the reading of the puzzle too)."""
        self.stop_ending = ending
        self.stop_requested = True
        self.engine.request_stop()

    def verdict_so_far(self, ending: Ending) -> Verdict:
        """The verdict of a search cut short from outside, while it may still be running (the command
        line's last resort, when a stage does not end in time): what it found, unknown, `ending` as
        the reason. No solver statistics: the solver may be busy on another thread."""
        seconds = time.monotonic() - self._clock_started if self._started else 0.0
        return unfinished(self.formula, ending, seconds, solutions=self.solutions, found=self._counted(),
                          strategy=" -> ".join(self.engine.used) or None)

    def _counted(self) -> int | None:
        """The verdict's `found`: None where it lists every solution it counted."""
        return None if self.keep and len(self.solutions) == self.found else self.found

    def raise_if_incomplete(self) -> None:
        """`IncompleteSearch` (or `InfinitelyMany`) unless the search finished or stopped as asked."""
        if not self.complete and not self.stopped_early:
            if self.family is not None:
                raise InfinitelyMany(self.reason or self.family.describe(), self.found, Ending.INFINITE)
            raise IncompleteSearch(self.reason or "unknown", self.found, self.ending)

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
                       self.seconds, self.statistics(), self._counted(),
                       ending=self.ending, proof=self.proof)

    def statistics(self) -> Statistics:
        """What the search cost: the engine's figures (the strategy, its backends' own), with the
        brute-force space, models found, Z3's counters of this search and seconds per stage."""
        space, exact = search_space(self.problem)
        stats = self.engine.statistics()
        stats.search_space, stats.search_space_exact, stats.models = space, exact, self.found
        stats.z3 = {key: (round(value, 6) if isinstance(value, float) else value)
                    for key, value in sorted(stats.z3.items()) if key not in PROCESS_WIDE}
        stats.seconds = {stage: round(self.clock.seconds.get(stage, 0.0), 6)
                         for stage in ("parse", "check", "compile", "encode", "solve", "verify")}
        return stats
