"""Stage 1: formula text -> typed tree (`Constraints`), with positioned syntax errors.

Lark parses with the LALR grammar in grammar/smtcrypt.lark; a Transformer turns
Lark's tree into the dataclasses of `smtcrypt.core.tree` in one pass, leaves up. Lark is the one
reader of the language: a faster hand-written reader of its plain subset would be a second grammar
to keep in step with this one.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark import Tree as LarkTree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.tree import Meta

from smtcrypt.core.letters import (
    WILDCARD_NAMES,
    is_letter,
    is_lowercase,
    is_uncased_letter,
    misplaced_mark,
    normal,
    refusal,
    spelled,
    symbols,
)
from smtcrypt.core.limits import MAX_DEPTH, MAX_SOURCE_LENGTH, make_room
from smtcrypt.core.limits import STACK_ROOM as STACK_ROOM  # the limits every tree keeps, named here too
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

# Normalised comparison operators: `=` and `is` mean `==`, `is not` means `!=`.
COMPARISON_OPS = {"=": "==", "==": "==", "is": "==", "!=": "!=", "isnot": "!=", "<": "<", "<=": "<=",
                  ">": ">", ">=": ">=", "in": "in", "notin": "not in"}

# Operators as written on paper, which the language spells otherwise: `x` for times (where it stands
# between two operands, a name would not; `×` and `÷`: core/letters.py). `:` is the language's own `/`.
TEXT_OPERATORS = {"x": "*"}
SPELLINGS = {":": "/"}  # an operator as other tools write it -> the tree's
MISSING_OPERATOR = "missing operator between two operands"

# Small bad inputs, each labelled with what a user should be told (see Lark's match_examples).
ERROR_EXAMPLES = {
    "missing operand": ["A +", "A + = B", "A * * B", "A ==", "= A", "A = B +", "(", "A = -", "A = (B +)",
                        "A = not", "A and", "A = B or", "A = B and = C", "A + , B", "A + B =",
                        "A = B =", "A = B <", "A * B =", "A &&", "A = B ||", "A && = B", "A || || B", "A = √",
                        "A :", "A : = B"],
    MISSING_OPERATOR: ["A B", "A 2", "A = (B) C", "2 A = B", "A = B C", "A(B) C",
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
    here = Path(__file__).resolve().parents[1]  # the package: the wheel puts the grammar in it
    packaged = here / "grammar" / GRAMMAR_NAME
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (here.parent / "grammar" / GRAMMAR_NAME).read_text(encoding="utf-8")


def build_parser(strict: bool = False, lines: bool = True) -> Lark:
    """An LALR parser for the grammar; `strict` also rejects any grammar conflict (needs interegular).
    `lines=False` leaves out the step that drops newlines inside brackets, for a text without any
    (most are one line): the trees are the same, and the parse takes a sixth less time.

    The built parser is cached in the temporary folder (keyed on the grammar, the options and
    Lark's version), which makes a command-line start several times faster.
    """
    return Lark(grammar_text(), parser="lalr", lexer="contextual", postlex=_BracketNewlines() if lines else None,
                propagate_positions=True, maybe_placeholders=False, strict=strict, cache=not strict)


@lru_cache(maxsize=2)
def parser(lines: bool = True) -> Lark:
    """The parser, built once per process (for texts of several lines, and of one); the stack made
    room for the trees it makes."""
    make_room()
    return build_parser(lines=lines)


def _span(meta: Meta) -> Span:
    return Span(meta.start_pos, meta.end_pos, meta.line, meta.column)


def _token_span(token: Token) -> Span:
    """Tokens the parser made from the source always carry their position."""
    assert token.start_pos is not None and token.end_pos is not None and token.line is not None \
        and token.column is not None
    return Span(token.start_pos, token.end_pos, token.line, token.column)


def _joined_span(first: Expr, last: Expr) -> Span:
    return Span(first.span.start, last.span.end, first.span.line, first.span.column)


class _ToTree:
    """Lark tree -> smtcrypt.core.tree, one method per grammar rule, each given the rule's position
    (`meta`) and its children made already. The walk goes leaves first, left to right, so the
    wildcards are named in order of appearance; it is a loop, not Lark's `Transformer`, whose
    wrappers for the position cost more than the methods (a fifth of a parse)."""

    def __init__(self, source: str = "") -> None:
        self.source = source
        self.wildcards = 0

    def transform(self, root: LarkTree) -> Any:
        """The tree made from `root` bottom up, without recursion (the depth was checked, not bounded)."""
        frames: list[tuple[LarkTree, Iterator[Any], list[Any]]] = [(root, iter(root.children), [])]
        while True:
            tree, pending, made = frames[-1]
            for child in pending:
                if isinstance(child, LarkTree):
                    frames.append((child, iter(child.children), []))
                    break
                made.append(child)
            else:
                frames.pop()
                value = getattr(self, tree.data)(tree.meta, made)
                if not frames:
                    return value
                frames[-1][2].append(value)

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
            result = BinOp(SPELLINGS.get(str(op), str(op)), result, right, _joined_span(result, right))
        return result

    def sum(self, meta, children):
        return self._fold(children)

    def product(self, meta, children):
        return self._fold(children)

    def unary(self, meta, children):
        op, operand = children
        return Unary(str(op), operand, _span(meta))

    def root(self, meta, children):
        """`√x` is x ** (1/2), the exact square root, as written (its span is the root's)."""
        (operand,) = children
        span = _span(meta)
        half = BinOp("/", Number(Fraction(1), "1", span), Number(Fraction(2), "2", span), span)
        return BinOp("**", operand, half, span)

    def factorial(self, meta, children):
        """`n!` is factorial(n), as written (its span is the whole `n!`)."""
        return Call("factorial", (children[0],), _span(meta))

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
        return _repeating(text, _token_span(token))

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


def _repeating(text: str, span: Span) -> Repeating:
    whole, rest = text.split(".", 1)
    fixed, period = rest[:-1].split("(", 1)
    return Repeating(whole or "0", spelled(fixed), spelled(period), text, span)


# A formula's shape: its text with every capital A-Z as A. Texts of one shape lex to the same tokens
# (a capital is a capital to every terminal and every check of the parse), so their trees differ only
# in the text of their words, names and repeating decimals, read off their spans.
SHAPE = str.maketrans(dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "A"))
SHAPED_LENGTH = 400  # the longest text whose shape's tree is kept
SHAPES_KEPT = 1024  # trees of shapes kept (each of a text of at most SHAPED_LENGTH characters)


def parse(source: Formula) -> Constraints:
    """Parse a formula such as "NUM + BER = PLAY" into its typed tree. The text is read in its
    composed form (NFC): spans point into `normal(source)`.

    A short text of ASCII without wildcards is parsed by its shape (`SHAPE`), once a shape: a
    collection of puzzles repeats a few thousand shapes (`SEND + MORE = MONEY` is `AAAA + AAAA =
    AAAAA`), and each tree is the shape's with the text's own words, a tenth of Lark's time. A text
    whose shape does not parse is parsed itself, for its own error message."""
    source = normal(source)
    if not source.strip(" \t\r\n;,"):
        raise FormulaSyntaxError("empty formula: expected a constraint such as 'SEND + MORE = MONEY'", source, 0)
    if len(source) > MAX_SOURCE_LENGTH:
        raise FormulaLimitError(f"formula of {len(source):,} characters: the limit is {MAX_SOURCE_LENGTH:,}",
                                source, MAX_SOURCE_LENGTH)
    if len(source) <= SHAPED_LENGTH and source.isascii() and "?" not in source:
        shaped = _shape_tree(source.translate(SHAPE))
        if shaped is not None:
            return Constraints(tuple(_dressed(constraint, source) for constraint in shaped.constraints), source,
                               measured=True)
    return _parse(source)


@lru_cache(maxsize=SHAPES_KEPT)
def _shape_tree(shape: str) -> Constraints | None:
    """The shape's tree, or None where it does not parse: the text is then parsed itself, for the
    message in its own words (a message made for the shape would be thrown away, and making one
    costs more than a parse)."""
    try:
        return _parse(shape, explain=False)
    except (UnexpectedInput, FormulaError):
        return None


def forget_shapes() -> None:
    """Empty the memo of shapes' trees (for a measure of texts all of new shapes)."""
    _shape_tree.cache_clear()


def _dressed(node: Expr, source: str) -> Expr:  # noqa: PLR0911
    """A new tree of the shape's tree `node`, its words, names and repeating decimals read from `source`
    at their spans (the rest of the tree, operators and numbers, is the same in both texts)."""
    span = node.span
    if isinstance(node, Word):
        return Word(spelled(source[span.start:span.end]), span)
    if isinstance(node, Name):
        return Name(source[span.start:span.end], span)
    if isinstance(node, Number):
        return Number(node.value, node.text, span)
    if isinstance(node, Repeating):
        return _repeating(source[span.start:span.end], span)
    if isinstance(node, BinOp):
        return BinOp(node.op, _dressed(node.left, source), _dressed(node.right, source), span)
    if isinstance(node, Compare):
        return Compare(tuple(_dressed(operand, source) for operand in node.operands), node.ops, span)
    if isinstance(node, Unary):
        return Unary(node.op, _dressed(node.operand, source), span)
    if isinstance(node, BoolOp):
        return BoolOp(node.op, tuple(_dressed(operand, source) for operand in node.operands), span)
    if isinstance(node, Not):
        return Not(_dressed(node.operand, source), span)
    if isinstance(node, Call):  # its name as written, but a postfix `n!`'s, which is not written
        name = node.name if source[span.end - 1] == "!" else source[span.start:span.start + len(node.name)]
        return Call(name, tuple(_dressed(arg, source) for arg in node.args), span)
    return Collection(node.kind, tuple(_dressed(item, source) for item in node.items), span)


def _parse(source: str, explain: bool = True) -> Constraints:
    """`parse` by Lark, for a text already checked for emptiness and length; `explain=False` lets
    Lark's own error through, without the message `_syntax_error` makes of it."""
    if not source.isascii():
        _check_characters(source)
    try:
        lark_tree = parser("\n" in source).parse(source)
    except UnexpectedInput as error:
        if not explain:
            raise
        raise _syntax_error(source, error) from None
    deep = len(source) >= MAX_DEPTH  # else no tree is that deep (see `_check_depth`): the walks are left out
    if deep:
        _check_depth(source, lark_tree)
    constraints = _ToTree(source).transform(lark_tree)
    if deep:
        for constraint in constraints:
            _check_depth(source, constraint)
    return Constraints(constraints, source, measured=True)  # within every limit: see core/limits.py


def _check_characters(source: str) -> None:
    """Every character outside ASCII must be a letter, or a mark or joiner on a letter (core/letters.py): a clear
    error at the first that is not (a symbol, a digit of another script, a look-alike of an operator, a
    wildcard's hidden name, a combining mark with no letter before it or on a digit). The lexer reads any
    character outside ASCII as part of a word or a name, so a mark is checked here, on the text's symbols."""
    misplaced = misplaced_mark(source)
    for position, ch in enumerate(source[:None if misplaced is None else misplaced[0]]):
        if ch >= "\x80":
            problem = refusal(ch)
            if problem is not None:
                raise FormulaSyntaxError(problem, source, position)
    if misplaced is not None:
        raise FormulaSyntaxError(misplaced[1], source, misplaced[0])


def _check_depth(source: str, root: LarkTree | Expr) -> None:
    """Refuse trees nested deeper than MAX_DEPTH (later stages recurse over the tree), without recursing.
    Every node of either tree but the root takes a token of its own (an operator, a bracket, a word),
    so a tree is at most one more deep than the text has characters: a shorter text needs no walk."""
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
        elif char in TEXT_OPERATORS:
            hint = f" (write {TEXT_OPERATORS[char]!r} for this operator)"
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
    if isinstance(error, UnexpectedToken) and str(error.token) in TEXT_OPERATORS and label == MISSING_OPERATOR:
        message += f" (write {TEXT_OPERATORS[str(error.token)]!r} for this operator)"  # `AB x C`: times, as on paper
    return FormulaSyntaxError(message, source, position, length)
