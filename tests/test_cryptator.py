"""`--syntax cryptator`: Cryptator's solver tests read verbatim give what they assert, and agree with
a brute force that evaluates Cryptator's tree by Cryptator's rules, independently of our formula
language and its solver."""

from __future__ import annotations

import functools
import itertools
import json
import math
import operator
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from smtcrypt.api import Puzzle
from smtcrypt.cli import main
from smtcrypt.cli.solve import cryptator_parser as build_parser
from smtcrypt.core.results import Status
from smtcrypt.core.rules import MAX_BASE
from smtcrypt.errors import FormulaError
from smtcrypt.notations.cryptator import read
from smtcrypt.notations.cryptator.reader import (
    Binary,
    Constant,
    CryptatorEquation,
    CryptatorWord,
    Negation,
    Node,
    words,
)
from smtcrypt.notations.cryptator.translate import translate

DATA = Path(__file__).parent / "data" / "cryptator_solver_tests.tsv"
BRUTE_LIMIT = 400_000  # assignments the brute force tries at most


def rows() -> list[tuple[str, str, str, str]]:
    found = []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, options, expected, formula = line.split("\t")
            found.append((name, options, expected, formula))
    return found


ROWS = rows()


def puzzle_of(options: str, formula: str) -> Puzzle:
    args = build_parser().parse_args([*options.split(), "--", formula])
    return Puzzle.from_cryptator(args.formula, base=args.base, allow_leading_zeros=args.allow_leading_zeros,
                                 assign=args.assign, relax_min=args.relax_min, relax_max=args.relax_max)


# --- an independent brute force: Cryptator's tree evaluated with Java's integer semantics -------


class Invalid(Exception):
    """An evaluation Cryptator's model has no value for: a division by 0, an inexact `/`."""


def truncated(a: int, b: int) -> int:
    if b == 0:
        raise Invalid
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


@functools.cache
def places(text: str, base: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """A word's symbols, the last first, and their place values: 1, base, base ** 2, ..."""
    return tuple(reversed(text)), tuple(base ** power for power in range(len(text)))


def value(node: Node, digits: dict[str, int], base: int) -> int:
    if isinstance(node, CryptatorWord):
        symbols, values = places(node.text, base)
        return sum(map(operator.mul, map(digits.__getitem__, symbols), values))
    if isinstance(node, Constant):
        return node.value
    if isinstance(node, Negation):
        return -value(node.operand, digits, base)
    assert isinstance(node, Binary)
    a, b = value(node.left, digits, base), value(node.right, digits, base)
    if node.op in ("+", "-", "*"):
        return a + b if node.op == "+" else a - b if node.op == "-" else a * b
    if node.op == "^":
        if b < 0 or (a == 0 and b < 0):
            raise Invalid
        return a ** b
    quotient = truncated(a, b)
    if node.op == "/" and quotient * b != a:
        raise Invalid
    return a - b * quotient if node.op == "%" else quotient


COMPARE = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}


def holds(equation: CryptatorEquation, digits: dict[str, int], base: int) -> bool:
    a, b = value(equation.left, digits, base), value(equation.right, digits, base)
    return COMPARE[equation.op](a, b)


def brute_count(formula: str, base: int, zeros: bool, assign: dict[str, int], relax: tuple[int, int]) -> int | None:
    """Solutions by trying every assignment under Cryptator's rules; None when there are too many."""
    equations = read(formula)
    found = [word for equation in equations for word in words(equation)]
    symbols = list(dict.fromkeys(ch for word in found for ch in word.text))
    n = len(symbols)
    most, least = math.ceil(n / base), n // base
    most = min(n, most + relax[1]) if relax[1] else most
    least = max(0, least - relax[0]) if relax[0] else least
    tries = math.perm(base, n) if most == 1 else base ** n
    if tries > BRUTE_LIMIT:
        return None
    leading = set() if zeros else {word.text[0] for word in found}
    candidates: Iterable[tuple[int, ...]] = (
        itertools.permutations(range(base), n) if most == 1 else itertools.product(range(base), repeat=n))
    for symbol in leading:  # no 0 at a word's head
        candidates = filter(operator.itemgetter(symbols.index(symbol)), candidates)
    for symbol, digit in assign.items():
        at = symbols.index(symbol)
        candidates = filter(lambda candidate, at=at, digit=digit: candidate[at] == digit, candidates)
    count = 0
    for candidate in candidates:
        digits = dict(zip(symbols, candidate))
        if most > 1:
            used = Counter(candidate)
            if any(not least <= used[d] <= most for d in range(base)):
                continue
        try:
            if all(holds(equation, digits, base) for equation in equations):
                count += 1
        except Invalid:
            continue
    return count


# --- Cryptator's solver tests --------------------------------------------------------------------


def test_the_data_holds_at_least_60_puzzles_across_every_notation() -> None:
    formulas = [formula for _, _, _, formula in ROWS]
    assert len(ROWS) >= 60
    for notation in ("^", "%", "//", " / ", "&&", ";", "'", '"', "!=", "<=", ">=", "(-", "9END"):
        assert any(notation in formula for formula in formulas), notation
    assert any(not formula.isupper() for formula in formulas)  # lowercase words are words
    assert {"-b", "-z", "-min", "-max", "--assign"} <= {word for _, options, _, _ in ROWS for word in options.split()}


@pytest.mark.parametrize(("name", "options", "expected", "formula"), ROWS,
                         ids=[f"{i}-{row[0]}" for i, row in enumerate(ROWS)])
def test_each_solver_test_gives_what_cryptator_asserts(name: str, options: str, expected: str, formula: str) -> None:
    args = build_parser().parse_args([*options.split(), "--", formula])
    if args.base > MAX_BASE:  # bases above 64 are refused, with a clear error
        with pytest.raises(FormulaError, match=f"bases up to {MAX_BASE}"):
            puzzle_of(options, formula)
        return
    puzzle = puzzle_of(options, formula)
    if expected in ("sat", "unsat", "unique", "notunique"):
        count = len(list(puzzle.solve(limit=2, timeout=120)))
        wanted = {"sat": count >= 1, "unsat": count == 0, "unique": count == 1, "notunique": count == 2}
        assert wanted[expected], (formula, count)
    else:
        count = puzzle.count(timeout=120)
        if expected.isdigit():
            assert count == int(expected)
    for solution in puzzle.solve(limit=3, timeout=120):  # each shown solution holds by Cryptator's own rules
        digits = puzzle.cryptator.user_mapping(solution.mapping)
        assert all(holds(equation, digits, args.base) for equation in read(formula))
    assign = dict(item.split("=") for item in args.assign or [])
    brute = brute_count(formula, args.base, args.allow_leading_zeros, {s: int(d) for s, d in assign.items()},
                        (args.relax_min, args.relax_max))
    if brute is not None:
        assert puzzle.count(timeout=120) == brute


def test_the_rows_of_one_group_count_alike() -> None:
    groups: dict[str, set[int]] = {}
    for _, options, expected, formula in ROWS:
        if expected.startswith("same:"):
            groups.setdefault(expected, set()).add(puzzle_of(options, formula).count(timeout=60))
    assert groups and all(len(counts) == 1 for counts in groups.values())


BARKER = Path(__file__).parent / "data" / "cryptator_barker.db.txt"  # its test resource, verbatim


def barker_lines() -> list[str]:
    """The lines ExtensiveTesting.testBarker reads: those not matching `\\s*#.*`; and its two with big numbers."""
    lines = BARKER.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if not re.fullmatch(r"\s*#.*", line)] + ["copper*neon=iron*silver",
                                                                             "iron*radium=neon*sodium"]


def test_each_of_cryptators_barker_cryptarithms_is_unique_as_it_asserts() -> None:
    lines = barker_lines()
    assert len(lines) == 130
    not_unique = [line for line in lines if Puzzle.from_cryptator(line).verdict(timeout=120).status is not Status.UNIQUE]
    assert not_unique == []


def test_a_solution_limit_stops_as_cryptator_does() -> None:  # testBigCatLionSolutionLimit
    assert len(list(puzzle_of("", "big + cat = lion").solve(limit=5))) == 5


# --- the rules, each against the brute force ---------------------------------------------------


@pytest.mark.parametrize(("formula", "base", "zeros"), [
    ("A // B = C", 10, False),  # single letters are not 0: 25, not our default's 61
    ("-A // B = -C", 10, False),  # // truncates toward zero
    ("-AB // C = -D", 10, False),
    ("-AB % C = -D", 10, False),  # the remainder takes the dividend's sign, as Choco's
    ("A / B = C", 10, True),  # / divides exactly
    ("AB / C < D", 10, False),
    ("-A ^ B = -C", 10, False),  # -(A^B): ^ binds tighter than a unary minus
    ("A * B % C = D", 10, False),  # A * (B % C): % binds as tightly as ^
    ("A ^ B ^ C = D", 6, False),  # (A^B)^C: left to right
    ("ab + ba = cc", 3, True),  # more symbols than the base: each digit once or twice
    ("a + b + c + d + e = f", 4, False),
])
def test_rules_agree_with_the_brute_force(formula: str, base: int, zeros: bool) -> None:
    puzzle = Puzzle.from_cryptator(formula, base=base, allow_leading_zeros=zeros)
    assert puzzle.count() == brute_count(formula, base, zeros, {}, (0, 0))


def test_single_letters_are_not_zero_and_lowercase_words_are_words() -> None:
    assert Puzzle.from_cryptator("A // B = C").count() == 25
    assert Puzzle.from_cryptator("big + cat = big").count() == 0
    assert translate("send+more=money").formula == "SEND + MORE == MONEY"


def test_digits_inside_words_are_symbols() -> None:
    read_ = translate("9END+M08E=10NEY")
    assert set(read_.letters) == set("9ENDM081Y")
    assert len(set(read_.letters.values())) == 9


def test_letters_of_other_scripts_are_symbols() -> None:
    puzzle = Puzzle.from_cryptator("ДВЕСТИ = ДВА * СТО")
    solutions = list(puzzle.solve())
    assert len(solutions) == 1
    assert puzzle.cryptator.user_mapping(solutions[0].mapping) == {
        "Д": 1, "В": 0, "Е": 4, "С": 9, "Т": 7, "И": 6, "А": 8, "О": 2}
    assert brute_count("ДВА * '2' = СТО", 10, False, {}, (0, 0)) == Puzzle.from_cryptator("ДВА * '2' = СТО").count()


def test_every_character_is_a_symbol_as_cryptator_reads_it() -> None:
    read_ = translate("TR\u0306I + TR\u0306I = SIX")  # R + U+0306 COMBINING BREVE: two symbols, as in Cryptator
    assert list(read_.letters) == ["T", "R", "\u0306", "I", "S", "X"]
    assert Puzzle.from_cryptator("TR\u0306I + TR\u0306I = SIX").count() == 0  # four digits on the left
    assert translate("TR\u030cI = '3'").letters != translate("TŘI = '3'").letters  # read as written, not composed
    # Cryptator's own Devanagari puzzles are unique read so, a vowel sign or a virama a symbol of its own
    assert Puzzle.from_cryptator("उन्नीस + इक्कीस + इकसठ = एकसौएक").count() == 1
    puzzle = Puzzle.from_cryptator("TR\u0306I + TR\u0306I = SIXTY", assign=["\u0306=8", "R=3"])
    (solution,) = puzzle.solve()
    assert puzzle.cryptator.substitute(solution.mapping) == "6382 + 6382 = 12764"


def test_a_formula_of_constants_is_true_or_false(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--syntax", "cryptator", "'12'+'33'='45'"]) == 0  # from Cryptator's tests
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("12 + 33 == 45  ('12'+'33'='45')") and lines[2].startswith("1 solution")
    assert main(["--syntax", "cryptator", "'12'+'33'='46'"]) == 1
    assert capsys.readouterr().out.splitlines()[-1].startswith("0 solutions")


def test_precedence_is_cryptators() -> None:
    assert translate("-A^B = C").formula == "-(A ** B) == C"
    assert translate("-A*B = C").formula == "(-A) * B == C"
    assert translate("A*B%C = D").formula == "A * (B % C) == D"
    assert translate("A-B-C = D").formula == "A - B - C == D"
    assert translate("A-(B-C) = D").formula == "A - (B - C) == D"


@pytest.mark.parametrize(("formula", "column", "message"), [
    ("send+more==money", 11, "expected a word"),
    ("; a = b", 1, "expected a word"),
    ("a = b = c", 7, "expected an operator"),
    ("a + b", 6, "expected a comparison"),
    ("a = 'b'", 6, "only the digits"),
    ("a = '3\"", 7, "closes with"),
    ("a_b = c", 2, "unexpected character"),
    ("a & b = c", 3, "unexpected character"),
])
def test_bad_input_is_a_clear_error_with_a_caret(formula: str, column: int, message: str) -> None:
    with pytest.raises(FormulaError, match=message) as caught:
        translate(formula)
    assert caught.value.column == column


def test_more_than_52_symbols_is_a_clear_error() -> None:
    with pytest.raises(FormulaError, match="at most 52"):
        translate("abcdefghijklmnopqrstuvwxyz = ABCDEFGHIJKLMNOPQRSTUVWXYZ + ΑΒΓ", base=64)


# --- the command line ----------------------------------------------------------------------------


def test_the_command_line_prints_ours_and_the_formula_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--syntax", "cryptator", "send+more=money"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "send+more=money  reads as  SEND + MORE == MONEY"
    assert lines[1] == "9567 + 1085 == 10652  (9567+1085=10652)  /  s=9 e=5 n=6 d=7 m=1 o=0 r=8 y=2"
    assert lines[2].startswith("1 solution (unique: search complete")


def test_the_command_line_takes_cryptators_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--syntax", "cryptator", "-b", "2", "donald + gerald = robert"]) == 1
    assert main(["--syntax", "cryptator", "--count", "alpos + les + otos = talos", "--assign", "a=1",
                 "--assign", "e=3"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1"
    assert main(["--syntax", "cryptator", "--count", "-z", "A // B = C"]) == 0  # -z alone is -z true
    assert capsys.readouterr().out == "61\n"
    assert main(["--json", "--syntax", "cryptator", "A // B = C", "-z", "false"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["count"], data["syntax"], data["cryptator"]) == (25, "cryptator", "A // B = C")


def test_options_go_before_or_after_the_syntax(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--count", "--assign", "a=1", "--syntax", "cryptator", "alpos + les + otos = talos",
                 "--assign", "e=3"]) == 0  # --assign, a name Cryptator shares with us, is Cryptator's
    assert capsys.readouterr().out == "1\n"
    assert main(["--json", "--base", "8", "--syntax", "cryptator", "a + b = c"]) == 0
    before = json.loads(capsys.readouterr().out)
    assert main(["--syntax", "cryptator", "a + b = c", "-b", "8", "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert before["count"] == after["count"] == 18


def test_the_command_line_reports_bad_input_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--syntax", "cryptator", "r='36'", "-b", "65"]) == 2
    assert "bases up to" in capsys.readouterr().err
    assert main(["--json", "--syntax", "cryptator", "a + b"]) == 2
    assert json.loads(capsys.readouterr().out)["status"] == "error"


# --- batch, explain, worksheet, the Python API and the web API ---------------------------------


def test_batch_reads_each_line_in_cryptators_notation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("send+more=money\n# a comment\nA // B = C\nbig + cat = big\na + b\n", encoding="utf-8")
    assert main(["batch", "--syntax", "cryptator", "--count", str(puzzles)]) == 2  # the last line is not a formula
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [answer.get("count") for answer in answers] == [1, 25, 0, None]
    assert answers[1]["cryptator"] == "A // B = C" and "column 6" in answers[3]["error"]


def test_explain_reads_cryptators_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--syntax", "cryptator", "a*a=b && b=a+a"]) == 0
    assert "Solution: A=2 B=4." in capsys.readouterr().out


def test_a_worksheet_writes_cryptators_rules_into_each_formula(tmp_path: Path) -> None:
    page = tmp_path / "sheet.html"
    assert main(["worksheet", "--syntax", "cryptator", "A // B = C; A = '9'", "send+more=money",
                 "-o", str(page), "--allow-multiple"]) == 0
    assert "A // B == C, A == 9, A != 0, B != 0, C != 0" in page.read_text(encoding="utf-8")
    assert main(["worksheet", "--syntax", "cryptator", "send+more=money; a+b=c", "-o", str(page)]) == 2


def test_the_python_api_reads_cryptators_notation() -> None:
    puzzle = Puzzle.from_cryptator("alpos + les + otos = talos", assign={"a": 1, "e": 3})
    solution = puzzle.first()
    assert solution is not None and puzzle.cryptator.user_mapping(solution.mapping)["a"] == 1
    assert Puzzle.from_cryptator("donald + gerald = robert", base=2, relax_min=1).count() == 0
    assert Puzzle.from_cryptator("big * cat = big", allow_leading_zeros=True).count() == 0


def test_the_web_api_takes_a_syntax_field() -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from smtcrypt.web.app import puzzle_of
    from smtcrypt.web.query import BadQuery, read_query

    query = read_query([("formula", "A // B = C"), ("syntax", "cryptator")], max_timeout=10)
    assert query.syntax == "cryptator" and puzzle_of(query).count() == 25
    assert read_query([("formula", "A // B = C")], max_timeout=10).syntax == "smtcrypt"
    with pytest.raises(BadQuery):  # a notation the page does not read
        read_query([("formula", "A = B"), ("syntax", "fortran")], max_timeout=10)
    # every notation comes in through the same door, enigma.py's command lines too
    enigma = read_query([("formula", 'SubstitutedExpression "TOM * 13 = DALEY"'), ("syntax", "enigma")], max_timeout=10)
    assert puzzle_of(enigma).count() == 1


THIRTY_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCD"


def test_more_symbols_than_our_latin_capitals_take_capitals_of_other_scripts() -> None:
    # 30 symbols: a-d lowercase take capitals of other scripts (A-D are symbols of their own)
    word = THIRTY_SYMBOLS
    puzzle = Puzzle.from_cryptator(f"{word} > {word[::-1]}", base=40)
    letters = puzzle.cryptator.letters
    assert len(set(letters.values())) == 30 and not set(letters.values()) & set("abcd")


@pytest.mark.slow  # a first solution of 30 distinct letters in base 40 takes the solver 10 to 20 s
def test_more_symbols_than_our_latin_capitals_solved_and_shown_in_the_users_symbols() -> None:
    word = THIRTY_SYMBOLS
    puzzle = Puzzle.from_cryptator(f"{word} > {word[::-1]}", base=40)
    solution = next(iter(puzzle.search(limit=1)))
    digits = puzzle.cryptator.user_mapping(solution.mapping)

    def value(text: str) -> int:
        total = 0
        for symbol in text:
            total = total * 40 + digits[symbol]
        return total

    assert len(set(digits.values())) == 30 and value(word) > value(word[::-1]) and digits["a"] and digits["D"]


# --- the translation is our tree, its places in the formula as written --------------------------------


@pytest.mark.parametrize(("formula", "options", "column", "message"), [
    ("a^'2000'=b", {}, 3, "exponent 2000 is beyond"),  # under the constant as written
    ("'2'^'1000'^'1000' = a", {}, 11, "digits smtcrypt computes"),  # under the ^ whose power is too large
])
def test_the_checkers_errors_point_into_the_formula_as_written(formula: str, options: dict, column: int,
                                                               message: str) -> None:
    with pytest.raises(FormulaError, match=message) as caught:
        Puzzle.from_cryptator(formula, **options)
    assert caught.value.source == formula and caught.value.column == column


def test_a_solutions_text_is_the_formula_as_written_filled_in() -> None:
    puzzle = Puzzle.from_cryptator("send+more=money")
    (solution,) = puzzle.solve()
    assert solution.text == "9567+1085=10652"
    assert puzzle.verdict().formula == "SEND + MORE == MONEY"  # a verdict names our formula, as it is shown
    # a repeated operand (a // that rounds toward zero) and a condition are filled in once, where written
    puzzle = Puzzle.from_cryptator("(ab-cd)//e = f && gh/e = f")
    solution = puzzle.first()
    assert puzzle.cryptator.conditions == ["GH % E == 0"] and "abs((AB - CD))" in puzzle.cryptator.formula
    assert solution is not None and solution.text == puzzle.cryptator.substitute(solution.mapping)


def test_digit_symbols_are_letters_whatever_the_base() -> None:
    # the 9s and 7 of the words are symbols, not digits of base 8 or 6 to check
    assert Puzzle.from_cryptator("77 + b = 9c", base=6).count() == brute_count("77 + b = 9c", 6, False, {}, (0, 0))
    assert Puzzle.from_cryptator("a9 + b = 9c", base=8).count() == brute_count("a9 + b = 9c", 8, False, {}, (0, 0))
