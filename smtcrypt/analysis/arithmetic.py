"""Integer facts the encoders build on, without Z3. The one home of the integer helpers outside the
verifier (roots, primes, digit sums, reversals), which the compiled formula's runtime shares too; the
verifier keeps its own copy, on purpose."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TypeVar

from smtcrypt.core.numerals import place_values, repeating_scale, root_floor
from smtcrypt.core.tree import Repeating

T = TypeVar("T")


def signed_width(lo: int, hi: int) -> int:
    """The fewest bits whose two's complement holds every integer in [lo, hi]: [0, 9] -> 5, [-8, 7] -> 4."""
    return max((v if v >= 0 else ~v).bit_length() for v in (lo, hi)) + 1


def by_squaring(a: T, k: int, multiply: Callable[[T, T, int], T]) -> T:
    """a ** k, k >= 1, by repeated squaring, where `multiply(x, y, n)` is x * y, which is a ** n."""
    result: T | None = None
    result_power, square, square_power = 0, a, 1
    while k:
        if k & 1:
            result_power += square_power
            result = square if result is None else multiply(result, square, result_power)
        k >>= 1
        if k:
            square_power *= 2
            square = multiply(square, square, square_power)
    assert result is not None  # k >= 1 has a lowest set bit
    return result


def euclid_steps(bound: int) -> int:
    """How many steps (x, y) -> (y, x mod y), each skipped once y is 0, bring every pair
    0 <= y < x <= bound to y = 0 (x is then the gcd). By Lamé's theorem, n steps need x >= F(n + 2)
    (Fibonacci numbers, F(1) = F(2) = 1)."""
    steps, previous, current = 0, 1, 2  # F(n + 1), F(n + 2) for n = steps + 1
    while current <= bound:
        steps += 1
        previous, current = current, previous + current
    return steps


TRIAL_PRIMES = 20_000  # root_step looks for prime factors up to this


def root_step(den: int, q: int) -> int:
    """A number every s with den**(q-1) dividing s**q is a multiple of: each prime p**e of den
    gives p**ceil(e*(q-1)/q). Primes past TRIAL_PRIMES are left out, which only makes it smaller."""
    step, rest, p = 1, den, 2
    while p * p <= rest and p <= TRIAL_PRIMES:
        e = 0
        while rest % p == 0:
            rest, e = rest // p, e + 1
        step *= p ** -(-e * (q - 1) // q)
        p += 1 if p == 2 else 2
    if rest > 1 and (p * p > rest):  # what is left is a prime
        step *= rest
    return step


def exact_root(n: int, q: int) -> int | None:
    """The exact q-th root of n >= 0, or None if n is not a q-th power."""
    root = math.isqrt(n) if q == 2 else root_floor(n, q)
    return root if root ** q == n else None


def divisors(n: int) -> list[int]:
    """The positive divisors of n > 0, ascending: 12 -> [1, 2, 3, 4, 6, 12]."""
    small = [d for d in range(1, math.isqrt(n) + 1) if n % d == 0]
    return small + [n // d for d in reversed(small) if d * d != n]


def repeating_fraction(node: Repeating, base: int) -> tuple[dict[str, int], int, int]:
    """A repeating decimal as its numerator, whole.fixed period minus whole.fixed (see verify.repeating_value)
    as letter weights and a constant, over its constant denominator (`numerals.repeating_scale`)."""
    weights, literal = place_values(node.whole + node.fixed + node.period, base)
    head, head_literal = place_values(node.whole + node.fixed, base)
    numerator = {letter: weight - head.get(letter, 0) for letter, weight in weights.items()}
    return numerator, literal - head_literal, repeating_scale(node.fixed, node.period, base)


SIEVE_ROOT = 1 << 17  # a segment is sieved while the square root of its end is below this; else each number tested
STRONG_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # decide primality below 3.3 * 10**24


def prime_test(n: int) -> bool:
    """n is prime, for n below 3.3 * 10**24: strong probable prime to the first 13 primes as bases,
    which no composite below that is (Sorenson and Webster)."""
    if n < 2:
        return False
    for p in STRONG_BASES:
        if n % p == 0:
            return n == p
    odd, twos = n - 1, 0
    while not odd & 1:
        odd, twos = odd >> 1, twos + 1
    for a in STRONG_BASES:
        x = pow(a, odd, n)
        if x == 1 or x == n - 1:
            continue
        for _ in range(twos - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


SIEVE_SIZE = 1 << 20  # primality below this is looked up in a table (`is_prime`), made at its first use


def _sieve(size: int) -> bytearray:
    """flags[n] is 1 exactly for the primes n < size, size >= 2 (Eratosthenes)."""
    flags = bytearray([1]) * size
    flags[0] = flags[1] = 0
    for p in range(2, math.isqrt(size - 1) + 1):
        if flags[p]:
            flags[p * p::p] = bytes(len(range(p * p, size, p)))
    return flags


@functools.cache
def small_primes() -> bytearray:
    """The sieve below SIEVE_SIZE, made once a process: the compiled formula asks `is_prime` of a
    number per candidate, most of them small."""
    return _sieve(SIEVE_SIZE)


def is_prime(n: int) -> bool:
    """n is prime, for n below 3.3 * 10**24: looked up below SIEVE_SIZE, else `prime_test`."""
    return n >= 2 and bool(small_primes()[n]) if n < SIEVE_SIZE else prime_test(n)


def primes_between(low: int, high: int) -> list[int]:
    """The primes p with low <= p <= high, by a sieve of that segment, or a test of each number where
    the segment lies too high to sieve (the caller keeps it short)."""
    low = max(low, 2)
    if high < low:
        return []
    if math.isqrt(high) > SIEVE_ROOT:
        return [n for n in range(low, high + 1) if prime_test(n)]
    flags = bytearray([1]) * (high - low + 1)
    for p in primes_up_to(math.isqrt(high)):
        first = max(p * p, -(-low // p) * p)
        flags[first - low::p] = bytes(len(range(first, high + 1, p)))
    return [low + offset for offset, flag in enumerate(flags) if flag]


def primes_up_to(limit: int) -> list[int]:
    """The primes up to `limit` (Eratosthenes), the trial divisors of numbers up to limit**2."""
    return [n for n, flag in enumerate(_sieve(limit + 1)) if flag] if limit >= 2 else []


def root_range(low: int, high: int, k: int) -> range:
    """The r >= 0 with low <= r**k <= high."""
    first = root_floor(low - 1, k) + 1 if low > 0 else 0
    return range(first, root_floor(high, k) + 1) if high >= 0 else range(0)


def triangular_range(low: int, high: int) -> range:
    """The t >= 0 with low <= t(t + 1)/2 <= high: t(t + 1)/2 <= n exactly when (2t + 1)**2 <= 8n + 1."""
    def last(n: int) -> int:  # the largest t with t(t + 1)/2 <= n, for n >= 0
        return (root_floor(8 * n + 1, 2) - 1) // 2
    return range(0) if high < 0 else range(last(low - 1) + 1 if low > 0 else 0, last(high) + 1)


def digit_sum(n: int, base: int) -> int:
    """The digits of |n| in `base`, added."""
    n, total = abs(n), 0
    while n:
        n, digit = divmod(n, base)
        total += digit
    return total


def reversal(n: int, base: int) -> int:
    """The digits of |n| in `base` in the opposite order, with n's sign: 120 -> 21."""
    rest, value = abs(n), 0
    while rest:
        rest, digit = divmod(rest, base)
        value = value * base + digit
    return -value if n < 0 else value
