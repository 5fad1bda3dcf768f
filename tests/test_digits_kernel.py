"""The digit search's kernel (smtcrypt/engine/digits/kernel.py), as plain Python and as numba compiles
it, against the independent brute force (tests/reference.py), on test_digits' products: the fixed
examples and the drawn ones. And where the engine runs it: once loaded, before the arrays."""

from __future__ import annotations

import dataclasses
import importlib.util
import math
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from reference import brute_force
from test_digits import EXAMPLES, SLOW_SPACE, UNSHRUNK, Case, each_example, product_cases, wildcard_cells

import smtcrypt
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Unary, Word, walk
from smtcrypt.engine import Executor, digits
from smtcrypt.engine.digits import DigitSearch, digit_plan
from smtcrypt.engine.digits import kernel as kernel_module
from smtcrypt.engine.digits.kernel import RANGE, KernelPlan, NotKernel, kernel_plan, kernel_scan, search_plan
from smtcrypt.engine.digits.plan import Holds, Step

NUMBA = importlib.util.find_spec("numba") is not None


def run(plan: KernelPlan, search: Callable[..., int]) -> tuple[list[tuple[int, ...]], int]:
    """The kernel's solutions (digits, letters alphabetically) in the order found, and its steps."""
    hits: list[tuple[int, ...]] = []
    steps = kernel_scan(plan, search)(hits)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return hits, end.value


def compiled_search() -> Callable[..., int]:
    return kernel_module.load()


def check_kernel(case: Case) -> None:
    """The kernel's solutions, plain and compiled, are the brute force's, each once; a plan it does
    not take is one of the kinds the module names."""
    problem = smtcrypt.Puzzle(case.text, **case.rules).problem
    plan = digit_plan(problem)
    assert plan is not None, f"no digit plan for {case}"
    try:
        encoded = kernel_plan(problem, plan.steps)
    except NotKernel as refused:
        assert refused_rightly(str(refused), problem, plan.steps), f"the kernel refused {case}: {refused}"
        return
    rename = dict(zip(problem.wildcards, wildcard_cells(case.text)))
    expected = brute_force(case.text, **case.rules)
    for way, search in [("plain", search_plan), *([("compiled", compiled_search())] if NUMBA else [])]:
        hits, _ = run(encoded, search)
        found = [tuple(sorted((rename.get(name, name), digit) for name, digit in zip(plan.letters, digits)))
                 for digits in hits]
        assert len(set(found)) == len(found), f"the {way} kernel repeated a solution of {case}"
        assert set(found) == expected, (f"the {way} kernel differs from brute force on {case}: missing "
                                        f"{sorted(expected - set(found))}, wrong {sorted(set(found) - expected)}")


def bound(node: Expr, base: int) -> float:
    """A bound on the value of words, integers, + - * and integer powers; infinite for anything else."""
    if isinstance(node, Word):
        return base ** len(node.letters)
    if isinstance(node, Number) and node.value.denominator == 1:
        return abs(node.value) + 1
    if isinstance(node, Unary) and node.op == "-":
        return bound(node.operand, base)
    if isinstance(node, BinOp) and node.op in ("+", "-"):
        return bound(node.left, base) + bound(node.right, base)
    if isinstance(node, BinOp) and node.op == "*":
        return bound(node.left, base) * bound(node.right, base)
    if isinstance(node, BinOp) and node.op == "**" and isinstance(node.right, Number):
        return bound(node.left, base) ** int(node.right.value) if node.right.value.denominator == 1 else math.inf
    return math.inf


def refused_rightly(reason: str, problem: Problem, steps: list[Step]) -> bool:
    """Whether the plan has what the kernel says it refused it for."""
    checked = [step.constraint for step in steps if isinstance(step, Holds)]
    if reason.startswith("distinct groups"):
        return problem.distinctness == "some"
    if reason == "a constraint other than one comparison":
        return any(not (isinstance(constraint, Compare) and len(constraint.ops) == 1
                        and constraint.ops[0] in ("==", "!=", "<", "<=", ">", ">=")) for constraint in checked)
    if reason == "values past 2**62, or not a polynomial":  # a quotient, as A / B = C, checked as written
        return any(bound(side, problem.rules.base) >= 2 ** 62 for constraint in checked
                   if isinstance(constraint, Compare) for side in constraint.operands)
    if reason == "a constant past int64, or not an integer":
        return any(isinstance(node, Number) and (node.value.denominator != 1 or abs(node.value) >= 2 ** 62)
                   for constraint in checked for node in walk(constraint))
    return False


@pytest.mark.parametrize("case", EXAMPLES, ids=lambda case: case.text)
def test_the_examples_match_brute_force(case):
    check_kernel(case)


@settings(max_examples=50, deadline=None, derandomize=True, phases=UNSHRUNK,
          suppress_health_check=[HealthCheck.too_slow])
@given(product_cases())
def test_random_products_match_brute_force(case):
    check_kernel(case)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_cases(most=SLOW_SPACE, letters=7))
@each_example(EXAMPLES)
def test_random_products_match_brute_force_many(case):
    check_kernel(case)


def test_a_search_stopped_and_gone_on_finds_the_same(monkeypatch):
    """Stopped every few steps (the budget) and whenever two solutions fill its buffer, the search
    goes on from its state: the same solutions, in the same order, in the same steps."""
    problem = smtcrypt.Puzzle("AB * CD = 1000 + EF").problem
    plan = digit_plan(problem)
    assert plan is not None
    encoded = kernel_plan(problem, plan.steps)
    whole = run(encoded, search_plan)
    monkeypatch.setattr(kernel_module, "BUDGET", 7)
    monkeypatch.setattr(kernel_module, "CAPACITY", 2)
    assert run(encoded, search_plan) == whole
    assert len(whole[0]) == 24


def test_plans_it_does_not_run_exactly_go_to_the_arrays():
    """A quotient (checked as written, not cross-multiplied), distinct groups, a column's modulus
    past 3 * 10**9 and values past 2**62 are not the kernel's."""
    for text, rules in [("NORTH / SOUTH = EAST / WEST", {}), ("AB * CD = EF * GH", {"distinct": ["AB", "CD"]}),
                        ("ABCDEFGHIJ * A = KLMNOPQRSTU", {"distinct": False}),
                        ("ABCDEFGHIJ ** 2 = KLMNOPQRSTUVWXYZ ** 2 + 1", {"distinct": False})]:
        problem = smtcrypt.Puzzle(text, **rules).problem
        plan = digit_plan(problem)
        assert plan is not None
        with pytest.raises(NotKernel):
            kernel_plan(problem, plan.steps)


def test_a_plan_it_refuses_runs_on_the_arrays_with_the_kernel_loaded(monkeypatch):
    """Distinct groups are not the kernel's: with the compiled executor, the digits backend runs the
    plan on the arrays, and finds what the brute force finds."""
    monkeypatch.setattr(digits, "compiled_search", lambda: search_plan)
    rules = {"distinct": ["AB", "CD"], "digits": range(1, 7)}
    plan = digit_plan(smtcrypt.Puzzle("AB * C = DA", **rules).problem)
    assert plan is not None
    search = DigitSearch(plan, executor=Executor.COMPILED)
    found = {tuple(sorted(assignment.items())) for batch in search.batches() for assignment in batch}
    assert search.ran == ["arrays"] and search.end is not None and search.end.complete
    assert found == brute_force("AB * C = DA", **rules)


def test_a_range_cut_cuts_only_what_cannot_meet():
    """Without its range cuts the kernel takes more steps, and finds the same solutions."""
    problem = smtcrypt.Puzzle("AB * CD = 1000 + EF").problem
    plan = digit_plan(problem)
    assert plan is not None
    encoded = kernel_plan(problem, plan.steps)
    assert (encoded.steps[:, 0] == RANGE).any()
    uncut = dataclasses.replace(encoded, steps=encoded.steps[encoded.steps[:, 0] != RANGE])
    with_cuts, without = run(encoded, search_plan), run(uncut, search_plan)
    assert sorted(with_cuts[0]) == sorted(without[0]) and len(with_cuts[0]) == 24
    assert with_cuts[1] < without[1]  # 1,168 steps against 1,518


@pytest.mark.parametrize("text", ["AB * CD = 1000 + EF", "ODD * ODD = FREAKY", "ABC * DE = FGHC", "TO * GO = OUT"])
def test_a_solve_read_off_its_trys_corners_solves_as_evaluated(text):
    """A Solve after a Try of a letter its congruence is linear in reads its digits off the corners
    the Try wrote, and the Try gives no digit that Solve has nothing for: the same solutions, in the
    same order, as with every Solve evaluated, in fewer steps (a digit refused is no step)."""
    problem = smtcrypt.Puzzle(text).problem
    plan = digit_plan(problem)
    assert plan is not None
    encoded = kernel_plan(problem, plan.steps)
    assert (encoded.steps[:, 5] >= 0).any()
    unpaired = encoded.steps.copy()
    unpaired[:, 5] = -1
    for search in [search_plan, *([compiled_search()] if NUMBA else [])]:
        paired, evaluated = run(encoded, search), run(dataclasses.replace(encoded, steps=unpaired), search)
        assert paired[0] == evaluated[0] and paired[0]
        assert paired[1] < evaluated[1]  # AB * CD = 1000 + EF: 1,168 steps against 1,822


@pytest.mark.parametrize("text, rules, count", [("ODD + ODD = EVEN", {}, 2), ("ABC * D = EFGC", {}, 74),
                                                ("AB * CD = 1000 + EF", {}, 24),
                                                ("-AB * C + 7 = -DE", {"distinct": False, "base": 5}, 32)])
def test_the_engine_runs_it_once_loaded(monkeypatch, text, rules, count):
    """With the compiled executor (here the kernel's plain Python, the compiled one being tested above),
    the digits backend runs the kernel, not the arrays, and counts and lists what the brute force finds."""
    monkeypatch.setattr(digits, "compiled_search", lambda: search_plan)
    problem = smtcrypt.Puzzle(text, **rules).problem
    plan = digit_plan(problem)
    assert plan is not None
    search = DigitSearch(plan, executor=Executor.COMPILED)
    found = [assignment for batch in search.batches() for assignment in batch]
    assert search.ran == ["compiled"] and search.end is not None and search.end.complete
    assert {tuple(sorted(assignment.items())) for assignment in found} == brute_force(text, **rules)
    assert len(found) == count
    assert smtcrypt.Puzzle(text, **rules).count(strategy="digits", executor=Executor.COMPILED) == count
