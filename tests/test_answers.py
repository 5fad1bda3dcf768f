"""The answer to a puzzle (`--answer`, `Puzzle.answers`): each value with its count, and uniqueness
proved without listing every solution, against brute forces written here."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

import smtcrypt
from smtcrypt import FormulaError, Puzzle
from smtcrypt.cli import main
from smtcrypt.present.answers import value_json, value_text


def brute_reverse_difference() -> list[dict[str, int]]:
    """Every solution of ABCD - DCBA = EFGH, distinct letters, no leading zeros."""
    found = []
    for a, b, c, d, e, f, g, h in itertools.permutations(range(10), 8):
        if a and d and e and 1000 * a + 100 * b + 10 * c + d - (1000 * d + 100 * c + 10 * b + a) == \
                1000 * e + 100 * f + 10 * g + h:
            found.append({"A": a, "B": b, "C": c, "D": d, "E": e, "F": f, "G": g, "H": h})
    return found


def brute_two_squared() -> list[dict[str, int]]:
    found = []
    for t, w, o in itertools.permutations(range(10), 3):
        if not t:
            continue
        square = str((100 * t + 10 * w + o) ** 2)
        letters = dict(zip("TWO", (t, w, o)))
        if len(square) == 6 and all(letters.setdefault(ch, int(d)) == int(d) for ch, d in zip("SQUARE", square)) \
                and len(set(letters.values())) == len(letters) and letters["S"]:
            found.append(letters)
    return found


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the examples -------------------------------------------------------------------------------------

def test_reverse_difference_answer_is_unique_over_all_its_solutions(capsys):
    solutions = brute_reverse_difference()
    tally = Counter((s["E"] * 1000 + s["F"] * 100 + s["G"] * 10 + s["H"]) % 9 for s in solutions)
    assert tally == {0: len(solutions)} and len(solutions) > 1
    result = Puzzle("ABCD - DCBA = EFGH").answers("EFGH % 9")
    assert result.status == "unique" and result.value == 0 and result.complete
    assert [(a.value, a.count) for a in result.values] == [(0, len(solutions))]
    code, out, _ = run(capsys, "ABCD - DCBA = EFGH", "--answer", "EFGH % 9")
    assert code == 0 and out.splitlines()[0] == f"0  ({len(solutions)} solutions)"
    assert out.splitlines()[1].startswith("answer EFGH % 9: unique")
    code, out, _ = run(capsys, "ABCD - DCBA = EFGH", "--answer", "EFGH % 9", "--json")
    data = json.loads(out)
    assert code == 0 and data["answers"] == [{"value": 0, "count": len(solutions)}]
    assert data["answer_status"] == "unique" and data["count"] == len(solutions)


def test_reverse_difference_answer_proved_unique_without_listing(capsys):
    decided = Puzzle("ABCD - DCBA = EFGH").answers("EFGH % 9", unique=True)
    assert decided.status == "unique" and decided.value == 0 and decided.proof
    assert decided.values[0].count is None and len(decided.solutions) == 1
    by_z3 = Puzzle("ABCD - DCBA = EFGH").answers("EFGH % 9", unique=True, strategy="z3")
    assert by_z3.status == "unique" and by_z3.proof == "unsat"
    code, out, _ = run(capsys, "--unique", "ABCD - DCBA = EFGH", "--answer", "EFGH % 9")
    assert code == 0 and out.splitlines()[0] == "0" and "unique, proved by" in out
    code, out, _ = run(capsys, "--unique", "--json", "ABCD - DCBA = EFGH", "--answer", "EFGH % 9")
    data = json.loads(out)
    assert code == 0 and data["answer_status"] == "unique" and data["answers"] == [{"value": 0, "count": None}]
    assert data["answer_proof"] and len(data["solutions"]) == 1


def test_two_squared_answer_has_three_values(capsys):
    solutions = brute_two_squared()
    tally = Counter(s["S"] + s["Q"] for s in solutions)
    assert sorted(tally) == [5, 9, 11] and sum(tally.values()) == 3
    result = Puzzle("TWO * TWO = SQUARE").answers("S + Q")
    assert result.status == "multiple" and [(a.value, a.count) for a in result.values] == sorted(tally.items())
    code, out, _ = run(capsys, "TWO * TWO = SQUARE", "--answer", "S + Q")
    assert code == 0 and out.splitlines()[:3] == ["5  (1 solution)", "9  (1 solution)", "11  (1 solution)"]
    code, out, _ = run(capsys, "TWO * TWO = SQUARE", "--answer", "S + Q", "--json")
    assert json.loads(out)["answers"] == [{"value": v, "count": 1} for v in (5, 9, 11)]
    code, out, _ = run(capsys, "--unique", "TWO * TWO = SQUARE", "--answer", "S + Q", "--json")
    data = json.loads(out)
    assert code == 1 and data["answer_status"] == "multiple" and len(data["answers"]) == 2
    assert {a["value"] for a in data["answers"]} <= {5, 9, 11} and all(a["count"] is None for a in data["answers"])
    assert len(data["solutions"]) == 2


# --- values: tuples, fractions, undefined -------------------------------------------------------------

def test_tuples_and_fractions(capsys):
    solutions = brute_two_squared()
    result = Puzzle("TWO * TWO = SQUARE").answers("(S, QU)")
    assert [a.value for a in result.values] == sorted((s["S"], 10 * s["Q"] + s["U"]) for s in solutions)
    code, out, _ = run(capsys, "TWO * TWO = SQUARE", "--answer", "S / Q, T", "--json")
    values = [a["value"] for a in json.loads(out)["answers"]]
    wanted = sorted((Fraction(s["S"], s["Q"]), s["T"]) for s in solutions)
    assert values == [[f"{f.numerator}/{f.denominator}" if f.denominator != 1 else f.numerator, t] for f, t in wanted]
    assert value_text((Fraction(3, 2), 5)) == "(3/2, 5)" and value_json(Fraction(3, 2)) == "3/2"
    assert value_text(None) == "undefined" and value_json(None) is None


def test_an_answer_that_may_be_undefined_is_decided_by_listing():
    """A / (B - 1) is undefined where B is 1: uniqueness is then decided over the full list."""
    puzzle = Puzzle("A + B = C", distinct=True)
    brute = Counter()
    for a, b, c in itertools.permutations(range(10), 3):
        if a + b == c:
            brute[None if b == 1 else Fraction(a, b - 1)] += 1
    result = puzzle.answers("A / (B - 1)", unique=True)
    assert result.status == "multiple" and result.complete
    assert {a.value: a.count for a in result.values} == dict(brute)
    assert result.values[-1].value is None  # undefined last


def test_answer_unique_when_solutions_are_not():
    """Several solutions, one answer: proved by a single search for another answer."""
    puzzle = Puzzle("AB + BA = CC")
    assert puzzle.count() > 1
    for unique in (False, True):
        result = puzzle.answers("C % 1", unique=unique)
        assert result.status == "unique" and result.value == 0


@pytest.mark.parametrize("formula", ["A + B = 9 and A > B and A * B < 9", "A + B = 9 and A < B and A * B < 9"])
@pytest.mark.parametrize("answer", ["AB", "BA"])
def test_an_answers_words_lend_the_puzzle_no_rule(formula, answer):
    """The search for another answer adds the answer's nodes to the formula: its words must not forbid a
    leading 0 the puzzle allows (BA = 09 when B = 0): two values, never "unique" (09 and 18 here)."""
    puzzle = Puzzle(formula)
    values = {int("".join(str(solution.mapping[letter]) for letter in answer)) for solution in puzzle.solve()}
    assert len(values) == 2
    for unique in (False, True):
        assert puzzle.answers(answer, unique=unique).status == "multiple"


def test_answer_none_and_unknown():
    assert Puzzle("AB + CD = A").answers("A").status == "none"
    assert Puzzle("AB + CD = A").answers("A", unique=True).status == "none"
    slow = Puzzle("NORTH / SOUTH = EAST / WEST")
    for unique in (True, False):  # out of time before any answer: unknown, never none
        result = slow.answers("N", unique=unique, timeout=0.001)
        assert result.status == "unknown" and result.reason == "time limit"
        assert all(answer.count is None for answer in result.values)


# --- errors -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expression, message", [
    ("X + 1", "the letter X does not occur in the puzzle"),
    ("A ? 2", "unexpected"),
    ("A?", "cannot ask for a wildcard"),
    ("{A, B}", "not a set"),
    ("foo(A)", "unknown function"),
    ("y", "is not an integer unknown of the puzzle"),
])
def test_bad_answers_are_positioned_errors(expression, message):
    with pytest.raises(FormulaError) as caught:
        Puzzle("AB + BA = CC").answers(expression)
    assert message in str(caught.value)


def test_bad_answers_on_the_command_line(capsys):
    code, out, err = run(capsys, "AB + BA = CC", "--answer", "X")
    assert code == 2 and "--answer" in err and "line 1, column 1" in err and "^" in err and not out
    with pytest.raises(SystemExit) as caught:
        main(["AB + BA = CC", "--answer", "A", "--count"])
    assert caught.value.code == 2


def test_answers_apply_to_wildcards_and_groups():
    """`?` cells count in the solutions the answer is taken over; --distinct groups apply."""
    result = Puzzle("A? + ?A = 1?1").answers("A")
    brute = Counter()
    for a in range(1, 10):
        for x, y, z in itertools.product(range(10), range(1, 10), range(10)):
            if 10 * a + x + 10 * y + a == 101 + 10 * z:
                brute[a] += 1
    assert {a.value: a.count for a in result.values} == dict(brute)
    grouped = smtcrypt.Puzzle("AB * CD = EEF", distinct=["ABCD"]).answers("E")
    assert sum(a.count for a in grouped.values) == 42


def test_an_answer_longer_than_pythons_integer_text_limit_is_printed() -> None:
    """A value of more than 4,300 digits (Python's limit for `str` of an int) prints whole, in lines and JSON."""
    big = 10 ** 5000 + 7
    assert value_text(big) == "1" + "0" * 4999 + "7"
    assert value_json(big) == "1" + "0" * 4999 + "7" and value_json(7) == 7
    assert value_text(Fraction(big, 3)) == f"{value_text(big)}/3"


def test_an_answers_errors_point_into_the_answer_as_written() -> None:
    puzzle = Puzzle("A + B = C", base=8)
    for answer, column, message in [("A ** 1500", 6, "exponent 1500"), ("A9 + 1", 2, "9 is not a digit in base 8")]:
        with pytest.raises(FormulaError, match=message) as caught:
            puzzle.answers(answer, unique=True)
        assert caught.value.source == answer and caught.value.column == column
