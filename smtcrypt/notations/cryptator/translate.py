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
Each symbol becomes a capital letter of ours: a capital stays itself, a lowercase letter becomes
its capital where that is free, any other symbol (a digit, a letter of another script) the first
letter left.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from smtcrypt.core.letters import normal, symbols
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.rules import MAX_BASE, MIN_BASE, Rules, make_rules
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
            word = symbols(self.text[start:end])
            pieces.append("".join(digit_char(mapping[self.letters[symbol]]) for symbol in word))
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
        raise FormulaError(f"base {base}: smtcrypt reads bases up to {MAX_BASE}")
    text = normal(text)
    equations = read(text)
    found = [word for equation in equations for word in words(equation)]
    letters = letter_map(text, found)
    conditions: list[str] = []
    ours = [_equation(equation, letters, conditions) for equation in equations]
    distinct, counts = _occurrences(list(letters.values()), base, relax_min, relax_max)
    leading = None if allow_leading_zeros else {letters[symbols(word.text)[0]]: range(1, base) for word in found}
    rules = make_rules(base=base, allow_leading_zeros=True, distinct=distinct, domains=leading,
                       assign=_assignments(assign or {}, letters, base))
    return CryptatorPuzzle(text, ours, conditions + counts, rules, letters,
                           [(word.start, word.end) for word in found], counted=bool(counts))


def letter_map(text: str, found: list[CryptatorWord]) -> dict[str, str]:
    """Each symbol, in the order it first appears, to a capital letter of ours."""
    written = list(dict.fromkeys(symbol for word in found for symbol in symbols(word.text)))
    if len(written) > len(LETTERS):
        raise FormulaError(f"{len(written)} symbols: smtcrypt reads at most {len(LETTERS)} "
                           f"(the symbols: {''.join(written)})", text, found[0].start if found else None)
    letters: dict[str, str] = {}
    for symbol in written:  # capitals keep themselves first, then lowercase letters take their capital
        if symbol in string.ascii_uppercase:
            letters[symbol] = symbol
    for symbol in written:
        if symbol.isascii() and symbol.islower() and symbol.upper() not in letters.values():
            letters[symbol] = symbol.upper()
    free = iter(letter for letter in LETTERS if letter not in letters.values())
    for symbol in written:
        if symbol not in letters:
            letters[symbol] = next(free)
    return {symbol: letters[symbol] for symbol in written}


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
    words = [symbols(read_.text[start:end]) for start, end in read_.spans]
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
            if not equals or not digit.strip().isdigit():
                raise FormulaError(f"assignment {item!r}: expected SYMBOL=DIGIT such as a=1")
            pairs[symbol.strip()] = int(digit)
    fixed: dict[str, int] = {}
    for written, value in pairs.items():
        symbol = normal(written) if isinstance(written, str) else written
        if symbol not in letters:
            raise FormulaError(f"assignment {symbol}={value}: {symbol!r} is not a symbol of the formula")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < base:
            raise FormulaError(f"assignment {symbol}={value}: not a digit of base {base}")
        fixed[letters[symbol]] = value
    return fixed


def _equation(equation: CryptatorEquation, letters: Mapping[str, str], conditions: list[str]) -> str:
    left, right = _expression(equation.left, letters, conditions), _expression(equation.right, letters, conditions)
    return f"{_bare(left)} {OURS[equation.op]} {_bare(right)}"


def _bare(text: str) -> str:
    """An expression without its outer parentheses, where they enclose all of it."""
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for index, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and index < len(text) - 1:
            return text
    return text[1:-1]


def _expression(node: Node, letters: Mapping[str, str], conditions: list[str]) -> str:
    """Our expression, in full parentheses; an exact division adds its condition."""
    if isinstance(node, CryptatorWord):
        return "".join(letters[symbol] for symbol in symbols(node.text))
    if isinstance(node, Constant):
        return str(node.value)
    if isinstance(node, Negation):
        return f"(-{_expression(node.operand, letters, conditions)})"
    left, right = _expression(node.left, letters, conditions), _expression(node.right, letters, conditions)
    natural = _natural(node.left) and _natural(node.right)
    if isinstance(node.left, Binary) and (node.op, node.left.op) in CHAINS:  # `A + B + C`, not `(A + B) + C`
        left = _bare(left)
    if node.op == "/":
        conditions.append(f"{left} % {right} == 0")
        return f"({left} / {right})"
    if node.op == "//":
        return f"({left} // {right})" if natural else _truncated(left, right)
    if node.op == "%":
        return f"({left} % {right})" if natural else f"({left} - {right} * {_truncated(left, right)})"
    return f"({left} {'**' if node.op == '^' else node.op} {right})"


def _truncated(left: str, right: str) -> str:
    """left / right rounded toward zero, as Java's integer division."""
    return f"((abs({left}) // abs({right})) * (1 - 2 * ({left} * {right} < 0)))"


def _natural(node: Node) -> bool:
    """Whether the expression is never negative: words and constants under + * / // % ^."""
    if isinstance(node, (CryptatorWord, Constant)):
        return True
    if isinstance(node, Negation):
        return False
    assert isinstance(node, Binary)
    return node.op != "-" and _natural(node.left) and _natural(node.right)
