"""The bit-vector encoding: the formula as Z3 bit-vector terms that cannot overflow.

For nonlinear formulas that the products encoding does not take (`AB % C + D = E`,
`gcd(AB, CD) = E`, `max(A, B) - min(C, D) = E + F`, `A**N + B**N = C**N`), so that a plain
incremental QF_BV solver can enumerate their models: it keeps its state and its learned clauses
from one model to the next, instead of bit-blasting the whole formula again for every check.

Every integer is a `Z`: a signed (two's complement) bit-vector term together with sound bounds
[lo, hi] on its value, computed from the digits each letter may take (`problem.allowed`) and
the base; the term is exactly as wide as those bounds need. An operation is built at a width
that holds its exact result:
- `+`, `-`, `*` at the width of the result's bounds, the operands extended or truncated to it:
  arithmetic modulo 2**w is a ring homomorphism, so the low w bits of the result are right
  whatever the operands' widths, and w bits hold the whole result;
- division, remainder, comparisons and choices at a width that holds every operand (and the
  result, with a spare value either side for the truncated quotient that floor division adjusts).
Non-negative values are zero-extended, so their upper bits are constants the bit-blaster drops.
A bound holds wherever the term is defined and the puzzle's rules hold; a term whose bounds
meet is replaced by that constant.

As in the general encoding, a value is a fraction num/den (two `Z`s, den > 0) and each node
also yields `ok`, the condition that Python evaluates it without error (no zero divisor, only
integers where gcd and range need them); the tree walk both share (`encode/walk.py`) makes
`and`, `or` and comparison chains short-circuit as Python does. A constraint holds when it is
`ok` and its value is nonzero.

Letters are unsigned bit-vectors of the base's digit width (4 bits in base 10), kept to their
allowed digits by the rules. Products and powers are bit-vector multiplications (a letter to a
power is a table over its digits; a variable exponent chooses among its few values), quotients
keep a denominator as in the general encoding, floor division and remainder follow Python's
signs, gcd is Euclid's algorithm unrolled over Lamé's bound of its steps, and sum(range(a, b))
is the closed form max(0, b - a) * (a + b - 1) / 2.

Declined: integer unknowns (unbounded), rational exponents (roots), and anything whose bounds
need more than `ints.MAX_WIDTH` bits.

The bounded integers are in `ints`, their fractions in `rationals`, the letters, the rules and
the node cases of this encoding's own in `encoder`.
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
