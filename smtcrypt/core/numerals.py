"""Numerals: place values, roots and repeating decimals, and the digit characters of every base.

A word is a sum of place values (`7AB` = 700 + 10*A + B). Every stage that turns a numeral into
a number or back reads these from here. (`core/verify.py` keeps its own word arithmetic on
purpose: the exact re-check shares nothing with the encoders.)
"""

from __future__ import annotations

DIGIT_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"  # digits of bases up to 36, lowercase to differ from letters


def digit_char(value: int) -> str:
    """The character of a digit value: 7 -> "7", 11 -> "b"."""
    return DIGIT_CHARS[value]


def place_values(digits: str, base: int) -> tuple[dict[str, int], int]:
    """A numeral as letter weights and the value of its literal digits: "7AB" -> ({"A": 10, "B": 1}, 700);
    a repeated letter adds up: "ODD" -> ({"O": 100, "D": 11}, 0)."""
    weights: dict[str, int] = {}
    literal = 0
    for place, char in enumerate(reversed(digits)):
        if char.isdigit():
            literal += int(char) * base ** place
        else:
            weights[char] = weights.get(char, 0) + base ** place
    return weights, literal


def root_floor(n: int, q: int) -> int:
    """The largest r >= 0 with r**q <= n (0 for n < 1), by Newton's method from above."""
    if n < 2:
        return max(n, 0)
    r = 1 << (n.bit_length() // q + 1)
    while r ** q > n:
        r = ((q - 1) * r + n // r ** (q - 1)) // q
    while (r + 1) ** q <= n:
        r += 1
    return r


def repeating_scale(fixed: str, period: str, base: int) -> int:
    """The denominator of whole.fixed(period): B^f * (B^p - 1)."""
    return base ** len(fixed) * (base ** len(period) - 1)

