"""The join backend: one equation `LEFT = RIGHT` searched side by side, not assignment by assignment.

Two ways, each covering every assignment the rules allow, so that "no other solution" is proved as by
trying them all. **match**: each side evaluated on its own letters' digits, the smaller side's values in
a table keyed by the shared letters' digits and the value, each of the larger side's looked up in it
(`NAUGHT ** 2 = ZERO ** 3`: 10P6 + 10P4 evaluations instead of 10P10). **solve**: where one side is a
word or its positive constant power, only the other side is evaluated and the word's digits read off
its value (`ODD * ODD = FREAKY` evaluates the 90 assignments of O and D).

The equation may be one conjunct of several; the compiled formula then checks each match. Letters the
equation does not hold are tried beside each match, which `auto` prices by counting them (`estimate`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from smtcrypt.analysis.equations import conjuncts
from smtcrypt.analysis.stats import space
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Collection, Compare, Expr, Word
from smtcrypt.engine.base import Assignment, Backend, Ending, Fit, Means, Proof, SearchEnd, Statistics, letters_of
from smtcrypt.engine.compiled import Compiled, compile_problem, define_scan, filters, scan_source
from smtcrypt.engine.compiled_runtime import exact_root
from smtcrypt.engine.compiled_writer import NotCompilable, Writer
from smtcrypt.engine.exhaustive import digit_tuples

CHUNK = 4096  # side assignments evaluated between looks at the clock and the stop flag
MAX_TABLE = 2_000_000  # values of the smaller side held at once, at most (memory)

Key = Any  # an int, or a reduced (numerator, denominator) pair for a value that is not an integer


def _ratio(numerator: int, denominator: int) -> Key:
    """a / b as a table key: the int if whole, else the reduced pair (the denominator positive)."""
    if denominator == 0:
        raise ZeroDivisionError("division by zero")
    if denominator < 0:
        numerator, denominator = -numerator, -denominator
    divisor = math.gcd(numerator, denominator)
    return numerator // divisor if divisor == denominator else (numerator // divisor, denominator // divisor)


def _key(value: Any) -> Key:
    """Any exact value as a table key of the same kind `_ratio` makes."""
    if type(value) is Fraction:
        return value.numerator if value.denominator == 1 else (value.numerator, value.denominator)
    return value


SIDE_HELPERS = MappingProxyType({"_ratio": _ratio, "_key": _key})


class Side:
    """One side: its letters (those shared with the other side first, each group alphabetically),
    the digit tuples the rules allow them, and their values as table keys."""

    def __init__(self, problem: Problem, node: Expr, shared: tuple[str, ...] = ()):
        self.problem = problem
        self.letters = shared + tuple(sorted(letters_of(node) - set(shared)))
        self.shared = len(shared)
        names = {letter: f"v{index}" for index, letter in enumerate(self.letters)}
        writer = Writer(problem, names)
        pair = None if writer.integral(node) else writer.quotient(node)
        value = f"_ratio({pair[0]}, {pair[1]})" if pair is not None else f"_key({writer.write(node)})"
        key = value if not shared else "(" + "".join(f"v{index}, " for index in range(len(shared))) + value + ")"
        target = "(" + "".join(f"v{index}, " for index in range(len(self.letters))) + ")"
        conditions = filters(problem, self.letters, {}, writer)  # digits the permutations give but the rules refuse
        self.source = scan_source(target, conditions, None, f"({target}, {key})", True)
        self.values: Callable[[list[tuple[int, ...]]], list[tuple[tuple[int, ...], Key]]] = define_scan(
            self.source, writer.constants, SIDE_HELPERS, "<smtcrypt side>")
        self.domains = [sorted(problem.allowed[letter]) for letter in self.letters]
        self.total = space(problem, self.letters)

    def candidates(self) -> Iterator[tuple[int, ...]]:
        """Permutations of the digits any of the letters may take (the compiled filters refuse the
        rest), or, where letters need not differ, every tuple of their own digits."""
        if self.problem.distinctness != "all":
            return itertools.product(*self.domains)
        return itertools.permutations(sorted(set().union(*self.domains)), len(self.letters))


def word_power(problem: Problem, node: Expr) -> tuple[Word, Fraction] | None:
    """(word, e) for a side that is a word (e = 1) or a word to a positive constant power e."""
    if isinstance(node, Word):
        return node, Fraction(1)
    if isinstance(node, BinOp) and node.op == "**" and isinstance(node.left, Word):
        exponent = problem.constant_exponents.get(node)
        if exponent is not None and exponent > 0:
            return node.left, exponent
    return None


def alternatives(problem: Problem, target: Expr, known: set[str]) -> list[tuple[Word, Fraction]] | None:
    """The words (each with its exponent) that a solve plan reads off the other side's value: the
    target's word, or each word of a collection `(XXYY, XYXY, XYYX)` where they all hold the same
    letters beside the `known` ones; None where the target is not such."""
    items = target.items if isinstance(target, Collection) else (target,)
    read = [word_power(problem, item) for item in items]
    if not read or any(item is None for item in read):
        return None
    words = [item for item in read if item is not None]
    new = [{letter for letter in word.letters if letter.isalpha()} - known for word, _ in words]
    return words if all(letters == new[0] for letters in new) else None


class PowerReader:
    """Reads a word's digits off the value of `word ** e`, given the digits of the other side's letters."""

    def __init__(self, problem: Problem, word: Word, exponent: Fraction, known: tuple[str, ...]):
        self.problem = problem
        self.base = problem.rules.base
        self.p, self.q = exponent.numerator, exponent.denominator
        self.new = tuple(sorted({letter for letter in word.letters if not letter.isdigit()} - set(known)))
        self.limit = self.base ** len(word.letters)
        # each place from the last: (0, digit) a literal, (1, i) the other side's i-th letter,
        # (2, j) the first sight of the j-th new letter, (3, j) a later one
        self.places: list[tuple[int, int]] = []
        seen: set[str] = set()
        for char in reversed(word.letters):
            if char.isdigit():
                self.places.append((0, int(char)))
            elif char in known:
                self.places.append((1, known.index(char)))
            else:
                self.places.append((3 if char in seen else 2, self.new.index(char)))
                seen.add(char)
        self.allowed = [problem.allowed[letter] for letter in self.new]

    def read(self, value: Key, known: tuple[int, ...]) -> tuple[int, ...] | None:
        """The new letters' digits (in `new`'s order) that make the word's side equal `value`, or None."""
        if type(value) is tuple or value < 0:  # not a whole number, or below any word's value
            return None
        value = int(value)
        if self.p != 1:
            value = exact_root(value, self.p)
            if value is None:
                return None
        if self.q != 1:
            value = value ** self.q
        if value >= self.limit:
            return None
        base, allowed = self.base, self.allowed
        digits = [0] * len(self.new)
        for kind, ref in self.places:
            value, digit = divmod(value, base)
            if kind == 0 or kind == 1:
                if digit != (ref if kind == 0 else known[ref]):
                    return None
            elif kind == 2:
                if digit not in allowed[ref]:
                    return None
                digits[ref] = digit
            elif digit != digits[ref]:
                return None
        if self.problem.distinctness == "all" and (len(set(digits)) != len(digits)
                                                   or not set(digits).isdisjoint(known)):
            return None
        return tuple(digits)


@dataclass(frozen=True)
class Plan:
    """How to join one equation: match two sides, or solve for a word on one side."""

    left: Expr
    right: Expr
    solve_for: Expr | None  # the side whose word is read off the other's value (solve), or None (match)
    cost: int  # side assignments to evaluate
    rest: tuple[str, ...] = ()  # the formula's letters the equation does not hold, tried beside each match
    rest_space: int = 1  # digit tuples of the rest beside one match, at most

    @property
    def guess(self) -> int:
        """The cost before any match is counted: the sides, and the rest beside one match."""
        return self.cost + (self.rest_space if self.rest else 0)


def plans(problem: Problem) -> Iterator[Plan]:
    """Every way to join a conjunct `LEFT = RIGHT` (or `LEFT in (WORD, WORD, ...)`) with a letter,
    with what each costs (the rest of the formula's letters are tried beside its matches)."""
    equations = [part.operands for part in conjuncts(problem) if isinstance(part, Compare) and (
        part.ops == ("==",) or part.ops == ("in",) and isinstance(part.operands[1], Collection))]
    for left, right in [] if problem.unknowns else equations:
        held = letters_of(left) | letters_of(right)
        if not held:
            continue
        rest = tuple(sorted(set(problem.letters) - held))
        rest_space = space(problem, rest, len(held))
        cost_left, cost_right = space(problem, letters_of(left)), space(problem, letters_of(right))
        if isinstance(right, Collection):  # `LEFT in (XXYY, XYXY)`: each word read off LEFT's value
            if alternatives(problem, right, letters_of(left)) is not None:
                yield Plan(left, right, right, cost_left, rest, rest_space)
            continue
        yield Plan(left, right, None, cost_left + cost_right, rest, rest_space)
        for target, other, cost in ((right, left, cost_left), (left, right, cost_right)):
            if word_power(problem, target) is not None:
                yield Plan(other, target, target, cost, rest, rest_space)


def best_plan(problem: Problem) -> Plan | None:
    """The cheapest way to join, or None where the formula has no equation holding every letter
    (or only some letters must differ: the sides' candidates are all-or-nothing permutations)."""
    if problem.distinctness == "some":
        return None
    return min(plans(problem), key=lambda plan: (plan.guess, plan.solve_for is None), default=None)


class JoinSearch(Backend):
    """Every solution of a formula with an equation `LEFT = RIGHT`, side by side (see the module)."""

    name = "join"
    exact = True  # solutions are the compiled sides' own exact evaluation

    def __init__(self, problem: Problem, listing: bool = True, plan: Plan | None = None,
                 compiled: Compiled | None = None):
        plan = best_plan(problem) if plan is None else plan
        if plan is None:
            raise NotCompilable("no equation with a letter")
        self.plan = plan
        self.problem = problem
        self.listing = listing
        self.tried = 0
        self.readers: list[PowerReader] = []  # solving: one per word of `LEFT in (WORD, ...)`, or the one word
        self.large: Side | None = None
        if plan.solve_for is not None:
            self.small = Side(problem, plan.left)
            solved = alternatives(problem, plan.solve_for, set(self.small.letters))
            assert solved is not None  # the plan solves for a side that is a word or a word's power, or several
            self.readers = [PowerReader(problem, word, exponent, self.small.letters) for word, exponent in solved]
            letters = self.small.letters + self.readers[0].new
        else:
            shared = tuple(sorted(letters_of(plan.left) & letters_of(plan.right)))
            first, second = Side(problem, plan.left, shared), Side(problem, plan.right, shared)
            self.small, self.large = (first, second) if first.total <= second.total else (second, first)
            if self.small.total > MAX_TABLE:
                raise NotCompilable("the smaller side has too many values to hold")
            letters = self.small.letters[self.small.shared:] + self.large.letters
        # side assignments to evaluate: the cost of the join, against the product for trying every assignment
        self.halves = self.small.total + (self.large.total if self.large is not None else 0)
        self.rest_domains = [problem.allowed[letter] for letter in plan.rest]
        self.rest_tried = 0
        self.counted: list[tuple[int, ...]] | None = None  # the matches, where counted before the search
        letters += plan.rest
        self.order = sorted(range(len(letters)), key=letters.__getitem__)  # to alphabetical
        self.names = [letters[index] for index in self.order]
        # the rest of the formula (other conjuncts), checked by the whole formula compiled (`compiled`, where made)
        self.rest = (compiled or compile_problem(problem)) if len(conjuncts(problem)) > 1 else None

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        """Takes a formula with an equation to join (`best_plan`) whose sides compile and whose
        smaller side's values fit in memory; `made` is the backend, its sides compiled."""
        refused = Fit.refused("it needs an equation with a letter, no integer unknowns, and all letters distinct "
                              "or none")
        plan = best_plan(problem)
        if plan is None:
            return refused
        try:
            with means.clock("compile"):
                compiled = means.compiled() if len(conjuncts(problem)) > 1 else None
                return Fit.taken(cls(problem, listing=means.listing, plan=plan, compiled=compiled))
        except NotCompilable:
            return refused

    @property
    def sources(self) -> list[str]:
        """The generated code of the sides evaluated, for tests."""
        return [side.source for side in (self.small, self.large) if side is not None]

    def statistics(self, stats: Statistics) -> None:
        # the rest's tuples are known only as they are tried: counted in both
        how = "solve for a word" if self.readers else "match the sides"
        if self.plan.rest:
            how += f", then {''.join(self.plan.rest)} beside each match"
        stats.candidates, stats.candidates_tried = self.halves + self.rest_tried, self.tried + self.rest_tried
        stats.join = how

    def estimate(self, most: float | None = None) -> int | None:
        """What the join evaluates (the sides, and the rest beside each match), or None where that is
        over `most`. With rest letters, the matches are found here (and kept for the search)."""
        most = math.inf if most is None else most
        if not self.plan.rest or self.halves > most:
            return self.halves if self.halves <= most else None
        limit = (most - self.halves) // max(self.plan.rest_space, 1)
        found: list[tuple[int, ...]] = []
        for piece in self._matches():
            found.extend(piece)
            if len(found) > limit or len(found) > MAX_TABLE:
                self.tried = 0
                return None
        if self.end is not None:  # stopped (deadline or request) while counting: the search ends the same way
            return None
        self.counted = found
        return self.halves + len(found) * self.plan.rest_space

    def batches(self) -> Iterator[list[Assignment]]:
        matches = iter([self.counted]) if self.counted is not None else self._matches()
        for found in matches:
            for piece in self._with_rest(found):
                batch = self._assignments(piece)
                if batch:  # when counting, the first of each batch yielded (to be re-checked), the rest in bulk
                    self.bulk += 0 if self.listing else len(batch) - 1
                    yield batch if self.listing else batch[:1]
        if self.end is None:
            self.end = SearchEnd(Ending.COMPLETE, proof=Proof.EXHAUSTIVE)

    def _matches(self) -> Iterator[list[tuple[int, ...]]]:
        return self._solve() if self.readers else self._match()

    def _with_rest(self, found: list[tuple[int, ...]]) -> Iterator[list[tuple[int, ...]]]:
        """The matches with every digit tuple the rules allow the rest's letters beside them, a
        CHUNK-sized piece at a time (the matches alone where the equation holds every letter)."""
        if not self.plan.rest:
            yield found
            return
        distinct = self.problem.distinctness == "all"
        piece: list[tuple[int, ...]] = []
        for digits in found:
            piece.extend(digits + rest for rest in digit_tuples(self.rest_domains, distinct, set(digits)))
            if len(piece) >= CHUNK:
                if self._stopping():
                    return
                self.rest_tried += len(piece)
                yield piece
                piece = []
        self.rest_tried += len(piece)
        yield piece

    def _chunks(self, side: Side) -> Iterator[list[tuple[int, ...]]]:
        tuples = side.candidates()
        while chunk := list(itertools.islice(tuples, CHUNK)):
            if self._stopping():
                return
            self.tried += len(chunk)
            yield chunk

    def _solve(self) -> Iterator[list[tuple[int, ...]]]:
        """Digit tuples (side's letters, then the word's new ones) a chunk at a time; with several words,
        the value read as any of them (each digit tuple once, though two words read alike)."""
        reads = [reader.read for reader in self.readers]
        for chunk in self._chunks(self.small):
            if len(reads) == 1:
                read = reads[0]
                yield [digits + extra for digits, value in self.small.values(chunk)
                       if (extra := read(value, digits)) is not None]
                continue
            found: list[tuple[int, ...]] = []
            for digits, value in self.small.values(chunk):
                extras = {extra for read in reads if (extra := read(value, digits)) is not None}
                found.extend(digits + extra for extra in sorted(extras))
            yield found

    def _match(self) -> Iterator[list[tuple[int, ...]]]:
        """Digit tuples (the smaller side's own letters, then the larger side's) a chunk at a time."""
        assert self.large is not None
        table: dict[Key, list[tuple[int, ...]]] = {}
        shared = self.small.shared
        for chunk in self._chunks(self.small):
            for digits, key in self.small.values(chunk):
                table.setdefault(key, []).append(digits[shared:])
        if self.end is not None:
            return
        distinct = self.problem.distinctness == "all"
        for chunk in self._chunks(self.large):
            yield [other + digits for digits, key in self.large.values(chunk) for other in table.get(key, ())
                   if not distinct or set(digits).isdisjoint(other)]

    def _assignments(self, found: list[tuple[int, ...]]) -> list[Assignment]:
        """The matches as alphabetical assignments, less those the rest of the formula refuses and
        those reported before a switch."""
        order, names = self.order, self.names
        rows = [tuple(digits[index] for index in order) for digits in found]
        if rows and self.rest is not None:
            free = [names.index(letter) for letter in self.rest.free]
            keep = set(self.rest.scan([tuple(row[index] for index in free) for row in rows]))
            rows = [row for row in rows if tuple(row[index] for index in free) in keep]
        if rows and self.skip is not None:
            rows = [row for row in rows if not self.skip(row)]
        return [dict(zip(names, row)) for row in rows]
