"""An independent brute-force reference for smtcrypt's tests.

It shares only the parser and the tree's node classes with smtcrypt: the evaluator below is
written from the README's semantics, not from `smtcrypt.verify`, and it never touches the
encoders or Z3 (nor `eval`/`exec`). Each formula is compiled once into Python closures over a
tuple of digits (words, and sums of words and integers, become precomputed weighted sums), then
every digit assignment is tried.

Semantics (README, "Rules and exact semantics"):
- arithmetic is exact: ints and `Fraction`s; `/` is rational division; `//` and `%` floor as in Python;
- `x ** k` for an integer k is exact, also for k < 0 (0 ** negative is undefined);
- `x ** (p/q)` for a non-integer exponent is the exact non-negative q-th root raised to p: undefined
  when the root is irrational or x is negative;
- `and`/`or` return operand values and short-circuit, `not` gives 1 or 0, comparison chains
  short-circuit, `in`/`not in` look in a literal (all of whose items are evaluated) or a range;
- abs, min, max, gcd, sum(range(n)) and sum(range(a, b));
- factorial(n) and n! (n >= 0; undefined below), of integers only;
- the number-theory words, of integers only (a fraction is undefined): is_prime, is_square, is_cube,
  is_power(x, k) (x = r**k, r >= 0), is_triangular, is_palindrome (the digits of |x| read the same
  both ways), divides(d, x) (x = k*d: 0 divides only 0), dsum (the digits of |x| added), rev (the
  digits of |x| reversed, x's sign kept), digits in the puzzle's base;
- words and repeating decimals in the base given (`--base`); plain numbers stay decimal;
- the digit rules: distinct letters, no 0 at the head of a word of two or more letters (a literal digit
  there is no letter), `--digits`, `--domain`, `--assign`; `--distinct` groups (only letters of one
  group differ); each `?` in a word a digit of its own (named here `?` and its offset in the formula,
  read from the formula's text, not from the parser's names for them), in no group, held to the
  no-leading-zero rule and to `--digits`; integer unknowns (lowercase names) are
  enumerated between bounds the caller gives, which the formula itself must impose;
- a candidate whose evaluation is undefined is not a solution.
"""

from __future__ import annotations

import itertools
import math
import operator
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from smtcrypt.core.parse import parse
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Name, Not, Number, Repeating, Unary, Word


def marked(text: str) -> list[tuple[int, str]]:
    """`text` cut into its letters, each with where it starts: a combining mark (category M) is one letter with
    the character before it (`न्`, `R̆`), as the formula language reads a symbol."""
    cut: list[tuple[int, str]] = []
    for offset, ch in enumerate(str(text)):  # str: a word the parser read is iterated by its symbols
        if cut and unicodedata.category(ch).startswith("M"):
            cut[-1] = (cut[-1][0], cut[-1][1] + ch)
        else:
            cut.append((offset, ch))
    return cut


Digits = tuple[int, ...]  # one value per letter, in the order of `Compiled.letters`
Value = int | Fraction
Evaluator = Callable[[Digits], Value]
IntEvaluator = Callable[[Digits], int]
Membership = Callable[[Value, Digits], bool]
Distinct = bool | Iterable[str]  # all letters differ, none do, or only within each group of letters
Solution = tuple[tuple[str, int], ...]  # sorted (letter, digit) pairs


class Undefined(Exception):
    """The candidate makes the formula undefined (zero divisor, irrational root, ...)."""


def _norm(value: Value) -> Value:
    """Integral fractions become ints, so that ints stay the common, fast case."""
    if type(value) is Fraction and value.denominator == 1:
        return value.numerator
    return value


def _exact_root(n: int, q: int) -> int | None:
    """The integer r >= 0 with r**q == n (n >= 0), or None."""
    if n < 2:
        return n
    r = int(round(n ** (1.0 / q))) if n.bit_length() < 1000 else 1 << (n.bit_length() // q)
    # correct the float guess by a few steps either way, then binary search if it was far off
    for candidate in range(max(0, r - 2), r + 3):
        if candidate ** q == n:
            return candidate
    low, high = 0, 1 << (n.bit_length() // q + 1)
    while low <= high:
        middle = (low + high) // 2
        power = middle ** q
        if power == n:
            return middle
        if power < n:
            low = middle + 1
        else:
            high = middle - 1
    return None


def power(base: Value, exponent: Value) -> Value:
    """base ** exponent with the README's exact semantics."""
    exponent = _norm(exponent)
    if type(exponent) is int:
        if exponent >= 0:
            return base ** exponent
        if base == 0:
            raise Undefined("0 to a negative power")
        return _norm(Fraction(base) ** exponent)
    p, q = exponent.numerator, exponent.denominator
    if base < 0:
        raise Undefined("root of a negative number")
    base = Fraction(base)
    top, bottom = _exact_root(base.numerator, q), _exact_root(base.denominator, q)
    if top is None or bottom is None:
        raise Undefined("irrational root")
    return power(Fraction(top, bottom), p)


def _divide(a: Value, b: Value) -> Value:
    if b == 0:
        raise Undefined("division by zero")
    return _norm(Fraction(a) / b)


def _floordiv(a: Value, b: Value) -> Value:
    if b == 0:
        raise Undefined("integer division by zero")
    return a // b  # int // int and Fraction // Fraction both floor to an int


def _mod(a: Value, b: Value) -> Value:
    if b == 0:
        raise Undefined("modulo by zero")
    return _norm(a % b)


# + - * of two ints is an int: only a Fraction needs `_norm` (checked in the compiled closure)
RING = {"+": operator.add, "-": operator.sub, "*": operator.mul}

ARITHMETIC = {
    "/": _divide,
    "//": _floordiv,
    "%": _mod,
    "**": power,
}

COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _integer(value: Value) -> int:
    value = _norm(value)
    if type(value) is not int:
        raise Undefined("range() of a non-integer")
    return value


# --- the number-theory words, from their definitions (docs/formula-language.md), on integers -----------

def digit_list(n: int, base: int) -> list[int]:
    """The digits of |n| in `base`, the leading one first (0 is [0])."""
    n = abs(n)
    digits = [n % base]
    while n >= base:
        n //= base
        digits.insert(0, n % base)
    return digits


def from_digits(digits: list[int], base: int) -> int:
    value = 0
    for digit in digits:
        value = value * base + digit
    return value


def prime(n: int) -> bool:
    """No divisor from 2 to the square root."""
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def kth_power(n: int, k: int) -> bool:
    """n = r**k for some whole r >= 0."""
    return n >= 0 and _exact_root(n, k) is not None


def triangular(n: int) -> bool:
    """n = 0 + 1 + ... + t for some t >= 0."""
    t = total = 0
    while total < n:
        t += 1
        total += t
    return total == n


def reversed_number(n: int, base: int) -> int:
    value = from_digits(digit_list(n, base)[::-1], base)
    return -value if n < 0 else value


WORDS: dict[str, Callable[..., int | bool]] = {
    "is_prime": lambda base, n: prime(n),
    "is_square": lambda base, n: kth_power(n, 2),
    "is_cube": lambda base, n: kth_power(n, 3),
    "is_power": lambda base, n, k: kth_power(n, k),
    "is_triangular": lambda base, n: triangular(n),
    "dsum": lambda base, n: sum(digit_list(n, base)),
    "rev": lambda base, n: reversed_number(n, base),
    "is_palindrome": lambda base, n: digit_list(n, base) == digit_list(n, base)[::-1],
    "divides": lambda base, d, x: x == 0 if d == 0 else x % d == 0,
    "factorial": lambda base, n: factorial(n),
}


def factorial(n: int) -> int:
    """n! = 1 * 2 * ... * n, by the product itself; undefined below 0."""
    if n < 0:
        raise Undefined("factorial of a negative number")
    product = 1
    for k in range(2, n + 1):
        product *= k
    return product


class Compiled:
    """A formula compiled to closures over a tuple of digits (and, optionally, integer unknowns)."""

    def __init__(self, formula: str, base: int = 10):
        self.tree = parse(formula)
        self.base = base
        self.letters: tuple[str, ...] = ()
        self.names: tuple[str, ...] = ()
        self.leading: set[str] = set()
        seen: dict[str, None] = {}
        names: dict[str, None] = {}
        for constraint in self.tree.constraints:
            self._collect(constraint, seen, names)
        self.letters = tuple(seen)
        self.names = tuple(names)
        self.index = {letter: i for i, letter in enumerate(self.letters + self.names)}
        self.constraints = [self._compile(constraint) for constraint in self.tree.constraints]

    # --- letters --------------------------------------------------------------------------------

    def cells(self, node: Word) -> list[str]:
        """A word's cells as written: letters, literal digits, and each `?` named by where it stands; a
        combining mark (category M) is one cell with the letter before it (`न्`, `R̆`)."""
        text = self.tree.source[node.span.start:node.span.end]
        return [f"?{node.span.start + offset}" if cell == "?" else cell for offset, cell in marked(text)]

    @property
    def wildcards(self) -> tuple[str, ...]:
        return tuple(letter for letter in self.letters if letter.startswith("?"))

    def _collect(self, node: Expr, seen: dict, names: dict) -> None:
        if isinstance(node, Word):
            cells = self.cells(node)
            for ch in cells:
                if not ch.isdigit():
                    seen.setdefault(ch)
            if len(cells) > 1 and not cells[0].isdigit():
                self.leading.add(cells[0])
            return
        if isinstance(node, Repeating):
            for _, ch in marked(node.whole + node.fixed + node.period):
                if not ch.isdigit():
                    seen.setdefault(ch)
            return
        if isinstance(node, Name):
            names.setdefault(node.name)
            return
        if isinstance(node, Number):
            return
        if isinstance(node, (Unary, Not)):
            self._collect(node.operand, seen, names)
        elif isinstance(node, BinOp):
            self._collect(node.left, seen, names)
            self._collect(node.right, seen, names)
        elif isinstance(node, (Compare, BoolOp)):
            for operand in node.operands:
                self._collect(operand, seen, names)
        elif isinstance(node, Call):
            for arg in node.args:
                self._collect(arg, seen, names)
        elif isinstance(node, Collection):
            for item in node.items:
                self._collect(item, seen, names)
        else:
            raise TypeError(f"unknown node {node!r}")

    # --- compiling --------------------------------------------------------------------------------

    def _weights(self, digits: Sequence[str]) -> tuple[list[tuple[int, int]], int]:
        """A numeral as (letter index, weight) pairs and a literal constant."""
        weights: dict[int, int] = {}
        literal = 0
        for position, ch in enumerate(reversed(digits)):
            scale = self.base ** position
            if ch.isdigit():
                literal += int(ch) * scale
            else:
                i = self.index[ch]
                weights[i] = weights.get(i, 0) + scale
        return sorted(weights.items()), literal

    def _linear(self, node: Expr) -> tuple[dict[int, int], int] | None:
        """`node` as integer weights on the letters and unknowns (by index) and an integer constant,
        if it is words, names and integers added, subtracted, negated and multiplied by an integer;
        otherwise None. Such a term is computed as one weighted sum."""
        if isinstance(node, Word):
            pairs, literal = self._weights(self.cells(node))
            return dict(pairs), literal
        if isinstance(node, Name):
            return {self.index[node.name]: 1}, 0
        if isinstance(node, Number):
            value = _norm(Fraction(node.value))
            return ({}, value) if type(value) is int else None
        if isinstance(node, Unary):
            inner = self._linear(node.operand)
            if inner is None or node.op != "-":  # `+x` is x
                return inner
            return {i: -w for i, w in inner[0].items()}, -inner[1]
        if not isinstance(node, BinOp) or node.op not in RING:
            return None
        left, right = self._linear(node.left), self._linear(node.right)
        if left is None or right is None:
            return None
        if node.op == "*":
            if left[0] and right[0]:
                return None  # a product of two terms of letters
            (weights, constant), scale = (right, left[1]) if not left[0] else (left, right[1])
            return {i: scale * w for i, w in weights.items()}, scale * constant
        sign = 1 if node.op == "+" else -1
        weights = dict(left[0])
        for i, w in right[0].items():
            weights[i] = weights.get(i, 0) + sign * w
        return weights, left[1] + sign * right[1]

    def _compile(self, node: Expr) -> Evaluator:
        linear = self._linear(node) if isinstance(node, (Word, Name, Unary, BinOp)) else None
        if linear is not None:
            pairs, constant = [(i, w) for i, w in linear[0].items() if w], linear[1]
            if not pairs:
                return lambda d: constant
            if len(pairs) == 1:
                (i, w), = pairs
                return lambda d: w * d[i] + constant
            # the weighted sum in C: itemgetter picks the digits, map multiplies them by their weights
            indices, weights = zip(*pairs)
            pick = operator.itemgetter(*indices)
            return lambda d: sum(map(operator.mul, weights, pick(d))) + constant
        if isinstance(node, Repeating):
            head_pairs, head_literal = self._weights([cell for _, cell in marked(node.whole + node.fixed)])
            all_pairs, all_literal = self._weights([cell for _, cell in marked(node.whole + node.fixed + node.period)])
            scale = self.base ** len(marked(node.fixed)) * (self.base ** len(marked(node.period)) - 1)

            def repeating(d):
                head = sum(w * d[i] for i, w in head_pairs) + head_literal
                full = sum(w * d[i] for i, w in all_pairs) + all_literal
                return _norm(Fraction(full - head, scale))
            return repeating
        if isinstance(node, Name):
            i = self.index[node.name]
            return lambda d: d[i]
        if isinstance(node, Number):
            value = _norm(Fraction(node.value))
            return lambda d: value
        if isinstance(node, Unary):
            inner = self._compile(node.operand)
            return (lambda d: -inner(d)) if node.op == "-" else inner
        if isinstance(node, Not):
            inner = self._compile(node.operand)
            return lambda d: 1 if inner(d) == 0 else 0
        if isinstance(node, BinOp):
            left, right = self._compile(node.left), self._compile(node.right)
            if node.op in RING:
                ring = RING[node.op]

                def exact(d: Digits) -> Value:
                    value = ring(left(d), right(d))
                    return value if type(value) is int else _norm(value)
                return exact
            op = ARITHMETIC[node.op]
            return lambda d: op(left(d), right(d))
        if isinstance(node, BoolOp):
            parts = [self._compile(operand) for operand in node.operands]
            if node.op == "and":
                def conjunction(d):
                    for part in parts:
                        value = part(d)
                        if value == 0:
                            return value
                    return value
                return conjunction

            def disjunction(d):
                for part in parts:
                    value = part(d)
                    if value != 0:
                        return value
                return value
            return disjunction
        if isinstance(node, Compare):
            return self._compile_compare(node)
        if isinstance(node, Call):
            return self._compile_call(node)
        raise TypeError(f"cannot compile {node!r} here")

    def _compile_membership(self, container: Expr) -> Membership:
        if isinstance(container, Collection):
            items = [self._compile(item) for item in container.items]
            return lambda x, d: x in [item(d) for item in items]  # the whole literal is built first
        start, stop = self._range(container)

        def within(x: Value, d: Digits) -> bool:
            # only integers are in a range; Python would compare a fraction with every element
            x, bounds = _norm(x), range(start(d), stop(d))  # the bounds first: they may be undefined
            return type(x) is not Fraction and x in bounds
        return within

    def _range(self, call: Expr) -> tuple[IntEvaluator, IntEvaluator]:
        assert isinstance(call, Call) and call.name == "range", call
        args = [self._compile(arg) for arg in call.args]
        if len(args) == 1:
            (stop,) = args
            return (lambda d: 0), (lambda d: _integer(stop(d)))
        first, second = args
        return (lambda d: _integer(first(d))), (lambda d: _integer(second(d)))

    def _compile_compare(self, node: Compare) -> Evaluator:
        first = self._compile(node.operands[0])
        steps: list[tuple[str, Callable[..., Value]]] = []  # a membership test (value, digits) or an operand (digits)
        for op, operand in zip(node.ops, node.operands[1:]):
            if op in ("in", "not in"):
                steps.append((op, self._compile_membership(operand)))
            else:
                steps.append((op, self._compile(operand)))
        if len(steps) == 1 and steps[0][0] in COMPARE:  # one comparison, the most common constraint
            test, second = COMPARE[steps[0][0]], steps[0][1]
            return lambda d: 1 if test(first(d), second(d)) else 0

        def chain(d):
            left = first(d)
            for op, step in steps:
                if op == "in":
                    if not step(left, d):
                        return 0
                    continue
                if op == "not in":
                    if step(left, d):
                        return 0
                    continue
                right = step(d)  # evaluated only while the chain is still true
                if not COMPARE[op](left, right):
                    return 0
                left = right
            return 1
        return chain

    def _compile_call(self, node: Call) -> Evaluator:
        if node.name == "sum":
            start, stop = self._range(node.args[0])

            def total(d: Digits) -> int:
                a, b = start(d), stop(d)
                return sum(range(a, b)) if b - a < 1000 else max(0, b - a) * (a + b - 1) // 2
            return total
        args = [self._compile(arg) for arg in node.args]
        if node.name == "abs":
            (arg,) = args

            def magnitude(d: Digits) -> Value:
                value = arg(d)
                return abs(value) if type(value) is int else abs(Fraction(value))
            return magnitude
        if node.name in ("min", "max"):
            pick = min if node.name == "min" else max

            def extreme(d: Digits) -> Value:
                values: list[Value] = [arg(d) for arg in args]
                return pick(values)
            return extreme
        if node.name == "gcd":
            def gcd(d: Digits) -> int:
                values = [_norm(arg(d)) for arg in args]
                integers = [value for value in values if type(value) is int]
                if len(integers) != len(values):
                    raise Undefined("gcd of a non-integer")
                return math.gcd(*integers)
            return gcd
        if node.name in WORDS:
            word, base = WORDS[node.name], self.base

            def number_word(d: Digits) -> int:
                values = [_norm(arg(d)) for arg in args]
                if any(type(value) is not int for value in values):
                    raise Undefined(f"{node.name} of a non-integer")
                return int(word(base, *values))
            return number_word
        raise ValueError(f"unknown function {node.name}")

    # --- using it -----------------------------------------------------------------------------------

    def holds(self, values: Digits) -> bool:
        """True if every constraint is defined and true for these values (letters, then unknowns)."""
        try:
            for constraint in self.constraints:
                if constraint(values) == 0:
                    return False
        except Undefined:
            return False
        return True

    def pools(self, allow_leading_zeros: bool = False, digits: Iterable[int] | None = None,
              domains: Mapping[str, Iterable[int]] | None = None,
              assign: Mapping[str, int] | None = None) -> list[list[int]]:
        """Each letter's digits, from the README's rules: the digits of the base, then `--digits`
        (every letter), `--domain` (one letter), `--assign` (one digit), and no 0 at the head of a word."""
        domains, assign = domains or {}, assign or {}
        result = []
        for letter in self.letters:
            pool = set(range(self.base))
            if digits is not None:
                pool &= set(digits)
            if letter in domains and not letter.startswith("?"):
                pool &= set(domains[letter])
            if letter in assign:
                pool &= {assign[letter]}
            if letter in self.leading and not allow_leading_zeros:
                pool.discard(0)
            result.append(sorted(pool))
        return result

    def groups(self, distinct: Distinct) -> list[list[int]]:
        """The positions of the letters that must differ, group by group: all named letters (True),
        none (False), or each group of `--distinct` groups such as ["AB", "CD"]."""
        if isinstance(distinct, bool):
            named = [i for i, letter in enumerate(self.letters) if not letter.startswith("?")]
            return [named] if distinct else []
        return [[self.letters.index(letter) for _, letter in marked(group)] for group in distinct]

    def candidates(self, distinct: Distinct = True, allow_leading_zeros: bool = False,
                   digits: Iterable[int] | None = None, domains: Mapping[str, Iterable[int]] | None = None,
                   assign: Mapping[str, int] | None = None) -> Iterable[Digits]:
        if self.wildcards or not isinstance(distinct, bool):  # every tuple of the pools, each group checked
            groups = self.groups(distinct)
            pools = self.pools(allow_leading_zeros, digits, domains, assign)
            tuples: Iterable[Digits] = itertools.product(*pools)
            for group in groups:
                if len(group) > 1:  # a group of one letter differs within itself
                    tuples = filter(_all_differ(group), tuples)
            return tuples
        if domains or assign:  # letters with pools of their own
            pools = self.pools(allow_leading_zeros, digits, domains, assign)
            return _distinct_product(pools) if distinct else itertools.product(*pools)
        pool = list(range(self.base)) if digits is None else sorted(d for d in digits if 0 <= d < self.base)
        n = len(self.letters)
        every = itertools.permutations(pool, n) if distinct else itertools.product(pool, repeat=n)
        if allow_leading_zeros or not self.leading:
            return every
        for i, letter in enumerate(self.letters):
            if letter in self.leading:
                every = filter(operator.itemgetter(i), every)  # the digit at a word's head is not 0
        return every


def _all_differ(positions: list[int]) -> Callable[[Digits], bool]:
    """Whether a candidate's digits at (two or more) `positions` all differ."""
    pick = operator.itemgetter(*positions)
    return lambda c: len(set(pick(c))) == len(positions)


def _distinct_product(pools: list[list[int]]) -> Iterable[Digits]:
    """Every choice of one digit from each pool, no digit twice: the choices for all pools but the
    last are built pool by pool (a list), the last pool's digit added as each choice is taken."""
    if not pools:
        yield ()
        return
    chosen: list[Digits] = [()]
    for pool in pools[:-1]:
        chosen = [prefix + (digit,) for prefix in chosen for digit in pool if digit not in prefix]
    last = pools[-1]
    for prefix in chosen:
        for digit in last:
            if digit not in prefix:
                yield prefix + (digit,)


Bounds = Mapping[str, tuple[int, int]]  # integer unknown -> (lowest, highest) value the formula allows


def brute_force(formula: str, distinct: bool = True, allow_leading_zeros: bool = False,
                base: int = 10, digits: Iterable[int] | None = None,
                domains: Mapping[str, Iterable[int]] | None = None, assign: Mapping[str, int] | None = None,
                unknowns: Bounds | None = None) -> set[Solution]:
    """Every solution of `formula`, as sorted (name, value) tuples, by trying every assignment.

    Letters take the digits the rules allow (`digits`, `domains`, `assign` as the README's --digits,
    --domain and --assign; `assign`ed letters still count for distinctness). Integer unknowns (lowercase
    names) need `unknowns`: the bounds the formula's own constraints put on each, such as (0, 5) for
    `0 <= x <= 5`. One value beyond each bound is tried too, and a solution there is an error: the bounds
    given must really be what the formula allows, or the reference would miss solutions.
    """
    compiled = Compiled(formula, base)
    unknowns = dict(unknowns or {})
    if set(compiled.names) != set(unknowns):
        raise ValueError(f"brute force needs bounds for exactly the integer unknowns {sorted(compiled.names)}, "
                         f"not {sorted(unknowns)}")
    letters = compiled.letters
    ranges = [range(unknowns[name][0] - 1, unknowns[name][1] + 2) for name in compiled.names]
    found = set()
    candidates = compiled.candidates(distinct, allow_leading_zeros, digits, domains, assign)
    if not ranges:  # letters only: each candidate is the whole assignment
        holds = compiled.holds
        return {tuple(sorted(zip(letters, values))) for values in candidates if holds(values)}
    for values in candidates:
        for extra in itertools.product(*ranges):
            if compiled.holds(values + extra):
                for name, value in zip(compiled.names, extra):
                    low, high = unknowns[name]
                    if not low <= value <= high:
                        raise ValueError(f"{formula!r} has a solution with {name} = {value}, outside the bounds "
                                         f"{low}..{high} given for it: the search would not be exhaustive")
                found.add(tuple(sorted(zip(letters + compiled.names, values + extra))))
    return found


def count(formula: str, **rules: Any) -> int:
    return len(brute_force(formula, **rules))


def is_solution(formula: str, mapping: Mapping[str, int], distinct: bool = True,
                allow_leading_zeros: bool = False, base: int = 10, digits: Iterable[int] | None = None,
                domains: Mapping[str, Iterable[int]] | None = None, assign: Mapping[str, int] | None = None) -> bool:
    """True if `mapping` (letter -> digit, plus any integer unknowns) follows the rules and solves `formula`."""
    compiled = Compiled(formula, base)
    if set(mapping) != set(compiled.letters) | set(compiled.names):
        return False
    if any(type(value) is not int for value in mapping.values()):
        return False
    chosen = [mapping[letter] for letter in compiled.letters]
    if any(len({chosen[i] for i in group}) != len(group) for group in compiled.groups(distinct)):
        return False
    pools = compiled.pools(allow_leading_zeros, digits, domains, assign)
    if any(digit not in pool for digit, pool in zip(chosen, pools)):
        return False
    return compiled.holds(tuple(mapping[name] for name in compiled.letters + compiled.names))


def as_solution(mapping: Mapping[str, int]) -> Solution:
    return tuple(sorted(mapping.items()))
