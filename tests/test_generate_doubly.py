"""Doubly-true puzzles (`generate --doubly-true LANG --numbers LO-HI`): the true sums of number
words are enumerated as plain Python does it here, and each candidate's solutions are counted
by trying every assignment of distinct digits (numpy, over all permutations); the generator's
unique puzzles must be exactly those. Words come from num2words, an optional extra: the tests
that need it are skipped, with the reason, where it is not installed."""

from __future__ import annotations

import functools
import itertools
import json
import re
import sys
import unicodedata

import numpy as np
import pytest

from smtcrypt.core.letters import symbols
from smtcrypt.core.parse import parse
from smtcrypt.core.tree import letters
from smtcrypt.setters.generate import Totals, doubly_true
from smtcrypt.setters.generate.doubly import (
    SlotEquation,
    WordsUnavailable,
    number_words,
    puzzle_word,
    value_choices,
)
from smtcrypt.setters.generate.template import parse_template


@pytest.fixture
def num2words():
    return pytest.importorskip("num2words", reason="doubly-true puzzles need num2words: pip install 'smtcrypt[words]'")


def spelled_plainly(number: int, lang: str) -> str:
    """The test's own spelling: num2words's words with the marks dropped (dotless i is I),
    upper-cased, every non-letter dropped."""
    import num2words

    text = unicodedata.normalize("NFKD", num2words.num2words(number, lang=lang).replace("ı", "i"))
    return re.sub(r"[^A-Z]", "", text.encode("ascii", "ignore").decode().upper())


@functools.cache
def digit_rows(letters: int) -> np.ndarray:
    """Every assignment of distinct digits 0-9 to `letters` letters, one row each."""
    rows = np.zeros((1, 0), dtype=np.int8)
    for _ in range(letters):
        rows = np.concatenate([np.column_stack([kept, np.full(len(kept), digit, np.int8)])
                               for digit in range(10) for kept in [rows[(rows != digit).all(axis=1)]]])
    return rows


def word_values(word: str, letters: list[str], rows: np.ndarray) -> np.ndarray:
    """Each row's number for `word`."""
    value = np.zeros(len(rows), dtype=np.int64)
    for place, letter in enumerate(reversed(word)):
        value += rows[:, letters.index(letter)].astype(np.int64) * 10 ** place
    return value


def brute_solutions(formula: str) -> list[dict[str, int]]:
    """The solutions (two at most) of `A + B + ... = R` or `A * B = R`, by trying every assignment
    of distinct digits (no leading zero)."""
    left, result = formula.split(" = ")
    product = " * " in left
    words = left.split(" * " if product else " + ")
    letters = sorted(set("".join([*words, result])))
    if len(letters) > 10:
        return []
    rows = digit_rows(len(letters))
    if product:
        total = np.ones(len(rows), dtype=np.int64)
        for word in words:
            total = total * word_values(word, letters, rows)
        good = total == word_values(result, letters, rows)
    else:
        weight = dict.fromkeys(letters, 0)
        for word, sign in [(word, 1) for word in words] + [(result, -1)]:
            for place, letter in enumerate(reversed(word)):
                weight[letter] += sign * 10 ** place
        total = np.zeros(len(rows), dtype=np.int64)
        for index, letter in enumerate(letters):
            total += rows[:, index].astype(np.int64) * weight[letter]
        good = total == 0
    for word in [*words, result]:
        if len(word) > 1:
            good &= rows[:, letters.index(word[0])] != 0
    return [dict(zip(letters, map(int, row))) for row in rows[good][:2]]


def verdicts(formulas: list[str]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """The brute force's unique puzzles (with their solutions), and how many candidates have no,
    one and several solutions."""
    unique, counts = {}, {"none": 0, "unique": 0, "multiple": 0}
    for formula in formulas:
        left, result = formula.split(" = ")
        longest = max(map(len, left.split(" + ")))
        # A sum of at most ten numbers without leading zeros is at least its largest and less than ten
        # times it: the result has as many digits as the longest addend, or one more. Else: no solution.
        solutions = brute_solutions(formula) if longest <= len(result) <= longest + 1 else []
        counts[("none", "unique", "multiple")[len(solutions)]] += 1
        if len(solutions) == 1:
            unique[formula] = solutions[0]
    return unique, counts


@pytest.mark.slow  # 20 to 25 s; the English sums below check the same every run
def test_turkish_pairs_up_to_31_against_a_brute_force(num2words):
    """--addends 2 over 1-31: every true a + b = c (a < b, all distinct), plainly spelled, decided by
    brute force; the same unique puzzles, and the same count of each verdict (a candidate the
    generator filters has no solution)."""
    spell = functools.partial(spelled_plainly, lang="tr")
    formulas = [f"{spell(a)} + {spell(b)} = {spell(a + b)}"
                for a, b in itertools.combinations(range(1, 32), 2) if a + b <= 31]
    within = [formula for formula in formulas if len(set(formula.replace(" ", "").replace("+", "").replace("=", ""))) <= 10]
    expected, counts = verdicts(within)
    totals = Totals()
    found = {p.formula: p.solution.mapping for p in doubly_true("tr", range(1, 32), range(2, 3), totals=totals)}
    assert found == expected and "ONIKI + ONDOKUZ = OTUZBIR" in found
    assert totals.candidates == len(within)
    assert (totals.verdicts["none"] + totals.filtered, totals.verdicts["unique"], totals.verdicts["multiple"]) == (
        counts["none"], counts["unique"], counts["multiple"])


@pytest.mark.slow  # a brute force of four-word sums; smaller doubly-true cases run every run
def test_english_sums_of_three_and_four_against_a_brute_force(num2words):
    """--addends 3-4 over 1-16: the same count of each verdict as the brute force's."""
    spell = functools.partial(spelled_plainly, lang="en")
    formulas = [" + ".join(map(spell, chosen)) + " = " + spell(sum(chosen))
                for size in (3, 4) for chosen in itertools.combinations(range(1, 17), size) if sum(chosen) <= 16]
    expected, counts = verdicts(formulas)
    totals = Totals()
    found = {p.formula: p.solution.mapping
             for p in doubly_true("en", range(1, 17), range(3, 5), totals=totals, confirm=True)}
    assert found == expected
    assert (totals.verdicts["none"] + totals.filtered + len(formulas) - totals.candidates,
            totals.verdicts["unique"], totals.verdicts["multiple"]) == (counts["none"], counts["unique"], counts["multiple"])


def plain_true_sums(numbers: range, words: dict[int, str], most: int = 10) -> set[tuple[int, ...]]:
    """Every set of 2 or more distinct numbers of the range whose sum is another number of it, all
    the words within `most` letters: (the addends ascending, then the sum)."""
    found = set()
    values = [n for n in numbers if n in words]

    def grow(chosen: tuple[int, ...], start: int) -> None:
        total = sum(chosen)
        if (len(chosen) >= 2 and total in words and total not in chosen
                and len(set("".join(words[n] for n in (*chosen, total)))) <= most):
            found.add((*chosen, total))
        for index in range(start, len(values)):
            if total + values[index] > numbers.stop - 1:
                break
            grow((*chosen, values[index]), index + 1)

    grow((), 0)
    return found


@pytest.mark.parametrize("lang, numbers", [("en", range(1, 41)), ("tr", range(0, 31)), ("ru", range(1, 31))])
def test_the_true_sums_of_any_length_are_all_enumerated(num2words, lang, numbers):
    """The cut by letters and by the range loses no candidate, and keeps no false one."""
    spelled = number_words(lang, numbers)
    found = set()
    for size in range(2, 12):
        template = parse_template(" + ".join("ABCDEFGHIJKL"[:size]) + " = " + "ABCDEFGHIJKL"[size])
        found |= set(value_choices(SlotEquation.of(template), spelled))
    assert found == plain_true_sums(numbers, spelled.words)
    assert len(found) > 20


@pytest.mark.slow  # 5 to 10 s; the English sums check the same search every run
def test_products_of_two_against_a_brute_force(num2words):
    """`--shape "A * B = C"`: the true products a * b = c (a < b, all distinct) of the range are the
    candidates, and the unique puzzles those the brute force finds unique (Russian, 1-100)."""
    spelled = number_words("ru", range(1, 101))
    found = set(value_choices(SlotEquation.of(parse_template("A * B = C")), spelled))
    words = spelled.words
    plain = {(a, b, a * b) for a, b in itertools.combinations(spelled.values, 2)
             if a * b in words and a > 1 and len(set(words[a] + words[b] + words[a * b])) <= 10}
    assert found == plain and len(found) > 10
    expected = {formula for formula in (f"{words[a]} * {words[b]} = {words[c]}" for a, b, c in plain)
                if len(brute_solutions(formula)) == 1}
    totals = Totals()
    assert {p.formula for p in doubly_true("ru", range(1, 101), shape="A * B = C", totals=totals)} == expected
    assert totals.candidates == len(found) and "ДВА * ПЯТЬ = ДЕСЯТЬ" in expected


@pytest.mark.parametrize("lang, numbers, addends, shape, formula", [
    ("ru", range(1, 201), None, "A * B = C", "ДВА * СТО = ДВЕСТИ"),  # 2 * 100 = 200
    ("he", range(1, 107), range(3, 4), None, "שש + ארבעים + שישים = מאהושש"),  # 6 + 40 + 60 = 106
])
def test_puzzles_in_other_scripts_are_proved_unique(num2words, lang, numbers, addends, shape, formula):
    """Cyrillic and Hebrew words are puzzle words as they stand; the brute force agrees."""
    puzzles = {p.formula: p for p in doubly_true(lang, numbers, addends, shape=shape)}
    assert formula in puzzles
    assert brute_solutions(formula) == [puzzles[formula].solution.mapping]


@pytest.mark.parametrize("text, word", [
    ("vingt-et-un", "VINGTETUN"), ("douăzeci și unu", "DOUAZECISIUNU"), ("sześćdziesiąt", "SZESCDZIESIAT"),
    ("altmışdokuz", "ALTMISDOKUZ"), ("dreißig", "DREISSIG"), ("cinquante-deux", "CINQUANTEDEUX"),
    ("dev'yat'", "DEVYAT"), ("шістдесят дев'ять", "ШІСТДЕСЯТДЕВЯТЬ"), ("двадцать один", "ДВАДЦАТЬОДИН"),
    ("їжак й", "ЇЖАКЙ"), ("δέκα", "ΔΕΚΑ"), ("hai mươi mốt", "HAIMUOIMOT"), ("أربعة", "أربعة"),
    ("उन्नीस", "उन्नीस"), ("one, two", "ONETWO"),
])
def test_puzzle_words(text, word):
    assert puzzle_word(text) == word
    assert set(letters(parse(f"{word} = {word}"))) == set(symbols(word))  # the parser reads each symbol as a letter


def test_the_cli(num2words, capsys):
    from smtcrypt.cli import main

    assert main(["generate", "--doubly-true", "tr", "--numbers", "1-31", "--addends", "2"]) == 0
    out = capsys.readouterr()
    assert out.out == "ONIKI + ONDOKUZ = OTUZBIR  /  48757 + 4864513 = 4913270\n"
    assert out.err.startswith("31 words (0 skipped), 129 candidates, 71 filtered; unique 1, multiple 25, none 32")
    assert main(["generate", "--doubly-true", "tr", "--numbers", "1-31", "--addends", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["puzzles"] == [{"formula": "ONIKI + ONDOKUZ = OTUZBIR", "solution": {
        "mapping": {"B": 2, "D": 6, "I": 7, "K": 5, "N": 8, "O": 4, "R": 0, "T": 9, "U": 1, "Z": 3},
        "text": "48757 + 4864513 = 4913270"}}]
    assert data["complete"] is True and data["shapes"] == {"A + B = C": 1}
    assert main(["generate", "--doubly-true", "fr", "--numbers", "1-10"]) == 1  # none unique
    capsys.readouterr()


@pytest.mark.parametrize("argv, message", [
    (["--doubly-true", "xx", "--numbers", "1-10"], "cannot spell numbers in 'xx'; of Cryptagen's languages it spells en"),
    (["--doubly-true", "en"], "--doubly-true needs --numbers"),
    (["--doubly-true", "en", "--numbers", "1-10", "ONE"], "spells its own words"),
    (["--doubly-true", "en", "--numbers", "1-10", "--jobs", "2"], "one process"),
    (["--doubly-true", "en", "--numbers", "10-1"], "a range of numbers"),
    (["--numbers", "1-10", "ONE", "TWO"], "--numbers goes with --doubly-true"),
])
def test_usage_errors(num2words, capsys, argv, message):
    from smtcrypt.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["generate", *argv])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_a_fixed_word_in_the_shape_is_refused(num2words, capsys):
    from smtcrypt.cli import main

    assert main(["generate", "--doubly-true", "en", "--numbers", "1-10", "--shape", "A + B = TEN"]) == 2
    assert "slots only" in capsys.readouterr().err


def test_without_the_library_a_clear_error(monkeypatch, capsys):
    from smtcrypt.cli import main

    monkeypatch.setitem(sys.modules, "num2words", None)  # an import of it now fails
    with pytest.raises(WordsUnavailable, match=r"pip install 'smtcrypt\[words\]'"):
        next(doubly_true("en", range(1, 10)))
    with pytest.raises(SystemExit) as stop:
        main(["generate", "--doubly-true", "en", "--numbers", "1-10"])
    assert stop.value.code == 2 and "pip install 'smtcrypt[words]'" in capsys.readouterr().err
