"""Letters of every script, the rule for single-letter words and bases above 36, checked against
brute force: a sum's columns tried digit by digit (written here), a product's factors tried
pair by pair, and tests/reference.py."""

from __future__ import annotations

import ast
import builtins
import json
import re

import pytest
from reference import brute_force, marked

import smtcrypt.engine.compiled as compiled_module
from smtcrypt import Puzzle
from smtcrypt.cli import main
from smtcrypt.core.check import check
from smtcrypt.core.letters import WILDCARD_NAMES, display_width, is_letter, is_wildcard, shown
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.core.parse import parse
from smtcrypt.core.results import Status
from smtcrypt.core.rules import make_rules
from smtcrypt.core.tree import unknowns, words
from smtcrypt.engine.portfolio import STRATEGIES
from smtcrypt.errors import FormulaError, FormulaSyntaxError
from smtcrypt.web.query import read_query

HINDI = "उनतालीस + उनसठ = हिन्दुस्तान"  # 39 + 59 = India: न, न् and स, स् are four letters, ता and ली one each
RUSSIAN = "ДВЕСТИ = ДВА * СТО"  # 200 = 2 * 100
GREEK = "ΤΡΙΑ + ΤΡΙΑ + ΤΡΙΑ = ΕΝΝΕΑ"  # 3 + 3 + 3 = 9
CZECH = "TŘI + TŘI + ČTYŘI = DESET"  # 3 + 3 + 4 = 10


def sum_solutions(addends: list[str], total: str, base: int = 10) -> list[dict[str, int]]:
    """Every solution of `addends[0] + ... = total` (distinct letters, no word of two or more letters
    starting with 0), found by trying digits column by column from the right with the carry: a search
    of its own, sharing nothing with smtcrypt but Python."""
    width = max(len(total), *map(len, addends))
    if len(total) < width:
        return []
    heads = {word[0] for word in (*addends, total) if len(word) > 1}
    columns = [([word[-1 - k] for word in addends if k < len(word)], total[-1 - k]) for k in range(width)]
    found: list[dict[str, int]] = []

    def assign(letters: list[str], mapping: dict[str, int], then) -> None:
        if not letters:
            then(mapping)
            return
        letter, rest = letters[0], letters[1:]
        if letter in mapping:
            assign(rest, mapping, then)
            return
        used = set(mapping.values())
        for digit in range(1 if letter in heads else 0, base):
            if digit not in used:
                assign(rest, {**mapping, letter: digit}, then)

    def column(k: int, carry: int, mapping: dict[str, int]) -> None:
        if k == width:
            if carry == 0:
                found.append(mapping)
            return
        cells, result = columns[k]

        def check_column(filled: dict[str, int]) -> None:
            value = carry + sum(filled[cell] for cell in cells)
            if value % base == filled[result]:
                column(k + 1, value // base, filled)
        assign([*cells, result], mapping, check_column)

    column(0, 0, {})
    return found


def product_solutions(total: str, first: str, second: str) -> list[dict[str, int]]:
    """Every solution of `total = first * second` in base 10, by trying every pair of factors."""
    def reading(word: str, value: int, mapping: dict[str, int]) -> dict[str, int] | None:
        """`mapping` with the digits of `value` given to the word's letters, if they fit the rules."""
        digits = str(value)
        if len(digits) != len(word):
            return None
        mapping = dict(mapping)
        for letter, digit in zip(word, map(int, digits)):
            if mapping.setdefault(letter, digit) != digit:
                return None
        return mapping if len(set(mapping.values())) == len(mapping) else None

    def spelled(word: str) -> list[tuple[int, dict[str, int]]]:
        values = range(10 ** (len(word) - 1), 10 ** len(word))
        return [(value, found) for value in values if (found := reading(word, value, {})) is not None]

    solutions = []
    seconds = [b for b, _ in spelled(second)]
    for a, first_digits in spelled(first):
        for b in seconds:
            both = reading(second, b, first_digits)
            found = None if both is None else reading(total, a * b, both)
            if found is not None:
                solutions.append(dict(sorted(found.items())))
    return solutions


# --- reading letters ------------------------------------------------------------------------------


def test_a_script_without_case_reads_each_letter_with_its_marks():
    """Changed with symbols as grapheme clusters: `उन्नीस` was six symbols (उ न ् न ी स), a mark one of its own."""
    (word,) = list(words(parse("उन्नीस = 1")))
    assert list(word.letters) == ["उ", "न्", "नी", "स"] and len(set(word.letters)) == 4
    assert Puzzle(HINDI).letters == ("उ", "न", "ता", "ली", "स", "ठ", "हि", "न्", "दु", "स्")
    assert all(is_letter(letter) for letter in Puzzle(HINDI).letters)
    assert not is_letter("\u094d") and not is_letter("न्न")  # a mark alone, two symbols


def test_letters_are_read_composed():
    decomposed = "E\u0301TE\u0301 = 1 + E\u0301T"  # É typed as E and a combining acute accent
    puzzle = Puzzle(decomposed)
    assert puzzle.letters == ("É", "T") and puzzle.formula == "ÉTÉ = 1 + ÉT"
    assert Puzzle(decomposed, assign=["E\u0301=1"]).count() == Puzzle("ÉTÉ = 1 + ÉT", assign={"É": 1}).count()


@pytest.mark.parametrize("formula, letters, names", [
    ("ДВА + д = 12", ("Д", "В", "А"), ("д",)),  # lowercase Cyrillic: an integer unknown, as x is
    ("ΑΒ + ω = 3", ("Α", "Β"), ("ω",)),
    ("ÀB + é = 3", ("À", "B"), ("é",)),
    ("Ա + Բ = Գ", ("Ա", "Բ", "Գ"), ()),  # Armenian capitals
    ("אב + ג = 12", ("א", "ב", "ג"), ()),  # Hebrew: no case, every letter a letter
    ("สอง = 2", ("ส", "อ", "ง"), ()),  # Thai
    ("一二 = 三", ("一", "二", "三"), ()),
])
def test_cased_and_uncased_scripts(formula, letters, names):
    tree = parse(formula)
    assert check(tree).letters == letters and unknowns(tree) == names


@pytest.mark.parametrize("formula, column, words_in_message", [
    ("ДВА × 2 = ЧЕ", 5, ["'×'", "'*'"]),
    ("AB = ५", 6, ["'५'", "digit of another script"]),
    ("A☃ = 12", 2, ["'☃'", "snowman", "neither a letter, a digit nor an operator"]),
    ("xन = 1", 2, ["'न'", "script without case"]),
    ("Д?д = 1", 2, ["wildcard '?'", "name"]),
    ("A = B\u00a0+ C", 6, ["no-break space"]),
    ("A\ue005 = 1", 2, ["private-use"]),  # the hidden names of the wildcards are not the user's to write
])
def test_a_character_that_is_no_letter_digit_or_operator_is_named(formula, column, words_in_message):
    with pytest.raises(FormulaSyntaxError) as caught:
        parse(formula)
    assert (caught.value.line, caught.value.column) == (1, column)
    assert all(word in caught.value.message for word in words_in_message), caught.value.message


def test_wildcards_are_named_outside_every_script():
    assert all(is_wildcard(name) and not name.isidentifier() for name in WILDCARD_NAMES)
    puzzle = Puzzle("Д? + ?Д = 1?1")
    assert [letter for letter in puzzle.letters if not is_wildcard(letter)] == ["Д"]
    places = [f"?{offset}" for offset, ch in enumerate(puzzle.formula) if ch == "?"]
    assert sorted((s.mapping["Д"], s.wildcards) for s in puzzle.solve()) == sorted(
        (dict(solution)["Д"], tuple(dict(solution)[place] for place in places))
        for solution in brute_force("Д? + ?Д = 1?1"))


@pytest.mark.parametrize("option, value", [("--assign", "Д=1"), ("--domain", "Д=1-2"), ("--distinct", "ДВ,АЕ")])
def test_options_name_letters_of_every_script(option, value, capsys):
    assert main(["--count", option, value, "ДВА + ДВА = ЕВА"]) in (0, 1)
    counted = int(capsys.readouterr().out)
    rules = {"--assign": {"assign": [value]}, "--domain": {"domains": [value]},
             "--distinct": {"distinct": value}}[option]
    assert counted == Puzzle("ДВА + ДВА = ЕВА", **rules).count()
    assert main(["--count", option, value.replace("Д", "ж"), "ДВА + ДВА = ЕВА"]) == 2
    assert "ж" in capsys.readouterr().err


def test_options_name_letters_with_their_marks():
    """Changed with symbols as grapheme clusters: an option named a mark alone (`्=5`); it names the letter
    the mark is on (`न्=0`), and a mark alone is no letter."""
    with_mark = Puzzle(HINDI, assign={"न्": 0})
    assert [solution.mapping["न्"] for solution in with_mark.solve()] == [0]
    assert Puzzle(HINDI, domains=["न्=1-9"]).count() == 0 and Puzzle(HINDI, domains=["न=1-9"]).count() == 1
    assert make_rules(distinct="उन्").groups == ("उन्",)  # उ and न्
    with pytest.raises(FormulaError, match="not a puzzle letter"):
        make_rules(assign={"\u094d": 5})


# --- the targets -------------------------------------------------------------------------------------


def test_cyrillic_product_is_unique_as_brute_force_finds():
    verdict = Puzzle(RUSSIAN).verdict()
    assert verdict.status is Status.UNIQUE and verdict.complete
    assert [solution.mapping for solution in verdict.solutions] == product_solutions("ДВЕСТИ", "ДВА", "СТО")
    assert verdict.solutions[0].text == "104976 = 108 * 972"


@pytest.mark.parametrize("formula", [HINDI, GREEK, CZECH])
def test_sums_of_several_scripts_are_unique_as_brute_force_finds(formula):
    left, total = formula.split(" = ")
    letters = [[cell for _, cell in marked(word)] for word in (*left.split(" + "), total)]  # a mark on its letter
    expected = sum_solutions(letters[:-1], letters[-1])
    assert len(expected) == 1
    verdict = Puzzle(formula).verdict()
    assert verdict.status is Status.UNIQUE and verdict.complete
    assert verdict.solutions[0].mapping == dict(sorted(expected[0].items()))


def test_hindi_solution_as_printed():
    (solution,) = Puzzle(HINDI).solve()
    assert solution.text == "94256 + 9468 = 103724"
    assert str(solution).endswith("न=4 न्=0 ली=5 स=6 स्=7 हि=1") and "◌" not in str(solution)  # a letter and its marks
    assert solution.long_hand().splitlines()[-1] == "103724"


def test_the_answer_option_reads_any_script(capsys):
    assert main(["--answer", "ДВА", RUSSIAN]) == 0
    assert capsys.readouterr().out.startswith("108")
    assert main(["--answer", "ЖДВ", RUSSIAN]) == 2
    assert "the letter Ж does not occur" in capsys.readouterr().err


def test_json_keeps_the_letters(capsys):
    assert main(["--json", HINDI]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["formula"] == HINDI and data["solutions"][0]["mapping"]["न्"] == 0


def test_no_user_text_reaches_generated_code(monkeypatch):
    """Every program the backends compile holds only the names they make (`v0`, `u0`, `_F`, ...): the
    letters of every script, their marks and the wildcards' hidden names never reach `compile`."""
    sources: list[str] = []

    def recording(source, filename, mode):
        sources.append(source)
        return compile(source, filename, mode)
    monkeypatch.setattr(compiled_module, "compile", recording, raising=False)
    formulas = ["उन् + इकी = एकस", "Д * В = ЕА", GREEK, "Д? * ?न = 1?Ω", "ÉT // ना = é, 0 <= é <= 99",
                "一二 + 三 = 二一", "Д! + В = ЕА", "√ДВ : В = Е && Д < В"]  # the other tools' operators too
    for formula in formulas:
        for strategy in STRATEGIES:
            try:
                Puzzle(formula).count(strategy=strategy, timeout=30)
            except StrategyError:
                continue
    assert sources
    allowed = re.compile(r"[vu][0-9]+|_[A-Za-z0-9_]*")  # or a builtin the code calls (abs, ArithmeticError)
    for source in sources:
        assert source.isascii(), source
        names = {node.id for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Name)}
        names |= {node.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.FunctionDef)}
        names |= {arg.arg for node in ast.walk(ast.parse(source)) if isinstance(node, ast.arg) for arg in [node]}
        assert all(allowed.fullmatch(name) or name in dir(builtins) for name in names), sorted(names)


# --- drawn by display width ------------------------------------------------------------------------


def test_display_width():
    assert display_width("उन्नीस") == 5 and display_width("一二") == 4 and display_width("SEND") == 4  # ् takes none
    assert shown("्") == "◌्" and display_width(shown("्")) == 1


def test_the_worksheet_boxes_every_symbol(tmp_path):
    out = tmp_path / "sheet.html"
    assert main(["worksheet", HINDI, "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('<span class="letter">न्</span>') >= 1 and "◌" not in page  # a box per letter, marks and all


def test_play_draws_columns_by_display_width():
    from smtcrypt.teach.play.drawing import position_layout

    problem = check(parse("一二 + 三 = 二一"))
    lines = position_layout(problem, {"一": 1}).text().splitlines()
    assert len({display_width(line) for line in lines if line.strip("-")}) == 1  # right edges aligned
    hindi = position_layout(check(parse(HINDI)), {"न": 4}).text().splitlines()
    assert len({display_width(line) for line in hindi}) == 1 and "न्" in hindi[-1] and "◌" not in "".join(hindi)


# --- single-letter words -----------------------------------------------------------------------------


@pytest.mark.parametrize("formula", ["A // B = C", "A * B = CD", "AB + C = DE", "A + B = C + D"])
def test_single_letters_nonzero_against_brute_force(formula):
    singles = {w.letters for w in words(parse(formula)) if len(w.letters) == 1}
    expected = {solution for solution in brute_force(formula)
                if all(value for letter, value in solution if letter in singles)}
    puzzle = Puzzle(formula, nonzero_single_letters=True)
    assert {tuple(s.mapping.items()) for s in puzzle.solve()} == expected


def test_single_letters_rule_counts_as_cryptator_does():
    assert Puzzle("A // B = C").count() == 61 and Puzzle("A // B = C", nonzero_single_letters=True).count() == 25


def test_single_letters_rule_on_the_command_line_and_the_web(capsys):
    assert main(["--count", "--nonzero-single-letters", "A // B = C"]) == 0
    assert capsys.readouterr().out.strip() == "25"
    with pytest.raises(SystemExit) as stop:
        main(["--nonzero-single-letters", "--allow-leading-zeros", "A // B = C"])
    assert stop.value.code == 2
    with pytest.raises(FormulaError, match="contradict"):
        Puzzle("A = B", nonzero_single_letters=True, allow_leading_zeros=True)
    query = read_query([("formula", "A // B = C"), ("nonzero_single_letters", "1")], max_timeout=10)
    assert Puzzle(query.formula, **query.rules).count() == 25


# --- bases above 36 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("formula, base", [("A + A = BC", 50), ("AB = B * C", 40), ("A + B = C", 64)])
def test_bases_above_36_against_brute_force(formula, base):
    puzzle = Puzzle(formula, base=base)
    assert {tuple(s.mapping.items()) for s in puzzle.solve()} == brute_force(formula, base=base)


def test_digits_above_35_are_written_in_brackets(capsys):
    (solution,) = Puzzle("A + B = C", base=64, assign={"A": 40, "B": 23}).solve()
    assert solution.text == "[40] + n = [63]" and str(solution).endswith("A=[40] B=n C=[63]")
    assert solution.long_hand() == solution.text  # no columns: a digit may take several characters
    assert main(["--json", "--base", "64", "--assign", "A=40", "--assign", "B=23", "A + B = C"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solutions"][0]["mapping"] == {"A": 40, "B": 23, "C": 63} and data["solutions"][0]["text"] == (
        "[40] + n = [63]")
    with pytest.raises(FormulaError, match="from 2 to 64"):
        Puzzle("A = B", base=65)


def test_the_exact_recheck_keeps_letters_of_every_script_distinct():
    from smtcrypt.core.verify import satisfies

    for first, second in [("Д", "А"), ("न", "नि"), ("Α", "Β"), ("É", "Ř"), ("R", "R\u0306"), ("一", "二")]:
        formula, same, differ = f"{first} + {second} = 2", {first: 1, second: 1}, {first: 0, second: 2}
        problem = check(parse(formula))
        assert not satisfies(problem, same) and satisfies(problem, differ), formula
