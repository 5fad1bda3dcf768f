"""The portfolio's one table of backends, and each backend's own answer to whether it takes a
problem: every backend in the table refuses a puzzle it cannot search with a reason a user reads,
and a strategy forced on that puzzle is refused in the backend's own words, word for word (the
docs show them); the puzzles each takes, it takes."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from types import MappingProxyType

import pytest
from reference import brute_force

import smtcrypt
from smtcrypt.core.check import Problem
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.core.verify import satisfies
from smtcrypt.engine import portfolio
from smtcrypt.engine.base import (
    Assignment,
    Backend,
    Ending,
    Executor,
    Fit,
    Means,
    Proof,
    SearchEnd,
    Statistics,
    Strategy,
)
from smtcrypt.engine.digits import DigitSearch
from smtcrypt.engine.join import JoinSearch
from smtcrypt.engine.linear import LinearSearch
from smtcrypt.engine.portfolio import BACKENDS, Portfolio

LARGE_POWER = "SEND + MORE = MONEY, 2 ** SEND > MONEY ** 3"  # an exponent of 1000..9999: Z3's encodings split none
CANNOT = "cannot search this puzzle: "

# a puzzle each backend refuses, and the refusal as the user reads it
REFUSED = {
    Strategy.Z3: (LARGE_POWER, "the z3 strategy " + CANNOT + "a variable exponent takes values 1000..9999, more "
                  "than the 128 cases Z3's encodings split a power into; the exhaustive strategy (and auto) computes it"),
    Strategy.LINEAR: ("AB * CD = EF * GH", "the linear strategy " + CANNOT + "it needs an equation of sums and "
                      "integer multiples of words holding all but two letters at most, no integer unknowns, and all "
                      "letters distinct or none"),
    Strategy.DIGITS: ("ABC < DEF", "the digits strategy " + CANNOT + "it needs equations between sums, products and "
                      "constant powers of words that hold every letter, and no integer unknowns"),
    Strategy.JOIN: ("AB < CD", "the join strategy " + CANNOT + "it needs an equation with a letter, no integer "
                    "unknowns, and all letters distinct or none"),
    # the `?` need not differ from the letters: only some letters must differ
    Strategy.CUBES: ("AB + ?C = DE", "the cubes strategy " + CANNOT + "it has integer unknowns, terms whose negation "
                     "would need a quantifier, or letters of which only some must differ"),
    Strategy.EXHAUSTIVE: ("A + x = 3, x >= 0", "the exhaustive strategy " + CANNOT + "integer unknowns that the "
                          "formula does not bound (such as 0 <= x <= 9) have no finite set of values to try"),
}

# a puzzle each backend takes; those whose test is making them hand themselves over, made
TAKEN = {
    Strategy.Z3: ("SEND + MORE = MONEY", None),
    Strategy.LINEAR: ("SEND + MORE = MONEY", LinearSearch),
    Strategy.DIGITS: ("ODD * ODD = FREAKY", DigitSearch),
    Strategy.JOIN: ("AB * CD = EF * GH", JoinSearch),
    Strategy.CUBES: ("ABC < DEF", None),
    Strategy.EXHAUSTIVE: ("A + x = 3, 0 <= x <= 3", None),
}


def fit_of(strategy: Strategy, formula: str) -> Fit:
    """The backend's answer, asked with the means of a search of the puzzle."""
    problem = smtcrypt.Puzzle(formula).problem
    return BACKENDS[strategy]().fit(problem, Portfolio(problem).means)


def no_context():
    raise AssertionError("this fit test makes no Z3 context")


def test_the_table_holds_a_backend_for_every_strategy_but_auto():
    assert list(BACKENDS) == [strategy for strategy in Strategy if strategy is not Strategy.AUTO]
    for strategy, load in BACKENDS.items():
        backend = load()
        assert issubclass(backend, Backend) and backend.name == strategy.value
    assert set(REFUSED) == set(TAKEN) == set(BACKENDS)


@pytest.mark.parametrize("strategy", list(REFUSED), ids=[strategy.value for strategy in REFUSED])
def test_a_backend_refuses_with_its_reason_and_the_forced_strategy_says_it_word_for_word(strategy):
    formula, said = REFUSED[strategy]
    fit = fit_of(strategy, formula)
    assert not fit.ok and fit.reason and fit.made is None
    assert fit.refusal(strategy.value) == said
    problem = smtcrypt.Puzzle(formula).problem
    with pytest.raises(StrategyError) as refused:
        Portfolio(problem, strategy=strategy)
    assert str(refused.value) == said
    with pytest.raises(StrategyError) as refused:  # through the public door too
        smtcrypt.Puzzle(formula).search(strategy=strategy.value)
    assert str(refused.value) == said


@pytest.mark.parametrize("strategy", [Strategy.CUBES, Strategy.LINEAR])
def test_backends_without_room_for_integer_unknowns_say_so_and_where_to_go(strategy):
    """The refusal is the backend's own, the same through the portfolio and the public door: no check
    before the portfolio words it otherwise."""
    formula = "A + x = 3"  # bounded, the search would write x in digits (search/unknowns.py) for every backend
    fit = fit_of(strategy, formula)
    assert not fit.ok and "integer unknowns" in fit.reason and "z3 the others" in fit.instead
    with pytest.raises(StrategyError) as refused:
        smtcrypt.Puzzle(formula).search(strategy=strategy.value)
    assert str(refused.value) == fit.refusal(strategy.value)


@pytest.mark.parametrize("strategy", list(TAKEN), ids=[strategy.value for strategy in TAKEN])
def test_a_backend_takes_a_puzzle_it_fits(strategy):
    formula, made = TAKEN[strategy]
    fit = fit_of(strategy, formula)
    assert fit.ok and not fit.reason
    if made is not None:
        assert isinstance(fit.made, made)
    search = smtcrypt.Puzzle(formula).search(strategy=strategy.value, keep=False)
    assert list(search) == [] and search.verdict().complete and search.verdict().stats.strategy == strategy.value


def test_auto_refuses_only_what_no_backend_takes_in_their_words():
    formula = "2 ** ABC = x, x > 0"  # too large a power for Z3, an unbounded unknown for every assignment
    problem, means = smtcrypt.Puzzle(formula).problem, Means(compiled=lambda: None, context=no_context)
    z3 = BACKENDS[Strategy.Z3]().fit(problem, means)
    assert not z3.ok and not BACKENDS[Strategy.EXHAUSTIVE]().fit(problem, means).ok
    with pytest.raises(StrategyError) as refused:
        smtcrypt.Puzzle(formula).count()
    assert str(refused.value).startswith(f"no strategy can search this puzzle: {z3.reason}, and integer unknowns")
    # a power too large for Z3 that the compiled formula computes: auto searches it
    assert smtcrypt.Puzzle(LARGE_POWER).verdict().status is smtcrypt.Status.UNIQUE


def test_the_formula_is_compiled_once_for_the_backends_that_share_it():
    problem = smtcrypt.Puzzle("SEND + MORE = MONEY, M > 0").problem
    portfolio = Portfolio(problem, strategy="linear")  # the linear backend checks `M > 0` with the compiled formula
    compiled = portfolio.means.compiled()
    assert compiled is not None and compiled is portfolio.means.compiled()
    assert portfolio.fits[Strategy.LINEAR].made.compiled is compiled
    assert Fit.refused("it needs X", "Y takes it").refusal("some") == "the some strategy cannot search this puzzle: " \
                                                                      "it needs X; Y takes it"


# The classic puzzle whose letters are worth 1 to 26: twenty sums of letters, one combined equation for
# the sum search, which cuts it too late (a hundred million nodes); the digit search, sum by sum, at once
LETTER_VALUES = ["B + A + L + L + E + T = 45", "C + E + L + L + O = 43", "C + O + N + C + E + R + T = 74",
                 "F + L + U + T + E = 30", "F + U + G + U + E = 50", "G + L + E + E = 66", "J + A + Z + Z = 58",
                 "L + Y + R + E = 47", "O + B + O + E = 53", "O + P + E + R + A = 65", "P + O + L + K + A = 59",
                 "Q + U + A + R + T + E + T = 50", "S + A + X + O + P + H + O + N + E = 134", "S + C + A + L + E = 51",
                 "S + O + L + O = 37", "S + O + N + G = 61", "S + O + P + R + A + N + O = 82",
                 "T + H + E + M + E = 72", "V + I + O + L + I + N = 100", "W + A + L + T + Z = 34"]


def test_a_system_of_sums_the_sum_search_would_take_ages_on_goes_to_the_digit_search():
    search = smtcrypt.Puzzle(LETTER_VALUES, base=27, digits="1-26").search(decide=True)
    solutions = list(search)
    verdict = search.verdict()
    assert verdict.status is smtcrypt.Status.UNIQUE and verdict.complete
    assert verdict.stats.strategy == "digits"
    value = solutions[0].mapping
    assert len(set(value.values())) == len(value) == 25 and set(value.values()) <= set(range(1, 27))
    for equation in LETTER_VALUES:  # each sum of letters as stated
        letters, total = equation.split(" = ")
        assert sum(value[letter] for letter in letters.split(" + ")) == int(total)


def test_a_sum_search_taken_back_from_the_solver_loses_and_repeats_nothing(monkeypatch):
    from smtcrypt.engine import prices

    # the sum search judged after a few nodes and always found slow, the share of the search taking over
    # (the solver for one sum, the digit search for a system) over before it starts or soon after: the
    # sum search starts again and must skip what the other reported
    monkeypatch.setattr(prices, "LINEAR_FIRST", 1024)
    monkeypatch.setattr(prices, "Z3_PER_MODEL", dict.fromkeys(prices.Z3_PER_MODEL, 0.0))
    for share in (-1.0, 0.05):
        monkeypatch.setattr(prices, "Z3_AT_LEAST", share)
        for formula, rules in [("ABC + DEF = GHI", {}),
                               ("A + B + C + D + E + F + G + H = 30, A + 2 * B = C", {"base": 16})]:
            puzzle = smtcrypt.Puzzle(formula, **rules)
            search = puzzle.search()
            found = [tuple(sorted(solution.mapping.items())) for solution in search]
            verdict = search.verdict()
            assert verdict.complete and verdict.stats.strategy.startswith(("linear -> cubes", "linear -> digits"))
            expected = {tuple(sorted(solution.mapping.items())) for solution in puzzle.search(strategy="linear")}
            assert len(found) == len(set(found)) and set(found) == expected


def test_a_long_digit_search_handed_to_the_solver_loses_and_repeats_nothing(monkeypatch):
    from smtcrypt.engine import digits, prices

    # every digit search estimated long and judged after a few steps, always found slow: the solver takes
    # over for a share over before it starts or soon after, then the digit search starts again and must
    # skip what the solver reported, listing or counting (bulk counting after the switch passes over them)
    monkeypatch.setattr(prices, "DIGITS_LONG", 0)
    monkeypatch.setattr(prices, "DIGITS_FIRST", 64)
    monkeypatch.setattr(prices, "Z3_PER_MODEL", dict.fromkeys(prices.Z3_PER_MODEL, 0.0))
    monkeypatch.setattr(digits, "YIELDED_WHEN_COUNTING", 5)  # a count lists 5, then counts in bulk
    for share in (-1.0, 0.05, 0.2):
        monkeypatch.setattr(prices, "Z3_AT_LEAST", share)
        for formula in ("AB * CD = EFG", "A * BC = DEF and 2 <= m <= 4 and m * A = G"):
            puzzle = smtcrypt.Puzzle(formula)
            expected = {tuple(sorted(solution.mapping.items())) for solution in puzzle.search(strategy="digits")}
            search = puzzle.search(executor=Executor.PLAIN)  # judged between slices: the plain walk's are short
            found = [tuple(sorted(solution.mapping.items())) for solution in search]
            verdict = search.verdict()
            assert verdict.complete and verdict.stats.strategy.startswith("digits -> z3")
            assert len(found) == len(set(found)) and set(found) == expected
            assert puzzle.search(executor=Executor.PLAIN, keep=False).verdict().count == len(expected)


class PermutationSearch(Backend):
    """A backend as a newcomer would write one, in its own module: every assignment of digits to
    at most six letters, each tried by the exact evaluation. Its solutions are its own evaluation's."""

    name = "permutations"
    exact = True

    def __init__(self, problem: Problem):
        self.problem = problem
        self.tried = 0

    @classmethod
    def fit(cls, problem: Problem, means: Means) -> Fit:
        if problem.unknowns or len(problem.letters) > 6:
            return Fit.refused("it tries every assignment of at most six letters", "auto takes the others")
        return Fit.taken(cls(problem))

    def statistics(self, stats: Statistics) -> None:
        stats.counters = {**stats.counters, "permutations_tried": self.tried}

    def batches(self) -> Iterator[list[Assignment]]:
        letters = sorted(self.problem.letters)
        digits = sorted(set().union(*self.problem.allowed.values()))
        tuples = (itertools.permutations(digits, len(letters)) if self.problem.distinctness == "all"
                  else itertools.product(digits, repeat=len(letters)))
        for values in tuples:
            if self._stopping():
                return
            self.tried += 1
            assignment = dict(zip(letters, values))
            if satisfies(self.problem, assignment):
                yield [assignment]
        self.end = SearchEnd(Ending.COMPLETE, proof=Proof.EXHAUSTIVE)


def test_a_new_backend_is_one_module_and_one_row(monkeypatch):
    monkeypatch.setattr(portfolio, "BACKENDS", MappingProxyType({**BACKENDS, "permutations": lambda: PermutationSearch}))
    for formula, letters in [("AB + BA = CC", 3), ("A * B = CD", 4), ("AB < BA", 2)]:
        search = smtcrypt.Puzzle(formula).search(strategy="permutations")
        found = {tuple(sorted(solution.mapping.items())) for solution in search}
        verdict = search.verdict()
        assert found == brute_force(formula) and found, formula
        assert verdict.stats.strategy == "permutations" and verdict.proof is Proof.EXHAUSTIVE
        digits = set().union(*search.problem.allowed.values())
        assert verdict.stats.counters == {"permutations_tried": math.perm(len(digits), letters)}  # its own, merged
    with pytest.raises(StrategyError) as refused:
        smtcrypt.Puzzle("SEND + MORE = MONEY").search(strategy="permutations")
    assert str(refused.value) == ("the permutations strategy cannot search this puzzle: it tries every assignment "
                                  "of at most six letters; auto takes the others")
    with pytest.raises(StrategyError) as unknown:
        smtcrypt.Puzzle("A + B = C").search(strategy="nonesuch")
    assert "permutations" in str(unknown.value)
