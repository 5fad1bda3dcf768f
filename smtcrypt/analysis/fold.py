"""Fold `or`, `and` and `not` whose operands' truth is known from their bounds, so that a faster encoding
takes the constraint: `(2 * BE or not 2 * BE) = THE + QUES - TION` is a plain sum (2 * BE is at least
20). Only the encoder sees the folded tree; the exact re-check evaluates the formula as written."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any, cast

from smtcrypt.analysis.facts import problem_fact
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import interval
from smtcrypt.core.tree import BinOp, BoolOp, Constraints, Expr, Not, Number, walk


@problem_fact
def fold(problem: Problem) -> Problem:
    """The problem with every foldable `or`, `and` and `not` replaced by its value."""
    if not any(isinstance(node, (BoolOp, Not)) for constraint in problem.formula.constraints
               for node in walk(constraint)):  # nothing to fold: a walk costs a third of the rebuilding one
        return problem
    renamed: dict[BinOp, BinOp] = {}  # rebuilt power nodes, so their checked exponents follow them
    constraints = tuple(_fold(node, problem, renamed) for node in problem.formula.constraints)
    if all(new is old for new, old in zip(constraints, problem.formula.constraints)):
        return problem
    return dataclasses.replace(
        problem, formula=Constraints(constraints, problem.formula.source),
        constant_exponents={renamed.get(node, node): value for node, value in problem.constant_exponents.items()},
        exponent_ranges={renamed.get(node, node): value for node, value in problem.exponent_ranges.items()})


def truth(node: Expr, problem: Problem) -> bool | None:
    """True if the node is never 0, False if it is always 0, None if that depends on the digits."""
    bounds = interval(node, problem.rules)
    if bounds is None:
        return None
    low, high = bounds
    return True if low > 0 or high < 0 else False if low == high == 0 else None


def _fold(node: Expr, problem: Problem, renamed: dict[BinOp, BinOp]) -> Expr:
    changes: dict[str, Expr | tuple[Expr, ...]] = {}
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if isinstance(value, tuple) and value and not isinstance(value[0], str):
            items = tuple(_fold(item, problem, renamed) for item in value)
            if any(new is not old for new, old in zip(items, value)):
                changes[field.name] = items
        elif field.name in ("left", "right", "operand") and (folded := _fold(value, problem, renamed)) is not value:
            changes[field.name] = folded
    if changes:
        # replace() on a union of node types: mypy would check the fields against every member
        rebuilt: Expr = dataclasses.replace(cast(Any, node), **changes)
        if isinstance(node, BinOp) and isinstance(rebuilt, BinOp):
            renamed[node] = rebuilt
        node = rebuilt
    if isinstance(node, Not):
        known = truth(node.operand, problem)
        return node if known is None else Number(Fraction(0 if known else 1), "0" if known else "1", node.span)
    return _fold_bool(node, problem) if isinstance(node, BoolOp) else node


def _fold_bool(node: BoolOp, problem: Problem) -> Expr:
    """Python's rules: `a or b` is a unless a is 0; `a and b` is a if a is 0, else b."""
    operands = list(node.operands)
    while len(operands) > 1:
        known = truth(operands[0], problem)
        if known is None:
            break
        if known == (node.op == "or"):  # a nonzero `or` operand, or a zero `and` operand, decides
            return operands[0]
        operands.pop(0)  # a zero `or` operand, or a nonzero `and` operand, passes to the next
    if len(operands) == 1:
        return operands[0]
    return node if len(operands) == len(node.operands) else dataclasses.replace(node, operands=tuple(operands))
