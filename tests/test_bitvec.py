"""The bit-vector encoding (smtcrypt/encode/bitvec/) against the independent brute-force
reference: every model, enumerated on a plain incremental QF_BV solver with one blocking clause
per model, must be a solution, and together they must be all of them, formula by formula."""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction

import pytest
import z3
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from reference import brute_force

from smtcrypt.analysis.arithmetic import euclid_steps, signed_width
from smtcrypt.analysis.bounds import floordiv_bounds, mod_bounds, power_bounds
from smtcrypt.analysis.fold import fold
from smtcrypt.core.check import Problem, check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import make_rules
from smtcrypt.core.tree import Call, Collection, walk
from smtcrypt.core.verify import Undefined, evaluate
from smtcrypt.encode import indicator
from smtcrypt.encode.bitvec import BitVecEncoding
from smtcrypt.encode.bitvec.encoder import BitVecEncoder
from smtcrypt.encode.bitvec.rationals import BitVecRat
from smtcrypt.engine.z3search import solvers
from smtcrypt.errors import FormulaError

Solution = tuple[tuple[str, int], ...]


def problem_of(text: str, **rules) -> Problem:
    return check(parse(text), make_rules(**rules))


def models(problem: Problem, seconds: float = 60.0) -> list[Solution]:
    """Every model of the encoded problem, each read through `Encoded.letters` and then blocked
    by a clause of the encoding's `A=1` indicators."""
    encoded = BitVecEncoding().encode(problem, z3.Context())
    context = encoded.context
    assert solvers(encoded) == ("bit-vector",) and encoded.indicators and not encoded.digits_only
    solver = z3.SolverFor("QF_BV", ctx=context)
    solver.add(*encoded.constraints)
    letters = list(encoded.letters.items())
    # every letter read in one evaluation: the letters side by side in one bit-vector
    widths = [var.size() for _, var in letters]
    packed = z3.Concat(*[var for _, var in letters]) if len(letters) > 1 else letters[0][1] if letters else None
    blocked = {}  # (letter, digit) -> the literal "letter != digit"
    found: list[Solution] = []
    deadline = time.monotonic() + seconds
    while True:
        result = solver.check()
        if result == z3.unsat:
            return found
        assert result == z3.sat and time.monotonic() < deadline
        model = solver.model()
        values = []
        if letters:
            number = model.eval(packed, model_completion=True).as_long()
            for (letter, _), width in zip(reversed(letters), reversed(widths)):
                values.append((letter, number & (1 << width) - 1))
                number >>= width
            assert number == 0
            if not found:  # the same as reading each letter on its own
                assert dict(values) == {letter: model.eval(var, model_completion=True).as_long()
                                        for letter, var in letters}
        found.append(tuple(sorted(values)))
        if not values:
            return found
        literals = []
        for letter, digit in values:
            if (letter, digit) not in blocked:
                blocked[letter, digit] = z3.Not(indicator(letter, digit, context))
            literals.append(blocked[letter, digit].as_ast())
        array = (z3.Ast * len(literals))(*literals)
        solver.add(z3.BoolRef(z3.Z3_mk_or(context.ref(), len(literals), array), context))


def solutions(problem: Problem) -> set[Solution]:
    """The models as a set, after checking that no model came twice."""
    found = models(problem)
    assert len(found) == len(set(found))
    return set(found)


def reference(problem: Problem) -> set[Solution]:
    """Brute force's solutions under the problem's rules (--domain and --assign as a filter)."""
    rules = problem.rules
    found = brute_force(problem.source, distinct=rules.distinct, allow_leading_zeros=rules.allow_leading_zeros,
                        base=rules.base, digits=None if rules.digits is None else sorted(rules.digits))
    return {s for s in found if all(digit in problem.allowed[letter] for letter, digit in s)}


def same_as_reference(text: str, **rules) -> set[Solution]:
    """The encoding's solutions of `text` under `rules`, plain and folded, equal brute force's."""
    problem = problem_of(text, **rules)
    assert BitVecEncoding().accepts(problem), text
    expected = reference(problem)
    assert solutions(problem) == expected, text
    folded = fold(problem)
    if folded is not problem:
        assert BitVecEncoding().accepts(folded), text
        assert solutions(folded) == expected, f"{text} (folded)"
    return expected


# --- the formulas that went to the bit-blasting tactic before this encoding ---------------------

@pytest.mark.parametrize("text, count", [
    pytest.param("gcd(AB, CD) = E", 2042, marks=pytest.mark.slow),  # seconds each, model by model
    pytest.param("ABC % DE = F", 2357, marks=pytest.mark.slow),
    ("AB / C > DE", 2338),
    pytest.param("max(A, B) - min(C, D) = E + F", 8600, marks=pytest.mark.slow),
    ("AB % C + D = E", 1276),
    ("(A + B) * (C + D) = EF", 1000),
    pytest.param("AB * CD = EF * GH", 280, marks=pytest.mark.slow),  # brute force alone takes 8 s
])
def test_known_counts(text, count):
    assert len(same_as_reference(text)) == count


def test_known_count_of_a_comparison_restricted():
    """ABC < DEF has 60,480 solutions, slow to list model by model: restricted to fewer digits,
    and with a letter fixed."""
    assert len(same_as_reference("ABC < DEF", digits="1-6")) == 360
    assert len(same_as_reference("ABC < DEF", digits="0-6", assign={"A": 2})) == 480


# --- signs, floors and zero divisors ----------------------------------------------------------

@pytest.mark.parametrize("text", ["(A - B) // C = D - 5", "(A - B) % C = D", "(A - B) % (C - D) = B - A",
                                  "(A - BC) // -C = D", "-AB // (C - 5) - (A - 9) % -C = D"])
@pytest.mark.parametrize("distinct", [True, False])
def test_floor_division_and_remainder_follow_python_signs(text, distinct):
    found = same_as_reference(text, distinct=distinct, allow_leading_zeros=True)
    assert found


def test_negative_results_are_found():
    found = same_as_reference("(A - B) // C = D - 5", allow_leading_zeros=True)
    assert any(dict(s)["A"] < dict(s)["B"] for s in found)  # a negative quotient, floored


def test_a_zero_divisor_is_not_a_solution():
    found = same_as_reference("A / (B - C) = D", distinct=False, allow_leading_zeros=True)
    assert found and all(dict(s)["B"] != dict(s)["C"] for s in found)


def test_short_circuit_spares_a_zero_divisor():
    found = same_as_reference("B == C or A // (B - C) > 0", distinct=False)
    assert any(dict(s)["B"] == dict(s)["C"] for s in found)
    assert any(dict(s)["B"] != dict(s)["C"] for s in found)
    same_as_reference("B != C and A % (B - C) == 1", distinct=False)
    same_as_reference("A < B < 10 // (C - D) < 9", distinct=False)  # the chain stops before the quotient
    same_as_reference("A in {1, 2 // (B - C)}", distinct=False)  # a literal is built whole: never spared


# --- the rest of the language -----------------------------------------------------------------

@pytest.mark.parametrize("text, rules", [
    ("A ** N + B ** N = C ** N and N > 1", {}),
    ("A ** (B - 2) * 8 = C", {}),
    ("(AB - 50) ** 3 = -C * 1000 + D", {}),
    ("AB ** -1 = 1 / (C * D)", {}),
    ("sum(range(A, BC)) = DEF", {}),
    ("sum(range(A - B)) = C", {"distinct": False}),
    ("AB in range(C, D * 3) and A not in (B, C / 2)", {}),
    ("(A < B) + (B < C) * 2 = D", {"allow_leading_zeros": True}),
    ("(A or B) * (C and D) = E", {"allow_leading_zeros": True, "distinct": False}),
    ("not A - B and C", {"distinct": False}),
    ("abs(A - BC) = D * E", {}),
    ("min(A / B, C / D) = E / 2", {}),
    ("max(A - 5, B / 3, C // 2) = D - 3", {"allow_leading_zeros": True}),
    ("gcd(AB - 50, C - 5, D) = E", {}),
    ("gcd(A / 2, B) = C", {}),
    ("AB / CD = 0.(E)", {}),
    ("1.A(B) * 9 = CD / 10 + E", {}),
    ("AB % 1.5 = C / 2", {}),
    ("AB / 7 // (C / 3) = D", {}),
    ("A / B == C / D != E", {}),
])
def test_more_formulas_match_the_reference(text, rules):
    same_as_reference(text, **rules)


@pytest.mark.parametrize("rules", [{"digits": "2-7"}, {"domains": {"A": "1,3,5"}, "assign": {"B": 4}},
                                   {"base": 7}, {"base": 16, "digits": "9-15", "distinct": False}])
def test_the_rules_are_kept(rules):
    same_as_reference("AB % C + D = E" if "base" not in rules else "AB % C = D", **rules)


def test_letters_read_back_as_digits():
    problem = problem_of("AB % C + D = E", base=16, digits="8-15", distinct=False)
    found = solutions(problem)
    assert found and all(8 <= digit <= 15 for s in found for _, digit in s)


def test_a_letter_with_no_digits_left_has_no_solutions():
    assert solutions(problem_of("AB % C = D", digits="0")) == set()


# --- what is declined -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["AB = x * C", "AB ** (1/2) = C", "ABCD ** 0.5 = EF", "A ** 200 = B ** 199 + C",
                                  "ABCDEFGHIJ ** 17 = x"])
def test_declines(text):
    assert not BitVecEncoding().accepts(problem_of(text, distinct=False))


def test_accepts_what_stays_within_the_width_limit():
    assert BitVecEncoding().accepts(problem_of("A ** 100 = B", digits="0-1", distinct=False))
    assert BitVecEncoding().accepts(problem_of("ABCDEFGHIJ ** 15 = 7"))  # about 500 bits


# --- every node exact -------------------------------------------------------------------------

def node_values_are_exact(problem: Problem, assignments: list[dict[str, int]]) -> None:
    """Under each assignment, every node of the formula, encoded on its own, is defined exactly when
    the exact evaluator can evaluate it, and then has its value; numerator and denominator lie
    within the bounds that chose their widths (so no operation overflowed on the way)."""
    encoder = BitVecEncoder(problem, z3.Context())
    nodes = [node for constraint in problem.formula.constraints for node in walk(constraint)
             if not isinstance(node, Collection) and not (isinstance(node, Call) and node.name == "range")]
    encoded = [(node, *encoder.encode(node)) for node in nodes]
    for assignment in assignments:
        pairs = [(var, z3.BitVecVal(assignment[letter], var.size(), var.ctx)) for letter, var in encoder.letters.items()]

        def value_of(term, pairs=pairs):
            return z3.simplify(z3.substitute(term, *pairs)) if pairs else z3.simplify(term)

        for node, value, ok in encoded:
            try:
                exact = evaluate(node, assignment, problem.rules.base)
            except Undefined:
                exact = None
            defined = ok if isinstance(ok, bool) else z3.is_true(value_of(ok))
            assert defined == (exact is not None), (problem.source, node, assignment)
            if exact is None:
                continue
            if isinstance(value, BitVecRat):
                num, den = value_of(value.num.term).as_signed_long(), value_of(value.den.term).as_signed_long()
                assert value.num.lo <= num <= value.num.hi and value.den.lo <= den <= value.den.hi and den > 0
                assert Fraction(num, den) == exact, (problem.source, node, assignment)
            else:
                assert int(z3.is_true(value_of(value))) == exact, (problem.source, node, assignment)


def allowed_assignments(problem: Problem, count: int, seed: int = 0) -> list[dict[str, int]]:
    """`count` assignments the rules allow, at random (all of them, if there are no more)."""
    pools = [sorted(problem.allowed[letter]) for letter in problem.letters]
    rng = random.Random(seed)
    found: set[tuple[int, ...]] = set()
    for _ in range(count * 100):
        values = tuple(rng.choice(pool) for pool in pools)
        if not problem.rules.distinct or len(set(values)) == len(values):
            found.add(values)
            if len(found) == count:
                break
    return [dict(zip(problem.letters, values)) for values in sorted(found)]


@pytest.mark.parametrize("text, rules", [
    ("gcd(AB, CD) = E", {}),
    ("(A - BC) // -C = D or (A - B) % (C - D) == -AB", {"allow_leading_zeros": True, "distinct": False}),
    ("max(A, B) - min(C, D) = E + F", {}),
    ("AB / (C - D) > DE ** -2 and A / B in range(C, D)", {"distinct": False}),
    ("A ** (B - C) + abs(D - 7) ** 3 = sum(range(A - B, C * D))", {"distinct": False}),
    ("(A < B) * 2 ** (C - 4) or not (A and B // (C - 2))", {"allow_leading_zeros": True}),
    ("ABC % 1.5 = 0.(A) * gcd(B - 5, -C, 4.0)", {}),
    ("GHI ** 9 // AB ** 5 - FED ** 4 % C ** 7 = ABCDEFGHI ** 2", {}),
])
def test_every_node_is_exact(text, rules):
    problem = problem_of(text, **rules)
    node_values_are_exact(problem, allowed_assignments(problem, 150))
    folded = fold(problem)
    if folded is not problem:
        node_values_are_exact(folded, allowed_assignments(folded, 30))


# --- the bounds that choose the widths --------------------------------------------------------

def test_signed_width():
    for lo in range(-70, 70):
        for hi in range(lo, 70):
            width = signed_width(lo, hi)
            assert -(1 << width - 1) <= lo and hi < 1 << width - 1
            assert width == 1 or not (-(1 << width - 2) <= lo and hi < 1 << width - 2)


def intervals(low: int, high: int):
    return [(a, b) for a in range(low, high + 1) for b in range(a, high + 1)]


def test_division_bounds_hold_exhaustively():
    for x in intervals(-6, 6):
        for y in intervals(-4, 4):
            divisors = [d for d in range(y[0], y[1] + 1) if d]
            if not divisors:
                continue
            quotients = [a // d for a in range(x[0], x[1] + 1) for d in divisors]
            remainders = [a % d for a in range(x[0], x[1] + 1) for d in divisors]
            assert floordiv_bounds(x, y) == (min(quotients), max(quotients))
            lo, hi = mod_bounds(x, y)
            assert lo <= min(remainders) and max(remainders) <= hi


def test_power_bounds_are_tight():
    for lo, hi in intervals(-5, 5):
        for k in range(1, 6):
            values = [v ** k for v in range(lo, hi + 1)]
            assert power_bounds(lo, hi, k) == (min(values), max(values))


def test_unrolled_euclid_reaches_the_gcd():
    """From (b, a mod b), every value is below b: euclid_steps(b's bound) steps reach the gcd, and
    some pair needs all of them."""
    for bound in range(0, 250):
        steps = euclid_steps(bound)
        needed = 0
        for x in range(bound + 1):
            for y in range(x):
                a, b, taken = x, y, 0
                while b:
                    a, b, taken = b, a % b, taken + 1
                assert a == math.gcd(x, y)
                needed = max(needed, taken)
        assert needed == steps, bound


# --- random formulas --------------------------------------------------------------------------

@st.composite
def formulas(draw) -> tuple[str, dict]:
    """A random formula over at most four letters, with rules that keep brute force small."""
    distinct = draw(st.booleans())
    base = draw(st.sampled_from([10, 10, 10, 7, 16]))
    digits = draw(st.lists(st.integers(0, base - 1), min_size=2, max_size=6, unique=True))
    rules = {"distinct": distinct, "allow_leading_zeros": draw(st.booleans()), "base": base,
             "digits": ",".join(map(str, sorted(digits)))}
    pool = "ABCD"[: draw(st.integers(1, 4 if distinct else 3))]
    word = st.text(alphabet=pool, min_size=1, max_size=3)
    letter = st.sampled_from(pool)
    number = st.sampled_from(["0", "1", "2", "3", "7", "10", "0.5", "1.5", "-2"])

    def expression(depth: int) -> str:
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            return draw(st.one_of(word, number))
        kind = draw(st.integers(0, 10))
        if kind <= 3:
            op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%"]))
            return f"({expression(depth - 1)} {op} {expression(depth - 1)})"
        if kind == 4:
            return f"-{expression(depth - 1)}"
        if kind == 5:
            return f"{expression(depth - 1)} ** {draw(st.sampled_from(['0', '1', '2', '3', '-1', '-2']))}"
        if kind == 6:
            return f"{draw(letter)} ** {draw(st.sampled_from([draw(letter), f'({draw(letter)} - 2)']))}"
        if kind == 7:
            name = draw(st.sampled_from(["abs", "min", "max", "gcd"]))
            args = [expression(depth - 1) for _ in range(1 if name == "abs" else draw(st.integers(2, 3)))]
            return f"{name}({', '.join(args)})"
        if kind == 8:
            stop = draw(word)
            return f"sum(range({stop}))" if draw(st.booleans()) else f"sum(range({draw(number)}, {stop}))"
        if kind == 9:
            return f"({draw(st.sampled_from(['not ', '']))}{expression(depth - 1)} " \
                   f"{draw(st.sampled_from(['and', 'or']))} {expression(depth - 1)})"
        return f"({comparison(depth - 1)})"  # a comparison used as a number (0 or 1)

    def comparison(depth: int) -> str:
        ops = ["=", "==", "!=", "<", "<=", ">", ">="]
        parts = [expression(depth)]
        for _ in range(draw(st.integers(1, 2))):
            parts += [draw(st.sampled_from(ops)), expression(depth)]
        return " ".join(parts)

    def constraint() -> str:
        kind = draw(st.integers(0, 6))
        if kind <= 1:
            return comparison(2)
        if kind == 2:
            return f"{comparison(1)} {draw(st.sampled_from(['and', 'or']))} {comparison(1)}"
        if kind == 3:
            return f"not {comparison(1)}"
        if kind == 4:
            items = ", ".join(expression(1) for _ in range(draw(st.integers(1, 3))))
            return f"{expression(1)} {draw(st.sampled_from(['in', 'not in']))} {{{items}}}"
        if kind == 5:
            bounds = ", ".join(expression(1) for _ in range(draw(st.integers(1, 2))))
            return f"{expression(1)} {draw(st.sampled_from(['in', 'not in']))} range({bounds})"
        return f"({expression(1)} or {expression(1)}) == {expression(1)}"

    text = ", ".join(constraint() for _ in range(draw(st.integers(1, 2))))
    return text, rules


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(formulas())
@example(("A ** B = A", {"distinct": True, "allow_leading_zeros": False, "base": 10, "digits": "0-9"}))
@example(("(A or B) == AB // 0", {"distinct": False, "allow_leading_zeros": True, "base": 10, "digits": "0-9"}))
@example(("A in {1/0, A}", {"distinct": False, "allow_leading_zeros": False, "base": 10, "digits": "0-9"}))
@example(("gcd(A - 7, B / 2) = C % -2", {"distinct": False, "allow_leading_zeros": True, "base": 10,
                                         "digits": "0-9"}))
# a fraction looked up in a range of 14 ** 10 integers: the reference once compared it with each of them
@example(("-1.5 not in range((10 // C), C ** (A - 2)), 10 ** -1 not in {(BBC + B), 10}",
          {"distinct": True, "allow_leading_zeros": False, "base": 16, "digits": "0,5,10,12,14"}))
def test_random_formulas_match_brute_force(case):
    formula_matches_brute_force(case)


def formula_matches_brute_force(case):
    text, rules = case
    try:
        problem = problem_of(text, **rules)
    except FormulaError:
        assume(False)  # beyond a limit of the checker: not a sample
    expected = brute_force(text, distinct=rules["distinct"], allow_leading_zeros=rules["allow_leading_zeros"],
                           base=rules["base"], digits=sorted(problem.rules.digits))
    for source in {problem, fold(problem)}:
        if BitVecEncoding().accepts(source):
            assert solutions(source) == expected, (text, rules, source is problem)
            node_values_are_exact(source, allowed_assignments(source, 6))


@pytest.mark.slow
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(formulas())
def test_random_formulas_match_brute_force_many(case):
    formula_matches_brute_force(case)
