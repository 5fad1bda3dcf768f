"""The bit-vector encoding: the formula as Z3 bit-vector terms that cannot overflow.

For nonlinear formulas that the products encoding does not take (`AB % C + D = E`,
`gcd(AB, CD) = E`, `A**N + B**N = C**N`), so that a plain incremental QF_BV solver can enumerate
their models: it keeps its learned clauses from one model to the next, instead of bit-blasting the
whole formula again for every check.

Every integer is a `Z` (ints.py): a signed bit-vector term with sound bounds on its value, from the
digits each letter may take, and exactly as wide as those bounds need. `+`, `-` and `*` are built at
the width of the result's bounds (arithmetic modulo 2**w is a ring homomorphism, so the low w bits
are right whatever the operands' widths); division, remainder, comparisons and choices at a width
that holds every operand. A value is a fraction of two `Z`s (rationals.py), walked as in the
general encoding (walk.py); letters are unsigned bit-vectors of the base's digit width.

Declined: integer unknowns (unbounded), rational exponents (roots), and anything whose bounds
need more than `ints.MAX_WIDTH` bits.
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
        # The letters are bit-vectors: not `digits_only`, whose packed read-back multiplies each
        # letter by 2**(6 * place) at the letter's own width.
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
