"""Long multiplications whose every printed row is a word: every unique puzzle of a small list,
against a brute force that tries every assignment of digits and reads the rows off the numbers;
each puzzle's layout read back and its formula decided again by the solver."""

from __future__ import annotations

import functools
import itertools
import json

import pytest

import smtcrypt
from smtcrypt.cli import main
from smtcrypt.core.results import Status
from smtcrypt.notations.layout import parse_layout
from smtcrypt.setters.generate import LongMultiplication, LongTotals, long_multiplications
from smtcrypt.setters.generate.multiply import PartialProducts, number, solutions
from smtcrypt.setters.generate.partials import PartialTable

# 202 x 25 = 5050 (S=0, A=2, B=5, E=4, P=1) among words of the same five letters.
WORDS = ["ASA", "AB", "PSPS", "ESE", "BSBS", "ABS", "SAP", "APE", "BASE", "BE", "PEA"]
Key = tuple[str, str, tuple[str, ...], str]  # multiplicand, multiplier, partial products by place, product


def printed(a: int, b: int, spelled: dict[int, str]) -> tuple[tuple[str, ...], str] | None:
    """The partial products (by place) and product of a x b as words, if every row is one."""
    rows = []
    for digit in reversed(str(b)):
        if digit != "0":
            row = spelled.get(a * int(digit))
            if row is None:
                return None
            rows.append(row)
    product = spelled.get(a * b)
    return None if product is None else (tuple(rows), product)


@functools.cache
def brute_force(words: tuple[str, ...]) -> dict[Key, set[tuple[tuple[str, int], ...]]]:
    """Every printed long multiplication (multiplier of 2+ letters) over `words` with the
    assignments of its letters, by trying every assignment of distinct digits to the list's letters."""
    letters = sorted(set("".join(words)))
    found: dict[Key, set[tuple[tuple[str, int], ...]]] = {}
    for digits in itertools.permutations(range(10), len(letters)):
        value = dict(zip(letters, digits))
        numbers = {word: int("".join(str(value[ch]) for ch in word)) for word in words if value[word[0]] != 0}
        spelled = {amount: word for word, amount in numbers.items()}
        multipliers = [(word, amount) for word, amount in numbers.items() if len(word) >= 2]
        for (top, a), (multiplier, b) in itertools.product(numbers.items(), multipliers):
            if a * b not in spelled:  # the product is no word: nothing printed (`printed` would say None)
                continue
            rows = printed(a, b, spelled)
            if rows is None:
                continue
            key = (top, multiplier, *rows)
            used = set(top + multiplier + "".join(rows[0]) + rows[1])
            found.setdefault(key, set()).add(tuple(sorted((ch, value[ch]) for ch in used)))
    return found


def unique_by_brute_force(words: list[str]) -> dict[Key, dict[str, int]]:
    return {key: dict(next(iter(found))) for key, found in brute_force(tuple(words)).items() if len(found) == 1}


def key_of(puzzle: LongMultiplication) -> Key:
    return (puzzle.multiplicand, puzzle.multiplier, puzzle.rows, puzzle.product)


def test_every_unique_puzzle_against_a_brute_force():
    totals = LongTotals()
    found = {key_of(p.puzzle): p.solution.mapping for p in long_multiplications(WORDS, totals=totals)}
    expected = unique_by_brute_force(WORDS)
    assert ("ASA", "AB", ("PSPS", "ESE"), "BSBS") in expected
    assert found == expected
    assert totals.verdicts["unique"] == len(expected) and totals.verdicts["unknown"] == 0


def test_a_zero_multiplier_digit_prints_no_row_against_a_brute_force():
    words = ["PSS", "PA", "ASS", "PASS", "APS", "SAP", "PAS", "PSA", "AS"]  # 100 x 12 and the like: S is 0
    found = {key_of(p.puzzle) for p in long_multiplications(words, confirm=False)}
    expected = set(unique_by_brute_force(words))
    assert found == expected
    assert any(len(rows) < len(multiplier) for _, multiplier, rows, _ in expected)


def test_layout_reads_back_and_formula_proves_unique():
    for generated in long_multiplications(WORDS, confirm=True):
        read_back = smtcrypt.Puzzle.from_layout(generated.layout).verdict()
        assert read_back.status is Status.UNIQUE
        assert read_back.solutions[0].mapping == generated.solution.mapping
        verdict = smtcrypt.verdict(generated.formula)
        assert verdict.status is Status.UNIQUE
        assert verdict.solutions[0].mapping == generated.solution.mapping
        assert parse_layout(generated.layout).formula().replace("\n", " and ") == generated.formula


def test_layout_as_printed():
    puzzle = LongMultiplication("ASA", "CSA", ("ESE", "RSR"), "RSRES", zero="S")
    assert puzzle.layout() == "\n".join([
        "    ASA",
        "  x CSA",
        "  -----",
        "    ESE",
        "  RSR",
        "  -----",
        "  RSRES",
    ])
    assert puzzle.places() == [(0, "ESE"), (2, "RSR")]
    assert "S = 0" in puzzle.formula().split(" and ")


def test_the_table_agrees_with_the_search_per_word():
    pool = ["ASA", "RSR", "ESE", "ERER", "CASE", "RACE", "SEA", "EAR", "CAR"]
    table = PartialTable("ASA", pool)
    for word in pool:
        for letter in "ASCREX":
            by_search: dict[int, list[int]] = {}
            for value in solutions(PartialProducts("ASA", ((letter, word),))):
                by_search.setdefault(number("ASA", value), []).append(value[ord(letter) - 65])
            by_table = table.values(letter, word)
            assert {a: sorted(d) for a, d in by_table.items()} == {a: sorted(d) for a, d in by_search.items()}


def test_cli_json(capsys):
    assert main(["generate", "--shape", "long multiplication", "--json", *WORDS]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shape"] == "long multiplication"
    assert len(data["puzzles"]) == len(unique_by_brute_force(WORDS)) == data["totals"]["unique"]
    for puzzle in data["puzzles"]:
        assert set(puzzle) == {"formula", "layout", "solution"}
        assert smtcrypt.verdict(puzzle["formula"]).status is Status.UNIQUE
        read_back = smtcrypt.Puzzle.from_layout(puzzle["layout"]).verdict()
        assert read_back.status is Status.UNIQUE
        assert read_back.solutions[0].mapping == puzzle["solution"]["mapping"]


def test_cli_text_and_refusals(capsys):
    assert main(["generate", "--shape", "Long  Multiplication", "ASA", "AB", "PSPS", "ESE", "BSBS"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("   ASA\n  x AB\n  ----\n  PSPS\n  ESE\n  ----\n  BSBS\n")
    assert "solution: A=2 B=5 E=4 P=1 S=0" in out
    assert main(["generate", "--shape", "long multiplication", "--base", "16", "ASA", "AC"]) == 2
    assert main(["generate", "--shape", "long multiplication", "--distinct-words", "ASA", "AC"]) == 2
    assert "does not apply" in capsys.readouterr().err


@pytest.mark.parametrize("jobs", [2])
def test_jobs_give_the_same_puzzles(jobs):
    one = [p.formula for p in long_multiplications(WORDS, confirm=False)]
    assert [p.formula for p in long_multiplications(WORDS, confirm=False, jobs=jobs)] == one


@pytest.mark.parametrize(("rows", "letters"), [
    (PartialProducts("AB", (("C", "DB"),), "E"), "ABCDE"),
    (PartialProducts("AB", (("C", "DB"), ("D", "EFB"))), "ABCDEF"),
    (PartialProducts("ABC", (("D", "EBC"),)), "ABCDE"),
    (PartialProducts("A", (("B", "C"), ("C", "DE"))), "ABCDE"),
    (PartialProducts("AB", (("C", "AB"),)), "ABC"),
])
def test_the_rows_search_against_a_brute_force(rows, letters):
    """Several rows, a zero letter, words of one letter: every assignment, as a brute force finds them."""
    def spelled(word: str, digits: dict[str, int]) -> int:
        return int("".join(str(digits[ch]) for ch in word))

    expected = set()
    for digits in itertools.permutations(range(10), len(letters)):
        value = dict(zip(letters, digits))
        words = [rows.multiplicand, *(part for row in rows.rows for part in row)]
        if any(value[word[0]] == 0 for word in words) or (rows.zero is not None and value[rows.zero] != 0):
            continue
        if all(spelled(rows.multiplicand, value) * value[letter] == spelled(word, value) for letter, word in rows.rows):
            expected.add(tuple(value[ch] for ch in letters))
    found = [tuple(value[ord(ch) - 65] for ch in letters) for value in solutions(rows)]
    assert len(found) == len(set(found)) and set(found) == expected
    assert expected
