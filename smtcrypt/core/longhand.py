"""Solutions written out long-hand, as on paper: sums with their carries, long multiplication, long division.

`layout(problem, mapping)` reads the shape of the formula: one equation whose one side is a
word and whose other side is
- a sum of words (`SEND + MORE = MONEY`): the addends right-aligned, the carries above;
- a difference of two words (`A - B = C`): the same, with the borrows above;
- a product of two words, or a word squared, or a word times a number (`ODD * ODD = FREAKY`):
  long multiplication with a partial product per digit of the second factor;
- a word divided by a word with an exact quotient (`A / B = C`): long division with every step.
Anything else is the plain line, and so is every solution in a base above 36, whose digits from
36 on are written in brackets (`[36]`) and would not stand in columns. A `Layout` is a list of
rows, each a string right-aligned on one column and a role ("carry", "number", "rule", "result",
"note"), so that a page can draw it; `text()` and `svg()` draw it here.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from smtcrypt.core.letters import display_width, pad_left
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Word

if TYPE_CHECKING:  # only named: a solution draws itself without loading the checker
    from smtcrypt.core.check import Problem

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Row:
    text: str  # right-aligned on the layout's right edge, shifted left by `shift` places
    role: str  # carry | number | rule | result | note
    shift: int = 0


@dataclass(frozen=True)
class Layout:
    """A long-hand layout: its kind (sum, difference, multiplication, division, line) and rows."""

    kind: str
    rows: tuple[Row, ...]

    def text(self) -> str:
        """The rows right-aligned by display width: a combining mark takes no column, a CJK letter two."""
        width = max(display_width(row.text) + row.shift for row in self.rows)
        return "\n".join(pad_left(row.text + " " * row.shift, width).rstrip() for row in self.rows)

    def svg(self, cell: int = 14) -> str:
        """The layout as an SVG image: a monospaced grid, carries small and grey, rules as lines."""
        lines = self.text().split("\n")
        width = max(map(display_width, lines))
        char_w, line_h = cell * 0.62, cell * 1.4
        parts = []
        for index, (row, line) in enumerate(zip(self.rows, lines)):
            y = (index + 1) * line_h
            if row.role == "rule":
                start = len(line) - len(line.lstrip())
                parts.append(f'<line x1="{start * char_w + 4:.1f}" y1="{y - line_h / 2:.1f}" '
                             f'x2="{display_width(line) * char_w + 4:.1f}" y2="{y - line_h / 2:.1f}" stroke="black"/>')
                continue
            if row.role == "carry":  # smaller than the digits: each centred over its column, not run on from the left
                column = 0
                for char in line:
                    if not char.isspace():
                        parts.append(f'<text x="{4 + (column + 0.5) * char_w:.1f}" y="{y:.1f}" text-anchor="middle" '
                                     f'font-size="{cell * 0.75:.0f}" fill="#888">{html.escape(char)}</text>')
                    column += display_width(char)
                continue
            style = {"result": ' font-weight="bold"', "note": ' fill="#555"'}.get(row.role, "")
            parts.append(f'<text x="4" y="{y:.1f}" xml:space="preserve"{style}>{html.escape(line)}</text>')
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * char_w + 8:.0f}" '
                f'height="{(len(lines) + 0.4) * line_h:.0f}" font-family="monospace" font-size="{cell}">'
                + "".join(parts) + "</svg>")


def _word_value(node: Expr, mapping: Mapping[str, int], base: int) -> int | None:
    if isinstance(node, Word):
        value = 0
        for ch in node.letters:
            value = value * base + (int(ch) if ch.isdigit() else mapping[ch])
        return value
    if isinstance(node, Number) and node.value.denominator == 1 and node.value >= 0:
        return int(node.value)
    return None


def _digits(value: int, base: int) -> str:
    if value == 0:
        return "0"
    out = ""
    while value:
        value, digit = divmod(value, base)
        out = DIGITS[digit] + out
    return out


def _terms(node: Expr, sign: int = 1) -> list[tuple[int, Expr]] | None:
    """A chain of + and - as signed operands."""
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        left = _terms(node.left, sign)
        right = _terms(node.right, sign if node.op == "+" else -sign)
        return None if left is None or right is None else left + right
    return [(sign, node)]


def layout(problem: Problem, mapping: Mapping[str, int], plain: str = "") -> Layout:
    """The long-hand layout of a solution of `problem` (the plain line if it has no such shape)."""
    base = problem.rules.base
    constraints = problem.formula.constraints
    if base > len(DIGITS):  # a digit from 36 on is written [36]: several characters, no column of its own
        return Layout("line", (Row(plain, "number"),))
    if len(constraints) == 1 and isinstance(constraints[0], Compare) and constraints[0].ops == ("==",):
        left, right = constraints[0].operands
        for side, word in ((left, right), (right, left)):
            result = _word_value(word, mapping, base)
            if result is None or not isinstance(word, Word):
                continue
            made = (_sum(side, result, mapping, base) or _product(side, result, mapping, base)
                    or _division(side, result, mapping, base))
            if made is not None:
                return made
    return Layout("line", (Row(plain, "number"),))


def _sum(side: Expr, result: int, mapping: Mapping[str, int], base: int) -> Layout | None:
    terms = _terms(side)
    if terms is None or len(terms) < 2:
        return None
    values = [_word_value(node, mapping, base) for _, node in terms]
    known = [value for value in values if value is not None]
    if len(known) < len(values):
        return None
    signs = [sign for sign, _ in terms]
    if all(sign == 1 for sign in signs):
        kind, operator = "sum", "+"
    elif signs == [1, -1]:
        kind, operator = "difference", "-"
    else:
        return None
    texts = [_digits(v, base) for v in known]
    columns = max(len(_digits(result, base)), *map(len, texts))
    marks = _marks(known, columns, base, borrow=kind == "difference")
    carry_text = "".join(DIGITS[m] if m else " " for m in reversed(marks)).rstrip()
    rows = [Row(carry_text + " " * (columns - len(carry_text)), "carry")] if carry_text.strip() else []
    rows.append(Row(texts[0], "number"))
    rows += [Row(f"{operator} {text}", "number") for text in texts[1:]]
    width = max(columns, *(len(text) + 2 for text in texts[1:]))
    rows += [Row("-" * width, "rule"), Row(_digits(result, base), "result")]
    return Layout(kind, tuple(rows))


def _marks(values: list[int], columns: int, base: int, borrow: bool) -> list[int]:
    """The carry into each column of a sum (or the borrow, of a difference), from the right."""
    marks = []
    carry = 0
    for column in range(columns):
        marks.append(carry)
        place = [(v // base ** column) % base for v in values]
        if borrow:
            carry = 1 if place[0] - place[1] - carry < 0 else 0
        else:
            carry = (sum(place) + carry) // base
    return marks


def _factors(side: Expr) -> tuple[Expr, Expr] | None:
    if isinstance(side, BinOp) and side.op == "*":
        return side.left, side.right
    if isinstance(side, BinOp) and side.op == "**" and isinstance(side.right, Number) and side.right.value == 2:
        return side.left, side.left
    return None


def _product(side: Expr, result: int, mapping: Mapping[str, int], base: int) -> Layout | None:
    factors = _factors(side)
    if factors is None:
        return None
    first, second = (_word_value(node, mapping, base) for node in factors)
    if first is None or second is None or not any(isinstance(node, Word) for node in factors):
        return None
    a, b = _digits(first, base), _digits(second, base)
    rows = [Row(a, "number"), Row(f"× {b}", "number")]
    width = max(len(a), len(b) + 2, len(_digits(result, base)))
    rows.append(Row("-" * width, "rule"))
    if len(b) > 1:
        for shift, digit in enumerate(reversed(b)):
            rows.append(Row(_digits(first * int(digit, 36), base), "number", shift))
        rows.append(Row("-" * width, "rule"))
    rows.append(Row(_digits(result, base), "result"))
    return Layout("multiplication", tuple(rows))


def _division(side: Expr, result: int, mapping: Mapping[str, int], base: int) -> Layout | None:
    if not (isinstance(side, BinOp) and side.op == "/"
            and isinstance(side.left, Word) and isinstance(side.right, Word)):
        return None
    dividend, divisor = _word_value(side.left, mapping, base), _word_value(side.right, mapping, base)
    if dividend is None or not divisor or dividend != divisor * result:
        return None
    digits, d = _digits(dividend, base), _digits(divisor, base)
    rows = [Row(_digits(result, base), "result"), Row("-" * (len(digits) + 1), "rule"),
            Row(f"{d} ) {digits}", "number")]
    # each step: the part brought down, the quotient digit times the divisor under it, a rule, the rest
    remainder, started = 0, False
    for index, char in enumerate(digits):
        remainder = remainder * base + int(char, 36)
        quotient = remainder // divisor
        shift = len(digits) - 1 - index
        if not started and quotient == 0 and index < len(digits) - 1:
            continue
        if started:
            rows.append(Row(_digits(remainder, base), "number", shift))
        started = True
        taken = quotient * divisor
        rows.append(Row(_digits(taken, base), "number", shift))
        rows.append(Row("-" * max(len(_digits(remainder, base)), len(_digits(taken, base))), "rule", shift))
        remainder -= taken
    rows.append(Row(_digits(remainder, base), "result"))
    return Layout("division", tuple(rows))
