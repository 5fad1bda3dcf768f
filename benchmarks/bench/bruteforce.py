"""The exact brute force: every assignment of distinct digits to the letters (`itertools.permutations`,
as in the seed notebook), each tested by the parsed formula compiled once into Python closures over
a tuple of digits: exact integers, `Fraction` only where `/`, a repeating decimal or a non-integer
or negative power needs it. No eval. The expected counts of corpus.tsv come from this method.
"""

from __future__ import annotations

import math
import operator
import time
from collections.abc import Callable
from fractions import Fraction
from itertools import islice, permutations

from smtcrypt.core.parse import parse
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Expr,
    Name,
    Not,
    Number,
    Repeating,
    Unary,
    Word,
    letters,
    words,
)

from .exact import COMPARE, NotRational, as_int, constant_value, exact_divide, exact_power
from .results import Result, Unsupported

Closure = Callable[[tuple], object]
Form = tuple[dict[int, int], int]  # {letter position: coefficient}, constant


def digits_form(text: str, index: dict[str, int]) -> Form:
    """The number whose digits are `text` (letters or literal digits) as a linear form."""
    coefs: dict[int, int] = {}
    const = 0
    for power, ch in enumerate(reversed(text)):
        if ch.isdigit():
            const += int(ch) * 10 ** power
        else:
            coefs[index[ch]] = coefs.get(index[ch], 0) + 10 ** power
    return coefs, const


def linear_form(node: Expr, index: dict[str, int]) -> Form | None:
    """An integer linear form {letter position: coefficient}, constant for the node, or None."""
    if isinstance(node, Word):
        return digits_form(node.letters, index)
    if isinstance(node, Number):
        return ({}, int(node.value)) if node.value.denominator == 1 else None
    if isinstance(node, Unary):
        inner = linear_form(node.operand, index)
        if inner is None or node.op == "+":
            return inner
        return {i: -c for i, c in inner[0].items()}, -inner[1]
    if isinstance(node, BinOp) and node.op in ("+", "-", "*"):
        left, right = linear_form(node.left, index), linear_form(node.right, index)
        if left is None or right is None:
            return None
        if node.op == "*":
            if left[0] and right[0]:
                return None  # a product of two words is not linear
            (coefs, const), factor = (left, right[1]) if not right[0] else (right, left[1])
            return {i: c * factor for i, c in coefs.items()}, const * factor
        sign = 1 if node.op == "+" else -1
        coefs = dict(left[0])
        for i, c in right[0].items():
            coefs[i] = coefs.get(i, 0) + sign * c
        return coefs, left[1] + sign * right[1]
    return None


def linear_closure(coefs: dict[int, int], const: int) -> Closure:
    items = [(i, c) for i, c in coefs.items() if c]
    if not items:
        return lambda d: const
    if len(items) == 1:
        (i, c), = items
        return (lambda d: d[i] * c + const) if const else (lambda d: d[i] * c)
    get = operator.itemgetter(*(i for i, _ in items))
    cs = tuple(c for _, c in items)
    mul = operator.mul
    return (lambda d: sum(map(mul, get(d), cs)) + const) if const else (lambda d: sum(map(mul, get(d), cs)))


class BruteForce:
    """A formula compiled once; `run` tries every assignment of distinct digits to its letters."""

    def __init__(self, formula: str):
        tree = parse(formula)
        order = letters(tree)
        leading = {word.letters[0] for word in words(tree) if len(word.letters) > 1 and word.letters[0].isalpha()}
        # Leading letters first, so that the leading-zero rule is one test on a prefix of the tuple.
        self.letters = tuple([x for x in order if x in leading] + [x for x in order if x not in leading])
        self.leading = sum(1 for x in order if x in leading)
        self.index = {letter: i for i, letter in enumerate(self.letters)}
        tests = [self.compile(constraint) for constraint in tree.constraints]
        if len(tests) == 1:
            self.test = tests[0]
        else:
            self.test = lambda d: all(test(d) for test in tests)

    # -- compilation ------------------------------------------------------------------------

    def compile(self, node: Expr) -> Closure:
        form = linear_form(node, self.index)
        if form is not None:
            return linear_closure(*form)
        if isinstance(node, Number):
            value = node.value if node.value.denominator != 1 else int(node.value)
            return lambda d: value
        if isinstance(node, Repeating):
            return self.compile_repeating(node)
        if isinstance(node, Name):
            raise Unsupported("an integer unknown (no finite set of values to try)")
        if isinstance(node, Unary):
            inner = self.compile(node.operand)
            return (lambda d: -inner(d)) if node.op == "-" else (lambda d: +inner(d))
        if isinstance(node, BinOp):
            return self.compile_binop(node)
        if isinstance(node, Compare):
            return self.compile_compare(node)
        if isinstance(node, BoolOp):
            parts = [self.compile(operand) for operand in node.operands]
            if node.op == "and":
                def conjunction(d):
                    for part in parts:
                        value = part(d)
                        if not value:
                            return value
                    return value
                return conjunction

            def disjunction(d):
                for part in parts:
                    value = part(d)
                    if value:
                        return value
                return value
            return disjunction
        if isinstance(node, Not):
            inner = self.compile(node.operand)
            return lambda d: not inner(d)
        if isinstance(node, Call):
            return self.compile_call(node)
        raise Unsupported(f"cannot evaluate {type(node).__name__} here")

    def compile_repeating(self, node: Repeating) -> Closure:
        """whole.fixed(period) = (whole fixed period - whole fixed) / (10^len(fixed) * (10^len(period) - 1))."""
        head = digits_form(node.whole + node.fixed, self.index)
        longer = digits_form(node.whole + node.fixed + node.period, self.index)
        coefs = dict(longer[0])
        for i, c in head[0].items():
            coefs[i] = coefs.get(i, 0) - c
        numerator = linear_closure(coefs, longer[1] - head[1])
        denominator = 10 ** len(node.fixed) * (10 ** len(node.period) - 1)
        return lambda d: Fraction(numerator(d), denominator)

    def compile_binop(self, node: BinOp) -> Closure:
        left, right = self.compile(node.left), self.compile(node.right)
        op = node.op
        if op == "+":
            return lambda d: left(d) + right(d)
        if op == "-":
            return lambda d: left(d) - right(d)
        if op == "*":
            return lambda d: left(d) * right(d)
        if op == "/":
            return lambda d: exact_divide(left(d), right(d))
        if op == "//":
            return lambda d: left(d) // right(d)  # ints and Fractions: floor, ZeroDivisionError on 0
        if op == "%":
            return lambda d: left(d) % right(d)
        if op == "**":
            if isinstance(node.right, Number) and node.right.value.denominator == 1 and node.right.value >= 0:
                k = int(node.right.value)
                if k == 2:
                    def square(d):
                        x = left(d)
                        return x * x
                    return square
                return lambda d: left(d) ** k
            exponent = constant_value(node.right)
            if exponent is not None:
                return lambda d: exact_power(left(d), exponent)
            return lambda d: exact_power(left(d), right(d))
        raise Unsupported(f"operator {op}")

    def compile_compare(self, node: Compare) -> Closure:
        if len(node.ops) == 1 and node.ops[0] in COMPARE:
            # a single comparison of two linear sides: one linear form compared with 0
            left, right = linear_form(node.operands[0], self.index), linear_form(node.operands[1], self.index)
            if left is not None and right is not None:
                coefs = dict(left[0])
                for i, c in right[0].items():
                    coefs[i] = coefs.get(i, 0) - c
                compare, form = COMPARE[node.ops[0]], linear_closure(coefs, 0)
                target = right[1] - left[1]
                return lambda d: compare(form(d), target)
            a, b, compare = self.compile(node.operands[0]), self.compile(node.operands[1]), COMPARE[node.ops[0]]
            return lambda d: compare(a(d), b(d))
        first = self.compile(node.operands[0])
        steps = []
        for op, operand in zip(node.ops, node.operands[1:]):
            if op in ("in", "not in"):
                steps.append((op, self.compile_container(operand)))
            else:
                steps.append((COMPARE[op], self.compile(operand)))

        def chain(d):  # Python's chained comparison: stop at the first false link
            left = first(d)
            for op, step in steps:
                if op == "in" or op == "not in":
                    if step(d, left) != (op == "in"):
                        return False
                    continue
                right = step(d)
                if not op(left, right):
                    return False
                left = right
            return True
        return chain

    def compile_container(self, node: Expr) -> Callable[[tuple, object], bool]:
        if isinstance(node, Collection):
            items = [self.compile(item) for item in node.items]
            return lambda d, x: x in [item(d) for item in items]  # every item evaluated, as in Python
        if isinstance(node, Call) and node.name == "range":
            bounds = self.compile_range(node)

            def in_range(d, x):
                start, stop = bounds(d)
                return (not isinstance(x, Fraction) or x.denominator == 1) and start <= x < stop
            return in_range
        raise Unsupported("'in' needs a {...}, (...) or range(...)")

    def compile_range(self, node: Call) -> Callable[[tuple], tuple[int, int]]:
        args = [self.compile(arg) for arg in node.args]
        if len(args) == 1:
            (stop,) = args
            return lambda d: (0, as_int(stop(d)))
        start, stop = args
        return lambda d: (as_int(start(d)), as_int(stop(d)))

    def compile_call(self, node: Call) -> Closure:
        if node.name == "sum":
            bounds = self.compile_range(node.args[0])

            def range_sum(d):
                start, stop = bounds(d)
                return max(0, stop - start) * (start + stop - 1) // 2
            return range_sum
        args = [self.compile(arg) for arg in node.args]
        if node.name == "abs":
            (arg,) = args
            return lambda d: abs(arg(d))
        if node.name in ("min", "max"):
            pick = min if node.name == "min" else max
            return lambda d: pick([arg(d) for arg in args])
        if node.name == "gcd":
            if all(linear_form(arg, self.index) is not None for arg in node.args):  # ints: no check needed
                if len(args) == 2:
                    a, b = args
                    return lambda d: math.gcd(a(d), b(d))
                return lambda d: math.gcd(*[arg(d) for arg in args])

            def gcd(d):
                values = [arg(d) for arg in args]
                if any(isinstance(v, Fraction) and v.denominator != 1 for v in values):
                    raise NotRational("gcd() of a non-integer")
                return math.gcd(*map(int, values))
            return gcd
        raise Unsupported(f"function {node.name}")

    # -- search -----------------------------------------------------------------------------

    def run(self, budget: float, first: bool = False, start: float | None = None) -> tuple[int, bool]:
        """(solutions, complete): every permutation, or until the first solution or the budget."""
        deadline = (time.perf_counter() if start is None else start) + budget
        test, k, count = self.test, self.leading, 0
        candidates = permutations(range(10), len(self.letters))
        while True:
            chunk = list(islice(candidates, 1 << 15))
            if not chunk:
                return count, True
            for digits in chunk:
                if k and 0 in digits[:k]:
                    continue
                try:
                    if test(digits):
                        count += 1
                        if first:
                            return count, True
                except ArithmeticError:  # a zero divisor or an irrational root: not a solution
                    pass
            if time.perf_counter() > deadline:
                return count, False


def run_bruteforce(formula: str, mode: str, budget: float) -> Result:
    start = time.perf_counter()
    try:
        count, complete = BruteForce(formula).run(budget, first=(mode == "first"), start=start)
    except Unsupported as error:
        return Result("skip", None, None, str(error))
    except Exception as error:
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    return Result("ok" if complete else "timeout", count, time.perf_counter() - start)
