"""Numerals: place values, roots and repeating decimals, and the digit characters of every base.

A word is a sum of place values (`7AB` = 700 + 10*A + B). Every stage that turns a numeral into
a number or back reads these from here. (`core/verify.py` keeps its own word arithmetic on
purpose: the exact re-check shares nothing with the encoders.)
"""

from __future__ import annotations

from collections.abc import Callable

from smtcrypt.errors import FormulaLimitError

DIGIT_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz"  # digits of bases up to 36, lowercase to differ from letters
# The most digits of a number as written, in every notation and option: a literal, a word (its letters and
# digits), a repeating decimal, an option's integer, a move of play. Python refuses to convert more than 4,300
# digits, and a word's place values are written out as decimal text; 1,000 digits in base 64 is 1,807 decimal.
MAX_NUMBER_DIGITS = 1_000


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


def read_digits(text: str, base: int) -> list[int]:
    """A number's digits as `number_text` writes them, read back: "ff" in base 16 -> [15, 15], "1[36]"
    in base 64 -> [1, 36]. A `ValueError` for anything else."""
    digits, position = [], 0
    while position < len(text):
        if text[position] == "[":
            end = text.index("]", position)
            digit, position = int(text[position + 1:end]), end + 1
        else:
            digit, position = DIGIT_CHARS.find(text[position]), position + 1
        if not 0 <= digit < base:
            raise ValueError(f"{text!r} is not a number in base {base}")
        digits.append(digit)
    if not digits:
        raise ValueError("an empty number")
    return digits


def read_number(text: str, base: int) -> int:
    """A number as `number_text` writes it, read back: "ff" in base 16 -> 255, "1[36]" in base 64 -> 100
    (where Python's `int(text, base)` stops at base 36)."""
    value = 0
    for digit in read_digits(text, base):
        value = value * base + digit
    return value


def decimal(text: str, source: str | None = None, position: int = 0) -> int | None:
    """`text` as a non-negative decimal integer (ASCII digits, spaces around them allowed), or None if it
    is not one. More than MAX_NUMBER_DIGITS digits is a `FormulaLimitError` with a caret under them in
    `source` (where `text` starts at `position`; by default `text` itself), checked before converting:
    a long run of digits never reaches Python's own limit, whose error names no place."""
    digits = text.strip()
    if not digits or not digits.isascii() or not digits.isdigit():
        return None
    if len(digits) > MAX_NUMBER_DIGITS:
        offset = position + len(text) - len(text.lstrip())
        raise FormulaLimitError(too_many_digits(len(digits)), text if source is None else source, offset, len(digits))
    return int(digits)


def too_many_digits(count: int, what: str = "a number") -> str:
    """What a number (a word, ...) of `count` digits, over MAX_NUMBER_DIGITS, is told."""
    return f"{what} of {count:,} digits: the limit is {MAX_NUMBER_DIGITS:,}"


def shown(value: int) -> str:
    """An integer for a message: its digits, or for one too long to write out (a value given through the
    Python API) how long it is."""
    if value.bit_length() <= 3 * MAX_NUMBER_DIGITS:  # 2 ** 3000 has 904 digits
        return str(value)
    return f"a number of more than {MAX_NUMBER_DIGITS * 9 // 10:,} digits"


def decimal_text(value: int) -> str:
    """An integer's decimal digits however many there are: Python's `str` refuses more than 4,300, and a
    value may have up to `check.MAX_POWER_DIGITS`. Halves by a power of ten until `str` takes each part."""
    if value < 0:
        return "-" + decimal_text(-value)
    if value.bit_length() < 13_000:  # under 3,914 digits
        return str(value)
    half = value.bit_length() * 30103 // 200000  # about half the digits
    high, low = divmod(value, 10 ** half)
    return decimal_text(high) + decimal_text(low).zfill(half)


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

