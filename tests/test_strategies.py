"""The search strategies on fixed formulas: each forced strategy ("auto", "z3", "exhaustive", and
"linear" and "cubes" where they accept a puzzle) finds exactly the solutions of the independent
reference (tests/reference.py), counts them, reports the verdict, and names itself and its proof
in the statistics; the exhaustive strategy refuses integer unknowns."""

from __future__ import annotations

import pytest
from reference import Compiled, brute_force

import smtcrypt
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.engine import Proof
from smtcrypt.engine.portfolio import STRATEGIES

PROOFS = {"z3": Proof.UNSAT, "exhaustive": Proof.EXHAUSTIVE, "linear": Proof.BOUNDED, "join": Proof.EXHAUSTIVE,
          "cubes": Proof.CUBES, "digits": Proof.BOUNDED}
OPTIONAL = {"linear", "join", "cubes", "digits"}  # strategies for some puzzles only: they refuse the others with a StrategyError

# The puzzles of the shared corpus's general.tsv and their solutions under the default rules.
GENERAL = [
    ("gcd(AB, CD) = E", 2042),
    ("ABC % DE = F", 2357),
    ("ABC < DEF", 60480),
    ("max(A, B) - min(C, D) = E + F", 8600),
    ("AB % C + D = E", 1276),
    ("AB * CD = EF * GH", 280),
    ("(A + B) * (C + D) = EF", 1000),
    ("AB / C > DE", 2338),
]

# The same puzzles with a few letters fixed: few enough solutions for a model-by-model search
# (Z3 with blocking clauses takes about 0.1 s a model on gcd, minutes for the full puzzle).
SMALLER = [
    ("gcd(AB, CD) = E", {"assign": {"A": 6, "B": 7, "C": 9, "E": 1}}),
    ("ABC % DE = F", {"assign": {"A": 7, "D": 1, "E": 3}}),
    ("ABC < DEF", {"assign": {"A": 4, "B": 0, "D": 5}}),
    ("max(A, B) - min(C, D) = E + F", {"assign": {"A": 9, "C": 0, "E": 1}}),
    ("AB % C + D = E", {"assign": {"A": 9, "C": 4}}),
    ("AB * CD = EF * GH", {"assign": {"A": 2, "E": 3}}),
    ("(A + B) * (C + D) = EF", {"assign": {"A": 1, "E": 4}}),
    ("AB / C > DE", {"assign": {"A": 9, "C": 2, "D": 1}}),
]


def as_set(solutions) -> set[tuple[tuple[str, int], ...]]:
    return {tuple(sorted(solution.mapping.items())) for solution in solutions}


def search(formula: str, strategy: str, timeout: float | None = None, **rules):
    """The search of `strategy`, or None if it is one that may refuse a puzzle and refuses this one."""
    try:
        return smtcrypt.Puzzle(formula, **rules).search(strategy=strategy, timeout=timeout)
    except StrategyError as error:
        assert strategy in OPTIONAL, f"the {strategy} strategy refused {formula!r}: {error}"
        return None


def check_listing(formula: str, strategy: str, rules: dict, expected: set | None, known: int,
                  timeout: float | None = None) -> None:
    """The strategy lists `known` distinct solutions, each a solution by the reference (so, with the
    known count, exactly the reference's set), counts as many, and decides the verdict."""
    found = search(formula, strategy, timeout, **rules)
    if found is None:
        return
    listed = [tuple(sorted(solution.mapping.items())) for solution in found]
    verdict = found.verdict()
    assert verdict.complete, f"the {strategy} strategy did not finish {formula!r}: {verdict.reason}"
    assert len(listed) == len(set(listed)) == known, (strategy, len(listed), len(set(listed)), known)
    if expected is not None:
        assert set(listed) == expected, strategy
    else:  # too many assignments for the reference here: each listed solution checked by it instead
        compiled = Compiled(formula)
        pools = [set(pool) for pool in compiled.pools()]
        for solution in listed:
            values = dict(solution)
            digits = tuple(values[letter] for letter in compiled.letters)
            assert all(d in pool for d, pool in zip(digits, pools)) and len(set(digits)) == len(digits), solution
            assert compiled.holds(digits), f"the {strategy} strategy's {solution} does not solve {formula!r}"
    used, proof = verdict.stats.strategy, verdict.proof
    if strategy in PROOFS:
        assert (used, proof) == (strategy, PROOFS[strategy])
    else:
        assert set(used.split(" -> ")) <= set(PROOFS) and isinstance(proof, Proof), (used, proof)
    want = {0: smtcrypt.Status.NONE, 1: smtcrypt.Status.UNIQUE}.get(known, smtcrypt.Status.MULTIPLE)
    assert verdict.status is want
    assert smtcrypt.count(formula, strategy=strategy, timeout=timeout, **rules) == known
    decided = smtcrypt.verdict(formula, strategy=strategy, timeout=timeout, **rules)
    assert decided.status is want and len(decided.solutions) == min(known, 2)
    shown = as_set(decided.solutions)
    assert len(shown) == len(decided.solutions) and (expected is None or shown <= expected)


@pytest.mark.parametrize("strategy", ["auto", "exhaustive"])
@pytest.mark.parametrize("formula, known", GENERAL, ids=[formula for formula, _ in GENERAL])
def test_the_general_puzzles_under_the_fast_strategies(formula, known, strategy):
    check_listing(formula, strategy, {}, None, known)


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("formula, rules", SMALLER, ids=[formula for formula, _ in SMALLER])
def test_the_general_puzzles_with_fixed_letters_under_every_strategy(formula, rules, strategy):
    expected = brute_force(formula, **rules)
    assert expected or formula == "gcd(AB, CD) = E"
    check_listing(formula, strategy, rules, expected, len(expected))


MODEL_BY_MODEL = [(formula, known, strategy) for strategy in ("z3", "cubes") for formula, known in GENERAL
                  if not (strategy == "z3" and known > 10_000)]  # 60,480 models one check each: hours


@pytest.mark.slow  # minutes each: ABC % DE = F and gcd(AB, CD) = E take Z3 about 10 minutes
@pytest.mark.parametrize("formula, known, strategy", MODEL_BY_MODEL,
                         ids=[f"{formula}-{strategy}" for formula, _, strategy in MODEL_BY_MODEL])
def test_the_general_puzzles_under_the_model_by_model_strategies(formula, known, strategy):
    check_listing(formula, strategy, {}, None, known)


UNBOUNDED = "A + x = 3, x >= 0"  # x <= 3 follows, but only from the letter's digits: not read as a bound
BOUNDED = "A + x = 3, 0 <= x <= 3"


def test_the_exhaustive_strategy_refuses_unbounded_integer_unknowns_everywhere():
    puzzle = smtcrypt.Puzzle(UNBOUNDED)
    calls = [lambda: puzzle.search(strategy="exhaustive"), lambda: list(puzzle.solve(strategy="exhaustive")),
             lambda: puzzle.count(strategy="exhaustive"), lambda: puzzle.verdict(strategy="exhaustive"),
             lambda: puzzle.first(strategy="exhaustive"), lambda: list(smtcrypt.solve(UNBOUNDED, strategy="exhaustive")),
             lambda: smtcrypt.count(UNBOUNDED, strategy="exhaustive"),
             lambda: smtcrypt.verdict(UNBOUNDED, strategy="exhaustive")]
    for call in calls:
        with pytest.raises(ValueError, match="unknowns that the formula does not bound"):
            call()
    expected = brute_force(UNBOUNDED, unknowns={"x": (0, 3)})
    assert len(expected) == 4
    for strategy in ("auto", "z3"):
        assert as_set(puzzle.solve(strategy=strategy)) == expected
        assert puzzle.count(strategy=strategy) == 4
        assert puzzle.verdict(strategy=strategy).status is smtcrypt.Status.MULTIPLE


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_integer_unknowns_the_formula_bounds_are_searched_by_every_strategy_that_takes_them(strategy):
    """Written in digits of their own (search/unknowns.py), they are searched by every backend: those
    that search letters only (cubes, linear, join, digits) too."""
    puzzle = smtcrypt.Puzzle(BOUNDED)
    expected = brute_force(BOUNDED, unknowns={"x": (0, 3)})
    assert len(expected) == 4
    try:
        assert as_set(puzzle.solve(strategy=strategy)) == expected
    except StrategyError:  # the join backend needs every letter distinct or none, and the cells are apart
        assert strategy == "join"
        return
    assert puzzle.count(strategy=strategy) == 4
    assert puzzle.verdict(strategy=strategy).status is smtcrypt.Status.MULTIPLE
    search = puzzle.search(strategy=strategy)
    assert len(list(search)) == 4
    verdict = search.verdict()
    assert verdict.complete and verdict.count == 4
    assert verdict.stats.search_space == 10 * 4  # the letter's digits times the unknown's values
    if strategy not in ("z3", "cubes"):  # proved by trying, not by unsat
        assert verdict.proof in (Proof.EXHAUSTIVE, Proof.BOUNDED)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_entry_point_takes_the_strategy(strategy):
    formula, rules = "SEND + MORE = MONEY", {"assign": {"S": 9, "M": 1}}
    expected = brute_force(formula, **rules)
    assert len(expected) == 1
    if search(formula, strategy, **rules) is None:
        return
    puzzle = smtcrypt.Puzzle(formula, **rules)
    assert as_set(puzzle.solve(strategy=strategy)) == expected
    assert as_set([puzzle.first(strategy=strategy)]) == expected
    assert puzzle.count(strategy=strategy) == 1
    verdict = puzzle.verdict(strategy=strategy)
    assert verdict.status is smtcrypt.Status.UNIQUE and verdict.complete and as_set(verdict.solutions) == expected
    assert verdict.stats.strategy and verdict.proof
    assert as_set(smtcrypt.solve(formula, strategy=strategy, **rules)) == expected
    assert smtcrypt.count(formula, strategy=strategy, **rules) == 1
    assert smtcrypt.verdict(formula, strategy=strategy, **rules).status is smtcrypt.Status.UNIQUE
    none = smtcrypt.verdict("SEND + MORE = MONEY", strategy=strategy, assign={"S": 8})
    assert none.status is smtcrypt.Status.NONE and none.complete and none.proof


def test_an_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="strategy"):
        smtcrypt.Puzzle("A + B = C").search(strategy="fastest")
    with pytest.raises(ValueError, match="strategy"):
        smtcrypt.count("A + B = C", strategy="")


def test_strategies_are_an_enum_and_names_are_accepted():
    from smtcrypt.engine import Strategy

    assert tuple(strategy.value for strategy in Strategy) == STRATEGIES
    by_name = smtcrypt.Puzzle("SEND + MORE = MONEY").search(strategy="z3").verdict()
    by_enum = smtcrypt.Puzzle("SEND + MORE = MONEY").search(strategy=Strategy.Z3).verdict()
    assert by_name.stats.strategy == by_enum.stats.strategy == "z3"
    assert by_name.proof is by_enum.proof is Proof.UNSAT
    with pytest.raises(StrategyError, match="unknown strategy 'fastest'"):
        smtcrypt.Puzzle("SEND + MORE = MONEY").search(strategy="fastest")
