"""A Cryptator formula and its options into our formula's tree (its nodes under the user's own text) and rules.

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
from functools import cached_property
from typing import Any

from smtcrypt.core.limits import check_tree
from smtcrypt.core.numerals import decimal, digit_char, shown
from smtcrypt.core.rules import MAX_BASE, MIN_BASE, Rules, make_rules
from smtcrypt.core.tree import (
    BinOp,
    Call,
    Compare,
    Constraints,
    Expr,
    Number,
    Span,
    Spans,
    Unary,
    Word,
    compare,
    number,
)
from smtcrypt.errors import FormulaError
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
    """A Cryptator formula translated: our tree to check and search, its spans in the user's text,
    and how to show its solutions in the user's symbols."""

    text: str  # as the user wrote it
    tree: Constraints  # ours: the equations, then the conditions; spans in `text`
    equation_count: int  # how many of the tree's constraints are Cryptator's equations
    rules: Rules  # the rules our formulas are searched under
    letters: dict[str, str]  # the user's symbol -> our letter
    spans: list[tuple[int, int]]  # where the words are in `text`
    counted: bool = False  # whether the digit counts are conditions (more symbols than the base)

    @property
    def strategy(self) -> str:
        """The search to use: with digit counts, Z3 alone (auto picks a cube search that takes far
        longer on `send+more=money; a+b=c`, see docs/cryptator.md); otherwise auto."""
        return "z3" if self.counted else "auto"

    @cached_property
    def equations(self) -> list[str]:
        """Ours, one per Cryptator equation, as text (to be shown: the tree is what is searched)."""
        return [written(node) for node in self.tree.constraints[:self.equation_count]]

    @cached_property
    def conditions(self) -> list[str]:
        """Ours, the rules that are not keyword rules (exact divisions, digit counts), as text."""
        return [written(node) for node in self.tree.constraints[self.equation_count:]]

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
    `-min`, `-max`): our tree, within the limits of every tree; a `FormulaError` with a caret under
    the fault in `text`."""
    if isinstance(base, bool) or not isinstance(base, int) or base < MIN_BASE:
        raise FormulaError(f"base must be an integer of at least {MIN_BASE}, not {base!r}")
    if base > MAX_BASE:
        raise FormulaError(f"base {shown(base)}: smtcrypt reads bases up to {MAX_BASE}")
    equations = read(text)
    found = [word for equation in equations for word in words(equation)]
    letters = letter_map(text, found)
    translation = _Translation(text, letters)
    ours = [translation.equation(equation) for equation in equations]
    distinct, counts = _occurrences(letters, found, translation.spans, base, relax_min, relax_max)
    # measured before anything is written out of it: a shared part may stand for much text
    tree = check_tree(Constraints((*ours, *translation.conditions, *counts), text))
    nonzero = f"1-{base - 1}"  # the digits but 0, written as make_rules reads a range fastest
    leading = None if allow_leading_zeros else {letters[word.text[0]]: nonzero for word in found}
    rules = make_rules(base=base, allow_leading_zeros=True, distinct=distinct, domains=leading,
                       assign=_assignments(assign or {}, letters, base))
    return CryptatorPuzzle(text, tree, len(ours), rules, letters, [(word.start, word.end) for word in found],
                           counted=bool(counts))


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


def _occurrences(letters: Mapping[str, str], found: list[CryptatorWord], spans: Spans, base: int,
                 relax_min: int, relax_max: int) -> tuple[bool, list[Expr]]:
    """All different (n <= base, no relaxation), or each digit between floor(n/b) and ceil(n/b) times
    as sums of comparisons, each letter's span its symbol's first place; Cryptator's
    `getMinDigitOccurence` and `getMaxDigitOccurence`."""
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
    first = {}  # each symbol's first place
    for word in reversed(found):
        for offset in range(len(word.text) - 1, -1, -1):
            first[word.text[offset]] = word.start + offset
    places = {letter: spans(first[symbol]) for symbol, letter in letters.items()}
    nowhere = spans(0, 0)  # the counts' own constants and operators stand nowhere in the text
    counts: list[Expr] = []
    for digit in range(base):
        used: Expr | None = None
        for letter, place in places.items():
            term = compare(Word(letter, place), "==", number(digit, nowhere), nowhere)
            used = term if used is None else BinOp("+", used, term, nowhere)
        assert used is not None
        if most < n:
            counts.append(compare(used, "<=", number(most, nowhere), nowhere))
        if least > 0:
            counts.append(compare(used, ">=", number(least, nowhere), nowhere))
    return False, counts


def inline(text: str, **options: Any) -> str:
    """One formula of ours that carries every Cryptator rule our usual rules (with `options`' base and
    leading zeros) lack: for a tool that takes formulas under shared rules, as a worksheet does. A
    single symbol that must not be 0 gets `X != 0`, an assignment `X == D`; more symbols than the
    base (digits used several times) cannot be put so, and is refused."""
    read_ = translate(text, **options)
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


class _Translation:
    """Cryptator's equations as our tree, node by node from the leaves up (no recursion), each node's
    span under the user's own text (an operation's under its operator): a word keeps its place, so a
    solution fills in the formula as written, and an error of the checker points into it. An operand
    that Cryptator's `//` or `%` repeats (to round toward zero) is one node shared, so the tree grows
    no faster than the text; its written size is bounded by the checker's limits (`core.limits`)."""

    def __init__(self, text: str, letters: Mapping[str, str]):
        self.letters = letters
        self.table = str.maketrans(dict(letters))  # a word's symbols to our letters, in one `str.translate`
        self.spans = Spans(text)
        self.conditions: list[Expr] = []  # ours, for exact divisions
        self.natural: set[int] = set()  # by id: the nodes of ours never negative

    def equation(self, equation: CryptatorEquation) -> Expr:
        span = self.spans(equation.start, equation.start + len(equation.op))
        return compare(self.expression(equation.left), OURS[equation.op], self.expression(equation.right), span)

    def expression(self, root: Node) -> Expr:
        done: dict[int, Expr] = {}  # by id of Cryptator's node
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if isinstance(node, (Negation, Binary)) and not ready:
                stack.append((node, True))
                stack.extend((part, False) for part in ((node.operand,) if isinstance(node, Negation)
                                                        else (node.right, node.left)))
                continue
            done[id(node)] = self.node(node, done)
        return done[id(root)]

    def node(self, node: Node, done: Mapping[int, Expr]) -> Expr:
        """One node of ours from its operands' (in `done`); an exact division adds its condition."""
        if isinstance(node, CryptatorWord):
            return self.kept(Word(node.text.translate(self.table), self.spans(node.start, node.end)), True)
        if isinstance(node, Constant):
            return self.kept(number(node.value, self.spans(node.start)), True)
        if isinstance(node, Negation):
            return Unary("-", done[id(node.operand)], self.spans(node.start))
        left, right = done[id(node.left)], done[id(node.right)]
        span = self.spans(node.start, node.start + len(node.op))
        natural = node.op != "-" and id(left) in self.natural and id(right) in self.natural
        if node.op == "/":
            self.conditions.append(compare(BinOp("%", left, right, span), "==", number(0, span), span))
        elif node.op in ("//", "%") and not natural:
            truncated = _truncated(left, right, span)
            return truncated if node.op == "//" else BinOp("-", left, BinOp("*", right, truncated, span), span)
        return self.kept(BinOp("**" if node.op == "^" else node.op, left, right, span), natural)

    def kept(self, node: Expr, natural: bool) -> Expr:
        if natural:
            self.natural.add(id(node))
        return node


def _truncated(left: Expr, right: Expr, span: Span) -> Expr:
    """left / right rounded toward zero, as Java's integer division: `(abs(L) // abs(R)) * (1 - 2 * (L * R < 0))`."""
    magnitude = BinOp("//", Call("abs", (left,), span), Call("abs", (right,), span), span)
    negative = compare(BinOp("*", left, right, span), "<", number(0, span), span)
    return BinOp("*", magnitude, BinOp("-", number(1, span), BinOp("*", number(2, span), negative, span), span), span)


def written(node: Expr) -> str:
    """Our formula text of a node of the translation, as Cryptator's header shows it: every operand
    but a word, a constant or a call in parentheses, but for the left one of a chain (`A + B - C`),
    a comparison's and a product on the right of `+` or `-` (`1 - 2 * (...)`)."""
    if isinstance(node, Word):
        return node.letters
    if isinstance(node, Number):
        return node.text
    if isinstance(node, Unary):
        return node.op + _operand(node.operand)
    if isinstance(node, BinOp):
        chained = isinstance(node.left, BinOp) and (node.op, node.left.op) in CHAINS
        bare = node.op in ("+", "-") and isinstance(node.right, BinOp) and node.right.op == "*"
        left = written(node.left) if chained else _operand(node.left)
        return f"{left} {node.op} {written(node.right) if bare else _operand(node.right)}"
    if isinstance(node, Compare):
        return " ".join(part for operand, op in zip(node.operands, (*node.ops, "")) for part in
                        (written(operand), op) if part)
    if isinstance(node, Call):
        return f"{node.name}(" + ", ".join(map(_operand, node.args)) + ")"
    raise TypeError(f"not a node of a translation: {node!r}")


def _operand(node: Expr) -> str:
    return written(node) if isinstance(node, (Word, Number, Call)) else f"({written(node)})"
