"""The portfolio's one table of backends, and each backend's own answer to whether it takes a
problem: every backend in the table refuses a puzzle it cannot search with a reason a user reads,
and a strategy forced on that puzzle is refused in the backend's own words, word for word (the
docs show them); the puzzles each takes, it takes."""

from __future__ import annotations

import pytest

import smtcrypt
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.engine.base import Backend, Fit, Means, Strategy
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
    formula = "A + x = 3, 0 <= x <= 3"
    fit = fit_of(strategy, formula)
    assert not fit.ok and "integer unknowns" in fit.reason and "z3 and exhaustive" in fit.instead
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
    assert list(search) == [] and search.verdict().complete and search.verdict().stats["strategy"] == strategy.value


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
