"""The typed formula tree: what `parse` produces and every later stage reads.

No Lark object leaves the parser; these frozen dataclasses are the program's own
data. Each node keeps the `Span` of source text it came from, so that later
stages (check, verify, render) can point at it. Nodes compare by identity:
two `A`s at different places are different nodes.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

Formula = str  # like "NUM + BER = PLAY"


@dataclass(frozen=True)
class Span:
    """Where a node sits in the source: offsets [start, end), 1-based line and column."""

    start: int
    end: int
    line: int
    column: int


@dataclass(frozen=True, eq=False)
class Word:
    """A run of capitals such as `SEND` (or `ДВА`, `उन्नीस`): a number whose digits are letters.

    `letters` may also hold literal digits 0-9 (`7AB` is 700 + 10*A + B); every other character is a
    letter (core/letters.py), so a word has at least one.
    """

    letters: str
    span: Span

    def text_of_digits(self) -> str:
        return self.letters


@dataclass(frozen=True, eq=False)
class Name:
    """A lowercase or mixed-case identifier that is not a keyword: `x`, `Abc`."""

    name: str
    span: Span


@dataclass(frozen=True, eq=False)
class Number:
    """A literal such as `2` or `0.5`, kept as an exact fraction and as written."""

    value: Fraction
    text: str
    span: Span


@dataclass(frozen=True, eq=False)
class Repeating:
    """A repeating decimal such as `0.(TALK)` or `1.2(3)`: whole digits, a fixed and a repeating part.

    The fixed and repeating parts may hold letters as well as digits; the whole part only digits.
    """

    whole: str
    fixed: str
    period: str
    text: str
    span: Span

    def text_of_digits(self) -> str:
        return self.whole + self.fixed + self.period


@dataclass(frozen=True, eq=False)
class Unary:
    """`-x` or `+x`."""

    op: str
    operand: Expr
    span: Span


@dataclass(frozen=True, eq=False)
class BinOp:
    """An arithmetic operation: one of `+ - * / // % **`."""

    op: str
    left: Expr
    right: Expr
    span: Span


@dataclass(frozen=True, eq=False)
class Compare:
    """A comparison chain `a < b <= c`: len(ops) == len(operands) - 1.

    Ops are normalised: `=` and `is` become `==`, `is not` becomes `!=`.
    """

    operands: tuple[Expr, ...]
    ops: tuple[str, ...]
    span: Span


@dataclass(frozen=True, eq=False)
class BoolOp:
    """`a and b and c` or `a or b`, with Python's value semantics."""

    op: str
    operands: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, eq=False)
class Not:
    """`not x`: 1 if x is zero, else 0."""

    operand: Expr
    span: Span


@dataclass(frozen=True, eq=False)
class Call:
    """A call of a known function: `abs`, `min`, `max`, `sum`, `range`."""

    name: str
    args: tuple[Expr, ...]
    span: Span


@dataclass(frozen=True, eq=False)
class Collection:
    """A `{a, b}` or `(a, b)` literal; only the right side of `in` may hold one."""

    kind: str  # "set" or "tuple"
    items: tuple[Expr, ...]
    span: Span


Expr = Word | Name | Number | Repeating | Unary | BinOp | Compare | BoolOp | Not | Call | Collection


@dataclass(frozen=True, eq=False)
class Constraints:
    """A whole parsed formula: the constraints that must all hold, and the source."""

    constraints: tuple[Expr, ...]
    source: Formula
    # within the limits of every tree (core/limits.py), known: made by the parser, or measured once
    measured: bool = False


# -- small constructors for readers that build trees by code (spans into the user's own text) --------

class Spans:
    """The `Span`s of a reader's nodes in the user's own text, made from offsets: a node built by code
    points where the user wrote it, so that the checker's carets land in that text."""

    def __init__(self, source: str):
        self.starts = [0]  # the offset each line starts at
        position = source.find("\n")
        while position >= 0:
            self.starts.append(position + 1)
            position = source.find("\n", position + 1)

    def __call__(self, start: int, end: int | None = None) -> Span:
        """The span of `source[start:end]` (one character if `end` is None)."""
        line = bisect_right(self.starts, start)
        return Span(start, start + 1 if end is None else end, line, start - self.starts[line - 1] + 1)


# A value of more bits than this is not written out (its text is empty): a number a reader computed
# (an answer's value) is bounded by the checker's size of values, not by the digits a user may write.
NUMBER_TEXT_BITS = 3_000  # about 900 digits, within MAX_NUMBER_DIGITS (core/numerals.py)


def number(value: int | Fraction, span: Span) -> Expr:
    """A constant as the parser would make it of its text: a negative one as `-n`, a fraction as `p / q`
    (for a value a reader worked out: no number of ours is negative or a fraction as written)."""
    value = Fraction(value)
    if value < 0:
        return Unary("-", number(-value, span), span)
    if value.denominator != 1:
        return BinOp("/", number(value.numerator, span), number(value.denominator, span), span)
    text = str(value.numerator) if value.numerator.bit_length() <= NUMBER_TEXT_BITS else ""
    return Number(value, text, span)


def compare(left: Expr, op: str, right: Expr, span: Span) -> Compare:
    """`left op right`, one comparison."""
    return Compare((left, right), (op,), span)


def children(node: Expr) -> tuple[Expr, ...]:
    """The direct sub-expressions of a node, left to right."""
    if isinstance(node, (Word, Name, Number, Repeating)):
        return ()
    if isinstance(node, (Unary, Not)):
        return (node.operand,)
    if isinstance(node, BinOp):
        return (node.left, node.right)
    if isinstance(node, (Compare, BoolOp)):
        return node.operands
    if isinstance(node, Call):
        return node.args
    return node.items


def walk(node: Expr) -> Iterator[Expr]:
    """Every node under `node` (itself included), left to right, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(children(current)))


def words(formula: Constraints) -> Iterator[Word]:
    """Every word occurrence of the formula, in source order."""
    for constraint in formula.constraints:
        for node in walk(constraint):
            if isinstance(node, Word):
                yield node


def numerals(formula: Constraints) -> Iterator[Word | Repeating]:
    """Every node whose digits may be letters (words and repeating decimals), in source order."""
    for constraint in formula.constraints:
        for node in walk(constraint):
            if isinstance(node, (Word, Repeating)):
                yield node


def letters(formula: Constraints) -> tuple[str, ...]:
    """The distinct letters, in order of first appearance: "ODD * ODD" gives ('O', 'D')."""
    return letters_in(numerals(formula))


def letters_in(nodes: Iterable[Expr]) -> tuple[str, ...]:
    """`letters` of nodes walked already (the checker walks each constraint once for all its passes)."""
    return tuple(dict.fromkeys(ch for node in nodes if isinstance(node, (Word, Repeating))
                               for ch in node.text_of_digits() if not ch.isdigit()))


def letters_of(node: Expr) -> set[str]:
    """The letters under `node`, as a set: those a search must give digits before it can evaluate
    the node (`AB * C` -> A, B, C)."""
    return set(letters_in(walk(node)))


def unknowns(formula: Constraints) -> tuple[str, ...]:
    """The lowercase names (integer unknowns), in order of first appearance."""
    return unknowns_in(node for constraint in formula.constraints for node in walk(constraint))


def unknowns_in(nodes: Iterable[Expr]) -> tuple[str, ...]:
    """`unknowns` of nodes walked already."""
    return tuple(dict.fromkeys(node.name for node in nodes if isinstance(node, Name)))


def to_text(node: Expr) -> str:
    """Render fully parenthesised, for tests and messages: "1 + 2 * 3" -> "(1 + (2 * 3))"."""
    if isinstance(node, Word):
        return node.letters
    if isinstance(node, Name):
        return node.name
    if isinstance(node, (Number, Repeating)):
        return node.text
    if isinstance(node, Unary):
        return f"({node.op}{to_text(node.operand)})"
    if isinstance(node, BinOp):
        return f"({to_text(node.left)} {node.op} {to_text(node.right)})"
    if isinstance(node, Compare):
        parts = [to_text(node.operands[0])]
        for op, operand in zip(node.ops, node.operands[1:]):
            parts += [op, to_text(operand)]
        return "(" + " ".join(parts) + ")"
    if isinstance(node, BoolOp):
        return "(" + f" {node.op} ".join(map(to_text, node.operands)) + ")"
    if isinstance(node, Not):
        return f"(not {to_text(node.operand)})"
    if isinstance(node, Call):
        return f"{node.name}(" + ", ".join(map(to_text, node.args)) + ")"
    inner = ", ".join(map(to_text, node.items))
    return "{" + inner + "}" if node.kind == "set" else "(" + inner + ("," if len(node.items) == 1 else "") + ")"
