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

from smtcrypt.analysis.equations import and_parts
from smtcrypt.analysis.linear import difference, walk_linear
from smtcrypt.core.check import Problem
from smtcrypt.core.tree import Compare, Expr, Name, walk
from smtcrypt.core.verify import Undefined, evaluate, satisfies

Linear = tuple[dict[str, Fraction], Fraction]  # (unknown -> coefficient, the constant term)
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


def unknowns_form(node: Expr, assignment: Assignment, base: int, free: frozenset[str]) -> Linear | None:
    """The node as a linear form of the `free` unknowns, everything else fixed by `assignment`
    (a product by a constant, a quotient by a nonzero one); None if it is not linear (or not defined)."""
    def fixed(part: Expr) -> Fraction | None:
        """The value of a part without a free unknown, where it is defined."""
        if any(isinstance(inner, Name) and inner.name in free for inner in walk(part)):
            return None
        try:
            return Fraction(evaluate(part, assignment, base))
        except Undefined:
            return None

    def leaf(part: Expr) -> Linear | None:
        if isinstance(part, Name) and part.name in free:
            return {part.name: Fraction(1)}, Fraction(0)
        value = fixed(part)
        return None if value is None else ({}, value)
    return walk_linear(node, leaf, fixed, reciprocal=lambda value: 1 / value)


def comparisons(node: Expr, assignment: Assignment, base: int,
                free: frozenset[str]) -> list[tuple[Linear, str]] | None:
    """A constraint as comparisons `form op 0`, if it is a conjunction of linear ones."""
    found: list[tuple[Linear, str]] = []
    for part in and_parts(node):
        if not (isinstance(part, Compare) and all(op in SIGNS for op in part.ops)):
            return None
        forms = [form for operand in part.operands
                 if (form := unknowns_form(operand, assignment, base, free)) is not None]
        if len(forms) < len(part.operands):
            return None
        found += [(difference(left, right), op) for left, right, op in zip(forms, forms[1:], part.ops)]
    return found


def find_family(problem: Problem, solution: Assignment, deadline: float | None = None,
                gaining: tuple[Expr, str] | None = None) -> Family | None:
    """A proof, from one solution, that infinitely many exist; None if this method finds none.
    With `gaining` (an objective, and ">" or "<"), a family along which the objective grows (or
    falls) without bound: a proof that it has no maximum (or minimum).

    First with every unknown free; then, for constraints that are not linear in all of them
    (`x * y = 0`), with all but one unknown fixed at the solution's values. Each Z3 check takes
    at most FAMILY_SECONDS, and no more than is left before the search's `deadline`."""
    if not problem.unknowns:
        return None
    everything = frozenset(problem.unknowns)
    for free in [everything, *(frozenset([name]) for name in problem.unknowns if len(everything) > 1)]:
        family = family_moving(problem, solution, free, deadline, gaining)
        if family is not None:
            return family
    return None


def family_moving(problem: Problem, solution: Assignment, free: frozenset[str],
                  deadline: float | None = None, gaining: tuple[Expr, str] | None = None) -> Family | None:
    """A family in which only the `free` unknowns move (and `gaining`'s objective strictly gains)."""
    import z3  # loaded with the first search, not on import

    from smtcrypt.encode.base import Context

    rows: list[tuple[Linear, str]] = []  # (a form, how a.d must lean: a sign of SIGNS, or strictly > or <)
    for constraint in problem.formula.constraints:
        found = comparisons(constraint, solution, problem.rules.base, free)
        if found is None:
            return None
        rows += [(form, SIGNS[op]) for form, op in found]
    if gaining is not None:  # the objective's form leans strictly the better way
        objective = unknowns_form(gaining[0], solution, problem.rules.base, free)
        if objective is None:
            return None
        rows.append((objective, gaining[1]))
    context = Context()
    step = {name: z3.Int(name, context) for name in sorted(free)}
    solver = z3.Solver(ctx=context)
    left = FAMILY_SECONDS if deadline is None else min(FAMILY_SECONDS, deadline - time.monotonic())
    if left <= 0:
        return None
    solver.set("timeout", max(1, int(left * 1000)))
    solver.set("ctrl_c", False)  # Ctrl-C belongs to the search (see engine/z3search.make_solver)
    solver.add(z3.Or(*[variable != 0 for variable in step.values()]))
    for form, sign in rows:
        lean = z3.Sum(z3.IntVal(0, context), *[z3.RealVal(coefficient, context) * step[name]
                                                for name, coefficient in form[0].items() if coefficient])
        if sign in (">", "<"):
            solver.add(lean > 0 if sign == ">" else lean < 0)
        elif sign == "=":
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
    if gaining is not None and not _gains(gaining, family, problem.rules.base):
        return None
    return family


def _gains(gaining: tuple[Expr, str], family: Family, base: int) -> bool:
    """The exact evaluator's agreement that the objective gains along the family, member by member."""
    expression, op = gaining
    try:
        values = [evaluate(expression, family.member(t), base) for t in (0, 1, 2, 1000)]
    except Undefined:
        return False
    return all(later > earlier if op == ">" else later < earlier for earlier, later in zip(values, values[1:]))
