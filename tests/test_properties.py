"""Property tests: random formulas over every operator, solved by smtcrypt (every encoding that
accepts them) and by the independent brute-force reference in tests/reference.py; the full
solution sets must be equal and the verdict must match (in the every-run test, a formula with
more than 100 solutions has its first 101 models checked; the slow run compares all)."""

from __future__ import annotations

import itertools
import time

import pytest
import z3
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import smtcrypt
from smtcrypt.check import Rules, check
from smtcrypt.encode import choose, encodings
from smtcrypt.encode.fold import fold
from smtcrypt.encode.general import GeneralEncoding
from smtcrypt.parse import parse
from smtcrypt.solver import SPLIT_AFTER_CONFLICTS, ModelSearch

from reference import brute_force

SECONDS = 5.0  # per search; a search that cannot finish in time is not compared
CI_SECONDS, CI_MODELS = 1.0, 100  # the every-run test: per search, and models compared per formula


@st.composite
def formulas(draw) -> tuple[str, bool, bool]:
    distinct = draw(st.booleans())
    allow_leading_zeros = draw(st.booleans())
    pool = "ABCD"[: draw(st.integers(1, 4 if distinct else 3))]  # at most 5,040 candidates
    word = st.text(alphabet=pool, min_size=1, max_size=3)
    letter = st.sampled_from(pool)
    number = st.sampled_from(["0", "1", "2", "3", "7", "10", "0.5", "1.5"])

    def expression(depth: int) -> str:
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            return draw(st.one_of(word, number))
        kind = draw(st.integers(0, 9))
        if kind <= 3:
            op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%"]))
            return f"({expression(depth - 1)} {op} {expression(depth - 1)})"
        if kind == 4:
            return f"-{expression(depth - 1)}"
        if kind == 5:
            exponent = draw(st.sampled_from(["0", "1", "2", "3", "-1", "(1/2)", "0.5", "(2/3)"]))
            return f"{expression(depth - 1)} ** {exponent}"
        if kind == 6:
            return f"{draw(letter)} ** {draw(letter)}"
        if kind == 7:
            name = draw(st.sampled_from(["abs", "min", "max"]))
            args = [expression(depth - 1) for _ in range(1 if name == "abs" else 2)]
            return f"{name}({', '.join(args)})"
        if kind == 8:
            return f"sum(range({draw(word)}))"
        return f"({comparison(depth - 1)})"  # a comparison used as a number (0 or 1)

    def comparison(depth: int) -> str:
        ops = ["=", "==", "!=", "<", "<=", ">", ">="]
        parts = [expression(depth)]
        for _ in range(draw(st.integers(1, 2))):
            parts += [draw(st.sampled_from(ops)), expression(depth)]
        return " ".join(parts)

    def constraint() -> str:
        kind = draw(st.integers(0, 5))
        if kind <= 1:
            return comparison(2)
        if kind == 2:
            return f"{comparison(1)} {draw(st.sampled_from(['and', 'or']))} {comparison(1)}"
        if kind == 3:
            return f"not {comparison(1)}"
        if kind == 4:
            items = ", ".join(expression(1) for _ in range(draw(st.integers(1, 3))))
            return f"{expression(1)} {draw(st.sampled_from(['in', 'not in']))} {{{items}}}"
        return f"({expression(1)} or {expression(1)}) == {expression(1)}"

    text = ", ".join(constraint() for _ in range(draw(st.integers(1, 2))))
    return text, distinct, allow_leading_zeros


def smtcrypt_paths(text: str, distinct: bool, allow_leading_zeros: bool, plain: bool,
                   up_to: int | None = None, seconds: float = SECONDS) -> dict[str, tuple[list, bool]]:
    """The models from every encoding that accepts the problem (and, if asked, from the plain
    reference encoding, whose nonlinear terms can take Z3 many seconds), each with whether the
    search was complete; with `up_to`, at most that many models plus one."""
    problem = check(parse(text), Rules(distinct=distinct, allow_leading_zeros=allow_leading_zeros))
    paths = {encoding.name: (encoding, problem, SPLIT_AFTER_CONFLICTS) for encoding in encodings() if encoding.accepts(problem)}
    if "products" in paths:  # the products search split into cases from the start (see encode/split.py)
        paths["split"] = (paths["products"][0], problem, 0)
    folded = fold(problem)
    if folded is not problem:  # the logic folded by bounds, in the encoding that then accepts it
        paths["folded"] = (choose(folded), folded, SPLIT_AFTER_CONFLICTS)
    if plain:
        paths["plain"] = (GeneralEncoding(tables=False), problem, SPLIT_AFTER_CONFLICTS)
    found = {}
    for name, (encoding, source, split_after) in paths.items():
        search = ModelSearch(encoding.encode(source, z3.Context()), time.monotonic() + seconds, split_after=split_after)
        models = [tuple(sorted(model.items())) for model in itertools.islice(search, None if up_to is None else up_to + 1)]
        complete = search.end is not None and search.end.complete
        if complete or (up_to is not None and len(models) > up_to):
            found[name] = (models, complete)
    return found


def check_against_reference(text: str, distinct: bool, allow_leading_zeros: bool, plain: bool = False,
                            up_to: int | None = None, seconds: float = SECONDS) -> None:
    """Every encoding's solution set equals brute force's. With `up_to`, a formula with more
    solutions than that is checked on its first `up_to` + 1 models only: each a distinct true
    solution (thousands of models cost seconds each; the slow run compares them in full)."""
    try:
        smtcrypt.Puzzle(text, distinct=distinct, allow_leading_zeros=allow_leading_zeros)
    except smtcrypt.FormulaError:
        assume(False)  # the generator made something the checker refuses (a limit): not a sample
    expected = brute_force(text, distinct=distinct, allow_leading_zeros=allow_leading_zeros)
    found = smtcrypt_paths(text, distinct, allow_leading_zeros, plain, up_to, seconds)
    assume(found)
    for name, (models, complete) in found.items():
        if complete:
            assert len(set(models)) == len(models) and set(models) == expected, f"{name} differs from brute force on {text!r}"
        else:
            assert len(expected) > up_to, f"{name} found more solutions than brute force on {text!r}"
            assert len(set(models)) == len(models) and set(models) <= expected, f"{name} found a wrong solution of {text!r}"
    verdict = smtcrypt.verdict(text, distinct=distinct, allow_leading_zeros=allow_leading_zeros, timeout=seconds)
    if verdict.status is not smtcrypt.Status.UNKNOWN:
        want = {0: "none", 1: "unique"}.get(len(expected), "multiple")
        assert verdict.status.value == want
        assert {tuple(sorted(s.mapping.items())) for s in verdict.solutions} <= expected


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(formulas())
@example(("A ** B = A", True, False))
@example(("(A or B) == AB // 0", False, True))
@example(("A in {1/0, A}", False, False))
def test_random_formulas_match_brute_force(case):
    check_against_reference(*case, up_to=CI_MODELS, seconds=CI_SECONDS)


@pytest.mark.slow
@settings(max_examples=10_000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(formulas())
def test_random_formulas_match_brute_force_many(case):
    check_against_reference(*case)


@pytest.mark.slow
@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(formulas())
def test_random_formulas_match_brute_force_and_the_plain_encoding(case):
    check_against_reference(*case, plain=True)  # the plain encoding needs seconds per nonlinear formula
