"""The rules of long division: the rows under a quotient, divisor and dividend as equations.

Per nonzero quotient digit: the divisor times it (ending under the dividend digit the quotient digit
stands over), a rule, and the remainder with the next dividend digits brought down; a quotient
digit with no rows is 0, and the divisor does not go into the value it stands over. Each step's
remainder is at least 0 and less than the divisor, and at the end the divisor times the quotient
plus the final remainder is the dividend.

The rows come from whoever reads them (the printed text, `reader`, or rows given as they are,
`rows`), one at a time and in reading order, so that the first fault found is the same either way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smtcrypt.notations.layout.formula import (
    Group,
    Operation,
    Part,
    Power,
    PrintedLayout,
    PrintedRow,
    Relation,
    Written,
    chain,
)

if TYPE_CHECKING:
    from smtcrypt.notations.layout.reader import Sheet


class Division:
    """The steps of a long division under its quotient, divisor and dividend: per nonzero quotient
    digit the divisor times it (`product`), a rule and a remainder with the next dividend digits
    brought down (`remainder_row`); the quotient digits passed over are 0. Each equation's span is the
    row (or quotient digit) it is about."""

    def __init__(self, sheet: Sheet, quotient: PrintedRow, divisor: PrintedRow, dividend: PrintedRow,
                 nonzero_remainders: bool = False):
        if quotient.end != dividend.end:
            raise sheet.error("the quotient's last digit must stand over the dividend's last digit", quotient.line,
                              quotient.end)
        if len(quotient.names) > len(dividend.names):
            raise sheet.error("the quotient has more digits than the dividend", quotient.line, quotient.start)
        self.sheet, self.quotient, self.divisor, self.dividend = sheet, quotient, divisor, dividend
        self.nonzero_remainders = nonzero_remainders  # each remainder row's first cell is not 0
        self.size, self.count = len(dividend.names), len(quotient.names)
        # column -> the index of the dividend digit in it
        self.column = {dividend.end - (self.size - 1 - index): index for index in range(self.size)}
        self.equations: list[Relation] = []
        self.current: Part | None = None  # the value the next product is taken from
        self.remainder: PrintedRow | None = None  # the last remainder read
        self.step = 0  # the quotient digit of the last product read
        self.left: Part | None = None  # what that product leaves of the current value

    def over(self, index: int) -> int:
        """The dividend digit that quotient digit `index` stands over."""
        return self.size - self.count + index

    def digits(self, first: int, last: int) -> list[Part]:
        """The terms of the value of dividend digits first..last, each cell alone (a tail may start with 0)."""
        terms: list[Part] = []
        for index in range(first, last + 1):
            cell = self.dividend.cell(index)
            terms.append(Operation("*", cell, Power(last - index, cell.span), cell.span) if last - index else cell)
        return terms

    def zero(self, index: int, current: Part) -> None:
        """Quotient digit `index` has no rows: it is 0, and the divisor does not go into the current value."""
        digit = self.quotient.cell(index)
        if digit.names.isdigit() and digit.names != "0":
            raise self.sheet.error(f"the quotient digit {digit.names} has no rows under it, so it would be 0",
                                   self.quotient.line, self.quotient.start + index)
        if not digit.names.isdigit():
            self.equations.append(Relation((digit, Written("0", digit.span)), ("==",), digit.span))
        self.equations.append(Relation((current, self.divisor.word), ("<",), digit.span))

    def layout(self) -> PrintedLayout:
        """The division read: its equations, and at the end divisor * quotient + remainder = dividend."""
        assert self.remainder is not None
        at = self.dividend.span
        times = Operation("*", self.divisor.word, self.quotient.word, at)
        self.equations.append(Relation((Operation("+", times, self.remainder.word, at), self.dividend.word),
                                       ("==",), at))
        return self.sheet.layout("division", self.equations,
                                 (self.dividend.names, self.divisor.names, self.quotient.names))

    def product(self, product: PrintedRow, index: int) -> None:
        """The divisor times a quotient digit, read when the next quotient digit is `index` (the ones
        skipped are 0): its equations, and what it leaves of the current value."""
        line = product.line
        if product.end not in self.column or not self.over(0) <= self.column[product.end] <= self.size - 1:
            raise self.sheet.error("this row must end under a dividend digit that a quotient digit stands over",
                                   line, product.end)
        step = self.column[product.end] - self.over(0)  # the quotient digit it belongs to
        if step < index:
            raise self.sheet.error("each product ends further right than the one above", line, product.end)
        if self.remainder is not None and self.remainder.end != product.end:
            raise self.sheet.error("the product must end in the column of the remainder above it", line,
                                   product.end)
        for skipped in range(index, step):  # digits 0 before the first product
            self.zero(skipped, Group(chain("+", self.digits(0, self.over(skipped)), self.quotient.cell_span(skipped))))
        if self.current is None:
            prefix = self.dividend.names[:self.over(step) + 1]
            self.current = (self.dividend.written(0, self.over(step)) if not prefix.isdigit() and not step
                            else Group(chain("+", self.digits(0, self.over(step)), product.span)))
        if self.quotient.names[step] == "0":
            raise self.sheet.error("this quotient digit is 0, so it has no rows", self.quotient.line,
                                   self.quotient.start + step)
        digit, at = self.quotient.cell(step), product.span
        self.equations.append(Relation((Operation("*", self.divisor.word, digit, at), product.word), ("==",), at))
        if not digit.names.isdigit():
            self.equations.append(Relation((digit, Written("0", digit.span)), ("!=",), digit.span))
        difference = Operation("-", self.current, product.word, at)
        self.equations.append(Relation((Written("0", at), difference, self.divisor.word), ("<=", "<"), at))
        self.step, self.left = step, Group(difference)

    def remainder_row(self, row: PrintedRow, final: bool) -> int:
        """The remainder under the last product, with the dividend digits brought down (`final`: the
        last row of the division): its equations; the index of the next quotient digit."""
        self.remainder = row
        if self.nonzero_remainders and not row.names[0].isdigit():
            first = row.cell(0)
            self.equations.append(Relation((first, Written("0", first.span)), ("!=",), first.span))
        reach = self.column.get(row.end, -1)
        if final and reach != self.size - 1:
            raise self.sheet.error("the final remainder must end under the dividend's last digit", row.line, row.end)
        if not final and reach <= self.over(self.step):
            raise self.sheet.error("the remainder must end under a dividend digit to the right of the product's "
                                   "last digit, the next one brought down", row.line, row.end)
        self.bring_down(row, reach, final)
        self.current = row.word
        return reach - self.over(0) if not final else self.count

    def bring_down(self, row: PrintedRow, reach: int, final: bool) -> None:
        """The remainder is what is left with the dividend digits up to `reach` brought down; the
        quotient digits passed over on the way are 0."""
        assert self.left is not None
        left, last, at = self.left, self.over(self.step), row.span
        for skipped in range(self.step + 1, reach - self.over(0) + (1 if final else 0)):
            place = self.quotient.cell_span(skipped)
            shifted = Operation("*", left, Power(self.over(skipped) - last, place), place)
            self.zero(skipped, Group(chain("+", [shifted, *self.digits(last + 1, self.over(skipped))], place)))
        if reach > last:
            shifted = Operation("*", left, Power(reach - last, at), at)
            self.equations.append(Relation((chain("+", [shifted, *self.digits(last + 1, reach)], at), row.word),
                                           ("==",), at))
        else:  # the last quotient digit: nothing left to bring down
            self.equations.append(Relation((left, row.word), ("==",), at))

