"""One enigma.py expression (a Python expression over words of symbols) into formula text.

enigma.py's `SubstitutedExpression` hands each expression to Python after replacing its words;
here nothing is run. The words are found first (maximal runs of the puzzle's symbols), each
replaced by a placeholder name, and the text is read by `ast.parse(mode="eval")`, which parses and
runs nothing. The tree is then walked, and only the node types run files use become formula text:
words, integer and decimal constants, `+ - * / // % **`, unary `-` and `+`, comparisons (chained),
`and`/`or`/`not`, `in` with a literal set, tuple, list or `range(...)`, and calls of the functions
below. Anything else is a `FormulaError` naming the construct, with a caret under it in the
user's text.

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

from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, too_many_digits
from smtcrypt.core.parse import MAX_DEPTH
from smtcrypt.core.rules import FUNCTIONS
from smtcrypt.errors import FormulaError, FormulaLimitError

TOKEN = re.compile(r"[A-Za-z0-9_]+")
BRACED = re.compile(r"\{([A-Za-z0-9_]+)\}")  # a word in enigma.py's explicit notation: {SEND}
CALLED = re.compile(r"\s*\(")  # what follows a function's name
PLACEHOLDER = "_w{}_"

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
    """An expression as the user wrote it, its words, and its formula text over our letters."""

    text: str
    formula: str
    words: tuple[WrittenWord, ...]

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
    """Translates expressions over the user's symbols into formula text over our letters.

    `letters` maps each symbol to our capital letter; `nonzero` holds the symbols that cannot be 0
    (so that `is_square(ABC)` needs no `ABC != 0`)."""

    def __init__(self, symbols: frozenset[str], letters: Mapping[str, str], nonzero: frozenset[str] = frozenset(),
                 available: Callable[[str], bool] = FUNCTIONS.__contains__):
        self.symbols, self.letters, self.nonzero, self.available = symbols, letters, nonzero, available

    def translate(self, text: str, *, answer: bool = False) -> Translated:
        """The formula text of one expression (a condition; with `answer`, a value or a tuple)."""
        return _Walk(self, text, answer).run()

    def word(self, word: WrittenWord) -> str:
        return "".join(self.letters.get(ch, ch) if self.is_symbol(ch, word) else ch for ch in word.text)

    def is_symbol(self, ch: str, word: WrittenWord) -> bool:
        """Whether a character of a word is a symbol: every one in braces, else the puzzle's symbols."""
        return word.braced or ch in self.symbols


class _Walk:
    """One expression: the rewritten text read by `ast.parse`, walked into formula text."""

    def __init__(self, translator: Translator, text: str, answer: bool):
        self.translator, self.text, self.answer = translator, text, answer
        self.check_numbers()
        self.words = find_words(text, translator.symbols)
        self.python, self.origin = self.rewrite()

    def rewrite(self) -> tuple[str, list[int]]:
        """The text with each word a placeholder name and a lone `=` as `==`; and for each of its
        characters the position in the user's text it came from."""
        pieces: list[str] = []
        origin: list[int] = []
        starts = {word.span[0]: index for index, word in enumerate(self.words)}
        position = 0
        while position < len(self.text):
            ch = self.text[position]
            if position in starts:
                index = starts[position]
                name = PLACEHOLDER.format(index)
                pieces.append(name)
                origin.extend([position] * len(name))
                position = self.words[index].span[1]
                continue
            if ch == "=" and self.text[position - 1:position] not in ("=", "!", "<", ">") \
                    and self.text[position + 1:position + 2] != "=":
                pieces.append("==")
                origin.extend([position, position])
            elif not ch.isascii():
                raise self.error_at(f"unexpected character {ch!r}", position)
            else:
                pieces.append(ch)
                origin.append(position)
            position += 1
        origin.append(len(self.text))
        return "".join(pieces), origin

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
        start = self.origin[min(getattr(node, "col_offset", 0), len(self.origin) - 1)]
        end_offset = getattr(node, "end_col_offset", None)
        end = self.origin[min(end_offset, len(self.origin) - 1)] if end_offset is not None else start + 1
        if end_offset is not None and end_offset > 0:
            end = self.origin[min(end_offset - 1, len(self.origin) - 1)] + 1
        return self.error_at(message, start, max(1, end - start))

    # --- the walk -----------------------------------------------------------------------------------

    def run(self) -> Translated:
        if not self.text.strip():
            raise self.error_at("empty expression", 0)
        try:
            tree = ast.parse(self.python.strip(), mode="eval")
        except (RecursionError, MemoryError):  # Python's own parser gives up on deep nesting or long chains
            raise FormulaLimitError(f"expression nested more than Python's parser takes (smtcrypt takes {MAX_DEPTH} "
                                    "levels; long chains of one operator count as nesting)", self.text, 0,
                                    len(self.text)) from None
        except SyntaxError as problem:
            leading = len(self.python) - len(self.python.lstrip())
            offset = leading + max((problem.offset or 1) - 1, 0)
            raise self.error_at(f"not a Python expression: {problem.msg}",
                                self.origin[min(offset, len(self.origin) - 1)]) from None
        if leading := len(self.python) - len(self.python.lstrip()):
            for node in ast.walk(tree):  # positions in the stripped text: shift them back
                if isinstance(node, (ast.expr, ast.keyword)):
                    node.col_offset += leading
                    node.end_col_offset = (node.end_col_offset or 0) + leading
        self.check_depth(tree)
        body = tree.body
        if self.answer and isinstance(body, ast.Tuple):
            items = [self.value(item) for item in body.elts]
            formula = "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        elif self.answer:
            formula = self.value(body)
        else:
            formula = self.condition(body)
        return Translated(self.text, formula, tuple(self.words))

    def condition(self, node: ast.expr) -> str:
        """`node` where only its truth counts (a whole expression, an operand of and/or/not)."""
        if isinstance(node, ast.BoolOp):
            op = " and " if isinstance(node.op, ast.And) else " or "
            return "(" + op.join(self.condition(value) for value in node.values) + ")"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return f"(not {self.condition(node.operand)})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (*ROOTS, "is_power"):
            tested, _ = self.root_call(node)
            ours = self.function(node, node.func.id)
            call = f"{ours}({', '.join(self.value(arg) for arg in node.args)})"
            if self.cannot_be_zero(node.args[0]):
                return call
            return f"({call} and {tested} != 0)"
        return self.value(node)

    def value(self, node: ast.expr) -> str:
        """`node` as a number (or a truth value used as one, as Python's 1 and 0)."""
        if isinstance(node, ast.Name):
            return self.name(node)
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.BinOp):
            op = BINARY.get(type(node.op))
            if op is None:
                raise self.error(f"{UNSUPPORTED_BINARY.get(type(node.op), 'this operator')} is not supported", node)
            return f"({self.value(node.left)} {op} {self.value(node.right)})"
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return f"(not {self.condition(node.operand)})"
            if isinstance(node.op, ast.Invert):
                raise self.error("'~' (bitwise not) is not supported", node)
            return f"({'-' if isinstance(node.op, ast.USub) else '+'}{self.value(node.operand)})"
        if isinstance(node, ast.BoolOp):
            op = " and " if isinstance(node.op, ast.And) else " or "
            return "(" + op.join(self.value(value) for value in node.values) + ")"
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            raise self.error("a tuple, list or set stands only after 'in' (or as the whole --answer)", node)
        raise self.error(f"{CONSTRUCTS.get(type(node), type(node).__name__)} is not supported", node)

    def name(self, node: ast.Name) -> str:
        match = re.fullmatch(r"_w(\d+)_", node.id)
        if match is not None and int(match.group(1)) < len(self.words):
            return self.translator.word(self.words[int(match.group(1))])
        if node.id in CALLS or node.id in FUNCTIONS:
            raise self.error(f"{node.id} is a function: call it, as {node.id}(...)", node)
        if is_explicit(self.text):
            raise self.error(f"{node.id!r} is not a word: this expression writes its words in braces, "
                             f"{{{node.id}}}", node)
        symbols = "".join(sorted(self.translator.symbols))
        shown = symbols if len(symbols) <= 30 else symbols[:27] + "..."
        raise self.error(f"{node.id!r} is not a word of the puzzle's symbols ({shown}; --symbols names others)",
                         node)

    def constant(self, node: ast.Constant) -> str:
        if isinstance(node.value, bool):
            raise self.error("True and False are not supported: write a comparison", node)
        if isinstance(node.value, int):
            return str(node.value)
        if isinstance(node.value, float):
            written = self.python[node.col_offset:node.end_col_offset or node.col_offset]
            if re.fullmatch(r"\d+\.\d*|\.\d+", written):
                return written if not written.endswith(".") else written + "0"
            raise self.error("a number must be an integer or a decimal such as 0.5", node)
        raise self.error(f"{'a string' if isinstance(node.value, str) else 'this constant'} is not supported", node)

    def compare(self, node: ast.Compare) -> str:
        parts = [self.value(node.left)]
        for op, right in zip(node.ops, node.comparators):
            symbol = COMPARE.get(type(op))
            if symbol is None:
                raise self.error("'is' compares identity in Python: write == or !=", node)
            parts.append(symbol)
            parts.append(self.container(right) if symbol in ("in", "not in") else self.value(right))
        return "(" + " ".join(parts) + ")"

    def container(self, node: ast.expr) -> str:
        """The right of `in`: a literal set, tuple or list, or range(...)."""
        if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
            items = ", ".join(self.value(item) for item in node.elts)
            if isinstance(node, ast.Set):
                return "{" + items + "}"
            return "(" + items + ("," if len(node.elts) == 1 else "") + ")"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("range", "irange"):
            if node.keywords or not 1 <= len(node.args) <= 2:
                raise self.error(f"{node.func.id}(...) takes one or two arguments here", node)
            args = [self.value(arg) for arg in node.args]
            if node.func.id == "irange":  # enigma.py's inclusive range
                args = [args[0], f"({args[1]} + 1)"] if len(args) == 2 else ["1", f"({args[0]} + 1)"]
            return f"range({', '.join(args)})"
        raise self.error("'in' needs a literal set, tuple or list, or range(...)", node)

    def function(self, node: ast.Call, ours: str) -> str:
        if not self.translator.available(ours):
            raise self.error(f"{node.func.id}(...) needs the word {ours}(...), which this version of smtcrypt "  # type: ignore[attr-defined]
                             "does not have", node)
        return ours

    def call(self, node: ast.Call) -> str:
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
            tested, degree = self.root_call(node)
            return f"({tested} ** (1 / {degree}))"
        if name == "sum":
            return self.total(node)
        if name == "is_palindrome" and len(node.args) == 1 and isinstance(node.args[0], ast.Call) \
                and isinstance(node.args[0].func, ast.Name) and node.args[0].func.id == "nsplit":
            return f"{self.function(node, 'is_palindrome')}({self.value(self.single(node.args[0]))})"
        if name in ("dsum", "nreverse", "rev", "is_prime", "is_palindrome", "is_triangular", "is_square_p",
                    "is_cube_p", "abs", "factorial") and len(node.args) != 1:
            raise self.error(f"{name}(...) takes one argument here", node)
        ours = self.function(node, PLAIN[name])
        return f"{ours}({', '.join(self.value(arg) for arg in node.args)})"

    def total(self, node: ast.Call) -> str:
        """sum([X, Y, ...]) or sum((X, Y, ...)): the terms added (a comparison counts 1 or 0, as in
        Python), as enigma.py's run files count conditions: `sum([A != 4, B != 5]) = 1`."""
        if len(node.args) != 1 or not isinstance(node.args[0], (ast.List, ast.Tuple)) or not node.args[0].elts:
            raise self.error("sum(...) is supported of a written list or tuple, such as sum([A != 4, B != 5])", node)
        return "(" + " + ".join(self.value(item) for item in node.args[0].elts) + ")"

    def single(self, node: ast.Call) -> ast.expr:
        if len(node.args) != 1 or node.keywords:
            raise self.error(f"{node.func.id}(...) takes one argument here", node)  # type: ignore[attr-defined]
        return node.args[0]

    def root_call(self, node: ast.Call) -> tuple[str, int]:
        """is_square(X), is_cube(X) or is_power(X, K): X's text and the root's degree."""
        name = node.func.id  # type: ignore[attr-defined]
        if name == "is_power":
            if len(node.args) != 2 or not isinstance(node.args[1], ast.Constant) \
                    or not isinstance(node.args[1].value, int) or node.args[1].value < 1:
                raise self.error("is_power(X, K) needs a constant integer K >= 1", node)
            return self.value(node.args[0]), node.args[1].value
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
