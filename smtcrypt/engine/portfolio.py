"""The portfolio: per puzzle, the cheapest sound way to the complete answer, switching while running.

The backends are one table (`BACKENDS`), each answering for itself whether it takes a problem (`Backend.fit`);
`auto` is a list of stages (`Portfolio.AUTO`), each taking the puzzle or passing it on. What stays here is the
cost model: Z3 costs little per puzzle but a check per model, which loses wherever solutions are dense, so it
searches first only for a share of the price of trying every assignment (measured on a sample), and then the
exhaustive (or join) backend takes over, skipping what was reported: no puzzle costs much more than about twice
that price, while the puzzles Z3 is fast on keep its speed. Prices: prices.py; measurements: docs/engine.md.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from smtcrypt.analysis.equations import equation_sides, leaves_letters_free
from smtcrypt.analysis.stats import space
from smtcrypt.core.check import Problem, large_exponents
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.engine import prices
from smtcrypt.engine.base import (
    DEADLINE_SLACK,
    STRATEGIES,
    THREADS,
    Assignment,
    Backend,
    Clock,
    Ending,
    Executor,
    Fit,
    Halted,
    Means,
    SearchEnd,
    Statistics,
    Strategy,
    past,
    untimed,
)
from smtcrypt.engine.digits import DigitSearch, has_products
from smtcrypt.engine.exhaustive import ExhaustiveSearch, sample_costs
from smtcrypt.engine.join import JoinSearch, best_plan
from smtcrypt.engine.linear import LinearSearch
from smtcrypt.engine.memory import cap_z3_memory
from smtcrypt.engine.race import race

if TYPE_CHECKING:  # z3 loads with the backends that need it
    import z3

    from smtcrypt.engine.compiled import Compiled


def loaded(module: str, name: str) -> Callable[[], type[Backend]]:
    """A backend whose module loads z3, imported when first asked for."""
    return lambda: getattr(importlib.import_module(f"smtcrypt.engine.{module}"), name)


REPORTED_KEPT = 100_000  # solutions of a judged sum search kept for a hand-over (see `_linear_first`)


# Every backend, by the name that forces it (`--strategy NAME`; the built-in names are `Strategy`'s):
# `auto` and a forced strategy find a backend here, ask whether it takes the problem (`fit`) and start
# it (`start`), through `Backend` alone. A new backend is one module and one row.
BACKENDS: Mapping[str, Callable[[], type[Backend]]] = MappingProxyType({
    Strategy.Z3: loaded("z3search", "ModelSearch"),
    Strategy.LINEAR: lambda: LinearSearch,
    Strategy.DIGITS: lambda: DigitSearch,
    Strategy.JOIN: lambda: JoinSearch,
    Strategy.CUBES: loaded("cubes", "CubeSearch"),
    Strategy.EXHAUSTIVE: lambda: ExhaustiveSearch,
})


def strategy_named(name: str) -> str:
    """The strategy of that name, as a plain name (a `Strategy` given is its value); `StrategyError`
    for a name no backend answers to."""
    if name in STRATEGIES:
        return Strategy(name).value
    if name in BACKENDS:
        return str(name)
    known = [*STRATEGIES, *(other for other in BACKENDS if other not in STRATEGIES)]
    raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(known)})")


class Portfolio:
    """The solutions of a problem by the strategy asked for ("auto": chosen and switched by cost);
    `listing=False` (counting) lets the backends count solutions in `bulk` without listing them.

    The deadline and the stop reach the work before any backend runs too (an encoding's terms, a
    plan, a sample): each reads `halted()` in its loops and gives up, and the search then ends as
    the deadline or the stop says, never as a proof. `deadline` given here bounds the work of
    refusing a strategy; the search loop sets the search's own deadline before iterating.
    """

    def __init__(self, problem: Problem, *, deadline: float | None = None, limit: int | None = None,
                 strategy: str = Strategy.AUTO, listing: bool = True, clock: Clock | None = None,
                 executor: Executor = Executor.AUTO):
        self.strategy = strategy_named(strategy)
        self.problem = problem
        self.deadline = deadline
        self.end: SearchEnd | None = None
        self.used: list[str] = []  # the backends that searched, in order
        self.running: Backend | None = None  # the backend searching now
        self.made: dict[str, Backend] = {}  # every backend started, by name, in the order started
        self.price: float | None = None  # estimated seconds to try every assignment
        self.expected = 0.0  # solutions expected, from the sample
        self.stop_requested = False
        self.contexts: list[z3.Context] = []  # the Z3 contexts made for encodings, told when the search is stopped
        self.memory_mb: int | None = None  # Z3's memory cap, set before each context is made (None: as it is)
        self.fits: dict[str, Fit] = {}  # each backend's answer, once asked
        # this search's options, compiled formula, contexts, stop and clock: read here, lent to the backends
        self.means = Means(compiled=self._compiled, context=self._context, halted=self.halted, clock=clock or untimed,
                           listing=listing, executor=Executor(executor), limit=limit)
        self.joining = False  # the join backend stands in for the exhaustive one (cheaper)
        try:
            self._refuse_what_cannot_search()
        except Halted:  # out of time (or stopped) before knowing: the search ends so, before it begins
            self.end = SearchEnd(self._ending())

    def halted(self) -> bool:
        """True once the search must end: stopped, or past its deadline. Read by long work (an
        encoding, a plan, a sample) in its loops."""
        return self.stop_requested or past(self.deadline)

    def _ending(self) -> Ending:
        """How a search that gave up before its backend finished ends: a stop, or the time limit."""
        return Ending.INTERRUPTED if self.stop_requested or not past(self.deadline) else Ending.TIME

    def _refuse_what_cannot_search(self) -> None:
        """A forced strategy that cannot search this puzzle is refused now, before iterating, in its
        backend's own words; `auto` only where no backend can search it."""
        if self.strategy != Strategy.AUTO:
            fit = self._fit(self.strategy)
            if not fit.ok:
                raise StrategyError(fit.refusal(self.strategy))
            return
        # Z3 refuses only a power too large for its encodings, which the check has found (asking Z3
        # itself would load it); the exhaustive backend, only a formula it cannot compile
        if large_exponents(self.problem) and self._compiled() is None:
            fit = self._fit(Strategy.Z3)
            if not fit.ok:
                raise StrategyError(f"no strategy can search this puzzle: {fit.reason}, and integer unknowns that "
                                    "the formula does not bound (such as 0 <= x <= 9) leave no finite set of "
                                    "assignments to compute it on")

    def _fit(self, name: str) -> Fit:
        """The answer of the named backend (see `Backend.fit`), asked once; a fit test that is
        stopped (`Halted`) gave no answer, and a later call asks again."""
        if name not in self.fits:
            self.fits[name] = BACKENDS[name]().fit(self.problem, self.means)
        return self.fits[name]

    def _start(self, name: str, deadline: float | None = None, means: Means | None = None) -> Backend | None:
        """The named backend started (see `Backend.start`) with this deadline (None: the search's),
        where it takes the problem; None where it does not. A stop already asked for reaches it at once."""
        fit = self._fit(name)
        if not fit.ok:
            return None
        backend = BACKENDS[name]().start(self.problem, fit.made, means or self.means)
        backend.deadline = self.deadline if deadline is None else deadline
        self.made[name] = backend  # known to `request_stop` before the flag is read: no stop is missed
        if self.stop_requested:
            backend.request_stop()
        return backend

    # --- what callers read ------------------------------------------------------------------

    @property
    def exact(self) -> bool:
        """The running backend's `exact`: False for a solver's model, which must be re-checked."""
        return self.running is not None and self.running.exact

    @property
    def bulk(self) -> int:
        """Solutions counted but not yielded (counting)."""
        return sum(backend.bulk for backend in self.made.values())

    @property
    def unbounded(self) -> bool:
        """True if some integer unknown has no bounds in the formula: its models may never run out."""
        from smtcrypt.analysis.unknowns import unknown_values

        return bool(self.problem.unknowns) and unknown_values(self.problem) is None

    def request_stop(self) -> None:
        self.stop_requested = True
        if self.contexts:  # (the encoders load Z3: not from a signal handler for a search that never needed it)
            from smtcrypt.encode import stop_encoding

            for context in list(self.contexts):  # an encoding being built gives up at its next checkpoint
                stop_encoding(context)
        for backend in list(self.made.values()):
            backend.request_stop()

    def statistics(self) -> Statistics:
        """The portfolio's own figures (the strategy, the exhaustive price, the backends started and the
        solver checks of all of them), then each started backend's own, in the order they started (where
        two fill a field, the later one's value stands)."""
        stats = Statistics(strategy=" -> ".join(self.used) or None,
                           solver_checks=sum(backend.checks for backend in self.made.values()),
                           exhaustive_estimate_seconds=None if self.price is None else round(self.price, 6),
                           started=tuple(backend.name for backend in self.made.values()))
        for backend in self.made.values():
            backend.statistics(stats)
        return stats

    # --- the search ---------------------------------------------------------------------------

    def batches(self) -> Generator[list[Assignment], None, None]:
        """The solutions in batches (a list each): one per model from Z3, many from the others;
        `exact` tells whether the current batch needs the exact re-check."""
        if self.end is not None:  # ended before it began (see `__init__`)
            return
        try:
            if self.strategy == Strategy.AUTO:
                yield from self._auto()
            else:
                yield from self._run(self._start(self.strategy))
        except Halted:  # long work before (or between) the backends gave up: a stop, or the time limit
            self.end = SearchEnd(self._ending())
            return
        if self.end is None and self.stop_requested:  # stopped before any backend began
            self.end = SearchEnd(Ending.INTERRUPTED)

    def _auto(self) -> Iterator[list[Assignment]]:
        """The first of the `AUTO` stages that takes the puzzle (see the module; the last takes every puzzle)."""
        return next(batches for stage in self.AUTO if (batches := stage(self)) is not None)

    # --- the stages of `auto`, in order: each returns the batches of the search it chose, or None to pass

    def _sums(self) -> Iterator[list[Assignment]] | None:
        """A sum the linear backend takes: judged by its plan's estimate and its progress (`_linear_first`)."""
        linear = self._start(Strategy.LINEAR)
        return None if linear is None else self._linear_first(linear)

    def _products(self) -> Iterator[list[Assignment]] | None:
        """A product (some equation multiplies words) that the digits backend takes: searched column by column,
        judged by its progress (`_digits`)."""
        digits = self._start(Strategy.DIGITS) if has_products(self.problem) else None
        return None if digits is None else self._digits(digits)

    def _digits(self, digits: Backend) -> Iterator[list[Assignment]]:
        """The digit search; where its plan's estimate passes DIGITS_LONG steps, judged as the sum search is
        (`_judged`): past DIGITS_FIRST steps, where its solutions come rarer than a solver's price per model (and
        none were counted without a list), Z3 takes over."""
        estimate, price = digits.estimate() or 0, prices.Z3_PER_MODEL["products"]
        if estimate < prices.DIGITS_LONG:
            return self._run(digits)
        return self._judged(digits, lambda steps, found: (
            steps >= prices.DIGITS_FIRST and digits.bulk == 0 and found * price < steps * prices.SECONDS_PER_STEP),
            lambda deadline: self._start(Strategy.Z3, deadline), estimate * prices.SECONDS_PER_STEP)

    def _uncompiled(self) -> Iterator[list[Assignment]] | None:
        """Z3 alone, where the formula does not compile (unknowns it leaves unbounded, or too deep)."""
        return self._run(self._start(Strategy.Z3)) if self._compiled() is None else None

    def _at_once(self) -> Iterator[list[Assignment]] | None:
        """Every assignment tried at once, where that is cheap (`_cheap`: priced by a sample) or a power
        is too large for Z3's encodings (as the check says: asking Z3 would load it)."""
        return self._run(self._every()) if self._cheap() or large_exponents(self.problem) else None

    def _linear_first(self, linear: Backend) -> Iterator[list[Assignment]]:
        """The sum search, judged by its plan's estimate, then by its progress. A system of sums is one
        combined equation for it, whose cuts come late, while the digit search takes it column by column: past
        LINEAR_HOPELESS estimated nodes the digit search (where it takes it) runs alone, at most LINEAR_FIRST the sum.
        Otherwise (and on a single sum, whose estimate costs as much as most searches) the sum search runs,
        judged (`_judged`): past LINEAR_FIRST nodes, where solutions come rarer than a solver's price per
        model, the digit search (itself judged) or the solver takes over, for as long as the estimate says."""
        digits, estimate = None, 0.0
        if len(list(equation_sides(self.problem))) > 1:
            estimate = linear.estimate() or 0.0
            if estimate <= prices.LINEAR_FIRST:
                yield from self._run(linear)
                return
            digits = self._start(Strategy.DIGITS)
            if digits is not None and estimate > prices.LINEAR_HOPELESS:
                yield from self._digits(digits)
                return
        # the cube search's encoding is the cheaper to build on such systems; its cubes are single models
        yield from self._judged(linear, lambda nodes, found: (
            nodes >= prices.LINEAR_FIRST and found * prices.Z3_PER_MODEL["columns"] < nodes * prices.SECONDS_PER_NODE),
            lambda deadline: digits or self._start(Strategy.CUBES, deadline) or self._start(Strategy.Z3, deadline),
            estimate * prices.SECONDS_PER_NODE)

    def _judged(self, first: Backend, progress: Callable[[int, int], bool],
                then: Callable[[float | None], Backend | None], expected: float = 0.0) -> Iterator[list[Assignment]]:
        """`first`, handing over where `progress(steps, solutions)` says so: `then(deadline)` searches for about
        as long as `first` did, or was `expected` to take in all (its estimate, in seconds), if longer (a switch
        costs at most that again); then `first` starts again, no longer judged. Nothing is reported twice."""
        started = time.monotonic()
        first.progress = progress
        # the batches as they go, keyed only if the search hands over; past REPORTED_KEPT solutions they are
        # dense enough that it will not, and neither the judging nor the batches are kept any longer
        reported: list[list[Assignment]] = []
        kept = 0
        for batch in self._run(first):
            if first.progress is not None:
                reported.append(batch)
                kept += len(batch)
                if kept > REPORTED_KEPT:
                    first.progress, reported = None, []
            yield batch
        first.progress = None
        if self.end is not None or self.stop_requested or past(self.deadline):
            return
        letters = sorted(self.problem.letters)
        seen = {tuple(assignment[letter] for letter in letters) for batch in reported for assignment in batch}
        deadline = self._within(max(time.monotonic() - started, expected) + prices.Z3_AT_LEAST)
        other = then(deadline)
        assert other is not None  # Z3 takes every sum and product
        other.deadline = deadline
        batches = self._digits(other) if isinstance(other, DigitSearch) else self._run(other)
        yield from self._unseen(batches, seen, letters)
        if self._switches():  # (the cubes may have counted solutions without listing them: they cover those)
            covered = other.reported()
            first.skip = lambda key: key in seen or covered is not None and covered(key)  # for a count in bulk
            yield from self._unseen(self._run(first), seen, letters, covered)

    @staticmethod
    def _unseen(batches: Iterator[list[Assignment]], seen: set[tuple[int, ...]], letters: list[str],
                covered: Callable[[tuple[int, ...]], bool] | None = None) -> Iterator[list[Assignment]]:
        """The batches less the solutions already in `seen` (digit tuples of `letters`, alphabetical),
        which takes theirs, and less those `covered` says were reported."""
        for batch in batches:
            keys = [tuple(assignment[letter] for letter in letters) for assignment in batch]
            fresh = [assignment for assignment, key in zip(batch, keys)
                     if key not in seen and not (covered is not None and covered(key))]
            seen.update(keys)
            if fresh:
                yield fresh

    def _compiled(self) -> Compiled | None:
        """The formula compiled (None where it cannot be): made once, by the exhaustive backend's fit,
        and shared by the prices, the race and the backends that check the rest of a formula with it."""
        fit = self._fit(Strategy.EXHAUSTIVE)
        return fit.made if fit.ok else None

    def _within(self, seconds: float) -> float:
        """`seconds` from now, or the deadline where that is sooner."""
        until = time.monotonic() + seconds
        return until if self.deadline is None else min(until, self.deadline)

    def _cheap(self) -> bool:
        """Prices trying every assignment (`price`, by the join where that is cheaper); True if it is
        cheap enough to do at once."""
        compiled = self._compiled()
        assert compiled is not None
        with self.means.clock("compile"):
            total = ExhaustiveSearch(compiled).total
            if total <= prices.SMALL_SPACE:
                self.price = 0.0
                return True
            seconds, hits = sample_costs(compiled, prices.SAMPLE, self.halted)
            self.expected = total * hits
            self.price = total * (seconds + hits * prices.SECONDS_PER_SOLUTION[self.means.listing])
            # the join, asked only where its plan (read before any side is compiled) evaluates at most a
            # JOIN_SPLIT-th of the assignments
            plan = best_plan(self.problem)
            pays = plan is not None and plan.guess * prices.JOIN_SPLIT <= space(self.problem)
            join = self._start(Strategy.JOIN) if pays else None
            evaluations = join.estimate(most=total // prices.JOIN_SPLIT) if join is not None else None
            if evaluations is not None:  # each side alone: about the same cost per evaluation, far fewer of them
                price = evaluations * seconds + self.expected * prices.SECONDS_PER_SOLUTION[self.means.listing]
                if price < self.price:
                    self.price, self.joining = price, True
        return self.price <= (prices.FIRST_AT_ONCE if self.means.limit == 1 else prices.EXHAUSTIVE_AT_ONCE)

    def _z3_then_exhaustive(self) -> Iterator[list[Assignment]]:
        """Z3 (or cubes) for a share of the exhaustive price, then every assignment less those reported."""
        from smtcrypt.analysis.fold import fold
        from smtcrypt.encode import EncodingStopped, choose, watched

        assert self.price is not None
        if self.means.limit == 1 and self.expected >= 1:
            # every assignment tried for PROBE_SECONDS first: Z3 or the cubes cost more to start than a dense
            # puzzle's first solution takes to meet (the sample is random, the search in order: it may meet none)
            yield from self._run(self._start(Strategy.EXHAUSTIVE, self._within(prices.PROBE_SECONDS)))
            if self.end is not None and (self.end.complete or not self._switches()):
                return
        self._cap_memory()  # choosing the encoding may make a context
        try:
            with watched(self.halted):  # choosing builds the terms of the encodings it tries
                encoding = choose(fold(self.problem)).name
        except EncodingStopped:
            raise Halted from None
        share = prices.Z3_SHARE.get(encoding, prices.Z3_SHARE["general"]) * self.price
        if encoding in ("columns", "products"):  # where Z3 usually answers fast
            share = max(share, prices.Z3_AT_LEAST)
        # cubes are worth trying wherever the bit-vector or general encoding is used (their cost is per
        # cube, not per solution: CUBES_SHARE of the exhaustive price); the solver is given a share of it
        first = None
        if encoding in ("bitvec", "general") and leaves_letters_free(self.problem):
            budget = prices.CUBES_SHARE * self.price
            first = self._start(Strategy.CUBES, means=replace(self.means, budget=budget, expected=self.expected))
        if first is None:
            if self.means.limit == 1 and (os.cpu_count() or 1) > 1 and THREADS:
                yield from self._race()
                return
            if self.expected * prices.Z3_PER_MODEL.get(encoding, prices.Z3_PER_MODEL["general"]) > self.price:
                yield from self._run(self._every())  # too many solutions for a check each
                return
            first = self._start(Strategy.Z3, self._within(share))
        assert first is not None  # Z3 takes what its encodings write (a power too large went elsewhere)
        seen: set[tuple[int, ...]] = set()
        letters = sorted([*self.problem.letters, *self.problem.unknowns])  # as the exhaustive backend's tuples
        # a backend that keeps what it reported itself (a cube search's cubes) is not followed here
        yield from self._run(first) if first.reported() is not None else self._unseen(self._run(first), seen, letters)
        if self._switches():
            yield from self._run(self._every(first.reported() or seen.__contains__))

    # the stages of `auto`, in order (the last takes every puzzle that reaches it)
    AUTO: ClassVar[list[Callable[[Portfolio], Iterator[list[Assignment]] | None]]] = [
        _products, _sums, _uncompiled, _at_once, _z3_then_exhaustive]

    def _switches(self) -> bool:
        """True if the first backend stopped for its share of the time (or gave up), not for the user's."""
        assert self.end is not None
        near = self.deadline is not None and time.monotonic() >= self.deadline - DEADLINE_SLACK
        return self.end.ending is Ending.GAVE_UP or self.end.ending is Ending.TIME and not near

    def _cap_memory(self) -> None:
        """Z3's memory cap (one per process), set before each Z3 context the search makes."""
        if self.memory_mb is not None:
            cap_z3_memory(self.memory_mb)

    def _context(self) -> z3.Context:
        """A new Z3 context for an encoding, known to `request_stop` (which may come from another thread),
        made under the memory cap."""
        from smtcrypt.encode import stop_encoding
        from smtcrypt.encode.base import Context

        self._cap_memory()
        context = Context()
        self.contexts.append(context)
        if self.stop_requested:
            stop_encoding(context)
        return context

    def _race(self) -> Iterator[list[Assignment]]:
        """One solution wanted: Z3 on a helper thread (its checks release the GIL) races the exhaustive
        backend here (see race.py), after RACE_AFTER seconds of Z3 alone, or half the exhaustive price
        if less (then no first solution costs more than 1.5 times that price), since sharing the
        interpreter slows Z3 down."""
        solver = self._start(Strategy.Z3)
        assert solver is not None
        exhaustive = self._every()
        first: list[Assignment] = []
        alone = min(prices.RACE_AFTER, self.price / 2 if self.price is not None else prices.RACE_AFTER)
        found = race(solver, exhaustive, first, alone)
        # Z3 wins with a model, unsat (no solution), or where it ended before the race began; else every
        # assignment was tried (no solution), or both stopped: the exhaustive side's end says which
        won = not found and (first or solver.end is not None and solver.end.complete or exhaustive.end is None)
        winner = solver if won else exhaustive
        self.running, self.end = winner, winner.end
        self.used.append(winner.name)
        if found:
            yield found[:1]
        elif first and winner is solver:
            yield first

    def _every(self, seen: Callable[[tuple[int, ...]], bool] | None = None) -> Backend:
        """The backend that tries every assignment (the join of the equation's sides where that is cheaper),
        passing over those `seen` says were reported."""
        backend = self.made[Strategy.JOIN] if self.joining else self._start(Strategy.EXHAUSTIVE)
        assert backend is not None
        backend.skip = seen
        return backend

    def _run(self, backend: Backend | None) -> Iterator[list[Assignment]]:
        assert backend is not None  # the strategy was refused at the start if its backend cannot search
        self.running = backend
        self.used.append(backend.name)
        yield from backend.batches()
        self.end = backend.end
