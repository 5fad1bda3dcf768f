"""The exhaustive digit search of a long multiplication's rows: every assignment of distinct
digits (base 10, no leading zero) under which the multiplicand times each row's multiplier digit
is that row's partial product, worked column by column from the units with a carry per row.

A long multiplication's printed rows, without its product, are `PartialProducts`: the multiplicand, the
letter with no row (its digit is 0) if any, and for each other multiplier letter its partial
product. `solutions(rows)` yields every assignment of their letters; the product is then the
multiplicand times the multiplier, one number per assignment (`product_digits`), so the words
that can stand for it are looked up rather than tried one by one.

The digits backend (`smtcrypt.engine.digits`) searches the same rows column by column and finds the
same assignments, but it plans each problem and writes and compiles a Python search for it; the
generator searches each set of rows once, so the plan would cost more than this whole search does
(and the rows would first be written as a formula, read and checked).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

BASE = 10
CHOOSE, ROW, TOP = 0, 1, 2  # the search's steps: give a letter a digit, a row's column, a row's last carry

Op = tuple[int, int, int, int]  # (step, letter or row, partial product's letter or -1, column)


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


class PartialProductSearch:
    """The depth-first search over one `PartialProducts`: the steps are planned once, then run."""

    def __init__(self, rows: PartialProducts):
        self.rows = rows
        top = [letter_id(ch) for ch in reversed(rows.multiplicand)]
        self.width = len(top)
        self.nonzero = {top[-1]} | {letter_id(word[0]) for _, word in rows.rows}
        self.nonzero |= {letter_id(letter) for letter, _ in rows.rows}
        self.multipliers = [letter_id(letter) for letter, _ in rows.rows]
        self.partials = [[letter_id(ch) for ch in reversed(word)] for _, word in rows.rows]
        self.ops: list[Op] = []
        for column, letter in enumerate(top):
            self.ops.append((CHOOSE, letter, -1, 0))
            for row, digit in enumerate(self.multipliers):
                if column == 0:
                    self.ops.append((CHOOSE, digit, -1, 0))
                self.ops.append((ROW, row, self.partials[row][column] if column < len(self.partials[row]) else -1,
                                 column))
        self.ops.extend((TOP, row, -1, 0) for row in range(len(self.multipliers)))
        self.top = top
        self.value = [-1] * 26
        self.used = 0
        self.carry = [[0] * (self.width + 1) for _ in rows.rows]
        if rows.zero is not None:
            self.value[letter_id(rows.zero)] = 0
            self.used = 1

    def solutions(self) -> Iterator[list[int]]:
        """Every assignment, as the digit of each letter A-Z (-1 for a letter not in the rows); the
        list yielded is the search's own, valid until the next."""
        if self.rows.zero is not None and letter_id(self.rows.zero) in self.nonzero:
            return
        yield from self.step(0)

    def step(self, index: int) -> Iterator[list[int]]:
        if index == len(self.ops):
            yield self.value
            return
        kind, subject, letter, column = self.ops[index]
        if kind == CHOOSE:
            yield from self.choose(index, subject)
        elif kind == ROW:
            total = self.value[self.top[column]] * self.value[self.multipliers[subject]] + self.carry[subject][column]
            self.carry[subject][column + 1] = total // BASE
            yield from self.place(index, letter, total % BASE)
        else:
            yield from self.finish(index, subject)

    def choose(self, index: int, letter: int) -> Iterator[list[int]]:
        if self.value[letter] >= 0:
            yield from self.step(index + 1)
            return
        for digit in range(1 if letter in self.nonzero else 0, BASE):
            if not self.used >> digit & 1:
                self.value[letter] = digit
                self.used |= 1 << digit
                yield from self.step(index + 1)
                self.used &= ~(1 << digit)
        self.value[letter] = -1

    def place(self, index: int, letter: int, digit: int) -> Iterator[list[int]]:
        """The partial product's `letter` must stand for `digit`."""
        held = self.value[letter]
        if held >= 0:
            if held == digit:
                yield from self.step(index + 1)
        elif not self.used >> digit & 1 and not (digit == 0 and letter in self.nonzero):
            self.value[letter] = digit
            self.used |= 1 << digit
            yield from self.step(index + 1)
            self.used &= ~(1 << digit)
            self.value[letter] = -1

    def finish(self, index: int, row: int) -> Iterator[list[int]]:
        """The row's last carry: its partial product's extra first letter, or nothing."""
        carry = self.carry[row][self.width]
        partial = self.partials[row]
        if len(partial) == self.width:
            if carry == 0:
                yield from self.step(index + 1)
        elif carry:
            yield from self.place(index, partial[self.width], carry)


def solutions(rows: PartialProducts) -> Iterator[list[int]]:
    """Every assignment of the rows' letters (see `PartialProductSearch.solutions`)."""
    if any(len(word) not in (len(rows.multiplicand), len(rows.multiplicand) + 1) for _, word in rows.rows):
        return iter(())
    return PartialProductSearch(rows).solutions()


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
