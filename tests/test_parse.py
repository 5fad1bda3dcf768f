"""Stage 1: formula text -> typed tree, and positioned syntax errors."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from test_fuzz import SEEDS, random_inputs

from smtcrypt.core import parse as parsing
from smtcrypt.core.parse import build_parser, parse
from smtcrypt.core.results import join
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Name, Not, Number, Unary, Word, to_text, words
from smtcrypt.errors import FormulaError, FormulaSyntaxError
from smtcrypt.notations.cryptator.translate import translate


def shape(formula: str) -> str:
    """The single constraint of `formula`, fully parenthesised."""
    constraints = parse(formula).constraints
    assert len(constraints) == 1, constraints
    return to_text(constraints[0])


# --- precedence and associativity ---------------------------------------------------------------

ARITHMETIC = [
    ("1 + 2 * 3 = A", "((1 + (2 * 3)) == A)"),
    ("A * B + C = D", "(((A * B) + C) == D)"),
    ("A - B - C = D", "(((A - B) - C) == D)"),
    ("A + B - C + D = E", "((((A + B) - C) + D) == E)"),
    ("A / B / C = D", "(((A / B) / C) == D)"),
    ("A // B % C * D = E", "((((A // B) % C) * D) == E)"),
    ("A * B / C // D % E = F", "(((((A * B) / C) // D) % E) == F)"),
    ("A + B * C ** D = E", "((A + (B * (C ** D))) == E)"),
    ("(A + B) * C = D", "(((A + B) * C) == D)"),
    ("A - (B - C) = D", "((A - (B - C)) == D)"),
    # ** is right-associative
    ("A ** B ** C = D", "((A ** (B ** C)) == D)"),
    ("2 ** 3 ** 2 = A", "((2 ** (3 ** 2)) == A)"),
    ("(A ** B) ** C = D", "(((A ** B) ** C) == D)"),
    # ** binds tighter than a unary minus on its left, looser than one on its right
    ("-2**2 = A", "((-(2 ** 2)) == A)"),
    ("-A**B = C", "((-(A ** B)) == C)"),
    ("(-2)**2 = A", "(((-2) ** 2) == A)"),
    ("2**-1 = A", "((2 ** (-1)) == A)"),
    ("A ** -B ** C = D", "((A ** (-(B ** C))) == D)"),
    ("-A**-B**2 = C", "((-(A ** (-(B ** 2)))) == C)"),
    ("A = B ** +C", "(A == (B ** (+C)))"),
    # unary plus and minus
    ("-A + +B = C", "(((-A) + (+B)) == C)"),
    ("A = --B", "(A == (-(-B)))"),
    ("A * -B = C", "((A * (-B)) == C)"),
    ("-A * B = C", "(((-A) * B) == C)"),
    ("A - -B = C", "((A - (-B)) == C)"),
    ("A = -(B)", "(A == (-B))"),
    ("A=B+C", "(A == (B + C))"),
]


@pytest.mark.parametrize("formula, expected", ARITHMETIC)
def test_arithmetic_precedence_and_associativity(formula, expected):
    assert shape(formula) == expected


COMPARISONS = [
    ("A = B", "(A == B)"),
    ("A == B", "(A == B)"),
    ("A != B", "(A != B)"),
    ("A < B <= C", "(A < B <= C)"),
    ("A > B >= C != D", "(A > B >= C != D)"),
    ("A = B = C", "(A == B == C)"),
    ("RAMN = R**3 + RM**3 = N**3 + RX**3",
     "(RAMN == ((R ** 3) + (RM ** 3)) == ((N ** 3) + (RX ** 3)))"),
    ("A is B", "(A == B)"),
    ("A is not B", "(A != B)"),
    ("A in {B, C}", "(A in {B, C})"),
    ("A not in (B, C)", "(A not in (B, C))"),
    ("A in (B,)", "(A in (B,))"),
    ("A in {B,}", "(A in {B})"),
    ("A in ()", "(A in ())"),
    ("A in(B, C)", "(A in (B, C))"),
    ("A in range(B, C)", "(A in range(B, C))"),
    ("A in range(3)", "(A in range(3))"),
    ("A not in range(B)", "(A not in range(B))"),
    ("A + B in {C * D}", "((A + B) in {(C * D)})"),
    ("A < B in (C, D)", "(A < B in (C, D))"),
]


@pytest.mark.parametrize("formula, expected", COMPARISONS)
def test_comparisons(formula, expected):
    assert shape(formula) == expected


def test_comparison_ops_are_normalised_in_the_node():
    node = parse("A = B == C is D is not E != F in {G} not in (H,)").constraints[0]
    assert isinstance(node, Compare)
    assert node.ops == ("==", "==", "==", "!=", "!=", "in", "not in")
    assert [to_text(operand) for operand in node.operands] == ["A", "B", "C", "D", "E", "F", "{G}", "(H,)"]


LOGIC = [
    ("not A == B and C or D", "(((not (A == B)) and C) or D)"),
    ("A = B or C and D", "((A == B) or (C and D))"),
    ("A or B or C", "(A or B or C)"),
    ("A and B and C", "(A and B and C)"),
    ("A and (B or C)", "(A and (B or C))"),
    ("not not A", "(not (not A))"),
    ("not A < B", "(not (A < B))"),
    ("A = B and C = D", "((A == B) and (C == D))"),
    ("A = (not B)", "(A == (not B))"),
    ("(2 * BE or not 2 * BE)", "((2 * BE) or (not (2 * BE)))"),
    ("not A + B", "(not (A + B))"),
]


@pytest.mark.parametrize("formula, expected", LOGIC)
def test_logic_precedence(formula, expected):
    assert shape(formula) == expected


def test_logic_nodes():
    node = parse("not A == B and C or D").constraints[0]
    assert isinstance(node, BoolOp) and node.op == "or"
    inner = node.operands[0]
    assert isinstance(inner, BoolOp) and inner.op == "and"
    assert isinstance(inner.operands[0], Not)
    assert isinstance(inner.operands[0].operand, Compare)


CALLS = [
    ("abs(A) = B", "(abs(A) == B)"),
    ("abs(A - B) = C", "(abs((A - B)) == C)"),
    ("min(A, B) = C", "(min(A, B) == C)"),
    ("max(A, B, C) = D", "(max(A, B, C) == D)"),
    ("min(A,\nB) = C", "(min(A, B) == C)"),
    ("sum(range(A)) = B", "(sum(range(A)) == B)"),
    ("sum(range(A, B)) = C", "(sum(range(A, B)) == C)"),
    ("A in range(B,)", "(A in range(B))"),
    ("abs(A) = min(B, C) + max(A, B, C)", "(abs(A) == (min(B, C) + max(A, B, C)))"),
    ("abs() = A", "(abs() == A)"),  # arity is the checker's business
]


@pytest.mark.parametrize("formula, expected", CALLS)
def test_calls(formula, expected):
    assert shape(formula) == expected


def test_call_node():
    node = parse("max(A, B + C, 2) = D").constraints[0].operands[0]
    assert isinstance(node, Call)
    assert node.name == "max"
    assert [to_text(arg) for arg in node.args] == ["A", "(B + C)", "2"]


NUMBERS = [
    ("0.5", Fraction(1, 2)),
    ("2", Fraction(2)),
    ("0.1", Fraction(1, 10)),
    (".5", Fraction(1, 2)),
    ("5.", Fraction(5)),
    ("00.50", Fraction(1, 2)),
    ("01", Fraction(1)),
    ("3.14159", Fraction(314159, 100000)),
    ("123456789012345678901234567890.000000000000000000001",
     Fraction(123456789012345678901234567890) + Fraction(1, 10**21)),
]


@pytest.mark.parametrize("literal, value", NUMBERS)
def test_decimal_literals_are_exact(literal, value):
    number = parse(f"A = {literal}").constraints[0].operands[1]
    assert isinstance(number, Number)
    assert isinstance(number.value, Fraction)
    assert number.value == value
    assert number.text == literal


SEPARATED = [
    ("A = B, C = D", ["(A == B)", "(C == D)"]),
    ("A = B; C = D", ["(A == B)", "(C == D)"]),
    ("A = B\nC = D", ["(A == B)", "(C == D)"]),
    ("A = B\r\nC = D\r\n", ["(A == B)", "(C == D)"]),
    ("A = B, C = D; E = F\nG = H", ["(A == B)", "(C == D)", "(E == F)", "(G == H)"]),
    ("A = B;; C = D", ["(A == B)", "(C == D)"]),
    ("A = B,, C = D", ["(A == B)", "(C == D)"]),
    ("\nA = B\n\n \nC = D\n", ["(A == B)", "(C == D)"]),
    ("; A = B ;", ["(A == B)"]),
    ("A = B, ", ["(A == B)"]),
    ("min(A, B) = C, D = E", ["(min(A, B) == C)", "(D == E)"]),
    # newlines inside brackets do not end a constraint
    ("(A +\nB) = C", ["((A + B) == C)"]),
    ("A in {B,\nC}", ["(A in {B, C})"]),
    ("A = (B\n) = C", ["(A == B == C)"]),
    ("(A\n+\nB\n) = C\nD = E", ["((A + B) == C)", "(D == E)"]),
    # a backslash continues a line
    ("A = B \\\n+ C", ["(A == (B + C))"]),
]


@pytest.mark.parametrize("formula, expected", SEPARATED)
def test_several_constraints(formula, expected):
    parsed = parse(formula)
    assert [to_text(constraint) for constraint in parsed.constraints] == expected
    assert parsed.source == formula


NAMES = [
    ("ABc", Name),
    ("abc", Name),
    ("x", Name),
    ("A1", Word),  # a literal digit inside a word, as in 7AB
    ("A_B", Name),
    ("note", Name),
    ("ABC", Word),
    ("NOT", Word),
    ("A", Word),
]


@pytest.mark.parametrize("text, kind", NAMES)
def test_words_versus_names(text, kind):
    node = parse(f"{text} = B").constraints[0].operands[0]
    assert type(node) is kind
    assert (node.letters if kind is Word else node.name) == text


def test_word_spans_on_second_line():
    source = "A = B\n  XY = Z"
    found = [(w.letters, w.span.start, w.span.end, w.span.line, w.span.column) for w in words(parse(source))]
    assert found == [("A", 0, 1, 1, 1), ("B", 4, 5, 1, 5), ("XY", 8, 10, 2, 3), ("Z", 13, 14, 2, 8)]
    for w in words(parse(source)):
        assert source[w.span.start:w.span.end] == w.letters


def test_spans_of_inner_nodes_cover_their_text():
    source = "SEND + MORE = MONEY"
    compare = parse(source).constraints[0]
    total = compare.operands[0]
    assert isinstance(total, BinOp)
    assert source[total.span.start:total.span.end] == "SEND + MORE"
    assert source[compare.span.start:compare.span.end] == source


def test_collection_nodes():
    node = parse("A in {B, C} not in (D,)").constraints[0]
    kinds = [(op.kind, len(op.items)) for op in node.operands[1:]]
    assert all(isinstance(op, Collection) for op in node.operands[1:])
    assert kinds == [("set", 2), ("tuple", 1)]


def test_unary_node():
    node = parse("-A = B").constraints[0].operands[0]
    assert isinstance(node, Unary) and node.op == "-"
    assert isinstance(node.operand, Word)


# --- syntax errors ------------------------------------------------------------------------------

ERRORS = [
    # (formula, line, column, words the message must contain)
    ("A +", 1, 4, ["end of formula", "missing operand"]),
    ("A B = C", 1, 3, ["'B'", "missing operator"]),
    ("(A + B = C", 1, 11, ["unclosed"]),
    ("A + B) = C", 1, 6, ["')'", "unmatched"]),
    ("A = B ^ 2", 1, 7, ["'^'", "**"]),
    ("A = B × 2", 1, 7, ["'×'", "'*'"]),
    ("AB = ५", 1, 6, ["'५'", "digit of another script", "0-9"]),
    ("A€B = 12", 1, 2, ["'€'", "euro sign", "neither a letter, a digit nor an operator"]),
    ("A = 1 ≠ 2", 1, 7, ["'≠'", "'!='"]),
    ("A\ue000 = 12", 1, 2, ["private-use"]),
    ("", 1, 1, ["empty formula"]),
    ("   ", 1, 1, ["empty formula"]),
    (" ;\n, ", 1, 1, ["empty formula"]),
    ("A = B =", 1, 8, ["missing operand"]),
    ("SEND + MORE = = MONEY", 1, 15, ["'='", "missing operand"]),
    ("A +   ", 1, 4, ["missing operand"]),
    ("A = B\nC +", 2, 4, ["missing operand"]),
    ("A = B\n(C + D", 2, 7, ["unclosed"]),
    ("A = B\n\nD E = F", 3, 3, ["'E'", "missing operator"]),
    ("abs(A", 1, 6, ["unclosed"]),
    ("A = B}", 1, 6, ["unmatched"]),
    ("A = B$", 1, 6, ["'$'"]),
]


@pytest.mark.parametrize("formula, line, column, labels", ERRORS)
def test_syntax_errors(formula, line, column, labels):
    with pytest.raises(FormulaSyntaxError) as caught:
        parse(formula)
    error = caught.value
    assert isinstance(error, FormulaError)
    assert isinstance(error, ValueError)
    assert (error.line, error.column) == (line, column)
    text = str(error)
    assert f"at line {line}, column {column}" in text
    for label in labels:
        assert label in error.message
    # the snippet: the offending line, then a caret under the right column
    source_line = formula.splitlines()[line - 1] if formula.strip() else ""
    assert text.endswith(error.snippet)
    snippet_lines = error.snippet.split("\n")
    assert snippet_lines[0] == "  " + source_line
    caret_line = snippet_lines[1]
    assert caret_line.lstrip(" ").startswith("^")
    assert caret_line.index("^") == 2 + column - 1


def test_snippet_caret_is_under_the_fault():
    with pytest.raises(FormulaSyntaxError) as caught:
        parse("SEND + MORE = = MONEY")
    assert str(caught.value) == (
        "unexpected '=': missing operand at line 1, column 15\n"
        "  SEND + MORE = = MONEY\n"
        "                ^")


def test_error_is_raised_without_lark_chaining():
    with pytest.raises(FormulaSyntaxError) as caught:
        parse("A +")
    assert caught.value.__suppress_context__ or caught.value.__cause__ is None
    assert "lark" not in type(caught.value).__module__


def test_grammar_has_no_lalr_conflicts():
    parser = build_parser(strict=True)
    assert parser.parse("A = B") is not None


# Code points at the edges of the planes and blocks: the grammar's negated classes must hold every one.
NON_ASCII = [0x80, 0xC9, 0x306, 0x3A3, 0x939, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x1D400, 0x10FFFF]


@pytest.mark.parametrize(("terminal", "ascii_members"), [
    ("NAME", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789"),
    ("WORD", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?"),
])
def test_word_and_name_classes_are_every_character_outside_ascii(terminal, ascii_members):
    """The classes are written as negations (for the collision check's speed); these are the sets they mean."""
    regexp = re.compile(build_parser().get_terminal(terminal).pattern.to_regexp())
    for code in range(128):
        ch = chr(code)
        assert bool(regexp.fullmatch("A" + ch)) == (ch in ascii_members), (terminal, ch)
    for code in NON_ASCII:
        assert regexp.fullmatch("A" + chr(code)), (terminal, hex(code))
        assert regexp.fullmatch(chr(code)), (terminal, hex(code))


def test_repeating_decimal_digits_take_every_character_outside_ascii():
    regexp = re.compile(build_parser().get_terminal("REPEATING").pattern.to_regexp())
    for code in range(128):
        ch = chr(code)
        assert bool(regexp.fullmatch(f"0.({ch})")) == (ch.isdigit() or "A" <= ch <= "Z"), ch
    for code in NON_ASCII:
        assert regexp.fullmatch(f"0.1({chr(code)})"), hex(code)


# --- a letter and its combining marks: one symbol -------------------------------------------------------------


@pytest.mark.parametrize(("formula", "letters"), [
    ("TR\u0306I = 1", ["T", "R\u0306", "I"]),  # R + combining breve: no composed form, one letter
    ("TR\u030cI = 1", ["T", "Ř", "I"]),  # R + combining caron: composed (NFC) into Ř
    ("R\u0306\u0303X = 1", ["R\u0306\u0303", "X"]),  # several marks on one letter
    ("Д\u0483А = 1", ["Д\u0483", "А"]),  # a Cyrillic combining mark on a Cyrillic capital
    ("Д\u094dА = 1", ["Д\u094d", "А"]),  # a mark of another script joins the letter before it all the same
    ("उन्नीस = 1", ["उ", "न\u094d", "न\u0940", "स"]),  # in a script without case too: न्, नी
    ("हिंदी = 1", ["ह\u093f\u0902", "द\u0940"]),  # a vowel sign and a nasal mark on one consonant
    ("สิบเอ็ด = 1", ["ส\u0e34", "บ", "เ", "อ\u0e47", "ด"]),  # Thai: a vowel above is a mark, a vowel before a letter
])
def test_a_letter_and_its_combining_marks_are_one_symbol(formula, letters):
    (word,) = list(words(parse(formula)))
    assert list(word.letters) == letters and len(word.letters) == len(letters)
    assert word.letters[0] == letters[0] and list(reversed(word.letters)) == letters[::-1]



def test_importing_the_parser_leaves_the_interpreter_alone() -> None:
    """No import-time side effect: the stack's room for deep trees is made by the first parse."""
    import subprocess
    import sys

    code = ("import sys; before = sys.getrecursionlimit(); import smtcrypt.core.parse as p; "
            "assert sys.getrecursionlimit() == before; p.parse('A + B = C'); "
            "assert sys.getrecursionlimit() >= p.STACK_ROOM")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60).returncode == 0


def test_a_text_of_one_line_reads_alike_without_the_bracket_newline_step():
    """A text without a newline is parsed without the step that drops newlines inside brackets: the
    same trees (spans included) and the same syntax errors as with it."""
    texts = [formula for formula, _ in ARITHMETIC] + [
        "SEND + MORE = MONEY", "A**N + B**N = C**N and N > 1", "NORTH / SOUTH = EAST / WEST",
        "not (A < B) or gcd(AB, C) in {1, 2, 3}", "0.(TALK) = (A, B)[0]", "A = -B ** -2, C != 3; D >= 1",
        *(text for texts in parsing.ERROR_EXAMPLES.values() for text in texts), "A = B $ C", "A = B @", "A ** ** B"]

    def read(text: str, lines: bool) -> str:
        try:
            return repr(parsing._ToTree(text).transform(parsing.parser(lines).parse(text)))
        except parsing.UnexpectedInput as error:
            return str(parsing._syntax_error(text, error))

    for text in texts:
        assert read(text, lines=False) == read(text, lines=True), text


# --- the shape's tree -----------------------------------------------------------------------------

def same_tree(one: object, other: object) -> bool:
    """Node by node: the same classes, fields and spans (nodes compare by identity otherwise)."""
    if type(one) is not type(other):
        return False
    if isinstance(one, tuple):
        return len(one) == len(other) and all(same_tree(a, b) for a, b in zip(one, other))  # type: ignore[arg-type]
    if hasattr(one, "__dataclass_fields__") and not isinstance(one, parsing.Span):
        return all(same_tree(getattr(one, name), getattr(other, name)) for name in one.__dataclass_fields__)
    return one == other and str(one) == str(other)


def formulas_of_every_kind() -> list[str]:
    """Norvig's formulas, every construct of this file's tables, Cryptator's translated, and the fuzz
    inputs (most of which fail to parse)."""
    data = Path(__file__).parent / "data" / "cryptator_barker.db.txt"
    cryptator = [join(translate(line).formulas) for line in data.read_text().splitlines()[:300]
                 if line.strip() and not line.startswith("#")]
    tables = [text for table in (ARITHMETIC, COMPARISONS, LOGIC, CALLS, SEPARATED) for text, _ in table]
    tables += [f"{name} + A = B" for name, _ in NAMES] + [error[0] for error in ERRORS]
    return [*SEEDS, *tables, *cryptator, "0.(TALK) = AB / CD", "1.2(3A) = B", "Ab + Ba = C", "abs(A - B) = C",
            "A in {B, C}, (A, B) != (C, D)", "not A or B and C", "Xy_Z + A = B", *random_inputs(500, 5)]


def test_a_tree_of_a_shape_is_the_text_parsed_itself(monkeypatch):
    """A text parsed by its shape (its capitals as A) has the tree Lark makes of the text itself,
    field by field and span by span; a text that does not parse gives its own error."""
    texts = formulas_of_every_kind()

    def parsed() -> list[object]:
        found: list[object] = []
        for text in texts:
            try:
                found.append(parse(text))
            except FormulaError as error:
                found.append(str(error))
        return found

    shaped = parsed()
    monkeypatch.setattr(parsing, "SHAPED_LENGTH", -1)  # every text parsed itself
    for text, by_shape, itself in zip(texts, shaped, parsed()):
        if isinstance(itself, str):
            assert by_shape == itself, text
        else:
            assert not isinstance(by_shape, str) and by_shape.source == itself.source, text
            assert same_tree(by_shape.constraints, itself.constraints), text
    assert sum(not isinstance(tree, str) and tree.source.translate(parsing.SHAPE) != tree.source
               for tree in shaped) > 300
