"""The rules of long division: the rows under a quotient, divisor and dividend as equations.

Per nonzero quotient digit: the divisor times it (ending under the dividend digit the quotient digit
stands over), a rule, and the remainder with the next dividend digits brought down; a quotient
digit with no rows is 0, and the divisor does not go into the value it stands over. Each step's
remainder is at least 0 and less than the divisor, and at the end the divisor times the quotient
plus the final remainder is the dividend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from smtcrypt.notations.layout.formula import Formula, Power, PrintedLayout, PrintedRow, joined, written

if TYPE_CHECKING:
    from smtcrypt.notations.layout.reader import LayoutReader


class Division:
    """The steps of a long division under its quotient, divisor and dividend: per nonzero quotient
    digit the divisor times it, a rule and a remainder (with the next dividend digits brought
    down); the quotient digits passed over are 0."""

    def __init__(self, reader: LayoutReader, quotient: PrintedRow, divisor: PrintedRow, dividend: PrintedRow,
                 nonzero_remainders: bool = False):
        self.reader, self.quotient, self.divisor, self.dividend = reader, quotient, divisor, dividend
        self.nonzero_remainders = nonzero_remainders  # each remainder row's first cell is not 0
        self.size, self.count = len(dividend.names), len(quotient.names)
        # column -> the index of the dividend digit in it
        self.column = {dividend.end - (self.size - 1 - index): index for index in range(self.size)}
        self.equations: list[Formula] = []
        self.current: Formula | None = None  # the value the next product is taken from
        self.remainder: PrintedRow | None = None  # the last remainder read

    def over(self, index: int) -> int:
        """The dividend digit that quotient digit `index` stands over."""
        return self.size - self.count + index

    def digits(self, first: int, last: int) -> Formula:
        """The value of dividend digits first..last, each cell alone (a tail may start with 0)."""
        cells = self.dividend.names[first:last + 1]
        return joined(" + ", [written(cell, " * ", Power(last - first - offset)) if last - first - offset
                              else written(cell) for offset, cell in enumerate(cells)])

    def zero(self, index: int, current: Formula) -> None:
        """Quotient digit `index` has no rows: it is 0, and the divisor does not go into the current value."""
        digit = self.quotient.names[index]
        if digit.isdigit() and digit != "0":
            raise self.reader.error(f"the quotient digit {digit} has no rows under it, so it would be 0",
                                    self.quotient.line, self.quotient.start + index)
        if not digit.isdigit():
            self.equations.append(written(f"{digit} = 0"))
        self.equations.append(written(current, " < ", self.divisor.word))

    def read(self) -> PrintedLayout:
        position, index = 3, 0
        while True:
            index, final = self.step(position, index)
            position += 3
            if final:
                break
            if index >= self.count:
                line = self.reader.rows[position]
                raise self.reader.error("the quotient has no digit left for this step", line,
                                        self.reader.first_column(line))
        assert self.remainder is not None
        self.equations.append(written(self.divisor.word, " * ", self.quotient.word, " + ", self.remainder.word, " = ",
                                      self.dividend.word))
        return self.reader.layout("division", self.equations,
                                  (self.dividend.names, self.divisor.names, self.quotient.names))

    def step(self, position: int, index: int) -> tuple[int, bool]:
        """The rows of one nonzero quotient digit from the position-th line on: the product, a rule
        and the remainder. The next quotient digit's index, and whether this was the last step."""
        product, step = self.product(position, index)
        digit = self.quotient.names[step]
        assert self.current is not None  # set by `product`
        self.equations.append(written(self.divisor.word, f" * {digit} = ", product.word))
        if not digit.isdigit():
            self.equations.append(written(f"{digit} != 0"))
        self.equations.append(written("0 <= ", self.current, " - ", product.word, " < ", self.divisor.word))
        left = written("(", self.current, " - ", product.word, ")")
        self.reader.rule(self.reader.take(position + 1, "a rule under the product"), "under the product")
        final = position + 3 >= len(self.reader.rows)
        reach = self.remainder_row(position + 2, step, final)
        self.bring_down(left, step, reach, final)
        self.current = self.remainder_word()
        return (reach - self.over(0) if not final else self.count), final

    def product(self, position: int, index: int) -> tuple[PrintedRow, int]:
        """The divisor times a quotient digit, and the index of that digit (the ones skipped are 0)."""
        line = self.reader.take(position, "the divisor times a quotient digit")
        product = self.reader.whole(line, "the divisor times a quotient digit")
        if product.end not in self.column or not self.over(0) <= self.column[product.end] <= self.size - 1:
            raise self.reader.error("this row must end under a dividend digit that a quotient digit stands over",
                                    line, product.end)
        step = self.column[product.end] - self.over(0)  # the quotient digit it belongs to
        if step < index:
            raise self.reader.error("each product ends further right than the one above", line, product.end)
        if self.remainder is not None and self.remainder.end != product.end:
            raise self.reader.error("the product must end in the column of the remainder above it", line,
                                    product.end)
        for skipped in range(index, step):  # digits 0 before the first product
            self.zero(skipped, written("(", self.digits(0, self.over(skipped)), ")"))
        if self.current is None:
            prefix = self.dividend.names[:self.over(step) + 1]
            self.current = (written(prefix) if not prefix.isdigit() and not step
                            else written("(", self.digits(0, self.over(step)), ")"))
        if self.quotient.names[step] == "0":
            raise self.reader.error("this quotient digit is 0, so it has no rows", self.quotient.line,
                                    self.quotient.start + step)
        return product, step

    def remainder_row(self, position: int, step: int, final: bool) -> int:
        """Reads the remainder; the index of the last dividend digit brought down into it."""
        line = self.reader.take(position, "a remainder")
        self.remainder = row = self.reader.whole(line, "a remainder")
        if self.nonzero_remainders and not row.names[0].isdigit():
            self.equations.append(written(f"{row.names[0]} != 0"))
        reach = self.column.get(row.end, -1)
        if final and reach != self.size - 1:
            raise self.reader.error("the final remainder must end under the dividend's last digit", line, row.end)
        if not final and reach <= self.over(step):
            raise self.reader.error("the remainder must end under a dividend digit to the right of the product's "
                                    "last digit, the next one brought down", line, row.end)
        return reach

    def bring_down(self, left: Formula, step: int, reach: int, final: bool) -> None:
        """The remainder is what is left with the dividend digits up to `reach` brought down; the
        quotient digits passed over on the way are 0."""
        last = self.over(step)
        for skipped in range(step + 1, reach - self.over(0) + (1 if final else 0)):
            brought = self.digits(last + 1, self.over(skipped))
            self.zero(skipped, written("(", left, " * ", Power(self.over(skipped) - last), " + ", brought, ")"))
        if reach > last:
            self.equations.append(written(left, " * ", Power(reach - last), " + ", self.digits(last + 1, reach), " = ",
                                          self.remainder_word()))
        else:  # the last quotient digit: nothing left to bring down
            self.equations.append(written(left, " = ", self.remainder_word()))

    def remainder_word(self) -> Formula:
        assert self.remainder is not None
        return self.remainder.word
