"""Stage 5: the exact re-check of every model, independent of the encoder and of Z3.

Evaluates the parsed tree with Python ints and `Fraction`s, following Python's
semantics (short-circuit `and`/`or`, chained comparisons, floor `//` and `%`),
except that `/` and `**` stay exact. A candidate whose evaluation divides by
zero or needs a number that is not rational (an irrational or complex root) is
simply not a solution, as in the seed notebook's `except ArithmeticError`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.letters import is_wildcard
from smtcrypt.core.outcomes import VerificationError
from smtcrypt.core.rules import NUMBER_WORDS, PRIME_LIMIT
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Name, Not, Number, Repeating, Unary, Word

Assignment = Mapping[str, int]  # like {"S": 9, "E": 5, ...}, and integer unknowns such as {"p": 15}
Exact = int | Fraction  # a value: an int while no division or root made a fraction (ints are faster)
ONE, ZERO = 1, 0


class Undefined(ArithmeticError):
    """The candidate makes the formula undefined: a zero divisor, an irrational root, a non-integer range."""


def integer_root(n: int, q: int) -> int | None:
    """The exact q-th root of n >= 0, or None if n is not a perfect q-th power."""
    if n < 2:
        return n
    guess = 1 << -(-n.bit_length() // q)  # above the root
    while True:
        better = ((q - 1) * guess + n // guess ** (q - 1)) // q
        if better >= guess:
            break
        guess = better
    return guess if guess ** q == n else None


def power(base: Exact, exponent: Exact) -> Exact:
    """base ** exponent, exactly; exponents p/q take the exact non-negative q-th root."""
    base = Fraction(base)  # an int to a negative power would be a float
    p, q = exponent.numerator, exponent.denominator
    if q != 1:
        if base < 0:
            raise Undefined("root of a negative number")
        top, bottom = integer_root(base.numerator, q), integer_root(base.denominator, q)
        if top is None or bottom is None:
            raise Undefined("irrational root")
        base = Fraction(top, bottom)
    if p < 0 and base == 0:
        raise Undefined("zero to a negative power")
    return base ** p


def word_value(letters: str, assignment: Assignment, base: int = 10) -> int:
    """The number whose digits are `letters` (letters or literal digits) in `base`."""
    value = 0
    for letter in letters:
        value = value * base + (int(letter) if letter.isdigit() else assignment[letter])
    return value


def repeating_value(node: Repeating, assignment: Assignment, base: int = 10) -> Fraction:
    """whole.fixed(period) as the limit of its digits: x * B^f * (B^p - 1) = whole.fixed period - whole.fixed."""
    head = word_value(node.whole + node.fixed, assignment, base)
    head_and_period = word_value(node.whole + node.fixed + node.period, assignment, base)
    return Fraction(head_and_period - head, base ** len(node.fixed) * (base ** len(node.period) - 1))


def truth(flag: bool) -> int:
    return ONE if flag else ZERO


def compare(op: str, left: Exact, right: Exact) -> bool:
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    return left >= right


def as_integer(value: Exact) -> int:
    if value.denominator != 1:
        raise Undefined("range() of a non-integer")
    return value.numerator


def contains(container: Expr, item: Exact, assignment: Assignment, base: int = 10) -> bool:
    if isinstance(container, Collection):  # Python builds the whole literal before looking in it
        return item in [evaluate(element, assignment, base) for element in container.items]
    start, stop = range_bounds(container, assignment, base)
    return item.denominator == 1 and start <= item < stop


def range_bounds(call: Expr, assignment: Assignment, base: int = 10) -> tuple[int, int]:
    """The bounds of `range(stop)` or `range(start, stop)`."""
    if not isinstance(call, Call):
        raise TypeError(f"expected range(...), not {type(call).__name__}")
    bounds = [as_integer(evaluate(arg, assignment, base)) for arg in call.args]
    return (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])


def evaluate(node: Expr, assignment: Assignment, base: int = 10) -> Exact:
    """The exact value of `node` under `assignment` (words in `base`); raises `Undefined` where Python would."""
    rule = EVALUATE.get(type(node))
    if rule is None:
        raise TypeError(f"cannot evaluate {type(node).__name__} on its own")
    return rule(node, assignment, base)


def _word(node: Word, assignment: Assignment, base: int) -> Exact:
    return word_value(node.letters, assignment, base)


def _repeating(node: Repeating, assignment: Assignment, base: int) -> Exact:
    return repeating_value(node, assignment, base)


def _name(node: Name, assignment: Assignment, base: int) -> Exact:
    return assignment[node.name]


def _number(node: Number, assignment: Assignment, base: int) -> Exact:
    return node.value


def _unary(node: Unary, assignment: Assignment, base: int) -> Exact:
    value = evaluate(node.operand, assignment, base)
    return -value if node.op == "-" else value


def _binary(node: BinOp, assignment: Assignment, base: int) -> Exact:
    left, right = evaluate(node.left, assignment, base), evaluate(node.right, assignment, base)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op == "*":
        return left * right
    if node.op == "**":
        return power(left, right)
    if right == 0:
        raise Undefined("division by zero")
    if node.op == "/":
        return Fraction(left) / right  # never int / int, which would be a float
    if node.op == "//":
        return left // right  # an int, also for fractions
    return left % right


def _compare(node: Compare, assignment: Assignment, base: int) -> Exact:
    """A chain, as Python evaluates it: each operand once, stopping at the first false link."""
    left = evaluate(node.operands[0], assignment, base)
    for op, operand in zip(node.ops, node.operands[1:]):
        if op in ("in", "not in"):
            if contains(operand, left, assignment, base) != (op == "in"):
                return ZERO
            continue
        right = evaluate(operand, assignment, base)
        if not compare(op, left, right):
            return ZERO
        left = right
    return ONE


def _boolean(node: BoolOp, assignment: Assignment, base: int) -> Exact:
    """`and`/`or` as Python's: the first operand that decides, else the last."""
    value: Exact = ZERO
    for operand in node.operands:
        value = evaluate(operand, assignment, base)
        if (value != 0) == (node.op == "or"):
            return value
    return value


def _not(node: Not, assignment: Assignment, base: int) -> Exact:
    return truth(evaluate(node.operand, assignment, base) == 0)


def whole(value: Exact, name: str) -> int:
    """The value as an int; a fraction leaves the candidate out, as math.gcd refuses one."""
    if value.denominator != 1:
        raise Undefined(f"{name}() of a non-integer")
    return value.numerator


WITNESSES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # Miller-Rabin bases that decide n < 3.3 * 10**24


def is_prime(n: int) -> bool:
    """Trial division by the small primes, then Miller-Rabin to the first 13 prime bases, which is a proof
    of primality below 3.317 * 10**24 (Sorenson and Webster); from PRIME_LIMIT on the candidate is undefined."""
    if n >= PRIME_LIMIT:
        raise Undefined("is_prime() of a number of more than 24 digits")
    if n < 2:
        return False
    for p in WITNESSES:
        if n % p == 0:
            return n == p
    odd, twos = n - 1, 0
    while odd % 2 == 0:
        odd, twos = odd // 2, twos + 1
    for a in WITNESSES:
        x = pow(a, odd, n)
        if x in (1, n - 1):
            continue
        for _ in range(twos - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def digits_of(n: int, base: int) -> list[int]:
    """The digits of |n| in `base`, the last first: 120 -> [0, 2, 1]; 0 -> [0]."""
    n, digits = abs(n), []
    while True:
        n, digit = divmod(n, base)
        digits.append(digit)
        if not n:
            return digits


def reversal(n: int, base: int) -> int:
    """n's digits in the opposite order, n's sign kept: 120 -> 21, -12 -> -21."""
    value = 0
    for digit in digits_of(n, base):  # the last digit first: it becomes the leading one
        value = value * base + digit
    return -value if n < 0 else value


def number_word(name: str, args: list[int], base: int) -> Exact:
    """The number-theory words on integers (docs/formula-language.md, "Number-theory words")."""
    n = args[0]
    if name == "is_prime":
        return truth(is_prime(n))
    if name in ("is_square", "is_cube", "is_power"):
        k = {"is_square": 2, "is_cube": 3}.get(name) or args[1]
        return truth(n >= 0 and integer_root(n, k) is not None)
    if name == "is_triangular":  # n = t(t + 1)/2 for a whole t >= 0 exactly when 8n + 1 is an odd square
        return truth(n >= 0 and integer_root(8 * n + 1, 2) is not None)
    if name == "dsum":
        return sum(digits_of(n, base))
    if name == "rev":
        return reversal(n, base)
    if name == "factorial":
        if n < 0:
            raise Undefined("factorial of a negative number")
        return math.factorial(n)
    if name == "is_palindrome":
        return truth(reversal(n, base) == n)
    divisor, multiple = args  # divides(d, x): x = k * d for some integer k (so 0 divides only 0)
    return truth(multiple == 0 if divisor == 0 else multiple % divisor == 0)


def _call(node: Call, assignment: Assignment, base: int) -> Exact:
    if node.name == "sum":
        start, stop = range_bounds(node.args[0], assignment, base)
        return max(0, stop - start) * (start + stop - 1) // 2
    values = [evaluate(arg, assignment, base) for arg in node.args]
    if node.name == "abs":
        return -values[0] if values[0] < 0 else values[0]
    if node.name == "gcd":
        if any(value.denominator != 1 for value in values):
            raise Undefined("gcd() of a non-integer")
        return math.gcd(*(value.numerator for value in values))
    if node.name in NUMBER_WORDS:
        return number_word(node.name, [whole(value, node.name) for value in values], base)
    return min(values) if node.name == "min" else max(values)


# one rule per node type (a collection or a range is evaluated only where it is looked in)
EVALUATE: dict[type, Callable[[Any, Assignment, int], Exact]] = {
    Word: _word, Repeating: _repeating, Name: _name, Number: _number, Unary: _unary, BinOp: _binary,
    Compare: _compare, BoolOp: _boolean, Not: _not, Call: _call,
}


def follows_rules(problem: Problem, assignment: Assignment) -> bool:
    """Digits of the base, distinct where the rules say so, no leading zero where forbidden, and the
    setter's --digits, --domain and --assign; unknowns any integer. Read from the rules, not `allowed`."""
    rules = problem.rules
    if set(assignment) != set(problem.letters) | set(problem.unknowns):
        return False
    if any(not isinstance(assignment[name], int) for name in assignment):
        return False
    digits = [assignment[letter] for letter in problem.letters]
    if any(not 0 <= d < rules.base for d in digits):
        return False
    for group in distinct_letters(problem):
        if len({assignment[letter] for letter in group}) != len(group):
            return False
    for letter in problem.letters:
        digit = assignment[letter]
        if rules.digits is not None and digit not in rules.digits:
            return False
        if letter in rules.domains and digit not in rules.domains[letter]:
            return False
        if letter in rules.assign and digit != rules.assign[letter]:
            return False
    return all(assignment[letter] != 0 for letter in problem.leading)


def distinct_letters(problem: Problem) -> list[tuple[str, ...]]:
    """The groups of letters that must differ, read from the rules and the formula, not from `Problem.groups`:
    by default every letter but the wildcards (named in the Private Use Area); with --distinct the groups given."""
    rules = problem.rules
    if rules.groups is not None:
        return [tuple(group) for group in rules.groups]
    return [tuple(letter for letter in problem.letters if not is_wildcard(letter))] if rules.distinct else []


def satisfies(problem: Problem, assignment: Assignment) -> bool:
    """True if the assignment follows the rules and makes every constraint true."""
    if not follows_rules(problem, assignment):
        return False
    try:
        return all(evaluate(constraint, assignment, problem.rules.base) != 0
                   for constraint in problem.formula.constraints)
    except Undefined:
        return False


def confirm(problem: Problem, assignment: Assignment) -> None:
    """Raise `VerificationError` unless the assignment is a true solution."""
    if not satisfies(problem, assignment):
        shown = " ".join(f"{name}={assignment.get(name)}" for name in sorted([*problem.letters, *problem.unknowns]))
        raise VerificationError(f"internal error: the solver proposed {shown} for {problem.source!r}, "
                                "which the exact re-check rejects; please report this formula")
