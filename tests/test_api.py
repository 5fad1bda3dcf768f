"""The Python API as the README documents it: solve, count, verdict, Puzzle, Solution, Verdict,
FormulaError and IncompleteSearch."""

from __future__ import annotations

import inspect

import pytest
from interrupting import stop_once_started
from reference import as_solution, brute_force, is_solution

import smtcrypt
import smtcrypt.search.loop
from smtcrypt import FormulaError, IncompleteSearch, ParameterError, Puzzle, Solution, Status, Verdict

SEND_MAPPING = {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2}
HARD = "gcd(ABCDE, FGHIJ) > 500"  # seconds to enumerate (5,994 solutions): far beyond a tiny time limit


# --- laziness ----------------------------------------------------------------------------------


def test_search_yields_the_first_solution_before_looking_for_the_rest():
    search = Puzzle("NUM + BER = PLAY").search()
    solutions = iter(search)
    first = next(solutions)
    assert len(search.solutions) == 1
    assert search.solutions[0] is first
    assert search.complete is False and search.engine.end is None  # the search is not over
    assert is_solution("NUM + BER = PLAY", first.mapping)


def test_solve_is_lazy(monkeypatch):
    confirmed = []
    real_confirm = smtcrypt.search.loop.confirm
    monkeypatch.setattr(smtcrypt.search.loop, "confirm", lambda problem, assignment: (
        confirmed.append(dict(assignment)), real_confirm(problem, assignment))[1])
    solutions = smtcrypt.solve("NUM + BER = PLAY")
    assert inspect.isgenerator(solutions)
    assert confirmed == []  # nothing is searched before the first solution is asked for
    first = next(solutions)
    assert confirmed == [first.mapping]  # one solution found and checked, not 96
    rest = list(solutions)
    assert len(rest) == 95 and len(confirmed) == 96


def test_solve_limit_stops_early_without_raising():
    solutions = list(smtcrypt.solve("NUM + BER = PLAY", limit=5))
    assert len(solutions) == 5
    assert len({as_solution(s.mapping) for s in solutions}) == 5
    assert all(is_solution("NUM + BER = PLAY", s.mapping) for s in solutions)


def test_a_search_is_iterated_once():
    search = Puzzle("A + B = C").search()
    list(search)
    with pytest.raises(RuntimeError):
        list(search)


# --- Solution --------------------------------------------------------------------------------------


def test_solution_mapping_text_and_str():
    solution = Puzzle("SEND + MORE = MONEY").first()
    assert isinstance(solution, Solution)
    assert solution.mapping == SEND_MAPPING
    assert list(solution.mapping) == sorted(SEND_MAPPING)  # alphabetical
    assert solution.text == "9567 + 1085 = 10652"
    assert solution.base == 10
    assert str(solution) == "9567 + 1085 = 10652  /  D=7 E=5 M=1 N=6 O=0 R=8 S=9 Y=2"


def test_solution_text_keeps_the_rest_of_the_formula():
    (solution,) = smtcrypt.solve("sum(range(AA)) = BB")
    assert solution.text == "sum(range(11)) = 55"
    assert solution.mapping == {"A": 1, "B": 5}


def test_solution_of_integer_unknowns():
    (solution,) = smtcrypt.solve("p + d + q + h = 19, p + 10*d + 25*q + 50*h = 95, p >= 0, d >= 0, q >= 0, h >= 0")
    assert solution.mapping == {"d": 3, "h": 1, "p": 15, "q": 0}
    assert solution.text.startswith("15 + 3 + 0 + 1 = 19, ")


# --- Verdict and Status ---------------------------------------------------------------------------------


def test_status_values():
    assert {status.value for status in Status} == {"unique", "multiple", "none", "unknown", "found", "infinite", "optimal"}
    assert Status("unique") is Status.UNIQUE
    assert Status.NONE == "none"  # a str enum: compares with its value


def test_verdict_unique():
    verdict = smtcrypt.verdict("SEND + MORE = MONEY")
    assert isinstance(verdict, Verdict)
    assert verdict.status is Status.UNIQUE
    assert verdict.count == 1
    assert verdict.complete is True
    assert verdict.reason is None
    assert verdict.solutions[0].mapping == SEND_MAPPING
    assert verdict.formula == "SEND + MORE = MONEY"
    assert verdict.seconds >= 0
    assert verdict.stats.models == 1


def test_verdict_multiple_shows_two_solutions():
    verdict = smtcrypt.verdict("ODD * ODD = FREAKY")
    assert verdict.status is Status.MULTIPLE
    assert verdict.count == 2
    assert {s.text for s in verdict.solutions} == {"799 * 799 = 638401", "677 * 677 = 458329"}
    assert all(is_solution("ODD * ODD = FREAKY", s.mapping) for s in verdict.solutions)


def test_verdict_multiple_stops_after_two():
    verdict = smtcrypt.verdict("NUM + BER = PLAY")  # 96 solutions
    assert verdict.status is Status.MULTIPLE
    assert verdict.count == 2


@pytest.mark.parametrize("formula", ["AB + AB = AB", "A + B = CDE", "X / X = 2", "AB + C = D and A = 0"])
def test_verdict_none(formula):
    assert brute_force(formula) == set()
    verdict = smtcrypt.verdict(formula)
    assert verdict.status is Status.NONE
    assert verdict.count == 0 and verdict.solutions == ()
    assert verdict.complete is True
    assert Puzzle(formula).first() is None
    assert list(smtcrypt.solve(formula)) == []
    assert smtcrypt.count(formula) == 0


def test_verdict_unknown_under_a_tiny_timeout():
    verdict = smtcrypt.verdict(HARD, timeout=0.001)
    assert verdict.status is Status.UNKNOWN
    assert verdict.complete is False
    assert verdict.reason == "time limit"


def test_search_with_a_limit_reports_found():
    verdict = Puzzle("NUM + BER = PLAY").search(limit=3).verdict()
    assert verdict.status is Status.FOUND
    assert verdict.count == 3
    assert verdict.complete is False


def test_solve_all_gives_each_verdict():
    results = list(smtcrypt.solve_all(["SEND + MORE = MONEY", "AB + AB = AB", ["A**N + B**N = C**N", "N > 1"]]))
    assert [formula for formula, _ in results] == ["SEND + MORE = MONEY", "AB + AB = AB",
                                                    "A**N + B**N = C**N\nN > 1"]
    assert [verdict.status for _, verdict in results] == [Status.UNIQUE, Status.NONE, Status.MULTIPLE]


# --- IncompleteSearch ------------------------------------------------------------------------------------


def test_count_raises_incomplete_search_under_a_tiny_timeout():
    with pytest.raises(IncompleteSearch) as caught:
        smtcrypt.count(HARD, timeout=0.001)
    error = caught.value
    assert isinstance(error, RuntimeError)
    assert error.reason == "time limit"
    assert error.found == 0
    assert "unknown" in str(error)


def test_solve_raises_incomplete_search_at_the_end_not_at_the_start():
    solutions = smtcrypt.solve(HARD, timeout=0.001)
    with pytest.raises(IncompleteSearch):
        list(solutions)


def test_first_raises_rather_than_say_none_under_a_tiny_timeout():
    with pytest.raises(IncompleteSearch):
        Puzzle(HARD).first(timeout=0.001)


def test_unbounded_unknowns_stop_as_incomplete(monkeypatch):
    monkeypatch.setattr("smtcrypt.engine.z3search.UNBOUNDED_MODEL_CAP", 40)
    with pytest.raises(IncompleteSearch) as caught:
        smtcrypt.count("x * x = y")  # no proof of infinitely many for this one
    assert "infinitely many" in caught.value.reason
    assert caught.value.found == 40


# --- FormulaError -------------------------------------------------------------------------------------------


def test_formula_error_is_a_value_error_with_position():
    with pytest.raises(ValueError) as caught:
        Puzzle("SEND + + = MONEY")
    error = caught.value
    assert isinstance(error, FormulaError)
    assert (error.line, error.column) == (1, 10)
    assert error.snippet == "  SEND + + = MONEY\n           ^"
    assert "line 1, column 10" in str(error)
    assert str(error).endswith(error.snippet)


def test_formula_error_on_a_later_line():
    with pytest.raises(FormulaError) as caught:
        Puzzle(["A + B = C", "D + + = F"])
    assert (caught.value.line, caught.value.column) == (2, 7)
    assert caught.value.snippet.splitlines() == ["  D + + = F", "        ^"]


@pytest.mark.parametrize("formula, column", [
    ("SEND + MORE", 1),  # no comparison
    ("ABCDEFGHIJK = 1", 11),  # eleven distinct letters
    ("A = foo(B)", 5),  # unknown function
    ("A ^ B = C", 3),  # not Python's power
])
def test_formula_errors_point_at_the_fault(formula, column):
    with pytest.raises(FormulaError) as caught:
        smtcrypt.count(formula)
    assert caught.value.line == 1
    assert caught.value.column == column
    assert "^" in caught.value.snippet


def test_bad_rules_are_formula_errors():
    with pytest.raises(FormulaError):
        Puzzle("A + B = C", digits="9-1")
    with pytest.raises(FormulaError):
        Puzzle("A + B = C", base=1)


# --- Puzzle --------------------------------------------------------------------------------------------------


def test_puzzle_letters_formula_and_repr():
    puzzle = Puzzle("SEND + MORE = MONEY")
    assert puzzle.letters == ("S", "E", "N", "D", "M", "O", "R", "Y")
    assert puzzle.formula == "SEND + MORE = MONEY"
    assert repr(puzzle) == "Puzzle('SEND + MORE = MONEY')"


def test_puzzle_first_and_verdict():
    puzzle = Puzzle("SEND + MORE = MONEY")
    assert puzzle.first().mapping == SEND_MAPPING
    assert puzzle.verdict().status is Status.UNIQUE
    assert puzzle.count() == 1  # a Puzzle may be searched again and again


def test_puzzle_is_solution():
    puzzle = Puzzle("SEND + MORE = MONEY")
    assert puzzle.is_solution(SEND_MAPPING)
    assert not puzzle.is_solution({**SEND_MAPPING, "Y": 3})  # wrong sum
    assert not puzzle.is_solution({key: value for key, value in SEND_MAPPING.items() if key != "Y"})  # missing
    zero = Puzzle("AB + CD = EF")
    assert zero.is_solution({"A": 1, "B": 2, "C": 3, "D": 4, "E": 4, "F": 6}) is False  # E and D repeat
    assert zero.is_solution({"A": 1, "B": 2, "C": 3, "D": 5, "E": 4, "F": 7}) is True
    assert Puzzle("AB + C = DE").is_solution({"A": 1, "B": 2, "C": 0, "D": 1, "E": 2}) is False  # A and D repeat
    assert Puzzle("X / X = X").is_solution({"X": 0}) is False  # 0 / 0 is undefined, not a solution


def test_is_solution_respects_leading_zeros():
    mapping = {"A": 0, "B": 1, "C": 2, "D": 3}
    assert Puzzle("AB + C = D").is_solution(mapping) is False
    assert Puzzle("AB + C = D", allow_leading_zeros=True).is_solution(mapping) is True


# --- several constraints, rules ---------------------------------------------------------------------------------


def test_several_constraints_as_a_list():
    solutions = {as_solution(s.mapping) for s in smtcrypt.solve(["A**N + B**N = C**N", "N > 1"])}
    assert solutions == brute_force("A**N + B**N = C**N and N > 1")
    assert len(solutions) == 2


def test_several_constraints_all_hold():
    listed = smtcrypt.count(["AB - CD = EF", "A + C = 9", "B < D"])
    assert listed == len(brute_force("AB - CD = EF and A + C = 9 and B < D"))
    assert smtcrypt.count("AB - CD = EF; A + C = 9; B < D") == listed
    assert smtcrypt.count(["AB - CD = EF", "A + C = 9"]) > listed


@pytest.mark.parametrize("formula, rules", [
    ("A + B = C", {"distinct": False}),
    ("AB + CD = EF", {"allow_leading_zeros": True}),
    ("AB + BA = CC", {"distinct": False, "allow_leading_zeros": True}),
    ("AB * C = DCB", {"distinct": False}),
])
def test_rules_keyword_arguments(formula, rules):
    expected = brute_force(formula, **rules)
    assert expected != brute_force(formula)  # the rule makes a difference here
    assert {as_solution(s.mapping) for s in smtcrypt.solve(formula, **rules)} == expected
    assert smtcrypt.count(formula, **rules) == len(expected)
    assert Puzzle(formula, **rules).rules.distinct is rules.get("distinct", True)


def test_unknown_rule_keyword_is_a_type_error():
    with pytest.raises(TypeError):
        smtcrypt.count("A + B = C", distinkt=False)


def test_readme_api_examples():
    assert smtcrypt.count("NUM + BER = PLAY") == 96
    assert smtcrypt.verdict("XAB * CD = EFGHJ", assign={"X": 7}).solutions[0].text == "715 * 46 = 32890"
    assert smtcrypt.count("ABCDE * 4 = EDCBA", digits="1-9", distinct=False) == 1


# --- how a search ended, as data -------------------------------------------------------------------


def test_verdict_says_how_the_search_ended_as_enums():
    from smtcrypt.engine import Ending, Proof

    proved = smtcrypt.verdict("SEND + MORE = MONEY")
    assert proved.ending is Ending.COMPLETE and isinstance(proved.proof, Proof)
    assert proved.stats.as_dict(proved.proof)["proof"] == proved.proof.value  # the JSON keeps its words
    timed_out = smtcrypt.verdict(HARD, timeout=0.001)
    assert timed_out.ending is Ending.TIME and timed_out.proof is None and timed_out.reason == Ending.TIME.value
    limited = Puzzle("NUM + BER = PLAY").search(limit=3).verdict()
    assert limited.ending is Ending.LIMIT and limited.proof is None
    infinite = Puzzle("x - y = 1").search().verdict()
    assert infinite.status is Status.INFINITE and infinite.ending is Ending.INFINITE


def test_an_interrupted_search_ends_as_interrupted():

    from smtcrypt.engine import Ending

    search = Puzzle(HARD).search()
    stop_once_started(search)
    verdict = search.verdict()
    assert verdict.ending is Ending.INTERRUPTED and verdict.reason == Ending.INTERRUPTED.value


def test_incomplete_search_carries_its_ending():
    from smtcrypt.engine import Ending

    with pytest.raises(IncompleteSearch) as caught:
        smtcrypt.count(HARD, timeout=0.001)
    assert caught.value.ending is Ending.TIME
    with pytest.raises(smtcrypt.InfinitelyMany) as infinite:
        smtcrypt.count("x - y = 1")
    assert infinite.value.ending is Ending.INFINITE


def test_importing_leaves_the_allocator_alone():
    """glibc's mallopt is called before the first search, not when smtcrypt is imported."""
    import subprocess
    import sys

    script = ("import smtcrypt, smtcrypt.engine.z3search as z\n"
              "assert z.retain_freed_memory_once.cache_info().currsize == 0\n"
              "smtcrypt.count('A + B = C')\n"
              "assert z.retain_freed_memory_once.cache_info().currsize == 1\n")
    subprocess.run([sys.executable, "-c", script], check=True)


# --- misuse from Python: an error naming the parameter, never a traceback from deep inside -------------


@pytest.mark.parametrize("call, named", [
    (lambda: list(smtcrypt.solve("SEND + MORE = MONEY", assign={"E": 5.0})), "assign['E']"),
    (lambda: list(smtcrypt.solve("SEND + MORE = MONEY", domains={"E": 5.0})), "domains['E']"),
    (lambda: list(smtcrypt.solve("SEND + MORE = MONEY", assign="E=5")), "assign"),
    (lambda: list(smtcrypt.solve(123)), "formula"),
    (lambda: smtcrypt.count(["A + B = C", 7]), "formula"),
    (lambda: smtcrypt.count("A + B = C", timeout=0), "timeout"),
    (lambda: smtcrypt.count("A + B = C", timeout=-1), "timeout"),
    (lambda: smtcrypt.verdict("A + B = C", timeout=float("nan")), "timeout"),
    (lambda: Puzzle("A + B = C").search(timeout="5"), "timeout"),
    (lambda: Puzzle("A + B = C").explain(timeout=0), "timeout"),
    (lambda: Puzzle("A + B = C").play(timeout=-1), "timeout"),
])
def test_misuse_from_python_names_the_parameter(call, named):
    # before: "'float' object is not iterable", "can only join an iterable"; timeout=0 ran as unknown
    with pytest.raises(smtcrypt.ParameterError) as caught:
        call()
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert message.startswith(named) and "--" not in message  # the keyword, not a command-line flag


def test_a_value_out_of_range_from_python_names_the_keyword_too():
    with pytest.raises(FormulaError, match=r"^assign\['E'\]: 12 is not a digit in base 10"):
        smtcrypt.count("SEND + MORE = MONEY", assign={"E": 12})
    with pytest.raises(FormulaError, match=r"^domains\['E'\]: expected integers"):
        smtcrypt.count("SEND + MORE = MONEY", domains={"E": [1.5]})


def test_positive_timeouts_of_any_real_type_are_taken():
    from fractions import Fraction

    assert smtcrypt.count("NUM + BER = PLAY", timeout=Fraction(5, 2)) == smtcrypt.count("NUM + BER = PLAY", timeout=3)
    assert smtcrypt.count("NUM + BER = PLAY", timeout=None) == 96


def test_a_letter_assigned_twice_is_an_error():
    with pytest.raises(FormulaError, match="--assign S: the letter is assigned twice"):
        smtcrypt.count("SEND + MORE = MONEY", assign=["S=9", "S=8"])
    with pytest.raises(FormulaError, match="--domain S: the letter is given twice"):
        smtcrypt.count("SEND + MORE = MONEY", domains=["S=1-9", "S=8"])


def test_solve_all_reports_each_formulas_error_and_goes_on():
    results = list(smtcrypt.solve_all(["SEND + MORE = MONEY", "SEND + + = MONEY", "AB + AB = AB"]))
    assert [formula for formula, _ in results] == ["SEND + MORE = MONEY", "SEND + + = MONEY", "AB + AB = AB"]
    first, bad, last = (result for _, result in results)
    assert isinstance(first, Verdict) and first.status is Status.UNIQUE
    assert isinstance(bad, FormulaError) and bad.column == 10 and "^" in bad.snippet
    assert isinstance(last, Verdict) and last.status is Status.NONE
    with pytest.raises(ParameterError, match="timeout"):  # wrong for every formula: at once
        next(smtcrypt.solve_all(["SEND + MORE = MONEY"], timeout=0))
    with pytest.raises(ParameterError, match="formula"):  # misuse, not a formula's error
        list(smtcrypt.solve_all(["A = 1", 123]))
