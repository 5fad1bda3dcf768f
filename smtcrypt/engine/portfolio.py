"""The portfolio: per puzzle, the cheapest sound way to the complete answer, switching while running.

The cost model compares two prices. Trying every assignment costs the number of candidates
times what one candidate costs, measured on a sample of them by the compiled formula itself.
Z3 costs little per puzzle where an encoding fits it (sums by columns, products by long
multiplication) but a check per model, which loses wherever solutions are dense. So:

- a problem with integer unknowns, or too deep to compile, goes to Z3 alone;
- one whose exhaustive price is small goes straight to the exhaustive backend;
- otherwise Z3 searches first, for at most a share of the exhaustive price (the whole price for
  the encodings Z3 is strong on, a quarter for the general one); if it has not finished by then,
  or gives up, the exhaustive backend takes over and skips the solutions already reported.

So no puzzle costs much more than about twice what trying every assignment costs, while the
puzzles Z3 is fast on keep its speed.
"""

from __future__ import annotations

import time
from contextlib import nullcontext
from typing import Any, Callable, ContextManager, Iterator

from ..check import Problem
from . import Assignment, Ending, SearchEnd
from .exhaustive import Compiled, ExhaustiveSearch, NotCompilable, compile_problem, seconds_per_candidate

STRATEGIES = ("auto", "z3", "exhaustive")
EXHAUSTIVE_AT_ONCE = 0.05  # seconds: below this exhaustive price, Z3 is not even started
Z3_SHARE = {"columns": 1.0, "products": 1.0, "general": 0.25}  # of the exhaustive price, before switching


class StrategyError(ValueError):
    """A strategy was asked for that cannot search this problem (the exhaustive one and integer unknowns)."""


class Portfolio:
    """The solutions of a problem by the strategy asked for ("auto": chosen and switched by cost)."""

    name = "portfolio"

    def __init__(self, problem: Problem, *, deadline: float | None = None, limit: int | None = None,
                 strategy: str = "auto", clock: Callable[[str], ContextManager[Any]] | None = None):
        if strategy not in STRATEGIES:
            raise StrategyError(f"unknown strategy {strategy!r} (known: {', '.join(STRATEGIES)})")
        self.problem = problem
        self.deadline = deadline
        self.limit = limit
        self.strategy = strategy
        self.clock = clock or (lambda stage: nullcontext())
        self.end: SearchEnd | None = None
        self.used: list[str] = []  # the backends that searched, in order
        self.z3: Any = None  # the Z3 model search, once started
        self.exhaustive: ExhaustiveSearch | None = None
        self.compiled: Compiled | None = None
        self.price: float | None = None  # estimated seconds to try every assignment
        self.stop_requested = False
        self.cap: int | None = None  # at most this many models over unbounded unknowns (see api.Search)
        if strategy == "exhaustive":
            self._compile(required=True)

    # --- what callers read ------------------------------------------------------------------

    @property
    def unbounded(self) -> bool:
        return bool(self.problem.unknowns)

    @property
    def capped(self) -> bool:
        return self.z3 is not None and self.z3.capped

    def limit_models(self, cap: int) -> None:
        """With unbounded unknowns, stop (as capped) after `cap` models."""
        self.cap = cap
        if self.z3 is not None:
            self.z3.cap = min(self.z3.cap, cap)

    def request_stop(self) -> None:
        self.stop_requested = True
        for backend in (self.z3, self.exhaustive):
            if backend is not None:
                backend.request_stop()

    def statistics(self) -> dict[str, Any]:
        stats: dict[str, Any] = {"strategy": " -> ".join(self.used) or None,
                                 "proof": self.end.proof.value if self.end is not None and self.end.proof else None}
        if self.price is not None:
            stats["exhaustive_estimate_seconds"] = round(self.price, 6)
        if self.exhaustive is not None:
            stats.update(self.exhaustive.statistics())
        stats["solver_checks"] = self.z3.checks if self.z3 is not None else 0
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

    def __iter__(self) -> Iterator[Assignment]:
        if self.strategy == "z3":
            yield from self._z3(self.deadline)
            return
        if self.strategy == "exhaustive" or (self._compile() is not None and self._cheap()):
            yield from self._exhaustive(set())
            return
        if self.compiled is None:
            yield from self._z3(self.deadline)
            return
        yield from self._z3_then_exhaustive()

    def _cheap(self) -> bool:
        assert self.compiled is not None
        with self.clock("compile"):
            total = ExhaustiveSearch(self.compiled).total
            self.price = total * seconds_per_candidate(self.compiled) if total else 0.0
        return self.price <= EXHAUSTIVE_AT_ONCE

    def _z3_then_exhaustive(self) -> Iterator[Assignment]:
        from ..encode import choose
        from ..encode.fold import fold

        assert self.price is not None
        folded = fold(self.problem)
        share = Z3_SHARE.get(choose(folded).name, Z3_SHARE["general"])
        switch_at = time.monotonic() + share * self.price
        deadline = switch_at if self.deadline is None else min(switch_at, self.deadline)
        seen: set[tuple[int, ...]] = set()
        letters = self.problem.letters
        for assignment in self._z3(deadline):
            seen.add(tuple(assignment[letter] for letter in letters))
            yield assignment
        assert self.end is not None
        if self.end.complete or self.end.ending not in (Ending.TIME, Ending.GAVE_UP):
            return
        if self.end.ending is Ending.TIME and self.deadline is not None and time.monotonic() >= self.deadline - 0.01:
            return  # the user's time is up, not Z3's share of it
        yield from self._exhaustive(seen)

    def _z3(self, deadline: float | None) -> Iterator[Assignment]:
        import z3

        from ..encode import encode
        from ..solver import SPLIT_AFTER_CONFLICTS, ModelSearch

        with self.clock("encode"):
            encoded = encode(self.problem, z3.Context())
        # Splitting a hard search into cases speeds up proving there is nothing more, but the cases
        # are searched in a fixed order, so a first solution may come late: NORTH / SOUTH = EAST /
        # WEST: first solution 1.5 s unsplit, 4.0 s split. A search for one solution does not split.
        self.z3 = ModelSearch(encoded, deadline, split_after=None if self.limit == 1 else SPLIT_AFTER_CONFLICTS)
        if self.cap is not None:
            self.z3.cap = min(self.z3.cap, self.cap)
        self.used.append(self.z3.name)
        if self.stop_requested:
            self.z3.request_stop()
        yield from self.z3
        self.end = self.z3.end

    def _exhaustive(self, seen: set[tuple[int, ...]]) -> Iterator[Assignment]:
        assert self.compiled is not None
        self.exhaustive = ExhaustiveSearch(self.compiled, self.deadline, skip=seen)
        self.used.append(self.exhaustive.name)
        if self.stop_requested:
            self.exhaustive.request_stop()
        yield from self.exhaustive
        self.end = self.exhaustive.end
