"""The formula as one Z3 term, for the tools that prove facts about a puzzle rather than search it.

The explainer proves each step by asking Z3 whether the step's conclusion can fail; for a
constraint that is neither a sum nor a product, the rule it proves with is the constraint itself.
The tools sit above the search and never reach into the encodings: they get the general
encoding's term from here, made in a context that is safe to free on any thread.
"""

from __future__ import annotations

import z3

from smtcrypt.core.check import Problem
from smtcrypt.encode.base import Context
from smtcrypt.encode.general import formula_terms


def proof_context() -> z3.Context:
    """A fresh Z3 context for a tool's proofs, made and freed under the process-wide lock."""
    return Context()


def formula_term(problem: Problem, context: z3.Context) -> z3.BoolRef | None:
    """The formula as one Bool over one Int per letter (named after it), with the definitions of
    any auxiliary terms, the puzzle's rules left out; None where the formula has integer unknowns
    or needs witnesses (its negation would need a quantifier)."""
    terms = formula_terms(problem, context)
    if terms is None:
        return None
    return z3.And(terms.formula, *terms.side) if terms.side else terms.formula
