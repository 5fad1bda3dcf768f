"""The values a formula's own constraints leave its integer unknowns, where they are few.

An unknown is unbounded in general (`x - y = 1`), but a formula often bounds it itself: `1 <= x <=
3`, `x in range(5)`, `x in {1, 2, 7}`. Every solution meets every link of every comparison chain of
every conjunct, so a link between the unknown itself and a constant bounds it in every solution.
Only such links are read (nothing under `not` or `or`, no unknown inside an expression): what is
read is then sound, and the backends that try every assignment may loop over these values.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

from smtcrypt.analysis.equations import conjuncts
from smtcrypt.core.check import Problem, constant
from smtcrypt.core.tree import Call, Collection, Compare, Expr, Name

MAX_VALUES = 100_000  # values of one unknown beyond which it counts as unbounded (a loop over them would be long)
Values = range | tuple[int, ...]  # increasing


def unknown_values(problem: Problem, most: int | None = MAX_VALUES) -> dict[str, Values] | None:
    """Each unknown's values, increasing, when the formula bounds every unknown to at most `most`
    of them (None: any number); None if some unknown is unbounded (or the problem has none)."""
    if not problem.unknowns:
        return None
    low: dict[str, int] = {}
    high: dict[str, int] = {}
    sets: dict[str, frozenset[int]] = {}
    links = (link for node in conjuncts(problem) if isinstance(node, Compare)
             for link in zip(node.operands, node.ops, node.operands[1:]))
    for name, op, value in (bound for link in links for bound in _link(*link)):
        if isinstance(value, frozenset):  # op "in set"
            sets[name] = value if name not in sets else sets[name] & value
            continue
        if op == "==" and value.denominator != 1:
            sets[name] = frozenset()  # an integer equals no fraction
            continue
        if op in ("<", "<=", "=="):
            top = math.floor(value) - (op == "<" and value.denominator == 1)
            high[name] = min(high.get(name, top), top)
        if op in (">", ">=", "=="):
            bottom = math.ceil(value) + (op == ">" and value.denominator == 1)
            low[name] = max(low.get(name, bottom), bottom)
    values: dict[str, Values] = {}
    for name in problem.unknowns:
        if name in sets:
            values[name] = tuple(sorted(v for v in sets[name] if low.get(name, v) <= v <= high.get(name, v)))
        elif name in low and name in high:
            values[name] = range(low[name], max(low[name], high[name] + 1))
        else:
            return None
        if most is not None and values_count(values[name]) > most:
            return None
    return values


def values_count(values: Values) -> int:
    """How many values: len() fails past sys.maxsize (`0 <= x <= 10**30`)."""
    return values.stop - values.start if isinstance(values, range) else len(values)


MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def _link(left: Expr, op: str, right: Expr) -> Iterator[tuple[str, str, Fraction | frozenset[int]]]:
    """(unknown, op, constant) for a link `unknown op constant` (or `constant op unknown`, mirrored);
    op "in set" with the integers a `range` or literal holds."""
    if op == "in" and isinstance(left, Name):
        if isinstance(right, Collection):
            items = [constant(item) for item in right.items]
            known = [item for item in items if item is not None]
            if len(known) == len(items):  # an integer is in the literal only as one of its integers
                yield left.name, "in set", frozenset(int(item) for item in known if item.denominator == 1)
        elif isinstance(right, Call) and right.name == "range":
            bounds = [constant(arg) for arg in right.args]
            integers = [bound for bound in bounds if bound is not None and bound.denominator == 1]
            if len(integers) == len(bounds):
                start, stop = (Fraction(0), integers[0]) if len(integers) == 1 else (integers[0], integers[1])
                yield left.name, ">=", start
                yield left.name, "<", stop
        return
    if op not in MIRRORED:  # != and `not in` bound nothing
        return
    if isinstance(right, Name) and not isinstance(left, Name):  # `constant op unknown`
        left, op, right = right, MIRRORED[op], left
    if isinstance(left, Name):
        value = constant(right)
        if value is not None:
            yield left.name, op, value
