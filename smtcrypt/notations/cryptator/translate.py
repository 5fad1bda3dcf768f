"""A Cryptator formula and its options into our formulas and the keyword rules of `Puzzle`.

Cryptator's rules, as its model posts them (`src/main/java/cryptator/solver/
AbstractModelerNodeConsumer.java`, `CryptaModeler.java`, `CryptaOperator.java`,
`config/CryptaConfig.java` of arnaud-m/cryptator):
- every symbol is a digit of the base; the first symbol of every word is not 0, a word of one
  symbol included, unless leading zeros are allowed;
- with n symbols in base b, each digit is used at most ceil(n/b) times and at least floor(n/b)
  times (all different when n <= b); the relaxations lower the least and raise the most;
- `/` must divide exactly (its quotient q is posted as q * b = a); `//` truncates toward zero
  (Java's `BigInteger.divide`, Choco's `div`); `%` is a remainder, `^` a power;
- quoted constants are decimal; assignments fix symbols to digits.
Every character of a word is a symbol, as Cryptator reads it (its generator makes the collection's
puzzles so: a Devanagari vowel sign or virama is a symbol of its own), and the text is read as
written, not normalised. Each symbol becomes a capital letter of ours: a capital stays itself, a
lowercase letter becomes its capital where that is free, any other symbol (a digit, a letter or
mark of another script) the first letter left.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from smtcrypt.core.numerals import decimal, digit_char, shown
from smtcrypt.core.parse import MAX_SOURCE_LENGTH, check_length
from smtcrypt.core.rules import MAX_BASE, MIN_BASE, Rules, make_rules
from smtcrypt.errors import FormulaError, FormulaLimitError
from smtcrypt.notations.cryptator.reader import (
    Binary,
    Constant,
    CryptatorEquation,
    CryptatorWord,
    Negation,
    Node,
    read,
    words,
)

# our letters for the user's symbols: A-Z, then capitals of other scripts that no Latin capital looks like
LETTERS = string.ascii_uppercase + "ΓΔΘΛΞΠΣΦΨΩ" + "БДЖЗИЙЦЧШЩЪЫЬЭЮЯ"
_CAPITALS, _LOWERCASE = frozenset(string.ascii_uppercase), frozenset(string.ascii_lowercase)
CHAINS = {("+", "+"), ("+", "-"), ("-", "+"), ("-", "-"), ("*", "*")}  # left-associative alike in both
OURS = {"=": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}


@dataclass
class CryptatorPuzzle:
    """A Cryptator formula translated: what to search and how to show its solutions in the user's symbols."""

    text: str  # as the user wrote it
    equations: list[str]  # ours, one per Cryptator equation
    conditions: list[str]  # ours, the rules that are not keyword rules: exact divisions, digit counts
    rules: Rules  # the rules our formulas are searched under
    letters: dict[str, str]  # the user's symbol -> our letter
    spans: list[tuple[int, int]]  # where the words are in `text`

    counted: bool = False  # whether the digit counts are conditions (more symbols than the base)

    @property
    def strategy(self) -> str:
        """The search to use: with digit counts, Z3 alone (auto picks a cube search that takes far
        longer on `send+more=money; a+b=c`, see docs/cryptator.md); otherwise auto."""
        return "z3" if self.counted else "auto"

    @property
    def formulas(self) -> list[str]:
        return self.equations + self.conditions

    @property
    def formula(self) -> str:
        """Our formula for the Cryptator equations, joined by `, `."""
        return ", ".join(self.equations)

    def user_mapping(self, mapping: Mapping[str, int]) -> dict[str, int]:
        """A solution's digits by the user's symbols, in the order they first appear."""
        return {symbol: mapping[letter] for symbol, letter in self.letters.items() if letter in mapping}

    def substitute(self, mapping: Mapping[str, int]) -> str:
        """The formula as written with each word's symbols replaced by their digits."""
        pieces, position = [], 0
        for start, end in self.spans:
            pieces.append(self.text[position:start])
            pieces.append("".join(digit_char(mapping[self.letters[symbol]]) for symbol in self.text[start:end]))
            position = end
        pieces.append(self.text[position:])
        return "".join(pieces)

    def ours_filled(self, mapping: Mapping[str, int]) -> str:
        """Our formula for the equations with the digits in (as it is, for a formula of constants)."""
        if not self.letters:
            return self.formula
        ours = "[" + "".join(re.escape(letter) for letter in sorted(set(self.letters.values()))) + "]"
        return re.sub(ours, lambda match: digit_char(mapping[match.group()]), self.formula)


def translate(text: str, *, base: int = 10, allow_leading_zeros: bool = False,
              assign: Mapping[str, int] | Iterable[str] | None = None, relax_min: int = 0,
              relax_max: int = 0) -> CryptatorPuzzle:
    """Our puzzle for a Cryptator formula under Cryptator's options (`-b`, `-z`, the assignments,
    `-min`, `-max`); a `FormulaError` with a caret under the fault."""
    if isinstance(base, bool) or not isinstance(base, int) or base < MIN_BASE:
        raise FormulaError(f"base must be an integer of at least {MIN_BASE}, not {base!r}")
    if base > MAX_BASE:
        raise FormulaError(f"base {shown(base)}: smtcrypt reads bases up to {MAX_BASE}")
    check_length(text, "Cryptator formula")
    equations = read(text)
    found = [word for equation in equations for word in words(equation)]
    letters = letter_map(text, found)
    translation = _Translation(text, letters)
    written = [translation.equation(equation) for equation in equations]
    ours, conditions = [rope.text() for rope in written], [rope.text() for rope in translation.conditions]
    distinct, counts = _occurrences(list(letters.values()), base, relax_min, relax_max)
    nonzero = f"1-{base - 1}"  # the digits but 0, written as make_rules reads a range fastest
    leading = None if allow_leading_zeros else {letters[word.text[0]]: nonzero for word in found}
    rules = make_rules(base=base, allow_leading_zeros=True, distinct=distinct, domains=leading,
                       assign=_assignments(assign or {}, letters, base))
    return CryptatorPuzzle(text, ours, conditions + counts, rules, letters,
                           [(word.start, word.end) for word in found], counted=bool(counts))


def letter_map(text: str, found: list[CryptatorWord]) -> dict[str, str]:
    """Each symbol, in the order it first appears, to a capital letter of ours."""
    written = dict.fromkeys("".join([word.text for word in found]))
    symbols = "".join(written)
    if len(written) > len(LETTERS):
        raise FormulaError(f"{len(written)} symbols: smtcrypt reads at most {len(LETTERS)} "
                           f"(the symbols: {symbols})", text, found[0].start if found else None)
    capitals = symbols.upper()
    if symbols.isascii() and symbols.isalpha() and len(set(capitals)) == len(symbols):
        return dict(zip(symbols, capitals))  # letters, none beside its own capital or lowercase: each its capital
    taken = written.keys() & _CAPITALS  # capitals keep themselves first, then lowercase letters take their capital
    letters: dict[str, str] = {}
    others = []  # the symbols left, in order, for the letters no symbol took
    for symbol in written:
        if symbol in taken:
            letters[symbol] = symbol
        elif symbol in _LOWERCASE and (capital := symbol.upper()) not in taken:
            letters[symbol] = capital
        else:
            letters[symbol] = ""  # its place in the order, its letter below
            others.append(symbol)
    if others:
        used = set(letters.values())
        for symbol, letter in zip(others, [letter for letter in LETTERS if letter not in used]):
            letters[symbol] = letter
    return letters


def _occurrences(letters: list[str], base: int, relax_min: int, relax_max: int) -> tuple[bool, list[str]]:
    """All different (n <= base, no relaxation), or each digit between floor(n/b) and ceil(n/b) times
    as sums of comparisons; Cryptator's `getMinDigitOccurence` and `getMaxDigitOccurence`."""
    n = len(letters)
    most, least = -(-n // base), n // base
    if relax_max > 0:
        most = min(n, most + relax_max)
    if relax_min > 0:
        least = max(0, least - relax_min)
    if n == 0 or most == 1:
        return True, []
    if most >= n - least * (base - 1):  # the least counts already keep each digit under the most
        most = n
    if least <= n - most * (base - 1):  # the most counts already make each digit used the least
        least = 0
    counts = []
    for digit in range(base):
        used = " + ".join(f"({letter} == {digit})" for letter in letters)
        if most < n:
            counts.append(f"{used} <= {most}")
        if least > 0:
            counts.append(f"{used} >= {least}")
    return False, counts


def keywords(options: Mapping[str, Any]) -> dict[str, Any]:
    """`translate`'s keywords from our rule options as a user gives them (the command line's
    `--base`, `--allow-leading-zeros`, ...; not yet `Rules`, since `--assign` names the puzzle's own
    symbols, lowercase ones too): `base`, `allow_leading_zeros` and `assign` carry over; the others
    contradict Cryptator's rules and are refused."""
    if (options.get("digits") or options.get("domains") or options.get("distinct", True) is not True
            or options.get("nonzero_single_letters")):
        raise FormulaError("with --syntax cryptator give only --base, --allow-leading-zeros and --assign "
                           "(Cryptator's rules fix the digits and which symbols differ)")
    return {"base": options.get("base", 10), "allow_leading_zeros": bool(options.get("allow_leading_zeros")),
            "assign": options.get("assign")}


def inline(text: str, options: Mapping[str, Any]) -> str:
    """One formula of ours that carries every Cryptator rule our usual rules (with `rules`' base and
    leading zeros) lack: for a tool that takes formulas under shared rules, as a worksheet does. A
    single symbol that must not be 0 gets `X != 0`, an assignment `X == D`; more symbols than the
    base (digits used several times) cannot be put so, and is refused."""
    read_ = translate(text, **keywords(options))
    if read_.counted:
        raise FormulaError(f"{text.strip()}: more symbols than the base, so digits repeat; here every symbol "
                           "must take its own digit")
    words = [read_.text[start:end] for start, end in read_.spans]
    multi = {read_.letters[word[0]] for word in words if len(word) > 1}
    lone = [] if options.get("allow_leading_zeros") else sorted(
        {letter for letter in read_.rules.domains if letter not in multi})
    fixed = [f"{letter} == {digit}" for letter, digit in read_.rules.assign.items()]
    return ", ".join(read_.formulas + [f"{letter} != 0" for letter in lone] + fixed)


def _assignments(assign: Mapping[str, int] | Iterable[str], letters: Mapping[str, str], base: int) -> dict[str, int]:
    """Our `assign` from the user's symbols: `{"a": 1}` or `["a=1", "e=3"]`."""
    pairs: dict[str, int] = {}
    if isinstance(assign, Mapping):
        pairs.update(assign)
    else:
        for item in assign:
            symbol, equals, digit = str(item).partition("=")
            value = decimal(digit, str(item), len(symbol) + 1) if equals else None
            if value is None:
                raise FormulaError(f"assignment {item!r}: expected SYMBOL=DIGIT such as a=1")
            if symbol.strip() in pairs:  # not the last one silently
                raise FormulaError(f"assignment {item!r}: the symbol {symbol.strip()!r} is assigned twice "
                                   f"({shown(pairs[symbol.strip()])} and {shown(value)})")
            pairs[symbol.strip()] = value
    fixed: dict[str, int] = {}
    for symbol, value in pairs.items():
        given = shown(value) if isinstance(value, int) else repr(value)
        if symbol not in letters:
            raise FormulaError(f"assignment {symbol}={given}: {symbol!r} is not a symbol of the formula")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < base:
            raise FormulaError(f"assignment {symbol}={given}: not a digit of base {base}")
        fixed[letters[symbol]] = value
    return fixed


class _Rope(NamedTuple):
    """Formula text of ours kept in pieces: an operand that Cryptator's `//` or `%` repeats is one
    piece shared, not copied, so its size is known (and bounded) before any of it is written out."""

    pieces: tuple[str | _Rope, ...]
    length: int

    def text(self) -> str:
        """The text written out, without recursion."""
        out: list[str] = []
        stack: list[str | _Rope] = [self]
        while stack:
            piece = stack.pop()
            if isinstance(piece, str):
                out.append(piece)
            else:
                stack.extend(reversed(piece.pieces))
        return "".join(out)


def _cat(*pieces: str | _Rope) -> _Rope:
    length = 0
    for piece in pieces:
        length += len(piece) if isinstance(piece, str) else piece.length
    return _Rope(pieces, length)


class _Ours(NamedTuple):
    """An expression of ours: `inner`, in parentheses if `wrapped` (all but words and constants are,
    so that `inner` is the expression without its outer parentheses); `natural`: never negative."""

    inner: _Rope
    wrapped: bool
    natural: bool

    @property
    def full(self) -> _Rope:
        return _cat("(", self.inner, ")") if self.wrapped else self.inner

    @property
    def size(self) -> int:
        """The length of `full`, without making it."""
        return self.inner.length + 2 if self.wrapped else self.inner.length


class _Translation:
    """Cryptator's equations as ours, node by node from the leaves up (no recursion), the size of each
    known before it is written: a part that would pass MAX_SOURCE_LENGTH characters (nested `//` of
    operands that may be negative repeat them, `((abs(L) // abs(R)) * (1 - 2 * (L * R < 0)))`) is
    refused under its operator in the user's text, at once."""

    def __init__(self, text: str, letters: Mapping[str, str]):
        self.text, self.letters = text, letters
        self.table = str.maketrans(dict(letters))  # a word's symbols to our letters, in one `str.translate`
        self.conditions: list[_Rope] = []  # ours, for exact divisions
        self.total = 0  # characters of ours so far

    def equation(self, equation: CryptatorEquation) -> _Rope:
        left, right = self.expression(equation.left), self.expression(equation.right)
        return self.counted(_cat(left.inner, f" {OURS[equation.op]} ", right.inner), equation.start)

    def counted(self, rope: _Rope, start: int, node_only: bool = False) -> _Rope:
        """`rope`, if it and everything written so far fit MAX_SOURCE_LENGTH; otherwise refused at `start`."""
        size = rope.length if node_only else self.total + rope.length
        if size > MAX_SOURCE_LENGTH:
            raise FormulaLimitError(f"this part becomes {size:,} characters of smtcrypt's formulas (a // or % whose "
                                    "operands may be negative repeats them, to round toward zero): the limit is "
                                    f"{MAX_SOURCE_LENGTH:,}", self.text, start)
        if not node_only:
            self.total = size + 2  # and the separator before the next
        return rope

    def expression(self, root: Node) -> _Ours:
        done: dict[int, _Ours] = {}  # by id of node
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if isinstance(node, (Negation, Binary)) and not ready:
                stack.append((node, True))
                stack.extend((part, False) for part in ((node.operand,) if isinstance(node, Negation)
                                                        else (node.right, node.left)))
                continue
            ours = self.node(node, done)
            if ours.size > MAX_SOURCE_LENGTH:
                self.counted(ours.full, node.start, node_only=True)
            done[id(node)] = ours
        return done[id(root)]

    def node(self, node: Node, done: Mapping[int, _Ours]) -> _Ours:
        """One node of ours from its operands' (in `done`); an exact division adds its condition."""
        if isinstance(node, CryptatorWord):
            return _Ours(_cat(node.text.translate(self.table)), False, True)
        if isinstance(node, Constant):
            return _Ours(_cat(str(node.value)), False, True)
        if isinstance(node, Negation):
            return _Ours(_cat("-", done[id(node.operand)].full), True, False)
        first, second = done[id(node.left)], done[id(node.right)]
        chained = isinstance(node.left, Binary) and (node.op, node.left.op) in CHAINS  # `A + B + C`, not `(A + B) + C`
        left, right = (first.inner if chained else first.full), second.full
        natural = node.op != "-" and first.natural and second.natural
        if node.op == "/":
            self.conditions.append(self.counted(_cat(left, " % ", right, " == 0"), node.start))
            return _Ours(_cat(left, " / ", right), True, natural)
        if node.op == "//":
            return _Ours(_cat(left, " // ", right), True, natural) if natural else _truncated(left, right)
        if node.op == "%":
            if natural:
                return _Ours(_cat(left, " % ", right), True, natural)
            return _Ours(_cat(left, " - ", right, " * ", _truncated(left, right).full), True, False)
        return _Ours(_cat(left, f" {'**' if node.op == '^' else node.op} ", right), True, natural)


def _truncated(left: _Rope, right: _Rope) -> _Ours:
    """left / right rounded toward zero, as Java's integer division."""
    return _Ours(_cat("(abs(", left, ") // abs(", right, ")) * (1 - 2 * (", left, " * ", right, " < 0))"), True,
                 False)
