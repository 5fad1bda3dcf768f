"""The formula compiled once into Python: one generated function that tries candidate digit tuples.

Where solutions are dense or the space is small, one solver check per model can never beat a
compiled candidate that costs well under a microsecond (`ABC % DE = F`: 2,357 solutions among
151,200 assignments). The formula becomes the body of one generated loop over the digit tuples
the rules allow, with the exact semantics of the re-check (core/verify.py) but none of its code:
Python ints, a `Fraction` only where `/`, a negative power or a root needs one, never a float; a
zero divisor or an irrational root makes the candidate fail (an `ArithmeticError`), not the
search. The exhaustive backend (exhaustive.py) runs it on every assignment; the join and linear
backends use it for a side of an equation, or for the rest of a formula.

Integer unknowns that the formula itself bounds (`1 <= x <= 3`, see analysis/unknowns.py) are
looped over as letters are, each over its values, after the letters' digits in a candidate tuple.

The generated code holds only names it makes itself (`v0`, `u0`, `_F`, ...) and integers it
computed: no text of the formula reaches `compile`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from smtcrypt.analysis.unknowns import Values, unknown_values
from smtcrypt.core.check import Problem, power_word_exponent
from smtcrypt.core.numerals import place_values, repeating_scale, root_floor
from smtcrypt.core.rules import NUMBER_WORDS, PRIME_LIMIT
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Name, Not, Number, Repeating, Unary, Word
from smtcrypt.engine.base import Assignment

Digits = tuple[int, ...]
Pair = tuple[str, str]  # code for a numerator and a denominator
Exact = int | Fraction  # a value in the generated code: an int until a division or a root makes a fraction


class NotCompilable(ValueError):
    """The problem cannot be searched exhaustively (integer unknowns the formula leaves unbounded),
    or its code is too deep."""


class Undefined(ArithmeticError):
    """The candidate makes the formula undefined: not an integer where one is needed, an irrational root."""


# --- the runtime helpers the generated code calls (exact arithmetic of its own) ---------------------

def _as_integer(value: Any) -> int:
    if value.denominator != 1:
        raise Undefined("not an integer")
    return value.numerator


def _gcd(*values: Any) -> int:
    try:
        return math.gcd(*values)  # ints (and bools), the common case
    except TypeError:  # a Fraction among them: only whole ones have a gcd
        return math.gcd(*(_as_integer(value) for value in values))


def _whole(value: Any) -> int:
    """An int from an int, a truth value or a whole Fraction; `Undefined` for any other fraction."""
    return int(value) if type(value) in (int, bool) else _as_integer(value)


SIEVE_SIZE = 1 << 20  # primality below this is looked up in a table made once, at the first is_prime
_sieve: bytearray | None = None
MILLER_RABIN_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # decide every n < 3.3 * 10**24


def _prime_table() -> bytearray:
    """table[n] is 1 exactly for the primes n < SIEVE_SIZE (Eratosthenes)."""
    global _sieve
    if _sieve is None:
        table = bytearray([1]) * SIEVE_SIZE
        table[0] = table[1] = 0
        for p in range(2, math.isqrt(SIEVE_SIZE - 1) + 1):
            if table[p]:
                table[p * p::p] = bytes(len(range(p * p, SIEVE_SIZE, p)))
        _sieve = table
    return _sieve


def _is_prime(value: Any) -> bool:
    n = _whole(value)
    if n < SIEVE_SIZE:
        return n >= 2 and bool(_prime_table()[n])
    if n >= PRIME_LIMIT:  # not decided: the candidate is left out, as the re-check does
        raise Undefined("is_prime() of a number of more than 24 digits")
    if n % 2 == 0:
        return False
    # strong probable prime to every base of MILLER_RABIN_BASES, which no composite below 3.3 * 10**24 is
    d = n - 1
    s = (d & -d).bit_length() - 1  # n - 1 = d * 2**s with d odd
    d >>= s
    for a in MILLER_RABIN_BASES:
        x = pow(a, d, n)
        if x == 1 or x == n - 1:
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _is_power(value: Any, k: int) -> bool:
    """value = r**k for a whole r >= 0."""
    n = _whole(value)
    return n >= 0 and exact_root(n, k) is not None


def _is_triangular(value: Any) -> bool:
    """value = t(t + 1)/2 for a whole t >= 0: 8 * value + 1 is then (2t + 1)**2."""
    n = _whole(value)
    return n >= 0 and exact_root(8 * n + 1, 2) is not None


def _dsum(value: Any, base: int) -> int:
    n, total = abs(_whole(value)), 0
    while n:
        n, digit = divmod(n, base)
        total += digit
    return total


def _rev(value: Any, base: int) -> int:
    n = _whole(value)
    rest, reversed_value = abs(n), 0
    while rest:
        rest, digit = divmod(rest, base)
        reversed_value = reversed_value * base + digit
    return reversed_value if n >= 0 else -reversed_value


def _is_palindrome(value: Any, base: int) -> bool:
    return _rev(value, base) == _whole(value)


def _divides(divisor: Any, multiple: Any) -> bool:
    d, x = _whole(divisor), _whole(multiple)
    return x == 0 if d == 0 else x % d == 0


def _bounds(args: tuple[Any, ...]) -> tuple[int, int]:
    bounds = [_as_integer(arg) for arg in args]
    return (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])


def _in_range(item: Any, *args: Any) -> bool:
    start, stop = _bounds(args)
    return item.denominator == 1 and start <= item < stop


def _sum_range(*args: Any) -> int:
    start, stop = _bounds(args)
    return max(0, stop - start) * (start + stop - 1) // 2


def exact_root(n: int, q: int) -> int | None:
    """The q-th root of n >= 0 if it is a whole number, else None."""
    root = math.isqrt(n) if q == 2 else root_floor(n, q)
    return root if root ** q == n else None


def _power(base: Exact, exponent: Exact) -> Exact:
    """base ** exponent, exactly: int ** non-negative int stays an int; an exponent p/q takes the
    non-negative q-th root, which must be rational."""
    if type(base) is int and type(exponent) is int and exponent >= 0:
        return base ** exponent
    value = Fraction(base)  # an int to a negative power would be a float
    p, q = exponent.numerator, exponent.denominator
    if q != 1:
        if value < 0:
            raise Undefined("root of a negative number")
        top, bottom = exact_root(value.numerator, q), exact_root(value.denominator, q)
        if top is None or bottom is None:
            raise Undefined("irrational root")
        value = Fraction(top, bottom)
    if p < 0 and value == 0:
        raise ZeroDivisionError("zero to a negative power")
    return value ** p


def _root_power(base: Exact, p: int, q: int) -> Exact:
    """base ** (p/q) for a constant exponent, exactly: the non-negative q-th root, if rational, to the p."""
    if type(base) is not int or base < 0:
        return _power(base, Fraction(p, q))
    root = exact_root(base, q)
    if root is None:
        raise Undefined("irrational root")
    if p >= 0:
        return root ** p
    if root == 0:
        raise ZeroDivisionError("zero to a negative power")
    return Fraction(1, root ** -p)


def _nz(divisor: int) -> int:
    """The divisor, unless it is zero."""
    if divisor == 0:
        raise ZeroDivisionError("division by zero")
    return divisor


def _nonzero(*divisors: int) -> None:
    for divisor in divisors:
        if divisor == 0:
            raise ZeroDivisionError("division by zero")


# a/b OP c/d over integers, without making Fractions (which cost far more per candidate):
# equalities cross-multiplied, orderings multiplied through by (b*d)**2 > 0.
def _q_eq(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * d == c * b


def _q_ne(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * d != c * b


def _q_lt(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * b * d * d < c * d * b * b


def _q_le(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * b * d * d <= c * d * b * b


QUOTIENT_COMPARISONS = {"==": "_q_eq", "!=": "_q_ne", "<": "_q_lt", "<=": "_q_le", ">": "_q_lt", ">=": "_q_le"}

MAX_PAIR_CODE = 2000  # characters: a longer (numerator, denominator) pair is left to Fraction
# every name the generated code may call: its only globals (no builtins)
HELPERS: dict[str, Any] = {"_nz": _nz, "_q_eq": _q_eq, "_q_ne": _q_ne, "_q_lt": _q_lt, "_q_le": _q_le,
                           "_F": Fraction, "_pow": _power, "_root": _root_power, "_gcd": _gcd,
                           "_in_range": _in_range, "_sum_range": _sum_range, "abs": abs, "min": min, "max": max,
                           "_len": len, "ArithmeticError": ArithmeticError,
                           "_is_prime": _is_prime, "_is_power": _is_power, "_is_triangular": _is_triangular,
                           "_dsum": _dsum, "_rev": _rev, "_is_palindrome": _is_palindrome, "_divides": _divides}
PRECEDENCE = {"+": 1, "-": 1, "*": 2}  # operators written without brackets inside a chain of their own kind


@dataclass
class Compiled:
    """The problem as one generated function: `scan(candidates)` is the list of those that solve it."""

    problem: Problem
    free: tuple[str, ...]  # the letters the loop assigns, in the order of a candidate tuple
    fixed: dict[str, int]  # letters the rules fix to one digit
    source: str  # the generated code, for tests and the curious
    scan: Callable[[Iterable[Digits]], list[Digits]]
    constants: tuple[Any, ...] = field(default=())
    # each bounded unknown's values, after the letters in a candidate
    unknowns: dict[str, Values] = field(default_factory=dict)

    def assignment(self, digits: Digits) -> Assignment:
        """The letters' digits (and the unknowns' values), alphabetically."""
        values = dict(zip((*self.free, *self.unknowns), digits))
        if self.fixed or self.unknowns:
            values.update(self.fixed)
            return {name: values[name] for name in sorted(values)}
        return values


def _times(x: str, y: str) -> str:
    return y if x == "1" else x if y == "1" else f"({x}*{y})"


def _raised(x: str, k: int) -> str:
    return x if k == 1 or x == "1" else f"({x}**{k})"


class Writer:
    """Python source for each node, the helpers and constants it needs."""

    def __init__(self, problem: Problem, names: dict[str, str]):
        self.problem = problem
        self.base = problem.rules.base
        self.names = names  # letter -> "v3" or a digit
        self.constants: list[Any] = []
        self.temporaries = itertools.count()
        self.may_fail = False  # some node can raise ArithmeticError: the loop needs a try

    def constant(self, value: Any) -> str:
        if isinstance(value, int):
            return f"({int(value)})"
        self.constants.append(value)
        return f"_K[{len(self.constants) - 1}]"

    def digits(self, letters: str) -> str:
        """A word's value as a sum of place values: 'ODD' -> (v0*100+v1*10+v1)."""
        weights, fixed = place_values(letters, self.base)
        terms = []
        for letter, weight in weights.items():
            name = self.names[letter]
            if name.isdigit():
                fixed += int(name) * weight
            else:
                terms.append(name if weight == 1 else f"{name}*{weight}")
        if fixed or not terms:
            terms.append(str(fixed))
        return "(" + "+".join(terms) + ")"

    def write(self, node: Expr) -> str:
        if isinstance(node, Word):
            return self.digits(node.letters)
        if isinstance(node, Repeating):
            head = self.digits(node.whole + node.fixed)
            head_and_period = self.digits(node.whole + node.fixed + node.period)
            denominator = repeating_scale(node.fixed, node.period, self.base)
            return f"_F({head_and_period}-{head}, {denominator})"
        if isinstance(node, Number):
            value = node.value
            return self.constant(value.numerator if value.denominator == 1 else value)
        if isinstance(node, Name):
            return self.names[node.name]  # "u0": the unknown's own loop variable
        if isinstance(node, Unary):
            return f"({node.op}{self.write(node.operand)})"
        if isinstance(node, BinOp):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.comparison(node)
        if isinstance(node, BoolOp):
            return "(" + f" {node.op} ".join(self.write(operand) for operand in node.operands) + ")"
        if isinstance(node, Not):
            return f"(not {self.write(node.operand)})"
        if isinstance(node, Call):
            return self.call(node)
        raise NotCompilable(f"cannot compile {type(node).__name__} on its own")

    def binary(self, node: BinOp) -> str:
        if node.op in PRECEDENCE:
            return self.chain(node)
        left, right = self.write(node.left), self.write(node.right)
        if node.op == "/":
            self.may_fail = True
            return f"_F({left}, {right})"
        if node.op in ("//", "%"):
            self.may_fail = True
            return f"({left} {node.op} {right})"
        exponent = self.problem.constant_exponents.get(node)
        if exponent is not None and exponent.denominator == 1 and exponent >= 0:
            return f"({left} ** {int(exponent)})"
        self.may_fail = True
        if exponent is not None and exponent.denominator != 1:
            return f"_root({left}, {exponent.numerator}, {exponent.denominator})"
        return f"_pow({left}, {right if exponent is None else self.constant(exponent)})"

    def chain(self, node: BinOp) -> str:
        """A + B + C + ... unbracketed: Python's parser refuses deeply nested brackets."""
        parts = [self.write(node.right)]
        ops = [node.op]
        operand = node.left
        while isinstance(operand, BinOp) and PRECEDENCE.get(operand.op) == PRECEDENCE[node.op]:
            parts.append(self.write(operand.right))
            ops.append(operand.op)
            operand = operand.left
        text = self.write(operand)
        for op, part in zip(reversed(ops), reversed(parts)):
            text += f" {op} {part}"
        return f"({text})"

    def integral(self, node: Expr) -> bool:
        """True for an integer-valued expression that cannot fail: words, integers, + - * of them."""
        if isinstance(node, (Word, Name)):
            return True
        if isinstance(node, Number):
            return node.value.denominator == 1
        if isinstance(node, Unary):
            return self.integral(node.operand)
        return (isinstance(node, BinOp) and node.op in PRECEDENCE
                and self.integral(node.left) and self.integral(node.right))

    def quotient(self, node: Expr) -> Pair | None:
        """(numerator, denominator) code for a rational expression (words, numbers, repeating
        decimals, + - * /, non-negative integer powers), else None. The denominator is zero exactly
        where Python's evaluation divides by zero: a product of the divisors met, each nonzero
        otherwise (the divisor's own denominator, which is not a factor, is checked by `_nz`).
        Integers throughout: no Fraction made per candidate, which costs far more."""
        pair = self._pair(node)
        if pair is None or len(pair[0]) + len(pair[1]) > MAX_PAIR_CODE:
            return None
        return pair

    def _pair(self, node: Expr) -> Pair | None:
        if self.integral(node):
            return self.write(node), "1"
        if isinstance(node, Number):
            return f"({node.value.numerator})", f"({node.value.denominator})"
        if isinstance(node, Repeating):
            head = self.digits(node.whole + node.fixed)
            head_and_period = self.digits(node.whole + node.fixed + node.period)
            return f"({head_and_period}-{head})", f"({repeating_scale(node.fixed, node.period, self.base)})"
        if isinstance(node, Unary) and node.op in ("-", "+"):
            inner = self._pair(node.operand)
            return None if inner is None else (f"({node.op}{inner[0]})", inner[1])
        if not isinstance(node, BinOp):
            return None
        if node.op == "**":
            return self._power_pair(node)
        if node.op not in ("+", "-", "*", "/"):
            return None
        left, right = self._pair(node.left), self._pair(node.right)
        if left is None or right is None:
            return None
        (a, b), (c, d) = left, right
        if node.op == "*":
            return _times(a, c), _times(b, d)
        if node.op == "/":
            return _times(a, d if d == "1" else f"_nz({d})"), _times(b, c)
        return f"({_times(a, d)} {node.op} {_times(c, b)})", _times(b, d)

    def _power_pair(self, node: BinOp) -> Pair | None:
        """(a/b) ** k for a constant integer k."""
        exponent = self.problem.constant_exponents.get(node)
        if exponent is None or exponent.denominator != 1:
            return None
        inner = self._pair(node.left)
        if inner is None:
            return None
        k, (a, b) = int(exponent), inner
        if k < 0:  # (a/b)**-k = b**k / a**k: zero exactly where a is, and b checked
            return _raised(b if b == "1" else f"_nz({b})", -k), _raised(a, -k)
        return _raised(a, k), _raised(b, k) if k else f"(1 if {b} else 0)"

    def comparison(self, node: Compare) -> str:
        """A chain, evaluated as Python does: each operand once, left to right, stopping at the first
        false link; temporaries carry an operand from one link to the next."""
        quotients = self.quotient_comparison(node)
        if quotients is not None:
            return quotients
        text: list[str] = []
        left = self.write(node.operands[0])
        last = len(node.ops) - 1
        for index, (op, operand) in enumerate(zip(node.ops, node.operands[1:])):
            if op in ("in", "not in"):
                text.append(self.membership(left, op, operand))
                continue  # `in` ends a chain (checked)
            right = self.write(operand)
            if index < last:
                name = f"_t{next(self.temporaries)}"
                text.append(f"({left} {op} ({name} := {right}))")
                left = name
            else:
                text.append(f"({left} {op} {right})")
        return "(" + " and ".join(text) + ")"

    def quotient_comparison(self, node: Compare) -> str | None:
        """One comparison of two rational expressions as integers (see `quotient`), or None."""
        if len(node.ops) != 1 or node.ops[0] not in QUOTIENT_COMPARISONS or all(
                self.integral(operand) for operand in node.operands):
            return None
        left, right = self.quotient(node.operands[0]), self.quotient(node.operands[1])
        if left is None or right is None:
            return None
        self.may_fail = True
        op = node.ops[0]
        if op in (">", ">="):
            left, right = right, left
        return f"{QUOTIENT_COMPARISONS[op]}({left[0]}, {left[1]}, {right[0]}, {right[1]})"

    def membership(self, item: str, op: str, container: Expr) -> str:
        """`item in {...}` or `item in range(...)` (integers only, whatever the bounds' type)."""
        if isinstance(container, Collection):
            items = "".join(self.write(element) + ", " for element in container.items)
            return f"({item} {op} ({items}))"
        self.may_fail = True
        args = ", ".join(self.write(arg) for arg in call_args(container))
        return f"({'not ' if op == 'not in' else ''}_in_range({item}, {args}))"

    def call(self, node: Call) -> str:
        if node.name == "sum":
            self.may_fail = True
            args = ", ".join(self.write(arg) for arg in call_args(node.args[0]))
            return f"_sum_range({args})"
        args = ", ".join(self.write(arg) for arg in node.args)
        if node.name == "gcd":
            self.may_fail = True
            return f"_gcd({args})"
        if node.name in NUMBER_WORDS:  # of integers only: a fraction fails the candidate
            self.may_fail = True
            return self.number_word(node, args)
        return f"{node.name}({args})"

    def number_word(self, node: Call, args: str) -> str:
        if node.name in ("is_square", "is_cube"):
            return f"_is_power({args}, {2 if node.name == 'is_square' else 3})"
        if node.name == "is_power":
            return f"_is_power({self.write(node.args[0])}, {power_word_exponent(node)})"
        if node.name in ("dsum", "rev", "is_palindrome"):
            return f"_{node.name}({args}, {self.base})"
        return f"_{node.name}({args})"


def call_args(node: Expr) -> tuple[Expr, ...]:
    """The arguments of `range(...)`, which the checker allows only where a call is."""
    if not isinstance(node, Call):
        raise NotCompilable(f"cannot compile {type(node).__name__} where range(...) belongs")
    return node.args


def define_scan(source: str, constants: list[Any], helpers: dict[str, Any] | None = None,
                filename: str = "<smtcrypt formula>") -> Callable[..., Any]:
    """The function `_scan` that `source` defines, run with only the helpers and the constants `_K`
    as its globals (no builtins); `NotCompilable` if Python cannot compile code that deep."""
    namespace: dict[str, Any] = dict(HELPERS, **(helpers or {}), _K=tuple(constants), __builtins__={})
    try:
        exec(compile(source, filename, "exec"), namespace)
    except (SyntaxError, RecursionError, MemoryError) as error:  # too deep for Python's own parser
        raise NotCompilable(f"the formula is too deeply nested to compile ({type(error).__name__})") from None
    return namespace["_scan"]


def compile_problem(problem: Problem) -> Compiled:
    """The problem's constraints as one loop over candidate digit tuples (each unknown's value after
    the digits); `NotCompilable` if it has integer unknowns the formula leaves unbounded, or Python
    cannot compile code that deep."""
    bounded: dict[str, Values] = {}
    if problem.unknowns:
        found = unknown_values(problem)
        if found is None:
            raise NotCompilable("integer unknowns that the formula does not bound (such as 0 <= x <= 9) "
                                "have no finite set of values to try")
        bounded = {name: found[name] for name in sorted(found)}
    fixed = {letter: next(iter(problem.allowed[letter])) for letter in problem.letters
             if len(problem.allowed[letter]) == 1}
    # assignments come out alphabetical
    free = tuple(sorted(letter for letter in problem.letters if letter not in fixed))
    names = {letter: f"v{index}" for index, letter in enumerate(free)}
    names.update({letter: str(digit) for letter, digit in fixed.items()})
    names.update({name: f"u{index}" for index, name in enumerate(bounded)})
    writer = Writer(problem, names)
    body = " and ".join(f"{writer.write(constraint)}" for constraint in problem.formula.constraints)
    conditions = filters(problem, free, fixed, writer)
    target = "(" + "".join(f"v{index}, " for index in range(len(free))) + "".join(
        f"u{index}, " for index in range(len(bounded))) + ")"
    lines = ["def _scan(_candidates):",
             "    _hits = []",
             "    _keep = _hits.append",
             f"    for {target} in _candidates:"]
    indent = "        "
    if conditions:
        lines.append(f"{indent}if {' and '.join(conditions)}:")
        indent += "    "
    if writer.may_fail:
        lines += [f"{indent}try:", f"{indent}    if {body}:", f"{indent}        _keep({target})",
                  f"{indent}except ArithmeticError:", f"{indent}    pass"]
    else:
        lines += [f"{indent}if {body}:", f"{indent}    _keep({target})"]
    lines.append("    return _hits")
    source = "\n".join(lines) + "\n"
    scan = define_scan(source, writer.constants)
    return Compiled(problem, free, fixed, source, scan, tuple(writer.constants), bounded)


def filters(problem: Problem, free: tuple[str, ...], fixed: dict[str, int], writer: Writer) -> list[str]:
    """Conditions on a candidate that the candidates themselves do not already meet."""
    pool = candidate_digits(problem, free, fixed)
    if pool is None:  # letters drawn each from its own digits; only some of them must differ
        variable = {letter: f"v{position}" for position, letter in enumerate(free)}
        return [f"_len({{{', '.join(variable.get(letter) or str(fixed[letter]) for letter in group)}}}) == {len(group)}"
                for group in problem.groups]
    conditions = []
    for index, letter in enumerate(free):
        allowed = problem.allowed[letter]
        if allowed >= pool:
            continue
        if pool - allowed == {0}:
            conditions.append(f"v{index}")
        else:
            conditions.append(f"v{index} in {writer.constant(frozenset(allowed))}")
    return conditions


def candidate_digits(problem: Problem, free: tuple[str, ...], fixed: dict[str, int]) -> frozenset[int] | None:
    """The digits distinct free letters are drawn from (None unless every letter must differ)."""
    if problem.distinctness != "all":
        return None
    pool = frozenset().union(*(problem.allowed[letter] for letter in free)) if free else frozenset()
    return pool - set(fixed.values())
