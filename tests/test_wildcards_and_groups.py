"""Wildcard digits `?` and partial distinctness (`--distinct GROUPS`): counts through the API, the
command line and JSON against brute forces written here, every strategy agreeing, and the rules'
edges (leading zeros, limits, errors)."""

from __future__ import annotations

import itertools
import json

import pytest

import smtcrypt
from smtcrypt import FormulaError, Puzzle
from smtcrypt.analysis.stats import search_space
from smtcrypt.cli import main
from smtcrypt.core.check import check
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import make_rules
from smtcrypt.core.verify import satisfies
from smtcrypt.engine.portfolio import STRATEGIES


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def brute_skeleton() -> list[str]:
    """?? * ?? = 1?0?: two two-digit numbers whose product is 1x0y."""
    return sorted(f"{a} * {b} = {a * b}" for a in range(10, 100) for b in range(10, 100)
                  if 1000 <= a * b < 2000 and a * b // 10 % 10 == 0)


def brute_mixed() -> list[tuple[int, tuple[int, int, int]]]:
    """A? + ?A = 1?1: A and the three wildcards, A and the second `?` leading."""
    return [(a, (x, y, z)) for a in range(1, 10) for x in range(10) for y in range(1, 10) for z in range(10)
            if 10 * a + x + 10 * y + a == 101 + 10 * z]


def brute_grouped() -> list[tuple[int, ...]]:
    """AB * CD = EEF with only A, B, C, D distinct: E and F free."""
    found = []
    for a, b, c, d in itertools.permutations(range(10), 4):
        product = (10 * a + b) * (10 * c + d)
        if a and c and 100 <= product < 1000 and product // 100 == product // 10 % 10:
            found.append((a, b, c, d, product // 100, product % 10))
    return sorted(found)


# --- the examples -------------------------------------------------------------------------------------

def test_skeleton_multiplication(capsys):
    expected = brute_skeleton()
    assert len(expected) == 217
    solutions = list(smtcrypt.solve("?? * ?? = 1?0?"))
    assert sorted(s.text for s in solutions) == expected
    assert all(s.mapping == {} and len(s.wildcards) == 6 for s in solutions)
    first = next(s for s in solutions if s.text == "11 * 91 = 1001")
    assert first.wildcards == (1, 1, 9, 1, 0, 1)  # in order of appearance
    code, out, _ = run(capsys, "--count", "?? * ?? = 1?0?")
    assert code == 0 and out.strip() == "217"
    code, out, _ = run(capsys, "--json", "?? * ?? = 1?0?")
    data = json.loads(out)
    assert data["count"] == 217 and data["status"] == "multiple" and data["complete"]
    for solution in data["solutions"]:  # the text shows the wildcards' digits, literal digits kept
        a, b, product = solution["text"].replace("*", "=").split(" = ")
        assert [int(ch) for ch in a + b + product[1] + product[3]] == solution["wildcards"]


def test_mixed_letters_and_wildcards(capsys):
    expected = brute_mixed()
    assert len(expected) == 52
    found = sorted((s.mapping["A"], s.wildcards) for s in smtcrypt.solve("A? + ?A = 1?1"))
    assert found == sorted(expected)
    code, out, _ = run(capsys, "--json", "A? + ?A = 1?1")
    data = json.loads(out)
    assert data["count"] == 52 and all(set(s["mapping"]) == {"A"} for s in data["solutions"])
    assert all(len(s["wildcards"]) == 3 and "?" not in s["text"] for s in data["solutions"])
    code, out, _ = run(capsys, "--first", "A? + ?A = 1?1")
    assert code == 0 and "/  A=" in out and "?" not in out.splitlines()[0]


def test_distinct_groups_leave_other_letters_free(capsys):
    expected = brute_grouped()
    assert len(expected) == 42 and any(e in (a, b, c, d) for a, b, c, d, e, f in expected)
    found = sorted(tuple(s.mapping[letter] for letter in "ABCDEF")
                   for s in smtcrypt.solve("AB * CD = EEF", distinct=["ABCD"]))
    assert found == expected
    assert smtcrypt.count("AB * CD = EEF", distinct="ABCD") == 42
    code, out, _ = run(capsys, "--count", "AB * CD = EEF", "--distinct", "ABCD")
    assert code == 0 and out.strip() == "42"
    code, out, _ = run(capsys, "--json", "AB * CD = EEF", "--distinct", "ABCD")
    assert json.loads(out)["count"] == 42


@pytest.mark.parametrize("formula, rules, expected", [
    ("A? + ?A = 1?1", {}, 52),
    ("AB * CD = EEF", {"distinct": ["ABCD"]}, 42),
    ("AB? + ?BA = 1?1?", {}, None),
    ("AB + CD = EEF", {"distinct": "AB,CD,EF"}, None),
])
def test_every_strategy_agrees(formula, rules, expected):
    puzzle = Puzzle(formula, **rules)
    results = {}
    for strategy in STRATEGIES:
        try:
            results[strategy] = sorted((tuple(s.mapping.items()), s.wildcards) for s in puzzle.solve(strategy=strategy))
        except StrategyError:
            assert strategy in ("linear", "join", "cubes")
    assert len(set(map(tuple, results.values()))) == 1, {k: len(v) for k, v in results.items()}
    if expected is not None:
        assert len(results["auto"]) == expected
    assert {"z3", "exhaustive", "auto"} <= set(results)


def test_overlapping_groups_against_brute_force():
    found = sorted(tuple(s.mapping.values()) for s in smtcrypt.solve("AB + CD = EEF", distinct="AB,CD,EF"))
    brute = []
    for a, b, c, d, e, f in itertools.product(range(10), repeat=6):
        if a and c and e and a != b and c != d and e != f and 10 * a + b + 10 * c + d == 110 * e + f:
            brute.append((a, b, c, d, e, f))
    assert found == sorted(brute) and brute


# --- the rules' edges ---------------------------------------------------------------------------------

def test_wildcards_take_no_part_in_distinctness_and_lead_like_letters():
    assert [s.text for s in smtcrypt.solve("A? = 11")] == ["11 = 11"]  # the ? may equal A
    assert smtcrypt.count("? + ? = 0") == 1  # a lone ? may be 0
    assert smtcrypt.count("?1 = 1") == 0  # a ? leading a word of two is not 0
    assert smtcrypt.count("?1 = 1", allow_leading_zeros=True) == 1
    assert smtcrypt.count("??? = 5?5", digits="1-5") == 5  # --digits holds for wildcards too


def test_letter_limit_is_per_group():
    eleven = "ABCDE + FGHIJ = KABCD"
    with pytest.raises(FormulaError, match="11 distinct letters"):
        Puzzle(eleven)
    Puzzle(eleven, distinct=["ABCDEFGHIJ"])  # K is in no group: allowed
    with pytest.raises(FormulaError, match="11 distinct letters"):
        Puzzle(eleven, distinct=["ABCDEFGHIJK"])
    assert Puzzle("??????????? = ???????????").letters  # eleven wildcards need no distinct digits


@pytest.mark.parametrize("groups, message", [
    (["AX"], "the letter X does not occur"),
    (["Ab"], "expected groups of puzzle letters"),
    (["AA"], "names a letter twice"),
    ("A,,B", "expected groups of puzzle letters"),
])
def test_bad_groups(groups, message):
    with pytest.raises(FormulaError, match=message):
        Puzzle("AB + BA = CC", distinct=groups)


def test_bad_groups_on_the_command_line(capsys):
    code, _, err = run(capsys, "AB + BA = CC", "--distinct", "AX")
    assert code == 2 and "the letter X does not occur" in err
    with pytest.raises(SystemExit) as caught:
        main(["AB + BA = CC", "--distinct", "AB", "--no-distinct"])
    assert caught.value.code == 2


def test_the_exact_recheck_reads_the_groups():
    problem = check(parse("AB + CD = EEF"), make_rules(distinct=["ABCD"]))
    assert satisfies(problem, {"A": 1, "B": 3, "C": 9, "D": 8, "E": 1, "F": 1})  # 13 + 98 = 111: E and F equal A, free
    assert not satisfies(problem, {"A": 5, "B": 5, "C": 6, "D": 1, "E": 1, "F": 6})  # 55 + 61 = 116: A and B share a digit
    assert problem.groups == (("A", "B", "C", "D"),) and problem.distinctness == "some"
    wild = check(parse("A? + ?B = 1?"), make_rules())
    assert wild.groups == (("A", "B"),) and len(wild.wildcards) == 3


def test_search_space_counts_groups():
    problem = check(parse("AB * CD = EEF"), make_rules(distinct=["ABCD"]))
    assert search_space(problem) == (9 * 8 * 8 * 7 * 9 * 10, True)  # A, C lead; E leads, F free
    overlapping = check(parse("AB + CD = EEF"), make_rules(distinct="AB,BC"))
    assert search_space(overlapping)[1] is False


def test_hidden_names_cannot_be_typed():
    with pytest.raises(FormulaError, match="private-use"):
        Puzzle("A\ue000 + 1 = 12")
    assert Puzzle("AÀ + 1 = 1À").letters == ("A", "À")  # a letter of its own, not a hidden name
