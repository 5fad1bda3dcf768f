"""The general encoding: every formula, exactly, as Z3 integer terms.

A value is a fraction of Z3 Int terms, with the bounds of terms (general_rationals.py), walked by
the tree walk both Z3 encoders share (walk.py); gcd and the number-theory words are in
general_numbers.py. Letter products, variable powers and roots become lookup tables over the
digits, which keep a formula linear.
"""

from __future__ import annotations

from fractions import Fraction

import z3

from smtcrypt.analysis.arithmetic import repeating_numerator
from smtcrypt.analysis.unknowns import unknown_values
from smtcrypt.core.check import Problem, large_exponents
from smtcrypt.core.numerals import repeating_scale
from smtcrypt.core.tree import Name, Repeating
from smtcrypt.encode.base import Encoded, FormulaTerms, Ok, rule_constraints
from smtcrypt.encode.general_numbers import NumberTheory
from smtcrypt.encode.general_rationals import Rat, Value


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


class GeneralEncoder(NumberTheory):
    """The tree walk over `Rat`s: the value algebra (general_rationals.py), gcd and the number-theory
    words (general_numbers.py), and the node cases of this encoding's own."""

    def __init__(self, problem: Problem, context: z3.Context, tables: bool = True):
        super().__init__(problem, context, tables)
        self.unknowns = {name: z3.Int(name, context) for name in problem.unknowns}
        self.unknown_values = unknown_values(problem)  # their values, where the formula bounds every one

    def run(self) -> Encoded:
        problem = self.problem
        constraints = rule_constraints(problem, self.letters) + self.holds()
        constraints += self.side
        # the bounds the formula puts on its unknowns, stated apart: every solution meets them
        # (see analysis/unknowns.py)
        for name, values in (self.unknown_values or {}).items():
            var = self.unknowns[name]
            constraints += [var >= values[0], var <= values[-1]] if values else [z3.BoolVal(False, self.ctx)]
        unbounded = bool(self.unknowns) and self.unknown_values is None
        # every auxiliary unknown has bounds: then bit-blasting is possible (not tried over integer unknowns,
        # bounded or not: Z3's general solver was the faster on the property tests' formulas)
        bounded = next(self.fresh) == self.bounded_fresh and not self.unknowns
        terms = "linear" if self.linear else "nonlinear"
        return Encoded(self.ctx, {**self.letters, **self.unknowns}, constraints, terms,
                       if_terms=self.cases, bounded=bounded, unbounded=unbounded)

    # --- the node cases of this encoding's own (the others are walk.py's) -------------------------

    def encode_repeating(self, node: Repeating) -> tuple[Value, Ok]:
        weights, literal = repeating_numerator(node, self.problem.rules.base)
        scale = repeating_scale(node.fixed, node.period, self.problem.rules.base)
        if not weights:  # a constant: its roots are known (0.2(68) ** (1/2))
            return self.fraction(Fraction(literal, scale)), True
        return Rat(self.letters_value(weights, literal).num, scale, True), True

    def encode_name(self, node: Name) -> tuple[Value, Ok]:
        return Rat(self.unknowns[node.name]), True

