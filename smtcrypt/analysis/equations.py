"""The formula's conjuncts and equations, found once for the encodings, the backends and the tools.

Every solution meets every top-level constraint and every operand of a top-level `and`: these
conjuncts are what a backend may check one at a time, and the `==` among them are the equations
that the column and product encodings, the linear backend and the explainer read.
`SEND + MORE = MONEY and M > 0` has two conjuncts and one equation, `SEND + MORE` and `MONEY`.
"""

from __future__ import annotations

from collections.abc import Iterator

from smtcrypt.analysis.facts import problem_fact
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BoolOp, Compare, Expr, Not, walk


def and_parts(node: Expr) -> list[Expr]:
    """The node with its `and`s taken apart, left to right: `A = B and (C = D and E > 1)` -> its three comparisons."""
    parts, stack = [], [node]
    while stack:
        part = stack.pop()
        if isinstance(part, BoolOp) and part.op == "and":
            stack.extend(reversed(part.operands))
        else:
            parts.append(part)
    return parts


@problem_fact
def conjuncts(problem: Problem) -> list[Expr]:
    """The formula's constraints with their top-level `and`s taken apart, in order: each must hold."""
    return [part for constraint in problem.formula.constraints for part in and_parts(constraint)]


def is_equation(node: Expr) -> bool:
    """An `==` comparison, or a chain of them (`A = B = C`)."""
    return isinstance(node, Compare) and all(op == "==" for op in node.ops)


def equation_sides(problem: Problem) -> Iterator[tuple[Expr, Expr]]:
    """Both sides of every `==` of a conjunct, in order (a chain `A = B = C` gives A, B and B, C)."""
    for part in conjuncts(problem):
        if isinstance(part, Compare) and is_equation(part):
            yield from zip(part.operands, part.operands[1:])


def equation_chains(problem: Problem) -> list[Compare] | None:
    """The conjuncts as `==` chains, the last first (the order the encodings number their
    equations and carries in), or None if any conjunct is something else."""
    parts = conjuncts(problem)
    chains = [part for part in reversed(parts) if isinstance(part, Compare) and is_equation(part)]
    return chains if len(chains) == len(parts) else None


def only_equation(problem: Problem) -> bool:
    """True if the formula is one `A == B` and nothing else: its solutions need no further check."""
    constraints = problem.formula.constraints
    return len(constraints) == 1 and isinstance(constraints[0], Compare) and constraints[0].ops == ("==",)


def leaves_letters_free(problem: Problem) -> bool:
    """True if some constraint is more than equations: an inequality, `not`, `or` or `in` leaves
    letters free to vary (`ABC < DEF`); where every letter is pinned by an equation, a cube search's
    cubes are single models and not worth the checks that shrink them."""
    return any(isinstance(node, Not) or (isinstance(node, BoolOp) and node.op == "or")
               or (isinstance(node, Compare) and any(op != "==" for op in node.ops))
               for constraint in problem.formula.constraints for node in walk(constraint))
