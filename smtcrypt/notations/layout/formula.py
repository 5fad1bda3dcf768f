"""A layout as read: its rows, the equations they make, and a solution filled into its text.

The equations are kept as parts (`Part`) of the formula tree still to be made: a row of literal
digits is a number in the puzzle's base and a place value a power of it, so the nodes are built once
the base is known (`PrintedLayout.constraints(base)`): a layout is read before its puzzle's rules
are. Each part keeps the span of the layout's text it stands for (a row's word its cells, an
equation the row it is about), so that the checker's errors point into the layout as printed.
`PrintedLayout.formula(base)` writes the same equations as formula text, to be shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from smtcrypt.core.check import Problem
from smtcrypt.core.letters import is_letter
from smtcrypt.core.numerals import digit_char, place_values
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Span, Word, number
from smtcrypt.errors import LayoutError

if TYPE_CHECKING:
    from smtcrypt.core.results import Solution

WRITTEN_OPS = {"==": "="}  # a comparison as the layout's equations are shown (`=`), where the tree's differs


@dataclass(frozen=True)
class RowNumber:
    """A printed row as a number: a word of its cells' names, or for literal digits alone their
    value in the base."""

    names: str
    span: Span

    def value(self, base: int, source: str) -> int:
        """The literal digits' value in the base; a `LayoutError` under a digit the base lacks."""
        bad = next((offset for offset, digit in enumerate(self.names) if int(digit) >= base), None)
        if bad is not None:
            raise LayoutError(f"{self.names[bad]} is not a digit in base {base}", source, self.span.start + bad)
        return place_values(self.names, base)[1]  # bases past 36 too, which `int(text, base)` stops at

    def node(self, base: int, source: str) -> Expr:
        return Word(self.names, self.span) if not self.names.isdigit() else number(self.value(base, source), self.span)

    def text(self, base: int, source: str) -> str:
        return self.names if not self.names.isdigit() else str(self.value(base, source))


@dataclass(frozen=True)
class Written:
    """Cells as a formula writes them: a word, or digits alone a decimal number (a single digit has
    its own value in every base it is a digit of), or the constant 0 of an equation."""

    names: str
    span: Span

    def node(self, base: int, source: str) -> Expr:
        if self.names.isdigit():
            return Number(Fraction(int(self.names)), self.names, self.span)
        return Word(self.names, self.span)

    def text(self, base: int, source: str) -> str:
        return self.names


@dataclass(frozen=True)
class Power:
    """A power of the base, a place value: a number once the base is known."""

    exponent: int
    span: Span

    def node(self, base: int, source: str) -> Expr:
        return number(base ** self.exponent, self.span)

    def text(self, base: int, source: str) -> str:
        return str(base ** self.exponent)


@dataclass(frozen=True)
class Operation:
    """An arithmetic operation; written without brackets (a `Group` holds them)."""

    op: str
    left: Part
    right: Part
    span: Span

    def node(self, base: int, source: str) -> Expr:
        return BinOp(self.op, self.left.node(base, source), self.right.node(base, source), self.span)

    def text(self, base: int, source: str) -> str:
        return f"{self.left.text(base, source)} {self.op} {self.right.text(base, source)}"


@dataclass(frozen=True)
class Group:
    """A part in brackets: written so, the same node."""

    inner: Part

    @property
    def span(self) -> Span:
        return self.inner.span

    def node(self, base: int, source: str) -> Expr:
        return self.inner.node(base, source)

    def text(self, base: int, source: str) -> str:
        return f"({self.inner.text(base, source)})"


@dataclass(frozen=True)
class Relation:
    """An equation or a chain of comparisons (`0 <= R < D`), its operators as the tree has them."""

    operands: tuple[Part, ...]
    ops: tuple[str, ...]
    span: Span

    def node(self, base: int, source: str) -> Expr:
        return Compare(tuple(operand.node(base, source) for operand in self.operands), self.ops, self.span)

    def text(self, base: int, source: str) -> str:
        parts = [self.operands[0].text(base, source)]
        for op, operand in zip(self.ops, self.operands[1:]):
            parts += [WRITTEN_OPS.get(op, op), operand.text(base, source)]
        return " ".join(parts)


# an expression or equation, made into nodes once the base is known
Part = RowNumber | Written | Power | Operation | Group | Relation


def chain(op: str, parts: Sequence[Part], span: Span) -> Part:
    """`a op b op c` as the parser reads it: from the left (`(a op b) op c`)."""
    result = parts[0]
    for part in parts[1:]:
        result = Operation(op, result, part, span)
    return result


@dataclass(frozen=True)
class PrintedRow:
    """A number as printed: its cells' names (letters, digits, hidden names) and where it stands."""

    names: str
    line: int  # 0-based
    start: int  # column of its first cell
    end: int  # column of its last cell: its right edge
    span: Span  # its cells in the layout's text

    @property
    def word(self) -> RowNumber:
        """The row in the formula: a word, or for literal digits alone their value in the base."""
        return RowNumber(self.names, self.span)

    def cell(self, index: int) -> Written:
        """Its index-th cell alone, as written in a formula."""
        return Written(self.names[index], self.cell_span(index))

    def written(self, first: int, last: int) -> Written:
        """Its cells first..last together, as written in a formula (a word, for cells not all digits)."""
        span = self.cell_span(first)
        return Written(self.names[first:last + 1], Span(span.start, self.span.start + last + 1, span.line,
                                                        span.column))

    def cell_span(self, index: int) -> Span:
        span = self.span
        return Span(span.start + index, span.start + index + 1, span.line, span.column + index)


@dataclass
class PrintedLayout:
    """A parsed layout: its kind, its text, the equations its rows make, and its cells."""

    kind: str  # "multiplication" or "division"
    text: str
    lines: list[str]
    equations: list[Relation] = field(default_factory=list)  # made into nodes once the base is known
    cells: dict[tuple[int, int], str] = field(default_factory=dict)  # (line, column) -> the cell's name
    spelling: dict[str, str] = field(default_factory=dict)  # a letter -> as the layout first writes it (p for P)
    hidden: int = 0  # how many cells '?' there are: WILDCARD_NAMES[:hidden] name them
    # a division's dividend, divisor and quotient by their cells' names (a digit names itself), so
    # that a solution's numbers are read off its mapping, not off the layout filled in
    operands: tuple[str, ...] = ()

    def constraints(self, base: int = 10) -> tuple[Expr, ...]:
        """The rows' equations as the formula's nodes in `base`, their spans in the layout's text."""
        return tuple(equation.node(base, self.text) for equation in self.equations)

    def formula(self, base: int = 10) -> str:
        """The rows' equations as formula text, one a line (to be shown: `constraints` is what is searched)."""
        return "\n".join(equation.text(base, self.text) for equation in self.equations)

    def block(self, solution: Solution) -> str:
        """A solution for people: the filled-in layout, the letters' digits if any, and a blank line."""
        letters = " ".join(f"{self.spelling.get(name, name)}={digit_char(value) if is_letter(name) else value}"
                           for name, value in solution.mapping.items())
        return solution.text + (f"\n  /  {letters}" if letters else "") + "\n"

    def filler(self, problem: Problem) -> Callable[[dict[str, int]], str]:
        """A solution's text: the layout with every cell's digit filled in, spacing kept."""
        lines = [list(line) for line in self.lines]
        cells = [(line, column, name) for (line, column), name in self.cells.items() if not name.isdigit()]

        def fill(assignment: dict[str, int]) -> str:
            for line, column, name in cells:
                lines[line][column] = digit_char(assignment[name])
            return "\n".join("".join(line) for line in lines)
        return fill

