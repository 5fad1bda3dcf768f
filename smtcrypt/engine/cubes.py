"""The cubes backend: Z3's enumeration, one blocking clause per cube of solutions instead of per model.

`ABC < DEF` has 60,480 solutions, but once A and D are known (A < D) the other four letters do not
matter: 36 cubes cover them all. After each model the search drops each letter that Z3 proves
(`unsat` of the formula's negation) does not matter; every completion of the cube is then a proved
solution, listed or counted, and the whole cube is blocked at once. Where cubes do not shrink
(sparse puzzles such as SEND + MORE = MONEY) the search stops trying after a few models.
"""

from __future__ import annotations

import itertools
import operator
import time
from collections.abc import Callable, Iterator
from typing import Any

import z3

from smtcrypt.analysis.fold import fold
from smtcrypt.analysis.stats import choices, distinct_completions
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import Repeating, Word, numerals
from smtcrypt.encode import EncodingStopped, bitvec, general, watched
from smtcrypt.encode.general import FormulaTerms
from smtcrypt.engine.base import (
    DEADLINE_SLACK,
    UNKNOWNS_ELSEWHERE,
    Assignment,
    Ending,
    Fit,
    Halted,
    Means,
    Proof,
    SearchEnd,
    Statistics,
)
from smtcrypt.engine.exhaustive import digit_tuples
from smtcrypt.engine.z3search import ModelSearch, Unknown, Z3Backend, disjunction, make_solver, unknown_reason

BATCH = 4096  # a cube's solutions handed over this many at a time
TRIAL_CUBES = 8  # cubes shrunk before judging whether shrinking pays
SOLUTIONS_PER_CHECK = 1.0  # shrinking goes on while the cubes cover at least this many solutions per check


def significance(problem: Problem) -> list[str]:
    """Letters by the largest place value they hold, least first: the first to try dropping."""
    weight: dict[str, int] = dict.fromkeys(problem.letters, 0)
    for node in numerals(problem.formula):
        digits = node.text_of_digits() if isinstance(node, (Word, Repeating)) else ""
        for place, letter in enumerate(reversed(digits)):
            if letter in weight:
                weight[letter] = max(weight[letter], place + 1)
    return sorted(problem.letters, key=lambda letter: (weight[letter], letter))


class CubeSearch(Z3Backend):
    """Solutions cube by cube. `listing=False` counts each cube's completions without making them
    (only its model is yielded; the others are added to `bulk`). `exact` is False for a batch that
    is a model (a solver's answer, re-checked) and True for a cube's other solutions (proved by
    the cube's `unsat`)."""

    name = "cubes"

    def __init__(self, problem: Problem, terms: FormulaTerms, listing: bool = True, budget: float | None = None,
                 expected: float | None = None):
        self.problem = problem
        # solutions expected in all (the caller's estimate): once TRIAL_CUBES cubes show that covering them
        # would overrun the budget, the search gives up at once, and the exhaustive backend takes over sooner
        self.expected = expected
        self.terms = terms
        self.context = terms.context
        # processor seconds of the search's own work (its checks and bookkeeping; not the caller's, which lists what it
        # yields, nor other programs' on a busy machine: the price it is a share of is so measured) before giving up
        self.budget = budget
        self.own = 0.0
        self.resumed: float | None = None  # when the search last resumed, while it runs
        self.listing = listing
        self.cubes: list[dict[str, int]] = []  # every cube proved so far
        self.by_letters: dict[tuple[str, ...], set[tuple[int, ...]]] = {}  # the same, by the letters they fix
        self.covered = 0  # solutions in the cubes so far
        self.shrink_checks = 0
        self.shrinking = True
        # a Boolean for letter == digit in both solvers, and its negation: the refuter assumes the first, the solver
        # blocks cubes with clauses of the second (cheap for the bit-vector solver to translate back in later models,
        # unlike clauses over bit-vectors); all defined at once (defined between models, they slowed every later one)
        self.literals = {(letter, digit): z3.Bool(f"cube {letter}={digit}", self.context)
                         for letter in sorted(problem.letters) for digit in problem.allowed[letter]}
        self.negated = {key: z3.Not(literal) for key, literal in self.literals.items()}
        definitions = [literal == (terms.letters[name] == digit) for (name, digit), literal in self.literals.items()]
        # bit-vector terms on their incremental solver; the general terms (roots, which the bit-vector
        # encoding declines) on Z3's general solver: the finite-domain one gives up on some of them
        strategy = terms.solver or "general"
        self.solver = make_solver(strategy, self.context)
        self.solver.add(*terms.rules, *terms.side, terms.formula, *definitions)
        self.refuter = make_solver(strategy, self.context)  # looks for a completion that is no solution
        self.refuter.add(*terms.rules, *terms.side, z3.Not(terms.formula), *definitions)
        self.order = significance(problem)

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes what Z3 takes, where the formula and the rules can be encoded apart without
        quantifiers (the refuter needs the formula's negation) and all letters differ or none (a
        cube's completions are counted so); `made` is those terms, in a context of `means`."""
        if problem.unknowns:
            return Fit.refused("a cube fixes some letters' digits and counts the other letters' completions, of "
                               "which integer unknowns are no part", UNKNOWNS_ELSEWHERE)
        encodable = ModelSearch.fit(problem, means)
        if not encodable.ok:
            return encodable
        refused = Fit.refused("it has integer unknowns, terms whose negation would need a quantifier, or letters "
                              "of which only some must differ")
        if problem.distinctness == "some":
            return refused
        try:
            with means.clock("encode"), watched(means.halted):
                folded, context = fold(problem), means.context()
                terms = bitvec.formula_terms(folded, context) or general.formula_terms(folded, context)
        except EncodingStopped:  # stopped or out of time: no answer to whether cubes fit
            raise Halted from None
        return refused if terms is None else Fit.taken(terms)

    @classmethod
    def start(cls, problem: Problem, made: Any, means: Means) -> CubeSearch:
        """A cube search over the terms its fit made, with the budget and the solutions expected
        that `means` lends (where the portfolio gave the solver a share of the time)."""
        return cls(problem, made, listing=means.listing, budget=means.budget, expected=means.expected)

    def statistics(self, stats: Statistics) -> None:
        stats.cubes, stats.cube_checks = len(self.cubes), self.shrink_checks

    def _check(self, solver: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        """The solver's answer within the time left (`due`; none left: a millisecond): Z3 reads its timeout only
        now and then (a bit-blasted gcd can run on for seconds), so the watchdog (`batches`) holds that time too."""
        if (due := self.due()) is not None:
            solver.set("timeout", max(1, int((due - time.monotonic()) * 1000)))
        self.checks += 1
        return solver.check(*assumptions)

    def due(self) -> float | None:
        """The deadline, or sooner the first moment the budget could run out (the caller's time between batches and
        other programs' on a busy machine move it later: the watchdog reads it again when it comes)."""
        if self.budget is None:
            return self.deadline
        out = self.budget - self.spent() + time.monotonic()  # (spent read first: never sooner than the budget's end)
        return out if self.deadline is None else min(out, self.deadline)

    def spent(self) -> float:
        """The search's own processor seconds so far (see `budget`)."""
        return self.own + (0.0 if self.resumed is None else time.process_time() - self.resumed)

    def _meets(self, cube: dict[str, int], other: dict[str, int]) -> bool:
        """True if some assignment the rules allow agrees with both cubes."""
        joined = dict(other)
        for letter, digit in cube.items():
            if joined.setdefault(letter, digit) != digit:
                return False
        return self.problem.distinctness != "all" or len(set(joined.values())) == len(joined)

    def _shrink(self, model: Assignment) -> dict[str, int]:
        """The model with every letter dropped that, proved, does not matter, keeping the cube apart
        from the cubes before it (each solution is listed or counted once)."""
        cube = dict(model)
        for letter in self.order:
            if self.stop_requested or len(cube) == 1:
                break
            smaller = {other: digit for other, digit in cube.items() if other != letter}
            if any(self._meets(smaller, earlier) for earlier in self.cubes):
                continue
            trial = [self.literals[(other, digit)] for other, digit in smaller.items()]
            self.shrink_checks += 1
            if self._check(self.refuter, *trial) == z3.unsat:
                del cube[letter]
        self.covered += self.count(cube)
        self.shrinking = len(self.cubes) < TRIAL_CUBES or self.covered >= SOLUTIONS_PER_CHECK * self.checks
        return cube

    def completions(self, cube: dict[str, int]) -> Iterator[Assignment]:
        """Every assignment the rules allow that agrees with the cube, alphabetically keyed."""
        letters = sorted(self.problem.letters)
        free = [index for index, letter in enumerate(letters) if letter not in cube]
        values = [cube.get(letter, 0) for letter in letters]
        domains = [self.problem.allowed[letters[index]] for index in free]
        for digits in digit_tuples(domains, self.problem.distinctness == "all", set(cube.values())):
            for index, digit in zip(free, digits):
                values[index] = digit
            yield dict(zip(letters, values))

    def count(self, cube: dict[str, int]) -> int:
        """How many assignments the rules allow agree with the cube."""
        domains = [self.problem.allowed[letter] for letter in self.problem.letters if letter not in cube]
        if self.problem.distinctness != "all":
            return choices(map(len, domains), False)
        return distinct_completions(domains, frozenset(cube.values()))

    def reported(self) -> Callable[[tuple[int, ...]], bool]:
        """True for an alphabetical digit tuple that a cube proved so far holds: what the exhaustive
        backend skips after this search (a lookup per group of letters, no dict per candidate).
        Every solution reported, listed or counted, lies in one of them."""
        letters = sorted(self.problem.letters)
        if () in self.by_letters:  # a cube of no letters holds everything
            return lambda values: True
        groups = [(operator.itemgetter(*[letters.index(letter) for letter in fixed]), digits if len(fixed) > 1
                   else {values[0] for values in digits}) for fixed, digits in self.by_letters.items()]
        return lambda values: any(pick(values) in digits for pick, digits in groups)

    def _ended(self, result: z3.CheckSatResult) -> bool:
        """Sets `end` for an unknown answer or a stop; True if the search is over."""
        if self.stop_requested:
            self.end = SearchEnd(Ending.INTERRUPTED)
        elif self._out_of_time():
            self.end = SearchEnd(Ending.TIME)
        elif result == z3.unknown:
            reason = self.solver.reason_unknown()
            timed_out = unknown_reason(reason) in (Unknown.TIME, Unknown.CANCELED)  # a stop was seen above
            self.end = SearchEnd(Ending.TIME if timed_out else Ending.GAVE_UP, reason)
        return self.end is not None

    def _out_of_time(self) -> bool:
        """True at the deadline or once the budget is spent (`due`, within DEADLINE_SLACK), or once it would be
        overrun: the cubes so far, at their rate, would not cover the expected solutions in it."""
        if (due := self.due()) is not None and time.monotonic() >= due - DEADLINE_SLACK:
            return True
        return bool(self.budget and self.expected and len(self.cubes) >= TRIAL_CUBES
                    and self.spent() * self.expected > self.budget * max(self.covered, 1))

    def _enumerate(self) -> Iterator[list[Assignment]]:
        """The cubes' batches, the search's own time counted between them (see `budget`)."""
        self.resumed = time.process_time()
        for batch in self._cubes():
            self.resumed, self.own = None, self.spent()  # (so: the watchdog reading between sees less time, not more)
            yield batch
            self.resumed = time.process_time()
        self.resumed, self.own = None, self.spent()

    def _cubes(self) -> Iterator[list[Assignment]]:
        """Each model alone (`exact` False: a solver's answer), then its cube's other solutions in
        lists (`exact` True: proved by the cube)."""
        while not self._ended(z3.sat):
            result = self._check(self.solver)
            if result == z3.unsat:
                self.end = SearchEnd(Ending.COMPLETE, proof=Proof.CUBES)
                return
            if self._ended(result):
                return
            try:
                model = self.solver.model()
                assignment = {letter: model.eval(var, model_completion=True).as_long()
                              for letter, var in sorted(self.terms.letters.items())}
            except z3.Z3Exception:  # the context was interrupted just after the check: a stop, or the time
                if self._ended(z3.sat):
                    return
                raise
            cube = self._shrink(assignment) if self.shrinking else dict(assignment)
            if self.stop_requested:  # a shrink cut short proves nothing: keep the model alone
                cube = dict(assignment)
            self.cubes.append(cube)
            fixed = tuple(sorted(cube))
            self.by_letters.setdefault(fixed, set()).add(tuple(cube[letter] for letter in fixed))
            blocked = [self.negated[(letter, digit)] for letter, digit in cube.items()]
            self.solver.add(disjunction(blocked, self.context))  # (none: false, a cube of no letters holds everything)
            self.exact = False
            yield [assignment]  # the model: re-checked like any other
            self.exact = True
            if not self.listing:
                self.bulk += self.count(cube) - 1
                continue
            completions = (values for values in self.completions(cube) if values != assignment)
            while batch := list(itertools.islice(completions, BATCH)):
                yield batch
