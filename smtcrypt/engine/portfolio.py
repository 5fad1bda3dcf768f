"""The portfolio: per puzzle, the cheapest sound way to the complete answer, switching while running.

The cost model compares prices. Trying every assignment costs the number of candidates times
what one costs, measured on a random sample of them by the compiled formula itself, plus what
each solution costs to hand over (the sample's share of solutions tells how many to expect).
Z3 costs little per puzzle where an encoding fits it (sums by columns, products by long
multiplication) but a check per model, which loses wherever solutions are dense. So:

- a problem with integer unknowns that the formula leaves unbounded, or too deep to compile, goes
  to Z3 alone (unknowns it bounds, as in `1 <= x <= 3`, are priced and searched like letters);
- a sum whose equation gives every letter a weight goes to the linear backend;
- one whose exhaustive price is small goes straight to the exhaustive backend, or to the join
  backend where an equation's sides, searched side by side, cost less;
- otherwise Z3 searches first, for at most a share of that price (the whole price for the
  columns encoding, half for the others, at least Z3_AT_LEAST on sums and products; the
  bit-vector and general encodings search by cubes when they can); if it has not finished by
  then, or gives up, the exhaustive (or join) backend takes over and skips the solutions already
  reported.

So no puzzle costs much more than about twice what trying every assignment costs, while the
puzzles Z3 is fast on keep its speed.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from typing import Any, ContextManager

from smtcrypt.core.check import Problem
from smtcrypt.engine import Assignment, Ending, SearchEnd
from smtcrypt.engine.exhaustive import Compiled, ExhaustiveSearch, NotCompilable, compile_problem, sample_costs
from smtcrypt.errors import StrategyError

STRATEGIES = ("auto", "z3", "linear", "join", "cubes", "exhaustive")
SMALL_SPACE = 20_000  # candidates: tried at once, without measuring (at most about 0.1 s)
SAMPLE = 1024  # candidates drawn at random to measure the exhaustive price (about 10 ms)
EXHAUSTIVE_AT_ONCE = 0.05  # seconds: below this exhaustive price, Z3 is not even started
# For one solution, below this price: racing Z3 on a second thread slows the Python side by sharing
# the interpreter (NORTH / SOUTH = EAST / WEST: 0.39 s by the join alone, 0.8 s raced)
FIRST_AT_ONCE = 0.5
Z3_SHARE = {"columns": 1.0, "products": 0.5, "bitvec": 0.5, "general": 0.5}  # of the exhaustive price, before switching
Z3_AT_LEAST = 0.15  # seconds Z3 gets on sums and products, however cheap the exhaustive price (ODD * ODD = FREAKY: 0.1 s)
Z3_PER_MODEL = {"columns": 0.5e-3, "products": 8e-3, "bitvec": 1e-3, "general": 3e-3}  # seconds per model, roughly (measured)
RACE_AFTER = 0.5  # seconds of Z3 alone, at most half the exhaustive price, before the exhaustive backend races it
RACE_SWITCH_INTERVAL = 2e-4  # seconds: the interpreter's thread switch interval while Z3 races on a helper thread
SECONDS_PER_SOLUTION = {True: 6e-6, False: 2.5e-6}  # handing one over: listed (a Solution made) or counted (measured)


def may_cube(problem: Problem) -> bool:
    """True if some constraint is more than equations: an inequality, `not`, `or` or `in` leaves
    letters free to vary (`ABC < DEF`); where every letter is pinned by an equation, cubes are single models."""
    from smtcrypt.core.tree import BoolOp, Compare, Not, walk

    for constraint in problem.formula.constraints:
        for node in walk(constraint):
            if isinstance(node, Not) or (isinstance(node, BoolOp) and node.op == "or"):
                return True
            if isinstance(node, Compare) and any(op != "==" for op in node.ops):
                return True
    return False


class Portfolio:
    """The solutions of a problem by the strategy asked for ("auto": chosen and switched by cost).

    `listing=False` (counting) lets the cubes backend count a cube's solutions without listing
    them: they are added to `bulk` instead of being yielded.
    """

    name = "portfolio"

    def __init__(self, problem: Problem, *, deadline: float | None = None, limit: int | None = None,
                 strategy: str = "auto", listing: bool = True,
                 clock: Callable[[str], ContextManager[Any]] | None = None):
        if strategy not in STRATEGIES:
            raise StrategyError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        self.problem = problem
        self.deadline = deadline
        self.limit = limit
        self.strategy = strategy
        self.listing = listing
        self.clock = clock or (lambda stage: nullcontext())
        self.end: SearchEnd | None = None
        self.used: list[str] = []  # the backends that searched, in order
        self.running: Any = None  # the backend searching now
        self.z3: Any = None  # the Z3 model search, once started
        self.cubes: Any = None
        self.exhaustive: ExhaustiveSearch | None = None
        self.compiled: Compiled | None = None
        self.price: float | None = None  # estimated seconds to try every assignment
        self.expected = 0.0  # solutions expected, from the sample
        self.stop_requested = False
        self.terms: Any = None  # the formula and the rules apart, for the cubes backend
        self.contexts: list[Any] = []  # the Z3 contexts made for encodings, told when the search is stopped
        if strategy == "exhaustive":
            self._compile(required=True)
        if strategy == "cubes" and self._terms() is None:
            raise StrategyError("the cubes strategy cannot search this puzzle: it has integer unknowns, "
                                "terms whose negation would need a quantifier, or letters of which only "
                                "some must differ")
        self.join: Any = None
        self.joining = False  # the join backend stands in for the exhaustive one (cheaper)
        if strategy == "join" and self._join() is None:
            raise StrategyError("the join strategy cannot search this puzzle: it needs an equation whose two "
                                "sides hold every letter of the formula, no integer unknowns, and all letters "
                                "distinct or none")
        self.linear: Any = None
        if strategy == "linear" and self._linear(self.deadline) is None:
            raise StrategyError("the linear strategy cannot search this puzzle: it needs an equation of sums "
                                "and integer multiples of words in which every letter counts, no integer unknowns, "
                                "and all letters distinct or none")

    # --- what callers read ------------------------------------------------------------------

    @property
    def exact(self) -> bool:
        """True while the running backend's solutions are proved without the exact re-check (the
        compiled formula's own evaluation, or a cube's completions), each a fresh dict keyed
        alphabetically; False for a solver's model, which must be re-checked."""
        return bool(getattr(self.running, "exact", False))

    @property
    def bulk(self) -> int:
        """Solutions counted but not yielded (counting by cubes)."""
        return sum(backend.bulk for backend in (self.cubes, self.exhaustive, self.join) if backend)

    @property
    def unbounded(self) -> bool:
        """True if some integer unknown has no bounds in the formula: its models may never run out."""
        from smtcrypt.analysis.unknowns import unknown_values

        return bool(self.problem.unknowns) and unknown_values(self.problem) is None

    def request_stop(self) -> None:
        self.stop_requested = True
        from smtcrypt.encode import stop_encoding

        for context in self.contexts:  # an encoding being built gives up at its next checkpoint
            stop_encoding(context)
        for backend in (self.z3, self.linear, self.join, self.cubes, self.exhaustive):
            if backend:
                backend.request_stop()

    def statistics(self) -> dict[str, Any]:
        stats: dict[str, Any] = {"strategy": " -> ".join(self.used) or None,
                                 "proof": self.end.proof.value if self.end is not None and self.end.proof else None}
        if self.price is not None:
            stats["exhaustive_estimate_seconds"] = round(self.price, 6)
        for backend in (self.linear, self.join, self.cubes, self.exhaustive):
            if backend:
                stats.update(backend.statistics())
        checks = (self.z3.checks if self.z3 is not None else 0) + (self.cubes.checks if self.cubes is not None else 0)
        stats["solver_checks"] = checks
        stats["z3_counters"] = self.z3.statistics() if self.z3 is not None else {}
        return stats

    # --- the search ---------------------------------------------------------------------------

    def _compile(self, required: bool = False) -> Compiled | None:
        try:
            with self.clock("compile"):
                self.compiled = compile_problem(self.problem)
        except NotCompilable as error:
            if required:
                raise StrategyError(f"the exhaustive strategy cannot search this puzzle: {error}") from None
        return self.compiled

    def __iter__(self) -> Iterator[list[Assignment]]:
        """The solutions in batches (a list each): one per model from Z3, many from the others;
        `exact` tells whether the current batch needs the exact re-check."""
        if self.strategy in ("auto", "linear") and self._linear(self.deadline) is not None:
            yield from self._run(self.linear)
        elif self.strategy == "join":
            yield from self._run(self._join())
        elif self.strategy == "z3":
            yield from self._z3(self.deadline)
        elif self.strategy == "cubes":
            yield from self._cubes(self.deadline) or ()
        elif self.strategy == "exhaustive" or (self._compile() is not None and self._cheap()):
            yield from self._exhaustive(None)
        elif self.compiled is None:
            yield from self._z3(self.deadline)
        else:
            yield from self._z3_then_exhaustive()
        if self.end is None and self.stop_requested:  # stopped before any backend began
            self.end = SearchEnd(Ending.INTERRUPTED)

    def _cheap(self) -> bool:
        assert self.compiled is not None
        with self.clock("compile"):
            total = ExhaustiveSearch(self.compiled).total
            if total <= SMALL_SPACE:
                self.price = 0.0
                return True
            seconds, hits = sample_costs(self.compiled, SAMPLE)
            self.expected = total * hits
            self.price = total * (seconds + hits * SECONDS_PER_SOLUTION[self.listing])
            join = self._join()
            if join is not None:  # each side alone: about the same cost per evaluation, far fewer of them
                price = join.halves * seconds + self.expected * SECONDS_PER_SOLUTION[self.listing]
                if price < self.price:
                    self.price, self.joining = price, True
        return self.price <= (FIRST_AT_ONCE if self.limit == 1 else EXHAUSTIVE_AT_ONCE)

    def _z3_then_exhaustive(self) -> Iterator[list[Assignment]]:
        from smtcrypt.analysis.fold import fold
        from smtcrypt.encode import choose

        assert self.price is not None
        encoding = choose(fold(self.problem)).name
        share = Z3_SHARE.get(encoding, Z3_SHARE["general"]) * self.price
        if encoding in ("columns", "products"):  # where Z3 usually answers in a tenth of a second
            share = max(share, Z3_AT_LEAST)
        seen: set[tuple[int, ...]] = set()
        letters = sorted([*self.problem.letters, *self.problem.unknowns])  # as the exhaustive backend's tuples
        # cubes are worth trying wherever the bit-vector or general encoding is used (their cost is per cube, not per
        # solution); the solver is given a share of the exhaustive price, listing the cubes' solutions aside
        search = self._cubes(self.deadline, budget=share) if encoding in ("bitvec", "general") and may_cube(self.problem) else None
        if search is None:
            if self.limit == 1 and (os.cpu_count() or 1) > 1:
                yield from self._race()
                return
            if self.expected * Z3_PER_MODEL.get(encoding, Z3_PER_MODEL["general"]) > self.price:
                yield from self._exhaustive(None)  # too many solutions for a check each
                return
            switch_at = time.monotonic() + share
            search = self._z3(switch_at if self.deadline is None else min(switch_at, self.deadline))
        if self.cubes is not None:  # every solution it reported lies in one of its cubes
            yield from search
        else:
            for batch in search:
                seen.update(tuple(assignment[letter] for letter in letters) for assignment in batch)
                yield batch
        assert self.end is not None
        if self.end.complete or self.end.ending not in (Ending.TIME, Ending.GAVE_UP):
            return
        if self.end.ending is Ending.TIME and self.deadline is not None and time.monotonic() >= self.deadline - 0.01:
            return  # the user's time is up, not Z3's share of it
        cubes = self.cubes
        if cubes is not None:
            yield from self._exhaustive(cubes.covering())
        else:
            yield from self._exhaustive(seen.__contains__)

    def _z3(self, deadline: float | None) -> Iterator[list[Assignment]]:
        yield from self._run(self._model_search(deadline))

    def _model_search(self, deadline: float | None) -> Any:
        from smtcrypt.encode import Encoded, EncodingStopped, encode
        from smtcrypt.engine.z3search import SPLIT_AFTER_CONFLICTS, ModelSearch

        context = self._context()
        try:
            with self.clock("encode"):
                encoded = encode(self.problem, context)
        except EncodingStopped:  # a search that ends before its first check
            encoded = Encoded(context, {}, [])
        # Splitting a hard search into cases speeds up proving there is nothing more, but the cases
        # are searched in a fixed order, so a first solution may come late: NORTH / SOUTH = EAST /
        # WEST: first solution 1.5 s unsplit, 4.0 s split. A search for one solution does not split.
        self.z3 = ModelSearch(encoded, deadline, split_after=None if self.limit == 1 else SPLIT_AFTER_CONFLICTS)
        if self.stop_requested:
            self.z3.request_stop()
        return self.z3

    def _context(self) -> Any:
        """A new Z3 context for an encoding, known to `request_stop` (which may come from another thread)."""
        import z3

        from smtcrypt.encode import stop_encoding

        context = z3.Context()
        self.contexts.append(context)
        if self.stop_requested:
            stop_encoding(context)
        return context

    def _race(self) -> Iterator[list[Assignment]]:
        """One solution wanted: Z3 on a helper thread (its checks release the GIL, so it runs
        beside Python on a second core) races the exhaustive backend here; the first to answer
        wins and the other is stopped. Z3's first solution is a matter of luck (NORTH / SOUTH =
        EAST / WEST: 0.3-8.8 s by seed), trying every assignment is not: 3.4 s -> 1.8 s. The race
        starts after RACE_AFTER seconds of Z3 alone (or half the exhaustive price, if less: then no
        first solution costs more than 1.5 times that price), since sharing the interpreter slows Z3 down."""
        assert self.compiled is not None
        solver = self._model_search(self.deadline)
        if self.joining:  # the join stands in for trying every assignment, here too
            exhaustive = self.join
        else:
            exhaustive = self.exhaustive = ExhaustiveSearch(self.compiled, self.deadline, listing=self.listing)
        first: list[Assignment] = []

        answered = threading.Event()

        def run() -> None:
            try:
                for assignment in solver:
                    first.append(assignment)
                    break
            finally:
                exhaustive.request_stop()
                answered.set()

        # Z3's checks come back to Python now and then and must wait for the interpreter lock each
        # time: at the default switch interval (5 ms) a check that takes 0.12 s alone took 2.2 s
        # beside a busy Python loop, at 0.2 ms 0.23 s. The interval is restored after the race.
        interval = sys.getswitchinterval()
        thread = threading.Thread(target=run, name="smtcrypt-race", daemon=True)
        thread.start()
        try:
            found = None
            if not answered.wait(min(RACE_AFTER, self.price / 2 if self.price is not None else RACE_AFTER)):  # Z3 alone first: most first solutions take it less
                sys.setswitchinterval(RACE_SWITCH_INTERVAL)
                found = next((batch for batch in exhaustive.batches() if batch), None)
        finally:
            solver.request_stop()
            thread.join()
            sys.setswitchinterval(interval)
        if found:
            winner: Any = exhaustive
        elif first or solver.end is not None and solver.end.complete or exhaustive.end is None:
            winner = solver  # a model, unsat (no solution), or Z3 ended before the race began
        else:  # every assignment tried (no solution), or both stopped: its end says which
            winner = exhaustive
        self.running, self.end = winner, winner.end
        self.used.append(winner.name)
        if found:
            yield found[:1]
        elif first and winner is solver:
            yield first

    def _linear(self, deadline: float | None) -> Any:
        """The linear backend, made once, or None: it takes an equation of sums in which every
        letter has a weight (the rest of the formula, if any, checked by the compiled formula)."""
        if self.linear is None:
            from smtcrypt.analysis.fold import fold
            from smtcrypt.engine.linear import LinearSearch, integer_equation, only_equation

            self.linear = False
            if not self.problem.unknowns and self.problem.distinctness != "some":  # its digit mask is all or nothing
                with self.clock("compile"):
                    equation = integer_equation(fold(self.problem))
                if equation is not None and set(equation[0]) == set(self.problem.letters):
                    compiled = None if only_equation(self.problem) else self._compile()
                    if compiled is not None or only_equation(self.problem):
                        self.linear = LinearSearch(self.problem, equation, compiled, deadline)
        if self.linear:
            self.linear.deadline = deadline
        return self.linear or None

    def _join(self) -> Any:
        """The join backend, made once, or None: it takes an equation whose sides hold every letter,
        and `auto` uses it where it evaluates at most a SPLIT-th of the assignments that trying
        every assignment does."""
        if self.join is None:
            from smtcrypt.engine.join import SPLIT, JoinSearch, best_plan, space

            self.join = False
            plan = best_plan(self.problem)
            if plan is not None and (self.strategy == "join" or plan.cost * SPLIT <= space(self.problem)):
                try:
                    with self.clock("compile"):
                        self.join = JoinSearch(self.problem, self.deadline, listing=self.listing)
                except NotCompilable:
                    return None
        if self.join:
            self.join.deadline = self.deadline
        return self.join or None

    def _terms(self) -> Any:
        """The formula and the rules apart (None when its negation would need quantifiers, or when only
        some letters must differ: cubes count their completions with all letters distinct or none)."""
        if self.problem.distinctness == "some":
            return None
        if self.terms is None:
            from smtcrypt.analysis.fold import fold
            from smtcrypt.encode import EncodingStopped, bitvec, general

            try:
                with self.clock("encode"):
                    folded, context = fold(self.problem), self._context()
                    self.terms = bitvec.formula_terms(folded, context) or general.formula_terms(folded, context) or False
            except EncodingStopped:
                return None  # the caller finds the search stopped
        return self.terms or None

    def _cubes(self, deadline: float | None, budget: float | None = None) -> Iterator[list[Assignment]] | None:
        """The cube search, or None when the formula's negation cannot be encoded without quantifiers."""
        from smtcrypt.engine.cubes import CubeSearch

        terms = self._terms()
        if terms is None:
            return None
        self.cubes = CubeSearch(self.problem, terms, deadline, listing=self.listing, budget=budget,
                                expected=self.expected if budget is not None else None)
        return self._run(self.cubes)

    def _exhaustive(self, seen: Callable[[tuple[int, ...]], bool] | None) -> Iterator[list[Assignment]]:
        """Every assignment tried: by the join of the equation's sides where that is cheaper."""
        if self.joining:
            self.join.skip = seen
            yield from self._run(self.join)
            return
        assert self.compiled is not None
        self.exhaustive = ExhaustiveSearch(self.compiled, self.deadline, skip=seen, listing=self.listing)
        yield from self._run(self.exhaustive)

    def _run(self, backend: Any) -> Iterator[list[Assignment]]:
        self.running = backend
        self.used.append(backend.name)
        if self.stop_requested:
            backend.request_stop()
        if hasattr(backend, "batches"):
            yield from backend.batches()
        else:  # one model at a time
            for assignment in backend:
                yield [assignment]
        self.end = backend.end
