"""Stage 1: formula text -> typed tree (`Constraints`), with positioned syntax errors.

Lark parses with the LALR grammar in grammar/smtcrypt.lark; a Transformer turns
Lark's tree into the dataclasses of `smtcrypt.core.tree` in one pass, leaves up.

Most formulas a program writes are plain arithmetic: words of capitals, whole numbers, `+ - * / // %
**`, brackets and comparisons, one a line (every Cryptator puzzle, most sums). Those are read by a
small reader of that subset (`_PlainReader`), which builds the very tree Lark's path builds, spans
included, several times faster; anything else it does not take (a name, a call, `and`, a letter of
another script, a mistake) goes to Lark, which alone words the errors. tests/test_parse_plain.py
holds the two to the same trees.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark import Tree as LarkTree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.tree import Meta

from smtcrypt.core.letters import (
    WILDCARD_NAMES,
    is_letter,
    is_lowercase,
    is_uncased_letter,
    is_wildcard,
    misplaced_mark,
    normal,
    refusal,
    spelled,
    symbols,
)
from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, too_many_digits
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Constraints,
    Expr,
    Formula,
    Name,
    Not,
    Number,
    Repeating,
    Span,
    Unary,
    Word,
    children,
)
from smtcrypt.errors import FormulaError, FormulaLimitError, FormulaSyntaxError

GRAMMAR_NAME = "smtcrypt.lark"
MAX_SOURCE_LENGTH = 100_000  # characters in one formula
MAX_DEPTH = 1_000  # nesting of the tree, including chains such as A + B + C + ...

# The stages after parsing recurse a few Python frames per level of the tree: room for MAX_DEPTH, made
# by the first parse (not on import: importing smtcrypt changes nothing of the interpreter's).
STACK_ROOM = 12 * MAX_DEPTH

# Normalised comparison operators: `=` and `is` mean `==`, `is not` means `!=`.
COMPARISON_OPS = {"=": "==", "==": "==", "is": "==", "!=": "!=", "isnot": "!=", "<": "<", "<=": "<=",
                  ">": ">", ">=": ">=", "in": "in", "notin": "not in"}

# Small bad inputs, each labelled with what a user should be told (see Lark's match_examples).
ERROR_EXAMPLES = {
    "missing operand": ["A +", "A + = B", "A * * B", "A ==", "= A", "A = B +", "(", "A = -", "A = (B +)",
                        "A = not", "A and", "A = B or", "A = B and = C", "A + , B", "A + B =",
                        "A = B =", "A = B <", "A * B ="],
    "missing operator between two operands": ["A B", "A 2", "A = (B) C", "2 A = B", "A = B C", "A(B) C",
                                              "A = B not C", "A = {B} C", "A = 2 3",
                                              "A = B 2"],
    "unclosed '('": ["(A + B", "((A) = B", "A = (B", "abs(A", "A in {B", "A = (B, C"],
    "unmatched closing bracket": ["A + B)", ")", "A = B)", "A = B}", "A = (B))"],
}


class _BracketNewlines:
    """Drops newlines inside brackets, so a parenthesised formula may span lines (as in Python)."""

    always_accept = ("NEWLINE",)
    opening = {"LPAR", "LBRACE"}
    closing = {"RPAR", "RBRACE"}

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        for token in stream:
            if token.type in self.opening:
                depth += 1
            elif token.type in self.closing:
                depth = max(0, depth - 1)
            elif token.type == "NEWLINE" and depth:
                continue
            yield token


def grammar_text() -> str:
    """The grammar, from the installed package or, in a source checkout, from grammar/."""
    packaged = resources.files("smtcrypt") / "grammar" / GRAMMAR_NAME
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_NAME).read_text(encoding="utf-8")


def build_parser(strict: bool = False) -> Lark:
    """An LALR parser for the grammar; `strict` also rejects any grammar conflict (needs interegular).

    The built parser is cached in the temporary folder (keyed on the grammar, the options and
    Lark's version), which makes a command-line start several times faster.
    """
    return Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=_BracketNewlines(),
                propagate_positions=True, maybe_placeholders=False, strict=strict, cache=not strict)


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The parser, built once per process; the stack made room for the trees it makes."""
    _make_room()
    return build_parser()


def _make_room() -> None:
    """Room on the stack for the stages after parsing, made by the first parse of either reader."""
    if sys.getrecursionlimit() < STACK_ROOM:
        sys.setrecursionlimit(STACK_ROOM)


def _span(meta: Meta) -> Span:
    return Span(meta.start_pos, meta.end_pos, meta.line, meta.column)


def _token_span(token: Token) -> Span:
    """Tokens the parser made from the source always carry their position."""
    assert token.start_pos is not None and token.end_pos is not None and token.line is not None \
        and token.column is not None
    return Span(token.start_pos, token.end_pos, token.line, token.column)


def _joined_span(first: Expr, last: Expr) -> Span:
    return Span(first.span.start, last.span.end, first.span.line, first.span.column)


@v_args(meta=True)
class _ToTree(Transformer):
    """Lark tree -> smtcrypt.core.tree, one method per grammar rule. Lark transforms leaves left to right, so
    the wildcards are named in order of appearance."""

    def __init__(self, source: str = "", named_cells: bool = False) -> None:
        super().__init__()
        self.source = source
        self.wildcards = 0
        self.named_cells = named_cells  # a formula made by smtcrypt: its hidden cells are named, not `?`

    def start(self, meta, items):
        return tuple(item for item in items if not isinstance(item, Token))

    def or_test(self, meta, operands):
        return BoolOp("or", tuple(operands), _span(meta))

    def and_test(self, meta, operands):
        return BoolOp("and", tuple(operands), _span(meta))

    def not_(self, meta, children):
        return Not(children[0], _span(meta))

    def comp_op(self, meta, tokens):
        return COMPARISON_OPS["".join(tokens)]

    def comparison(self, meta, children):
        return Compare(tuple(children[0::2]), tuple(children[1::2]), _span(meta))

    def _fold(self, children):
        result = children[0]
        for op, right in zip(children[1::2], children[2::2]):
            result = BinOp(str(op), result, right, _joined_span(result, right))
        return result

    def sum(self, meta, children):
        return self._fold(children)

    def product(self, meta, children):
        return self._fold(children)

    def unary(self, meta, children):
        op, operand = children
        return Unary(str(op), operand, _span(meta))

    def power(self, meta, children):
        base, exponent = children
        return BinOp("**", base, exponent, _span(meta))

    def call(self, meta, children):
        name, *args = children
        return Call(str(name), tuple(args), _span(meta))

    def name(self, meta, children):
        (token,) = children
        text = str(token)
        if all(is_letter(symbol) for symbol in symbols(text)):  # ABC_ is a name; ABC is lexed as a word
            return Word(spelled(text), _token_span(token))
        self._check_name(token, text)
        return Name(text, _token_span(token))

    def _check_name(self, token: Token, text: str) -> None:
        """A name holds letters of scripts with case: a letter of a script without case is a puzzle letter."""
        start = _token_span(token).start
        if text[0].isdigit():
            raise FormulaSyntaxError(f"{text!r}: a name cannot begin with a digit", self.source, start, len(text))
        for offset, ch in enumerate(text):
            if ch == "?":
                raise FormulaSyntaxError(f"a wildcard '?' cannot stand in the name {text!r} (a word of capitals takes "
                                         "it)", self.source, start + offset)
            if is_uncased_letter(ch):
                raise FormulaSyntaxError(f"{ch!r} is a letter of a script without case, a puzzle letter of its own: "
                                         f"it cannot stand in the name {text!r}", self.source, start + offset)

    def word(self, meta, children):
        (token,) = children
        text = str(token)
        self._check_digits(token, len(text), "a word")
        if any(is_lowercase(ch) for ch in text):  # ДВа, 7дв: lowercase letters make a name
            self._check_name(token, text)
            return Name(text, _token_span(token))
        if "?" in text:
            named = []
            for offset, ch in enumerate(text):
                if ch == "?":
                    if self.wildcards == len(WILDCARD_NAMES):
                        raise FormulaLimitError(f"more than {len(WILDCARD_NAMES)} wildcards '?'", self.source,
                                                token.start_pos + offset)
                    ch = WILDCARD_NAMES[self.wildcards]
                    self.wildcards += 1
                named.append(ch)
            text = "".join(named)
        return Word(spelled(text), _token_span(token))

    def repeating(self, meta, children):
        (token,) = children
        text = str(token)
        self._check_digits(token, len(text) - 3, "a repeating decimal")  # all but the point and the brackets
        lowercase = next((offset for offset, ch in enumerate(text) if is_lowercase(ch)), None)
        if lowercase is not None:
            raise FormulaSyntaxError(f"{text[lowercase]!r}: the digits of a repeating decimal are digits and "
                                     "puzzle letters, not lowercase letters", self.source,
                                     _token_span(token).start + lowercase)
        whole, rest = text.split(".", 1)
        fixed, period = rest[:-1].split("(", 1)
        return Repeating(whole or "0", spelled(fixed), spelled(period), text, _token_span(token))

    def number(self, meta, children):
        (token,) = children
        self._check_digits(token, len(token) - ("." in token))
        return Number(Fraction(Decimal(str(token))), str(token), _token_span(token))

    def _check_digits(self, token: Token, count: int, what: str = "a number") -> None:
        """A number, word or repeating decimal of more than MAX_NUMBER_DIGITS digits is refused under it."""
        if count > MAX_NUMBER_DIGITS:
            span = _token_span(token)
            raise FormulaLimitError(too_many_digits(count, what), self.source, span.start, span.end - span.start)

    def tuple(self, meta, items):
        return Collection("tuple", tuple(items), _span(meta))

    def set(self, meta, items):
        return Collection("set", tuple(items), _span(meta))


def parse(source: Formula, named_cells: bool = False) -> Constraints:
    """Parse a formula such as "NUM + BER = PLAY" into its typed tree. `named_cells`: the formula was
    made by smtcrypt (from a layout) and names its hidden cells by the characters of WILDCARD_NAMES.
    The text is read in its composed form (NFC): spans point into `normal(source)`."""
    source = normal(source)
    if not source.strip(" \t\r\n;,"):
        raise FormulaSyntaxError("empty formula: expected a constraint such as 'SEND + MORE = MONEY'", source, 0)
    if len(source) > MAX_SOURCE_LENGTH:
        raise FormulaLimitError(f"formula of {len(source):,} characters: the limit is {MAX_SOURCE_LENGTH:,}",
                                source, MAX_SOURCE_LENGTH)
    if not source.isascii():
        _check_characters(source, named_cells)
    elif _PLAIN_TEXT.fullmatch(source):
        plain = _PlainReader(source).constraints()
        if plain is not None:
            _make_room()
            return Constraints(plain, source)
    try:
        lark_tree = parser().parse(source)
    except UnexpectedInput as error:
        raise _syntax_error(source, error) from None
    _check_depth(source, lark_tree)
    try:
        constraints = _ToTree(source, named_cells).transform(lark_tree)
    except VisitError as error:
        if isinstance(error.orig_exc, FormulaError):
            raise error.orig_exc from None
        raise
    for constraint in constraints:
        _check_depth(source, constraint)
    return Constraints(constraints, source)


def _check_characters(source: str, named_cells: bool) -> None:
    """Every character outside ASCII must be a letter, or a mark or joiner on a letter (core/letters.py): a clear
    error at the first that is not (a symbol, a digit of another script, a look-alike of an operator, a
    wildcard's hidden name, a combining mark with no letter before it or on a digit). The lexer reads any
    character outside ASCII as part of a word or a name, so a mark is checked here, on the text's symbols."""
    misplaced = misplaced_mark(source)
    for position, ch in enumerate(source[:None if misplaced is None else misplaced[0]]):
        if ch >= "\x80" and not (named_cells and is_wildcard(ch)):
            problem = refusal(ch)
            if problem is not None:
                raise FormulaSyntaxError(problem, source, position)
    if misplaced is not None:
        raise FormulaSyntaxError(misplaced[1], source, misplaced[0])


def _check_depth(source: str, root: LarkTree | Expr) -> None:
    """Refuse trees nested deeper than MAX_DEPTH (later stages recurse over the tree), without recursing."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            where = node.meta.start_pos if isinstance(node, LarkTree) and not node.meta.empty else (
                node.span.start if hasattr(node, "span") else 0)
            raise FormulaLimitError(f"formula nested more than {MAX_DEPTH} levels deep (long chains of one "
                                    "operator count as nesting)", source, where)
        kids = node.children if isinstance(node, LarkTree) else () if isinstance(node, Token) else children(node)
        stack.extend((kid, depth + 1) for kid in kids if isinstance(kid, LarkTree) or hasattr(kid, "span"))


def _syntax_error(source: str, error: UnexpectedInput) -> FormulaSyntaxError:
    """A Lark error, relabelled with what went wrong and where."""
    if isinstance(error, UnexpectedCharacters) and error.pos_in_stream is not None:
        char = source[error.pos_in_stream]
        hint = ""
        if char >= "\x80" and refusal(char) is not None:
            return FormulaSyntaxError(str(refusal(char)), source, error.pos_in_stream)
        if char == "^":
            hint = " (use ** for powers)"
        return FormulaSyntaxError(f"unexpected character {char!r}{hint}", source, error.pos_in_stream)
    position = len(source.rstrip())
    found = "end of formula"
    length = 1
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        position = error.token.start_pos
        found = repr(str(error.token)) if error.token.type != "NEWLINE" else "end of line"
        length = len(str(error.token)) if error.token.type != "NEWLINE" else 1
    label = None
    if not isinstance(error, UnexpectedEOF):
        try:
            label = error.match_examples(parser().parse, ERROR_EXAMPLES, token_type_match_fallback=True,
                                         use_accepts=True)
        except Exception:  # a failed relabelling must not hide the real error
            label = None
    message = f"unexpected {found}" + (f": {label}" if label else "")
    return FormulaSyntaxError(message, source, position, length)


# --- the plain reader: the grammar's arithmetic subset, read without Lark --------------------------------

# What the plain reader takes: capitals, digits, spaces, newlines and the operators of plain arithmetic. A
# `!` alone, a `\r`, a lowercase letter, `_`, `.`, `?`, braces and every character outside ASCII go to Lark.
_PLAIN_TEXT = re.compile(r"[A-Z0-9 \t\f\n+\-*/%<>=!(),;]*")
# Lark's terminals on that text: a run of capitals and digits is a WORD if it holds a capital, else a NUMBER
# (WORD.2 outranks NUMBER and NAME); the longer operator wins (`**` over `*`, `//` over `/`, `<=` over `<`).
_PLAIN_TOKEN = re.compile(r"(?P<run>[A-Z0-9]+)|(?P<op>\*\*|//|==|!=|<=|>=|[-+*/%<>=(),;\n])|[ \t\f]+")
_PLAIN_RECURSION = 100  # brackets, signs and powers nested deeper go to Lark
_PLAIN_DEPTH = MAX_DEPTH - 10  # a tree about as deep as the limit goes to Lark, whose checks word the error
_SEPARATORS = (",", ";", "\n")
_COMPARATORS = ("=", "==", "!=", "<", "<=", ">", ">=")


class _NotPlain(Exception):
    """The text is outside the plain reader's subset, or not a formula: Lark reads it."""


class _PlainReader:
    """Recursive descent over the grammar's arithmetic: constraint (separator constraint)*, where a
    constraint is a comparison chain of sums, a sum of products, a product of signed powers, and a power's
    base a word, a whole number or a bracketed comparison. Each node is made as `_ToTree` makes it from
    Lark's tree: a chain of one operator folded left, with spans joined from its operands' spans; a sign,
    a power and a comparison spanning what Lark's positions give their rule, which reach out to the
    brackets around an operand. Each method returns the node and that reach (its "container" in Lark's
    words: the node's own text, or the brackets around it)."""

    def __init__(self, source: str):
        self.source = source
        # the tokens, as three lists: an operator's tag is its text, a word's "w", a number's "n", the end's "$"
        self.tags: list[str] = []
        self.texts: list[str] = []
        self.starts: list[int] = []
        self.index = 0
        self.nesting = 0
        self.line_starts = [0] + [match.end() for match in re.finditer("\n", source)]

    def constraints(self) -> tuple[Expr, ...] | None:
        """The constraints, or None when Lark must read the text."""
        try:
            self._tokenize()
            found = self._start()
        except _NotPlain:
            return None
        # a node holds a token of its own, so only a formula of more tokens than the limit can be that deep
        if len(self.tags) > _PLAIN_DEPTH and any(_depth(constraint) > _PLAIN_DEPTH for constraint in found):
            return None
        return found

    def _tokenize(self) -> None:
        """Lark's tokens, newlines inside brackets dropped as `_BracketNewlines` drops them."""
        position, brackets, source = 0, 0, self.source
        tags, texts, starts = self.tags, self.texts, self.starts
        while position < len(source):
            match = _PLAIN_TOKEN.match(source, position)
            if match is None:
                raise _NotPlain
            text, start = match.group(), position
            position = match.end()
            if match.lastgroup == "run":
                if len(text) > MAX_NUMBER_DIGITS:  # Lark's path refuses it, with its message
                    raise _NotPlain
                tag = "n" if text.isdigit() else "w"
            elif match.lastgroup == "op":
                if text == "(":
                    brackets += 1
                elif text == ")":
                    brackets = max(0, brackets - 1)
                elif text == "\n" and brackets:
                    continue
                tag = text
            else:
                continue
            tags.append(tag)
            texts.append(text)
            starts.append(start)
        tags.append("$")
        texts.append("")
        starts.append(len(source))

    def _span(self, start: int, end: int) -> Span:
        if len(self.line_starts) == 1:
            return Span(start, end, 1, start + 1)
        line = _line_of(self.line_starts, start)
        return Span(start, end, line + 1, start - self.line_starts[line] + 1)

    def _start(self) -> tuple[Expr, ...]:
        found, tags = [], self.tags
        while tags[self.index] in _SEPARATORS:
            self.index += 1
        while True:
            found.append(self._comparison()[0])
            if tags[self.index] == "$":
                return tuple(found)
            if tags[self.index] not in _SEPARATORS:
                raise _NotPlain
            while tags[self.index] in _SEPARATORS:
                self.index += 1
            if tags[self.index] == "$":
                return tuple(found)

    def _comparison(self) -> tuple[Expr, Span]:
        first, reach = self._sum()
        operands, ops, last = [first], [], reach
        while self.tags[self.index] in _COMPARATORS:
            ops.append(COMPARISON_OPS[self.tags[self.index]])
            self.index += 1
            operand, last = self._sum()
            operands.append(operand)
        if not ops:
            return first, reach
        span = Span(reach.start, last.end, reach.line, reach.column)
        return Compare(tuple(operands), tuple(ops), span), span

    def _sum(self) -> tuple[Expr, Span]:
        """Products joined by + and -, folded left as `_ToTree._fold` folds them."""
        left, reach = self._product()
        last, tags = reach, self.tags
        while tags[self.index] in ("+", "-"):
            op = tags[self.index]
            self.index += 1
            right, last = self._product()
            left = BinOp(op, left, right, _joined_span(left, right))
        return left, (reach if last is reach else Span(reach.start, last.end, reach.line, reach.column))

    def _product(self) -> tuple[Expr, Span]:
        """Factors joined by * / // %, folded left."""
        left, reach = self._factor()
        last, tags = reach, self.tags
        while tags[self.index] in ("*", "/", "//", "%"):
            op = tags[self.index]
            self.index += 1
            right, last = self._factor()
            left = BinOp(op, left, right, _joined_span(left, right))
        return left, (reach if last is reach else Span(reach.start, last.end, reach.line, reach.column))

    def _factor(self) -> tuple[Expr, Span]:
        index = self.index
        tag = self.tags[index]
        if tag == "w" or tag == "n":  # the usual operand: a word or a number, with no power
            self.index = index + 1
            text, start = self.texts[index], self.starts[index]
            span = self._span(start, start + len(text))
            base: Expr = Word(text, span) if tag == "w" else Number(Fraction(int(text)), text, span)
            if self.tags[index + 1] != "**":
                return base, span
            return self._power(base, span)
        if tag == "+" or tag == "-":
            self.index += 1
            operand, last = self._nested(self._factor)
            span = self._span(self.starts[index], last.end)
            return Unary(tag, operand, span), span
        if tag == "(":
            self.index += 1
            inner, _ = self._nested(self._comparison)
            if self.tags[self.index] != ")":
                raise _NotPlain
            self.index += 1
            reach = self._span(self.starts[index], self.starts[self.index - 1] + 1)
            if self.tags[self.index] != "**":
                return inner, reach
            return self._power(inner, reach)
        raise _NotPlain

    def _power(self, base: Expr, reach: Span) -> tuple[Expr, Span]:
        """`base ** factor`, the `**` at hand."""
        self.index += 1
        exponent, last = self._nested(self._factor)
        span = Span(reach.start, last.end, reach.line, reach.column)
        return BinOp("**", base, exponent, span), span

    def _nested(self, read: Callable[[], tuple[Expr, Span]]) -> tuple[Expr, Span]:
        """`read()` one level deeper; too deep for this reader's recursion, Lark reads the text."""
        self.nesting += 1
        if self.nesting > _PLAIN_RECURSION:
            raise _NotPlain
        try:
            return read()
        finally:
            self.nesting -= 1


def _line_of(line_starts: list[int], position: int) -> int:
    """The 0-based line of `position`, given where each line starts."""
    low, high = 0, len(line_starts) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if line_starts[middle] <= position:
            low = middle
        else:
            high = middle - 1
    return low


def _depth(root: Expr) -> int:
    """How deep the tree under `root` goes (`root` at 1), without recursing."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((kid, depth + 1) for kid in children(node))
    return deepest
