"""The puzzle setter's toolkit: literal digits, fixed letters, digit domains, repeating decimals,
gcd, integer unknowns, bases and statistics, each with answers known independently."""

from __future__ import annotations

import functools
import itertools
import json
from fractions import Fraction

import pytest

import smtcrypt
from smtcrypt import FormulaError, Puzzle, Status
from smtcrypt.cli import main


def texts(verdict):
    return sorted(solution.text for solution in verdict.solutions)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- literal digits inside words ---------------------------------------------------------------

@functools.cache
def brute_7ab():
    """7AB * CD = EFGHJ by trying every permutation of A, B, C, D and reading E, F, G, H, J off the
    product: five digits (E not 0), all different and none of A, B, C, D's (the 7 is no letter)."""
    found = []
    for a, b, c, d in itertools.permutations(range(10), 4):
        product = str((700 + 10 * a + b) * (10 * c + d))
        if c and len(product) == 5 and len(set(product)) == 5 and not set(product) & {str(a), str(b), str(c), str(d)}:
            found.append(f"7{a}{b} * {c}{d} = {product}")
    return sorted(found)


def test_literal_digits_count_matches_brute_force():
    verdict = Puzzle("7AB * CD = EFGHJ").search().verdict()
    assert verdict.complete and verdict.count == 15
    assert texts(verdict) == brute_7ab()


def test_literal_digit_is_not_a_letter_and_takes_no_part_in_distinctness():
    puzzle = Puzzle("A7 + 1 = 78")
    assert puzzle.letters == ("A",)
    assert [s.text for s in puzzle.solve()] == ["77 + 1 = 78"]  # A may equal the literal 7


def test_leading_zero_rule_applies_to_letters_only():
    assert [s.text for s in smtcrypt.solve("0A = 5")] == ["05 = 5"]
    assert smtcrypt.count("A0 = 0") == 0  # a leading letter may not be 0
    assert smtcrypt.count("A0 = 0", allow_leading_zeros=True) == 1


# --- fixed letters -----------------------------------------------------------------------------

def test_assign_gives_the_unique_all_distinct_puzzle():
    verdict = smtcrypt.verdict("XAB * CD = EFGHJ", assign={"X": 7})
    assert verdict.status is Status.UNIQUE
    assert texts(verdict) == ["715 * 46 = 32890"]
    assert verdict.solutions[0].mapping["X"] == 7


def test_assigned_letter_stays_distinct():
    assert smtcrypt.count("A + B = 8", assign={"A": 4}) == 0
    assert smtcrypt.count("A + B = 8", assign={"A": 4}, distinct=False) == 1


def test_cli_assign_unique(capsys):
    code, out, _ = run_cli(capsys, "--unique", "XAB * CD = EFGHJ", "--assign", "X=7")
    assert code == 0 and out.startswith("715 * 46 = 32890")


# --- digit domains -----------------------------------------------------------------------------

def test_digits_palindromic_product():
    verdict = smtcrypt.verdict("ABCDE * 4 = EDCBA", digits="1-9", distinct=False)
    assert verdict.status is Status.UNIQUE and texts(verdict) == ["21978 * 4 = 87912"]


def test_digit_set_and_domain():
    odd = smtcrypt.count("A + B = C", digits="1,3,5,7,9", distinct=False)
    assert odd == 0  # odd + odd is even
    both = sorted(s.text for s in smtcrypt.solve("A + B = C", domains={"A": "1-2", "B": [3]}))
    assert both == ["1 + 3 = 4", "2 + 3 = 5"]
    from_cli_text = smtcrypt.count("A + B = C", domains=["A=1-2", "B=3"])
    assert from_cli_text == 2


def test_verifier_checks_domains_and_assignments():
    puzzle = Puzzle("A + B = C", domains={"A": "1-2"}, assign={"B": 3})
    assert puzzle.is_solution({"A": 1, "B": 3, "C": 4})
    assert not puzzle.is_solution({"A": 5, "B": 3, "C": 8})
    assert not puzzle.is_solution({"A": 1, "B": 2, "C": 3})


@pytest.mark.parametrize("options", [{"digits": "x"}, {"digits": "1-12"}, {"assign": {"Q": 1}},
                                     {"domains": {"A": "5-3"}}, {"assign": {"A": "1-3"}}, {"base": 1}])
def test_bad_options_are_formula_errors(options):
    with pytest.raises(FormulaError):
        Puzzle("A + B = C", **options)


def test_cli_bad_option_exit_2(capsys):
    code, out, err = run_cli(capsys, "A + B = C", "--domain", "Q=1-3")
    assert code == 2 and "Q" in err and "Traceback" not in err


# --- repeating decimals and gcd ----------------------------------------------------------------

def test_repeating_decimal_values():
    assert [s.text for s in smtcrypt.solve("1.2(3) * 30 = AB", distinct=False)] == ["1.2(3) * 30 = 37"]
    assert Fraction(37, 30) == Fraction(12, 10) + Fraction(3, 90)
    assert [s.text for s in smtcrypt.solve("0.(A) = 1/3")] == ["0.(3) = 1/3"]
    assert [s.text for s in smtcrypt.solve("0.A(B) = 1/6")] == ["0.1(6) = 1/6"]


def test_eve_did_talk_has_two_solutions():
    verdict = smtcrypt.Puzzle("EVE / DID = 0.(TALK)").search().verdict()
    assert verdict.complete
    assert texts(verdict) == ["212 / 606 = 0.(3498)", "242 / 303 = 0.(7986)"]


@pytest.mark.parametrize("formula", [["EVE / DID = 0.(TALK)", "gcd(EVE, DID) = 1"],
                                     pytest.param("EVE / DID = 0.(TALK) and gcd(EVE, DID) = 1",
                                                  marks=pytest.mark.slow)])  # 4 s: one form every run
def test_gcd_leaves_one(formula):
    verdict = smtcrypt.verdict(formula)
    assert verdict.status is Status.UNIQUE
    assert verdict.solutions[0].mapping == {"A": 9, "D": 3, "E": 2, "I": 0, "K": 6, "L": 8, "T": 7, "V": 4}


def test_gcd_values():
    assert sorted(s.text for s in smtcrypt.solve("gcd(12, AB) = 6, AB < 40")) == [
        "gcd(12, 18) = 6, 18 < 40", "gcd(12, 30) = 6, 30 < 40"]
    assert smtcrypt.count("gcd(A, 0) = 0", allow_leading_zeros=True) == 1


# --- integer unknowns --------------------------------------------------------------------------

COINS = "p + d + q + h = 19, p + 10*d + 25*q + 50*h = 95, p >= 0, d >= 0, q >= 0, h >= 0"


def test_coin_puzzle_is_unique():
    verdict = smtcrypt.verdict(COINS)
    assert verdict.status is Status.UNIQUE
    assert verdict.solutions[0].mapping == {"d": 3, "h": 1, "p": 15, "q": 0}


def test_unknowns_mix_with_letters_and_may_be_negative():
    solutions = list(smtcrypt.solve("AB + x = 10, x >= -11, AB < 13"))
    assert sorted(s.mapping["x"] for s in solutions) == [-2, 0]  # AB = 11 repeats a letter
    assert any("(-2)" in s.text for s in solutions)


def test_unbounded_family_is_proved_infinite():
    verdict = smtcrypt.Puzzle("x + y = 10").search().verdict()
    assert verdict.status is Status.INFINITE and not verdict.complete
    assert verdict.reason.startswith("infinitely many solutions: x = ") and verdict.count == 10
    with pytest.raises(smtcrypt.IncompleteSearch):
        smtcrypt.count("x + y = 10")


def test_cli_unbounded_without_a_proof_exit_3(capsys, monkeypatch):
    monkeypatch.setattr("smtcrypt.engine.z3search.UNBOUNDED_MODEL_CAP", 20)
    code, out, err = run_cli(capsys, "--count", "x * x = y")
    assert code == 3 and "infinitely many" in err and out.startswith("at least 20; search incomplete (more than 20")


# --- bases -------------------------------------------------------------------------------------

def brute(formula_check, letters, base, leading):
    found = 0
    for digits in itertools.permutations(range(base), len(letters)):
        values = dict(zip(letters, digits))
        if all(values[letter] for letter in leading) and formula_check(values):
            found += 1
    return found


@pytest.mark.parametrize("base", [8, 9])
def test_base_send_more_money_matches_brute_force(base):
    def value(word, v):
        total = 0
        for ch in word:
            total = total * base + v[ch]
        return total

    expected = brute(lambda v: value("SEND", v) + value("MORE", v) == value("MONEY", v), "SENDMORY", base, "SM")
    assert smtcrypt.count("SEND + MORE = MONEY", base=base) == expected


def test_base_16_shows_digits_of_the_base():
    solution = next(smtcrypt.solve("SEND + MORE = MONEY", base=16))
    assert "f" in solution.text or any(v > 9 for v in solution.mapping.values())
    assert all(0 <= v < 16 for v in solution.mapping.values())
    assert Puzzle("SEND + MORE = MONEY", base=16).is_solution(solution.mapping)


def test_base_literal_digits_must_be_below_base():
    with pytest.raises(FormulaError) as caught:
        Puzzle("A2 = 1", base=2)
    assert caught.value.column == 2


def test_base_limits_distinct_letters():
    with pytest.raises(FormulaError):
        Puzzle("ABCDEFGH = 1", base=7)
    assert Puzzle("AB = 7", base=8, distinct=True).count() == 0


def test_base_2():
    assert sorted(s.text for s in smtcrypt.solve("AB + 1 = 3", base=2)) == ["10 + 1 = 3"]  # numbers stay decimal


# --- statistics --------------------------------------------------------------------------------

def test_stats_search_space_and_counters():
    verdict = smtcrypt.verdict("AB + C = DE", strategy="z3")
    stats = verdict.stats
    expected = sum(1 for a, b, c, d, e in itertools.permutations(range(10), 5) if a and d)
    assert stats.search_space == expected and stats.search_space_exact
    assert stats.models == verdict.count
    assert stats.strategy == "z3" and verdict.proof is None  # stopped after two: nothing to prove
    assert any(key.endswith("conflicts") for key in stats.z3) or stats.z3
    assert set(stats.seconds) == {"parse", "check", "compile", "encode", "solve", "verify"}


def test_stats_name_the_strategy_and_the_verdict_the_proof():
    exhaustive = smtcrypt.Puzzle("AB + C = DE").search(strategy="exhaustive").verdict()
    assert exhaustive.stats.strategy == "exhaustive" and exhaustive.proof is smtcrypt.Proof.EXHAUSTIVE
    assert exhaustive.stats.candidates_tried == exhaustive.stats.candidates == 10 * 9 * 8 * 7 * 6
    solver = smtcrypt.Puzzle("SEND + MORE = MONEY").search(strategy="z3").verdict()
    assert solver.stats.strategy == "z3" and solver.proof is smtcrypt.Proof.UNSAT


SEARCHED = ["search_space", "search_space_exact", "strategy", "proof", "models", "solver_checks"]
LAST = ["z3", "seconds"]


@pytest.mark.parametrize("formula, strategy, count, own", [
    ("SEND + MORE = MONEY", "linear", False, ["search_nodes", "sum_kernel"]),
    ("SEND + MORE = MONEY", "z3", False, []),
    ("ODD * ODD = FREAKY", "digits", False, ["digit_search_steps", "digit_search"]),
    ("ODD * ODD = FREAKY", "join", False, ["candidates", "candidates_tried", "join"]),
    ("AB + C = DE", "exhaustive", False, ["candidates", "candidates_tried"]),
    ("ABC < DEF", "cubes", True, ["cubes", "cube_checks"]),
])
def test_the_stats_object_has_the_keys_it_always_had(formula, strategy, count, own):
    from smtcrypt.present.data import to_dict

    verdict = smtcrypt.Puzzle(formula).search(strategy=strategy, keep=not count).verdict()
    data = to_dict(verdict, stats=True)
    assert list(data["stats"]) == SEARCHED + own + LAST
    assert data["stats"]["proof"] == data["proof"] == verdict.proof.value and data["strategy"] == strategy


def test_the_stats_object_lists_each_backends_figures_in_the_order_they_started():
    from smtcrypt.core.statistics import Statistics
    from smtcrypt.search.verdicts import impossible, unfinished

    figures = {"solver_checks": 1, "candidates": 9, "candidates_tried": 3, "cubes": 0, "cube_checks": 0}
    first = Statistics(**figures, started=("cubes", "exhaustive")).as_dict()  # the cubes, then every assignment
    assert list(first)[-6:] == ["cubes", "cube_checks", "candidates", "candidates_tried"] + LAST
    probed = Statistics(**figures, started=("exhaustive", "cubes", "exhaustive")).as_dict()  # one: a probe first
    assert list(probed)[-6:] == ["candidates", "candidates_tried", "cubes", "cube_checks"] + LAST
    # verdicts made without a search: what they know, the strategy and the proof first
    cut = unfinished("A + B = C", smtcrypt.Ending.TIME, 1.0, found=3, strategy="z3").stats
    assert cut is not None and list(cut.as_dict().items()) == [("strategy", "z3"), ("proof", None), ("models", 3)]
    ruled_out = impossible("A + B = C", 0.5)
    assert ruled_out.stats is not None and ruled_out.stats.as_dict(ruled_out.proof) == {
        "strategy": None, "proof": ruled_out.proof.value, "search_space": 0, "search_space_exact": True, "models": 0,
        "seconds": {"read": 0.5}}
    assert list(ruled_out.stats.as_dict()) == ["strategy", "proof", "search_space", "search_space_exact", "models",
                                               "seconds"]


def test_stats_search_space_with_domains_and_unknowns():
    assert smtcrypt.verdict("A + B = C", digits="1-3", distinct=False).stats.search_space == 27
    assert smtcrypt.verdict("A + x = 3").stats.search_space is None
    # domains that are not nested in one another: counted by the sets of digits used
    stats = smtcrypt.verdict("A + B = C", domains={"A": "1-3", "B": "2-5"}, digits="0-5").stats
    expected = sum(1 for a, b, c in itertools.permutations(range(6), 3) if 1 <= a <= 3 and 2 <= b <= 5)
    assert stats.search_space == expected and stats.search_space_exact


def test_cli_stats_json(capsys):
    code, out, _ = run_cli(capsys, "--json", "--stats", "SEND + MORE = MONEY")
    data = json.loads(out)
    assert code == 0 and data["status"] == "unique"
    assert data["stats"]["search_space"] == 1451520 and data["stats"]["models"] == 1
    code, out, _ = run_cli(capsys, "--stats", "SEND + MORE = MONEY")
    assert "search space: 1,451,520 candidate assignments" in out


# --- every example of the toolkit through the command line, as JSON -----------------------------

def brute_add_add_cab_base_16():
    return sorted(f"{a:x}{d:x}{d:x} + {a:x}{d:x}{d:x} = {c:x}{a:x}{b:x}"
                  for a, b, c, d in itertools.permutations(range(16), 4)
                  if a and c and 2 * (256 * a + 17 * d) == 256 * c + 16 * a + b)


@pytest.mark.parametrize("formulas, options, api, status, texts_expected", [
    (["7AB * CD = EFGHJ"], [], {}, "multiple", brute_7ab),
    (["XAB * CD = EFGHJ"], ["--assign", "X=7"], {"assign": {"X": 7}}, "unique", ["715 * 46 = 32890"]),
    (["ABCDE * 4 = EDCBA"], ["--digits", "1-9", "--no-distinct"], {"digits": "1-9", "distinct": False},
     "unique", ["21978 * 4 = 87912"]),
    ([COINS], [], {}, "unique", ["15 + 3 + 0 + 1 = 19, 15 + 10*3 + 25*0 + 50*1 = 95, 15 >= 0, 3 >= 0, 0 >= 0, 1 >= 0"]),
    (["EVE / DID = 0.(TALK)"], [], {}, "multiple", ["212 / 606 = 0.(3498)", "242 / 303 = 0.(7986)"]),
    (["EVE / DID = 0.(TALK)", "gcd(EVE, DID) = 1"], [], {}, "unique", ["242 / 303 = 0.(7986)\ngcd(242, 303) = 1"]),
    (["ADD + ADD = CAB"], ["--base", "16"], {"base": 16}, "multiple", brute_add_add_cab_base_16()),
])
def test_toolkit_examples_through_the_command_line_as_json(capsys, formulas, options, api, status, texts_expected):
    if callable(texts_expected):  # a brute force, run when the test runs rather than when the tests are collected
        texts_expected = texts_expected()
    code, out, err = run_cli(capsys, "--json", *options, *formulas)
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["status"] == status and data["complete"] is True and data["count"] == len(texts_expected)
    assert sorted(s["text"] for s in data["solutions"]) == texts_expected
    puzzle = Puzzle(formulas, **api)
    assert all(puzzle.is_solution(s["mapping"]) for s in data["solutions"])  # the exact re-check, again
