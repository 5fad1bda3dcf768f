"""Long multiplication and long division pasted as printed, turned into equations between words.

A cell holds a letter (in either case: `p` is the letter P), a literal digit or a `?` (a digit of
its own). Only the right edges of the rows carry meaning: a partial product ends under the
multiplier digit it belongs to, a row of a division ends under the dividend digit its quotient
digit stands over. The layout becomes an
ordinary formula (each row an equation between words, and the rules of long division as
comparisons), so every search, proof and the exact re-check apply to it unchanged; its `?` cells
are named by letters outside A-Z (`parse.WILDCARD_NAMES`), which the parser accepts only in a
formula made here. Each solution is shown filled into the layout as it was given. Conditions on
the letters (`LayoutFormula`) follow the equations in the same formula.

Multiplication::

        7??          multiplicand
      x  ??          x, * or × and the multiplier
      -----
       ?8??          one partial product per nonzero multiplier digit, the last digit's first,
      ?9??           each ending under its digit (none for a one-digit multiplier)
      -----
      ?5???          the product

Division::

           ?7?       the quotient, its last digit over the dividend's last digit
         -----
     2? ) ????       divisor ) dividend
          ??         per nonzero quotient digit: the divisor times it, ending under the dividend
          --         digit the quotient digit stands over; a rule; the remainder with the next
          ???        dividend digits brought down (one more per quotient digit 0), or at the end
          ...        the final remainder, ending under the dividend's last digit
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from smtcrypt.core.check import Problem, check
from smtcrypt.core.numerals import DIGIT_CHARS
from smtcrypt.core.parse import WILDCARD_NAMES, parse
from smtcrypt.core.results import FormulaText, join
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import Constraints, Name, walk, words
from smtcrypt.errors import FormulaError, FormulaNameError, LayoutError

if TYPE_CHECKING:
    from smtcrypt.core.results import Solution

OPERATORS = ("x", "*", "×")
CELL = re.compile(r"[A-Za-z0-9?]+")
RULE = re.compile(r"-+|=+")


@dataclass(frozen=True)
class Power:
    """A power of the base, a place value: written out once the base is known."""

    exponent: int

    def text(self, base: int) -> str:
        return str(base ** self.exponent)


@dataclass(frozen=True)
class Literal:
    """A row of literal digits: its value in the base, once the base is known."""

    digits: str

    def text(self, base: int) -> str:
        bad = next((digit for digit in self.digits if int(digit) >= base), None)
        if bad is not None:
            raise LayoutError(f"{bad} is not a digit in base {base}")
        return str(int(self.digits, base))


Piece = str | Power | Literal  # formula text, a place value or a literal row
Formula = tuple[Piece, ...]  # an expression or equation in pieces, written out by `Layout.formula(base)`


def written(*parts: Piece | Formula) -> Formula:
    """Pieces and formulas joined into one formula, in order."""
    joined: list[Piece] = []
    for part in parts:
        joined.extend(part if isinstance(part, tuple) else (part,))
    return tuple(joined)


def joined(separator: str, formulas: Sequence[Formula]) -> Formula:
    """Formulas with `separator` between them (" + " for a sum)."""
    return written(*(piece for index, formula in enumerate(formulas)
                     for piece in ((separator,) if index else ()) + formula))


@dataclass(frozen=True)
class Row:
    """A number as printed: its cells' names (letters, digits, hidden names) and where it stands."""

    names: str
    line: int  # 0-based
    start: int  # column of its first cell
    end: int  # column of its last cell: its right edge

    @property
    def word(self) -> Formula:
        """The row in the formula: a word, or for literal digits alone their value in the base (a
        plain number is decimal)."""
        return (self.names,) if not self.names.isdigit() else (Literal(self.names),)


@dataclass
class Layout:
    """A parsed layout: its kind, its text, the formula its rows make, and its cells."""

    kind: str  # "multiplication" or "division"
    text: str
    lines: list[str]
    equations: list[Formula] = field(default_factory=list)  # written out once the base is known
    cells: dict[tuple[int, int], str] = field(default_factory=dict)  # (line, column) -> the cell's name
    spelling: dict[str, str] = field(default_factory=dict)  # a letter -> as the layout first writes it (p for P)
    hidden: int = 0  # how many cells '?' there are: WILDCARD_NAMES[:hidden] name them

    def formula(self, base: int = 10) -> str:
        """The rows' equations, one a line, with the base's powers and literal numbers written out."""
        return "\n".join("".join(piece if isinstance(piece, str) else piece.text(base) for piece in equation)
                         for equation in self.equations)

    def block(self, solution: Solution) -> str:
        """A solution for people: the filled-in layout, the letters' digits if any, and a blank line."""
        letters = " ".join(f"{self.spelling.get(name, name)}={DIGIT_CHARS[value] if name.isupper() else value}"
                           for name, value in solution.mapping.items())
        return solution.text + (f"\n  /  {letters}" if letters else "") + "\n"

    def filler(self, problem: Problem) -> Callable[[dict[str, int]], str]:
        """A solution's text: the layout with every cell's digit filled in, spacing kept."""
        lines = [list(line) for line in self.lines]
        cells = [(line, column, name) for (line, column), name in self.cells.items() if not name.isdigit()]

        def fill(assignment: dict[str, int]) -> str:
            for line, column, name in cells:
                lines[line][column] = DIGIT_CHARS[assignment[name]]
            return "\n".join("".join(line) for line in lines)
        return fill


class LayoutFormula:
    """A layout's equations and, after them, conditions on its letters (formulas as `Puzzle` takes
    them): parsed and checked as one formula, so that a condition's letter is the layout's letter
    and a new letter is one more letter of the puzzle under the same rules. Errors in a condition
    point at the condition's own text, not at the formula made here.

    The conditions' `?`s are named after the layout's, so each is a digit of its own as in any
    formula. `conditions_allow_leading_zeros`: words in the conditions may start with 0 while the
    layout's rows keep the rule (enigma.py's `--extra` expressions under a division).
    """

    def __init__(self, layout: Layout, conditions: FormulaText | None, base: int = 10):
        self.layout = layout
        self.conditions = "" if conditions is None else join(conditions)
        equations = layout.formula(base)
        if not self.conditions.strip(" \t\r\n;,"):
            self.conditions, self.source, self.offset = "", equations, len(equations)
            return
        self.refuse_lowercase_letters(parse(self.conditions))  # errors point at the conditions as written
        self.offset = len(equations) + 1
        self.source = equations + "\n" + self.named_wildcards(self.conditions, layout.hidden)

    def refuse_lowercase_letters(self, conditions: Constraints) -> None:
        """A condition's lowercase name that is a letter the layout writes lowercase is refused: in a
        formula it would be an integer unknown, not the letter, and the condition would quietly miss."""
        written = {spelled for spelled in self.layout.spelling.values() if spelled.islower()}
        for constraint in conditions.constraints:
            for node in walk(constraint):
                if isinstance(node, Name) and node.name in written:
                    raise FormulaNameError(
                        f"{node.name!r} is the layout's letter {node.name.upper()}: a condition names it "
                        f"{node.name.upper()} (a lowercase name in a formula is an integer unknown)",
                        conditions.source, node.span.start, node.span.end - node.span.start)

    @staticmethod
    def named_wildcards(text: str, first: int) -> str:
        """Each `?` replaced by the next hidden name from WILDCARD_NAMES[first] on, one character for one."""
        pieces = text.split("?")
        if len(pieces) - 1 > len(WILDCARD_NAMES) - first:
            raise FormulaError(f"more than {len(WILDCARD_NAMES)} cells and wildcards '?' in the layout and its "
                               "conditions", text, text.rindex("?"))
        return pieces[0] + "".join(WILDCARD_NAMES[first + index] + piece for index, piece in enumerate(pieces[1:]))

    @contextmanager
    def pointing_at_conditions(self) -> Iterator[None]:
        """A `FormulaError` in the conditions' part of the formula raised again at the conditions' text."""
        try:
            yield
        except FormulaError as error:
            if error.position is None or not self.conditions or error.position < self.offset:
                raise
            raise type(error)(error.message, self.conditions, error.position - self.offset,
                              error.length) from None

    def parse(self) -> Constraints:
        with self.pointing_at_conditions():
            return parse(self.source, named_cells=True)

    def check(self, tree: Constraints, rules: Rules, *, conditions_allow_leading_zeros: bool = False) -> Problem:
        """The checked problem; with `conditions_allow_leading_zeros` only the layout's words keep
        their first letter from 0 (checked with leading zeros allowed, so that every bound the
        encoders take from the rules holds; the layout's heads then kept from 0 by the problem)."""
        with self.pointing_at_conditions():
            if not conditions_allow_leading_zeros or rules.allow_leading_zeros or not self.conditions:
                return check(tree, rules)
            problem = check(tree, dataclasses.replace(rules, allow_leading_zeros=True))
        heads = frozenset(word.letters[0] for word in words(tree) if word.span.start < self.offset
                          and len(word.letters) > 1 and word.letters[0].isalpha())
        allowed = {letter: digits - {0} if letter in heads else digits for letter, digits in problem.allowed.items()}
        return dataclasses.replace(problem, leading=heads, allowed=allowed)


def parse_layout(text: str, *, nonzero_remainders: bool = False) -> Layout:
    """A long multiplication or division as printed, into its equations; a `LayoutError` (with line
    and column) where it does not follow the layout. `nonzero_remainders`: no remainder row of a
    division starts with 0, a one-digit remainder included (enigma.py's rule: it writes a remainder
    0 as the literal 0, so a remainder written with a letter or '?' is not 0)."""
    text = text.expandtabs(8).replace("\r\n", "\n").replace("\r", "\n")
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    source = "\n".join(lines)
    parser = _Reader(source, lines)
    if not any(line.strip() for line in lines):
        raise LayoutError("empty layout: expected a long multiplication or a long division", source, 0)
    if any(")" in line for line in lines):
        return parser.division(nonzero_remainders)
    return parser.multiplication()


class _Reader:
    """Reads rows off the lines, naming each `?` by the next hidden letter, in reading order."""

    def __init__(self, source: str, lines: list[str]):
        self.source, self.lines = source, lines
        self.offsets = [0]
        for line in lines:
            self.offsets.append(self.offsets[-1] + len(line) + 1)
        self.rows = [index for index, line in enumerate(lines) if line.strip()]  # the non-blank lines
        self.cells: dict[tuple[int, int], str] = {}
        self.spelling: dict[str, str] = {}
        self.hidden = 0

    # --- errors and small pieces -------------------------------------------------------------------

    def error(self, message: str, line: int, column: int = 0, length: int = 1) -> LayoutError:
        return LayoutError(message, self.source, self.offsets[line] + column, length)

    def first_column(self, line: int) -> int:
        return len(self.lines[line]) - len(self.lines[line].lstrip())

    def number(self, line: int, start: int, end: int, what: str) -> Row:
        """The cells lines[line][start:end+1] as a row, each `?` named."""
        text = self.lines[line][start:end + 1]
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
        return Row("".join(names), line, start, end)

    def whole(self, line: int, what: str) -> Row:
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

    def layout(self, kind: str, equations: list[Formula]) -> Layout:
        return Layout(kind, self.source, list(self.lines), equations, dict(self.cells), dict(self.spelling),
                      self.hidden)

    # --- long multiplication -----------------------------------------------------------------------

    def multiplication(self) -> Layout:
        top = self.whole(self.take(0, "the multiplicand"), "the multiplicand")
        multiplier = self.multiplier()
        if top.end != multiplier.end:
            raise self.error("the multiplicand and the multiplier must end in the same column", top.line, top.end)
        self.rule(self.take(2, "a rule under the multiplier"), "under the multiplier")
        if len(multiplier.names) == 1:
            product = self.product(3, multiplier.end)
            return self.layout("multiplication", [written(top.word, f" * {multiplier.names} = ", product.word)])
        partials, position = self.partials(multiplier)
        product = self.product(position + 1, multiplier.end)
        equations = self.digit_products(top, multiplier, partials)
        terms = [written(partials[place].word, *((" * ", Power(place)) if place else ())) for place in sorted(partials)]
        equations.append(written(joined(" + ", terms), " = ", product.word))
        return self.layout("multiplication", equations)

    def multiplier(self) -> Row:
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

    def product(self, position: int, end: int) -> Row:
        """The product, the layout's last row, ending under the multiplier's last digit (column `end`)."""
        product = self.whole(self.take(position, "the product"), "the product")
        self.aligned(product, end, "the product must end under the multiplier's last digit")
        self.nothing_after(position + 1)
        return product

    def partials(self, multiplier: Row) -> tuple[dict[int, Row], int]:
        """The partial products up to the rule under them, by the place of their multiplier digit
        (0: the last digit), and the position of that rule."""
        partials: dict[int, Row] = {}
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

    def digit_products(self, top: Row, multiplier: Row, partials: dict[int, Row]) -> list[Formula]:
        """One equation per multiplier digit: the multiplicand times it is its partial product, or
        the digit is 0 where it has none."""
        equations: list[Formula] = []
        count = len(multiplier.names)
        for place in range(count):
            digit = multiplier.names[count - 1 - place]
            column = multiplier.end - place
            if place in partials:
                if digit == "0":
                    raise self.error("this multiplier digit is 0, so it has no partial product", multiplier.line,
                                     column)
                equations.append(written(top.word, f" * {digit} = ", partials[place].word))
                if not digit.isdigit():
                    equations.append(written(f"{digit} != 0"))
            elif not digit.isdigit():
                equations.append(written(f"{digit} = 0"))  # no partial product: the digit is 0
            elif digit != "0":
                raise self.error(f"the multiplier digit {digit} has no partial product ending under it",
                                 multiplier.line, column)
        return equations

    def aligned(self, row: Row, end: int, message: str) -> None:
        if row.end != end:
            raise self.error(message, row.line, row.end)

    def nothing_after(self, position: int) -> None:
        if position < len(self.rows):
            line = self.rows[position]
            raise self.error("unexpected line after the end of the layout", line, self.first_column(line))

    # --- long division -----------------------------------------------------------------------------

    def division(self, nonzero_remainders: bool = False) -> Layout:
        quotient = self.whole(self.take(0, "the quotient"), "the quotient")
        self.rule(self.take(1, "a rule over the dividend"), "over the dividend")
        divisor, dividend = self.divisor_and_dividend()
        if quotient.end != dividend.end:
            raise self.error("the quotient's last digit must stand over the dividend's last digit", quotient.line,
                             quotient.end)
        if len(quotient.names) > len(dividend.names):
            raise self.error("the quotient has more digits than the dividend", quotient.line, quotient.start)
        return _Division(self, quotient, divisor, dividend, nonzero_remainders).read()

    def divisor_and_dividend(self) -> tuple[Row, Row]:
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


class _Division:
    """The steps of a long division under its quotient, divisor and dividend: per nonzero quotient
    digit the divisor times it, a rule and a remainder (with the next dividend digits brought
    down); the quotient digits passed over are 0."""

    def __init__(self, reader: _Reader, quotient: Row, divisor: Row, dividend: Row, nonzero_remainders: bool = False):
        self.reader, self.quotient, self.divisor, self.dividend = reader, quotient, divisor, dividend
        self.nonzero_remainders = nonzero_remainders  # each remainder row's first cell is not 0
        self.size, self.count = len(dividend.names), len(quotient.names)
        # column -> the index of the dividend digit in it
        self.column = {dividend.end - (self.size - 1 - index): index for index in range(self.size)}
        self.equations: list[Formula] = []
        self.current: Formula | None = None  # the value the next product is taken from
        self.remainder: Row | None = None  # the last remainder read

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

    def read(self) -> Layout:
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
        return self.reader.layout("division", self.equations)

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

    def product(self, position: int, index: int) -> tuple[Row, int]:
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


def read_layout(name: str) -> str:
    """The layout from a file, or from standard input for `-`."""
    if name == "-":
        return sys.stdin.read()
    with open(name, encoding="utf-8") as handle:
        return handle.read()
