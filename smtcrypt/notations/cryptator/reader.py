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

from dataclasses import dataclass

from smtcrypt.errors import FormulaError

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


@dataclass(frozen=True)
class Token:
    kind: str  # "word", "number", "op", "cmp", "and", "(", ")", "quote", "end"
    text: str
    start: int


def is_symbol(ch: str) -> bool:
    """Cryptator's SYMBOL and DIGIT: ASCII letters, digits, and every character from U+0080 to U+FFFF."""
    return ("a" <= ch <= "z") or ("A" <= ch <= "Z") or ("0" <= ch <= "9") or 0x80 <= ord(ch) <= 0xFFFF


def tokenize(text: str) -> list[Token]:
    """The tokens of a Cryptator formula; a `FormulaError` under a character Cryptator does not read."""
    tokens, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch in SPACES:
            i += 1
            continue
        two = text[i:i + 2]
        if is_symbol(ch):
            j = i
            while j < len(text) and is_symbol(text[j]):
                j += 1
            tokens.append(Token("word", text[i:j], i))
            i = j
        elif two in SEPARATORS or ch in SEPARATORS:
            size = 2 if two in SEPARATORS else 1
            tokens.append(Token("and", text[i:i + size], i))
            i += size
        elif two in COMPARATORS or ch in COMPARATORS:
            size = 2 if two in COMPARATORS else 1
            tokens.append(Token("cmp", text[i:i + size], i))
            i += size
        elif two == "//" or ch in "+-*/^%":
            size = 2 if two == "//" else 1
            tokens.append(Token("op", text[i:i + size], i))
            i += size
        elif ch in "()'\"":
            tokens.append(Token(ch if ch in "()" else "quote", ch, i))
            i += 1
        else:
            raise FormulaError(f"unexpected character {ch!r} (Cryptator reads letters, digits, + - * / // % ^, "
                               "= != < > <= >=, quotes, parentheses, ; and &&)", text, i)
    tokens.append(Token("end", "", len(text)))
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.index = 0

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
        if self.token.kind == "(":  # `(send+more=money)`, or an expression in parentheses then a comparison
            saved = self.index
            try:
                self.index += 1
                inner = self.equation()
                self.expect(")", "')'")
                return inner
            except FormulaError:
                self.index = saved
        left = self.expression(0)
        if self.token.kind != "cmp":
            raise self.fail("a comparison (= != < > <= >=)")
        comparator = self.token
        self.index += 1
        right = self.expression(0)
        return CryptatorEquation(comparator.text, left, right, comparator.start)

    def expression(self, least: int) -> Node:
        node = self.operand()
        while self.token.kind == "op" and BINARY[self.token.text] >= least:
            op = self.token
            self.index += 1
            node = Binary(op.text, node, self.expression(BINARY[op.text] + 1), op.start)
        return node

    def operand(self) -> Node:
        token = self.token
        if token.kind == "op" and token.text == "-":
            self.index += 1
            return Negation(self.expression(NEGATION), token.start)
        if token.kind == "(":
            self.index += 1
            inner = self.expression(0)
            self.expect(")", "')'")
            return inner
        if token.kind == "quote":
            self.index += 1
            number = self.expect("word", "a number between the quotes")
            if not number.text.isascii() or not number.text.isdigit():
                raise FormulaError("a quoted constant holds only the digits 0-9", self.text, number.start,
                                   len(number.text))
            closing = self.expect("quote", f"the closing {token.text}")
            if closing.text != token.text:
                raise FormulaError(f"the constant opened with {token.text} closes with {closing.text}", self.text,
                                   closing.start)
            return Constant(int(number.text), token.start)
        if token.kind == "word":
            self.index += 1
            return CryptatorWord(token.text, token.start, token.start + len(token.text))
        raise self.fail("a word, a quoted number, '-' or '('")


def read(text: str) -> list[CryptatorEquation]:
    """The equations of a Cryptator formula, as its grammar reads them."""
    if not text.strip():
        raise FormulaError("the formula is empty")
    return _Parser(text).equations()


def words(node: Node | CryptatorEquation) -> list[CryptatorWord]:
    """The words of a tree, left to right."""
    if isinstance(node, CryptatorWord):
        return [node]
    if isinstance(node, Constant):
        return []
    if isinstance(node, Negation):
        return words(node.operand)
    return words(node.left) + words(node.right)
