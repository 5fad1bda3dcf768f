"""The bit-vector encoding: the formula as Z3 bit-vector terms that cannot overflow.

For nonlinear formulas that the products encoding does not take (`AB % C + D = E`, `gcd(AB, CD) = E`),
so that an incremental QF_BV solver can enumerate their models, keeping its learned clauses from one
model to the next. Every integer is a bounded `Z` exactly as wide as its bounds need (ints.py); a
value is a fraction of two (rationals.py), walked as in the general encoding (walk.py). Declined:
integer unknowns, rational exponents, and anything wider than `ints.MAX_WIDTH` bits.
"""

from __future__ import annotations

import threading

import z3

from smtcrypt.core.check import Problem
from smtcrypt.encode.base import Context, Encoded, FormulaTerms, Unsupported
from smtcrypt.encode.bitvec.encoder import BitVecEncoder

__all__ = ["BitVecEncoding", "formula_terms"]

_scratch = threading.local()  # where accepts() builds terms that it then drops


class BitVecEncoding:
    """Formulas as overflow-free bit-vector terms, for an incremental QF_BV solver."""

    name = "bitvec"

    def accepts(self, problem: Problem) -> bool:
        if problem.unknowns or any(value.denominator != 1 for value in problem.constant_exponents.values()):
            return False
        context = getattr(_scratch, "context", None)
        if context is None:  # a context per thread: making one is not cheap
            context = _scratch.context = Context()
        try:
            BitVecEncoder(problem, context).holds()
        except Unsupported:
            return False
        return True

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        encoder = BitVecEncoder(problem, context)
        constraints = encoder.rules() + encoder.holds() + encoder.indicators()
        # not `digits_only`: its read-back packs each letter times 2**(6 * place), past a bit-vector letter's width
        return Encoded(context, dict(encoder.letters), constraints, "bit-vector", indicators=True)


def formula_terms(problem: Problem, context: z3.Context) -> FormulaTerms | None:
    """The formula and the rules apart, as bit-vector terms (see `base.FormulaTerms`): every
    node's definedness is part of the formula, so its negation needs no quantifier. None where
    this encoding declines the problem."""
    try:
        encoder = BitVecEncoder(problem, context)
        holds = encoder.holds()
    except Unsupported:
        return None
    formula = holds[0] if len(holds) == 1 else z3.And(*holds)
    return FormulaTerms(context, dict(encoder.letters), encoder.rules(), [], formula, linear=False, cases=False,
                        solver="bit-vector")
