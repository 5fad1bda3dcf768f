"""Hostile input at every door (`smtcrypt.notations`): each limit is checked before any work, and
exceeding it is a clear error with a caret (exit 2 on the command line, a `FormulaError` in Python),
quickly; the inputs are the ones measured in the issue "hostile input", each of which took seconds to
minutes or gigabytes, or ended in a traceback."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from smtcrypt import Puzzle, Status
from smtcrypt.cli import main
from smtcrypt.core.check import MAX_POWER_DIGITS, check
from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, read_digits, read_number
from smtcrypt.core.parse import MAX_DEPTH, MAX_SOURCE_LENGTH
from smtcrypt.core.rules import make_rules
from smtcrypt.core.tree import BinOp, Constraints, Spans, Word, compare, number
from smtcrypt.errors import FormulaError, FormulaLimitError
from smtcrypt.notations import read
from smtcrypt.notations.cryptator.translate import translate
from smtcrypt.notations.enigma.expression import find_words
from smtcrypt.notations.files import MAX_FILE_BYTES, read_text
from smtcrypt.notations.layout.reader import MAX_LAYOUT_CELLS, MAX_ROW_DIGITS
from smtcrypt.teach.play.decisions import parse_decision, parse_marks

QUICK = 5.0  # seconds: generous on a loaded machine; the inputs took from 6.5 s to minutes before
GUARANTEES = Path(__file__).resolve().parents[1] / "docs" / "guarantees.md"


@contextmanager
def quickly(bound: float = QUICK) -> Iterator[None]:
    start = time.monotonic()
    yield
    assert time.monotonic() - start < bound


def refused(call: Callable[[], Any], message: str) -> FormulaError:
    """The error `call` raises, quickly, with `message` in it and (where it has a place) a caret."""
    with quickly(), pytest.raises(FormulaError) as caught:
        call()
    assert message in caught.value.message, caught.value.message
    if caught.value.position is not None:
        assert "^" in str(caught.value)
    return caught.value


def exits_2(argv: list[str], capsys: pytest.CaptureFixture[str], message: str, caret: bool = True) -> str:
    """The command line refuses `argv` with exit 2, quickly, `message` (and a caret) on stderr, no traceback."""
    with quickly():
        code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert message in err and "Traceback" not in err
    if caret:
        assert re.search(r"^\s+\^+$", err, re.MULTILINE), err
    return err


def nested_truncations(levels: int) -> str:
    """`(-(-(-a//b)//b)//b)=c`: each `//` of an operand that may be negative repeats its operands."""
    text = "a"
    for _ in range(levels):
        text = f"(-{text}//b)"
    return text + "=c"


def skeleton_division(digits: int) -> str:
    """A long division of `digits`-digit dividend by a 2-digit divisor, every cell a `?`."""
    column = 5
    lines = [" " * (column + 1) + "?" * (digits - 1), " " * column + "-" * digits, "?? ) " + "?" * digits]
    for step in range(digits - 1):
        end = column + step + 1
        lines += [" " * (end - 1) + "??", " " * (end - 1) + "--"]
        lines.append(" " * end + ("??" if step < digits - 2 else "?"))
    return "\n".join(lines) + "\n"


# --- 1. the input's size, before any translation ---------------------------------------------------------


def test_nested_truncations_in_cryptator_are_refused_before_they_grow(capsys: pytest.CaptureFixture[str]) -> None:
    text = nested_truncations(22)  # became 205,520,857 characters in 31 s
    assert len(text) < 150
    error = refused(lambda: translate(text), "characters of smtcrypt's formulas")
    assert text[error.position:error.position + 2] == "//"  # the caret under the // that passes the limit
    exits_2(["--syntax", "cryptator", text], capsys, "the limit is 100,000")


def test_truncations_within_the_limit_translate_as_before() -> None:
    translated = translate(nested_truncations(2))
    assert translated.formula == ("(abs((-((abs((-A)) // abs(B)) * (1 - 2 * ((-A) * B < 0))))) // abs(B)) * "
                                  "(1 - 2 * ((-((abs((-A)) // abs(B)) * (1 - 2 * ((-A) * B < 0)))) * B < 0)) == C")
    assert len(translate(nested_truncations(6)).formula) <= MAX_SOURCE_LENGTH


@pytest.mark.parametrize("syntax, text", [
    ("smtcrypt", "A + " * 50_000 + "A = B"),
    ("layout", "?\n" * 60_000),
    ("enigma", "SubstitutedExpression\n" + "\n".join(f"'ABC + DEF = GHI + {i}'" for i in range(12_000))),  # 360 KB
    ("enigma", ["SubstitutedExpression"] + ["A + B = C"] * 20_000),
    ("cryptator", "a+" * 60_000 + "a=b"),
])
def test_every_notation_refuses_text_over_the_length_limit_before_reading_it(syntax: str, text: Any) -> None:
    refused(lambda: read(text, syntax), f"characters: the limit is {MAX_SOURCE_LENGTH:,}")


# --- 2. digit sets and ranges checked against the base without building them ---------------------------


@pytest.mark.parametrize("argv", [
    ["--digits", "0-99999999999", "A + B = C"],  # a MemoryError at 2.3 GB before
    ["--domain", "A=0-99999999999", "A + B = C"],
    ["--assign", "A=99999999999", "A + B = C"],
    ["--base", "16", "--digits", "1-99999999999999999999", "A + B = C"],
])
def test_digit_ranges_are_checked_against_the_base_by_their_ends(argv: list[str],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    exits_2(argv, capsys, "is not a digit in base", caret=False)


def test_digit_ranges_through_the_python_api_are_never_built() -> None:
    refused(lambda: make_rules(digits=range(10**12)), "10 is not a digit in base 10")
    refused(lambda: make_rules(digits=range(-3, 10**12, 7)), "-3 is not a digit")
    assert make_rules(digits=range(9, 0, -2)).digits == frozenset({1, 3, 5, 7, 9})


@pytest.mark.parametrize("argv, message", [
    (["--syntax", "enigma", "SubstitutedExpression", "--digits=0-99999999999", "A + B = C"], "digits run from 0"),
    (["--syntax", "enigma", "SubstitutedExpression", "--invalid=0-99999999999,A", "A + B = C"], "digits run from 0"),
    (["--syntax", "enigma", "SubstitutedExpression", "--assign=A,99999999999", "A + B = C"], "--assign takes"),
    (["--syntax", "cryptator", "a + b = c", "--assign", "a=99999999999"], "not a digit of base 10"),
])
def test_enigma_and_cryptator_digits_are_checked_alike(argv: list[str], message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    exits_2(argv, capsys, message, caret="enigma" in argv)


# --- 3. the size of every value a formula may take ---------------------------------------------------------


def test_nested_constant_powers_are_refused_under_the_part_too_large(capsys: pytest.CaptureFixture[str]) -> None:
    formula = "A = ((2 ** 1000) ** 1000) ** 1000"  # each exponent within the limit; ran 45 s under --timeout 5
    error = refused(lambda: Puzzle(formula), f"more than the {MAX_POWER_DIGITS:,} digits smtcrypt computes")
    assert formula[error.position:error.position + error.length] == "(2 ** 1000) ** 1000"
    exits_2(["--timeout", "5", formula], capsys, "digits smtcrypt computes")


def test_nested_powers_of_words_are_refused_as_constants_are() -> None:
    refused(lambda: Puzzle("(AB ** 1000) ** 1000 > C"), "digits smtcrypt computes")  # ran past --timeout 5


def test_constants_within_the_bound_are_still_computed() -> None:
    assert Puzzle("A < (2 ** 1000) ** 300").verdict(timeout=30).status is Status.MULTIPLE  # 90,309 digits
    refused(lambda: Puzzle("A < (2 ** 1000) ** 333"), "100,244 digits")


@pytest.mark.parametrize("answer", ["7 ** 9999999", "2 ** (10 ** 10)", "(A ** 1000) ** 1000"])
def test_an_answer_is_bounded_as_a_formula_is(answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    exits_2(["--timeout", "5", "--answer", answer, "A + B = C"], capsys, "digits smtcrypt computes")


# --- 4. integers of more digits than the limit: a caret, never Python's conversion error -----------------

LONG = "9" * 5_000  # Python converts at most 4,300 digits


@pytest.mark.parametrize("formula", [f"A = {LONG}", f"A = 0.{LONG}", f"A = 0.({LONG})", "A" * 5_000 + " > B"])
def test_numbers_words_and_repeating_decimals_over_the_limit_are_refused(formula: str) -> None:
    refused(lambda: Puzzle(formula), f"digits: the limit is {MAX_NUMBER_DIGITS:,}")


@pytest.mark.parametrize("argv", [
    ["--assign", f"A={LONG}", "A + B = C"],
    ["--digits", f"1-{LONG}", "A + B = C"],
    ["--syntax", "enigma", "SubstitutedExpression", f"A = {LONG}"],
    ["--syntax", "enigma", "SubstitutedExpression", "A = 0x" + "f" * 4_000],
    ["--syntax", "enigma", "SubstitutedExpression", f"--digits=0-{LONG}", "A + B = C"],
    ["--syntax", "enigma", "SubstitutedExpression", f"--base={LONG}", "A + B = C"],
    ["--syntax", "cryptator", f"a = '{LONG}'"],
    ["--syntax", "cryptator", "a + b = c", "--assign", f"a={LONG}"],
])
def test_every_door_refuses_long_integers_with_a_caret(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    exits_2(argv, capsys, f"digits: the limit is {MAX_NUMBER_DIGITS:,}")


def test_play_moves_with_long_numbers_are_refused_with_a_caret() -> None:
    refused(lambda: parse_decision(f"S = {LONG}", ["S"], []), "expected a number")
    refused(lambda: parse_marks(f"S: 1 {LONG}", ["S"], [], 10), "a pencil mark is a digit")
    refused(lambda: parse_marks("S: 1 ²", ["S"], [], 10), "a pencil mark is a digit")  # isdigit, yet no int


# --- 5. nesting and term counts in every reader, without recursion ---------------------------------------


@pytest.mark.parametrize("expression, message", [
    ("+".join(["A"] * 45_000) + " = B", "nested more than"),  # RecursionError in Python's parser before
    ("not " * 20_000 + "A = B", "nested more than"),  # MemoryError in Python's parser before
    ("B = " + "-" * 30_000 + "A", "nested more than"),
    ("+".join(["A"] * (MAX_DEPTH + 500)) + " = B", f"nested more than {MAX_DEPTH} levels"),
])
def test_enigma_expressions_nested_too_deeply_are_refused(expression: str, message: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    exits_2(["--syntax", "enigma", "SubstitutedExpression", expression], capsys, message)


@pytest.mark.parametrize("text", [
    "+".join(["a"] * 6_000) + "=b",  # 15 s before
    "-" * 30_000 + "a=b",
    "(" * 30_000 + "-" * 2_000 + "a" + ")" * 30_000 + "=b",
])
def test_cryptator_chains_and_nesting_are_refused_in_linear_time(text: str) -> None:
    refused(lambda: translate(text), f"nested more than {MAX_DEPTH} levels")


def test_cryptator_brackets_alone_add_no_depth_and_read_in_linear_time() -> None:
    with quickly():  # 5,000 nested brackets took 13.5 s before
        puzzle = Puzzle.from_cryptator("(" * 30_000 + "a" + ")" * 30_000 + "=b")
        assert puzzle.cryptator.formula == "A == B"
    with quickly():
        assert translate("(" * 20_000 + "a=b" + ")" * 20_000).formula == "A == B"


def test_a_comparison_inside_a_side_is_refused_under_it() -> None:
    error = refused(lambda: translate("(a = b) + c = d"), "a comparison stands only between")
    assert error.column == 4


# --- 6. enigma.py run files: words found in linear time ---------------------------------------------------


def test_finding_the_words_of_a_long_expression_is_linear() -> None:
    text = " + ".join(["ABC"] * 60_000) + " = D"  # 360 KB: 6.5 s before
    with quickly(2.0):
        assert len(find_words(text, frozenset("ABCD"))) == 60_001


# --- 7. files read as UTF-8 up to a size cap -----------------------------------------------------------------


def test_a_device_that_never_ends_is_refused_at_the_cap(capsys: pytest.CaptureFixture[str]) -> None:
    exits_2(["--layout", "/dev/zero", "A = B"], capsys, f"more than {MAX_FILE_BYTES:,} bytes", caret=False)
    exits_2(["--syntax", "enigma", "--run", "/dev/zero"], capsys, "the limit for a puzzle's file", caret=False)


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"\xef\xbb\xbf" + b"x" * (MAX_FILE_BYTES - 3))
    assert len(read_text(str(path))) == MAX_FILE_BYTES - 3
    path.write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    refused(lambda: read_text(str(path)), "the limit for a puzzle's file")


# --- 8. layouts in bases 37 to 64 ---------------------------------------------------------------------------


def test_a_layout_with_literal_rows_reads_in_every_base() -> None:
    layout = "   17\n x 12\n ----\n   34\n  17\n ---\n  204\n"
    assert Puzzle.from_layout(layout, base=40).count() == 0  # 47 * 42 is not 3,204 in base 40
    assert Puzzle.from_layout(layout, base=10).count() == 1


def test_an_enigma_division_in_base_40_is_shown_with_its_digits() -> None:
    argv = ["SubstitutedDivision", "--base=40", "--assign=a,38", "a?? / ?? = ?", "a?? - ??? = ??"]
    puzzle = Puzzle.read(argv, "enigma")
    lines = [puzzle.view.line(solution) for solution in puzzle.solve(limit=5)]  # int() stopped at base 36
    for line in lines:  # `[38]00 / [39]0 = [38] (rem [38]0) [...]`: digits from 36 on in brackets, read back
        match = re.match(r"(\S+) / (\S+) = (\S+) \(rem (\S+)\)", line)
        assert match is not None and line.startswith("[38]"), line
        dividend, divisor, quotient, remainder = (read_number(part, 40) for part in match.groups())
        assert dividend == divisor * quotient + remainder and remainder < divisor
    assert len(lines) == 5


def test_digits_are_read_back_as_they_are_written() -> None:
    assert read_number("ff", 16) == 255 and read_number("1[36]", 64) == 100 and read_digits("z[63]0", 64) == [35, 63, 0]
    with pytest.raises(ValueError):
        read_number("g", 16)


# --- 9. layouts beyond a stated size --------------------------------------------------------------------------


def test_a_skeleton_division_of_a_120_digit_dividend_is_refused_at_once(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    path = tmp_path / "division.txt"
    path.write_text(skeleton_division(120), encoding="utf-8")  # hung in the digit search's planner
    exits_2(["--layout", str(path), "--timeout", "5"], capsys, f"the limit is {MAX_ROW_DIGITS}")


def test_a_layout_of_too_many_cells_is_refused() -> None:
    width, places = 20, MAX_LAYOUT_CELLS // 20  # every row within MAX_ROW_DIGITS, the partial products too many
    right = width + places + 2  # the column after the multiplier's last digit
    lines = ["?" * width, "x " + "?" * places, "-" * right]
    lines = [line.rjust(right) for line in lines] + [("?" * (width + 1)).rjust(right - place) for place in range(places)]
    layout = "\n".join(lines) + "\n"
    refused(lambda: Puzzle.from_layout(layout), f"more than {MAX_LAYOUT_CELLS} cells")


def test_a_long_division_within_the_limits_is_read() -> None:
    with quickly():
        Puzzle.from_layout(skeleton_division(MAX_ROW_DIGITS))


# --- the guarantees page states each limit as the code has it --------------------------------------------


def test_the_guarantees_page_lists_each_limit_with_its_value() -> None:
    page = GUARANTEES.read_text(encoding="utf-8")
    section = page[page.index("## Limits"):]
    rows = {cells[0]: cells[1] for cells in (
        [cell.strip() for cell in line.strip("|").split("|")] for line in section.splitlines() if line.startswith("|"))}
    for name, value in [("input length", MAX_SOURCE_LENGTH), ("file size", MAX_FILE_BYTES),
                        ("nesting", MAX_DEPTH), ("digits of a number", MAX_NUMBER_DIGITS),
                        ("size of a value", MAX_POWER_DIGITS), ("layout", MAX_ROW_DIGITS),
                        ("layout", MAX_LAYOUT_CELLS)]:
        assert f"{value:,}" in rows[name], (name, rows.get(name))


def test_each_limit_error_is_a_limit_error() -> None:
    for call in (lambda: translate(nested_truncations(22)), lambda: Puzzle("A = ((2 ** 1000) ** 1000) ** 1000"),
                 lambda: Puzzle(f"A = {LONG}")):
        with pytest.raises(FormulaLimitError):
            call()


# --- trees built by code meet the limits a parsed one does ------------------------------------------------


def test_a_tree_built_by_code_is_checked_against_every_limit() -> None:
    text = "A + B = C"
    spans = Spans(text)
    a, b, c = Word("A", spans(0)), Word("B", spans(4)), Word("C", spans(8))
    problem = check(Constraints((compare(BinOp("+", a, b, spans(2)), "==", c, spans(6)),), text))
    assert problem.letters == ("A", "B", "C") and problem.formula.measured
    shared = a  # each level repeats the one below twice: 40 levels stand for a trillion characters
    for _ in range(40):
        shared = BinOp("+", shared, shared, spans(2))
    error = refused(lambda: check(Constraints((compare(shared, "==", c, spans(6)),), text)),
                    "characters of smtcrypt's formulas")
    assert (error.line, error.column, text[error.position]) == (1, 3, "+")  # the innermost part too large
    deep = a
    for _ in range(MAX_DEPTH):
        deep = BinOp("+", deep, b, spans(2))
    refused(lambda: check(Constraints((compare(deep, "==", c, spans(6)),), text)), f"nested more than {MAX_DEPTH}")
    refused(lambda: check(Constraints((compare(a, "==", Word("D" * (MAX_NUMBER_DIGITS + 1), spans(8)), spans(6)),),
                                      text)), f"digits: the limit is {MAX_NUMBER_DIGITS:,}")
    assert number(-7, spans(0)).op == "-" and number(Fraction(3, 2), spans(0)).op == "/"  # as the parser makes them
