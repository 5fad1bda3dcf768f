"""The digits backend (smtcrypt/engine/digits/) against the independent brute force of
tests/reference.py: random product equations under random rules, listed, counted and proved
complete by the column search (`strategy="digits"`), by `auto`, and by the plan run each way the
backend has (the generated loops, the numpy arrays); then fixed puzzles, quotients, values past
int64, layouts against Z3, conjuncts that compute with truth values, the problems the backend must
refuse, and the code it generates."""

from __future__ import annotations

import io
import keyword
import math
import time
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from reference import Compiled, brute_force, is_solution

import smtcrypt
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.engine import Executor, Proof
from smtcrypt.engine.compiled_runtime import HELPERS
from smtcrypt.engine.digits import DigitSearch, digit_plan

SECONDS = 60.0  # per search: far beyond what these puzzles need; a search that runs out fails
FAST_SPACE = 10_000  # the default suite's property test: at most this many assignments for the brute force
SLOW_SPACE = 200_000  # the slow run's
BASES = (10, 10, 10, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16)
ALPHABET = "ABCDEFGH"  # a small alphabet, so that letters repeat across words
UNSHRUNK = (Phase.explicit, Phase.reuse, Phase.generate)  # the default suite's property tests: no shrinking
LAYOUTS = Path(__file__).resolve().parent.parent / "examples" / "layouts"

Solutions = set[tuple[tuple[str, int], ...]]



def each_example(cases: list) -> Any:
    """hypothesis' @example once for each of the cases."""
    def decorate(test: Any) -> Any:
        for case in reversed(cases):
            test = example(case)(test)
        return test
    return decorate

@dataclass(frozen=True)
class Case:
    """A formula with the keywords of `smtcrypt.Puzzle` (and of the reference's `brute_force`)."""

    text: str
    rules: dict = field(default_factory=dict)


def brute_force_cost(compiled: Compiled, rules: dict) -> int:
    """Assignments the reference tries: every tuple of the letters' pools, or, where every named
    letter differs and there are no wildcards, at most the permutations of the digits they may take."""
    pools = compiled.pools(rules.get("allow_leading_zeros", False), rules.get("digits"), rules.get("domains"),
                           rules.get("assign"))
    product = math.prod(len(pool) for pool in pools)
    if rules.get("distinct", True) is True and not compiled.wildcards:
        digits = set().union(*pools)
        return min(product, math.perm(len(digits), len(pools)))
    return product


@st.composite
def product_cases(draw: st.DrawFn, most: int = FAST_SPACE, letters: int = 5, truth_values: bool = False) -> Case:
    """An equation whose left side multiplies words (`AB * C * D`, `(A + B) * CD`, `AB ** 2`,
    `3 * ABC`, `?A * B?`), its right side a word, a product or a sum of them, with integer
    constants, minus signs and shifts by the base, now and then the left side divided by a word;
    now and then conjuncts (`A < B`, `AB / C > D`,
    a second equation; with `truth_values`, also conjuncts that compute with comparisons' and
    `and`/`or`'s values, and repeating decimals of letters) and random rules, the digits cut until
    the brute force is cheap.

    Random products seldom meet, so most equations are made to hold for digits drawn first (the
    right side given the constant that makes up the difference, `... + 1234`), and the rules drawn
    keep those digits where they can: most cases then have solutions to compare, not only none."""
    base = draw(st.sampled_from(BASES))
    mode = draw(st.sampled_from(["all", "all", "none", "groups"]))  # which letters must differ
    allow_leading_zeros = draw(st.booleans())
    size = draw(st.integers(min(3, base), min(letters, base) if mode != "none" else letters))
    pool = "".join(sorted(draw(st.lists(st.sampled_from(ALPHABET), min_size=size, max_size=size, unique=True))))
    literal = "0123456789"[: min(base, 10)]
    unused = list(pool)  # letters of the pool no word has yet: the next words take them first

    def word() -> str:
        cells = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
        if draw(st.booleans()) and unused:
            cells[draw(st.integers(0, len(cells) - 1))] = unused[0]
        for letter in cells:
            if letter in unused:
                unused.remove(letter)
        if draw(st.integers(0, 6)) == 0:  # a literal digit in the word
            cells.insert(draw(st.integers(0, len(cells))), draw(st.sampled_from(literal)))
        if draw(st.integers(0, 5)) == 0:  # a wildcard, in place of a cell or added
            at = draw(st.integers(0, len(cells)))
            cells[at:at + draw(st.integers(0, 1))] = ["?"]
        return "".join(cells)

    def constant() -> str:
        return draw(st.sampled_from(["1", "2", "3", "7", str(base), str(base * base)]))

    def factor() -> str:
        kind = draw(st.integers(0, 9))
        if kind <= 5:
            return word()
        if kind == 6:
            return f"({word()} {draw(st.sampled_from(['+', '-']))} {word()})"
        if kind == 7:
            return f"{word()} ** {draw(st.sampled_from(['0', '1', '2', '2', '3']))}"
        if kind == 8:
            return f"({word()} + {constant()})"
        return constant()

    def product(lettered: int) -> str:
        """At least `lettered` factors with letters, and maybe more factors of any kind."""
        factors = [word() for _ in range(lettered)] + [factor() for _ in range(draw(st.integers(0, 2)))]
        factors = draw(st.permutations(factors))
        return ("-" if draw(st.integers(0, 7)) == 0 else "") + " * ".join(factors)

    def side(lettered: int) -> str:
        text = product(lettered) if lettered else word()
        for _ in range(draw(st.integers(0, 1))):
            kind = draw(st.integers(0, 2))
            term = constant() if kind == 0 else word() if kind == 1 else product(2)
            text += f" {draw(st.sampled_from(['+', '-']))} {term}"
        return text

    left = side(draw(st.integers(2, 3)))
    right = side(draw(st.sampled_from([0, 0, 1, 2])))
    divisor = word() if draw(st.integers(0, 4)) == 0 else None  # `(LEFT) / W = RIGHT`, which the backend cross-multiplies
    scaled = f"({right}) * {divisor}" if divisor else f"({right})"
    difference = Compiled(f"{left} - {scaled}", base)  # the reference's reading: letters, wildcards, heads
    present = [letter for letter in difference.letters if not letter.startswith("?")]

    plant: dict[str, int] = {}  # the digits the equation is made to hold for, if any
    if draw(st.sampled_from([True, True, True, False])):
        heads = [x for x in difference.letters if x in difference.leading and not allow_leading_zeros]
        order = sorted(difference.letters, key=lambda x: x not in heads)  # heads first, given no 0
        free = draw(st.permutations(range(base)))  # the named letters' digits: distinct unless none must be
        for cell in order:
            if cell.startswith("?") or mode == "none":
                digits = [digit for digit in range(base) if digit or cell not in heads]
            else:
                digits = [digit for digit in free if digit or cell not in heads][:1]
            plant[cell] = draw(st.sampled_from(digits)) if digits else 0  # none left: not a solution then
            if plant[cell] in free and not cell.startswith("?") and mode != "none":
                free.remove(plant[cell])
        gap = difference.constraints[0](tuple(plant[cell] for cell in difference.letters))
        if gap and divisor:
            left = f"{left} {'-' if gap > 0 else '+'} {abs(gap)}"
        elif gap:
            right = f"{right} {'+' if gap > 0 else '-'} {abs(gap)}"
    if divisor:
        left = f"({left}) / {divisor}"
    text = f"{left} = {right}" if draw(st.booleans()) else f"{right} = {left}"
    for _ in range(draw(st.integers(0, 2))):  # conjuncts over the letters of the equation
        x, y, z = (draw(st.sampled_from(present)) for _ in range(3))
        kinds = [f"{x} < {y}", f"{x} != {draw(st.sampled_from(literal))}", f"{x}{y} / {z} > {x}",
                 f"{x} + {y} >= {z}", f"{x} + {y} = {z}", f"{x} * {y} = {z}{x} - {y}"]
        if truth_values:
            kinds += [f"({x} or {y}) = {z}", f"({x} and {y}) != {z}", f"({x} < {y}) - ({y} < {z}) = 0",
                      f"-({x} < {y}) + {z} > 0", f"(not {x}) * {y} <= {z}", f"0.({x}) < 0.({y}{z})",
                      f"{x} / ({y} + 1) != 0.({z})"]
        extra = draw(st.sampled_from(kinds))
        if not plant or Compiled(extra, base).holds(tuple(plant[x] for x in Compiled(extra, base).letters)) or \
                draw(st.integers(0, 2)) == 0:  # mostly conjuncts the planted digits meet
            text += draw(st.sampled_from([" and ", ", "])) + extra

    planted = set(plant.values())
    rules: dict = {"distinct": mode == "all", "allow_leading_zeros": allow_leading_zeros}
    if mode == "groups":  # --distinct groups: only the letters of one group differ
        group = st.lists(st.sampled_from(present), min_size=1, max_size=len(present), unique=True).map("".join)
        rules["distinct"] = draw(st.lists(group, min_size=1, max_size=2))
    if base != 10 or draw(st.booleans()):
        rules["base"] = base
    digit_sets = st.lists(st.sampled_from(range(base)), min_size=1, max_size=base, unique=True).map(sorted)
    if draw(st.integers(0, 3)) == 0:
        rules["digits"] = sorted(set(draw(digit_sets)) | planted)
    domains = {letter: sorted(set(draw(digit_sets)) | ({plant[letter]} if plant else set()))
               for letter in present if draw(st.integers(0, 5)) == 0}
    if domains:
        rules["domains"] = domains
    if draw(st.integers(0, 7)) == 0:
        letter = draw(st.sampled_from(present))
        rules["assign"] = {letter: plant[letter] if plant else draw(st.sampled_from(range(base)))}
    compiled = Compiled(text, base)
    while brute_force_cost(compiled, rules) > most:  # too many to try: fewer digits, the planted ones last
        digits = list(rules.get("digits", range(base)))
        spare = [digit for digit in digits if digit not in planted] or digits
        digits.remove(draw(st.sampled_from(spare)))
        rules["digits"] = digits
    return Case(text, rules)


def wildcard_cells(text: str) -> list[str]:
    """The reference's names of the formula's `?`s (by their offset in it), in order of appearance."""
    return [f"?{offset}" for offset, char in enumerate(text) if char == "?"]


def listed(text: str, solution: smtcrypt.Solution) -> tuple[tuple[str, int], ...]:
    """A `Solution` as the reference writes solutions: its mapping and its wildcards."""
    return tuple(sorted([*solution.mapping.items(), *zip(wildcard_cells(text), solution.wildcards)]))


def solutions_by(case: Case, strategy: str) -> Solutions:
    """The strategy's solutions of the case, checked to be complete, unrepeated and counted alike."""
    puzzle = smtcrypt.Puzzle(case.text, **case.rules)
    search = puzzle.search(timeout=SECONDS, strategy=strategy)
    found = [listed(case.text, solution) for solution in search]
    verdict = search.verdict()
    assert verdict.complete, f"the {strategy} strategy did not finish {case}: {verdict.reason}"
    assert len(set(found)) == len(found), f"the {strategy} strategy repeated a solution of {case}"
    assert verdict.count == len(found)
    if strategy == "digits":
        assert verdict.stats is not None and verdict.stats.strategy == "digits"
        assert verdict.proof is Proof.BOUNDED and verdict.proof.value == "every assignment covered by a bounded search"
    assert puzzle.count(timeout=SECONDS, strategy=strategy) == len(found), f"{strategy} counted {case} otherwise"
    return set(found)


def solutions_of_each_run(case: Case) -> dict[str, Solutions]:
    """The solutions of the plan walked each way the backend has: as plain Python (as
    `Executor.PLAIN` runs it) and compiled by numba (where it is installed and int64 holds the plan),
    in the same steps."""
    problem = smtcrypt.Puzzle(case.text, **case.rules).problem
    plan = digit_plan(problem)
    assert plan is not None, f"no digit plan for {case}"
    rename = dict(zip(problem.wildcards, wildcard_cells(case.text)))  # the reference's names of the `?`s

    def as_reference(assignment: dict[str, int]) -> tuple[tuple[str, int], ...]:
        return tuple(sorted((rename.get(name, name), digit) for name, digit in assignment.items()))

    found, steps = {}, {}
    for executor in (Executor.PLAIN, Executor.COMPILED):
        search = DigitSearch(plan, time.monotonic() + SECONDS, executor=executor)
        found[f"the {executor.value} walk"] = [as_reference(assignment) for batch in search.batches()
                                               for assignment in batch]
        assert search.end is not None and search.end.complete and search.end.proof is Proof.BOUNDED
        steps[search.ran[0]] = search.nodes
    assert len(set(steps.values())) == 1, f"the walks took different steps on {case}: {steps}"
    for way, solutions in found.items():
        assert len(set(solutions)) == len(solutions), f"{way} repeated a solution of {case}"
    return {way: set(solutions) for way, solutions in found.items()}


def check_against_brute_force(case: Case, expected: Solutions | None = None) -> None:
    """Every way of searching lists the brute force's solutions (`expected`, when the caller has
    already computed them)."""
    if expected is None:
        expected = brute_force(case.text, **case.rules)
    ways = {"the digits strategy": solutions_by(case, "digits"), "auto": solutions_by(case, "auto"),
            **solutions_of_each_run(case)}
    for way, found in ways.items():
        assert found == expected, (f"{way} differs from brute force on {case}: "
                                   f"missing {sorted(expected - found)}, wrong {sorted(found - expected)}")


EXAMPLES = [
    Case("AB * C * D = EF * G", {"digits": [1, 2, 3, 4, 5, 6, 7]}),
    Case("ABC * DE = FG * HI + J", {"distinct": False, "digits": [0, 1, 9]}),
    Case("(A + B) * CD = EFG", {"base": 8}),
    Case("AB ** 2 = CDE - F", {"allow_leading_zeros": True}),
    Case("3 * ABC = DEF * G", {"distinct": ["AB", "CDE"], "digits": [1, 2, 3, 4, 5]}),
    Case("?A * B? = C??", {"base": 6}),
    Case("AB * C = DE and A < B, C != 3", {"domains": {"A": [1, 2, 3]}}),
    Case("AB * C = DEA, AB / C > D", {"base": 12, "digits": range(1, 10)}),
    Case("-AB * C + 7 = -DE", {"distinct": False, "base": 5}),
    Case("AB * CA = B0A * 4 - 12", {"distinct": False, "assign": {"C": 2}}),
]


# the same examples every run (a run's verdict does not depend on luck), a failure reported as drawn
# (shrinking it takes minutes: -m slow shrinks); -m slow draws many, larger, anew
@settings(max_examples=8, deadline=None, derandomize=True, phases=UNSHRUNK, suppress_health_check=[HealthCheck.too_slow])
@given(product_cases())
@each_example(EXAMPLES[:10])
def test_random_products_match_brute_force(case):
    check_against_brute_force(case)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_cases(most=SLOW_SPACE, letters=7))
def test_random_products_match_brute_force_many(case):
    check_against_brute_force(case)


# conjuncts that compute with truth values and `and`/`or` operands, and repeating decimals of
# letters: fewer examples of their own, so that the tests above stay as they were
@settings(max_examples=15, deadline=None, derandomize=True, phases=UNSHRUNK, suppress_health_check=[HealthCheck.too_slow])
@given(product_cases(truth_values=True))
def test_random_products_with_truth_values_and_repeating_decimals_match_brute_force(case):
    check_against_brute_force(case)


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(product_cases(most=SLOW_SPACE, letters=7, truth_values=True))
def test_random_products_with_truth_values_and_repeating_decimals_match_brute_force_many(case):
    check_against_brute_force(case)


# each of these once failed: a value as Python computes it (`A or B` is A unless A is 0, `A < B` is
# 0 or 1 to subtract or negate), and a repeating decimal's letters, which a constraint needs digits for
TRUTH_VALUES = [
    Case("A * B = C, (A or B) = C", {"distinct": False}),  # 10 solutions: (A, 1, A) and (0, 0, 0)
    Case("A * B = C, (A and B) = C", {"distinct": False}),
    Case("A * B = C, (A < B) - (B < C) = 0"),
    Case("A * B = C, -(A < B) = 0"),
    Case("A * B = C, 0.(C) < 0.5"),
]


@pytest.mark.parametrize("case", TRUTH_VALUES, ids=[case.text for case in TRUTH_VALUES])
def test_truth_values_and_repeating_decimals_match_brute_force(case):
    check_against_brute_force(case)


@pytest.mark.slow  # a census of the test generator itself
def test_the_generator_draws_every_shape_and_rule():
    drawn: list[Case] = []

    @settings(max_examples=100, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(product_cases(most=SLOW_SPACE, letters=7))
    def collect(case):
        drawn.append(case)

    collect()
    texts = [case.text for case in drawn]
    for shape in ("?", "**", "(", " - ", " and ", ", ", " / ", ") / ", "-"):
        assert any(shape in text for text in texts), shape
    assert any(text.count("*") - 2 * text.count("**") >= 3 for text in texts), "three factors"
    for rule in ("base", "digits", "domains", "assign"):
        assert any(rule in case.rules for case in drawn), rule
    assert any(isinstance(case.rules["distinct"], list) for case in drawn)
    assert any(case.rules["distinct"] is False for case in drawn)
    assert any(case.rules["allow_leading_zeros"] for case in drawn)
    bases = {case.rules.get("base", 10) for case in drawn}
    assert {2, 10} <= bases and max(bases) >= 12
    assert max(len([x for x in Compiled(case.text).letters if not x.startswith("?")]) for case in drawn) >= 7


# --- fixed puzzles ------------------------------------------------------------------------------

def auto_takes(puzzle: smtcrypt.Puzzle) -> str:
    """The backends `auto` searched the puzzle with."""
    stats = puzzle.verdict(timeout=SECONDS).stats
    assert stats is not None
    return stats.strategy


def digits_search(formula: str, **rules: Any) -> tuple[list[smtcrypt.Solution], smtcrypt.Verdict]:
    search = smtcrypt.Puzzle(formula, **rules).search(timeout=SECONDS, strategy="digits")
    found = list(search)
    verdict = search.verdict()
    assert verdict.complete and verdict.proof is Proof.BOUNDED
    return found, verdict


def test_odd_times_odd_is_freaky_twice():
    found, verdict = digits_search("ODD * ODD = FREAKY")
    assert len(found) == 2 and verdict.status is smtcrypt.Status.MULTIPLE
    assert all(is_solution("ODD * ODD = FREAKY", solution.mapping) for solution in found)
    assert {solution.text for solution in found} == {solution.text for solution in
                                                     smtcrypt.Puzzle("ODD * ODD = FREAKY").solve(strategy="z3")}
    assert auto_takes(smtcrypt.Puzzle("ODD * ODD = FREAKY")) == "digits"


def test_theta_times_xi_is_unique():
    puzzle = smtcrypt.Puzzle("THETA * XI = ETA * NU * PHI")
    verdict = puzzle.verdict(strategy="digits")
    assert verdict.status is smtcrypt.Status.UNIQUE and verdict.complete and verdict.proof is Proof.BOUNDED
    assert [solution.text for solution in verdict.solutions] == ["70175 * 92 = 175 * 46 * 802"]
    assert auto_takes(puzzle) == "digits"


def test_eta_times_kappa_is_unique():
    found, verdict = digits_search("ETA * KAPPA = BETA * PHI")
    assert verdict.status is smtcrypt.Status.UNIQUE
    (solution,) = found
    assert is_solution("ETA * KAPPA = BETA * PHI", solution.mapping)
    assert [other.mapping for other in smtcrypt.Puzzle("ETA * KAPPA = BETA * PHI").solve(strategy="z3")] == [solution.mapping]


@pytest.mark.parametrize("name", ["multiplication.txt", "division.txt"])
def test_layouts_match_z3_wildcards_included(name):
    text = (LAYOUTS / name).read_text()
    puzzle = smtcrypt.Puzzle.from_layout(text)

    def solutions(strategy: str) -> set:
        search = puzzle.search(timeout=SECONDS, strategy=strategy)
        found = [(tuple(sorted(solution.mapping.items())), solution.wildcards) for solution in search]
        assert search.verdict().complete and len(set(found)) == len(found)
        return set(found)

    digits = solutions("digits")
    assert digits and digits == solutions("z3")
    assert all(wildcards for _, wildcards in digits)  # the layout's `?`s are the solution's digits
    assert auto_takes(puzzle) == "digits"


FIXED = [  # each against the brute force
    Case("AB * C = DEA", {"base": 12}),
    Case("AB * CD = EFB", {"allow_leading_zeros": True}),
    Case("AB * 10 + C = DEF * 2"),  # shifted words: AB one column left
    Case("AB * CD = 1000 + EF"),  # columns 3 and 4 hold only the constant and the product's digits
    Case("ABC - DE * F = G", {"digits": range(1, 9)}),
    Case("AB * CD - 7 = EFG", {"digits": range(1, 9)}),  # a negative constant
    Case("-3 * AB + CD * E = -F"),
    Case("A ** 0 + BC ** 1 * D ** 2 = EFC", {"allow_leading_zeros": True}),
    Case("(AB + C) ** 2 = CDBA", {"distinct": False, "base": 6}),
    # values past int64 (ABC ** 7 near 2**70): the arrays' congruences reduced modulo 10**k, the exact check row by row
    Case("ABC ** 7 = DEF ** 5 * AD + 912461611105293544179", {"digits": range(4, 10)}),
]


@pytest.mark.parametrize("case", FIXED, ids=[case.text for case in FIXED])
def test_fixed_products_match_brute_force(case):
    expected = brute_force(case.text, **case.rules)
    assert expected, "a puzzle with solutions: the search must find them"
    check_against_brute_force(case, expected)


QUOTIENTS = [  # cross-multiplied: a divisor 0 makes the equation undefined, no solution
    Case("ABC / DE = F", {"digits": range(1, 9)}),
    Case("AB / C = DE / F", {"distinct": False, "allow_leading_zeros": True, "base": 5}),
    Case("(AB * C - 3) / D = EA", {"allow_leading_zeros": True}),
    Case("A / B = C / D", {"distinct": ["AB", "CD"], "allow_leading_zeros": True, "base": 7}),
]


@pytest.mark.parametrize("case", QUOTIENTS, ids=[case.text for case in QUOTIENTS])
def test_quotients_match_brute_force(case):
    expected = brute_force(case.text, **case.rules)
    assert expected, "a puzzle with solutions: the search must find them"
    check_against_brute_force(case, expected)


def test_a_shifted_product_matches_z3():
    """Seven letters: Z3 stands in for the brute force, which would take a second here."""
    case = Case("ABC * 100 = DE * FG * 10")
    found = solutions_by(case, "digits")
    assert len(found) > 100 and found == solutions_by(case, "z3")  # YIELDED_WHEN_COUNTING passed: counted in bulk


@pytest.mark.parametrize("formula", ["A ** B = CD", "x + A = 3", "ABC // DE = F", "AB % C = D", "AB / C + 1 = D",
                                     "A ** (1/2) = B", "AB * C > DE", "A * B = C, D < 5", "A * B = C or D = 1"])
def test_the_backend_refuses_what_is_no_polynomial_equation_of_every_letter(formula):
    """No equation of polynomials (or of a quotient of them, which the backend cross-multiplies)
    that holds every letter: a letter for an exponent, an integer unknown, floor division, a
    remainder, a quotient inside a sum, a root, an inequality, a letter outside the equations."""
    puzzle = smtcrypt.Puzzle(formula)
    assert digit_plan(puzzle.problem) is None
    with pytest.raises(StrategyError):
        puzzle.search(strategy="digits")


def test_the_generated_code_holds_none_of_the_formula():
    """The code of a constraint the host checks (a quotient) is written from the checked tree."""
    formula = "QUIRK * JUMPY = WALTZ * VEX + 7, QUIRK / JUMPY < WALTZ / VEX"
    puzzle = smtcrypt.Puzzle(formula, distinct=False)
    plan = digit_plan(puzzle.problem)
    assert plan is not None and plan.machine.sources
    source = "\n".join(plan.machine.sources)
    words = {"QUIRK", "JUMPY", "WALTZ", "VEX"}
    for word in words:
        assert word not in source
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    names = {token.string for before, token in zip(tokens, tokens[1:])  # attributes left out
             if token.type == tokenize.NAME and before.string != "."}
    assert not names & set(puzzle.letters)
    made = {name for name in names if not keyword.iskeyword(name) and not name.startswith("_")} - {"bool", *HELPERS}
    assert made and all(name[0] == "v" and name[1:].isdigit() for name in made), made
    assert {f"v{index}" for index in range(len(puzzle.letters))} <= made


SKELETON = "   ???\n x  ??\n -----\n  ????\n ????\n -----\n ?????\n"  # every digit a `?`: 45,237 ways


def test_a_skeleton_layout_counts_alike_plain_and_compiled():
    # 20 letters of their own, thousands of solutions: each walk counts them all, in the same steps
    problem = smtcrypt.Puzzle.from_layout(SKELETON).problem
    counts = {}
    for executor in (Executor.PLAIN, Executor.COMPILED):
        search = DigitSearch(digit_plan(problem), listing=False, executor=executor)
        counts[executor.value] = (sum(1 for _ in search) + search.bulk, search.nodes)
        assert search.end.complete
    assert counts["plain"] == counts["compiled"] and counts["plain"][0] == 45237
