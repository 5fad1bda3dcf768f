"""The solver's answers against known counts and against the independent brute force of
tests/reference.py, and how a model search ends (complete, or unknown under a time limit)."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from reference import brute_force, is_solution

import smtcrypt
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.encode import choose
from smtcrypt.engine import Ending, Proof, SearchEnd
from smtcrypt.engine.z3search import ModelSearch

DATA = Path(__file__).parent / "data"


def known_counts() -> list[tuple[str, int]]:
    rows = []
    for line in (DATA / "known_counts.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        formula, count = line.split("\t")
        rows.append((formula, int(count)))
    return rows


def test_known_counts_file_holds_the_classics():
    rows = dict(known_counts())
    assert rows["SEND + MORE = MONEY"] == 1
    assert rows["NUM + BER = PLAY"] == 96
    assert rows["ODD * ODD = FREAKY"] == 2
    assert len(rows) >= 20
    assert 0 in rows.values()  # some puzzles without a solution


@pytest.mark.parametrize("formula, expected", known_counts())
def test_known_counts(formula, expected):
    assert smtcrypt.count(formula) == expected


# Every operator and construct, and the rule options. Each puzzle has at most 7 letters (5 when
# letters may repeat) and few enough solutions that enumerating them all stays quick.
CROSS_CHECK = [
    ("TWO + TWO = FOUR", {}),
    ("AB - CD = EF", {}),
    ("AB * C = DE", {}),
    ("ABC / DE = F", {}),
    ("AB / CD = 1 / E", {}),
    ("AB // C = D + 5", {}),
    ("AB % C = D and A > C", {}),
    ("AB // C % D = 7", {"distinct": False}),
    ("A**2 + B**2 = C**2", {}),
    ("A**-1 + B**-1 = C**-1", {}),  # negative powers; 0**-1 is undefined
    ("A ** -2 = 1 / BC", {}),
    ("A**B = CD", {}),  # a variable exponent
    ("AB**(1/2) = C", {}),
    ("ABCD**(1/2) = EF", {}),
    ("ABC**(1/3) + D = E", {}),
    ("(A - B)**(1/2) = C", {"distinct": False}),  # no root of a negative number
    ("AB**0.5 + CD**0.5 = E", {}),
    ("-A**2 + BC = D", {}),  # -A**2 is -(A**2)
    ("-(A - B) * C = -DE", {}),
    ("A < B < C < D and A + B + C + D = 12", {}),
    ("AB = A * B + C * D = E * F", {}),
    ("(A or B) * (C and D) = BA", {"distinct": False}),  # value semantics of and/or
    ("(A - B or C) * (D and E) = CD", {}),
    ("not (A < B) and C = A + B or D = 3 * C", {}),
    ("A + B in {C, D + 1, 2 * E} and A * B = DE", {}),
    ("A + B in {C, D * E} and C + D = E", {}),
    ("AB not in range(10, 50) and AB = C * D", {}),
    ("A * B in (C, D, 12) and C < D", {}),
    ("abs(A - B) = C and min(A, B, C) = 1", {}),
    ("max(AB, C) - min(C, D) = 3 * E", {}),
    ("sum(range(A, B)) = CD", {}),
    ("sum(range(AB)) = CDE", {}),
    ("gcd(AB, CD) = E + 10", {}),
    ("A / (B - C) = D", {"distinct": False}),  # a zero divisor is not a solution
    ("A + B = C", {"distinct": False}),
    ("AB * C = DCB", {"distinct": False}),
    ("AB + CD = EF", {"allow_leading_zeros": True}),
    ("AB + BA = CC", {"distinct": False, "allow_leading_zeros": True}),
    ("A / B = 0.(C)", {}),
    ("7A + B = 8C", {}),
    ("NO + NO + TOO = LATE", {}),
]


def test_cross_check_covers_every_operator_and_rule():
    text = " ".join(formula for formula, _ in CROSS_CHECK)
    for construct in ["+", " - ", "*", " / ", "//", "%", "**", "**(1/2)", "**(1/3)", "**0.5", "**-", "-A", "-(",
                      " < ", " and ", " or ", "not ", " in {", " in (", "not in range", "abs(", "min(", "max(",
                      "sum(range(A, B))", "sum(range(AB))", "gcd(", "0.("]:
        assert construct in text, construct
    options = [rules for _, rules in CROSS_CHECK]
    assert {"distinct": False} in options and {"allow_leading_zeros": True} in options


@pytest.mark.parametrize("formula, rules", CROSS_CHECK, ids=[f"{f} {r}" if r else f for f, r in CROSS_CHECK])
def test_solutions_equal_brute_force(formula, rules):
    expected = brute_force(formula, **rules)
    solutions = list(smtcrypt.solve(formula, **rules))
    found = [tuple(sorted(solution.mapping.items())) for solution in solutions]
    assert len(found) == len(set(found)), "a solution was reported twice"
    assert set(found) == expected


def test_brute_force_itself_on_known_answers():
    """The reference is only worth as much as its own answers."""
    assert brute_force("EAT + THAT = APPLE") == {  # 819 + 9219 = 10038
        (("A", 1), ("E", 8), ("H", 2), ("L", 3), ("P", 0), ("T", 9))}
    assert brute_force("X / X = X") == {(("X", 1),)}
    assert brute_force("A + B = C", distinct=False) != brute_force("A + B = C")
    assert (("A", 0), ("B", 1)) in brute_force("AB = 1", allow_leading_zeros=True)
    assert brute_force("AB = 1") == set()


# One assignment each, with the answer the README implies.
EVALUATOR_CASES = [
    ("X / X = X", {"X": 1}, {}, True),
    ("X / X = X", {"X": 0}, {}, False),  # 0 / 0 is undefined
    ("A**N + B**N = C**N and N > 1", {"A": 3, "B": 4, "C": 5, "N": 2}, {}, True),
    ("A**N + B**N = C**N and N > 1", {"A": 3, "B": 4, "C": 7, "N": 1}, {}, False),
    ("AB**0.5 = C", {"A": 4, "B": 9, "C": 7}, {}, True),
    ("AB**0.5 = C", {"A": 5, "B": 0, "C": 7}, {}, False),  # irrational root
    ("(A - B)**(1/2) = C", {"A": 1, "B": 5, "C": 2}, {}, False),  # root of a negative number
    ("A**(3/2) = BC", {"A": 4, "B": 0, "C": 8}, {"allow_leading_zeros": True}, True),
    ("A ** -1 = B / C", {"A": 0, "B": 1, "C": 2}, {}, False),  # 0 to a negative power
    ("A ** -2 = 1 / BC", {"A": 4, "B": 1, "C": 6}, {}, True),
    ("-2**2 = -A", {"A": 4}, {}, True),
    ("-A // B = -C - 1", {"A": 7, "B": 2, "C": 3}, {}, True),  # floor, not truncation
    ("-A % B = C", {"A": 7, "B": 2, "C": 1}, {}, True),  # Python's sign of the divisor
    ("A % -B = -C", {"A": 7, "B": 2, "C": 1}, {}, True),
    ("A / B = 0.(C)", {"A": 1, "B": 3, "C": 3}, {"distinct": False}, True),
    ("(A and B) = C", {"A": 0, "B": 1, "C": 0}, {"distinct": False}, True),  # `and` gives its operand
    ("(A and B) = C", {"A": 3, "B": 5, "C": 5}, {"distinct": False}, True),
    ("(A and B) = C", {"A": 3, "B": 5, "C": 3}, {"distinct": False}, False),
    ("(A or B) = C", {"A": 3, "B": 5, "C": 3}, {"distinct": False}, True),
    ("(A or B / C) = 2", {"A": 2, "B": 1, "C": 0}, {}, True),  # short-circuit: B / C is never evaluated
    ("(A and B / C) = 0", {"A": 0, "B": 1, "C": 2}, {}, True),
    ("(A and B / C) = 0", {"A": 1, "B": 2, "C": 0}, {}, False),
    ("not A > B > C / D", {"A": 1, "B": 2, "C": 3, "D": 0}, {}, True),  # the chain stops before C / D
    ("not A < B < C / D", {"A": 1, "B": 2, "C": 3, "D": 0}, {}, False),  # ... but here reaches it
    ("A + 1 in {B, C}", {"A": 1, "B": 3, "C": 2}, {}, True),
    ("A in {B, C / D}", {"A": 1, "B": 1, "C": 2, "D": 0}, {"distinct": False}, False),  # the literal is built whole
    ("A not in range(B, C)", {"A": 1, "B": 2, "C": 5}, {}, True),
    ("A / 2 in range(B)", {"A": 3, "B": 5}, {}, False),  # 3/2 is not an integer in the range
    ("sum(range(AA)) = BB", {"A": 1, "B": 5}, {}, True),
    ("sum(range(A, B)) = C", {"A": 4, "B": 2, "C": 0}, {}, True),  # an empty range
    ("abs(A - B) = max(C, D) - min(C, D)", {"A": 2, "B": 7, "C": 9, "D": 4}, {}, True),
    ("gcd(AB, CD) = E", {"A": 1, "B": 2, "C": 1, "D": 8, "E": 6}, {"distinct": False}, True),
    ("not A = B", {"A": 0, "B": 0}, {"distinct": False}, False),  # not (A = B)
    ("(not A) = B", {"A": 0, "B": 1}, {}, True),
    ("AB = 12", {"A": 1, "B": 2}, {}, True),
    ("AB = 2", {"A": 0, "B": 2}, {}, False),  # a leading zero
    ("AB = 2", {"A": 0, "B": 2}, {"allow_leading_zeros": True}, True),
    ("A + B = 4", {"A": 2, "B": 2}, {}, False),  # repeated digit
    ("A + B = 4", {"A": 2, "B": 2}, {"distinct": False}, True),
]


@pytest.mark.parametrize("formula, mapping, rules, expected", EVALUATOR_CASES)
def test_reference_evaluator(formula, mapping, rules, expected):
    """The reference is only worth as much as its own semantics (the README's, case by case)."""
    assert is_solution(formula, mapping, **rules) is expected


@pytest.mark.parametrize("formula, mapping, rules, expected", EVALUATOR_CASES)
def test_puzzle_is_solution_agrees(formula, mapping, rules, expected):
    assert smtcrypt.Puzzle(formula, **rules).is_solution(mapping) is expected


def encoded(formula: str, rules: Rules | None = None):
    problem = check(parse(formula), rules or Rules())
    return choose(problem).encode(problem, z3.Context())


@pytest.mark.parametrize("formula", ["ODD * ODD = FREAKY", "TWO + TWO = FOUR", "X / X = X", "AB + AB = AB"])
def test_model_search_ends_complete_after_the_last_model(formula):
    expected = dict(known_counts())[formula]
    search = ModelSearch(encoded(formula))
    assert search.end is None
    models = iter(search)
    for _ in range(expected):
        next(models)
        assert search.end is None  # not over while there may be more
    assert next(models, None) is None
    assert search.end == SearchEnd(Ending.COMPLETE, proof=Proof.UNSAT)
    assert search.end.complete and search.end.reason is None
    assert len(search.models) <= expected


def test_model_search_under_an_expired_deadline_is_incomplete():
    search = ModelSearch(encoded("SEND + MORE = MONEY"), deadline=0.0)  # long past on the monotonic clock
    assert list(search) == []
    assert search.end == SearchEnd(Ending.TIME)
    assert not search.end.complete and search.end.reason == "time limit"


@pytest.mark.parametrize("formula", ["NORTH / SOUTH = EAST / WEST", "ODD * ODD = FREAKY"])
def test_a_tiny_timeout_gives_unknown_never_none_or_unique(formula):
    # a microsecond: in a warm process ODD * ODD = FREAKY may well be decided within a millisecond
    verdict = smtcrypt.verdict(formula, timeout=1e-6)
    assert verdict.status is smtcrypt.Status.UNKNOWN
    assert verdict.complete is False
    assert verdict.reason == "time limit"


def test_a_tiny_timeout_on_count_raises_rather_than_guess():
    with pytest.raises(smtcrypt.IncompleteSearch) as caught:
        smtcrypt.count("NORTH / SOUTH = EAST / WEST", timeout=0.001)
    assert caught.value.reason == "time limit"


@pytest.mark.parametrize("formula, base", [("NUM + BER = PLAY", 10), ("ODD * ODD = FREAKY", 10), ("ZZ + ZY = YXW", 36)])
def test_models_read_back_packed_equal_models_read_one_by_one(formula, base):
    problem = check(parse(formula), Rules(base=base))
    encoded = choose(problem).encode(problem, z3.Context())
    assert encoded.digits_only
    key = lambda model: sorted(model.items())  # noqa: E731
    packed = sorted(ModelSearch(encoded), key=key)
    encoded.digits_only = False  # the same models, found in a context that has seen one search
    assert packed == sorted(ModelSearch(encoded), key=key) and packed


def test_a_sat_answer_from_an_interrupted_check_is_not_reported(monkeypatch):
    import smtcrypt.engine.z3search as solver_module

    problem = check(parse("x * x = y"), Rules())  # the general solver, nonlinear
    search = ModelSearch(choose(problem).encode(problem, z3.Context()))
    made = solver_module.make_solver

    def interrupted_during_check(strategy, context):  # the stop lands while Z3 is checking
        solver = made(strategy, context)
        check_models = solver.check
        solver.check = lambda *assumptions: (search.request_stop(), check_models(*assumptions))[1]
        return solver

    monkeypatch.setattr(solver_module, "make_solver", interrupted_during_check)
    assert list(search) == []  # Z3 may say sat here, with a model that is not a solution
    assert search.end == SearchEnd(Ending.INTERRUPTED)


def test_z3s_reasons_are_read_in_one_place():
    from smtcrypt.engine.z3search import Unknown, unknown_reason

    assert unknown_reason("timeout") is Unknown.TIME
    assert unknown_reason("canceled") is Unknown.CANCELED
    assert unknown_reason("sat.max.conflicts") is Unknown.BUDGET
    assert unknown_reason("(resource limits reached) memory") is Unknown.MEMORY
    assert unknown_reason("incomplete quantifiers") is Unknown.OTHER
