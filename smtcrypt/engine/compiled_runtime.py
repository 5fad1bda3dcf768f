"""The runtime of the compiled formula: the helpers its generated code calls, its only globals.

The generated code (compiled.py, compiled_writer.py) has the exact semantics of the re-check
(core/verify.py) but none of its code: Python ints, a `Fraction` only where `/`, a negative power or a
root needs one, never a float. Where Python would fail, a helper raises an `ArithmeticError` (a zero
divisor, or `CandidateUndefined`: an irrational root, a fraction where an integer is needed), and the
candidate is no solution. The integer facts (roots, primes, digit sums) are analysis/arithmetic.py's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from smtcrypt.analysis.arithmetic import digit_sum, exact_root, is_prime, reversal
from smtcrypt.core.rules import PRIME_LIMIT

Exact = int | Fraction  # a value in the generated code: an int until a division or a root makes a fraction


class CandidateUndefined(ArithmeticError):
    """The candidate makes the formula undefined: not an integer where one is needed, an irrational root."""


def _gcd(*values: Any) -> int:
    try:
        return math.gcd(*values)  # ints (and bools), the common case
    except TypeError:  # a Fraction among them: only whole ones have a gcd
        return math.gcd(*map(_whole, values))


def _whole(value: Any) -> int:
    """An int from an int, a truth value or a whole Fraction; `CandidateUndefined` for any other fraction."""
    if type(value) in (int, bool):
        return int(value)
    if value.denominator != 1:
        raise CandidateUndefined("not an integer")
    return value.numerator


def _is_prime(value: Any) -> bool:
    n = _whole(value)
    if n >= PRIME_LIMIT:  # not decided: the candidate is left out, as the re-check does
        raise CandidateUndefined("is_prime() of a number of more than 24 digits")
    return is_prime(n)


def _is_power(value: Any, k: int) -> bool:
    """value = r**k for a whole r >= 0."""
    n = _whole(value)
    return n >= 0 and exact_root(n, k) is not None


def _is_triangular(value: Any) -> bool:
    """value = t(t + 1)/2 for a whole t >= 0: 8 * value + 1 is then (2t + 1)**2."""
    n = _whole(value)
    return n >= 0 and exact_root(8 * n + 1, 2) is not None


def _is_palindrome(value: Any, base: int) -> bool:
    n = _whole(value)
    return reversal(n, base) == n


def _factorial(value: Any) -> int:
    n = _whole(value)
    if n < 0:
        raise CandidateUndefined("factorial of a negative number")
    return math.factorial(n)


def _divides(divisor: Any, multiple: Any) -> bool:
    d, x = _whole(divisor), _whole(multiple)
    return x == 0 if d == 0 else x % d == 0


def _bounds(args: tuple[Any, ...]) -> tuple[int, int]:
    bounds = [_whole(arg) for arg in args]
    return (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])


def _in_range(item: Any, *args: Any) -> bool:
    start, stop = _bounds(args)
    return item.denominator == 1 and start <= item < stop


def _sum(*args: Any) -> int:
    start, stop = _bounds(args)
    return max(0, stop - start) * (start + stop - 1) // 2


def _power(base: Exact, exponent: Exact) -> Exact:
    """base ** exponent, exactly: int ** non-negative int stays an int; an exponent p/q takes the
    non-negative q-th root, which must be rational."""
    if type(base) is int and type(exponent) is int and exponent >= 0:
        return base ** exponent
    value = Fraction(base)  # an int to a negative power would be a float
    p, q = exponent.numerator, exponent.denominator
    if q != 1:
        if value < 0:
            raise CandidateUndefined("root of a negative number")
        top, bottom = exact_root(value.numerator, q), exact_root(value.denominator, q)
        if top is None or bottom is None:
            raise CandidateUndefined("irrational root")
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
        raise CandidateUndefined("irrational root")
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


def _q(a: int, b: int, c: int, d: int) -> int:
    """(a/b - c/d) * (b*d)**2, whose sign compares a/b with c/d over integers, without making
    Fractions (which cost far more per candidate)."""
    if b == 0 or d == 0:
        raise ZeroDivisionError("division by zero")
    return (a * d - c * b) * b * d


# every name the generated code may call: its only globals (no builtins)
HELPERS: Mapping[str, Any] = MappingProxyType(
    {"_nz": _nz, "_q": _q, "_F": Fraction, "_pow": _power, "_root": _root_power, "_gcd": _gcd,
     "_in_range": _in_range, "_sum": _sum, "abs": abs, "min": min, "max": max,
     "_len": len, "ArithmeticError": ArithmeticError,
     "_is_prime": _is_prime, "_is_power": _is_power, "_is_triangular": _is_triangular,
     "_whole": _whole, "_dsum": digit_sum, "_rev": reversal, "_is_palindrome": _is_palindrome, "_divides": _divides,
     "_factorial": _factorial})
