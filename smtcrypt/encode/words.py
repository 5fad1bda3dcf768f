"""The number-theory words (`is_prime`, `is_square`, `dsum`, `rev`, ...) as both Z3 encoders build them.

A predicate of a word is a table of its letters' digits chosen digit by digit, which a solver
propagates as it does the letters; of another term, a table where few values in its bounds qualify,
else (`is_prime`) trial division by constant moduli.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import z3

from smtcrypt.analysis.arithmetic import (
    SIEVE_ROOT,
    digit_sum,
    primes_between,
    primes_up_to,
    reversal,
    root_range,
    triangular_range,
)
from smtcrypt.core.check import Problem, power_word_exponent
from smtcrypt.core.intervals import Interval, word_interval
from smtcrypt.core.tree import Call, Word

MAX_TABLE = 2000  # most values a predicate's table lists (as the other tables in general_rationals.py)
PRIME_SPAN = 200_000  # longest interval sieved for a table of its primes
MAX_TRIAL_DIVISOR = 104_729  # the 10,000th prime: is_prime divides by at most 10,000 (numbers below 1.1 * 10**10)
MAX_SCAN = 100_000  # most values a word's table is chosen from


def power_of(node: Call) -> int:
    """The k of a power predicate: 2 for is_square, 3 for is_cube, k for is_power(x, k)."""
    return {"is_square": 2, "is_cube": 3}.get(node.name) or power_word_exponent(node)


def table(node: Call, bounds: Interval | None, base: int) -> list[int] | None:
    """The values in bounds for which the predicate `node` holds, ascending, where there are at most
    MAX_TABLE (and, for primes, the interval is short enough to sieve); else None."""
    if bounds is None:
        return None
    low, high = bounds
    if node.name != "is_palindrome":
        values = _candidates(node, low, high, MAX_TABLE)
    elif high - low < MAX_TABLE * 4:
        values = [n for n in range(low, high + 1) if reversal(n, base) == n]
    else:
        return None
    return values if values is not None and len(values) <= MAX_TABLE else None


def word_table(node: Call, problem: Problem) -> tuple[tuple[str, ...], list[tuple[int, ...]]] | None:
    """For a predicate of a word (`is_prime(SEVEN)`): its letters, in order, and the tuples of their
    digits for which it holds, the rules applied (SEVEN: 382 of 8,363 primes); None where too many."""
    word = node.args[0]
    if not isinstance(word, Word) or node.name == "is_palindrome":
        return None
    base = problem.rules.base
    cells = list(word.letters)
    letters = tuple(dict.fromkeys(cell for cell in cells if not cell.isdigit()))
    allowed = [frozenset([int(cell)]) if cell.isdigit() else problem.allowed[cell] for cell in cells]
    if not all(allowed):
        return (letters, [])
    low, high = word_interval(word.letters, base, lambda _, letter: (min(problem.allowed[letter]),
                                                                      max(problem.allowed[letter])))
    values = _candidates(node, low, high, MAX_SCAN)
    if values is None:
        return None
    position = {letter: cells.index(letter) for letter in letters}
    groups = [[position[letter] for letter in group if letter in position] for group in problem.groups]
    rows, places = [], [base ** place for place in reversed(range(len(cells)))]
    for value in values:
        digits = [value // place % base for place in places]
        follows = (all(digit in allowed[index] for index, digit in enumerate(digits))
                   and all(digits[index] == digits[position[cell]]
                           for index, cell in enumerate(cells) if cell in position)
                   and all(len({digits[index] for index in group}) == len(group) for group in groups))
        if follows:
            rows.append(tuple(digits[position[letter]] for letter in letters))
            if len(rows) > MAX_TABLE:
                return None
    return letters, rows


def trie(letters: tuple[str, ...], rows: list[tuple[int, ...]], is_digit: Callable[[str, int], z3.BoolRef],
         context: z3.Context) -> z3.BoolRef:
    """The rows as a choice letter by letter: Or over the first letter's digits of (it is that digit and
    the rest of a row that begins so)."""
    if not rows:
        return z3.BoolVal(False, context)
    if not letters:
        return z3.BoolVal(True, context)
    branches: dict[int, list[tuple[int, ...]]] = {}
    for row in rows:
        branches.setdefault(row[0], []).append(row[1:])
    options = []
    for digit, rest in branches.items():
        below = trie(letters[1:], rest, is_digit, context)
        options.append(is_digit(letters[0], digit) if z3.is_true(below) else z3.And(is_digit(letters[0], digit), below))
    return options[0] if len(options) == 1 else z3.Or(*options)


def _candidates(node: Call, low: int, high: int, most: int) -> list[int] | None:
    """The values in [low, high] for which the predicate holds (the primes of a segment short enough
    to list), where at most `most` roots are looked at; None for other words."""
    if node.name == "is_prime":  # a shorter segment where it lies too high to sieve (each number is tested)
        span = PRIME_SPAN if math.isqrt(max(high, 0)) <= SIEVE_ROOT else MAX_TABLE
        return primes_between(low, high) if high - low <= span else None
    if node.name == "is_triangular":
        roots = triangular_range(low, high)
        return [t * (t + 1) // 2 for t in roots] if len(roots) <= most else None
    if node.name not in ("is_square", "is_cube", "is_power"):
        return None
    k = power_of(node)
    roots = root_range(low, high, k)
    return [r ** k for r in roots] if len(roots) <= most else None


def trial_divisors(high: int) -> list[int] | None:
    """The primes up to sqrt(high): a number from 2 to high is prime exactly when it is one of them or
    none divides it. None where sqrt(high) is past MAX_TRIAL_DIVISOR."""
    limit = math.isqrt(max(high, 0))
    return primes_up_to(limit) if limit <= MAX_TRIAL_DIVISOR else None


def digit_table(name: str, bounds: Interval | None, base: int) -> dict[int, int] | None:
    """dsum or rev of every value in bounds, where there are at most MAX_TABLE values."""
    if bounds is None or bounds[1] - bounds[0] >= MAX_TABLE:
        return None
    word = digit_sum if name == "dsum" else reversal
    return {n: word(n, base) for n in range(bounds[0], bounds[1] + 1)}
