"""One enigma.py expression (a Python expression over words of symbols) into our formula's tree.

enigma.py's `SubstitutedExpression` hands each expression to Python after replacing its words;
here nothing is run. The words are found first (maximal runs of the puzzle's symbols), each
replaced by a placeholder name, and the text is read by `ast.parse(mode="eval")`, which parses and
runs nothing. Python's tree is then walked, and only the node types run files use become nodes of
ours (`core.tree`), the nodes the parser makes of our formula text for the same expression: words,
integer and decimal constants, `+ - * / // % **`, unary `-` and `+`, comparisons (chained),
`and`/`or`/`not`, `in` with a literal set, tuple, list or `range(...)`, and calls of the functions
below. Anything else is a `FormulaError` naming the construct, with a caret under it in the
user's text. Each node's span is where the user wrote it (a word at its symbols, an operator at the
operator), so that the checker's carets land in the expression as written; the walk writes our
formula's text beside the tree, only to be shown (nothing reads it again).

Rules pinned from public enigma.py material (enigmaticcode.wordpress.com posts and enigma.py's
docstrings, read as reference):
- A word is a run of the puzzle's symbols, by default the capital letters A-Z; `--symbols` names
  others, and then lowercase letters and even digits are symbols ("Enigma 380: Answer what?"
  declares `--symbols="bdghkmprxyABCDEF"` for lowercase words; "Puzzle 85" declares
  `--symbols="01356789"` and writes "1939 + 1079 = 6856" with digit symbols). Symbols are
  case-sensitive: `a` and `A` are different symbols.
- A digit that is not a symbol is a literal (`TOM * 13 = DALEY`, enigma.py's own docstring example).
- Braces: an expression (or an --answer) that holds a word in braces, `{SEND} + {MORE} = {MONEY}` or
  `is_square({ONE})`, is written in enigma.py's explicit notation: its words are the ones in braces,
  every character in them a symbol (lowercase letters too, without --symbols), and nothing outside
  braces is a word. Solutions show the words without their braces, as enigma.py prints them.
- `=` between two sides means `==` (every published command line writes "SEND + MORE = MONEY").
- `/` is Python 3's true division and `//` floor division; here `/` is exact rational division,
  which agrees with enigma.py wherever floats are exact and is what the puzzles mean elsewhere.
- enigma.py's `is_square(n)` returns the root of a square and None otherwise, so in a condition a
  square 0 is false (its root, 0, is falsy in Python): `is_square(X)` alone is translated to
  `is_square(X) and X != 0` unless X cannot be 0; used as a number, it is the exact root
  `X ** (1 / 2)` (a non-square leaves the candidate out). `is_cube` and `is_power(X, K)` alike.
  `is_square_p` / `is_cube_p` are the plain truth values.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from smtcrypt.core.limits import MAX_DEPTH, make_room
from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, too_many_digits
from smtcrypt.core.rules import FUNCTIONS
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Expr,
    Not,
    Number,
    Span,
    Spans,
    Unary,
    Word,
)
from smtcrypt.errors import FormulaError, FormulaLimitError

TOKEN = re.compile(r"[A-Za-z0-9_]+")
BRACED = re.compile(r"\{([A-Za-z0-9_]+)\}")  # a word in enigma.py's explicit notation: {SEND}
CALLED = re.compile(r"\s*\(")  # what follows a function's name
PLACEHOLDER = "_w{}_"
LINE_BREAK = re.compile(r"\r\n|\r|\n")  # where Python's reader starts a line
NOT_IN = re.compile(r"not(?:\s|\\)+in")
BETWEEN = frozenset(" \t\f\r\n\\()")  # what may stand between an operand and its operator

BINARY = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}
UNSUPPORTED_BINARY = {ast.BitXor: "'^' (bitwise exclusive or)", ast.BitAnd: "'&' (bitwise and)",
                      ast.BitOr: "'|' (bitwise or)", ast.LShift: "'<<' (a shift)", ast.RShift: "'>>' (a shift)",
                      ast.MatMult: "'@' (matrix product)"}
COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
           ast.NotIn: "not in"}
# The constructs refused, by what a user would call them.
CONSTRUCTS = {ast.Attribute: "an attribute (x.y)", ast.Subscript: "indexing or slicing (x[i])",
              ast.Lambda: "a lambda", ast.IfExp: "a conditional expression (x if c else y)",
              ast.Dict: "a dict", ast.DictComp: "a comprehension", ast.ListComp: "a comprehension",
              ast.SetComp: "a comprehension", ast.GeneratorExp: "a generator expression",
              ast.JoinedStr: "a string", ast.Starred: "unpacking (*x)", ast.NamedExpr: "an assignment (:=)",
              ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield", ast.Slice: "a slice"}

# enigma.py's function -> (our word, how it reads in a condition, how it reads as a number); see the
# module docstring for the root-returning ones.
ROOTS = {"is_square": 2, "is_cube": 3}
PLAIN = {"abs": "abs", "min": "min", "max": "max", "gcd": "gcd", "is_prime": "is_prime", "dsum": "dsum",
         "nreverse": "rev", "rev": "rev", "is_palindrome": "is_palindrome", "divides": "divides",
         "is_triangular": "is_triangular", "is_square_p": "is_square", "is_cube_p": "is_cube",
         "factorial": "factorial"}
CALLS = frozenset(PLAIN) | frozenset(ROOTS) | {"is_power", "nsplit", "sum"}


@dataclass(frozen=True)
class WrittenWord:
    """A word as written: its text and where it starts in the expression (inside its braces, if it
    is written `{SEND}`)."""

    text: str
    start: int
    braced: bool = False

    @property
    def end(self) -> int:
        return self.start + len(self.text)

    @property
    def span(self) -> tuple[int, int]:
        """Where the word stands in the expression, with its braces."""
        return (self.start - 1, self.end + 1) if self.braced else (self.start, self.end)


@dataclass(frozen=True)
class Translated:
    """An expression as the user wrote it, its words, our tree of it (None for a text only printed,
    a --template), and our formula's text of that tree, to be shown."""

    text: str
    formula: str
    words: tuple[WrittenWord, ...]
    tree: Expr | None = None  # its spans in the text it was read within (`Translator.translate`)

    @property
    def written(self) -> str:
        """The expression as enigma.py prints it: as written, the words without their braces."""
        pieces, position = [], 0
        for word in self.words:
            start, end = word.span
            pieces += [self.text[position:start], word.text]
            position = end
        return "".join(pieces) + self.text[position:]


def is_explicit(text: str) -> bool:
    """Whether `text` writes its words in braces (enigma.py's explicit notation), as `{SEND} + {MORE}`."""
    return BRACED.search(text) is not None


def find_words(text: str, symbols: frozenset[str]) -> list[WrittenWord]:
    """The words of `text`: in braces where it writes any so (every character of them a symbol), else
    tokens made of symbols (and literal digits), not a function's name."""
    if is_explicit(text):
        return [WrittenWord(match.group(1), match.start(1), braced=True) for match in BRACED.finditer(text)]
    words = []
    for match in TOKEN.finditer(text):
        token = match.group()
        if not any(ch in symbols for ch in token) or not all(ch in symbols or ch.isdigit() for ch in token):
            continue  # a number, or a name such as is_prime
        if CALLED.match(text, match.end()):  # looked at in place: no copy of the rest of the text per word
            continue  # a function's name (a word is a number, never called), even where its letters are symbols
        words.append(WrittenWord(token, match.start()))
    return words


class Translator:
    """Translates expressions over the user's symbols into our tree (and formula text) over our letters.

    `letters` maps each symbol to our capital letter; `nonzero` holds the symbols that cannot be 0
    (so that `is_square(ABC)` needs no `ABC != 0`)."""

    def __init__(self, symbols: frozenset[str], letters: Mapping[str, str], nonzero: frozenset[str] = frozenset(),
                 available: Callable[[str], bool] = FUNCTIONS.__contains__):
        self.symbols, self.letters, self.nonzero, self.available = symbols, letters, nonzero, available

    def translate(self, text: str, *, answer: bool = False, at: int = 0, spans: Spans | None = None) -> Translated:
        """One expression (a condition; with `answer`, a value or a tuple) as our tree and its text. The
        tree's spans point into the text `spans` was made of, where `text` stands at offset `at` (the
        puzzle's text that holds every expression); by default into `text` itself. A `FormulaError`
        of the translation points into `text`."""
        return _Walk(self, text, answer, at, Spans(text) if spans is None else spans).run()

    def word(self, word: WrittenWord) -> str:
        return "".join(self.letters.get(ch, ch) if self.is_symbol(ch, word) else ch for ch in word.text)

    def is_symbol(self, ch: str, word: WrittenWord) -> bool:
        """Whether a character of a word is a symbol: every one in braces, else the puzzle's symbols."""
        return word.braced or ch in self.symbols


Made = tuple[Expr, str]  # a node of ours and our formula's text of it


def _integer(value: int, span: Span) -> Number:
    """A whole number as the parser makes it of its digits (written out however long: the checker's
    limits refuse one of too many digits under it)."""
    return Number(Fraction(value), str(value), span)


class _Walk:
    """One expression: the rewritten text read by `ast.parse`, walked into our nodes and their text."""

    def __init__(self, translator: Translator, text: str, answer: bool, at: int, spans: Spans):
        self.translator, self.text, self.answer, self.at, self.spans = translator, text, answer, at, spans
        self.check_numbers()
        self.words = find_words(text, translator.symbols)
        self.python, self.origin, self.ends = self.rewrite()
        self.stripped = self.python.strip()  # what Python reads (a leading blank would be an indent)
        self.leading = len(self.python) - len(self.python.lstrip())
        self.lines = [0] + [match.end() for match in LINE_BREAK.finditer(self.stripped)]

    def rewrite(self) -> tuple[str, list[int], list[int]]:
        """The text with each word a placeholder name and a lone `=` as `==`; and for each of its
        characters where in the user's text it starts, and where it ends (a placeholder's, where its
        word ends)."""
        pieces: list[str] = []
        origin: list[int] = []
        ends: list[int] = []
        starts = {word.span[0]: index for index, word in enumerate(self.words)}
        position = 0
        while position < len(self.text):
            ch = self.text[position]
            if position in starts:
                index = starts[position]
                name = PLACEHOLDER.format(index)
                pieces.append(name)
                end = self.words[index].span[1]
                origin.extend([position] * len(name))
                ends.extend([end] * len(name))
                position = end
                continue
            if ch == "=" and self.text[position - 1:position] not in ("=", "!", "<", ">") \
                    and self.text[position + 1:position + 2] != "=":
                pieces.append("==")
                origin.extend([position, position])
                ends.extend([position + 1, position + 1])
            elif not ch.isascii():
                raise self.error_at(f"unexpected character {ch!r}", position)
            else:
                pieces.append(ch)
                origin.append(position)
                ends.append(position + 1)
            position += 1
        origin.append(len(self.text))
        ends.append(len(self.text))
        return "".join(pieces), origin, ends

    # --- places: Python's positions, the rewritten text's, the user's ----------------------------------

    def offset(self, line: int | None, column: int | None) -> int:
        """Where Python's position (line, column in the text it read) is in the rewritten text."""
        if line is None or line <= 1:  # most expressions are one line
            return self.leading + (column or 0)
        return self.leading + self.lines[min(line, len(self.lines)) - 1] + (column or 0)

    def written(self, start: int, end: int) -> tuple[int, int]:
        """Where the rewritten text's [start, end) stands in the user's text (at least one character)."""
        last = len(self.origin) - 1
        first = self.origin[min(start, last)]
        stop = self.ends[min(end - 1, last)] if end > start else first + 1
        return first, max(stop, first + 1)

    def place(self, node: ast.AST) -> tuple[int, int]:
        """Where Python's node stands in the user's text."""
        start = self.offset(getattr(node, "lineno", 1), getattr(node, "col_offset", 0))
        end_column = getattr(node, "end_col_offset", None)
        end = self.offset(getattr(node, "end_lineno", None), end_column) if end_column is not None else start + 1
        return self.written(start, end)

    def span(self, node: ast.AST) -> Span:
        """The span of Python's node in the puzzle's text."""
        start, end = self.place(node)
        return self.spans(self.at + start, self.at + end)

    def at_start(self, node: ast.AST, length: int) -> Span:
        """The span of an operator that starts Python's node (unary `-`, `not`)."""
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        first, stop = self.written(start, start + length)
        return self.spans(self.at + first, self.at + stop)

    def between(self, left: ast.expr, right: ast.expr, operator: str) -> Span:
        """The span of the operator Python read between two operands: the first character after the
        left one that is not a bracket, a blank or a comment; `operator` as the rewritten text has it."""
        position = self.offset(left.end_lineno, left.end_col_offset)
        stop = self.offset(right.lineno, right.col_offset)
        python = self.python
        while position < stop:
            ch = python[position]
            if ch == "#":
                line_end = LINE_BREAK.search(python, position, stop)
                position = stop if line_end is None else line_end.end()
            elif ch in BETWEEN:
                position += 1
            else:
                break
        length = len(operator)
        if operator == "not in":
            match = NOT_IN.match(python, position, stop)
            length = match.end() - position if match is not None else 3
        first, end = self.written(position, position + length)
        return self.spans(self.at + first, self.at + end)

    # --- limits and errors --------------------------------------------------------------------------

    def check_numbers(self) -> None:
        """A number or word of more than MAX_NUMBER_DIGITS characters is refused under it, before Python
        reads it (its own limit on converting digits would end in an error that names no place)."""
        for match in TOKEN.finditer(self.text):
            if len(match.group()) > MAX_NUMBER_DIGITS:
                raise FormulaLimitError(too_many_digits(len(match.group()), "a number or word"), self.text,
                                        match.start(), len(match.group()))

    def check_depth(self, tree: ast.AST) -> None:
        """The parsed expression nested no deeper than MAX_DEPTH (chains of one operator counted, as in the
        formula language), checked without recursion before the walk, which recurses."""
        stack = [(tree, 0)]
        while stack:
            node, depth = stack.pop()
            if isinstance(node, ast.expr):
                depth += 1
                if depth > MAX_DEPTH:
                    raise self.error(f"expression nested more than {MAX_DEPTH} levels deep (long chains of one "
                                     "operator count as nesting)", node)
            stack.extend((child, depth) for child in ast.iter_child_nodes(node))

    def error_at(self, message: str, position: int, length: int = 1) -> FormulaError:
        return FormulaError(message, self.text, position, length)

    def error(self, message: str, node: ast.AST) -> FormulaError:
        start, end = self.place(node)
        return self.error_at(message, start, end - start)

    # --- the walk -----------------------------------------------------------------------------------

    def run(self) -> Translated:
        if not self.text.strip():
            raise self.error_at("empty expression", 0)
        try:
            tree = ast.parse(self.stripped, mode="eval")
        except (RecursionError, MemoryError):  # Python's own parser gives up on deep nesting or long chains
            raise FormulaLimitError(f"expression nested more than Python's parser takes (smtcrypt takes {MAX_DEPTH} "
                                    "levels; long chains of one operator count as nesting)", self.text, 0,
                                    len(self.text)) from None
        except SyntaxError as problem:
            offset = self.offset(problem.lineno, max((problem.offset or 1) - 1, 0))
            raise self.error_at(f"not a Python expression: {problem.msg}",
                                self.origin[min(offset, len(self.origin) - 1)]) from None
        self.check_depth(tree)
        make_room()  # the walk recurses a few frames a level, as the later stages do
        body = tree.body
        if self.answer and isinstance(body, ast.Tuple):
            items = [self.value(item) for item in body.elts]
            formula = "(" + ", ".join(text for _, text in items) + ("," if len(items) == 1 else "") + ")"
            node: Expr = Collection("tuple", tuple(item for item, _ in items), self.span(body))
        elif self.answer:
            node, formula = self.value(body)
        else:
            node, formula = self.condition(body)
        return Translated(self.text, formula, tuple(self.words), node)

    def condition(self, node: ast.expr) -> Made:
        """`node` where only its truth counts (a whole expression, an operand of and/or/not)."""
        if isinstance(node, ast.BoolOp):
            return self.bool_op(node, self.condition)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            operand, text = self.condition(node.operand)
            return Not(operand, self.at_start(node, 3)), f"(not {text})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (*ROOTS, "is_power"):
            (tested, tested_text), _ = self.root_call(node)
            ours = self.function(node, node.func.id)
            args = [self.value(arg) for arg in node.args]
            span = self.span(node)
            call, text = Call(ours, tuple(arg for arg, _ in args), span), f"{ours}({', '.join(t for _, t in args)})"
            if self.cannot_be_zero(node.args[0]):
                return call, text
            nonzero = Compare((tested, _integer(0, span)), ("!=",), span)
            return BoolOp("and", (call, nonzero), span), f"({text} and {tested_text} != 0)"
        return self.value(node)

    def bool_op(self, node: ast.BoolOp, operand: Callable[[ast.expr], Made]) -> Made:
        op = "and" if isinstance(node.op, ast.And) else "or"
        parts = [operand(value) for value in node.values]
        span = self.between(node.values[0], node.values[1], op)
        return BoolOp(op, tuple(part for part, _ in parts), span), "(" + f" {op} ".join(t for _, t in parts) + ")"

    def value(self, node: ast.expr) -> Made:  # noqa: PLR0911
        """`node` as a number (or a truth value used as one, as Python's 1 and 0)."""
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.BinOp):
            op = BINARY.get(type(node.op))
            if op is None:
                raise self.error(f"{UNSUPPORTED_BINARY.get(type(node.op), 'this operator')} is not supported", node)
            (left, left_text), (right, right_text) = self.value(node.left), self.value(node.right)
            return BinOp(op, left, right, self.between(node.left, node.right, op)), f"({left_text} {op} {right_text})"
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                operand, text = self.condition(node.operand)
                return Not(operand, self.at_start(node, 3)), f"(not {text})"
            if isinstance(node.op, ast.Invert):
                raise self.error("'~' (bitwise not) is not supported", node)
            sign = "-" if isinstance(node.op, ast.USub) else "+"
            operand, text = self.value(node.operand)
            return Unary(sign, operand, self.at_start(node, 1)), f"({sign}{text})"
        if isinstance(node, ast.BoolOp):
            return self.bool_op(node, self.value)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            raise self.error("a tuple, list or set stands only after 'in' (or as the whole --answer)", node)
        raise self.error(f"{CONSTRUCTS.get(type(node), type(node).__name__)} is not supported", node)

    def name(self, node: ast.Name) -> Made:
        match = re.fullmatch(r"_w(\d+)_", node.id)
        if match is not None and int(match.group(1)) < len(self.words):
            word = self.words[int(match.group(1))]
            letters = self.translator.word(word)
            return Word(letters, self.spans(self.at + word.start, self.at + word.end)), letters
        if node.id in CALLS or node.id in FUNCTIONS:
            raise self.error(f"{node.id} is a function: call it, as {node.id}(...)", node)
        if is_explicit(self.text):
            raise self.error(f"{node.id!r} is not a word: this expression writes its words in braces, "
                             f"{{{node.id}}}", node)
        symbols = "".join(sorted(self.translator.symbols))
        shown = symbols if len(symbols) <= 30 else symbols[:27] + "..."
        raise self.error(f"{node.id!r} is not a word of the puzzle's symbols ({shown}; --symbols names others)",
                         node)

    def constant(self, node: ast.Constant) -> Made:
        if isinstance(node.value, bool):
            raise self.error("True and False are not supported: write a comparison", node)
        if isinstance(node.value, int):
            number = _integer(node.value, self.span(node))
            return number, number.text
        if isinstance(node.value, float):
            start = self.offset(node.lineno, node.col_offset)
            written = self.python[start:self.offset(node.end_lineno, node.end_col_offset or node.col_offset)]
            if re.fullmatch(r"\d+\.\d*|\.\d+", written):
                text = written if not written.endswith(".") else written + "0"
                return Number(Fraction(Decimal(text)), text, self.span(node)), text
            raise self.error("a number must be an integer or a decimal such as 0.5", node)
        raise self.error(f"{'a string' if isinstance(node.value, str) else 'this constant'} is not supported", node)

    def compare(self, node: ast.Compare) -> Made:
        operand, text = self.value(node.left)
        operands, ops, parts = [operand], [], [text]
        for op, right in zip(node.ops, node.comparators):
            symbol = COMPARE.get(type(op))
            if symbol is None:
                raise self.error("'is' compares identity in Python: write == or !=", node)
            operand, text = self.container(right) if symbol in ("in", "not in") else self.value(right)
            operands.append(operand)
            ops.append(symbol)
            parts += [symbol, text]
        # a chain's span is its first operator's
        span = self.between(node.left, node.comparators[0], COMPARE[type(node.ops[0])])
        return Compare(tuple(operands), tuple(ops), span), "(" + " ".join(parts) + ")"

    def container(self, node: ast.expr) -> Made:
        """The right of `in`: a literal set, tuple or list, or range(...)."""
        if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            made = [self.value(item) for item in node.elts]
            items = tuple(item for item, _ in made)
            texts = ", ".join(text for _, text in made)
            if isinstance(node, ast.Set):
                return Collection("set", items, self.span(node)), "{" + texts + "}"
            return Collection("tuple", items, self.span(node)), "(" + texts + ("," if len(made) == 1 else "") + ")"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("range", "irange"):
            if node.keywords or not 1 <= len(node.args) <= 2:
                raise self.error(f"{node.func.id}(...) takes one or two arguments here", node)
            args = [self.value(arg) for arg in node.args]
            span = self.span(node)
            if node.func.id == "irange":  # enigma.py's inclusive range: from 1 if only its end is given
                first = args[0] if len(args) == 2 else (_integer(1, span), "1")
                last, last_text = args[-1]
                args = [first, (BinOp("+", last, _integer(1, span), span), f"({last_text} + 1)")]
            return Call("range", tuple(arg for arg, _ in args), span), f"range({', '.join(t for _, t in args)})"
        raise self.error("'in' needs a literal set, tuple or list, or range(...)", node)

    def function(self, node: ast.Call, ours: str) -> str:
        if not self.translator.available(ours):
            raise self.error(f"{node.func.id}(...) needs the word {ours}(...), which this version of smtcrypt "  # type: ignore[attr-defined]
                             "does not have", node)
        return ours

    def call(self, node: ast.Call) -> Made:
        if not isinstance(node.func, ast.Name):
            raise self.error("only functions called by name are supported (such as is_prime(X))", node)
        name = node.func.id
        if name == "nsplit":  # read only inside is_palindrome(...), below
            raise self.error("nsplit(...) is supported only as is_palindrome(nsplit(X))", node.func)
        if name not in CALLS:  # before its arguments: one message for a function smtcrypt does not read
            known = ", ".join(sorted(CALLS - {"nsplit"}))
            raise self.error(f"the function {name}(...) is not supported (known: {known})", node.func)
        if node.keywords or any(isinstance(arg, ast.Starred) for arg in node.args):
            raise self.error(f"{name}(...) is supported with plain arguments only", node)
        if name in ROOTS or name == "is_power":
            (tested, text), degree = self.root_call(node)
            span = self.span(node)
            root = BinOp("/", _integer(1, span), _integer(degree, span), span)
            return BinOp("**", tested, root, span), f"({text} ** (1 / {degree}))"
        if name == "sum":
            return self.total(node)
        if name == "is_palindrome" and len(node.args) == 1 and isinstance(node.args[0], ast.Call) \
                and isinstance(node.args[0].func, ast.Name) and node.args[0].func.id == "nsplit":
            ours = self.function(node, "is_palindrome")
            argument, text = self.value(self.single(node.args[0]))
            return Call(ours, (argument,), self.span(node)), f"{ours}({text})"
        if name in ("dsum", "nreverse", "rev", "is_prime", "is_palindrome", "is_triangular", "is_square_p",
                    "is_cube_p", "abs", "factorial") and len(node.args) != 1:
            raise self.error(f"{name}(...) takes one argument here", node)
        ours = self.function(node, PLAIN[name])
        args = [self.value(arg) for arg in node.args]
        return Call(ours, tuple(arg for arg, _ in args), self.span(node)), f"{ours}({', '.join(t for _, t in args)})"

    def total(self, node: ast.Call) -> Made:
        """sum([X, Y, ...]) or sum((X, Y, ...)): the terms added (a comparison counts 1 or 0, as in
        Python), as enigma.py's run files count conditions: `sum([A != 4, B != 5]) = 1`."""
        if len(node.args) != 1 or not isinstance(node.args[0], (ast.List, ast.Tuple)) or not node.args[0].elts:
            raise self.error("sum(...) is supported of a written list or tuple, such as sum([A != 4, B != 5])", node)
        terms = [self.value(item) for item in node.args[0].elts]
        span = self.span(node)
        added = terms[0][0]
        for term, _ in terms[1:]:  # left to right, as `+` goes
            added = BinOp("+", added, term, span)
        return added, "(" + " + ".join(text for _, text in terms) + ")"

    def single(self, node: ast.Call) -> ast.expr:
        if len(node.args) != 1 or node.keywords:
            raise self.error(f"{node.func.id}(...) takes one argument here", node)  # type: ignore[attr-defined]
        return node.args[0]

    def root_call(self, node: ast.Call) -> tuple[Made, int]:
        """is_square(X), is_cube(X) or is_power(X, K): X made, and the root's degree."""
        name = node.func.id  # type: ignore[attr-defined]
        if name == "is_power":
            degree = node.args[1].value if len(node.args) == 2 and isinstance(node.args[1], ast.Constant) else None
            if not isinstance(degree, int) or isinstance(degree, bool) or degree < 1:
                raise self.error("is_power(X, K) needs a constant integer K >= 1", node)
            return self.value(node.args[0]), degree
        return self.value(self.single(node)), ROOTS[name]

    def cannot_be_zero(self, node: ast.expr) -> bool:
        """A word whose first symbol cannot be 0 (so the word is not 0)."""
        if not isinstance(node, ast.Name):
            return False
        match = re.fullmatch(r"_w(\d+)_", node.id)
        if match is None:
            return False
        word = self.words[int(match.group(1))]
        first = word.text[0]
        return first in self.translator.nonzero or (first.isdigit() and first != "0" and
                                                    not self.translator.is_symbol(first, word))
