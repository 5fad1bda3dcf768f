"""The typed formula tree: what `parse` produces and every later stage reads.

No Lark object leaves the parser; these frozen dataclasses are the program's own
data. Each node keeps the `Span` of source text it came from, so that later
stages (check, verify, render) can point at it. Nodes compare by identity:
two `A`s at different places are different nodes.
"""

from __future__ import annotations

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
