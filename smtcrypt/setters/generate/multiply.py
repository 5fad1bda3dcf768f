"""The digit search of a long multiplication's rows: every assignment of distinct digits (base 10,
no leading zero) under which the multiplicand times each row's multiplier digit is that row's
partial product.

A long multiplication's printed rows, without its product, are `PartialProducts`: the multiplicand, the
letter with no row (its digit is 0) if any, and for each other multiplier letter its partial
product. `solutions(rows)` yields every assignment of their letters; the product is then the
multiplicand times the multiplier, one number per assignment (`product_digits`), so the words
that can stand for it are looked up rather than tried one by one.

The rows are searched by the digits backend (`smtcrypt.engine.digits`), which checks products
column by column from the units as a long multiplication is checked by hand: the rows are written
as the equations `MULTIPLICAND * LETTER = PARTIAL`, read and checked as any formula is, and its
plan searched. The generator thus has no digit search of its own to keep in step with the backend's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.tree import Constraints
from smtcrypt.engine.digits import DigitSearch, digit_plan

BASE = 10


def letter_id(letter: str) -> int:
    return ord(letter) - ord("A")


@dataclass(frozen=True)
class PartialProducts:
    """A long multiplication's multiplicand and partial products: `rows` pairs each nonzero
    multiplier letter with its partial product; `zero` is the multiplier letter without a row."""

    multiplicand: str
    rows: tuple[tuple[str, str], ...]
    zero: str | None = None

    def letters(self) -> str:
        """Every letter of these rows, each once, in order of appearance."""
        seen = self.multiplicand + "".join(letter + word for letter, word in self.rows) + (self.zero or "")
        return "".join(dict.fromkeys(seen))

    def formula(self) -> Constraints | None:
        """The rows as equations, a word of one letter (each multiplier letter) nonzero as a first
        letter is, and the zero letter 0; None where no assignment can meet them: more than ten
        letters, or a partial product neither as long as the multiplicand nor one letter longer.
        A multiplication prints one row at least, so every letter is in an equation."""
        if not self.rows or len(self.letters()) > BASE or any(
                len(word) not in (len(self.multiplicand), len(self.multiplicand) + 1) for _, word in self.rows):
            return None
        singles = {word for word in (self.multiplicand, *(part for row in self.rows for part in row)) if len(word) == 1}
        parts = [f"{self.multiplicand} * {letter} = {word}" for letter, word in self.rows]
        parts += [f"{letter} != 0" for letter in sorted(singles)]
        parts += [f"{self.zero} = 0"] if self.zero is not None else []
        return parse(" and ".join(parts))


def solutions(rows: PartialProducts) -> Iterator[list[int]]:
    """Every assignment of the rows' letters, as the digit of each letter A-Z (-1 for a letter not
    in the rows), found by the digits backend."""
    formula = rows.formula()
    plan = None if formula is None else digit_plan(check(formula))
    if plan is None:
        return
    for assignment in DigitSearch(plan):
        value = [-1] * 26
        for letter, digit in assignment.items():
            value[letter_id(letter)] = digit
        yield value


def feasible(rows: PartialProducts) -> bool:
    """Do the rows have an assignment at all? (The search stops at the first.)"""
    return next(solutions(rows), None) is not None


State = tuple[list[int], list[int]]  # the digit of each letter A-Z (-1: none), the letter holding each digit


def extend(state: State, pairs: Sequence[tuple[str, int]]) -> State | None:
    """The state with each word spelling its number, distinct letters taking distinct digits;
    None if that contradicts it. The state given is left as it is."""
    value, holder = state[0][:], state[1][:]
    for word, amount in pairs:
        digits = str(amount)
        if len(digits) != len(word):
            return None
        for ch, digit_char in zip(word, digits):
            letter, digit = ord(ch) - 65, ord(digit_char) - 48
            if value[letter] != digit:
                if value[letter] >= 0 or holder[digit] >= 0:
                    return None
                value[letter], holder[digit] = digit, letter
    return value, holder


def assign(pairs: Sequence[tuple[str, int]]) -> list[int] | None:
    """The digit of each letter A-Z (-1 for none) under which each word spells its number, distinct
    letters taking distinct digits; None if there is no such assignment."""
    state = extend(([-1] * 26, [-1] * BASE), pairs)
    return None if state is None else state[0]


def number(word: str, value: list[int]) -> int:
    total = 0
    for ch in word:
        total = total * BASE + value[letter_id(ch)]
    return total


def product_digits(multiplicand: str, multiplier: str, value: list[int]) -> str:
    """The product's digits under an assignment of the rows' letters."""
    return str(number(multiplicand, value) * number(multiplier, value))


def pattern(text: str) -> tuple[int, ...]:
    """Where each character first appears: SEES and 1001 share (0, 1, 1, 0)."""
    first: dict[str, int] = {}
    return tuple(first.setdefault(ch, len(first)) for ch in text)


def spells(word: str, digits: str, value: list[int], used: int) -> bool:
    """Can `word` stand for `digits`, its letters already given digits keeping them and the others
    taking digits no letter has? (`word` and `digits` share a pattern.)"""
    for ch, digit in zip(word, digits):
        held = value[letter_id(ch)]
        if held >= 0:
            if held != int(digit):
                return False
        elif used >> int(digit) & 1:
            return False
    return True
