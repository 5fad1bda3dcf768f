"""Property tests: random formulas over every operator and every rule, solved by smtcrypt (every
encoding that accepts them, and every search strategy) and by the independent brute-force reference
in tests/reference.py. The full solution sets must be equal, the verdicts must agree, and every
search must finish: a search that does not is a failure, never a sample left out."""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
import z3
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reference import Compiled, brute_force

import smtcrypt
from smtcrypt.analysis.fold import fold
from smtcrypt.core.check import Problem, check
from smtcrypt.core.outcomes import StrategyError
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import NUMBER_WORDS, make_rules
from smtcrypt.core.tree import BinOp, BoolOp, Call, Compare, Name, Number, Repeating, Word, walk
from smtcrypt.encode import choose, encodings
from smtcrypt.encode.general import GeneralEncoding
from smtcrypt.engine import Proof
from smtcrypt.engine.portfolio import STRATEGIES
from smtcrypt.engine.z3search import SPLIT_AFTER_CONFLICTS, UNBOUNDED_MODEL_CAP, ModelSearch
from smtcrypt.search import DEFAULT_MEMORY_MB

SECONDS = 60.0  # per search: far beyond what a formula of this size needs; a search that runs out fails
CI_SPACE = 240  # the every-run test: at most this many assignments per formula (letters' digits x unknowns)
SLOW_SPACE = 5_040  # the slow run: four distinct letters in base 10
BASES = (10, 10, 10, 10, 2, 3, 4, 6, 8, 12, 16)
UNKNOWNS = ((), (), (), ("x",), ("x",), ("x", "n"))
PROOFS = {"z3": Proof.UNSAT, "exhaustive": Proof.EXHAUSTIVE, "linear": Proof.BOUNDED, "join": Proof.EXHAUSTIVE,
          "cubes": Proof.CUBES, "digits": Proof.BOUNDED}
WORD_NAMES = ["is_prime", "is_square", "is_cube", "is_power", "is_triangular", "is_palindrome", "divides", "dsum",
              "rev"]
OPTIONAL = {"linear", "join", "cubes", "digits"}  # strategies for some puzzles only: they refuse the others with a StrategyError

Solutions = set[tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class Case:
    """A formula with the keywords of `make_rules` (and of `smtcrypt.Puzzle`) and, for each integer
    unknown, the bounds (lowest, highest) that the formula's own constraints put on it."""

    text: str
    rules: dict = field(default_factory=dict)
    bounds: dict = field(default_factory=dict)


def space(compiled: Compiled, rules: dict, bounds: dict) -> int:
    """Assignments the rules allow at most: the product of each letter's digits and each unknown's values."""
    pools = compiled.pools(rules.get("allow_leading_zeros", False), rules.get("digits"), rules.get("domains"),
                           rules.get("assign"))
    return math.prod(len(pool) for pool in pools) * math.prod(high - low + 1 for low, high in bounds.values())


@st.composite
def cases(draw: st.DrawFn, most: int = CI_SPACE, extras: bool = False) -> Case:
    """A random formula and rules; `extras` adds wildcards `?` in words and `--distinct` groups."""
    base = draw(st.sampled_from(BASES))
    distinct = draw(st.booleans())
    allow_leading_zeros = draw(st.booleans())
    pool = "ABCD"[: draw(st.integers(1, min(4, base) if distinct else 3))]
    literal = "0123456789"[: min(base, 10)]  # digits allowed inside words and repeating decimals
    names = draw(st.sampled_from(UNKNOWNS))
    letters = st.text(alphabet=pool, min_size=1, max_size=3)

    @st.composite
    def words(draw: st.DrawFn) -> str:  # "AB", and now and then a literal digit in it: "7A", "A0B"
        text = draw(letters)
        if draw(st.integers(0, 5)) == 0:
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(literal)) + text[at:]
        if extras and draw(st.integers(0, 2)) == 0:  # a wildcard in place of a letter, or added
            at = draw(st.integers(0, len(text)))
            text = text[:at] + "?" + text[at + draw(st.integers(0, 1)):]
        return text

    repeating = st.builds(lambda whole, fixed, period: f"{whole}.{fixed}({period})",
                          st.sampled_from(["0", "1", ""]), st.text(alphabet=pool + literal, max_size=1),
                          st.text(alphabet=pool + literal, min_size=1, max_size=2))
    number = st.sampled_from(["0", "1", "2", "3", "7", "10", "0.5", "1.5"])
    leaf = st.one_of(words(), number, repeating, *([st.sampled_from(names)] if names else []))

    def expression(depth: int) -> str:
        if depth == 0 or draw(st.integers(0, 3)) == 0:
            return draw(leaf)
        kind = draw(st.integers(0, 9))
        if kind <= 3:
            op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%"]))
            return f"({expression(depth - 1)} {op} {expression(depth - 1)})"
        if kind == 4:
            return f"-{expression(depth - 1)}"
        if kind == 5:
            exponent = draw(st.sampled_from(["0", "1", "2", "3", "-1", "(1/2)", "0.5", "(2/3)"]))
            return f"({expression(depth - 1)}) ** {exponent}"  # bracketed: A ** B ** 2 is A ** (B ** 2)
        if kind == 6:
            return f"{draw(st.sampled_from(pool))} ** {draw(st.sampled_from(pool))}"
        if kind == 7 and draw(st.booleans()):
            return number_word(depth - 1)
        if kind == 7:
            name = draw(st.sampled_from(["abs", "min", "max", "gcd"]))
            count = 1 if name == "abs" else draw(st.integers(2, 3))
            return f"{name}({', '.join(expression(depth - 1) for _ in range(count))})"
        if kind == 8:
            if draw(st.booleans()):
                return f"sum(range({draw(words())}))"
            return f"sum(range({expression(depth - 1)}, {expression(depth - 1)}))"
        return f"({comparison(depth - 1)})"  # a comparison used as a number (0 or 1)

    def number_word(depth: int) -> str:
        """dsum and rev (numbers), and the predicates (0 or 1 as numbers), of a word now and then: the
        encoders read a word's letters."""
        name = draw(st.sampled_from(WORD_NAMES))
        argument = draw(words()) if draw(st.integers(0, 2)) == 0 else expression(depth)
        if name == "is_power":
            return f"is_power({argument}, {draw(st.sampled_from(['1', '2', '3', '4']))})"
        if name == "divides":
            return f"divides({expression(depth)}, {argument})"
        return f"{name}({argument})"

    def comparison(depth: int) -> str:
        ops = ["=", "==", "!=", "<", "<=", ">", ">="]
        parts = [expression(depth)]
        for _ in range(draw(st.integers(1, 2))):
            parts += [draw(st.sampled_from(ops)), expression(depth)]
        return " ".join(parts)

    def constraint() -> str:
        kind = draw(st.integers(0, 7))
        if kind <= 1:
            return comparison(2)
        if kind == 7:  # a predicate as a constraint of its own, or its negation
            word = number_word(1)
            if word.startswith(("dsum", "rev")):
                return f"{word} {draw(st.sampled_from(['<', '>', '==']))} {expression(1)}"
            return word if draw(st.booleans()) else f"not {word}"
        if kind == 2:
            return f"{comparison(1)} {draw(st.sampled_from(['and', 'or']))} {comparison(1)}"
        if kind == 3:
            return f"not {comparison(1)}"
        membership = draw(st.sampled_from(["in", "not in"]))
        if kind == 4:
            items = ", ".join(expression(1) for _ in range(draw(st.integers(1, 3))))
            return f"{expression(1)} {membership} {{{items}}}"
        if kind == 5:
            bounds = ", ".join(expression(1) for _ in range(draw(st.integers(1, 2))))
            return f"{expression(1)} {membership} range({bounds})"
        return f"({expression(1)} or {expression(1)}) == {expression(1)}"

    constraints = [constraint() for _ in range(draw(st.integers(1, 2)))]
    bounds = {}
    for name in names:  # each unknown bounded by a constraint of its own, so the solutions are finite
        low = draw(st.integers(-3, 2))
        bounds[name] = (low, low + draw(st.integers(0, 3)))
        constraints.insert(draw(st.integers(0, len(constraints))), f"{low} <= {name} <= {bounds[name][1]}")
    text = ", ".join(constraints)

    compiled = Compiled(text, base)  # the reference's reading of the formula: its letters
    present = tuple(letter for letter in compiled.letters if not letter.startswith("?"))
    digit = st.sampled_from(range(base))
    digit_sets = st.lists(digit, min_size=1, max_size=base, unique=True).map(sorted)
    rules: dict = {"distinct": distinct, "allow_leading_zeros": allow_leading_zeros}
    if extras and distinct and len(present) >= 2 and draw(st.booleans()):
        group = st.lists(st.sampled_from(present), min_size=1, max_size=len(present), unique=True).map("".join)
        rules["distinct"] = draw(st.lists(group, min_size=1, max_size=2))
    if base != 10 or draw(st.integers(0, 5)) == 0:
        rules["base"] = base
    if draw(st.integers(0, 2)) == 0:
        rules["digits"] = draw(digit_sets)
    domains = {letter: draw(digit_sets) for letter in present if draw(st.integers(0, 4)) == 0}
    if domains:
        rules["domains"] = domains
    if present and draw(st.integers(0, 5)) == 0:
        rules["assign"] = {draw(st.sampled_from(present)): draw(digit)}
    if names:  # over integer unknowns smtcrypt stops, as unknown, after UNBOUNDED_MODEL_CAP models
        most = min(most, UNBOUNDED_MODEL_CAP - 1)
    while space(compiled, rules, bounds) > most:  # too many to try: fewer digits for every letter
        digits = list(rules.get("digits", range(base)))
        digits.remove(draw(st.sampled_from(digits)))  # one digit each letter stays at least: the loop ends
        rules["digits"] = digits
    return Case(text, rules, bounds)


def reference_solutions(case: Case) -> Solutions:
    return brute_force(case.text, unknowns=case.bounds, **case.rules)


def wildcard_cells(case: Case) -> list[str]:
    """The reference's names of the formula's `?`s, in order of appearance."""
    return [f"?{offset}" for offset, ch in enumerate(case.text) if ch == "?"]


def as_reference(case: Case, problem: Problem) -> Callable[[dict], tuple]:
    """A model of smtcrypt's (its wildcards under hidden names) as the reference writes solutions."""
    rename = dict(zip(problem.wildcards, wildcard_cells(case)))
    return lambda model: tuple(sorted((rename.get(name, name), value) for name, value in model.items()))


def listed(case: Case, solution: smtcrypt.Solution) -> tuple:
    """A `Solution` as the reference writes solutions: its mapping and its wildcards."""
    return tuple(sorted([*solution.mapping.items(), *zip(wildcard_cells(case), solution.wildcards)]))


PLAIN_BIT_BLAST_RLIMIT = 8_000  # Z3 resource units a check of the plain encoding's bit-blasting may spend


class PlainSearch(ModelSearch):
    """The plain encoding's search, its bit-blasting bounded by a resource limit: past it, the check
    gives up and the search goes on in the general solver, on the same terms (as every search does
    when a specialised solver gives up). Why: bit-blasting products of wide terms (B ** B in base 12)
    can take all the memory there is before any time limit; under smtcrypt's process-wide
    `memory_max_size` Z3 then aborts the whole process instead of giving up (PLAIN_MEMORY_EXAMPLE)."""

    def _solver(self, strategy: str) -> z3.Solver:
        solver = super()._solver(strategy)
        if strategy == "bit-blast":
            solver.set("rlimit", PLAIN_BIT_BLAST_RLIMIT)
        return solver


def smtcrypt_paths(case: Case, plain: bool, seconds: float = SECONDS) -> dict[str, tuple[list, bool]]:
    """The models from every encoding that accepts the problem (and, if asked, from the plain
    reference encoding, whose nonlinear terms can take Z3 many seconds), each with whether the
    search was complete."""
    problem = check(parse(case.text), make_rules(**case.rules))
    paths = {encoding.name: (encoding, problem, SPLIT_AFTER_CONFLICTS) for encoding in encodings() if encoding.accepts(problem)}
    if "products" in paths:  # the products search split into cases from the start (see analysis/split.py)
        paths["split"] = (paths["products"][0], problem, 0)
    folded = fold(problem)
    if folded is not problem:  # the logic folded by bounds, in the encoding that then accepts it
        paths["folded"] = (choose(folded), folded, SPLIT_AFTER_CONFLICTS)
    if plain:
        paths["plain"] = (GeneralEncoding(tables=False), problem, SPLIT_AFTER_CONFLICTS)
    found = {}
    for name, (encoding, source, split_after) in paths.items():
        searching = PlainSearch if name == "plain" else ModelSearch
        search = searching(encoding.encode(source, z3.Context()), time.monotonic() + seconds, split_after=split_after)
        models = [as_reference(case, source)(model) for model in search]
        found[name] = (models, search.end is not None and search.end.complete)
    return found


def check_encodings(case: Case, expected: Solutions, plain: bool = False, seconds: float = SECONDS) -> None:
    """Every encoding's complete solution set equals brute force's; a search that did not finish fails,
    unless `may_run_out` says why that encoding need not finish: then, reported as a warning, every
    model it listed must still be a solution and none repeated."""
    problem = check(parse(case.text), make_rules(**case.rules))
    chosen = choose(problem).name
    for name, (models, complete) in smtcrypt_paths(case, plain, seconds).items():
        assert len(set(models)) == len(models), f"the {name} encoding repeated a solution of {case}"
        excuse = may_run_out(name, chosen, problem, expected)
        if not complete and excuse is not None:
            assert set(models) <= expected, f"the {name} encoding listed a non-solution of {case}: {sorted(set(models) - expected)}"
            warnings.warn(f"the {name} encoding listed {len(models)} of {len(expected)} solutions of {case} "
                          f"in {seconds} s ({excuse}): its completeness not compared", stacklevel=2)
            continue
        assert complete, f"the {name} encoding did not finish {case}"
        assert set(models) == expected, (f"the {name} encoding differs from brute force on {case}: "
                                         f"missing {sorted(expected - set(models))}, wrong {sorted(set(models) - expected)}")


def may_run_out(name: str, chosen: str, problem: Problem, expected: Solutions) -> str | None:
    """Why the encoding `name` need not list every solution in the time, or None if it must.

    The encoding `choose` picks, which the z3 strategy uses, always must (and must again under
    check_strategies). The others are here to be compared for exactness, not speed, and may run out:
    - the plain reference encoding, whose nonlinear terms Z3 may need minutes for;
    - on a dense puzzle (more than DENSE solutions): listing thousands of models takes one check
      each (the general encoding's gcd took many minutes for 4,096; `--strategy z3` seconds);
    - the general encoding where the bit-vector encoding takes the formula (`choose` prefers it for
      just such formulas): Z3's integer arithmetic may need minutes for nonlinear terms the bit-blasted
      search settles in seconds. A gcd is stated by Bezout coefficients, unknowns each check looks for
      anew, so even a few hundred models may outlast the time (GCD_EXAMPLE); a variable power compared
      with a quotient by a word, `B ** A > ((.2(30) / A5BA) > B ** A)` in base 16, took over a minute
      for 225 models the bit-vector encoding lists in 3 s.
    """
    if name == "plain":
        return "the plain encoding"
    if name == "general" and chosen == "general" and predicate_of_a_computed_term(problem):
        return GENERAL_PREDICATES
    if name == chosen:
        return None
    if len(expected) > DENSE:
        return "a dense puzzle"
    if name == "general" and chosen == "bitvec":
        return "the general encoding where the bit-vector one is chosen"
    return None


DENSE = 500  # solutions above which only the z3 strategy's encoding must list them all in the time

# The cases where the chosen encoding, and so the z3 strategy, may end unknown: the general encoding
# (chosen for a formula with integer unknowns or a root) states a nonlinear function of a term other than a
# word, wider than a table: a number-theory word by trial divisions, a root witness or a chain of digit
# divisions, or a root (a power by a constant that is not an integer) by a witness raised to the root's
# degree. Z3's nonlinear arithmetic may not settle these in the time (`0 <= x <= 0,
# is_prime(sum(range(ACC)))`: unknown after 60 s, where the bit-vector encoding of the same predicate
# proves it in 2 s and auto in 0.02 s; `rev(sum(range(C)))` in base 12 beside an unknown x; `B ** A <
# ((0.4(A) % 1.(21))) ** (2/3)` in base 6: unknown after 60 s, auto 0.2 s). Unknown is never wrong: what
# it listed must still be solutions, and the other strategies, auto among them, must decide.
GENERAL_PREDICATES = "a number-theory word or a root of a computed term in the general encoding"


def _computed(node: object) -> bool:
    return not isinstance(node, (Word, Number, Name))


def predicate_of_a_computed_term(problem: Problem) -> bool:
    """Whether the formula applies a number-theory word (a predicate, `dsum` or `rev`), or a root, to
    something other than a word, a number or a name."""
    for constraint in problem.formula.constraints:
        for node in walk(constraint):
            if isinstance(node, Call) and node.name in NUMBER_WORDS and any(map(_computed, node.args)):
                return True
            if isinstance(node, BinOp) and node.op == "**" and _computed(node.left) and not (
                    isinstance(node.right, Number) and node.right.value.denominator == 1):
                return True
    return False


def check_strategies(case: Case, expected: Solutions, seconds: float = SECONDS) -> None:
    """Each strategy, forced, lists exactly the reference's solutions, counts them, and gives the
    reference's verdict; a strategy may refuse a puzzle only where it says it cannot search it."""
    puzzle = smtcrypt.Puzzle(case.text, **case.rules)
    want = {0: smtcrypt.Status.NONE, 1: smtcrypt.Status.UNIQUE}.get(len(expected), smtcrypt.Status.MULTIPLE)
    for strategy in STRATEGIES:
        try:
            search = puzzle.search(timeout=seconds, strategy=strategy)
        except StrategyError as error:  # the exhaustive one takes unknowns that the formula bounds, as here
            assert strategy in OPTIONAL, f"the {strategy} strategy refused {case}: {error}"
            continue
        started = time.monotonic()
        found = [listed(case, solution) for solution in search]
        verdict = search.verdict()
        # counting does the listing's work again: on a loaded machine give it what the listing took, twice
        again = max(seconds, 2 * (time.monotonic() - started))
        if not verdict.complete and strategy == "z3" and choose(fold(puzzle.problem)).name == "general" and (
                predicate_of_a_computed_term(puzzle.problem)):
            assert set(found) <= expected, case
            assert verdict.status is smtcrypt.Status.UNKNOWN or (
                verdict.status is smtcrypt.Status.MULTIPLE and len(set(found)) >= 2), (case, verdict.status)
            warnings.warn(f"the z3 strategy ended unknown on {case} ({GENERAL_PREDICATES})", stacklevel=2)
            continue
        assert verdict.complete, f"the {strategy} strategy did not finish {case}: {verdict.reason}"
        assert len(set(found)) == len(found), f"the {strategy} strategy repeated a solution of {case}"
        assert set(found) == expected, (f"the {strategy} strategy differs from brute force on {case}: "
                                        f"missing {sorted(expected - set(found))}, wrong {sorted(set(found) - expected)}")
        assert verdict.status is want and verdict.count == len(expected)
        assert verdict.stats is not None
        used, proof = verdict.stats.strategy, verdict.proof
        if strategy in PROOFS:
            assert used == strategy and proof is PROOFS[strategy], (strategy, used, proof)
        else:
            assert used and set(used.split(" -> ")) <= set(PROOFS) and isinstance(proof, Proof), (used, proof)
        assert puzzle.count(timeout=again, strategy=strategy) == len(expected), f"{strategy} counted {case}"
        decided = puzzle.verdict(timeout=again, strategy=strategy)
        assert decided.status is want, f"the {strategy} strategy's verdict on {case} is {decided.status.value}"
        shown = {listed(case, solution) for solution in decided.solutions}
        assert len(shown) == len(decided.solutions) == min(len(expected), 2) and shown <= expected
        assert decided.complete or len(expected) >= 2  # unique and none are proofs


def check_against_reference(case: Case, plain: bool = False, seconds: float = SECONDS) -> None:
    """Every encoding and every strategy against the brute force. A formula smtcrypt refuses fails
    the test: the generator draws only formulas and rules within the documented limits."""
    try:
        smtcrypt.Puzzle(case.text, **case.rules)
    except smtcrypt.FormulaError as error:
        raise AssertionError(f"smtcrypt refused {case}: {error}") from error
    expected = reference_solutions(case)
    check_encodings(case, expected, plain, seconds)
    check_strategies(case, expected, seconds)


EXAMPLES = [
    Case("A ** B = A", {"distinct": True, "allow_leading_zeros": False}),
    Case("(A or B) == AB // 0", {"distinct": False, "allow_leading_zeros": True}),
    Case("A in {1/0, A}", {"distinct": False}),
    Case("A + x = B, 0 <= x <= 3", {"digits": [1, 2, 3, 4, 5]}, {"x": (0, 3)}),
    Case("x * n = A - B, -2 <= x <= 2, 0 <= n <= 1", {"domains": {"A": [4, 5]}, "assign": {"B": 2}},
         {"x": (-2, 2), "n": (0, 1)}),
    Case("0.(AB) = A / (B + 1)", {"base": 8, "allow_leading_zeros": True}),
    Case("1.2(3) * 30 = AB", {"domains": {"A": [3]}}),
    Case("0.A(B) < 1.2(3) - 1, gcd(AB, BA) > 1", {"base": 6}),
    Case("AB in range(A, 2 * B), sum(range(A, B)) = BA // 2 - A", {"distinct": False, "digits": [0, 2, 4, 6, 8]}),
    Case("7A - C0 in range(B), gcd(A, B, C) = 1", {"base": 10, "assign": {"C": 1}}),
    # the cubes once ran the finite-domain solver on a root's terms, which it gave up on
    Case("0 in {(B + 0)}, A ** (1/2) > 2", {"distinct": False, "allow_leading_zeros": True, "base": 2}),
    # Z3 ran for minutes on the root of 0.2(68) as two unknowns, and the portfolio left x to Z3 alone
    Case("1 <= x <= 3, not (0 + x) = (0.2(68)) ** (1/2) < A ** A",
         {"distinct": False, "allow_leading_zeros": True, "base": 16}, {"x": (1, 3)}),
    # Z3's general solver searched a minute for gcd(10, ABB, 1.(2))'s Bezout witnesses, or not, as other
    # searches in the process had gone: a gcd with a constant argument is now a choice among its divisors
    Case("((n + n) + gcd(10, ABB, 1.(2))) <= (n) ** -1 < 10, sum(range(n, 2)) not in range(abs(0BA), -10), "
         "2 <= x <= 5, -1 <= n <= 2", {"distinct": False, "allow_leading_zeros": True, "base": 3,
                                       "domains": {"A": [0, 1, 2]}, "assign": {"A": 2}}, {"x": (2, 5), "n": (-1, 2)}),
    # the general encoding took the root of .7(13) + A as two unknowns and Z3 ran past a minute: a sum
    # of letters and repeating decimals is now bounded, and its root a table of candidates
    Case("sum(range(A)) > ((.7(13) + A)) ** (1/2) < A ** C, 1.0(04) in {1.0(04), -2, -.7(13)}",
         {"distinct": False, "base": 8}),
]


# the same 50 formulas every run (so that a run's verdict does not depend on luck); -m slow draws 600 more
@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
@example(EXAMPLES[0])
@example(EXAMPLES[1])
@example(EXAMPLES[2])
@example(EXAMPLES[3])
@example(EXAMPLES[4])
@example(EXAMPLES[5])
@example(EXAMPLES[6])
@example(EXAMPLES[7])
@example(EXAMPLES[8])
@example(EXAMPLES[9])
@example(EXAMPLES[10])
@example(EXAMPLES[11])
@example(EXAMPLES[12])
@example(EXAMPLES[13])
def test_random_formulas_match_brute_force(case):
    check_against_reference(case)


# The slow runs draw with a fixed seed too (tests/conftest.py), so that "-m slow passes" holds for every run
# and not only for a lucky draw; a formula a run once failed on is kept as an example. 600 formulas: each
# takes every encoding about 1.7 s of CPU (Z3 on nonlinear terms), so the 10,000 drawn before took hours
# and no run finished; 600 take about 17 minutes. More: `--hypothesis-profile=explore` draws anew.
@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(most=SLOW_SPACE))
# found by a slow run: a root of a computed term, which the general encoding (chosen) did not settle in the
# time; auto decides it (see GENERAL_PREDICATES)
@example(Case("B ** A < ((0.4(A) % 1.(21))) ** (2/3)", {"distinct": False, "allow_leading_zeros": True, "base": 6}))
# dense: all 4,096 assignments solve it, which the general encoding lists slowly
@example(Case("not 0ACB = (0.(5A) / .(A6)) == gcd(BAA8, BCA), A ** B > -0.0(80) or (7 <= 3 = C) > B ** A <= 0.A(8)",
              {"distinct": False, "allow_leading_zeros": True, "base": 16}))
def test_random_formulas_match_brute_force_many(case):
    check_against_reference(case)


# found by the slow run: 224 solutions, which the general encoding did not list in SECONDS (see may_run_out),
# while the bit-vector encoding, which `choose` picks, and every strategy list them at once
GCD_EXAMPLE = Case("gcd(A8, CDB) < 0.(A0) or (AAC * 0.(A0)) < C ** C", {"allow_leading_zeros": True, "assign": {"A": 7}})


@pytest.mark.slow  # the general encoding's listing runs out its 5 s
def test_a_gcd_formula_with_many_solutions_need_finish_only_in_the_chosen_encoding():
    problem = check(parse(GCD_EXAMPLE.text), make_rules(**GCD_EXAMPLE.rules))
    assert choose(problem).name == "bitvec"
    expected = reference_solutions(GCD_EXAMPLE)
    assert len(expected) == 224 and may_run_out("general", "bitvec", problem, expected) is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the general encoding's listing, cut short
        check_encodings(GCD_EXAMPLE, expected, seconds=5.0)
    check_strategies(GCD_EXAMPLE, expected)


# found by the slow run: the bit-vector encoding's trial division of A ** A (up to 9 ** 9: 2,200 prime
# divisors) took Z3 30 s to a minute to refute; a prime test of a term of few letters is now decided
# assignment by assignment (encode/bitvec/encoder.py, prime_by_cases), in milliseconds
PRIME_CASES = [Case("is_prime(A ** A)", {"distinct": True, "allow_leading_zeros": True}),
               Case("is_prime(AB ** C + 2)", {"distinct": True}),
               Case("is_prime(A ** B + C) or A = 2 * C", {"distinct": False})]


@pytest.mark.parametrize("case", [PRIME_CASES[0], pytest.param(PRIME_CASES[2], marks=pytest.mark.slow)],
                         ids=lambda case: case.text)
def test_a_prime_test_of_a_term_of_few_letters_is_decided_case_by_case(case):
    problem = check(parse(case.text), make_rules(**case.rules))
    assert choose(problem).name == "bitvec"
    check_strategies(case, reference_solutions(case), seconds=30.0)


@pytest.mark.slow
@pytest.mark.parametrize("case", PRIME_CASES, ids=lambda case: case.text)
def test_a_prime_test_of_a_term_of_few_letters_in_every_encoding(case):
    expected = reference_solutions(case)
    check_encodings(case, expected, seconds=30.0)
    check_strategies(case, expected, seconds=30.0)


WILDCARD_EXAMPLES = [
    Case("A? + ?A = 1?1", {"distinct": True}),
    Case("AB? * C = ?BA, A != C", {"distinct": ["AB"], "digits": [0, 1, 2, 5, 7]}),
    Case("?A - B? = ?", {"distinct": ["AB"], "allow_leading_zeros": True, "base": 4}),
    Case("A + B = C?, C < A + B", {"distinct": ["AB", "BC"], "digits": [1, 3, 5, 7, 9]}),
]


# wildcards and --distinct groups: a sample of their own, so that the 100 formulas above stay as they were
@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(cases(extras=True))
@example(WILDCARD_EXAMPLES[0])
@example(WILDCARD_EXAMPLES[1])
@example(WILDCARD_EXAMPLES[2])
@example(WILDCARD_EXAMPLES[3])
def test_random_formulas_with_wildcards_and_groups_match_brute_force(case):
    check_against_reference(case)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(most=SLOW_SPACE, extras=True))
def test_random_formulas_with_wildcards_and_groups_match_brute_force_many(case):
    check_against_reference(case)


def test_the_generator_draws_wildcards_and_groups():
    drawn = []

    @settings(max_examples=100, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(cases(extras=True))
    def collect(case):
        drawn.append(case)

    collect()
    assert sum("?" in case.text for case in drawn) >= 20
    assert sum(not isinstance(case.rules["distinct"], bool) for case in drawn) >= 10
    assert any("?" in case.text and not isinstance(case.rules["distinct"], bool) for case in drawn)


# found by the slow run: the plain encoding's bit-blasting of B ** B and C ** A took memory until Z3,
# under smtcrypt's memory_max_size, aborted the process; bounded (PlainSearch), the general solver proves it
PLAIN_MEMORY_EXAMPLE = Case("1.1(B) >= B ** B, C ** A = max(1, 0.5, 0.5) != 0.9(2) and "
                            "sum(range(C)) >= sum(range(A)) = (1) ** 3",
                            {"base": 12, "distinct": True, "allow_leading_zeros": True, "digits": [4, 5, 7, 8, 9, 11]})


@pytest.mark.slow  # the plain encoding takes half a minute here
def test_the_plain_encoding_gives_up_bit_blasting_before_the_memory_runs_out():
    z3.set_param("memory_max_size", DEFAULT_MEMORY_MB)  # as every smtcrypt search leaves it
    assert reference_solutions(PLAIN_MEMORY_EXAMPLE) == set()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every encoding, the plain one too, must finish here
        check_encodings(PLAIN_MEMORY_EXAMPLE, set(), plain=True)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases(most=SLOW_SPACE))
@example(PLAIN_MEMORY_EXAMPLE)
def test_random_formulas_match_brute_force_and_the_plain_encoding(case):
    check_against_reference(case, plain=True)  # the plain encoding needs seconds per nonlinear formula


@pytest.mark.slow  # 600 draws; the property tests above draw from the same generator every run
def test_the_generator_draws_every_feature():
    """Each rule and each kind of term comes up in the formulas the property tests draw."""
    drawn = []

    @settings(max_examples=600, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def collect(case):
        drawn.append(case)

    collect()
    seen = set()
    for case in drawn:
        for constraint in parse(case.text).constraints:
            for node in walk(constraint):
                if isinstance(node, Call):
                    seen.add(node.name if node.name != "range" else f"range/{len(node.args)}")
                    if node.name == "sum" and isinstance(node.args[0], Call):
                        seen.add(f"sum of range/{len(node.args[0].args)}")
                elif isinstance(node, Compare):
                    seen.update(f"{op} {type(right).__name__}" + (f"/{len(right.args)}" if isinstance(right, Call) else "")
                                for op, right in zip(node.ops, node.operands[1:]))
                elif isinstance(node, (BinOp, BoolOp)):
                    seen.add(node.op)
                elif isinstance(node, Repeating):
                    seen.add("repeating with a letter" if any(c.isalpha() for c in node.fixed + node.period)
                             else "repeating of digits")
                else:
                    seen.add(type(node).__name__)
    for feature in [*WORD_NAMES, "gcd", "abs", "min", "max", "sum of range/1", "sum of range/2", "in Call/1", "in Call/2",
                    "not in Call/2", "in Collection", "not in Collection", "**", "//", "%", "/", "and", "or",
                    "Not", "Unary", "Name", "Word", "Number", "repeating with a letter", "repeating of digits"]:
        assert feature in seen, feature
    assert any(any(ch.isdigit() for ch in node.letters) for case in drawn for c in parse(case.text).constraints
               for node in walk(c) if isinstance(node, Word)), "a literal digit in a word"
    assert any(case.bounds for case in drawn) and any(len(case.bounds) == 2 for case in drawn)
    for rule in ("base", "digits", "domains", "assign"):
        assert any(rule in case.rules for case in drawn), rule
    assert {case.rules.get("base", 10) for case in drawn} >= {2, 3, 10, 16}
    assert any(case.rules.get("base") == 10 for case in drawn)  # an explicit base 10 too
    assert any(not case.rules["distinct"] for case in drawn) and any(case.rules["allow_leading_zeros"] for case in drawn)


# found by the slow run: the general encoding, chosen for the unknown x, did not settle the primality
# of sum(range(ACC)) in a minute (see GENERAL_PREDICATES); every other strategy proves there is no solution
PREDICATE_EXAMPLE = Case("0 <= x <= 0, is_prime(sum(range(ACC)))", {"allow_leading_zeros": True}, {"x": (0, 0)})


# found by a later slow run: the digits of a computed term (rev) beside an unknown, in base 12
REVERSAL_EXAMPLE = Case("((0) ** 0 > (x / x) = -x) > rev(sum(range(C))) != ((x / x) = x), 0 <= x <= 2",
                        {"distinct": True, "allow_leading_zeros": False, "base": 12}, {"x": (0, 2)})


@pytest.mark.slow  # each waits out the general encoding's 3 s twice
@pytest.mark.parametrize("case", [PREDICATE_EXAMPLE, REVERSAL_EXAMPLE], ids=["is_prime", "rev"])
def test_a_number_word_of_a_computed_term_may_leave_only_the_z3_strategy_unknown(case):
    problem = check(parse(case.text), make_rules(**case.rules))
    assert choose(problem).name == "general" and predicate_of_a_computed_term(problem)
    expected = reference_solutions(case)
    assert expected == set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the general encoding's search, cut short
        check_encodings(case, expected, seconds=3.0)
        check_strategies(case, expected, seconds=3.0)
