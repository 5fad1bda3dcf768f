"""The number-theory words: is_prime, is_square, is_cube, is_power, is_triangular, is_palindrome,
divides, dsum and rev. Their values at the edges, checked by hand, in every evaluator (the exact
re-check, the compiled formula, the Z3 encodings, the brute-force reference); small puzzles with
them solved by every strategy and encoding and compared with the brute force, also down the
encodings' paths beyond their tables; the checker's errors."""

from __future__ import annotations

import time

import pytest
import z3
from reference import Compiled
from test_properties import Case, check_against_reference, check_encodings, reference_solutions

import smtcrypt
from smtcrypt.core.check import check
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import make_rules
from smtcrypt.core.verify import Undefined, evaluate, satisfies
from smtcrypt.encode import words
from smtcrypt.encode.bitvec import BitVecEncoding
from smtcrypt.encode.general import GeneralEncoding
from smtcrypt.engine.compiled import compile_problem
from smtcrypt.engine.portfolio import STRATEGIES
from smtcrypt.engine.z3search import ModelSearch
from smtcrypt.errors import FormulaError, FormulaLimitError, FormulaNameError
from smtcrypt.teach.explain import explain

UNDEFINED = None  # the candidate is left out: the word's argument is not an integer (or is_prime's too large)

EDGES = [
    # expression, base, value (1 and 0 for a predicate's truth), checked by hand
    ("is_prime(-7)", 10, 0), ("is_prime(0)", 10, 0), ("is_prime(1)", 10, 0), ("is_prime(2)", 10, 1),
    ("is_prime(9)", 10, 0), ("is_prime(97)", 10, 1), ("is_prime(7919)", 10, 1),
    ("is_prime(1000003)", 10, 1), ("is_prime(1000001)", 10, 0),  # 1000001 = 101 * 9901
    ("is_prime(10**23 - 1)", 10, 0), ("is_prime(-10**30)", 10, 0),  # 10**23 - 1 = 9 * 11111111111111111111111
    ("is_prime(14/2)", 10, 1), ("is_prime(7/2)", 10, UNDEFINED),
    ("is_square(-4)", 10, 0), ("is_square(0)", 10, 1), ("is_square(1)", 10, 1), ("is_square(2)", 10, 0),
    ("is_square(144)", 10, 1), ("is_square(10**40)", 10, 1), ("is_square(10**40 + 1)", 10, 0),
    ("is_square(1/4)", 10, UNDEFINED), ("is_square(8/2)", 10, 1),
    ("is_cube(-8)", 10, 0), ("is_cube(0)", 10, 1), ("is_cube(27)", 10, 1), ("is_cube(26)", 10, 0),
    ("is_power(32, 5)", 10, 1), ("is_power(1, 7)", 10, 1), ("is_power(0, 1)", 10, 1), ("is_power(-1, 1)", 10, 0),
    ("is_power(81, 4)", 10, 1), ("is_power(80, 4)", 10, 0), ("is_power(7, 1)", 10, 1),
    ("is_triangular(-1)", 10, 0), ("is_triangular(0)", 10, 1), ("is_triangular(1)", 10, 1),
    ("is_triangular(2)", 10, 0), ("is_triangular(3)", 10, 1), ("is_triangular(5050)", 10, 1),
    ("is_triangular(5051)", 10, 0), ("is_triangular(3/2)", 10, UNDEFINED),
    ("dsum(0)", 10, 0), ("dsum(9)", 10, 9), ("dsum(1234)", 10, 10), ("dsum(-1234)", 10, 10),
    ("dsum(7)", 2, 3), ("dsum(255)", 16, 30), ("dsum(1/2)", 10, UNDEFINED),
    ("rev(120)", 10, 21), ("rev(0)", 10, 0), ("rev(7)", 10, 7), ("rev(-120)", 10, -21), ("rev(100)", 10, 1),
    ("rev(18)", 16, 33), ("rev(6)", 2, 3), ("rev(5/3)", 10, UNDEFINED),
    ("is_palindrome(0)", 10, 1), ("is_palindrome(7)", 10, 1), ("is_palindrome(121)", 10, 1),
    ("is_palindrome(120)", 10, 0), ("is_palindrome(10)", 10, 0), ("is_palindrome(-121)", 10, 1),
    ("is_palindrome(5)", 2, 1), ("is_palindrome(6)", 2, 0), ("is_palindrome(1/2)", 10, UNDEFINED),
    ("divides(3, 12)", 10, 1), ("divides(3, 13)", 10, 0), ("divides(0, 0)", 10, 1), ("divides(0, 5)", 10, 0),
    ("divides(-3, 12)", 10, 1), ("divides(5, 0)", 10, 1), ("divides(4, -6)", 10, 0),
    ("divides(1/2, 1)", 10, UNDEFINED), ("divides(2, 1/2)", 10, UNDEFINED),
    # as numbers, as comparisons are
    ("is_prime(2) + is_prime(3) + is_square(3)", 10, 2), ("dsum(rev(120) * 10)", 10, 3),
]


LARGE = [  # beyond the reference's trial division
    ("is_prime(2**61 - 1)", 1),  # a Mersenne prime
    ("is_prime(2**61 + 1)", 0),  # divisible by 3
    ("is_prime((2**31 - 1) * (2**19 - 1))", 0),  # two primes: no small factor
    ("is_prime(10**24 - 1)", 0), ("is_prime(10**24)", UNDEFINED), ("is_prime(10**24 + 7)", UNDEFINED),
]


def expression_value(text: str, base: int) -> int | None:
    try:
        return int(evaluate(parse(f"{text} == 0").constraints[0].operands[0], {}, base))
    except Undefined:
        return UNDEFINED


def decided(formula: str, base: int, reference: bool = True) -> dict[str, bool]:
    """Whether the letter-free `formula` holds, by the exact re-check, the brute-force reference, the
    compiled formula, each Z3 encoding that takes it, and the z3 and cubes strategies."""
    problem = check(parse(formula), make_rules(base=base))
    found = {"verify": satisfies(problem, {}), "compiled": compile_problem(problem).scan([()]) == [()]}
    if reference:
        found["reference"] = Compiled(formula, base).holds(())
    for encoding in (GeneralEncoding(), BitVecEncoding()):
        if encoding.accepts(problem):
            search = ModelSearch(encoding.encode(problem, z3.Context()), time.monotonic() + 60)
            found[encoding.name] = list(search) == [{}]
            assert search.end is not None and search.end.complete
    for strategy in ("z3", "cubes"):
        found[strategy] = smtcrypt.Puzzle(formula, base=base).count(strategy=strategy) == 1
    return found


@pytest.mark.parametrize("text, base, value", EDGES)
def test_the_words_at_their_edges(text, base, value):
    assert expression_value(text, base) == value
    # true where the value is right; where it is undefined, neither equal to anything nor not
    shown = value if value is not None else 0
    assert set(decided(f"({text}) == ({shown})", base).values()) == {value is not None}
    assert set(decided(f"({text}) != ({shown})", base).values()) == {False}


@pytest.mark.parametrize("text, value", LARGE)
def test_primality_of_large_numbers(text, value):
    assert expression_value(text, 10) == value
    shown = value if value is not None else 0
    assert set(decided(f"{text} == {shown}", 10, reference=False).values()) == {value is not None}
    assert set(decided(f"{text} != {shown}", 10, reference=False).values()) == {False}


PUZZLES = [
    Case("is_prime(AB)"),
    Case("is_square(ABC) and not is_prime(CA)"),
    Case("is_cube(AB + C)"),
    Case("is_power(AB, 4) or is_triangular(BA)"),
    Case("dsum(ABC) = 10, rev(ABC) > ABC"),
    Case("is_palindrome(ABA + C)", {"digits": [0, 1, 2, 3, 4, 5, 6, 7]}),
    Case("divides(A, BC)"),
    Case("divides(A - B, C)", {"distinct": False, "allow_leading_zeros": True, "digits": [0, 1, 2, 3]}),
    Case("rev(0AB) = B", {"allow_leading_zeros": True}),
    Case("rev(AB) = BA", {"allow_leading_zeros": True, "digits": [0, 1, 2, 3, 5]}),
    Case("not is_square(A/2)"),
    Case("rev(A - BC) = -21"),
    Case("(is_prime(A) + is_prime(B)) = 1 + C", {"distinct": False}),
    Case("is_prime(x + A), 0 <= x <= 3", {}, {"x": (0, 3)}),
    Case("C == 0 or dsum(AB // C) = 3", {"digits": [0, 1, 2, 3, 4, 8, 9]}),
    Case("is_prime(dsum(ABC) + rev(CA))", {"digits": [1, 2, 3, 4, 5, 6]}),
    Case("2 ** dsum(AB) = CD"),
    Case("rev(ABCD) = DCBA", {"base": 16, "digits": [0, 1, 2, 15]}),
    Case("is_palindrome(ABC) or dsum(AB) in {3, 5}", {"base": 3, "allow_leading_zeros": True, "distinct": False}),
]


@pytest.mark.parametrize("case", PUZZLES, ids=[case.text for case in PUZZLES])
def test_puzzles_with_the_words_match_brute_force_by_every_strategy(case):
    check_against_reference(case)


BEYOND_TABLES = [
    Case("is_prime(AB) and not is_square(CD)", {"digits": [1, 2, 3, 5, 7]}),
    Case("is_cube(AB + C) or is_triangular(BC)", {"digits": [0, 1, 2, 6, 7]}),
    Case("is_power(AB - C, 4) or not is_triangular(A - BC)", {"digits": [0, 1, 6, 7, 8]}),
    Case("dsum(A * BC) = 9, rev(AB - C) > C", {"digits": [0, 1, 2, 3, 8, 9]}),
    Case("not is_palindrome(A - BC)", {"digits": [1, 2, 3, 4, 5, 6]}),
    Case("C == 0 or is_square(AB // C)", {"digits": [0, 1, 2, 3, 8, 9]}),
    Case("is_prime(A - BC) or is_prime(AB + C)", {"digits": [0, 1, 2, 3, 8, 9]}),
]


@pytest.mark.parametrize("case", BEYOND_TABLES, ids=[case.text for case in BEYOND_TABLES])
def test_the_encodings_beyond_their_tables_match_brute_force(case, monkeypatch):
    """No table at all: trial division, roots the argument fixes, digits the argument fixes."""
    monkeypatch.setattr(words, "MAX_TABLE", 0)
    check_encodings(case, reference_solutions(case))


@pytest.mark.parametrize("case", BEYOND_TABLES, ids=[case.text for case in BEYOND_TABLES])
def test_the_general_encoding_without_bounds_matches_brute_force(case, monkeypatch):
    """Terms without bounds (integer unknowns the formula leaves free): recursive functions and roots."""
    monkeypatch.setattr(words, "MAX_TABLE", 0)
    monkeypatch.setattr(words, "trial_divisors", lambda high: None)
    monkeypatch.setattr("smtcrypt.encode.general.GeneralEncoder.whole_bounds", lambda self, node: None)
    expected = reference_solutions(case)
    problem = check(parse(case.text), make_rules(**case.rules))
    search = ModelSearch(GeneralEncoding().encode(problem, z3.Context()), time.monotonic() + 60)
    assert {tuple(sorted(model.items())) for model in search} == expected
    assert search.end is not None and search.end.complete


def test_a_predicate_of_a_word_is_a_table_of_its_letters_digits():
    problem = check(parse("SEVEN - THREE = FOUR, is_prime(SEVEN)"))
    node = problem.formula.constraints[1]
    letters, rows = words.word_table(node, problem)
    assert letters == ("S", "E", "V", "N")
    values = {int(f"{s}{e}{v}{e}{n}") for s, e, v, n in rows}
    primes = [p for p in range(2, 317) if all(p % d for d in range(2, p))]
    expected = {n for n in range(10000, 100000) if all(n % p for p in primes)  # S E V E N: E twice, 4 letters
                and str(n)[1] == str(n)[3] and len(set(str(n)[:3] + str(n)[4])) == 4}
    assert values == expected and len(rows) == len(values) < 1000
    puzzle = smtcrypt.Puzzle("SEVEN - THREE = FOUR, is_prime(SEVEN)")
    assert puzzle.count(strategy="z3") == puzzle.count(strategy="exhaustive") == 6


def test_a_word_written_with_the_words_solves_as_one_written_without():
    with_words = smtcrypt.Puzzle("SEVEN - THREE = FOUR, is_square(TEN)")
    without = smtcrypt.Puzzle("SEVEN - THREE = FOUR, TEN in {100, 121, 144, 169, 196, 225, 256, 289, 324, 361, "
                              "400, 441, 484, 529, 576, 625, 676, 729, 784, 841, 900, 961}")
    assert [s.mapping for s in with_words.search()] == [s.mapping for s in without.search()]
    assert with_words.verdict().stats.strategy == "linear"  # the sum's search, the word checked on its hits


ERRORS = [
    # formula, error class, line, column, text the message must contain
    ("is_prime(A, B)", FormulaNameError, 1, 1, "is_prime() takes is_prime(x)"),
    ("is_square() = 1", FormulaNameError, 1, 1, "is_square() takes"),
    ("divides(A) = 1", FormulaNameError, 1, 1, "divides() takes divides(d, x)"),
    ("dsum(A, B) = 1", FormulaNameError, 1, 1, "dsum() takes dsum(x)"),
    ("A = rev()", FormulaNameError, 1, 5, "rev() takes"),
    ("is_power(AB)", FormulaNameError, 1, 1, "is_power() takes is_power(x, k)"),
    ("is_power(AB, C)", FormulaLimitError, 1, 14, "needs k a constant integer from 1 to 1000 (this one is not"),
    ("is_power(AB, 1/2)", FormulaLimitError, 1, 14, "(not 1/2)"),
    ("is_power(AB, 0)", FormulaLimitError, 1, 14, "(not 0)"),
    ("is_power(AB, 1001)", FormulaLimitError, 1, 14, "(not 1001)"),
    ("is_prime(ABCDEFGHIJ * ABCDEFGHIJ * ABCDEFGHIJ)", FormulaLimitError, 1, 10, "decides numbers below 10**24"),
    ("isprime(A)", FormulaNameError, 1, 1, "known: abs, min, max, gcd, is_prime, is_square"),
    ("A = rev", FormulaNameError, 1, 5, "rev(...) is a function"),
    ("dsum(A)", FormulaError, 1, 1, "needs a comparison"),
]


@pytest.mark.parametrize("formula, kind, line, column, text", ERRORS)
def test_errors_name_the_word_with_a_caret(formula, kind, line, column, text):
    with pytest.raises(kind) as caught:
        smtcrypt.Puzzle(formula)
    error = caught.value
    assert (error.line, error.column) == (line, column) and text in error.message, (error.line, error.column, error)
    assert "^" in str(error)


def test_the_explainer_takes_the_words_or_leaves_them_to_the_search():
    explanation = explain(check(parse("dsum(ABC) = 6, rev(ABC) = CBA, A + B = C")))
    assert {tuple(sorted(s.items())) for s in explanation.solutions} == {
        (("A", 1), ("B", 2), ("C", 3)), (("A", 2), ("B", 1), ("C", 3))}
    assert explanation.count == 2


# --- large variable exponents: computed by the backends that evaluate the formula ------------------

BIG_POWERS = [
    Case("2 ** ABC > 5"),
    Case("2 ** ABC % 7 = D"),
    Case("A ** BCD < 10 ** 500", {"digits": [0, 1, 2, 3, 5, 9]}),
    Case("(A - B) ** CDE = 1", {"digits": [0, 1, 2, 3, 4, 5, 6]}),  # an even exponent, A - B = +-1
    Case("A ** (B - CDE) * 2 ** CDE >= 1", {"digits": [0, 1, 2, 3, 8, 9]}),  # negative exponents too
]


@pytest.mark.parametrize("case", BIG_POWERS, ids=[case.text for case in BIG_POWERS])
def test_large_variable_exponents_are_computed_exactly(case):
    expected = reference_solutions(case)
    puzzle = smtcrypt.Puzzle(case.text, **case.rules)
    for strategy in STRATEGIES:
        try:
            search = puzzle.search(strategy=strategy, timeout=60)
        except StrategyError as error:  # Z3 cannot split the power; the others need shapes it lacks
            assert strategy not in ("auto", "exhaustive"), error
            if strategy in ("z3", "cubes"):
                assert "more than the 128 cases Z3's encodings split a power into" in str(error)
            continue
        found = {tuple(sorted(solution.mapping.items())) for solution in search}
        assert found == expected and search.verdict().complete, strategy
        assert puzzle.count(strategy=strategy) == len(expected)


def test_a_sum_with_a_large_power_beside_it_is_the_linear_search():
    verdict = smtcrypt.Puzzle("SEND + MORE = MONEY, 2 ** SEND > MONEY ** 3").verdict()
    assert verdict.status is smtcrypt.Status.UNIQUE and verdict.stats.strategy == "linear"


def test_a_large_exponent_over_unbounded_unknowns_has_no_strategy():
    with pytest.raises(StrategyError, match="no strategy can search this puzzle"):
        smtcrypt.Puzzle("2 ** ABC = x, x > 0").count()


def test_the_linear_search_reads_dsum_and_rev_of_a_word_as_sums_of_its_letters():
    puzzle = smtcrypt.Puzzle("ABCD * 4 = rev(ABCD)")
    assert [s.mapping for s in puzzle.search(strategy="linear")] == [{"A": 2, "B": 1, "C": 7, "D": 8}]
    assert puzzle.verdict().stats.strategy == "linear"
    assert smtcrypt.Puzzle("dsum(ABC) + rev(ABC) = DEF").count(strategy="linear") == 29 == \
        smtcrypt.Puzzle("dsum(ABC) + rev(ABC) = DEF").count(strategy="exhaustive")
    # a word that may start with 0 reverses to fewer digits: not a sum of its letters
    with pytest.raises(StrategyError):
        smtcrypt.Puzzle("rev(ABC) = CB + 2", allow_leading_zeros=True).count(strategy="linear")
    assert smtcrypt.Puzzle("rev(ABC) = CB + 2", allow_leading_zeros=True).count() == len(reference_solutions(
        Case("rev(ABC) = CB + 2", {"allow_leading_zeros": True})))
