"""The answer to a puzzle: the values one expression takes over its solutions, and a proof of uniqueness.

A setter asks for one number ("what is EFGH % 9?"), which may be unique while the solutions are not.
Listing every solution tallies the values. Deciding only whether the answer is unique needs no list:
after a first solution with answer v, the puzzle with one more constraint, "the answer is not v", is
searched for a single solution; a search that proves it has none (Z3's `unsat`, or every assignment
tried) proves the answer unique.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from smtcrypt.core.check import Problem, check, check_expression, check_size, constant, extended
from smtcrypt.core.parse import parse
from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.core.rules import is_wildcard
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Constraints,
    Expr,
    Name,
    Not,
    Number,
    Repeating,
    Unary,
    Word,
    compare,
    number,
    walk,
)
from smtcrypt.core.verify import Undefined, evaluate
from smtcrypt.errors import FormulaError
from smtcrypt.notations import Reading
from smtcrypt.search import Search

# An answer's value: a number, a tuple's numbers, or None where the expression is undefined (a zero divisor).
Value = int | Fraction | tuple[int | Fraction, ...] | None


@dataclass(frozen=True)
class Answer:
    """One value of the answer and how many solutions give it (None where not all were counted)."""

    value: Value
    count: int | None


@dataclass(frozen=True)
class Answers:
    """The answer's values over the puzzle's solutions, and what was established about them.

    `status` is UNIQUE (one value, proved: every solution listed, or no solution with another value),
    MULTIPLE (two values or more), NONE (no solution, proved) or UNKNOWN (`reason` says why).
    """

    expression: str
    status: Status
    values: tuple[Answer, ...]
    solutions: tuple[Solution, ...]
    complete: bool  # every solution was listed and counted
    reason: str | None
    seconds: float
    proof: str | None  # for --unique: how the absence of another answer was shown
    verdict: Verdict  # the first search's verdict (all solutions, or the first one with --unique)

    @property
    def value(self) -> Value:
        """The answer, when it is unique."""
        if self.status is not Status.UNIQUE:
            raise ValueError(f"the answer is {self.status.value}, not unique")
        return self.values[0].value


class Expression:
    """An answer expression, parsed (or built by a reader: a tree of one expression, its spans in its
    source) and checked against the puzzle: its parts (one, or a tuple's items)."""

    def __init__(self, text: str | Constraints, problem: Problem):
        tree = parse(text) if isinstance(text, str) else text
        text = tree.source  # in the composed form (NFC) the parser reads, or the text the reader's spans point into
        items: tuple[Expr, ...] = tree.constraints
        if len(items) == 1 and isinstance(items[0], Collection) and items[0].kind == "tuple":
            items = items[0].items
        self.tuple = len(items) > 1 or isinstance(tree.constraints[0], Collection)
        self.text, self.items = text, items
        letters, unknowns = set(problem.letters), set(problem.unknowns)
        loose = replace(problem.rules, distinct=False, groups=None, domains={}, assign={})  # of the letters alone
        for item in items:
            if isinstance(item, Collection):
                raise FormulaError("an answer is an expression or a tuple of expressions, not a set", text,
                                   item.span.start, item.span.end - item.span.start)
            check_expression(Constraints((item,), text))  # names, calls and containers as a formula's
            check_size(Constraints((item,), text), problem.rules)  # no part too large to compute, first
            # and all else a formula's checker asks of its parts (exponents, digits of the base), with
            # carets in the answer: "the answer is not v" adds it to the puzzle
            check(Constraints((compare(item, "!=", number(0, item.span), item.span),), text), loose)
            for node in walk(item):
                if isinstance(node, (Word, Repeating)):
                    for letter in node.text_of_digits():
                        if is_wildcard(letter):
                            raise FormulaError("an answer cannot ask for a wildcard '?'", text, node.span.start)
                        if not letter.isdigit() and letter not in letters:
                            # under the letter where the text writes it so, else at the word (a reader's
                            # word written in the user's own symbols)
                            written = text.find(letter, node.span.start, node.span.end)
                            raise FormulaError(f"the letter {letter} does not occur in the puzzle", text,
                                               written if written >= 0 else node.span.start)
                if isinstance(node, Name) and node.name not in unknowns:
                    raise FormulaError(f"{node.name!r} is not an integer unknown of the puzzle", text,
                                       node.span.start, node.span.end - node.span.start)

    def value(self, mapping: dict[str, int], base: int) -> Value:
        try:
            values = tuple(_plain(evaluate(item, mapping, base)) for item in self.items)
        except Undefined:
            return None
        return values if self.tuple else values[0]

    def differs(self, value: Value) -> Expr:
        """The constraint "the answer is not `value`" (of a defined answer), made of the answer's own tree."""
        values = value if isinstance(value, tuple) else (value,)
        parts = [compare(item, "!=", number(part, item.span), item.span) for item, part in zip(self.items, values)
                 if part is not None]
        return parts[0] if len(parts) == 1 else BoolOp("or", tuple(parts), parts[0].span)

    def total(self) -> bool:
        """True if the expression is defined for every assignment (no divisor that may be 0, no root)."""
        return all(_total(item) for item in self.items)


def _plain(value: Any) -> int | Fraction:
    return value.numerator if value.denominator == 1 else Fraction(value)


def _total(node: Expr) -> bool:
    """Conservatively: defined whatever the digits (divisors nonzero constants, integer powers, no range or gcd)."""
    if isinstance(node, (Word, Name, Number, Repeating)):
        return True
    if isinstance(node, (Unary, Not)):
        return _total(node.operand)
    if isinstance(node, BinOp):
        if node.op in ("/", "//", "%"):
            divisor = constant(node.right)
            return divisor is not None and divisor != 0 and _total(node.left)
        if node.op == "**":
            exponent = constant(node.right)
            return exponent is not None and exponent.denominator == 1 and exponent >= 0 and _total(node.left)
        return _total(node.left) and _total(node.right)
    if isinstance(node, (Compare, BoolOp)):
        return all(_total(operand) for operand in node.operands)
    if isinstance(node, Collection):
        return all(_total(item) for item in node.items)
    if isinstance(node, Call):
        return node.name in ("abs", "min", "max") and all(_total(arg) for arg in node.args)
    return False


def searching(reading: Reading, problem: Problem | None = None, *, limit: int | None = None,
              timeout: float | None = None, strategy: str = "auto", decide: bool = False) -> Search:
    """A search of the reading's problem (or of `problem`, the reading's with one more constraint),
    its solutions shown through the reading's view."""
    return Search(reading.problem if problem is None else problem, limit=limit, timeout=timeout, decide=decide,
                  strategy=reading.strategy if strategy == "auto" else strategy,
                  fill=reading.view.fill(reading.problem))  # shown as the puzzle, without the added constraint


def answers(reading: Reading, text: str, *, unique: bool = False, timeout: float | None = None,
            strategy: str = "auto") -> Answers:
    """The values of the answer `text` over the solutions of the puzzle read (see `Puzzle.answers`)."""
    expression = Expression(text, reading.problem)
    start = time.monotonic()
    if unique and expression.total():
        return _decide(reading, expression, start, timeout, strategy)
    search = searching(reading, timeout=timeout, strategy=strategy)
    tally: dict[Any, int] = {}
    for solution in search:
        value = expression.value(solution.mapping, reading.rules.base)
        tally[value] = tally.get(value, 0) + 1
    verdict = search.verdict()
    complete = verdict.complete
    if complete:
        status = Status.NONE if not tally else Status.UNIQUE if len(tally) == 1 else Status.MULTIPLE
    else:
        status = Status.MULTIPLE if len(tally) > 1 else Status.UNKNOWN
    values = tuple(Answer(value, count if complete else None) for value, count in sorted(tally.items(), key=_order))
    return Answers(text, status, values, verdict.solutions, complete, verdict.reason, time.monotonic() - start,
                   None, verdict)


def _order(item: tuple[Value, int]) -> tuple:
    value = item[0]
    return (value is None, value if isinstance(value, tuple) else (value,) if value is not None else ())


def _decide(reading: Reading, expression: Expression, start: float, timeout: float | None,
            strategy: str) -> Answers:
    """One solution, then one search for a solution whose answer differs: none, proved, is uniqueness."""
    first = searching(reading, limit=1, timeout=timeout, strategy=strategy)
    found = list(first)
    verdict = first.verdict()
    if not found:
        status = Status.NONE if verdict.complete else Status.UNKNOWN
        return Answers(expression.text, status, (), (), verdict.complete, verdict.reason,
                       time.monotonic() - start, verdict.proof.value if verdict.proof else None, verdict)
    value = expression.value(found[0].mapping, reading.rules.base)
    other = extended(reading.problem, expression.differs(value))  # one constraint more, the answer's own nodes
    remaining = None if timeout is None else max(timeout - (time.monotonic() - start), 0.01)
    search = searching(reading, other, limit=1, timeout=remaining, strategy=strategy)
    more = list(search)
    decided = search.verdict()
    seconds = time.monotonic() - start
    if more:
        second = expression.value(more[0].mapping, reading.rules.base)
        return Answers(expression.text, Status.MULTIPLE, (Answer(value, None), Answer(second, None)),
                       (found[0], more[0]), False, None, seconds, None, verdict)
    if decided.complete:
        proof = decided.proof.value if decided.proof else None
        return Answers(expression.text, Status.UNIQUE, (Answer(value, None),), (found[0],), False, None, seconds, proof,
                       verdict)
    return Answers(expression.text, Status.UNKNOWN, (Answer(value, None),), (found[0],), False, decided.reason, seconds,
                   None, verdict)
