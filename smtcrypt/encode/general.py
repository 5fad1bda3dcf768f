"""The general encoding: every formula, exactly, as Z3 integer terms.

A value is a fraction of Z3 Int terms (general_rationals.py), walked as in the bit-vector encoding
(walk.py). Products, powers and roots of letters become lookup tables, which keep a formula linear;
the number-theory words are tables where the values are few (encode/words.py), else bounded unknowns
that the argument fixes, else recursive functions that Z3 unfolds as far as a model needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import z3

from smtcrypt.analysis.arithmetic import divisors, repeating_fraction
from smtcrypt.analysis.unknowns import unknown_values
from smtcrypt.core.check import Problem, large_exponents
from smtcrypt.core.intervals import Interval, digit_count, interval
from smtcrypt.core.numerals import root_floor
from smtcrypt.core.rules import PRIME_LIMIT
from smtcrypt.core.tree import Call, Expr, Name, Repeating
from smtcrypt.encode import words
from smtcrypt.encode.base import Encoded, FormulaTerms, Ok, checkpoint, rule_constraints
from smtcrypt.encode.general_rationals import Rat, Rationals, Value

MAX_DIVIDEND = 10**8  # largest constant whose divisors a gcd chooses among (found by trial division)


class GeneralEncoding:
    """Accepts every problem. With `tables=False` it is the plain reference encoding (products and
    powers as Z3 nonlinear terms) that every faster encoding is tested against."""

    name = "general"

    def __init__(self, tables: bool = True):
        self.tables = tables  # letter products, variable powers and roots as linear lookup tables

    def accepts(self, problem: Problem) -> bool:
        """Every problem but one whose variable exponent takes more values than a power is split into
        (see core/check.splits): those are left to the backends that compute the formula."""
        return not large_exponents(problem)

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        return GeneralEncoder(problem, context, self.tables).run()


def formula_terms(problem: Problem, context: z3.Context) -> FormulaTerms | None:
    """The formula and the rules apart; None with integer unknowns or witness unknowns (see
    `GeneralEncoder.witnesses`), whose negation would need a quantifier."""
    if problem.unknowns or large_exponents(problem):
        return None
    encoder = GeneralEncoder(problem, context, tables=True)
    holds = encoder.holds()
    if encoder.witnesses:
        return None
    formula = holds[0] if len(holds) == 1 else z3.And(*holds)
    return FormulaTerms(context, encoder.letters, rule_constraints(problem, encoder.letters), encoder.side,
                        formula, encoder.linear, encoder.cases)


class GeneralEncoder(Rationals):
    """The tree walk over `Rat`s (general_rationals.py): the node cases of this encoding's own, gcd and
    the number-theory words."""

    def __init__(self, problem: Problem, context: z3.Context, tables: bool = True):
        super().__init__(problem, context, tables)
        self.recursions: dict[str, z3.FuncDeclRef] = {}  # recursive functions made, by what they compute
        self.unknowns = {name: z3.Int(name, context) for name in problem.unknowns}
        self.unknown_values = unknown_values(problem)  # their values, where the formula bounds every one

    def run(self) -> Encoded:
        constraints = rule_constraints(self.problem, self.letters) + self.holds() + self.side
        # the bounds the formula puts on its unknowns (analysis/unknowns.py), which every solution meets
        for name, values in (self.unknown_values or {}).items():
            var = self.unknowns[name]
            constraints += [var >= values[0], var <= values[-1]] if values else [z3.BoolVal(False, self.ctx)]
        unbounded = bool(self.unknowns) and self.unknown_values is None
        # bounded auxiliary unknowns allow bit-blasting (not over integer unknowns: Z3's general solver is faster)
        bounded = next(self.fresh) == self.bounded_fresh and not self.unknowns
        terms = "linear" if self.linear else "nonlinear"
        return Encoded(self.ctx, {**self.letters, **self.unknowns}, constraints, terms,
                       if_terms=self.cases, bounded=bounded, unbounded=unbounded)

    # --- the node cases of this encoding's own (the others are walk.py's) -------------------------

    def encode_repeating(self, node: Repeating) -> tuple[Value, Ok]:
        weights, literal, scale = repeating_fraction(node, self.problem.rules.base)
        if not weights:  # a constant: its roots are known (0.2(68) ** (1/2))
            return self.fraction(Fraction(literal, scale)), True
        return Rat(self.letters_value(weights, literal).num, scale, True), True

    def encode_name(self, node: Name) -> tuple[Value, Ok]:
        return Rat(self.unknowns[node.name]), True

    def gcd(self, nodes: Sequence[Expr], wholes: list[z3.ArithRef]) -> tuple[Rat, Ok]:
        """math.gcd of integer terms: where some arguments are constants with a nonzero gcd c, the
        greatest divisor of c that divides the others (a function of the letters: gcd(12, AB) chooses
        among 12, 6, 4, 3, 2 and 1); otherwise Bezout's witnesses."""
        bounds = [interval(node, self.problem.rules) for node in nodes]
        fixed = [bound[0] for bound in bounds if bound is not None and bound[0] == bound[1]]
        if len(fixed) == len(nodes):
            return self.fraction(Fraction(math.gcd(*fixed))), True
        constant = math.gcd(*fixed)
        if not 0 < constant <= MAX_DIVIDEND:
            return self.bezout_gcd(bounds, wholes)
        self.linear = False
        self.cases = True
        rest = [whole for whole, bound in zip(wholes, bounds) if bound is None or bound[0] != bound[1]]
        result = z3.IntVal(1, self.ctx)
        for d in divisors(constant)[1:]:  # the greatest that divides every other argument
            result = z3.If(z3.And(*[whole % d == 0 for whole in rest]), z3.IntVal(d, self.ctx), result)
        return Rat(result, 1, True), True

    def bezout_gcd(self, bounds: list[Interval | None], wholes: list[z3.ArithRef]) -> tuple[Rat, Ok]:
        """gcd by Bezout: g >= 0 divides every argument and is an integer combination of them, which
        pins g to the gcd. Where the arguments' bounds are known, every auxiliary unknown is bounded by
        what a solution needs, so the problem stays bit-blastable."""
        self.linear = False
        self.witnesses = True
        known = [max(abs(bound[0]), abs(bound[1])) for bound in bounds if bound is not None]
        sizes = known if len(known) == len(bounds) else None
        result, conditions = wholes[0], []
        for index, value in enumerate(wholes[1:], 1):
            g, ka, kb, u, v = (self.fresh_int(stem) for stem in ("gcd", "gcdq", "gcdq", "bezout", "bezout"))
            conditions += [g >= 0, result == g * ka, value == g * kb, g == u * result + v * value]
            if sizes is not None:
                first, second = sizes[0], sizes[index]
                for unknown, size in ((g, max(first, second)), (ka, first), (kb, second),
                                      (u, max(second, 1)), (v, max(first, 1))):
                    self.side.append(z3.And(unknown >= -size, unknown <= size))
                self.bounded_fresh += 5
                sizes[0] = max(first, second)  # the bound on g, the next step's first argument
            result = g
        return Rat(result, 1, True), z3.And(*conditions)

    # --- the number-theory words (see encode/words.py) --------------------------------------------

    def number_word(self, node: Call, wholes: list[z3.ArithRef]) -> tuple[Value, Ok]:
        x = wholes[0]
        if node.name == "divides":
            return self.divides(node, wholes), True
        bounds = self.whole_bounds(node.args[0])
        if node.name in ("dsum", "rev"):
            return self.digits_of(x, node.name, bounds), True
        # is_prime is undefined from PRIME_LIMIT on (see core/verify.py)
        defined: Ok = x < PRIME_LIMIT if node.name == "is_prime" and (bounds is None or bounds[1] >= PRIME_LIMIT) \
            else True
        if (by_letters := words.word_table(node, self.problem)) is not None:
            return words.trie(*by_letters, lambda letter, digit: self.letters[letter] == digit, self.ctx), defined
        if (listed := words.table(node, bounds, self.problem.rules.base)) is not None:
            return self.one_of(x, listed), defined
        if node.name == "is_palindrome":
            return self.digits_of(x, "rev", bounds).num == x, True
        if node.name == "is_prime":
            return self.prime(x, bounds), defined
        if node.name == "is_triangular":  # x = t(t + 1)/2 exactly when 8x + 1 = (2t + 1)**2
            high = None if bounds is None else 8 * bounds[1] + 1
            return z3.And(x >= 0, self.is_power_of(8 * x + 1, 2, high)), True
        return self.is_power_of(x, words.power_of(node), None if bounds is None else bounds[1]), True

    def one_of(self, x: z3.ArithRef, values: list[int]) -> z3.BoolRef:
        """x is one of the values (a table: linear)."""
        if not values:
            return z3.BoolVal(False, self.ctx)
        return z3.Or(*[x == value for value in values]) if len(values) > 1 else x == values[0]

    def is_power_of(self, y: z3.ArithRef, k: int, high: int | None) -> z3.BoolRef:
        """y = r**k for some r >= 0: y is the k-th power of its floor root, the largest r >= 0 with
        r**k <= max(y, 0), a fresh Int that y fixes (not a witness), bounded where y's upper bound is known."""
        self.linear = False
        self.cases = True
        root = self.fresh_int("root")
        floor = z3.If(y >= 0, y, z3.IntVal(0, self.ctx))
        if high is not None:  # where y is undefined its term may lie beyond: the root stays defined
            floor = z3.If(floor <= max(high, 0), floor, z3.IntVal(max(high, 0), self.ctx))
        self.side += [root >= 0, self.int_power(Rat(root), k).num <= floor,
                      floor < self.int_power(Rat(root + 1), k).num]
        if high is not None:
            self.side.append(root <= root_floor(max(high, 0), k))
            self.bounded_fresh += 1
        return z3.And(y >= 0, self.int_power(Rat(root), k).num == y)

    def prime(self, x: z3.ArithRef, bounds: Interval | None) -> z3.BoolRef:
        """Trial division by the primes up to the square root of x's upper bound, each a constant modulus;
        where there are too many of them (or no bound), a recursive search for a divisor."""
        self.linear = False
        divisors = None if bounds is None else words.trial_divisors(bounds[1])
        if divisors is not None:  # up to 10,000 of them: the search's stop and clock are read between
            tests = [x >= 2]
            for p in divisors:
                checkpoint(self.ctx)
                tests.append(z3.Or(x == p, x % p != 0))
            return z3.And(*tests)
        has_divisor = self.recursive("divisor", 2, lambda f, n, d: z3.If(
            d * d > n, z3.BoolVal(False, self.ctx), z3.Or(n % d == 0, f(n, d + 1))), z3.BoolSort(self.ctx))
        return z3.And(x >= 2, z3.Not(has_divisor(x, z3.IntVal(2, self.ctx))))

    def recursive(self, stem: str, arity: int, body: Callable[..., z3.ExprRef], result: z3.SortRef) -> z3.FuncDeclRef:
        """A recursive function of `arity` Ints (made once per encoding), for terms without bounds:
        Z3 unfolds it as far as a model needs."""
        if (made := self.recursions.get(stem)) is not None:
            return made
        function = z3.RecFunction(f"{stem}!{next(self.fresh)}", *([z3.IntSort(self.ctx)] * arity), result)
        arguments = [z3.Int(f"{stem}!arg{index}", self.ctx) for index in range(arity)]
        z3.RecAddDefinition(function, arguments, body(function, *arguments))
        self.recursions[stem] = function
        self.linear = False
        return function

    def digits_of(self, x: z3.ArithRef, name: str, bounds: Interval | None) -> Rat:
        """dsum(x) or rev(x) of an integer term: a table of its values where they are few, its digits as
        fresh Ints that x fixes where x has bounds, else a recursive function."""
        base = self.problem.rules.base
        values = words.digit_table(name, bounds, base)
        if values is not None:
            result = self.bounded_int(name, min(values.values()), max(values.values()))
            self.side += [z3.Implies(x == n, result == value) for n, value in values.items()]
            return Rat(result, 1, min(values.values()) >= 0)
        self.linear = False
        self.cases = True
        magnitude = x if bounds is not None and bounds[0] >= 0 else z3.If(x < 0, -x, x)
        if bounds is None:  # recursive functions of its magnitude
            if name == "dsum":
                digit_sum = self.recursive("dsum", 1, lambda f, n: z3.If(n < base, n, n % base + f(n / base)),
                                           z3.IntSort(self.ctx))
                return Rat(digit_sum(magnitude), 1, True)
            reversal = self.recursive("rev", 2, lambda f, n, acc: z3.If(
                n == 0, acc, f(n / base, acc * base + n % base)), z3.IntSort(self.ctx))
            reversed_x = reversal(magnitude, z3.IntVal(0, self.ctx))
            return Rat(z3.If(x < 0, -reversed_x, reversed_x), 1)
        largest = max(-bounds[0], bounds[1])
        count = digit_count(largest, base)
        # where x is undefined its term may lie beyond its bounds: the digits stay defined
        magnitude = z3.If(magnitude <= largest, magnitude, z3.IntVal(largest, self.ctx))
        digits = [self.bounded_int("digit", 0, base - 1) for _ in range(count)]  # the last first
        self.side.append(magnitude == z3.Sum(*[digit * base ** place for place, digit in enumerate(digits)]))
        if name == "dsum":
            return Rat(z3.Sum(*digits), 1, True)
        value: z3.ArithRef = z3.IntVal(0, self.ctx)
        for top in range(count):  # the reversal of the digits up to the highest nonzero one
            reversed_digits = z3.Sum(*[digits[place] * base ** (top - place) for place in range(top + 1)])
            value = z3.If(digits[top] != 0, reversed_digits, value)
        return Rat(value if bounds[0] >= 0 else z3.If(x < 0, -value, value), 1, bounds[0] >= 0)

    def divides(self, node: Call, wholes: list[z3.ArithRef]) -> z3.BoolRef:
        """d divides x: x = k*d for an integer k, so 0 divides only 0 (a constant d: one remainder)."""
        d, x = wholes
        self.linear = False
        fixed = self.whole_bounds(node.args[0])
        if fixed is not None and fixed[0] == fixed[1]:
            return x == 0 if fixed[0] == 0 else x % abs(fixed[0]) == 0
        return z3.Or(z3.And(d == 0, x == 0), z3.And(d != 0, x % d == 0))
