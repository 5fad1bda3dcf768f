"""The exact re-check (`core/verify.py`) and the compiled evaluator (`engine/compiled_runtime.py`)
each keep their own exact powers and primality test, on purpose: the re-check shares nothing with
a backend, so that one bug cannot pass in both. Copies drift, so both answer one table of cases
here, each in its own way of refusing a candidate: the re-check raises `Undefined` for every
undefined value; the compiled evaluator raises `CandidateUndefined` for an irrational or negative
root and Python's own `ZeroDivisionError` for zero to a negative power, as the expression would.
Both are `ArithmeticError`s, which is what their callers catch. The integer helpers the backends
share (`analysis/arithmetic.py`: roots, primality, digit sums and reversals, which the compiled
evaluator calls) answer the same tables against the re-check's own copies."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smtcrypt.analysis import arithmetic
from smtcrypt.core import verify
from smtcrypt.core.rules import PRIME_LIMIT
from smtcrypt.engine import compiled_runtime as runtime

IRRATIONAL = "irrational"  # a root that is not rational: undefined
NEGATIVE_ROOT = "negative root"  # an even or odd root of a negative number: undefined (roots are non-negative)
ZERO_TO_NEGATIVE = "zero to a negative power"  # a division by zero
TOO_LARGE = "too large to decide"  # is_prime from PRIME_LIMIT on: undefined

F = Fraction
# (base, exponent, the exact value or how it fails)
POWERS: list[tuple[int | Fraction, int | Fraction, int | Fraction | str]] = [
    (2, 10, 1024),
    (-3, 3, -27),
    (-2, 4, 16),
    (0, 0, 1),
    (0, 5, 0),
    (7, 0, 1),
    (2, -3, F(1, 8)),
    (-2, -3, F(-1, 8)),
    (F(2, 3), -2, F(9, 4)),
    (F(-1, 2), 3, F(-1, 8)),
    (10, 30, 10**30),
    (F(4, 9), F(1, 2), F(2, 3)),
    (27, F(2, 3), 9),
    (F(8, 27), F(-2, 3), F(9, 4)),
    (16, F(-1, 4), F(1, 2)),
    (16, F(3, 4), 8),
    (0, F(1, 2), 0),
    (1, F(-7, 3), 1),
    (10**20, F(1, 2), 10**10),
    (2**64, F(1, 64), 2),
    (3**40, F(3, 40), 27),
    (4, F(2, 4), 2),  # an unreduced exponent, as a Fraction makes it: 1/2
    (2, F(1, 2), IRRATIONAL),
    (F(1, 2), F(1, 2), IRRATIONAL),
    (F(4, 3), F(1, 2), IRRATIONAL),  # the numerator's root is whole, the denominator's is not
    (10**20 + 1, F(1, 2), IRRATIONAL),
    (2**64 + 1, F(1, 64), IRRATIONAL),
    (9, F(1, 3), IRRATIONAL),
    (-8, F(1, 3), NEGATIVE_ROOT),  # roots are the non-negative ones: no real cube root is taken
    (-4, F(1, 2), NEGATIVE_ROOT),
    (F(-1, 4), F(-1, 2), NEGATIVE_ROOT),
    (0, -1, ZERO_TO_NEGATIVE),
    (0, -3, ZERO_TO_NEGATIVE),
    (F(0), -1, ZERO_TO_NEGATIVE),
    (0, F(-1, 2), ZERO_TO_NEGATIVE),
    (0, F(-3, 2), ZERO_TO_NEGATIVE),
]

# (n, prime or not, or TOO_LARGE); each checked against `openssl prime` where the table was made
PRIMES: list[tuple[int, bool | str]] = [
    (-7, False), (-1, False), (0, False), (1, False), (2, True), (3, True), (4, False), (9, False),
    (41, True), (43, True), (1681, False),  # 41 * 41: a square of the last witness
    (561, False), (1105, False), (1729, False), (2465, False), (41041, False), (825265, False),  # Carmichael
    (1048573, True),  # the largest prime below the compiled evaluator's sieve, 2**20
    (1048576, False),
    (1048583, True),  # the first prime past the sieve: Miller-Rabin decides it there
    (56052361, False), (118901521, False),  # Carmichael, all factors > 41 (211 * 421 * 631, 271 * 541 * 811)
    (321197185, False), (5394826801, False), (232250619601, False), (9746347772161, False),  # Carmichael
    (3215031751, False),  # a strong pseudoprime to the bases 2, 3, 5 and 7
    (3825123056546413051, False),  # a strong pseudoprime to every prime base up to 23
    (318665857834031151167461, False),  # a strong pseudoprime to every prime base up to 37: 41 decides it
    (2**61 - 1, True), (2**79 - 1, False),  # a Mersenne prime; 2**79 - 1 = 2687 * ... is composite
    (999999999999999999999743, True),  # the largest prime below PRIME_LIMIT
    (999999999999999999999999, False),
    (PRIME_LIMIT - 1, False),
    (PRIME_LIMIT, TOO_LARGE),
    (PRIME_LIMIT + 7, TOO_LARGE),  # a prime, but past what is decided
    (3317044064679887385961981, TOO_LARGE),  # a strong pseudoprime to every base up to 41, past the limit
]


def power_error(implementation: str, how: str) -> type[ArithmeticError]:
    """The exception each implementation raises for a power that fails `how`."""
    if implementation == "verify":
        return verify.Undefined
    return ZeroDivisionError if how == ZERO_TO_NEGATIVE else runtime.CandidateUndefined


def test_the_table_is_what_it_says():
    """The table's expected values agree with Python's own arithmetic where it is exact."""
    assert PRIME_LIMIT == 10**24
    for base, exponent, expected in POWERS:
        if isinstance(expected, str) or F(exponent).denominator != 1:
            continue
        assert F(base) ** int(exponent) == expected, (base, exponent)
    for base, exponent, expected in POWERS:
        if not isinstance(expected, str) and F(exponent).denominator != 1:
            q = F(exponent).denominator
            assert F(expected) ** q == F(base) ** F(exponent).numerator, (base, exponent)


POWER_CALLS = {
    "verify": verify.power,
    "compiled": runtime._power,
}


@pytest.mark.parametrize("implementation", sorted(POWER_CALLS))
@pytest.mark.parametrize(("base", "exponent", "expected"), POWERS)
def test_exact_powers(implementation, base, exponent, expected):
    power = POWER_CALLS[implementation]
    if isinstance(expected, str):
        with pytest.raises(power_error(implementation, expected)):
            power(base, exponent)
    else:
        value = power(base, exponent)
        assert value == expected and isinstance(value, (int, Fraction)), (base, exponent, value)


@pytest.mark.parametrize(("base", "exponent", "expected"), [case for case in POWERS if F(case[1]).denominator != 1])
def test_the_compiled_constant_root_power(base, exponent, expected):
    """A constant exponent p/q compiled to `_root_power(base, p, q)`: the same values and errors."""
    p, q = F(exponent).numerator, F(exponent).denominator
    if isinstance(expected, str):
        with pytest.raises(power_error("compiled", expected)):
            runtime._root_power(base, p, q)
    else:
        assert runtime._root_power(base, p, q) == expected


@pytest.mark.parametrize("implementation", ["verify", "compiled"])
@pytest.mark.parametrize(("n", "expected"), PRIMES)
def test_primality(implementation, n, expected):
    is_prime = verify.is_prime if implementation == "verify" else runtime._is_prime
    if expected == TOO_LARGE:
        error = verify.Undefined if implementation == "verify" else runtime.CandidateUndefined
        with pytest.raises(error):
            is_prime(n)
    else:
        assert is_prime(n) is expected


def test_the_compiled_primality_of_whole_fractions_and_refused_ones():
    """The compiled evaluator may hold a whole value as a Fraction; a proper fraction is undefined."""
    assert runtime._is_prime(F(1048583)) is True and runtime._is_prime(F(561)) is False
    with pytest.raises(runtime.CandidateUndefined):
        runtime._is_prime(F(7, 2))


def test_the_errors_are_arithmetic_errors_that_callers_catch():
    assert issubclass(verify.Undefined, ArithmeticError)
    assert issubclass(runtime.CandidateUndefined, ArithmeticError)
    assert not issubclass(runtime.CandidateUndefined, verify.Undefined)  # two classes: nothing shared


@pytest.mark.parametrize(("n", "expected"), [case for case in PRIMES if isinstance(case[1], bool)])
def test_the_shared_primality(n, expected):
    """`analysis/arithmetic.py` decides below PRIME_LIMIT as the re-check does, by its sieve and past it."""
    assert arithmetic.is_prime(n) is expected
    assert arithmetic.prime_test(n) is expected


ROOTS = [(0, 2), (1, 3), (2, 2), (4, 2), (27, 3), (26, 3), (28, 3), (10**30, 3), (10**30 + 1, 3), (2**64, 8),
         (2**64 - 1, 8), (3**40, 5), (3**40 + 3**20, 5), (99, 2), (100, 2), (101, 2), (7**21, 7), (7**21 - 1, 7)]


@pytest.mark.parametrize(("n", "q"), ROOTS)
def test_the_shared_exact_roots(n, q):
    assert arithmetic.exact_root(n, q) == verify.integer_root(n, q)


@pytest.mark.parametrize("n", [0, 1, 9, 10, 120, -12, -120, 4096, 10**20 + 7, -(2**61 - 1)])
@pytest.mark.parametrize("base", [2, 10, 16, 36])
def test_the_shared_digit_sums_and_reversals(n, base):
    assert arithmetic.digit_sum(n, base) == sum(verify.digits_of(n, base))
    assert arithmetic.reversal(n, base) == verify.reversal(n, base)
