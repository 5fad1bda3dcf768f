"""The exhaustive backend: the compiled formula (compiled.py) tried on every assignment the rules allow.

Where solutions are dense or the space is small, one solver check per model can never beat a
compiled candidate that costs well under a microsecond, and trying every assignment is a proof of
completeness as `unsat` is. The candidates come in chunks that start small and grow, so that the
clock and the stop are read every CHUNK_SECONDS even where one evaluation is slow.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.engine.base import Assignment, Backend, Ending, Fit, Halted, Means, Proof, SearchEnd, Statistics
from smtcrypt.engine.compiled import Compiled, Digits, candidate_digits, compile_problem
from smtcrypt.engine.compiled_writer import NotCompilable

OVERHEAD = 0.25e-6  # seconds per candidate beyond the formula: making and handing over the tuples
CHUNK_SECONDS = 0.01  # seconds of work between two looks at the clock and the stop flag
SMALLEST_CHUNK = 16  # candidates in the first chunk; each next one twice as many, up to what CHUNK_SECONDS allows
MAX_CHUNK = 1 << 20  # candidates in a chunk at most (memory)
YIELDED_WHEN_COUNTING = 100  # solutions yielded (for the caller's re-check) before a count goes on in bulk


def candidates(compiled: Compiled) -> tuple[Iterator[Digits], int]:
    """Every digit tuple for the free letters that the rules might allow (the loop's filters do the
    rest), each followed by every tuple of the bounded unknowns' values, and how many there are."""
    problem, free, fixed = compiled.problem, compiled.free, compiled.fixed
    pool = candidate_digits(problem, free, fixed)
    if any(not problem.allowed[letter] for letter in problem.letters) or pool is not None and (
            len(set(fixed.values())) < len(fixed) or len(pool) < len(free)):
        return iter(()), 0
    domains = [sorted(problem.allowed[letter]) for letter in free]
    tuples: Iterator[Digits] = itertools.product(*domains) if pool is None else itertools.permutations(
        sorted(pool), len(free))
    total = math.prod(len(domain) for domain in domains) if pool is None else math.perm(len(pool), len(free))
    values = list(compiled.unknowns.values())
    if not values or not total:
        return tuples, total
    # each letter tuple once, with every tuple of values (few: at most MAX_VALUES each), not the
    # letters' tuples kept in memory for every value
    return ((digits + chosen for digits in tuples for chosen in itertools.product(*values)),
            total * math.prod(len(domain) for domain in values))


def digit_tuples(domains: Sequence[frozenset[int]], distinct: bool, used: set[int]) -> Iterator[Digits]:
    """Every tuple of a digit from each domain, in increasing order: where `distinct`, all different
    and none of them `used`."""
    if not distinct:
        return itertools.product(*(sorted(domain) for domain in domains))
    domains = [domain - used for domain in domains]
    pool = frozenset().union(*domains)
    tuples = itertools.permutations(sorted(pool), len(domains))
    if all(domain == pool for domain in domains):
        return tuples
    return (digits for digits in tuples if all(digit in domain for digit, domain in zip(digits, domains)))


class ExhaustiveSearch(Backend):
    """Every assignment the rules allow, tried by the compiled formula, less the digit tuples
    (alphabetical) for which `skip` is true: solutions reported before a switch."""

    name = "exhaustive"
    exact = True  # its solutions are the formula's own exact evaluation, not a solver's model

    def __init__(self, compiled: Compiled, listing: bool = True):
        self.compiled = compiled
        self.listing = listing  # False: yield the first YIELDED_WHEN_COUNTING solutions, count the rest in `bulk`
        self.found = 0  # solutions yielded
        self.tried = 0  # candidate tuples evaluated
        self.total = candidates(compiled)[1]

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes every problem the formula compiles for: letters, and integer unknowns the formula
        bounds (each looped over its values); `made` is the compiled formula, which the others
        share (`Means.compiled`)."""
        try:
            with means.clock("compile"):
                return Fit.taken(compile_problem(problem))
        except NotCompilable as error:
            return Fit.refused(str(error))

    @classmethod
    def start(cls, problem: Problem, made: Any, means: Means) -> ExhaustiveSearch:
        """A fresh search over the compiled formula its fit made (the portfolio sets `skip` after a switch)."""
        return cls(made, listing=means.listing)

    def statistics(self, stats: Statistics) -> None:
        stats.candidates, stats.candidates_tried = self.total, self.tried

    def batches(self) -> Iterator[list[Assignment]]:
        """The solutions a chunk at a time."""
        tuples, _ = candidates(self.compiled)
        size = SMALLEST_CHUNK
        while not self._stopping():
            started = time.perf_counter()  # the chunk's making counts too: a chunk is the time between two looks
            chunk = list(itertools.islice(tuples, size))
            if not chunk:
                self.end = SearchEnd(Ending.COMPLETE, proof=Proof.EXHAUSTIVE)
                return
            hits = self.compiled.scan(chunk)
            spent = time.perf_counter() - started
            self.tried += len(chunk)
            size = max(1, min(MAX_CHUNK, 2 * len(chunk), int(len(chunk) * CHUNK_SECONDS / max(spent, 1e-6))))
            if batch := self._batch(hits):
                yield batch

    def _batch(self, hits: list[Digits]) -> list[Assignment]:
        """The hits to hand over: less those reported before a switch, and when counting, only the
        first YIELDED_WHEN_COUNTING of the search (the rest are added to `bulk`)."""
        assignment, skip = self.compiled.assignment, self.skip
        if skip is not None:  # on the hits only, as alphabetical tuples
            ordered = not (self.compiled.fixed or self.compiled.unknowns)  # else a hit's own order is not alphabetical
            hits = [digits for digits in hits if not skip(digits if ordered else tuple(assignment(digits).values()))]
        if not self.listing:  # counted in bulk past the first few: no assignment made for those
            keep = max(0, YIELDED_WHEN_COUNTING - self.found)
            self.bulk += max(0, len(hits) - keep)
            hits = hits[:keep]
        batch = [assignment(digits) for digits in hits]
        self.found += len(batch)
        return batch


def sample_costs(compiled: Compiled, sample: int, halted: Callable[[], bool]) -> tuple[float, float]:
    """What one candidate costs, and the share of candidates that are solutions, measured on a
    random sample (timings drift with the machine and its load: a measurement here and now beats
    any constant). The sample is evaluated in growing pieces with a look at `halted()` (the
    search's stop and clock) before each, `Halted` raised once it is true: where one evaluation
    takes a second, the whole sample would take a quarter of an hour."""
    problem, free = compiled.problem, compiled.free
    _, total = candidates(compiled)
    values = list(compiled.unknowns.values())
    if not total or not (free or values):
        return 0.0, 0.0
    pool = candidate_digits(problem, free, compiled.fixed)
    draw = random.Random(len(free))  # the first candidates are unlike the rest (leading zeros): draw some
    domains = [sorted(problem.allowed[letter]) for letter in free]
    digits = sorted(pool or ())
    chunk = [(tuple(map(draw.choice, domains)) if pool is None else tuple(draw.sample(digits, len(free))))
             + tuple(map(draw.choice, values)) for _ in range(sample)]
    spent, hits, begin, piece = 0.0, 0, 0, SMALLEST_CHUNK
    while begin < len(chunk):
        if halted():
            raise Halted
        started = time.perf_counter()
        hits += len(compiled.scan(chunk[begin:begin + piece]))
        spent += time.perf_counter() - started
        begin += piece
        # the rest at once where it takes less than a chunk's time (one call: the usual case), else twice as many
        piece = len(chunk) - begin if spent / begin * (len(chunk) - begin) < CHUNK_SECONDS else 2 * piece
    return spent / len(chunk) + OVERHEAD, hits / len(chunk)
