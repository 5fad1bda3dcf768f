"""The printed text of a layout read row by row: cells, rules and alignment, and long multiplication.

Only the right edges of the rows carry meaning (see the package's docstring). Each `?` is named by
the next hidden letter in reading order; a letter in either case is its capital, and the layout's
own spelling is kept to show it back. A long division's steps are read by `division`.
"""

from __future__ import annotations

import re

from smtcrypt.core.parse import WILDCARD_NAMES
from smtcrypt.core.tree import Span
from smtcrypt.errors import LayoutError
from smtcrypt.notations.layout.division import Division
from smtcrypt.notations.layout.formula import (
    Operation,
    Part,
    Power,
    PrintedLayout,
    PrintedRow,
    Relation,
    Written,
    chain,
)

OPERATORS = ("x", "*", "×")
CELL = re.compile(r"[A-Za-z0-9?]+")
RULE = re.compile(r"-+|=+")
# The largest layout read, refused at the first row beyond it: the digit search plans a long division's
# columns in time that grows as a power of its rows (a 40-digit dividend under a 2-digit divisor: 29 s).
MAX_ROW_DIGITS = 24  # cells of one row (the dividend, a product, ...)
MAX_LAYOUT_CELLS = 400  # cells of the whole layout


def parse_layout(text: str, *, nonzero_remainders: bool = False) -> PrintedLayout:
    """A long multiplication or division as printed, into its equations; a `LayoutError` (with line
    and column) where it does not follow the layout. `nonzero_remainders`: no remainder row of a
    division starts with 0, a one-digit remainder included (enigma.py's rule: it writes a remainder
    0 as the literal 0, so a remainder written with a letter or '?' is not 0)."""
    text = text.expandtabs(8).replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    source = "\n".join(lines)
    parser = LayoutReader(source, lines)
    if not any(line.strip() for line in lines):
        raise LayoutError("empty layout: expected a long multiplication or a long division", source, 0)
    if any(")" in line for line in lines):
        return parser.division(nonzero_remainders)
    return parser.multiplication()


class Sheet:
    """A layout's lines and the cells named on them: each `?` by the next hidden letter, in the order
    the rows are named (reading order), a letter in either case by its capital."""

    def __init__(self, source: str, lines: list[str]):
        self.source, self.lines = source, lines
        self.offsets = [0]
        for line in lines:
            self.offsets.append(self.offsets[-1] + len(line) + 1)
        self.cells: dict[tuple[int, int], str] = {}
        self.spelling: dict[str, str] = {}
        self.hidden = 0

    def error(self, message: str, line: int, column: int = 0, length: int = 1) -> LayoutError:
        return LayoutError(message, self.source, self.offsets[line] + column, length)

    def number(self, line: int, start: int, end: int, what: str) -> PrintedRow:
        """The cells lines[line][start:end+1] as a row, each `?` named."""
        text = self.lines[line][start:end + 1]
        if len(text) > MAX_ROW_DIGITS:
            raise self.error(f"{what}: a row of {len(text):,} cells: the limit is {MAX_ROW_DIGITS}", line, start,
                             len(text))
        if len(self.cells) + len(text) > MAX_LAYOUT_CELLS:
            raise self.error(f"{what}: more than {MAX_LAYOUT_CELLS} cells in the layout, the limit", line, start,
                             len(text))
        if not CELL.fullmatch(text):
            bad = next((offset for offset, ch in enumerate(text) if not CELL.fullmatch(ch)), 0)
            raise self.error(f"{what}: expected letters, digits or '?', not {text[bad]!r}", line, start + bad)
        names = []
        for offset, ch in enumerate(text):
            if ch.isalpha():  # a letter in either case: p and P are the letter P
                self.spelling.setdefault(ch.upper(), ch)
                ch = ch.upper()
            elif ch == "?":
                if self.hidden == len(WILDCARD_NAMES):
                    raise self.error(f"more than {len(WILDCARD_NAMES)} cells '?'", line, start + offset)
                ch = WILDCARD_NAMES[self.hidden]
                self.hidden += 1
            names.append(ch)
            self.cells[(line, start + offset)] = ch
        offset = self.offsets[line] + start
        return PrintedRow("".join(names), line, start, end, Span(offset, offset + len(text), line + 1, start + 1))

    def layout(self, kind: str, equations: list[Relation], operands: tuple[str, ...] = ()) -> PrintedLayout:
        return PrintedLayout(kind, self.source, list(self.lines), equations, dict(self.cells), dict(self.spelling),
                             self.hidden, operands)


class LayoutReader(Sheet):
    """Reads rows off the lines of a printed layout, naming each `?` by the next hidden letter, in reading order."""

    def __init__(self, source: str, lines: list[str]):
        super().__init__(source, lines)
        self.rows = [index for index, line in enumerate(lines) if line.strip()]  # the non-blank lines

    # --- small pieces -------------------------------------------------------------------------------

    def first_column(self, line: int) -> int:
        return len(self.lines[line]) - len(self.lines[line].lstrip())

    def whole(self, line: int, what: str) -> PrintedRow:
        """A line that holds one number and nothing else."""
        content = self.lines[line]
        start = self.first_column(line)
        token = content[start:]
        if " " in token:
            raise self.error(f"{what}: expected one number on this line", line, start + token.index(" ") + 1)
        return self.number(line, start, len(content) - 1, what)

    def rule(self, line: int, what: str) -> None:
        token = self.lines[line].strip()
        if not RULE.fullmatch(token):
            raise self.error(f"expected a rule of dashes ({what}), not {token!r}", line, self.first_column(line),
                             len(token))

    def take(self, position: int, what: str) -> int:
        """The index of the position-th non-blank line, or an error at the end of the layout."""
        if position >= len(self.rows):
            last = len(self.lines) - 1
            raise self.error(f"the layout ends too early: expected {what}", last, max(len(self.lines[last]) - 1, 0))
        return self.rows[position]

    # --- long multiplication -----------------------------------------------------------------------

    def multiplication(self) -> PrintedLayout:
        top = self.whole(self.take(0, "the multiplicand"), "the multiplicand")
        multiplier = self.multiplier()
        if top.end != multiplier.end:
            raise self.error("the multiplicand and the multiplier must end in the same column", top.line, top.end)
        self.rule(self.take(2, "a rule under the multiplier"), "under the multiplier")
        if len(multiplier.names) == 1:
            product = self.product(3, multiplier.end)
            at = product.span
            return self.layout("multiplication", [Relation((Operation("*", top.word, multiplier.cell(0), at),
                                                            product.word), ("==",), at)])
        partials, position = self.partials(multiplier)
        product = self.product(position + 1, multiplier.end)
        equations = self.digit_products(top, multiplier, partials)
        terms: list[Part] = [Operation("*", row.word, Power(place, row.span), row.span) if place else row.word
                             for place, row in sorted(partials.items())]
        equations.append(Relation((chain("+", terms, product.span), product.word), ("==",), product.span))
        return self.layout("multiplication", equations)

    def multiplier(self) -> PrintedRow:
        """The second line: x, * or × and the multiplier."""
        line = self.take(1, "x and the multiplier")
        content = self.lines[line]
        start = self.first_column(line)
        if content[start] not in OPERATORS:
            raise self.error("expected x, * or × and the multiplier on the second line (or a ')' of a long "
                             "division somewhere)", line, start)
        digits_start = start + 1 + len(content[start + 1:]) - len(content[start + 1:].lstrip())
        if digits_start >= len(content):
            raise self.error("expected the multiplier after the operator", line, start)
        return self.number(line, digits_start, len(content) - 1, "the multiplier")

    def product(self, position: int, end: int) -> PrintedRow:
        """The product, the layout's last row, ending under the multiplier's last digit (column `end`)."""
        product = self.whole(self.take(position, "the product"), "the product")
        self.aligned(product, end, "the product must end under the multiplier's last digit")
        self.nothing_after(position + 1)
        return product

    def partials(self, multiplier: PrintedRow) -> tuple[dict[int, PrintedRow], int]:
        """The partial products up to the rule under them, by the place of their multiplier digit
        (0: the last digit), and the position of that rule."""
        partials: dict[int, PrintedRow] = {}
        position = 3
        while True:
            line = self.take(position, "a partial product or a rule")
            if RULE.fullmatch(self.lines[line].strip()):
                break
            row = self.whole(line, "a partial product")
            place = multiplier.end - row.end
            if not 0 <= place < len(multiplier.names):
                raise self.error("a partial product must end under a digit of the multiplier", line, row.end)
            if partials and place <= max(partials):
                raise self.error("partial products go from the multiplier's last digit to its first, each ending "
                                 "under its digit, one column or more to the left of the one above", line, row.end)
            partials[place] = row
            position += 1
        if not partials:
            raise self.error("expected one partial product per nonzero multiplier digit before this rule", line, 0)
        return partials, position

    def digit_products(self, top: PrintedRow, multiplier: PrintedRow,
                       partials: dict[int, PrintedRow]) -> list[Relation]:
        """One equation per multiplier digit: the multiplicand times it is its partial product, or
        the digit is 0 where it has none."""
        equations: list[Relation] = []
        count = len(multiplier.names)
        for place in range(count):
            cell = multiplier.cell(count - 1 - place)
            digit, column = cell.names, multiplier.end - place
            if place in partials:
                if digit == "0":
                    raise self.error("this multiplier digit is 0, so it has no partial product", multiplier.line,
                                     column)
                row = partials[place]
                equations.append(Relation((Operation("*", top.word, cell, row.span), row.word), ("==",), row.span))
                if not digit.isdigit():
                    equations.append(Relation((cell, Written("0", cell.span)), ("!=",), cell.span))
            elif not digit.isdigit():  # no partial product: the digit is 0
                equations.append(Relation((cell, Written("0", cell.span)), ("==",), cell.span))
            elif digit != "0":
                raise self.error(f"the multiplier digit {digit} has no partial product ending under it",
                                 multiplier.line, column)
        return equations

    def aligned(self, row: PrintedRow, end: int, message: str) -> None:
        if row.end != end:
            raise self.error(message, row.line, row.end)

    def nothing_after(self, position: int) -> None:
        if position < len(self.rows):
            line = self.rows[position]
            raise self.error("unexpected line after the end of the layout", line, self.first_column(line))

    # --- long division -----------------------------------------------------------------------------

    def division(self, nonzero_remainders: bool = False) -> PrintedLayout:
        quotient = self.whole(self.take(0, "the quotient"), "the quotient")
        self.rule(self.take(1, "a rule over the dividend"), "over the dividend")
        divisor, dividend = self.divisor_and_dividend()
        division = Division(self, quotient, divisor, dividend, nonzero_remainders)
        position, index = 3, 0
        while True:
            product = self.whole(self.take(position, "the divisor times a quotient digit"),
                                 "the divisor times a quotient digit")
            division.product(product, index)
            self.rule(self.take(position + 1, "a rule under the product"), "under the product")
            final = position + 3 >= len(self.rows)
            index = division.remainder_row(self.whole(self.take(position + 2, "a remainder"), "a remainder"), final)
            position += 3
            if final:
                return division.layout()
            if index >= division.count:
                line = self.rows[position]
                raise self.error("the quotient has no digit left for this step", line, self.first_column(line))

    def divisor_and_dividend(self) -> tuple[PrintedRow, PrintedRow]:
        """The third line: divisor ) dividend."""
        line = self.take(2, "divisor ) dividend")
        content = self.lines[line]
        if ")" not in content:
            raise self.error("expected divisor ) dividend on the third line", line, self.first_column(line))
        bracket = content.index(")")
        left = content[:bracket].rstrip()
        if not left.strip():
            raise self.error("expected the divisor before ')'", line, bracket)
        divisor = self.number(line, len(left) - len(left.lstrip()), len(left) - 1, "the divisor")
        right = content[bracket + 1:]
        if not right.strip():
            raise self.error("expected the dividend after ')'", line, bracket)
        dividend = self.number(line, bracket + 1 + len(right) - len(right.lstrip()), len(content) - 1, "the dividend")
        return divisor, dividend
