"""Cryptator's notation read into a small tree: `send+more=money`, `nrgy = MC ^ 2`, `r='36'`,
`a + b = c && c * d = ef`.

As Cryptator's grammar (`src/main/antlr4/Cryptator.g4` of arnaud-m/cryptator) reads it:
- a word is a run of symbols and digits, `[a-zA-Z\\u0080-\\uFFFF0-9]+`, with no space inside; every
  character of it is a symbol of its own (`9END`: the symbols 9, E, N, D); case matters;
- `'36'` or `"36"` is a decimal constant;
- operators, from the tightest: `^` and `%` (one level, left to right), then a unary `-` (whose
  operand holds only `^` and `%`: `-A^B` is `-(A^B)`, `-A*B` is `(-A)*B`), then `*`, `/`, `//`
  (left to right), then `+`, `-` (left to right);
- an equation is `expression COMPARATOR expression` with `=`, `!=`, `<`, `>`, `<=`, `>=` (not
  chained), possibly in parentheses (`(send+more=money)`);
- equations are separated by `;` or `&&`, several in a row and one at the end allowed, none first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, decimal, too_many_digits
from smtcrypt.core.parse import MAX_DEPTH
from smtcrypt.errors import FormulaError, FormulaLimitError

COMPARATORS = ("<=", ">=", "!=", "=", "<", ">")
SEPARATORS = ("&&", ";")
BINARY = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "^": 4, "%": 4}  # precedence, higher binds tighter
NEGATION = 3  # a unary minus: its operand holds only `^` and `%`
SPACES = " \t\r\n\f"


@dataclass(frozen=True)
class CryptatorWord:
    """A run of symbols: each character a symbol; `start`/`end` its place in the text."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Constant:
    """A quoted decimal constant: `'36'`."""

    value: int
    start: int


@dataclass(frozen=True)
class Negation:
    operand: Node
    start: int


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node
    start: int


Node = CryptatorWord | Constant | Negation | Binary


@dataclass(frozen=True)
class CryptatorEquation:
    op: str
    left: Node
    right: Node
    start: int


Part = Node | CryptatorEquation  # what the reader builds: a comparison is an operator to it


@dataclass
class _Begun:
    """An expression begun and not yet ended: the whole (`expr`, its operators at least `least` tight,
    its `left` operand so far and that operand's pending `op`), or a bracket or unary minus opened."""

    kind: str  # "expr", "(" or "-"
    least: int = 0
    left: Part | None = None
    op: Token | None = None
    token: Token | None = None  # the bracket or minus


class Token(NamedTuple):
    kind: str  # "word", "op", "cmp", "and", "(", ")", "quote", "end"
    text: str
    start: int


# Cryptator's tokens, each a group named by its kind: a word is a run of its SYMBOL and DIGIT (ASCII letters,
# digits and every character from U+0080 to U+FFFF); of two operators that begin alike the longer is read
# (`//` before `/`, `<=` before `<`); `&` alone, `!` alone and every other character match nothing.
_TOKEN = re.compile("|".join((
    f"(?P<space>[{re.escape(SPACES)}]+)",
    "(?P<word>[a-zA-Z0-9\u0080-\uffff]+)",
    "(?P<and>" + "|".join(map(re.escape, SEPARATORS)) + ")",
    "(?P<cmp>" + "|".join(map(re.escape, COMPARATORS)) + ")",
    "(?P<op>//|[-+*/^%])",
    "(?P<bracket>[()])",
    "(?P<quote>['\"])",
)))


def tokenize(text: str) -> list[Token]:
    """The tokens of a Cryptator formula; a `FormulaError` under a character Cryptator does not read."""
    matches = list(_TOKEN.finditer(text))
    if sum(match.end() - match.start() for match in matches) != len(text):  # a character no token takes
        position = 0
        for match in matches:
            if match.start() != position:
                break
            position = match.end()
        raise FormulaError(f"unexpected character {text[position]!r} (Cryptator reads letters, digits, + - * / // % "
                           "^, = != < > <= >=, quotes, parentheses, ; and &&)", text, position)
    tokens = [Token(match.group() if kind == "bracket" else kind, match.group(), match.start())
              for match in matches if (kind := str(match.lastgroup)) != "space"]
    tokens.append(Token("end", "", len(text)))
    return tokens


class _Parser:
    """Cryptator's grammar read without recursion and without going back, in time linear in the tokens.

    An equation is read as an expression in which a comparison is one more operator, the loosest,
    that does not chain; brackets may hold anything. What Cryptator's grammar then takes is exactly a
    comparison of two expressions without comparisons, in any number of brackets (`(send+more=money)`):
    a comparison anywhere else is refused under it. Each node's depth (chains of one operator counted,
    as in the formula language) is bounded by MAX_DEPTH as it is built."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0
        self.depths: dict[int, int] = {}  # by id of node: its depth
        self.comparisons = 0  # comparisons made so far: an equation that made one has none inside a side

    @property
    def token(self) -> Token:
        return self.tokens[self.index]

    def fail(self, expected: str) -> FormulaError:
        token = self.token
        found = "the end" if token.kind == "end" else repr(token.text)
        return FormulaError(f"expected {expected}, found {found}", self.text, token.start, max(1, len(token.text)))

    def expect(self, kind: str, expected: str) -> Token:
        if self.token.kind != kind:
            raise self.fail(expected)
        token = self.token
        self.index += 1
        return token

    def equations(self) -> list[CryptatorEquation]:
        found = [self.equation()]
        while self.token.kind == "and":
            while self.token.kind == "and":
                self.index += 1
            if self.token.kind != "end":
                found.append(self.equation())
        if self.token.kind != "end":
            raise self.fail("an operator, ';' or '&&'")
        return found

    def equation(self) -> CryptatorEquation:
        before = self.comparisons
        node = self.expression()
        if not isinstance(node, CryptatorEquation):
            raise self.fail("a comparison (= != < > <= >=)")
        if self.comparisons - before == 1:  # the equation's own comparison only
            return node
        for side in (node.left, node.right):
            inner = next((part for part in _parts(side) if isinstance(part, CryptatorEquation)), None)
            if inner is not None:
                raise FormulaError("a comparison stands only between the two sides of an equation, not inside a "
                                   "side", self.text, inner.start, len(inner.op))
        return node

    def expression(self) -> Part:
        """One expression, comparisons included, up to a token that cannot continue it."""
        stack = [_Begun("expr")]
        tokens = self.tokens
        while True:
            token = tokens[self.index]
            if token.kind == "op" and token.text == "-":  # an operand: a unary minus, whose operand holds ^ and %
                self.index += 1
                stack += [_Begun("-", token=token), _Begun("expr", NEGATION)]
                continue
            if token.kind == "(":
                self.index += 1
                stack += [_Begun("(", token=token), _Begun("expr")]
                continue
            value: Part = self.leaf()
            while True:  # the value ends the expression begun last, or its operator's left operand goes on
                begun = stack[-1]  # an expression: the whole, a bracket's, a minus's operand or a right operand
                if begun.left is not None and begun.op is not None:
                    value, begun.left, begun.op = self.node(begun.op, begun.left, value), None, None
                token = tokens[self.index]
                precedence = BINARY.get(token.text, -1) if token.kind == "op" else 0 if token.kind == "cmp" else -1
                if precedence >= begun.least and not (token.kind == "cmp" and isinstance(value, CryptatorEquation)):
                    self.index += 1
                    begun.left, begun.op = value, token
                    stack.append(_Begun("expr", precedence + 1))
                    break
                stack.pop()
                if not stack:
                    return value
                if stack[-1].kind == "-":
                    minus = stack.pop().token
                    assert minus is not None
                    # a comparison as the operand, `-(a = b)`, is refused once the equation is read
                    value = self.deeper(Negation(value, minus.start), value)  # type: ignore[arg-type]
                elif stack[-1].kind == "(":
                    self.expect(")", "')'")
                    stack.pop()

    def node(self, op: Token, left: Part, right: Part) -> Part:
        """`left op right`, a comparison or an operation (whose operands are no comparisons: a
        comparison binds loosest), no deeper than MAX_DEPTH."""
        if op.kind == "cmp":
            self.comparisons += 1
            return self.deeper(CryptatorEquation(op.text, left, right, op.start), left, right)  # type: ignore[arg-type]
        return self.deeper(Binary(op.text, left, right, op.start), left, right)  # type: ignore[arg-type]

    def deeper(self, node: Part, first: Part, second: Part | None = None) -> Part:
        """`node`, if it is no deeper than MAX_DEPTH: one more than the deepest of its parts."""
        depths = self.depths
        depth = 1 + depths.get(id(first), 1)
        if second is not None:
            depth = max(depth, 1 + depths.get(id(second), 1))
        if depth > MAX_DEPTH:
            raise FormulaLimitError(f"formula nested more than {MAX_DEPTH} levels deep (long chains of one "
                                    "operator count as nesting)", self.text, node.start)
        self.depths[id(node)] = depth
        return node

    def leaf(self) -> Node:
        """A word or a quoted constant."""
        token = self.token
        if token.kind == "quote":
            self.index += 1
            number = self.expect("word", "a number between the quotes")
            value = decimal(number.text, self.text, number.start) if number.text.isascii() else None
            if value is None:
                raise FormulaError("a quoted constant holds only the digits 0-9", self.text, number.start,
                                   len(number.text))
            closing = self.expect("quote", f"the closing {token.text}")
            if closing.text != token.text:
                raise FormulaError(f"the constant opened with {token.text} closes with {closing.text}", self.text,
                                   closing.start)
            return Constant(value, token.start)
        if token.kind == "word":
            if len(token.text) > MAX_NUMBER_DIGITS:
                raise FormulaLimitError(too_many_digits(len(token.text), "a word"), self.text, token.start,
                                        len(token.text))
            self.index += 1
            return CryptatorWord(token.text, token.start, token.start + len(token.text))
        raise self.fail("a word, a quoted number, '-' or '('")


def _parts(node: Part) -> Iterator[Part]:
    """`node` and every node under it, without recursion."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, Negation):
            stack.append(current.operand)
        elif isinstance(current, (Binary, CryptatorEquation)):
            stack += [current.right, current.left]


def read(text: str) -> list[CryptatorEquation]:
    """The equations of a Cryptator formula, as its grammar reads them."""
    if not text.strip():
        raise FormulaError("the formula is empty")
    return _Parser(text).equations()


def words(node: Part) -> list[CryptatorWord]:
    """The words of a tree, left to right (`_parts`' walk, without its generator)."""
    found: list[CryptatorWord] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, CryptatorWord):
            found.append(current)
        elif isinstance(current, (Binary, CryptatorEquation)):
            stack += (current.right, current.left)
        elif isinstance(current, Negation):
            stack.append(current.operand)
    return found
