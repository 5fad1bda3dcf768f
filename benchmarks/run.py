#!/usr/bin/env python3
"""Benchmark smtcrypt against a brute-force reference and OR-tools CP-SAT on the puzzle corpus.

    python benchmarks/run.py [--only TAG[+TAG],...] [--methods smtcrypt,bruteforce,cpsat]
        [--timeout S] [--bruteforce-timeout S] [--first] [--out benchmarks/results]

For every puzzle of benchmarks/corpus.tsv (or only those tagged TAG) each method counts ALL
solutions (puzzles tagged `first` have so many solutions that only the first is timed), in one
process, after a warm-up. It prints a table, totals and medians of time ratios, checks that
every method that finished found the same number of solutions (exit status 1 and DISAGREE if
not), and writes the results as JSON and a log-scale plot under --out.

`--first` times only the first solution (default set: the notebook puzzles), for comparison
with the 51.7 s that Peter Norvig's notebook reports for its brute-force first solutions.

The methods:
  smtcrypt    smtcrypt.count(formula, timeout=...), or the first of smtcrypt.solve(...)
  bruteforce  every permutation of digits for the letters, tested by the parsed formula compiled
              once into Python closures (exact ints, Fractions only where `/` or a non-integer
              or negative power needs them); no eval
  cpsat       OR-tools CP-SAT (one worker, all solutions enumerated) on an exact model of the
              puzzle when it has one (sums, products, integer powers and roots, abs/min/max,
              `X / Y = Z / W` equalities, comparisons); '-' when it cannot be modelled exactly
"""

from __future__ import annotations

import argparse
import json
import math
import operator
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from itertools import islice, permutations
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # `python benchmarks/run.py` from a checkout, with or without PYTHONPATH
    sys.path.insert(0, str(ROOT))

import smtcrypt  # noqa: E402
from smtcrypt.parse import parse  # noqa: E402
from smtcrypt.tree import (  # noqa: E402
    BinOp, BoolOp, Call, Collection, Compare, Expr, Not, Number, Unary, Word, letters, words,
)

METHODS = ("smtcrypt", "bruteforce", "cpsat")
WARM_UP = "SEND + MORE = MONEY"
NOTEBOOK_REFERENCE_SECONDS = 51.7  # Norvig's notebook: first solutions of its 67 formulas, brute force
DEFAULT_CORPUS = HERE / "corpus.tsv"
DEFAULT_OUT = HERE / "results"


# ----------------------------------------------------------------------------------------------
# Results


@dataclass
class Result:
    """One method on one puzzle.

    status: "ok" (finished: `count` is every solution, or in first mode 0 or 1), "timeout" (the
    budget ran out; `count` solutions were found before), "unknown" (the solver gave up),
    "skip" (the method cannot model the puzzle; `note` says why) or "error" (it crashed).
    """

    status: str
    count: int | None = None
    seconds: float | None = None
    note: str | None = None

    @property
    def finished(self) -> bool:
        return self.status == "ok"


@dataclass
class Puzzle:
    formula: str
    tags: list[str]
    mode: str = "all"  # "all": every solution; "first": the first only
    letters: int | None = None
    results: dict[str, Result] = field(default_factory=dict)
    disagreement: str | None = None


def load_corpus(path: Path) -> list[Puzzle]:
    """formula<TAB>tags (comma-separated) per line; '#' lines and blank lines are skipped."""
    puzzles = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        formula, _, tags = line.partition("\t")
        formula = formula.strip()
        if not formula:
            raise SystemExit(f"{path}:{number}: empty formula")
        puzzles.append(Puzzle(formula, [tag.strip() for tag in tags.split(",") if tag.strip()]))
    return puzzles


# ----------------------------------------------------------------------------------------------
# smtcrypt


def run_smtcrypt(formula: str, mode: str, timeout: float) -> Result:
    start = time.perf_counter()
    try:
        if mode == "first":
            found = next(smtcrypt.solve(formula, limit=1, timeout=timeout), None)
            count = 0 if found is None else 1
        else:
            count = smtcrypt.count(formula, timeout=timeout)
    except smtcrypt.IncompleteSearch as error:
        status = "timeout" if "time" in error.reason else "unknown"
        return Result(status, error.found, time.perf_counter() - start, error.reason)
    except Exception as error:  # a formula error or a crash (VerificationError would be a bug)
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    return Result("ok", count, time.perf_counter() - start)


# ----------------------------------------------------------------------------------------------
# Brute force: the parsed tree compiled into closures over a tuple of digits


class NotRational(ArithmeticError):
    """An irrational or complex root: the candidate is not a solution."""


def floor_root(n: int, k: int) -> int:
    """The largest r with r**k <= n, for n >= 0 (integer Newton iteration from above)."""
    if n < 2:
        return n
    if k == 2:
        return math.isqrt(n)
    r = 1 << (n.bit_length() // k + 1)  # above the root
    while True:
        s = ((k - 1) * r + n // r ** (k - 1)) // k
        if s >= r:
            return r
        r = s


def exact_root(n: int, k: int) -> int:
    r = floor_root(n, k)
    if r ** k != n:
        raise NotRational(f"{n} is not a perfect {k}-th power")
    return r


def exact_power(base, exponent):
    """base ** exponent exactly: ints stay ints, negative powers become Fractions, p/q takes a root."""
    if isinstance(exponent, Fraction) and exponent.denominator != 1:
        if isinstance(base, int):  # the common case (`EVIL**(1/2)`): an integer root, no Fraction
            if base < 0:
                raise NotRational("root of a negative number")
            base, exponent = exact_root(base, exponent.denominator), exponent.numerator
            return exact_power(base, exponent)
        base = Fraction(base)
        if base < 0:
            raise NotRational("root of a negative number")
        q = exponent.denominator
        top, bottom = exact_root(base.numerator, q), exact_root(base.denominator, q)
        base = top if bottom == 1 else Fraction(top, bottom)
        exponent = exponent.numerator
    exponent = int(exponent)
    if exponent >= 0:
        return base ** exponent
    if base == 0:
        raise ZeroDivisionError("zero to a negative power")
    return Fraction(base) ** exponent


def exact_divide(left, right):
    if isinstance(left, int) and isinstance(right, int):
        return Fraction(left, right)  # raises ZeroDivisionError on 0
    if right == 0:
        raise ZeroDivisionError("division by zero")
    return Fraction(left) / right


def as_int(value) -> int:
    if isinstance(value, Fraction):
        if value.denominator != 1:
            raise NotRational("range() of a non-integer")
        return value.numerator
    return int(value)


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
           ">=": operator.ge}
Closure = Callable[[tuple], object]


class Unsupported(Exception):
    """The puzzle uses something the method cannot handle exactly."""


def linear_form(node: Expr, index: dict[str, int]) -> tuple[dict[int, int], int] | None:
    """An integer linear form {letter position: coefficient}, constant for the node, or None."""
    if isinstance(node, Word):
        coefs: dict[int, int] = {}
        for power, letter in enumerate(reversed(node.letters)):
            coefs[index[letter]] = coefs.get(index[letter], 0) + 10 ** power
        return coefs, 0
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
        leading = {word.letters[0] for word in words(tree) if len(word.letters) > 1}
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


def constant_value(node: Expr) -> Fraction | None:
    """The exact value of a letter-free expression of numbers and + - * / (like `(1/2)`), else None."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Unary):
        inner = constant_value(node.operand)
        return None if inner is None else (-inner if node.op == "-" else inner)
    if isinstance(node, BinOp) and node.op in ("+", "-", "*", "/"):
        left, right = constant_value(node.left), constant_value(node.right)
        if left is None or right is None or (node.op == "/" and right == 0):
            return None
        if node.op == "/":
            return left / right
        return {"+": operator.add, "-": operator.sub, "*": operator.mul}[node.op](left, right)
    return None


def run_bruteforce(formula: str, mode: str, budget: float) -> Result:
    start = time.perf_counter()
    try:
        count, complete = BruteForce(formula).run(budget, first=(mode == "first"), start=start)
    except Unsupported as error:
        return Result("skip", None, None, str(error))
    except Exception as error:
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    return Result("ok" if complete else "timeout", count, time.perf_counter() - start)


# ----------------------------------------------------------------------------------------------
# CP-SAT: an exact integer model, or Unsupported


INT_LIMIT = 1 << 62  # keep every bound well inside CP-SAT's int64 domains


@dataclass
class Term:
    expr: object  # an int, an IntVar or a linear expression
    lo: int
    hi: int

    @property
    def constant(self) -> bool:
        return self.lo == self.hi


class CpSatModel:
    """The puzzle as a CP-SAT model: one IntVar per letter, AllDifferent, leading letters >= 1."""

    def __init__(self, formula: str):
        from ortools.sat.python import cp_model

        self.cp = cp_model
        tree = parse(formula)
        self.model = cp_model.CpModel()
        self.leading = {word.letters[0] for word in words(tree) if len(word.letters) > 1}
        self.letters = letters(tree)
        self.vars = {x: self.model.new_int_var(1 if x in self.leading else 0, 9, x) for x in self.letters}
        if len(self.vars) > 1:
            self.model.add_all_different(list(self.vars.values()))
        self.cache: dict[Expr, Term] = {}
        for constraint in tree.constraints:
            self.constraint(constraint)

    # -- terms ------------------------------------------------------------------------------

    def make(self, expr, lo: int, hi: int) -> Term:
        if max(abs(lo), abs(hi)) > INT_LIMIT:
            raise Unsupported("values beyond int64")
        return Term(expr, lo, hi)

    def new_var(self, lo: int, hi: int):
        if max(abs(lo), abs(hi)) > INT_LIMIT:
            raise Unsupported("values beyond int64")
        return self.model.new_int_var(lo, hi, "")

    def var_of(self, term: Term):
        if isinstance(term.expr, self.cp.IntVar):
            return term.expr
        var = self.new_var(term.lo, term.hi)
        self.model.add(var == term.expr)
        return var

    def term(self, node: Expr) -> Term:
        if node not in self.cache:
            self.cache[node] = self._term(node)
        return self.cache[node]

    def _term(self, node: Expr) -> Term:
        if isinstance(node, Word):
            if len(node.letters) == 1:
                var = self.vars[node.letters]
                return Term(var, 1 if node.letters in self.leading else 0, 9)
            coefs: dict[str, int] = {}
            for power, letter in enumerate(reversed(node.letters)):
                coefs[letter] = coefs.get(letter, 0) + 10 ** power
            lo = sum(c * (x in self.leading) for x, c in coefs.items())
            hi = sum(c * 9 for c in coefs.values())
            expr = self.cp.LinearExpr.weighted_sum([self.vars[x] for x in coefs], list(coefs.values()))
            return self.make(expr, lo, hi)
        if isinstance(node, Number):
            if node.value.denominator != 1:
                raise Unsupported("a non-integer number")
            value = int(node.value)
            return Term(value, value, value)
        if isinstance(node, Unary):
            inner = self.term(node.operand)
            return inner if node.op == "+" else self.make(-inner.expr, -inner.hi, -inner.lo)
        if isinstance(node, BinOp):
            if node.op in ("+", "-"):
                a, b = self.term(node.left), self.term(node.right)
                if node.op == "+":
                    return self.make(a.expr + b.expr, a.lo + b.lo, a.hi + b.hi)
                return self.make(a.expr - b.expr, a.lo - b.hi, a.hi - b.lo)
            if node.op == "*":
                return self.multiply(self.term(node.left), self.term(node.right))
            if node.op == "**":
                return self.power(node)
            raise Unsupported(f"'{node.op}' inside an expression")
        if isinstance(node, Call):
            return self.call(node)
        raise Unsupported(f"{type(node).__name__} inside an expression")

    def multiply(self, a: Term, b: Term) -> Term:
        if a.constant or b.constant:
            (factor, other) = (a.lo, b) if a.constant else (b.lo, a)
            bounds = (factor * other.lo, factor * other.hi)
            return self.make(factor * other.expr if factor else 0, min(bounds), max(bounds))
        corners = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        target = self.new_var(min(corners), max(corners))
        self.model.add_multiplication_equality(target, [self.var_of(a), self.var_of(b)])
        return Term(target, min(corners), max(corners))

    def power(self, node: BinOp) -> Term:
        exponent = constant_value(node.right)
        if exponent is None:
            raise Unsupported("a variable exponent")
        base = self.term(node.left)
        if base.constant:
            try:
                value = exact_power(base.lo, exponent)
            except ArithmeticError:
                raise Unsupported("an undefined constant power") from None
            if isinstance(value, Fraction) and value.denominator != 1:
                raise Unsupported("a non-integer constant power")
            value = int(value)
            return Term(value, value, value)
        p, q = exponent.numerator, exponent.denominator
        if p < 0:
            raise Unsupported("a negative exponent")
        if q != 1:  # the exact non-negative q-th root r of an integer: r >= 0 and r**q == base
            top = floor_root(max(base.hi, 0), q)
            root = Term(self.new_var(0, top), 0, top)
            self.model.add(self.integer_power(root, q).expr == base.expr)
            base = root
        return self.integer_power(base, p)

    def integer_power(self, base: Term, k: int) -> Term:
        if k == 0:
            return Term(1, 1, 1)
        result = base
        for _ in range(k - 1):
            result = self.multiply(result, base)
        return result

    def call(self, node: Call) -> Term:
        if node.name == "sum":
            (inner,) = node.args
            if not (isinstance(inner, Call) and inner.name == "range" and len(inner.args) == 1):
                raise Unsupported("sum(range(a, b))")
            n = self.term(inner.args[0])
            if n.lo < 0:
                raise Unsupported("sum(range(n)) with n that may be negative")
            lo, hi = n.lo * (n.lo - 1) // 2 if n.lo else 0, n.hi * (n.hi - 1) // 2 if n.hi else 0
            total = self.new_var(lo, hi)
            below = self.make(n.expr - 1, n.lo - 1, n.hi - 1)
            self.model.add(2 * total == self.multiply(n, below).expr)
            return Term(total, lo, hi)
        args = [self.term(arg) for arg in node.args]
        if node.name == "abs":
            (a,) = args
            hi = max(abs(a.lo), abs(a.hi))
            lo = 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
            target = self.new_var(lo, hi)
            self.model.add_abs_equality(target, self.var_of(a))
            return Term(target, lo, hi)
        if node.name in ("min", "max"):
            pick = min if node.name == "min" else max
            lo, hi = pick(a.lo for a in args), pick(a.hi for a in args)
            target = self.new_var(lo, hi)
            add = self.model.add_min_equality if node.name == "min" else self.model.add_max_equality
            add(target, [self.var_of(a) for a in args])
            return Term(target, lo, hi)
        raise Unsupported(f"function {node.name}")

    # -- constraints ------------------------------------------------------------------------

    def constraint(self, node: Expr) -> None:
        if isinstance(node, BoolOp) and node.op == "and":
            for operand in node.operands:
                self.constraint(operand)
            return
        if not isinstance(node, Compare):
            raise Unsupported(f"a top-level '{getattr(node, 'op', 'not')}'")
        operands = list(node.operands)
        for position, (op, right) in enumerate(zip(node.ops, operands[1:])):
            left = operands[position]
            if op in ("in", "not in"):
                if position + 1 < len(node.ops):
                    raise Unsupported("a comparison chained after 'in'")
                self.membership(self.term(left), op, right)
            else:
                self.comparison(left, op, right)

    def ratio(self, node: Expr) -> tuple[Term, Term | None]:
        """A side of an equation as numerator, denominator (None: an integer expression)."""
        if isinstance(node, BinOp) and node.op == "/":
            return self.term(node.left), self.term(node.right)
        return self.term(node), None

    def comparison(self, left: Expr, op: str, right: Expr) -> None:
        (p1, q1), (p2, q2) = self.ratio(left), self.ratio(right)
        if q1 is not None or q2 is not None:
            if op not in ("==", "!="):
                raise Unsupported("a quotient in an inequality")
            for q in (q1, q2):  # a zero divisor makes the formula undefined: not a solution
                if q is not None:
                    self.require(q.expr != 0)
            # P1/Q1 op P2/Q2  <=>  P1*Q2 op P2*Q1 when Q1, Q2 != 0
            one = Term(1, 1, 1)
            p1, p2 = self.multiply(p1, q2 or one), self.multiply(p2, q1 or one)
        self.require(COMPARE[op](p1.expr, p2.expr))

    def require(self, constraint) -> None:
        if isinstance(constraint, bool):  # both sides were constants
            if not constraint:
                self.model.add(self.model.new_constant(0) == 1)  # false: no solution
            return
        self.model.add(constraint)

    def membership(self, item: Term, op: str, container: Expr) -> None:
        if isinstance(container, Collection):
            members = [self.term(x) for x in container.items]
            if op == "not in":
                for member in members:
                    self.require(item.expr != member.expr)
                return
            flags = []
            for member in members:  # flag <=> item == member, so flags are determined by the letters
                flag = self.model.new_bool_var("")
                self.model.add(item.expr == member.expr).only_enforce_if(flag)
                self.model.add(item.expr != member.expr).only_enforce_if(~flag)
                flags.append(flag)
            self.model.add_bool_or(flags)
            return
        if isinstance(container, Call) and container.name == "range" and op == "in":
            bounds = [self.term(x) for x in container.args]
            start, stop = (Term(0, 0, 0), bounds[0]) if len(bounds) == 1 else bounds
            self.require(item.expr >= start.expr)
            self.require(item.expr < stop.expr)
            return
        raise Unsupported(f"'{op}' with this container")

    # -- search -----------------------------------------------------------------------------

    def solve(self, timeout: float, first: bool) -> tuple[int, str]:
        cp = self.cp
        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = timeout
        variables = [self.vars[x] for x in self.letters]
        if first:
            status = solver.solve(self.model)
            if status in (cp.OPTIMAL, cp.FEASIBLE):
                return 1, "ok"
            return 0, "ok" if status == cp.INFEASIBLE else ("invalid" if status == cp.MODEL_INVALID else "timeout")

        class Collector(cp.CpSolverSolutionCallback):
            def __init__(self):
                super().__init__()
                self.seen: set[tuple[int, ...]] = set()

            def on_solution_callback(self):
                self.seen.add(tuple(self.value(v) for v in variables))

        solver.parameters.enumerate_all_solutions = True
        collector = Collector()
        status = solver.solve(self.model, collector)
        if status in (cp.OPTIMAL, cp.INFEASIBLE):
            return len(collector.seen), "ok"
        return len(collector.seen), "invalid" if status == cp.MODEL_INVALID else "timeout"


_ORTOOLS: bool | None = None


def have_ortools() -> bool:
    global _ORTOOLS
    if _ORTOOLS is None:
        try:
            from ortools.sat.python import cp_model  # noqa: F401
            _ORTOOLS = True
        except ImportError:
            _ORTOOLS = False
    return _ORTOOLS


def run_cpsat(formula: str, mode: str, timeout: float) -> Result:
    if not have_ortools():
        return Result("skip", None, None, "ortools is not installed")
    start = time.perf_counter()
    try:
        model = CpSatModel(formula)
        count, status = model.solve(max(0.001, timeout - (time.perf_counter() - start)), first=(mode == "first"))
    except Unsupported as error:
        return Result("skip", None, None, str(error))
    except Exception as error:
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    if status == "invalid":
        return Result("error", count, time.perf_counter() - start, "CP-SAT: MODEL_INVALID")
    return Result(status, count, time.perf_counter() - start)


RUNNERS = {"smtcrypt": run_smtcrypt, "bruteforce": run_bruteforce, "cpsat": run_cpsat}


# ----------------------------------------------------------------------------------------------
# Checking, reporting


def check_agreement(puzzle: Puzzle) -> str | None:
    """None if the methods agree; else what differs."""
    finished = {m: r.count for m, r in puzzle.results.items() if r.finished}
    if len(set(finished.values())) > 1:
        return "counts differ: " + ", ".join(f"{m}={c}" for m, c in finished.items())
    if finished:
        (complete,) = set(finished.values())
        for method, result in puzzle.results.items():
            if result.status in ("timeout", "unknown") and result.count is not None and result.count > complete:
                return f"{method} found {result.count} before its time limit, more than the {complete} of " \
                       + ", ".join(m for m in finished)
    return None


def show_count(result: Result | None, mode: str) -> str:
    if result is None:
        return ""
    if result.status == "ok":
        return ("1+" if result.count else "0") if mode == "first" else str(result.count)
    if result.status == "skip":
        return "-"
    if result.status == "error":
        return "ERROR"
    return f"T/O({result.count or 0})" if result.status == "timeout" else f"?({result.count or 0})"


def show_ms(result: Result | None) -> str:
    if result is None or result.seconds is None:
        return "-"
    text = f"{result.seconds * 1000:.0f}" if result.seconds >= 0.1 else f"{result.seconds * 1000:.1f}"
    return (">" + text) if result.status in ("timeout", "unknown") else text


def ratio(top: Result | None, bottom: Result | None) -> tuple[float | None, str]:
    """top/bottom of times; a lower or upper bound (marked > or <) when one of them did not finish."""
    if top is None or bottom is None or top.seconds is None or bottom.seconds is None:
        return None, "-"
    if top.status in ("skip", "error") or bottom.status in ("skip", "error"):
        return None, "-"
    value = top.seconds / max(bottom.seconds, 1e-9)
    if top.finished and bottom.finished:
        return value, f"{value:.3g}"
    if not top.finished and not bottom.finished:
        return None, "?"
    return None, (">" if not top.finished else "<") + f"{value:.3g}"


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def machine_info() -> dict:
    info = {"platform": platform.platform(), "machine": platform.machine(), "cpu_count": os.cpu_count(),
            "python": sys.version.split()[0], "smtcrypt": getattr(smtcrypt, "__version__", "?")}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import z3
        info["z3"] = z3.get_version_string()
    except Exception:
        info["z3"] = None
    try:
        import ortools
        info["ortools"] = ortools.__version__
    except Exception:
        info["ortools"] = None
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "smtcrypt", "grammar"],
                               capture_output=True, text=True, timeout=10)
        if commit.returncode == 0:
            info["git"] = commit.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def print_row(index: int, puzzle: Puzzle, methods: list[str]) -> None:
    r = puzzle.results
    counts = " ".join(f"{show_count(r.get(m), puzzle.mode):>9}" for m in methods)
    times = " ".join(f"{show_ms(r.get(m)):>9}" for m in methods)
    _, smt_cp = ratio(r.get("smtcrypt"), r.get("cpsat"))
    _, brute_smt = ratio(r.get("bruteforce"), r.get("smtcrypt"))
    mark = "*" if puzzle.mode == "first" else " "
    line = f"{index:3} {clip(puzzle.formula, 44):44} {puzzle.letters or 0:2}{mark} | {counts} | {times} | " \
           f"{smt_cp:>7} {brute_smt:>8}"
    if puzzle.disagreement:
        line += "   <-- DISAGREE"
    print(line, flush=True)
    for method in methods:
        result = r.get(method)
        if result is not None and result.status == "error":
            print(f"      {method} ERROR: {result.note}", flush=True)


def header(methods: list[str]) -> str:
    short = {"smtcrypt": "smtcrypt", "bruteforce": "brute", "cpsat": "cpsat"}
    counts = " ".join(f"{short[m]:>9}" for m in methods)
    return f"{'#':>3} {'formula':44} {'L':>2}  | {counts} | {counts} | {'smt/cp':>7} {'brute/smt':>8}\n" \
           f"{'':3} {'':44} {'':2}  | {'solutions':^{10 * len(methods) - 1}} | {'ms':^{10 * len(methods) - 1}} |"


def summarise(puzzles: list[Puzzle], methods: list[str], first_mode: bool) -> dict:
    summary: dict = {"methods": {}}
    for method in methods:
        results = [p.results[method] for p in puzzles if method in p.results]
        done = [r for r in results if r.finished]
        summary["methods"][method] = {
            "finished": len(done),
            "timeouts": sum(r.status in ("timeout", "unknown") for r in results),
            "skipped": sum(r.status == "skip" for r in results),
            "errors": sum(r.status == "error" for r in results),
            "total_seconds_finished": sum(r.seconds for r in done),
            "median_ms_finished": 1000 * statistics.median(r.seconds for r in done) if done else None,
        }
    common = [p for p in puzzles if all(p.results[m].finished for m in methods if m in p.results)]
    summary["common_puzzles"] = len(common)
    summary["common_total_seconds"] = {m: sum(p.results[m].seconds for p in common) for m in methods}
    for name, top, bottom in (("smtcrypt/cpsat", "smtcrypt", "cpsat"), ("bruteforce/smtcrypt", "bruteforce", "smtcrypt")):
        if top in methods and bottom in methods:
            values = [v for p in puzzles for v in [ratio(p.results.get(top), p.results.get(bottom))[0]] if v is not None]
            summary[name] = {"puzzles": len(values), "median": statistics.median(values) if values else None,
                             "geometric_mean": math.exp(statistics.fmean(math.log(max(v, 1e-12)) for v in values))
                             if values else None,
                             "min": min(values) if values else None, "max": max(values) if values else None}
    if first_mode and "smtcrypt" in methods:
        summary["first_solution_total_seconds"] = {
            m: sum(p.results[m].seconds or 0 for p in puzzles if m in p.results and p.results[m].seconds)
            for m in methods}
    return summary


def print_summary(summary: dict, methods: list[str], puzzles: list[Puzzle], first_mode: bool, args) -> None:
    print()
    print(f"{'method':12} {'finished':>8} {'timeout':>8} {'skipped':>8} {'errors':>7} {'total s (finished)':>19}"
          f" {'median ms':>10}")
    for method in methods:
        s = summary["methods"][method]
        median = f"{s['median_ms_finished']:10.1f}" if s["median_ms_finished"] is not None else f"{'-':>10}"
        print(f"{method:12} {s['finished']:8} {s['timeouts']:8} {s['skipped']:8} {s['errors']:7} "
              f"{s['total_seconds_finished']:19.2f} {median}")
    common = ", ".join(f"{m} {summary['common_total_seconds'][m]:.2f} s" for m in methods)
    print(f"on the {summary['common_puzzles']} puzzles every method finished: {common}")
    for name in ("smtcrypt/cpsat", "bruteforce/smtcrypt"):
        if name in summary and summary[name]["median"] is not None:
            s = summary[name]
            print(f"ratio {name:20} median {s['median']:.3g}  geometric mean {s['geometric_mean']:.3g}  "
                  f"range {s['min']:.3g}..{s['max']:.3g}  over {s['puzzles']} puzzles (both finished)")
    if first_mode:
        totals = summary.get("first_solution_total_seconds", {})
        for method in methods:
            statuses = [p.results[method].status for p in puzzles if method in p.results]
            cut, skipped = sum(s in ("timeout", "unknown") for s in statuses), statuses.count("skip")
            notes = ([f"{cut} stopped by the time limit, counted at it"] if cut else []) + \
                ([f"{skipped} not modelled, not counted"] if skipped else [])
            note = f" ({'; '.join(notes)})" if notes else ""
            print(f"first solutions, {method}: total {totals.get(method, 0):.2f} s{note}")
        print(f"(reference: Norvig's notebook, brute force, {NOTEBOOK_REFERENCE_SECONDS} s for its 67 formulas)")


def plot(puzzles: list[Puzzle], methods: list[str], path: Path, title: str) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    style = {"smtcrypt": ("o", "tab:blue"), "bruteforce": ("s", "tab:orange"), "cpsat": ("^", "tab:green")}
    fig, ax = plt.subplots(figsize=(max(8, 0.22 * len(puzzles) + 2), 6))
    for method in methods:
        marker, colour = style[method]
        done = [(i, p.results[method].seconds * 1000) for i, p in enumerate(puzzles)
                if method in p.results and p.results[method].finished]
        cut = [(i, p.results[method].seconds * 1000) for i, p in enumerate(puzzles)
               if method in p.results and p.results[method].status in ("timeout", "unknown")]
        if done:
            ax.scatter(*zip(*done), marker=marker, color=colour, label=method, s=22)
        if cut:
            ax.scatter(*zip(*cut), marker=marker, facecolors="none", edgecolors=colour, s=44,
                       label=f"{method} (time limit)")
    ax.set_yscale("log")
    ax.set_ylabel("time, ms (log)")
    ax.set_xticks(range(len(puzzles)))
    ax.set_xticklabels([clip(p.formula, 30) + (" *" if p.mode == "first" else "") for p in puzzles],
                       rotation=90, fontsize=6)
    ax.grid(True, which="both", axis="y", alpha=0.3)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


# ----------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--only", metavar="TAG", help="only puzzles with this tag (TAG1,TAG2: any of them; "
                                                       "TAG1+TAG2: both, e.g. sum+10letters)")
    parser.add_argument("--formula", action="append", metavar="F",
                        help="benchmark this formula instead of the corpus (repeatable)")
    parser.add_argument("--methods", default=",".join(METHODS), help="comma-separated, of: " + ", ".join(METHODS))
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle for smtcrypt and cpsat")
    parser.add_argument("--bruteforce-timeout", type=float, default=30.0, help="seconds per puzzle, brute force")
    parser.add_argument("--first", action="store_true",
                        help="time the first solution only (default set: --only notebook)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the JSON and the plot go")
    parser.add_argument("--no-save", action="store_true", help="print only; write no files")
    args = parser.parse_args(argv)

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        parser.error(f"unknown method(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(METHODS)}")
    if "cpsat" in methods and not have_ortools():
        print("note: ortools is not installed: the cpsat method is skipped", file=sys.stderr)
        methods.remove("cpsat")

    if args.formula:
        puzzles = [Puzzle(f, ["cli"]) for f in args.formula]
    else:
        puzzles = load_corpus(args.corpus)
        only = args.only or ("notebook" if args.first else None)
        if only:
            wanted = [set(t.strip() for t in group.split("+")) for group in only.split(",")]
            puzzles = [p for p in puzzles if any(group <= set(p.tags) for group in wanted)]
    if not puzzles:
        parser.error("no puzzle selected")
    for puzzle in puzzles:
        if args.first or "first" in puzzle.tags:
            puzzle.mode = "first"
        try:
            puzzle.letters = len(letters(parse(puzzle.formula)))
        except Exception:
            puzzle.letters = None

    info = machine_info()
    print(f"smtcrypt benchmark: {len(puzzles)} puzzles, methods {', '.join(methods)}, "
          f"{'first solution' if args.first else 'all solutions'}; timeouts {args.timeout:g} s "
          f"(bruteforce {args.bruteforce_timeout:g} s)")
    print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items() if v is not None))
    started = time.perf_counter()
    run_smtcrypt(WARM_UP, "all", args.timeout)  # warm-up: imports, the parser, Z3
    if "cpsat" in methods:
        run_cpsat(WARM_UP, "all", args.timeout)
    if "bruteforce" in methods:
        run_bruteforce("TO + GO = OUT", "all", args.bruteforce_timeout)
    print(f"warm-up {time.perf_counter() - started:.2f} s;  L = letters, * = first solution only, "
          "T/O(n) = time limit after n solutions, - = not modelled")
    print(header(methods))

    for index, puzzle in enumerate(puzzles, 1):
        for method in methods:
            budget = args.bruteforce_timeout if method == "bruteforce" else args.timeout
            puzzle.results[method] = RUNNERS[method](puzzle.formula, puzzle.mode, budget)
        puzzle.disagreement = check_agreement(puzzle)
        print_row(index, puzzle, methods)

    summary = summarise(puzzles, methods, args.first)
    print_summary(summary, methods, puzzles, args.first, args)
    disagreements = [p for p in puzzles if p.disagreement]
    errors = [(p, m, r) for p in puzzles for m, r in p.results.items() if r.status == "error"]
    if disagreements:
        print("\n" + "!" * 78)
        print(f"DISAGREE: {len(disagreements)} puzzle(s) where the methods that finished differ:")
        for p in disagreements:
            print(f"  {p.formula!r}: {p.disagreement}")
        print("!" * 78)
    else:
        print("\nagreement: every method that finished found the same number of solutions on every puzzle")
    if errors:
        print(f"ERRORS: {len(errors)}")
        for p, m, r in errors:
            print(f"  {m} on {p.formula!r}: {r.note}")

    if not args.no_save:
        args.out.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        record = {
            "timestamp": stamp, "mode": "first" if args.first else "all", "methods": methods,
            "timeout": args.timeout, "bruteforce_timeout": args.bruteforce_timeout,
            "only": args.only, "machine": info, "wall_seconds": time.perf_counter() - started,
            "summary": summary,
            "disagreements": [{"formula": p.formula, "what": p.disagreement} for p in disagreements],
            "puzzles": [{"formula": p.formula, "tags": p.tags, "mode": p.mode, "letters": p.letters,
                         "results": {m: asdict(r) for m, r in p.results.items()}} for p in puzzles],
        }
        text = json.dumps(record, indent=1)
        (args.out / f"results-{stamp}.json").write_text(text, encoding="utf-8")
        (args.out / "latest.json").write_text(text, encoding="utf-8")
        title = f"smtcrypt benchmark {stamp} ({record['mode']} solutions), {info.get('cpu', info['machine'])}"
        if plot(puzzles, methods, args.out / f"results-{stamp}.png", title):
            (args.out / "latest.png").write_bytes((args.out / f"results-{stamp}.png").read_bytes())
            print(f"wrote {args.out}/results-{stamp}.json, latest.json and results-{stamp}.png")
        else:
            print(f"wrote {args.out}/results-{stamp}.json and latest.json (no plot: matplotlib missing)")
    return 1 if disagreements or errors else 0


if __name__ == "__main__":
    sys.exit(main())
