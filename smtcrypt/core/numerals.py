"""Numerals: place values, roots and repeating decimals, and the digit characters of every base.

A word is a sum of place values (`7AB` = 700 + 10*A + B). Every stage that turns a numeral into
a number or back reads these from here. (`core/verify.py` keeps its own word arithmetic on
purpose: the exact re-check shares nothing with the encoders.)
"""

from __future__ import annotations

from collections.abc import Callable

DIGIT_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"  # digits of bases up to 36, lowercase to differ from letters


def digit_char(value: int) -> str:
    """How a digit value is written: 7 -> "7", 11 -> "b", and from 36 on (bases 37 to 64) its decimal
    value in brackets, 36 -> "[36]", so that no digit is mistaken for a letter."""
    return DIGIT_CHARS[value] if value < 36 else f"[{value}]"


def digit_writer(base: int) -> Callable[[int], str]:
    """`digit_char`, or for a base up to 36 the faster lookup that gives the same."""
    return DIGIT_CHARS.__getitem__ if base <= 36 else digit_char


def number_text(value: int, base: int) -> str:
    """A non-negative integer's digits in the base, each as `digit_char` writes it: 255 in base 16 -> "ff"."""
    if value == 0:
        return "0"
    digits = []
    while value:
        value, digit = divmod(value, base)
        digits.append(digit_char(digit))
    return "".join(reversed(digits))


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

