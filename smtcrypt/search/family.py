"""A proof that a puzzle with integer unknowns has infinitely many solutions.

An enumeration over unbounded unknowns may never end (`x - y = 1`). Fix the letters at one
solution's digits: if every constraint is then a conjunction of linear comparisons of the
unknowns, a nonzero integer step d that keeps every equation (a.d = 0) and leans the allowed
way on every inequality (a.d >= 0 for a.x >= b, <= 0 for a.x <= b) makes x + t*d a solution for
every t = 0, 1, 2, ... (a `!=` fails for at most one t). Z3 looks for such a step; finding none
proves nothing, and the search then ends as `unknown`, as before.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from smtcrypt.core.check import Problem
from smtcrypt.core.tree import BinOp, BoolOp, Compare, Expr, Name, Unary, walk
from smtcrypt.core.verify import Undefined, evaluate, satisfies

Linear = dict[str, Fraction]  # unknown -> coefficient, and "" -> the constant term
Assignment = Mapping[str, int]
FAMILY_SECONDS = 2.0  # the most one check of a family's step may take (they take milliseconds)
SIGNS = {"==": "=", "!=": "any", "<": "<=", "<=": "<=", ">": ">=", ">=": ">="}  # how a.d must lean


@dataclass(frozen=True)
class Family:
    """Solutions start + t * step for t = 0, 1, 2, ... (all but finitely many of them)."""

    start: dict[str, int]
    step: dict[str, int]

    def member(self, t: int) -> dict[str, int]:
        return {name: value + t * self.step.get(name, 0) for name, value in self.start.items()}

    def describe(self) -> str:
        """`x = 2 + t, y = 1 + t for t = 0, 1, 2, ...`"""
        terms = []
        for name, step in self.step.items():
            if step:
                slope = "t" if abs(step) == 1 else f"{abs(step)}*t"
                start = self.start[name]
                terms.append(f"{name} = {'-' if step < 0 else ''}{slope}" if start == 0 else
                             f"{name} = {start} {'+' if step > 0 else '-'} {slope}")
        return "infinitely many solutions: " + ", ".join(terms) + " for t = 0, 1, 2, ..."


def linear(node: Expr, assignment: Assignment, base: int, free: frozenset[str]) -> Linear | None:
    """The node as a linear form of the `free` unknowns, everything else fixed by `assignment`;
    None if it is not linear (or not defined)."""
    if not any(isinstance(inner, Name) and inner.name in free for inner in walk(node)):
        try:
            return {"": Fraction(evaluate(node, assignment, base))}
        except Undefined:
            return None
    if isinstance(node, Name):
        return {node.name: Fraction(1)}
    if isinstance(node, Unary):
        inner = linear(node.operand, assignment, base, free)
        return None if inner is None else scale(inner, Fraction(-1 if node.op == "-" else 1))
    if isinstance(node, BinOp) and node.op in "+-*/":
        left, right = linear(node.left, assignment, base, free), linear(node.right, assignment, base, free)
        if left is None or right is None:
            return None
        if node.op in "+-":
            return add(left, scale(right, Fraction(1 if node.op == "+" else -1)))
        if node.op == "*":
            if set(left) <= {""}:
                return scale(right, left.get("", Fraction(0)))
            if set(right) <= {""}:
                return scale(left, right.get("", Fraction(0)))
            return None
        if set(right) <= {""} and right.get("", 0) != 0:  # "/" by a constant
            return scale(left, 1 / right[""])
    return None


def scale(form: Linear, factor: Fraction) -> Linear:
    return {name: coefficient * factor for name, coefficient in form.items()}


def add(left: Linear, right: Linear) -> Linear:
    total = dict(left)
    for name, coefficient in right.items():
        total[name] = total.get(name, Fraction(0)) + coefficient
    return total


def comparisons(node: Expr, assignment: Assignment, base: int,
                free: frozenset[str]) -> list[tuple[Linear, str]] | None:
    """A constraint as comparisons `form op 0`, if it is a conjunction of linear ones."""
    if isinstance(node, BoolOp) and node.op == "and":
        found: list[tuple[Linear, str]] = []
        for operand in node.operands:
            inner = comparisons(operand, assignment, base, free)
            if inner is None:
                return None
            found += inner
        return found
    if isinstance(node, Compare) and all(op in SIGNS for op in node.ops):
        forms = [form for operand in node.operands if (form := linear(operand, assignment, base, free)) is not None]
        if len(forms) < len(node.operands):
            return None
        return [(add(left, scale(right, Fraction(-1))), op)
                for left, right, op in zip(forms, forms[1:], node.ops)]
    return None


def find_family(problem: Problem, solution: Assignment, deadline: float | None = None) -> Family | None:
    """A proof, from one solution, that infinitely many exist; None if this method finds none.

    First with every unknown free; then, for constraints that are not linear in all of them
    (`x * y = 0`), with all but one unknown fixed at the solution's values. Each Z3 check takes
    at most FAMILY_SECONDS, and no more than is left before the search's `deadline`."""
    if not problem.unknowns:
        return None
    everything = frozenset(problem.unknowns)
    for free in [everything, *(frozenset([name]) for name in problem.unknowns if len(everything) > 1)]:
        family = family_moving(problem, solution, free, deadline)
        if family is not None:
            return family
    return None


def family_moving(problem: Problem, solution: Assignment, free: frozenset[str],
                  deadline: float | None = None) -> Family | None:
    """A family in which only the `free` unknowns move."""
    import z3  # loaded with the first search, not on import

    from smtcrypt.encode.base import Context

    rows: list[tuple[Linear, str]] = []
    for constraint in problem.formula.constraints:
        found = comparisons(constraint, solution, problem.rules.base, free)
        if found is None:
            return None
        rows += found
    context = Context()
    step = {name: z3.Int(name, context) for name in sorted(free)}
    solver = z3.Solver(ctx=context)
    left = FAMILY_SECONDS if deadline is None else min(FAMILY_SECONDS, deadline - time.monotonic())
    if left <= 0:
        return None
    solver.set("timeout", max(1, int(left * 1000)))
    solver.set("ctrl_c", False)  # Ctrl-C belongs to the search (see engine/z3search.make_solver)
    solver.add(z3.Or(*[variable != 0 for variable in step.values()]))
    for form, op in rows:
        lean = z3.Sum(z3.IntVal(0, context), *[z3.RealVal(coefficient, context) * step[name]
                                                for name, coefficient in form.items() if name and coefficient])
        sign = SIGNS[op]
        if sign == "=":
            solver.add(lean == 0)
        elif sign == "<=":
            solver.add(lean <= 0)
        elif sign == ">=":
            solver.add(lean >= 0)
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    family = Family(dict(solution), {name: model.eval(variable, model_completion=True).as_long()
                                     for name, variable in step.items()})
    # The argument above is the proof; the exact checker agrees on a few members, or no claim is made.
    if not all(satisfies(problem, family.member(t)) for t in (1, 2, 1000)):
        return None
    return family
