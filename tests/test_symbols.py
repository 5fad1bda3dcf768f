"""A symbol of a puzzle is a grapheme cluster of the composed (NFC) text, in every script: a letter
with its combining marks and joiners is one letter (`R̆`, `न्`, `นึ่`), a mark with no letter is
refused. The clustering rule against a table of cases, each script end to end, and the solutions
checked against brute-force searches that cut words by their own rule (a mark joins the character
before it)."""

from __future__ import annotations

import unicodedata

import pytest
from reference import brute_force, marked
from test_scripts import sum_solutions

import smtcrypt
from smtcrypt import Puzzle
from smtcrypt.cli import main
from smtcrypt.core.check import check
from smtcrypt.core.letters import is_letter, misplaced_mark, shown, spelled, symbol_number, symbols
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import make_rules
from smtcrypt.core.tree import words
from smtcrypt.errors import FormulaError, FormulaSyntaxError

HINDI = "उनतालीस + उनसठ = हिन्दुस्तान"  # 39 + 59 = India, unique: 94256 + 9468 = 103724
THAI = "สิบสอง + ยี่สิบสอง = สามสิบสี่"  # 12 + 22 = 34, unique: 54273 + 154273 = 208546
TAMIL = "ஒன்று + ஒன்று = இரண்டு"  # 1 + 1 = 2
KOREAN = "하나 + 둘 = 셋넷"
GREEK = "ΈΝΑ + ΈΝΑ = ΔΎΟ"  # 1 + 1 = 2, with tonos


def cells(word: str) -> list[str]:
    """The brute force's own reading of a word: a combining mark is one letter with the character before it."""
    return [cell for _, cell in marked(word)]


def sum_by_columns(formula: str) -> list[dict[str, int]]:
    """Every solution of a sum `A + B + ... = R`, by the column search of tests/test_scripts.py, with the words
    cut by `cells`."""
    left, total = formula.split(" = ")
    return sum_solutions([cells(word) for word in left.split(" + ")], cells(total))


def mappings(formula: str) -> list[dict[str, int]]:
    return sorted((solution.mapping for solution in Puzzle(formula).solve()), key=lambda m: sorted(m.items()))


# --- the clustering rule ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("SEND", ["S", "E", "N", "D"]),
    ("TR\u0306I", ["T", "R\u0306", "I"]),  # a breve NFC has no composed R for
    ("R\u0306\u0303X", ["R\u0306\u0303", "X"]),  # two marks on one letter
    ("Д\u0483А", ["Д\u0483", "А"]),  # a Cyrillic titlo
    ("उन्नीस", ["उ", "न\u094d", "न\u0940", "स"]),  # a virama (Mn), a vowel sign (Mc): each on its consonant
    ("हिंदी", ["ह\u093f\u0902", "द\u0940"]),  # a vowel sign and a nasal mark on one consonant
    ("क\u094d\u200dष", ["क\u094d\u200d", "ष"]),  # a ZERO WIDTH JOINER stays with the symbol it follows
    ("ی\u200cخ", ["ی\u200c", "خ"]),  # as does a NON-JOINER (Persian)
    ("หนึ่ง", ["ห", "น\u0e36\u0e48", "ง"]),  # Thai: a vowel above and a tone mark
    ("เจ็ด", ["เ", "จ\u0e47", "ด"]),  # a vowel written before its consonant is a letter (Lo)
    ("น้ำ", ["น\u0e49\u0e33"]),  # SARA AM, a letter (Lo) that joins as a spacing mark
    ("ஒன்று", ["ஒ", "ன\u0bcd", "ற\u0bc1"]),  # Tamil
    ("\u1112\u1161\u11ab", ["\u1112\u1161\u11ab"]),  # Hangul jamo L V T: one syllable (NFC would make it 한)
    ("\u1112\u119e\u11ab", ["\u1112\u119e\u11ab"]),  # an old syllable NFC has no composed form for
    ("\uac01\u1161", ["\uac01", "\u1161"]),  # a syllable with a final consonant takes no further vowel
    ("\u03aa\u0301", ["\u03aa\u0301"]),  # Greek capital iota with dialytika, and a tonos
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467", ["\U0001f468\u200d\U0001f469\u200d\U0001f467"]),  # emoji ZWJ
    ("\U0001f44d\U0001f3fd", ["\U0001f44d\U0001f3fd"]),  # a skin tone
    ("\U0001f1eb\U0001f1f7\U0001f1e9\U0001f1ea", ["\U0001f1eb\U0001f1f7", "\U0001f1e9\U0001f1ea"]),  # two flags
    ("\u0301A", ["\u0301", "A"]),  # a mark with nothing before it is a symbol alone
    ("A\n\u0301", ["A", "\n", "\u0301"]),  # no symbol runs across a line's end
    ("7\u0301 \u0301", ["7\u0301", " \u0301"]),  # on a digit, on a space: joined (and refused by the parser)
])
def test_symbols_are_grapheme_clusters(text, expected):
    assert list(symbols(text)) == expected and "".join(symbols(text)) == text
    assert list(spelled(text)) == expected and len(spelled(text)) == len(expected) and spelled(text) == text


@pytest.mark.parametrize(("symbol", "letter"), [
    ("A", True), ("R\u0306", True), ("न", True), ("न\u094d", True), ("न\u0940", True), ("ก\u0e34", True),
    ("\u1112\u119e\u11ab", True), ("क\u094d\u200d", True),
    ("\u094d", False), ("\u0301", False),  # a mark alone
    ("न\u094dन", False),  # two symbols
    ("x\u0303", False), ("7\u0301", False),  # a name's letter, a digit
    ("A\U0001f3fd", False), ("\U0001f468\u200d\U0001f469", False),  # a skin tone, an emoji
])
def test_a_letter_is_one_symbol_on_a_letter(symbol, letter):
    assert is_letter(symbol) is letter


def test_symbol_numbers_are_distinct_and_a_mark_alone_is_drawn_on_a_circle():
    named = ["A", "न", "न\u094d", "न\u0940", "R\u0306", "R\u0306\u0303", "\u0301"]
    assert len({symbol_number(symbol) for symbol in named}) == len(named)
    assert symbol_number("न\u094d") == symbol_number("न\u094d") and symbol_number("A") == ord("A")
    assert shown("\u094d") == "\u25cc\u094d" and shown("न\u094d") == "न\u094d" and shown("R\u0306") == "R\u0306"


@pytest.mark.parametrize(("text", "position", "words_in_message"), [
    ("A + \u0301B = CD", 4, ["no letter before it", "U+0301", "combining acute accent"]),
    ("\u093fन = 1", 0, ["no letter before it", "devanagari vowel sign i"]),
    ("नौ + \u093f = 1", 5, ["no letter before it"]),
    ("A7\u0301 = 12", 2, ["on the digit '7'", "marks go on letters"]),
    ("A?\u0301 = 12", 2, ["on the wildcard '?'"]),
    ("(A)\u0301 = 1", 3, ["no letter before it"]),
    ("A = B\n\u0301C", 6, ["no letter before it"]),
    ("A + \u200dB = 1", 4, ["zero width joiner"]),
])
def test_a_mark_without_a_letter_is_refused_where_it_stands(text, position, words_in_message):
    found = misplaced_mark(text)
    assert found is not None and found[0] == position
    with pytest.raises(FormulaSyntaxError) as caught:
        parse(text)
    assert caught.value.position == position
    assert all(word in caught.value.message for word in words_in_message), caught.value.message


def test_marks_on_letters_are_not_misplaced():
    for text in (HINDI, THAI, TAMIL, GREEK, "TR\u0306I", "x\u0303 + A = 3", "क\u094d\u200dष = 1"):
        assert misplaced_mark(unicodedata.normalize("NFC", text)) is None, text


def test_the_command_line_refuses_a_lone_mark_with_a_caret(capsys):
    assert main(["\u093f + A = BC"]) == 2
    err = capsys.readouterr().err
    assert "no letter before it" in err and "U+093F" in err and "Traceback" not in err
    assert err.splitlines()[-1] == "  ^"  # under the mark, the first character of the formula
    assert main(["--count", "AB + C\u0301 = 1\u0301"]) == 2  # Ć composes; the mark on 1 stands alone
    err = capsys.readouterr().err
    assert "on the digit '1'" in err and "column 11" in err and err.splitlines()[-1] == " " * 12 + "^"


def test_an_emoji_sequence_is_no_letter(capsys):
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert main([f"{family} + A = BC"]) == 2
    err = capsys.readouterr().err
    assert "'\U0001f468' (man): neither a letter, a digit nor an operator" in err and "Traceback" not in err
    assert main(["--count", f"A{family} = 1"]) == 2
    assert "(man)" in capsys.readouterr().err


# --- each script, end to end --------------------------------------------------------------------------------


def test_devanagari_letters_with_marks():
    assert Puzzle(HINDI).letters == ("उ", "न", "ता", "ली", "स", "ठ", "हि", "न्", "दु", "स्")
    (solution,) = Puzzle(HINDI).solve()
    assert solution.text == "94256 + 9468 = 103724"
    assert [solution.mapping] == sum_by_columns(HINDI)
    assert smtcrypt.count("उन्नीस = 1") == 0 and smtcrypt.count("नौ + नौ = अठारह") == 0  # नौ is one letter
    (word,) = list(words(parse("नौ = 1")))
    assert list(word.letters) == ["नौ"]


@pytest.mark.parametrize("formula", ["तीस + तैंतीस = तिरसठ", "सात + सात = चौदह", TAMIL, "छह + छह = बारह"])
def test_sums_with_marks_match_a_brute_force(formula):
    expected = sorted(sum_by_columns(formula), key=lambda m: sorted(m.items()))
    assert expected and mappings(formula) == expected and smtcrypt.count(formula) == len(expected)


def test_a_product_with_marks_matches_the_reference():
    formula = "दो * पाँच = दस"  # दो पाँ च द स: five letters, the candrabindu on its consonant
    expected = brute_force(formula)
    assert {tuple(solution.mapping.items()) for solution in Puzzle(formula).solve()} == expected
    assert {letter for solution in expected for letter, _ in solution} == {"दो", "पाँ", "च", "द", "स"}


def test_devanagari_typed_decomposed_is_read_composed():
    nukta = "\u095c"  # DEVANAGARI LETTER DDDHA, which NFC writes as ड + nukta
    assert unicodedata.normalize("NFC", nukta) == "\u0921\u093c"
    assert Puzzle(f"{nukta}ा + A = BC").letters == Puzzle("\u0921\u093c\u093e + A = BC").letters
    assert Puzzle(f"{nukta}ा + A = BC").letters[0] == "\u0921\u093c\u093e"


def test_options_name_a_letter_with_its_marks(capsys):
    assert Puzzle(HINDI, assign=["न्=0"]).count() == 1 and Puzzle(HINDI, assign=["न=0"]).count() == 0
    assert Puzzle(HINDI, domains={"ता": "3-9"}).count() == 0
    assert make_rules(distinct="न्ता,उ").groups == ("तान्", "उ")  # sorted by symbol
    assert check(parse(HINDI), make_rules(distinct="न्न")).groups == (("न", "न्"),)  # two letters, not न twice
    assert main(["--count", "--assign", "न्=0", HINDI]) == 0 and capsys.readouterr().out.strip() == "1"
    with pytest.raises(FormulaError, match="not a puzzle letter"):
        make_rules(domains={"\u093e": "1-3"})
    with pytest.raises(FormulaError, match="names a letter twice"):
        make_rules(distinct="न्न्")


def test_thai():
    (solution,) = Puzzle(THAI).solve()
    assert solution.text == "54273 + 154273 = 208546"
    assert {"ส", "สิ", "สี่", "ยี่"} <= set(solution.mapping) and [solution.mapping] == sum_by_columns(THAI)


def test_tamil():
    assert Puzzle(TAMIL).letters == ("ஒ", "ன்", "று", "இ", "ர", "ண்", "டு")
    assert smtcrypt.count(TAMIL) == 35


def test_korean_jamo_and_syllables_are_one_puzzle():
    decomposed = unicodedata.normalize("NFD", KOREAN)
    assert len(decomposed) > len(KOREAN)
    assert Puzzle(decomposed).letters == Puzzle(KOREAN).letters == ("하", "나", "둘", "셋", "넷")
    assert smtcrypt.count(decomposed) == smtcrypt.count(KOREAN) == 144
    old = "\u1112\u119e\u11ab"  # no composed form: three jamo, one symbol
    assert Puzzle(f"{old} + {old} = 둘").letters == (old, "둘")


def test_greek_with_tonos():
    decomposed = unicodedata.normalize("NFD", GREEK)
    assert Puzzle(decomposed).letters == Puzzle(GREEK).letters == ("Έ", "Ν", "Α", "Δ", "Ύ", "Ο")
    assert smtcrypt.count(decomposed) == smtcrypt.count(GREEK) == 64
    iota = "\u03aa\u0301"  # no composed capital: one letter of two code points, apart from Ϊ
    assert Puzzle(f"{iota} + \u03aa = ΑΒ").letters == (iota, "\u03aa", "Α", "Β")
    both = f"Α{iota} + Α\u03aa = ΒΑ"  # Ϊ́ and Ϊ, two letters
    assert mappings(both) == sorted(sum_by_columns(both), key=lambda m: sorted(m.items())) and len(mappings(both)) == 20


def test_latin_with_a_breve_on_the_command_line(capsys):
    assert main(["--count", "TR\u0306I + TR\u0306I = SIX"]) == 0
    assert capsys.readouterr().out.strip() == "15"
    assert smtcrypt.count("TR\u0306I + TR\u0306I = SIX") == smtcrypt.count("TŘI + TŘI = SIX") == 15


def test_hindi_on_the_command_line(capsys):
    assert main(["--unique", HINDI]) == 0
    out = capsys.readouterr().out
    assert out.startswith("94256 + 9468 = 103724  /  उ=9 ठ=8 ता=2 दु=3 न=4 न्=0 ली=5 स=6 स्=7 हि=1") and "◌" not in out


# --- the generator ------------------------------------------------------------------------------------------


def test_doubly_true_words_with_marks_are_read_symbol_by_symbol():
    pytest.importorskip("num2words", reason="doubly-true puzzles need num2words: pip install 'smtcrypt[words]'")
    from smtcrypt.setters.generate import doubly_true
    from smtcrypt.setters.generate.doubly import puzzle_word

    assert list(puzzle_word("หนึ่ง")) == ["ห", "น\u0e36\u0e48", "ง"]
    found = {puzzle.formula: puzzle.solution.mapping for puzzle in doubly_true("th", range(1, 41), range(2, 4))}
    assert THAI in found and any(len(letter) > 1 for mapping in found.values() for letter in mapping)
    for formula, mapping in found.items():
        assert sum_by_columns(formula) == [mapping], formula
