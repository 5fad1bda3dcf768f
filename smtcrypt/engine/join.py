"""The join backend: an equation whose two sides share no letter, `LEFT = RIGHT`, solved by
evaluating each side alone and matching equal values.

`NAUGHT ** 2 = ZERO ** 3` has 10P6 x 10P4 assignments but only 10P6 + 10P4 side values: each side's
letters are tried on their own (the compiled code of `exhaustive.py`, the same exact semantics: a
side that divides by zero or takes an irrational root has no value there), the smaller side's
values go into a table, and every value of the larger side is looked up in it; two matching
halves make a solution when their digits differ (if letters must differ). Every pair of
halves is covered, so "no other solution" is proved as by trying every assignment.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Callable, Iterator

from ..check import Problem
from ..tree import Compare, Expr, Repeating, Word, walk
from . import Assignment, Ending, Proof, SearchEnd, Stoppable
from .exhaustive import HELPERS, NotCompilable, _Writer

CHUNK = 4096  # halves of the larger side evaluated between looks at the clock and the stop flag
SPLIT = 10  # the join is used when its larger side has at most 1/SPLIT of all the assignments


def letters_of(node: Expr) -> set[str]:
    texts = [part.letters if isinstance(part, Word) else part.whole + part.fixed + part.period
             for part in walk(node) if isinstance(part, (Word, Repeating))]
    return {letter for text in texts for letter in text if letter.isalpha()}


def sides(problem: Problem) -> tuple[Expr, Expr] | None:
    """The two sides of a one-equation formula whose sides share no letter (and each has one), or None."""
    constraints = problem.formula.constraints
    if problem.unknowns or len(constraints) != 1:
        return None
    equation = constraints[0]
    if not isinstance(equation, Compare) or equation.ops != ("==",):
        return None
    left, right = equation.operands
    if not letters_of(left) or not letters_of(right) or letters_of(left) & letters_of(right):
        return None
    return left, right


class Side:
    """One side's letters (alphabetically), the digit tuples the rules allow them, and its values."""

    def __init__(self, problem: Problem, node: Expr):
        self.problem = problem
        self.letters = tuple(sorted(letters_of(node)))
        names = {letter: f"v{index}" for index, letter in enumerate(self.letters)}
        writer = _Writer(problem, names)
        value = writer.write(node)
        target = "(" + "".join(f"v{index}, " for index in range(len(self.letters))) + ")"
        self.source = "\n".join([
            "def _scan(_candidates):",
            "    _hits = []",
            "    _keep = _hits.append",
            f"    for {target} in _candidates:",
            "        try:",
            f"            _keep(({target}, {value}))",
            "        except ArithmeticError:",
            "            pass",
            "    return _hits"]) + "\n"
        namespace: dict[str, Any] = dict(HELPERS, _K=tuple(writer.constants), __builtins__={})
        try:
            exec(compile(self.source, "<smtcrypt side>", "exec"), namespace)
        except (SyntaxError, RecursionError, MemoryError) as error:
            raise NotCompilable(f"the formula is too deeply nested to compile ({type(error).__name__})") from None
        self.values = namespace["_scan"]
        self.domains = [sorted(problem.allowed[letter]) for letter in self.letters]
        if problem.rules.distinct:
            pool = sorted(set().union(*self.domains))
            self.total = math.perm(len(pool), len(self.letters))
        else:
            self.total = math.prod(len(domain) for domain in self.domains)

    def candidates(self) -> Iterator[tuple[int, ...]]:
        if not self.problem.rules.distinct:
            return itertools.product(*self.domains)
        pool = sorted(set().union(*self.domains))
        tuples: Iterator[tuple[int, ...]] = itertools.permutations(pool, len(self.letters))
        allowed = [set(domain) for domain in self.domains]
        if any(len(domain) != len(pool) for domain in allowed):
            tuples = (digits for digits in tuples if all(d in domain for d, domain in zip(digits, allowed)))
        return tuples


class JoinSearch(Stoppable):
    """Every solution of `LEFT = RIGHT` with disjoint letters, by matching the sides' values."""

    name = "join"
    exact = True  # solutions are the compiled sides' own exact evaluation

    def __init__(self, problem: Problem, deadline: float | None = None, listing: bool = True):
        found = sides(problem)
        if found is None:
            raise NotCompilable("not one equation between sides with no letter in common")
        first, second = Side(problem, found[0]), Side(problem, found[1])
        self.small, self.large = (first, second) if first.total <= second.total else (second, first)
        self.problem = problem
        self.deadline = deadline
        self.listing = listing
        self.end: SearchEnd | None = None
        self.stop_requested = False
        self.bulk = 0
        self.tried = 0
        self.skip: Callable[[tuple[int, ...]], bool] | None = None  # alphabetical digit tuples reported before

    @property
    def halves(self) -> int:
        """Side assignments to evaluate: the cost of the join, against the product for trying every assignment."""
        return self.small.total + self.large.total

    def statistics(self) -> dict[str, Any]:
        return {"candidates": self.halves, "candidates_tried": self.tried}

    def __iter__(self) -> Iterator[Assignment]:
        for batch in self.batches():
            yield from batch

    def batches(self) -> Iterator[list[Assignment]]:
        table: dict[Any, list[tuple[int, ...]]] = {}
        small = self.small.candidates()
        while chunk := list(itertools.islice(small, CHUNK)):
            if self._stopping():
                return
            self.tried += len(chunk)
            for digits, value in self.small.values(chunk):
                table.setdefault(value, []).append(digits)
        distinct = self.problem.rules.distinct
        letters = self.small.letters + self.large.letters
        order = sorted(range(len(letters)), key=letters.__getitem__)
        names = [letters[index] for index in order]
        large = self.large.candidates()
        while chunk := list(itertools.islice(large, CHUNK)):
            if self._stopping():
                return
            self.tried += len(chunk)
            batch = []
            for digits, value in self.large.values(chunk):
                for other in table.get(value, ()):
                    if distinct and not set(digits).isdisjoint(other):
                        continue
                    both = other + digits
                    batch.append(dict(zip(names, [both[index] for index in order])))
            if batch and self.skip is not None:
                skip = self.skip
                batch = [values for values in batch if not skip(tuple(values.values()))]
            if batch:
                if self.listing:
                    yield batch
                else:
                    self.bulk += len(batch) - 1
                    yield batch[:1]
        self.end = SearchEnd(Ending.COMPLETE, proof=Proof.EXHAUSTIVE)
