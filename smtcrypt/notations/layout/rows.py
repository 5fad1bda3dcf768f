"""A long division given by its rows (enigma.py's SubstitutedDivision gives them so), read from the
rows themselves: each row stands where it would be printed, and the printed text is drawn only to
be shown (each solution fills it in).

The rows are named and the rules of long division applied in the order a printed layout is read
(`reader`), row by row, so the puzzle, its hidden names and its first fault are those of the same
division printed and read back.
"""

from __future__ import annotations

from dataclasses import dataclass

from smtcrypt.notations.layout.division import Division
from smtcrypt.notations.layout.formula import PrintedLayout, PrintedRow
from smtcrypt.notations.layout.reader import Sheet


@dataclass(frozen=True)
class LongDivision:
    """A long division's rows as given, each a number's cells (letters in either case, digits, `?`):
    the dividend, divisor and quotient, and per quotient digit its steps: None for a digit 0 (no
    rows), else its product (the divisor times it) and the row under that product's rule (what is
    left, with the next dividend digits brought down up to the next product; the final remainder
    after the last product, `0` for none)."""

    dividend: str
    divisor: str
    quotient: str
    steps: tuple[tuple[str, str] | None, ...]

    def __post_init__(self) -> None:
        if len(self.steps) != len(self.quotient):  # a caller's mistake, not a fault of the division's
            raise ValueError(f"{len(self.steps)} steps for the {len(self.quotient)} digits of the quotient "
                             f"{self.quotient!r}: one per digit, None for a digit 0")

    def lines(self) -> list[str]:
        """As printed: the quotient over a rule, `divisor ) dividend`, and per nonzero quotient digit
        its product (ending under the dividend digit the quotient digit stands over), a rule as wide,
        and the row under it (ending under the dividend digit brought down last)."""
        size, count = len(self.dividend), len(self.quotient)
        left = len(self.divisor) + 3
        nonzero = [index for index, step in enumerate(self.steps) if step is not None]
        lines = [" " * (left + size - count) + self.quotient, " " * left + "-" * size,
                 f"{self.divisor} ) {self.dividend}"]
        for position, index in enumerate(nonzero):
            step = self.steps[index]
            assert step is not None
            product, row = step
            indent = " " * (left + size - count + index - len(product) + 1)
            lines += [indent + product, indent + "-" * len(product)]
            reach = size - 1 if position + 1 == len(nonzero) else size - count + nonzero[position + 1]
            lines.append(" " * (left + reach - len(row) + 1) + row)
        return lines

    @property
    def text(self) -> str:
        """The division as printed, to be shown."""
        return "\n".join(self.lines()) + "\n"

    def read(self, *, nonzero_remainders: bool = False) -> PrintedLayout:
        """The division's equations, from its rows as they stand printed; a `LayoutError` (with line
        and column in the printed text) where they do not make a long division. `nonzero_remainders`:
        as `parse_layout`'s."""
        lines = self.lines()
        sheet = Sheet("\n".join(lines), lines)
        quotient = self.row(sheet, 0, "the quotient")
        divisor = sheet.number(2, 0, len(self.divisor) - 1, "the divisor")
        dividend = sheet.number(2, len(self.divisor) + 3, len(lines[2]) - 1, "the dividend")
        division = Division(sheet, quotient, divisor, dividend, nonzero_remainders)
        if len(lines) == 3:
            raise sheet.error("the layout ends too early: expected the divisor times a quotient digit", 2,
                              len(lines[2]) - 1)
        index, last = 0, len(lines) - 3
        for position in range(3, len(lines), 3):
            division.product(self.row(sheet, position, "the divisor times a quotient digit"), index)
            index = division.remainder_row(self.row(sheet, position + 2, "a remainder"), position == last)
            if position < last and index >= division.count:
                raise sheet.error("the quotient has no digit left for this step", position + 3,
                                  len(lines[position + 3]) - len(lines[position + 3].lstrip()))
        return division.layout()

    @staticmethod
    def row(sheet: Sheet, line: int, what: str) -> PrintedRow:
        """The number that is the whole line, as printed."""
        text = sheet.lines[line]
        return sheet.number(line, len(text) - len(text.lstrip()), len(text) - 1, what)
