"""The engine: its backends (exhaustive, linear, cubes, Z3) agree with each other and with the
independent reference, the compiled evaluator agrees with the exact re-check on every candidate,
no text of a formula reaches the compiled code, and the portfolio switches without losing or
repeating a solution."""

from __future__ import annotations

import importlib.util
import io
import itertools
import keyword
import random
import threading
import time
import tokenize
from pathlib import Path

import pytest
import z3
from hypothesis import given, settings
from interrupting import stop_once_started
from reference import brute_force
from test_properties import cases

import smtcrypt
from smtcrypt.analysis.linear import combined, integer_equation
from smtcrypt.core.check import check
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import make_rules
from smtcrypt.core.verify import satisfies
from smtcrypt.encode.general import formula_terms
from smtcrypt.engine import Ending, Proof, Statistics, prices
from smtcrypt.engine.compiled import compile_problem
from smtcrypt.engine.compiled_runtime import HELPERS
from smtcrypt.engine.compiled_writer import NotCompilable
from smtcrypt.engine.cubes import CubeSearch
from smtcrypt.engine.exhaustive import ExhaustiveSearch, candidates
from smtcrypt.engine.join import SIDE_HELPERS, JoinSearch, best_plan
from smtcrypt.engine.portfolio import Portfolio
from smtcrypt.engine.z3search import watchdog

STRATEGIES = ("z3", "linear", "join", "cubes", "exhaustive", "auto")

# formula, rules, solutions (counted by the reference). Few enough assignments for the reference
# (the general puzzles in full, and under every strategy, are in test_strategies.py).
CORPUS = [
    ("AB / C > DE", {"assign": {"A": 9}}, None),
    ("max(A, B) - min(C, D) = E + F", {"assign": {"A": 9, "B": 3}}, None),
    ("AB % C + D = E", {"assign": {"A": 5}}, None),
    ("(A + B) * (C + D) = EF", {"assign": {"E": 2}}, None),
    ("gcd(AB, CD) = E", {"assign": {"A": 6, "C": 9}}, None),
    ("ABC < DEF", {"assign": {"A": 4, "D": 5}}, None),
    ("NUM + BER = PLAY", {"assign": {"P": 1, "N": 9, "B": 8}}, None),
    ("SEND + MORE = MONEY", {"assign": {"S": 9, "M": 1}}, 1),
    ("TWO + TWENTY = TWELVE + TEN", {"digits": range(9), "assign": {"T": 8, "W": 0}}, None),
    ("ODD * ODD = FREAKY", {"assign": {"O": 2}}, None),
    ("A / B != C and not A < B", {}, None),
    ("AB - BA in {9, 18, 27} or A = 1", {}, None),
    ("A ** B = CD", {"allow_leading_zeros": True}, None),
    ("EVE / DID = 0.(TALK)", {"assign": {"E": 2, "D": 3}}, None),
    ("ADD + ADD = CAB", {"base": 16}, None),
    ("A + B + C = 12", {"distinct": False, "digits": range(1, 7)}, None),
    ("AB + CD = 100 - EF", {"domains": {"A": range(1, 4)}}, None),
    ("MON-EY = EVIL**(1/2)", {"assign": {"E": 3, "V": 5}}, None),
    ("A in range(B, C) and C - B < 4", {}, None),
    # letters without a weight in the sum (A cancels out) or outside it (F, G): tried beside each solution
    ("AB - A0 + C = D, E > 5", {}, None),
    ("AB + C = DE, F + G = 7", {}, None),
    ("A + B = C, D > 7", {"distinct": False}, None),
]


def problem_of(formula: str, rules: dict):
    return check(parse(formula), make_rules(**rules))


def reference(formula: str, rules: dict) -> set[tuple]:
    """The independent brute force, under the same rules."""
    return brute_force(formula, **rules)


def accepts(formula: str, rules: dict, strategy: str) -> bool:
    try:
        smtcrypt.Puzzle(formula, **rules).search(strategy=strategy)
    except StrategyError:
        return False
    return True


def without_products(monkeypatch):
    """`auto` with no stage for products (which the digits backend takes and never switches from)."""
    stages = [stage for stage in Portfolio.AUTO if stage is not Portfolio._products]
    monkeypatch.setattr(Portfolio, "AUTO", stages)


@pytest.mark.parametrize("formula, rules, expected", CORPUS, ids=[row[0] for row in CORPUS])
def test_every_strategy_lists_and_counts_exactly_the_reference_solutions(formula, rules, expected):
    truth = reference(formula, rules)
    if expected is not None:
        assert len(truth) == expected
    tried = []
    for strategy in STRATEGIES:
        if not accepts(formula, rules, strategy):
            continue
        found = [tuple(sorted(solution.mapping.items())) for solution in smtcrypt.solve(formula, strategy=strategy, **rules)]
        assert len(found) == len(set(found)), f"{strategy} repeated a solution"
        assert set(found) == truth, strategy
        assert smtcrypt.count(formula, strategy=strategy, **rules) == len(truth), strategy
        tried.append(strategy)
    assert {"z3", "exhaustive", "auto"} <= set(tried)


def test_linear_takes_sums_and_leaves_the_rest():
    assert integer_equation(problem_of("SEND + MORE = MONEY", {})) is not None
    assert integer_equation(problem_of("2*TWO + 3*ONE = FORTYTWO - 1", {})) is not None
    assert integer_equation(problem_of("ODD * ODD = FREAKY", {})) is None
    assert not accepts("ODD * ODD = FREAKY", {}, "linear")
    assert not accepts("A - A = B - B", {}, "linear")  # no letter with a weight: not a bounded search
    assert accepts("AB + C = DE, F + G = 7", {}, "linear")  # two letters outside the sum: 90 tuples beside each solution
    assert not accepts("AB + C = DE, F * G = H", {}, "linear")  # three: 10P3, more than the linear search tries
    assert accepts("AB + C = DE, F + G = H", {}, "linear")  # two sums: one equation (analysis.linear.combined)


def test_the_combined_equation_is_zero_exactly_where_every_equation_is():
    """`combined` against every assignment of small random systems (weights, constants, allowed digits)."""
    rng = random.Random(39)
    for _ in range(300):
        letters = "ABCD"[:rng.randint(1, 4)]
        allowed = {letter: frozenset(rng.sample(range(10), rng.randint(1, 4))) for letter in letters}
        forms = [({letter: rng.randint(-12, 12) for letter in rng.sample(letters, rng.randint(1, len(letters)))},
                  rng.randint(-30, 30)) for _ in range(rng.randint(2, 4))]
        weights, fixed = combined(forms, allowed)
        for digits in itertools.product(*(sorted(allowed[letter]) for letter in letters)):
            value = dict(zip(letters, digits))
            each = all(sum(w * value[x] for x, w in form.items()) + c == 0 for form, c in forms)
            assert (sum(w * value[x] for x, w in weights.items()) + fixed == 0) == each, (forms, value)


def test_several_sums_are_one_equation_with_the_same_solutions():
    """A system of sums (a crossword) is searched as one equation that holds exactly where all of them do:
    the same solutions as every assignment tried, beside other constraints and under other rules."""
    systems = [("AB + C = DE, F + G = H", {}), ("CC + A = CL, ON + D = GO, CC + ON = NI, A + D = E", {}),
               ("AB + BA = CC, A + B = C", {"distinct": False}), ("A + B = C, C + D = E, E + F = 12", {}),
               ("TO + GO = OUT, T + O = G + 1", {}), ("AB + CD = EF, A - C = 1, B * D > 10", {}),
               ("A + B = C, D + E = F", {"base": 7}), ("2*A + B = C, A + 2*B = D, C + D = 3*E", {"distinct": False})]
    for formula, rules in systems:
        assert accepts(formula, rules, "linear"), formula
        linear = [solution.text for solution in smtcrypt.solve(formula, strategy="linear", **rules)]
        exhaustive = [solution.text for solution in smtcrypt.solve(formula, strategy="exhaustive", **rules)]
        assert sorted(linear) == sorted(exhaustive) and len(set(linear)) == len(linear), formula


def test_the_199_addend_sum_is_linear_and_unique():
    corpus = CORPUS_FILE.read_text().splitlines()
    formula = next(line.split("\t")[0] for line in corpus if len(line.split("\t")[0]) > 1000)
    verdict = smtcrypt.Puzzle(formula).search().verdict()
    assert verdict.status is smtcrypt.Status.UNIQUE
    assert verdict.stats.strategy == "linear" and verdict.proof is Proof.BOUNDED


def test_cubes_cover_dense_comparisons_in_few_cubes():
    verdict = smtcrypt.Puzzle("ABCDE < FGHIJ").search(keep=False).verdict()
    assert verdict.count == 1_451_520 and verdict.complete
    assert verdict.stats.strategy == "cubes" and verdict.stats.cubes <= 40
    assert verdict.proof is Proof.CUBES


def test_cubes_are_disjoint_and_proved():
    problem = problem_of("ABC < DEF", {})
    import z3

    search = CubeSearch(problem, formula_terms(problem, z3.Context()), listing=True)
    found = [tuple(sorted(values.items())) for values in search]
    assert len(found) == len(set(found)) == 60_480
    assert sum(search.count(cube) for cube in search.cubes) == 60_480
    for first, second in itertools.combinations(search.cubes, 2):
        assert not search._meets(first, second)


def test_a_budget_is_held_by_one_watchdog_thread_for_the_whole_cube_search(monkeypatch):
    """A timer thread started for every check once made a cube search under a budget (as `auto` gives it) about
    twice as slow as the same search forced: a cube of one solution costs only a check or two."""
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda thread: started.append(thread.name) or start(thread))
    problem = problem_of("AB + CD = EF", {})
    search = CubeSearch(problem, formula_terms(problem, z3.Context()), budget=600.0)
    found = {tuple(sorted(values.items())) for values in search}
    assert search.end.complete and found == reference("AB + CD = EF", {})
    assert search.checks > len(search.cubes) > 100 and started == ["smtcrypt-watchdog"]


def test_cubes_need_a_formula_whose_negation_is_quantifier_free():
    # gcd's witness unknowns in the general encoding; Euclid's steps as bit-vector terms need none
    assert formula_terms(problem_of("gcd(AB, CD) = E", {}), __import__("z3").Context()) is None
    assert accepts("gcd(AB, CD) = E", {}, "cubes")
    with pytest.raises(StrategyError):
        smtcrypt.Puzzle("A + x = 3").search(strategy="cubes")


def test_the_portfolio_switches_without_losing_or_repeating(monkeypatch):
    # Z3 (and cubes) get almost no time: the exhaustive backend must take over mid-way
    monkeypatch.setattr(prices, "SMALL_SPACE", 0)
    monkeypatch.setattr(prices, "EXHAUSTIVE_AT_ONCE", 0.0)
    monkeypatch.setattr(prices, "Z3_SHARE", dict.fromkeys(prices.Z3_SHARE, 1e-4))
    monkeypatch.setattr(prices, "CUBES_SHARE", 1e-4)
    monkeypatch.setattr(prices, "Z3_PER_MODEL", dict.fromkeys(prices.Z3_PER_MODEL, 0.0))
    monkeypatch.setattr(prices, "Z3_AT_LEAST", 0.0)
    # products go to the digits backend, which never switches: kept out, so the switch is what is tested
    without_products(monkeypatch)
    for formula, taker in [("AB * C = DE + F", "join"), ("AB * C = DE + F + A", "join"), ("AB * C - DE - F - A = 0", "exhaustive"),
                           ("ABC < DEF + 300", "exhaustive")]:
        search = smtcrypt.Puzzle(formula).search()
        found = [tuple(sorted(solution.mapping.items())) for solution in search]
        stats = search.verdict().stats
        assert stats.strategy.endswith(" -> " + taker), stats.strategy
        assert len(found) == len(set(found)) and set(found) == reference(formula, {})
        assert smtcrypt.Puzzle(formula).count() == len(found)  # counting after cubes: cubes skipped by cover


def test_exhaustive_refuses_integer_unknowns_the_formula_does_not_bound():
    with pytest.raises(StrategyError):
        smtcrypt.Puzzle("A + x = 3").search(strategy="exhaustive")
    with pytest.raises(NotCompilable):
        compile_problem(problem_of("A + x = 3", {}))


def test_an_exhaustive_search_stops_when_asked_and_on_time():
    search = smtcrypt.Puzzle("ABCDE * FG != HIJ * 7").search(strategy="exhaustive")
    started = time.monotonic()
    stop_once_started(search)
    verdict = search.verdict()
    assert time.monotonic() - started < 1.5
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "interrupted"
    puzzle = smtcrypt.Puzzle("ABCDE * FG != HIJ * 7")  # reading the formula is not the search the limit is for
    started = time.monotonic()
    verdict = puzzle.search(strategy="exhaustive", timeout=0.5).verdict()
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "time limit"
    assert time.monotonic() - started < 0.5 * 1.1 + 0.2


def test_search_ends_are_data():
    search = ExhaustiveSearch(compile_problem(problem_of("AB = C * 7", {})))
    assert len(list(search)) > 0 and search.end.ending is Ending.COMPLETE and search.end.proof is Proof.EXHAUSTIVE
    assert search.end.reason is None and search.end.complete


def test_limit_must_be_positive_and_solutions_hash():
    with pytest.raises(ValueError):
        smtcrypt.Puzzle("A + B = C").search(limit=0)
    solutions = list(smtcrypt.solve("A + B = C", limit=3))
    assert len({*solutions, *solutions}) == 3


# --- the compiled evaluator against the exact re-check, candidate by candidate -------------------

NAMES = set(HELPERS) | set(SIDE_HELPERS) | set(keyword.kwlist) | {"_scan", "_candidates", "_hits", "_keep", "_K", "append"}


def generated_names_are_our_own(source: str) -> None:
    """Every name in the code is one the compiler makes, every number an integer literal, no strings."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            assert token.string in NAMES or token.string[:2] in ("_t",) or (
                token.string[0] in "vu" and token.string[1:].isdigit()), token.string
        elif token.type == tokenize.NUMBER:
            assert token.string.isdigit(), token.string
        else:
            assert token.type != tokenize.STRING, token.string


@settings(max_examples=50, deadline=None)
@given(cases())  # the property tests' random formulas and rules (the slow run checks 10,000 end to end)
def test_compiled_evaluator_agrees_with_the_exact_recheck_on_every_candidate(case):
    problem = check(parse(case.text), make_rules(**case.rules))
    compiled = compile_problem(problem)  # its unknowns, if any, bounded by the formula (see `cases`)
    generated_names_are_our_own(compiled.source)
    tuples, _ = candidates(compiled)
    hits = set(compiled.scan(list(tuples)))
    for digits in candidates(compiled)[0]:
        assignment = compiled.assignment(digits)
        assert (digits in hits) == satisfies(problem, assignment), (case, assignment)


def test_no_text_of_the_formula_reaches_the_compiled_code():
    for formula in ["SEND + MORE = MONEY", "EVE / DID = 0.(TALK) and gcd(EVE, DID) = 1",
                    "ATOM**0.5 = A + TO + M", "A in {1, 2.5, 7} or B not in range(3, C)",
                    "sum(range(POP)) = BOBO", "PLUTO not in {PLANETS}", "(2 * BE or not 2 * BE) = THE + QUES-TION",
                    " + ".join(["AB"] * 150) + " = CDE"]:
        compiled = compile_problem(problem_of(formula, {}))
        generated_names_are_our_own(compiled.source)
        assert "0.5" not in compiled.source and "TALK" not in compiled.source
    for formula in ["0 <= exec_this <= 3, A + exec_this = B", "x_1 in {1, 2.5, 7}, y in range(-2, 2), A * x_1 = B + y",
                    "-1 < import_os < 4.5 and __x__ in (1, 2), A = __x__ + import_os"]:  # integer unknowns the formula bounds: looped over as u0, u1
        compiled = compile_problem(problem_of(formula, {}))
        generated_names_are_our_own(compiled.source)
        assert not any(text in compiled.source for text in ("exec", "x_1", "import", "__x__", "2.5", "4.5"))
    for formula in ["EVE / DID = 0.(TALK)", "ATOM**0.5 = BUS + 2.5", "NAUGHT ** 2 = ZERO ** 3",
                    "NORTH / SOUTH = EAST / WEST"]:  # the join's sides
        join = JoinSearch(problem_of(formula, {}))
        for source in join.sources:
            generated_names_are_our_own(source)
            assert not any(text in source for text in ("0.5", "2.5", "TALK", "ATOM", "NAUGHT", "ZERO"))


CORPUS_FILE = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus.tsv"


def test_a_race_for_the_first_solution_gives_a_true_solution_or_a_proof(monkeypatch):
    # the exhaustive backend joins at once, so that either side may win
    monkeypatch.setattr(prices, "RACE_AFTER", 0.0)
    monkeypatch.setattr(prices, "FIRST_AT_ONCE", 0.0)
    monkeypatch.setattr(prices, "SMALL_SPACE", 0)
    monkeypatch.setattr(prices, "EXHAUSTIVE_AT_ONCE", 0.0)
    without_products(monkeypatch)  # the race itself
    winners = set()
    for formula, texts in [("ODD * ODD = FREAKY", {"677 * 677 = 458329", "799 * 799 = 638401"}),
                           ("TWO * TWO = SQUARE", {"807 * 807 = 651249", "567 * 567 = 321489", "854 * 854 = 729316"}),
                           ("NORTH / SOUTH = EAST / WEST", {"51304 / 61904 = 7260 / 8760"})]:
        search = smtcrypt.Puzzle(formula).search(limit=1)
        found = list(search)
        verdict = search.verdict()
        assert len(found) == 1 and found[0].text in texts, (formula, found)
        assert verdict.status is smtcrypt.Status.FOUND
        winners.add(verdict.stats.strategy)
    assert winners <= {"z3", "exhaustive", "join"}
    verdict = smtcrypt.Puzzle("ODD * ODD = FREAKY", assign={"O": 5}).search(limit=1).verdict()
    assert verdict.status is smtcrypt.Status.NONE and verdict.complete and verdict.proof in (
        Proof.UNSAT, Proof.EXHAUSTIVE)  # the join proves as trying every assignment does


@pytest.mark.slow  # the planner's costs over 30 formulas; the join lists exactly every run (test_every_strategy_...)
def test_the_join_takes_an_equation_and_tries_the_other_letters_beside_each_match():
    for formula in ("AB < CD", "A + x = 3", "A = B or C = D"):
        assert best_plan(problem_of(formula, {})) is None, formula
    assert best_plan(problem_of("AB * C in (DDE, DEF)", {})) is None  # the words hold different letters
    assert best_plan(problem_of("A * BC * DEF in (XXYY, XYXY, XYYX)", {})).cost == 151200  # 10P6, not 10P8
    rest = best_plan(problem_of("MA ** D = ENIGMA, is_prime(PRIME)", {}))
    assert rest.rest == ("P", "R") and rest.rest_space == 6 and rest.solve_for is not None
    plans = {formula: best_plan(problem_of(formula, {})) for formula in
             ("NAUGHT ** 2 = ZERO ** 3", "ODD * ODD = FREAKY", "NORTH / SOUTH = EAST / WEST", "AB * CD = EF * GH")}
    assert plans["NAUGHT ** 2 = ZERO ** 3"].cost == 5040  # ZERO ** 3 evaluated, NAUGHT read off its square root
    assert plans["ODD * ODD = FREAKY"].cost == 90
    assert plans["NORTH / SOUTH = EAST / WEST"].solve_for is None  # matched, S and T shared: 10P7 + 10P5
    assert plans["NORTH / SOUTH = EAST / WEST"].cost == 604800 + 30240
    assert plans["AB * CD = EF * GH"].cost == 2 * 5040
    join_matches_the_reference([("AB * CD = EF * GH", {"assign": {"A": 1}}), ("0.(AB) = C / DE", {}),
                           ("AB // C = D ** (1/2) - E", {}), ("A ** -1 = B / CD", {"distinct": False}),
                           ("gcd(AB, 6) = C", {"domains": {"C": range(1, 4)}, "allow_leading_zeros": True}),
                           # shared letters, matched or solved for
                           ("AB / CA = DE / BD", {}), ("AB * 7C = 1D0E", {}), ("A + B + C = DD", {"distinct": False}),
                           ("AB + BA = CDC", {"base": 7}), ("A**N + B**N = C**N and N > 1", {}),
                           ("ABC - 400 = D ** 3", {}), ("(A - B) * C = D", {}), ("AB / C = D", {}),
                           ("A ** (1/2) + B = CD ** (3/2)", {"allow_leading_zeros": True}),
                           # letters the equation does not hold, tried beside each match
                           ("AB = CD, A > E", {}),
                           ("A + B = C, D > 7", {"distinct": False}), ("A ** 2 = BC, is_prime(DE)", {"digits": range(1, 10)}),
                           ("A * B = C, D != E", {"domains": {"D": range(2, 5)}}),
                           # the value read as any of several words (holding the same letters)
                           ("AB * C in (DDE, DED), F < 5", {}), ("AB * C in (DDE, DED)", {"distinct": False}),
                           ("A * BC in (DDE, DED, EDD)", {}), ("AB * C in (DD, 1D), E < 3", {"distinct": False})])


@pytest.mark.slow  # the brute force of each takes 0.6-1.8 s; the cases above hold one of each kind
def test_the_join_matches_the_reference_on_puzzles_of_seven_letters_and_more():
    join_matches_the_reference([("ODD * ODD = FREAKY", {"assign": {"O": 6}}),
                                ("HIP * HIP = HURRAY", {"digits": range(1, 10)}),
                                ("MON-EY = EVIL**(1/2)", {"assign": {"E": 3}}), ("AB * C = DE, F + G < 4", {})])


def join_matches_the_reference(cases: list[tuple[str, dict]]) -> None:
    """The join lists each of the reference's solutions once, and ends with a proof by trying them all."""
    for formula, rules in cases:
        search = JoinSearch(problem_of(formula, rules))
        for source in search.sources:
            generated_names_are_our_own(source)
        found = [tuple(sorted(values.items())) for values in search]
        assert search.end.complete and search.end.proof is Proof.EXHAUSTIVE
        assert len(found) == len(set(found)) and set(found) == reference(formula, rules), formula


def test_the_join_stands_in_for_trying_every_assignment(monkeypatch):
    # products go to the digits backend (test_digits.py): kept out, so the join is what is tested
    without_products(monkeypatch)
    verdict = smtcrypt.Puzzle("AB * CD = EF * GH").search(keep=False).verdict()
    assert verdict.count == 280 and verdict.stats.strategy == "join"
    # each side's digit tuples, not the 1,451,520 of the whole: 10P4 each (those with A or C zero refused by the
    # compiled filter)
    assert verdict.stats.candidates == 2 * 5040 and verdict.stats.candidates_tried == 2 * 5040
    assert verdict.stats.join == "match the sides"


def test_auto_counts_the_matches_before_it_joins_an_equation_short_of_letters(monkeypatch):
    without_products(monkeypatch)
    verdict = smtcrypt.Puzzle("MA ** D = ENIGMA, is_prime(PRIME)").search(keep=False).verdict()
    # 10P3 sides of MA ** D (ENIGMA read off); two matches, 75 ** 3 = 421875 (P and R from 0, 6, 9, P not 0:
    # 4 tuples) and 25 ** 4 = 390625 (1, 7, 8: 6 tuples)
    assert verdict.count == 2 and verdict.stats.strategy == "join" and verdict.stats.solver_checks == 0
    assert verdict.stats.candidates_tried == 720 + 4 + 6
    assert verdict.stats.join == "solve for a word, then PR beside each match"


def test_a_first_solution_below_the_price_bound_is_not_raced(monkeypatch):
    # the join alone, no Z3 thread sharing the interpreter with it
    monkeypatch.setattr(prices, "FIRST_AT_ONCE", 60.0)
    without_products(monkeypatch)  # the join's test
    verdict = smtcrypt.Puzzle("NORTH / SOUTH = EAST / WEST").search(limit=1).verdict()
    assert verdict.stats.strategy == "join" and verdict.stats.solver_checks == 0
    assert [solution.text for solution in verdict.solutions] == ["51304 / 61904 = 7260 / 8760"]


# --- the engine's own exact arithmetic, against the re-check's ------------------------------------


def test_the_engines_roots_and_powers_agree_with_the_verifiers():
    """The two are written apart (no backend imports the verifier); they must agree all the same."""
    from fractions import Fraction

    from smtcrypt.core.verify import Undefined, integer_root, power
    from smtcrypt.engine.compiled_runtime import HELPERS, exact_root

    draw = random.Random(7)
    for _ in range(2000):
        n, q = draw.choice([draw.randrange(10 ** 6), draw.randrange(60) ** draw.randrange(2, 6)]), draw.randrange(2, 7)
        assert exact_root(n, q) == integer_root(n, q)
    values = [0, 1, 2, 4, 8, 9, 27, 16, -8, Fraction(4, 9), Fraction(-1, 8), Fraction(27, 64), 7]
    exponents = [0, 1, 2, 3, -1, -2, Fraction(1, 2), Fraction(3, 2), Fraction(-1, 3), Fraction(2, 3)]
    for base in values:
        for exponent in exponents:
            try:
                expected = power(base, exponent)
            except Undefined:
                expected = None
            try:
                found = HELPERS["_pow"](base, exponent)
            except ArithmeticError:
                found = None
            assert found == expected, (base, exponent)


def test_a_digit_search_of_many_letters_stops_at_its_deadline():
    # 26 letters: the generated loops go on in nested functions, which must share one count of steps so
    # that the clock is read as often there as in the first function (it once was not, for minutes)
    formula = "ABCDEFGHIJ ** 4 + KLMNOPQRST ** 4 = UVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH + 12345"
    started = time.monotonic()
    search = smtcrypt.Puzzle(formula, distinct=False).search(timeout=0.5)
    found = list(search)
    verdict = search.verdict()
    assert verdict.stats.strategy == "digits" and not verdict.complete and verdict.reason == "time limit"
    assert not found and time.monotonic() - started < 5


@pytest.mark.slow  # a whole listing twice, switched and not
@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
def test_the_digit_search_handing_over_to_the_compiled_walk_loses_and_repeats_nothing(monkeypatch):
    # the plain walk takes a few steps, then the compiled walk goes on from its state
    import smtcrypt.engine.digits as digits_module

    monkeypatch.setattr(digits_module, "PLAIN_STEPS", 64)
    monkeypatch.setattr(digits_module, "ESTIMATED_LARGE", 1 << 62)  # every plan starts plain
    monkeypatch.setattr(digits_module, "PROJECTED_LARGE", 1 << 62)  # and goes on compiled past 64 steps
    digits_module.load()  # loaded already (else its load is priced in, and the walk stays plain far longer)
    for formula in ["AB * C * D = EC * FG", "?A * B? = C??", "AB * CD = EF * GH"]:
        problem = check(parse(formula))
        search = digits_module.DigitSearch(digits_module.digit_plan(problem))
        found = [tuple(assignment.items()) for assignment in search]
        stats = Statistics()
        search.statistics(stats)  # filled in place, as the portfolio fills one record a search
        assert stats.digit_search == "plain -> compiled" and search.end.complete
        assert len(found) == len(set(found)) == smtcrypt.count(formula, strategy="exhaustive")


def test_a_deadline_past_what_a_timer_can_wait_is_no_deadline():
    """A share of an astronomical price (a layout with many `?` cells and a condition) once made a
    deadline threading.Timer refused with OverflowError, printed from its thread."""
    context = z3.Context()
    with watchdog(lambda: time.monotonic() + threading.TIMEOUT_MAX * 2, context):
        assert z3.Solver(ctx=context).check() == z3.sat


def test_cubes_count_distinct_completions_as_a_brute_force_does():
    """The count keeps the digits every domain holds as a number taken, not a set (a set of taken digits
    numbers C(40, 10) states in base 40, which hung a search past its time limit)."""
    import itertools
    import random

    from smtcrypt.engine.cubes import distinct_completions

    chooser = random.Random(7)
    for _ in range(300):
        domains = [frozenset(chooser.sample(range(6), chooser.randint(1, 6))) for _ in range(chooser.randint(0, 4))]
        used = frozenset(chooser.sample(range(6), chooser.randint(0, 2)))
        expected = sum(1 for digits in itertools.product(*domains)
                       if len(set(digits)) == len(digits) and not set(digits) & used)
        assert distinct_completions(domains, used) == expected, (domains, used)
    everything, leading = frozenset(range(40)), frozenset(range(1, 40))
    assert distinct_completions([leading] + [everything] * 9, frozenset({5})) == 38 * 38 * 37 * 36 * 35 * 34 * 33 * 32 * 31 * 30
    verdict = smtcrypt.Puzzle("ABCDEFGHIJ > JIHGFEDCBA", base=40).search(limit=1, timeout=30).verdict()
    assert verdict.count == 1
