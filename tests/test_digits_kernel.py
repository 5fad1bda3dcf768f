"""The digit plan's one walk (smtcrypt/engine/digits/kernel.py), as plain Python and as numba compiles
it, against the independent brute force (tests/reference.py), on test_digits' products (the fixed
examples and the drawn ones) and benchmarks/products.tsv: both speeds take the same steps and find
the same solutions in the same order. And where the engine runs each."""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from reference import brute_force
from test_digits import EXAMPLES, SLOW_SPACE, UNSHRUNK, Case, each_example, product_cases, wildcard_cells

import smtcrypt
from smtcrypt.engine import Executor
from smtcrypt.engine.digits import DigitPlan, DigitSearch, digit_plan
from smtcrypt.engine.digits import kernel as kernel_module
from smtcrypt.engine.digits.kernel import COUNT, HOLDS, HOST, RANGE, STEP, STEPS, TAKEN, Machine, encode, load, scan
from smtcrypt.engine.digits.plan import RangeCut

NUMBA = importlib.util.find_spec("numba") is not None
PRODUCTS = Path(__file__).resolve().parent.parent / "benchmarks" / "products.tsv"


def run(machine: Machine, compiled: Callable[[], Callable[..., int]] | None = None,
        plain_steps: int = 0) -> tuple[list[tuple[int, ...]], int]:
    """The walk's solutions (digits, letters alphabetically) in the order found, and its steps: compiled
    past `plain_steps`, where `compiled` is given."""
    hits: list[tuple[int, ...]] = []
    steps = scan(machine, compiled, lambda machine, memory: memory[TAKEN] >= plain_steps)(hits)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return hits, end.value


def both_speeds(plan: DigitPlan) -> tuple[list[tuple[int, ...]], int]:
    """The plain walk's solutions and steps, asserted to be the compiled walk's (where numba is installed
    and int64 holds the plan), and those of the plain walk handed over to the compiled one midway."""
    plain = run(plan.machine)
    if NUMBA and plan.machine.int64:
        assert run(plan.machine, load) == plain, "the compiled walk differs from the plain one"
        assert run(plan.machine, load, max(1, plain[1] // 2)) == plain, "the walk handed over midway differs"
    return plain


def check_kernel(case: Case) -> None:
    """The walk's solutions, plain and compiled, are the brute force's, each once."""
    problem = smtcrypt.Puzzle(case.text, **case.rules).problem
    plan = digit_plan(problem)
    assert plan is not None, f"no digit plan for {case}"
    rename = dict(zip(problem.wildcards, wildcard_cells(case.text)))
    hits, _ = both_speeds(plan)
    found = [tuple(sorted((rename.get(name, name), digit) for name, digit in zip(plan.letters, digits)))
             for digits in hits]
    assert len(set(found)) == len(found), f"the walk repeated a solution of {case}"
    expected = brute_force(case.text, **case.rules)
    assert set(found) == expected, (f"the walk differs from brute force on {case}: missing "
                                    f"{sorted(expected - set(found))}, wrong {sorted(set(found) - expected)}")


@pytest.mark.parametrize("case", EXAMPLES, ids=lambda case: case.text)
def test_the_examples_match_brute_force(case):
    check_kernel(case)


@settings(max_examples=50, deadline=None, derandomize=True, phases=UNSHRUNK,
          suppress_health_check=[HealthCheck.too_slow])
@given(product_cases())
def test_random_products_match_brute_force(case):
    check_kernel(case)


@settings(max_examples=25, deadline=None, derandomize=True, phases=UNSHRUNK,
          suppress_health_check=[HealthCheck.too_slow])
@given(product_cases(truth_values=True))
def test_random_products_with_checks_for_the_host_match_brute_force(case):
    check_kernel(case)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_cases(most=SLOW_SPACE, letters=7))
@each_example(EXAMPLES)
def test_random_products_match_brute_force_many(case):
    check_kernel(case)


@pytest.mark.skipif(not NUMBA, reason="numba is not installed")
@pytest.mark.parametrize("every", [pytest.param(40, id="every fortieth"),
                                   pytest.param(10, id="every tenth", marks=pytest.mark.slow)])
def test_the_products_corpus_takes_the_same_steps_at_both_speeds(every):
    """The benchmark's products (a sample: the plain walk takes seconds on some), plain and compiled:
    the same steps, the same solutions, as many as the corpus records."""
    rows = [line.rstrip("\n").split("\t") for line in PRODUCTS.read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    for text, _, count in rows[::every]:
        plan = digit_plan(smtcrypt.Puzzle(text).problem)
        assert plan is not None and plan.machine.int64, text
        hits, _ = both_speeds(plan)
        assert len(hits) == int(count), text


def test_a_search_stopped_and_gone_on_finds_the_same(monkeypatch):
    """Stopped every few steps (the budget) and whenever two solutions fill its buffer, the walk
    goes on from its state: the same solutions, in the same order, in the same steps."""
    problem = smtcrypt.Puzzle("AB * CD = 1000 + EF").problem
    plan = digit_plan(problem)
    assert plan is not None
    whole = run(plan.machine)
    monkeypatch.setattr(kernel_module, "BUDGET", 7)
    monkeypatch.setattr(kernel_module, "PLAIN_BUDGET", 5)  # handed over midway: at a multiple of 5
    monkeypatch.setattr(kernel_module, "CAPACITY", 2)
    small = digit_plan(problem)
    assert small is not None
    assert both_speeds(small) == whole
    assert len(whole[0]) == 24


def test_what_int64_cannot_hold_runs_plain_and_the_rest_compiled():
    """A column's modulus past 3 * 10**9 or values past 2**62 are the plain walk's alone; a quotient
    (checked by the host) and distinct groups are both walks'."""
    for text, rules, int64 in [("ABCDEFGHIJ * A = KLMNOPQRSTU", {"distinct": False}, False),
                               ("ABCDEFGHIJ ** 2 = KLMNOPQRSTUVWXYZ ** 2 + 1", {"distinct": False}, False),
                               ("NORTH / SOUTH = EAST / WEST", {}, True),
                               ("AB * CD = EF * GH", {"distinct": ["AB", "CD"]}, True)]:
        plan = digit_plan(smtcrypt.Puzzle(text, **rules).problem)
        assert plan is not None
        assert plan.machine.int64 is int64, text
        search = DigitSearch(plan, executor=Executor.COMPILED)
        assert search.plan.compiled(Executor.COMPILED) is (int64 and NUMBA)


@pytest.mark.parametrize("text, rules", [pytest.param("NORTH / SOUTH = EAST / WEST", {}, marks=pytest.mark.slow),
                                         ("AB / C = DE / F", {}),
                                         ("AB * C = DA, DA / C > B", {"distinct": ["AB", "CD"], "digits": range(1, 7)}),
                                         ("AB * C = DEA, AB / C > D", {"base": 12, "digits": range(1, 10)})])
def test_constraints_the_host_checks_stop_the_walk_and_agree(text, rules):
    """A quotient is checked by the host (the compiled formula) where the walk stops for it; each walk
    lists what the brute force finds."""
    plan = digit_plan(smtcrypt.Puzzle(text, **rules).problem)
    assert plan is not None
    table = plan.machine.table
    kinds = [(table[table[STEPS] + row * STEP], table[table[STEPS] + row * STEP + 3]) for row in range(table[COUNT])]
    assert (HOLDS, HOST) in kinds and plan.machine.checks
    hits, _ = both_speeds(plan)
    assert {tuple(sorted(zip(plan.letters, digits))) for digits in hits} == brute_force(text, **rules)


def test_a_range_cut_cuts_only_what_cannot_meet():
    """Without its range cuts the walk takes more steps, and finds the same solutions."""
    problem = smtcrypt.Puzzle("AB * CD = 1000 + EF").problem
    plan = digit_plan(problem)
    assert plan is not None
    table = plan.machine.table
    assert any(table[table[STEPS] + row * STEP] == RANGE for row in range(table[COUNT]))
    uncut = encode(problem, [step for step in plan.steps if not isinstance(step, RangeCut)])
    with_cuts, without = run(plan.machine), run(uncut)
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
    table = list(plan.machine.table)
    pairs = [at for at in range(table[STEPS] + 5, table[STEPS] + table[COUNT] * STEP, STEP) if table[at] >= 0]
    assert pairs
    for at in pairs:
        table[at] = -1
    unpaired = dataclasses.replace(plan.machine, table=table, _arrays=None)
    paired, evaluated = both_speeds(plan), run(unpaired)
    assert paired[0] == evaluated[0] and paired[0]
    assert paired[1] < evaluated[1]  # AB * CD = 1000 + EF: 1,168 steps against 1,822
    if NUMBA:
        assert run(unpaired, load) == evaluated


@pytest.mark.parametrize("text, rules, count", [("ODD + ODD = EVEN", {}, 2), ("ABC * D = EFGC", {}, 74),
                                                ("AB * CD = 1000 + EF", {}, 24),
                                                ("-AB * C + 7 = -DE", {"distinct": False, "base": 5}, 32)])
@pytest.mark.parametrize("executor", list(Executor))
def test_the_engine_runs_the_walk_its_executor_says(text, rules, count, executor):
    """PLAIN walks plain; COMPILED compiled, where numba is installed; AUTO plain, handing over to the
    compiled walk only past `PLAIN_STEPS` steps. Each counts and lists what the brute force finds."""
    problem = smtcrypt.Puzzle(text, **rules).problem
    plan = digit_plan(problem)
    assert plan is not None
    search = DigitSearch(plan, executor=executor)
    found = [assignment for batch in search.batches() for assignment in batch]
    compiled = executor is Executor.COMPILED and NUMBA
    assert search.ran == (["compiled"] if compiled else ["plain"]) and search.end is not None and search.end.complete
    assert {tuple(sorted(assignment.items())) for assignment in found} == brute_force(text, **rules)
    assert len(found) == count
    assert smtcrypt.Puzzle(text, **rules).count(strategy="digits", executor=executor) == count


@pytest.mark.skipif(not NUMBA, reason="numba is not installed")
@pytest.mark.parametrize("text, ran", [("THETA * XI = ETA * NU * PHI", ["compiled"]),
                                       ("AYH**2 + BEE**2 = SEE**2", ["plain", "compiled"]),
                                       ("NAUGHT ** 2 = ZERO ** 3", ["plain"])])
def test_auto_walks_compiled_what_it_estimates_or_projects_large(text, ran):
    """THETA * XI = ETA * NU * PHI (84,505 steps) is estimated large; AYH**2 + BEE**2 = SEE**2 (2,629)
    starts plain and goes on compiled once projected large; NAUGHT ** 2 = ZERO ** 3 (812) ends plain.
    Each takes the steps and finds the solutions of the compiled walk alone."""
    problem = smtcrypt.Puzzle(text).problem
    counted = {}
    for executor in (Executor.AUTO, Executor.COMPILED):
        search = DigitSearch(digit_plan(problem), executor=executor)
        counted[executor] = [assignment for batch in search.batches() for assignment in batch], search.nodes
        assert search.ran == (ran if executor is Executor.AUTO else ["compiled"])
    assert counted[Executor.AUTO] == counted[Executor.COMPILED] and counted[Executor.AUTO][0]
