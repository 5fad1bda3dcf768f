"""An enigma.py command line (`SubstitutedExpression ...`, `SubstitutedDivision ...` or
`SubstitutedSum ...`) into a formula or a long-division layout, our rules, and
the way back to the user's symbols.

enigma.py's rules, as pinned from public material (enigma.py's docstrings and the run files
published on enigmaticcode.wordpress.com and s2t2.home.blog):
- Every symbol stands for a digit; by default different symbols for different digits;
  `--distinct=ABC,DEF` makes only the symbols of one group differ ("Enigma 380": `--distinct=
  "bdghkmprxy"` beside symbols that may repeat), and `--distinct=""` none.
- By default the leading symbol of every word of two or more symbols is not 0, in the expressions
  and in the `--answer`. Any `--invalid` replaces that default: the published run file of "Puzzle 85"
  gives `-i0,016` for "1 and 6 cannot be zero" although they lead its words, and the one of
  "Enigma 1343" (ENIGMA) gives `--invalid="0,AEGIMN" # no leading zeros`. So the leading-zero rule
  is expressed exactly: leading zeros allowed, and each symbol enigma.py forbids 0 gets a domain
  without 0.
- `--invalid=D,SYMS` (also `-iD,SYMS`; D one digit, `2|4|6|8`, or a range `0-3`): the symbols SYMS
  never take the digits D. `--assign=S,D`: symbol S is digit D. `--digits=0-8` (or `1,3,5`): every
  symbol's digits. `--base=B`: words are base-B numbers (literal numbers stay decimal, as Python's).
- `--answer=EXPR`: a Python expression of words whose values are collected over the solutions
  (a tuple such as `(FOUR, TEN)` printed as a tuple).
- SubstitutedDivision: `"a / b = c"` then one `"x - y = z"` per quotient digit, an empty argument
  for a quotient digit 0, `#` (or 0) for a remainder that is 0. Lowercase letters are symbols; `?`
  is any digit; digits are literals. Every number of the working has no leading zero, and a
  remainder digit standing alone is not 0 (enigma.py matches a one-symbol remainder as a nonzero
  number). Unlike enigma.py, a remainder is always below the divisor: arithmetic wins.
- SubstitutedSum: `"TERM + TERM = RESULT"`, one sum per argument (solved together), every character a
  symbol, digits too; its options are --base, --assign, --digits and --invalid, as above.
`--template=TEXT` prints each solution as TEXT and then TEXT filled in (SubstitutedExpression; a
division is printed its own way), `--solution=SYMBOLS` lists those symbols' digits. Options that only
change enigma.py's printing or its search order (`--verbose`, `--header`, `--denest`, `--reorder`,
`--opt`) are accepted and ignored; `--code` and `--env`, which run Python, are refused.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from smtcrypt.core.numerals import digit_char
from smtcrypt.core.rules import FUNCTIONS, Rules
from smtcrypt.core.tree import Constraints, Expr, Spans
from smtcrypt.errors import FormulaError
from smtcrypt.notations.enigma.expression import Translated, Translator, find_words
from smtcrypt.notations.enigma.options import (
    Options,
    base_of,
    letters_for,
    rules_for,
    split_options,
    too_many_symbols,
    value_error,
)
from smtcrypt.notations.layout import LongDivision

SOLVERS = ("SubstitutedExpression", "SubstitutedDivision", "SubstitutedSum")
SUM_OPTIONS = {"base", "assign", "digits", "invalid"}  # the only options enigma.py's SubstitutedSum takes
DEFAULT_SYMBOLS = string.ascii_uppercase  # enigma.py's default: the capital letters
HIDDEN = "!"  # stands for a final remainder '?' of one cell, which is not 0


@dataclass
class DivisionRows:
    """A SubstitutedDivision's rows as given: dividend, divisor, quotient, and per quotient digit
    (x, y, z) or None for a digit 0."""

    dividend: str
    divisor: str
    quotient: str
    steps: list[tuple[str, str, str] | None]


@dataclass
class EnigmaPuzzle:
    """A command line translated: what to search and how to show its solutions in the user's symbols."""

    solver: str
    expressions: tuple[Translated, ...]  # SubstitutedExpression's expressions, or a division's --extra conditions
    rules: Rules  # the rules our formulas (or layout) are searched under
    letters: dict[str, str]  # the user's symbol -> our letter
    answer: Translated | None = None
    layout: LongDivision | None = None  # SubstitutedDivision: the long division searched, by its rows
    division: DivisionRows | None = None
    first: bool = False
    hidden: frozenset[str] = field(default_factory=frozenset)  # our letters that stand for a '?' cell
    impossible: str | None = None  # why there is no solution before any search (more symbols than digits)
    template: Translated | None = None  # --template: printed, then filled in, for each solution
    solution: str | None = None  # --solution: the symbols whose digits each solution lists, in this order
    tree: Constraints | None = None  # SubstitutedExpression's and SubstitutedSum's: ours, its spans in `text`

    def listed(self, mapping: Mapping[str, int]) -> dict[str, int]:
        """The symbols' digits a solution lists: those of --solution, or every symbol's."""
        digits = self.user_mapping(mapping)
        return digits if self.solution is None else {symbol: digits[symbol] for symbol in self.solution
                                                     if symbol in digits}

    @property
    def formulas(self) -> list[str]:
        """Our formula's text of each expression, to be shown (the tree is what is checked and searched)."""
        return [expression.formula for expression in self.expressions]

    @property
    def answer_tree(self) -> Constraints | None:
        """Our tree of the --answer, read on its own: its spans in its text as written."""
        if self.answer is None or self.answer.tree is None:
            return None
        return Constraints((self.answer.tree,), self.answer.text)

    @property
    def text(self) -> str:
        """The puzzle as the user wrote it, on one line."""
        if self.division is not None:
            division = self.division
            rows = [f"{division.dividend} / {division.divisor} = {division.quotient}"]
            rows += ["" if step is None else f"{step[0]} - {step[1]} = {step[2] or '#'}" for step in division.steps]
            return ", ".join(repr(row) for row in rows)
        return joined(expression.text for expression in self.expressions)

    def user_mapping(self, mapping: Mapping[str, int]) -> dict[str, int]:
        """A solution's digits by the user's symbols, in the symbols' order."""
        return {symbol: mapping[letter] for symbol, letter in sorted(self.letters.items())
                if letter in mapping and letter not in self.hidden}

    def substitute(self, expression: Translated, mapping: Mapping[str, int]) -> str:
        """The expression as written with each word's symbols replaced by their digits."""
        pieces, position = [], 0
        for word in expression.words:
            start, end = word.span  # a word in braces is filled in without them, as enigma.py prints it
            pieces.append(expression.text[position:start])
            pieces.append("".join(digit_char(mapping[self.letters[ch]]) if ch in self.letters else ch
                                  for ch in word.text))
            position = end
        pieces.append(expression.text[position:])
        return "".join(pieces)


def joined(texts: Iterable[str]) -> str:
    """The expressions on one line, each in brackets: a puzzle's text, which our tree's spans point into."""
    return " ".join(f"({text})" for text in texts)


def translated(translator: Translator, texts: Sequence[str]) -> tuple[tuple[Translated, ...], Constraints]:
    """The expressions translated, and our tree of them all, its source their `joined` text: each
    expression's nodes point into it, where it stands."""
    source = joined(texts)
    spans, at = Spans(source), 1
    found: list[Translated] = []
    constraints: list[Expr] = []
    for text in texts:
        expression = translator.translate(text, at=at, spans=spans)
        assert expression.tree is not None  # a translation always makes one
        found.append(expression)
        constraints.append(expression.tree)
        at += len(text) + 3  # its closing bracket, a space and the next one's opening bracket
    return tuple(found), Constraints(tuple(constraints), source)


def read_command(argv: Sequence[str], available: Callable[[str], bool] = FUNCTIONS.__contains__) -> EnigmaPuzzle:
    """The puzzle of an enigma.py command line (the solver's name, then its arguments); a
    `FormulaError` with a caret under the fault in the argument at fault."""
    if not argv:
        raise FormulaError("expected the solver's name: " + " or ".join(SOLVERS))
    solver, *rest = argv
    if solver not in SOLVERS:
        raise FormulaError(f"unknown solver {solver!r}: smtcrypt reads " + " and ".join(SOLVERS), solver, 0,
                           len(solver))
    options, arguments = split_options(rest)
    if solver == "SubstitutedExpression":
        return _expression_puzzle(options, arguments, available)
    if solver == "SubstitutedSum":
        return _sum_puzzle(options, arguments, available)
    return _division_puzzle(options, arguments, available)





# --- SubstitutedExpression -----------------------------------------------------------------------------


def _expression_puzzle(options: Options, arguments: list[str], available: Callable[[str], bool]) -> EnigmaPuzzle:
    if not arguments:
        raise FormulaError("SubstitutedExpression needs at least one expression")
    symbols = frozenset(options.symbols if options.symbols is not None else DEFAULT_SYMBOLS)
    texts = arguments + [text for text, _ in options.extra]
    answer_text = options.answer[0] if options.answer is not None else None
    words = [word for text in texts + ([answer_text] if answer_text else []) for word in find_words(text, symbols)]
    used = [ch for word in words for ch in word.text if word.braced or ch in symbols]
    letters = letters_for(used)
    base = base_of(options)
    leading = {word.text[0] for word in words if len(word.text) > 1 and (word.braced or word.text[0] in symbols)}
    rules = rules_for(options, list(letters), letters, leading, base)
    nonzero = frozenset(s for s in letters if 0 not in rules.domains.get(letters[s], [0]))
    translator = Translator(symbols, letters, nonzero, available)
    expressions, tree = translated(translator, texts)
    answer = translator.translate(answer_text, answer=True) if answer_text else None
    template = None
    if options.template is not None:  # printed as written: its words found, never read as Python
        template = Translated(options.template[0], "", tuple(find_words(options.template[0], symbols)))
    return EnigmaPuzzle("SubstitutedExpression", expressions, rules, letters, answer, first=options.first,
                        impossible=too_many_symbols(options, list(letters), base), template=template,
                        solution=solution_symbols(options, letters), tree=tree)


def solution_symbols(options: Options, letters: Mapping[str, str]) -> str | None:
    """--solution=SYMBOLS: the symbols a solution lists (each a symbol of the puzzle)."""
    if options.solution is None:
        return None
    text = options.solution[0]
    for offset, symbol in enumerate(text):
        if symbol not in letters:
            raise value_error(f"--solution: {symbol!r} is not a symbol of the puzzle", options.solution, offset, 1)
    return text


# --- SubstitutedSum ------------------------------------------------------------------------------------


def _sum_puzzle(options: Options, arguments: list[str], available: Callable[[str], bool]) -> EnigmaPuzzle:
    """enigma.py's SubstitutedSum: each argument one sum, split on spaces, `+` and `=` (the last part
    the result, the others its terms), the sums solved together; every character of them is a
    symbol, digits included (`1939 + 1079 = 6856` with `-i0,016 ...`: each digit stands for
    another). So it is SubstitutedExpression of the sums with those symbols."""
    given = [name for name in ("symbols", "distinct", "answer", "template", "solution")
             if getattr(options, name) is not None]
    given += ["extra"] if options.extra else []
    if given:
        raise FormulaError(f"SubstitutedSum takes no --{given[0]}: its options are "
                           + ", ".join(f"--{name}" for name in sorted(SUM_OPTIONS)))
    sums = [[part for part in re.split(r"[\s+=]+", argument) if part] for argument in arguments]
    if not sums or any(len(parts) < 2 for parts in sums):
        raise FormulaError('SubstitutedSum needs sums of terms and a result, such as "SEND + MORE = MONEY"')
    options.symbols = "".join(dict.fromkeys(ch for parts in sums for part in parts for ch in part))
    texts = [" + ".join(parts[:-1]) + " = " + parts[-1] for parts in sums]
    puzzle = _expression_puzzle(options, texts, available)
    puzzle.solver = "SubstitutedSum"
    return puzzle


# --- SubstitutedDivision -------------------------------------------------------------------------------

CELL = re.compile(r"[A-Za-z0-9?]+")


def _division_rows(arguments: list[str]) -> DivisionRows:
    if not arguments:
        raise FormulaError("SubstitutedDivision needs the division \"a / b = c\" and its intermediate sums")
    head = arguments[0]
    match = re.fullmatch(r"\s*([A-Za-z0-9?]+)\s*/\s*([A-Za-z0-9?]+)\s*=\s*([A-Za-z0-9?]+)\s*", head)
    if match is None:
        bad = next((i for i, ch in enumerate(head) if not (ch.isalnum() or ch in "?/= ")), 0)
        raise FormulaError("expected the division as \"dividend / divisor = quotient\", such as \"pkmkh / ?? = ???\"",
                           head, bad, 1)
    dividend, divisor, quotient = match.groups()
    steps: list[tuple[str, str, str] | None] = []
    for argument in arguments[1:]:
        if not argument.strip():
            steps.append(None)
            continue
        step = re.fullmatch(r"\s*([A-Za-z0-9?]+)\s*-\s*([A-Za-z0-9?]+)\s*=\s*([A-Za-z0-9?#]*)\s*", argument)
        if step is None:
            raise FormulaError("expected an intermediate sum \"x - y = z\" (# or 0 for a remainder 0, an empty "
                               "argument for a quotient digit 0)", argument, 0, len(argument))
        x, y, z = step.groups()
        if "#" in z and z != "#":
            raise FormulaError("# stands alone for an empty remainder", argument, argument.index("#"))
        steps.append((x, y, "" if z in ("#", "0") else z))
    if len(steps) != len(quotient):
        raise FormulaError(f"the quotient {quotient} has {len(quotient)} digits, so {len(quotient)} intermediate sums "
                           f"are expected (an empty argument for a digit 0), not {len(steps)}", head,
                           head.index(quotient), len(quotient))
    if len(quotient) > len(dividend):
        raise FormulaError("the quotient has more digits than the dividend", head, head.index(quotient), len(quotient))
    if steps and steps[0] is None and len(quotient) > 1:
        raise FormulaError("the quotient's first digit is not 0: its intermediate sum cannot be empty", head)
    return DivisionRows(dividend, divisor, quotient, steps)


def _merge(cells: list[str], at: int, given: str, argument: str) -> None:
    """Copy the letters and digits of `given` into cells[at:], where they are '?'; a letter or digit
    that differs from one already there is an error (enigma.py asserts the same)."""
    for offset, ch in enumerate(given):
        current = cells[at + offset]
        if ch == "?" or ch == current:
            continue
        if current != "?":
            raise FormulaError(f"{ch} here does not match {current} of the dividend", argument,
                               argument.find(given) + offset)
        cells[at + offset] = ch


def division_layout(division: DivisionRows, arguments: list[str]) -> tuple[LongDivision, list[str]]:
    """The long division of the rows as the layout's rows (see smtcrypt.notations.layout), and its
    final remainder cells; each x of an intermediate sum is checked against the remainder and
    dividend digits it is made of, and its letters copied into them."""
    dividend = list(division.dividend)
    size, count = len(dividend), len(division.quotient)
    nonzero = [index for index, step in enumerate(division.steps) if step is not None]
    # the remainder cells of each step, merged with the next step's x
    remainders: dict[int, list[str]] = {}
    for position, index in enumerate(nonzero):
        step = division.steps[index]
        assert step is not None
        x, _, z = step
        argument = arguments[1 + index]
        over = size - count + index
        if position == 0:
            if len(x) != over + 1:
                raise FormulaError(f"the first intermediate sum starts with the dividend's first {over + 1} digits, "
                                   f"not {len(x)}", argument, argument.find(x), len(x))
            _merge(dividend, 0, x, argument)
        else:
            previous = nonzero[position - 1]
            before = remainders[previous]
            brought = over - (size - count + previous)
            if len(x) != len(before) + brought:
                raise FormulaError(f"this x is the remainder above ({len(before)} digits) with {brought} digits "
                                   f"brought down, so {len(before) + brought} digits, not {len(x)}",
                                   argument, argument.find(x), len(x))
            _merge(before, 0, x[:len(before)], argument)
            _merge(dividend, over - brought + 1, x[len(before):], argument)
        remainders[index] = list(z)
    final: list[str] = []
    rows: list[tuple[str, str] | None] = [None] * count
    for position, index in enumerate(nonzero):
        step = division.steps[index]
        assert step is not None
        last = position + 1 == len(nonzero)
        reach = size - 1 if last else size - count + nonzero[position + 1]
        brought_cells = dividend[size - count + index + 1:reach + 1] if not last else []
        row = remainders[index] + brought_cells
        if last:
            final = remainders[index]
            if index != count - 1:  # the digits after the last nonzero quotient digit are 0: brought down
                row = remainders[index] + dividend[size - count + index + 1:]
        rows[index] = (step[1], "".join(row) or "0")
    return LongDivision("".join(dividend), division.divisor, division.quotient, tuple(rows)), final


def _division_puzzle(options: Options, arguments: list[str], available: Callable[[str], bool]) -> EnigmaPuzzle:
    if options.template is not None:
        raise value_error("--template: smtcrypt prints a SubstitutedDivision's solutions its own way (the division "
                          "and its intermediate sums); --solution chooses the symbols listed", options.template)
    division = _division_rows(arguments)
    # A final remainder of one '?' alone is not 0: it gets a letter of its own (HIDDEN), outside the
    # distinct symbols, whose domain leaves 0 out.
    last = division.steps[-1]
    hidden_final = last is not None and last[2] == "?"
    if hidden_final:
        assert last is not None
        division.steps[-1] = (last[0], last[1], HIDDEN)
    layout, final = division_layout(division, arguments)
    cells = [division.dividend, division.divisor, division.quotient] + [
        part for step in division.steps if step is not None for part in step]
    # enigma.py's symbols here are the letters the rows use (or --symbols): in an --extra or --answer,
    # any other name is Python's (`sum([A != 4, B != 5]) = 1`), not a word
    written = "".join(ch for row in cells for ch in row if ch in string.ascii_letters)
    symbols = frozenset((written if options.symbols is None else options.symbols) + HIDDEN)
    extra = [text for text, _ in options.extra]
    answer_text = options.answer[0] if options.answer is not None else None
    words = [word for text in extra + ([answer_text] if answer_text else []) for word in find_words(text, symbols)]
    used = [ch for row in cells for ch in row if ch in symbols] + [ch for word in words for ch in word.text
                                                                    if word.braced or ch in symbols]
    letters = letters_for(used)
    hidden = frozenset(letters[HIDDEN] for _ in [0] if hidden_final)
    base = base_of(options)
    # a remainder of one digit standing alone is not 0; longer rows have the layout's own leading-zero rule
    alone = [final[0]] if len(final) == 1 and final[0] in symbols else []
    leading = {word.text[0] for word in words if len(word.text) > 1 and (word.braced or word.text[0] in symbols)}
    if hidden_final and options.distinct is None:  # the '?' stands apart from the distinct symbols
        options.distinct = ("".join(s for s in letters if s != HIDDEN), "")
    rules = rules_for(options, list(letters), letters, leading, base, extra_nonzero=alone,
                   allow_leading_zeros=False)
    if hidden_final:
        division.steps[-1] = last
    layout = _rename(layout, letters)
    nonzero = frozenset(s for s in letters if 0 not in rules.domains.get(letters[s], [0]))
    translator = Translator(symbols - {HIDDEN}, letters, nonzero, available)
    expressions, tree = translated(translator, extra)
    answer = translator.translate(answer_text, answer=True) if answer_text else None
    return EnigmaPuzzle("SubstitutedDivision", expressions, rules, letters, answer, layout, division,
                        options.first, hidden, too_many_symbols(options, [s for s in letters if s != HIDDEN], base),
                        solution=solution_symbols(options, letters), tree=tree if extra else None)


def _rename(layout: LongDivision, letters: Mapping[str, str]) -> LongDivision:
    """The rows' symbols as our letters, all at once (a symbol's letter may be another symbol)."""
    def renamed(row: str) -> str:
        return "".join(letters.get(ch, ch) for ch in row)

    steps = tuple(None if step is None else (renamed(step[0]), renamed(step[1])) for step in layout.steps)
    return LongDivision(renamed(layout.dividend), renamed(layout.divisor), renamed(layout.quotient), steps)
