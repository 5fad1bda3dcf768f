"""Bounded integer unknowns searched as digits: `x` with `-3 <= x <= 3` becomes `-3 + 0Ω`, Ω a digit.

The backends that propagate (the linear and digit searches, the cubes) work on words of digits, and
an integer unknown is none: a formula with one was left to trying each of its values or to Z3 over
unbounded integers (`ABCDEFGH * m = HGFEDCBA` with `2 <= m <= 9` took 12 s, the same puzzle with a
letter M 0.2 s). Where the formula bounds an unknown (`analysis/unknowns.py`), its value is its least
one plus a number written in new digits of its own, cells that take no part in distinctness, like the
`?`s, and each of its values is one number of cells: every solution of the problem as written is
one of the problem so rewritten, and the other way round. The search runs on the rewritten problem;
the loop maps each assignment back (`values`) before the exact re-check, which reads the formula as
written. The word of cells starts with a literal 0, so the no-leading-zero rule never applies to
its first cell (the interval of such a word is then exact, from 0).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, cast

from smtcrypt.analysis.unknowns import MAX_VALUES, unknown_values
from smtcrypt.core.check import Problem, check
from smtcrypt.core.letters import WILDCARD_END
from smtcrypt.core.tree import BinOp, Constraints, Expr, Name, Word, number
from smtcrypt.engine.base import Assignment
from smtcrypt.errors import FormulaError

MAX_CELLS = 12  # digits of an unknown's span beyond which it is left to Z3's integers (a long word propagates little)
MAX_CELLS_IN_ALL = 256  # cells of all the unknowns beyond which they are searched as they are (names run out)


@dataclasses.dataclass(frozen=True)
class UnknownsAsDigits:
    """A problem whose bounded unknowns are written in cells, and how to read them back."""

    problem: Problem  # the rewritten problem, for the engine
    cells: Mapping[str, tuple[int, str]]  # unknown -> (its least value, its cells, most significant first)
    names: tuple[str, ...]  # the letters and unknowns of the problem as written, alphabetically

    def values(self, assignment: Assignment) -> Assignment:
        """The assignment of the problem as written: each unknown's value from its cells' digits."""
        base = self.problem.rules.base
        mapped = {}
        for name in self.names:
            if name in self.cells:
                value, cells = self.cells[name]
                digits = 0
                for cell in cells:
                    digits = digits * base + assignment[cell]
                mapped[name] = value + digits
            else:
                mapped[name] = assignment[name]
        return mapped


def unknowns_as_digits(problem: Problem) -> UnknownsAsDigits | None:
    """The problem with its integer unknowns written in digits, where the formula bounds every one (to
    a set of values: its `in` test stays in the formula); None otherwise. A cell takes every digit of
    the base (`--digits` is for the letters and the `?`s) but the first, at most the span's first digit:
    the cells then hold at most about twice as many numbers as the unknown has values."""
    base = problem.rules.base
    values = unknown_values(problem, max(MAX_VALUES, base ** MAX_CELLS))
    if values is None or not all(values.values()) or \
            sum(_width(held[-1] - held[0], base) for held in values.values()) > MAX_CELLS_IN_ALL:
        return None
    free = (chr(code) for code in range(WILDCARD_END - 1, 0, -1) if chr(code) not in problem.letters)
    cells: dict[str, tuple[int, str]] = {}
    every = frozenset(range(base))
    allowed = {}
    for name, held in values.items():
        # from 0 where that takes no more cells: a plain word multiplies into fewer terms than `least + word`
        least = 0 if held[0] >= 0 and _width(held[-1], base) == _width(held[-1] - held[0], base) else held[0]
        width = _width(held[-1] - least, base)
        cells[name] = least, "".join(next(free) for _ in range(width))
        allowed.update(dict.fromkeys(cells[name][1], every))
        if width:
            allowed[cells[name][1][0]] = frozenset(range((held[-1] - least) // base ** (width - 1) + 1))
    constraints = tuple(_written(node, cells) for node in problem.formula.constraints)
    try:
        rewritten = check(Constraints(constraints, problem.source), problem.rules)
    except FormulaError:  # beyond a limit once written out: searched as it is
        return None
    rewritten = dataclasses.replace(rewritten, allowed={**rewritten.allowed, **allowed})
    names = tuple(sorted([*problem.letters, *problem.unknowns]))
    return UnknownsAsDigits(rewritten, cells, names)


def _width(span: int, base: int) -> int:
    """The digits of `span` in the base (none for 0)."""
    width = 0
    while span:
        width, span = width + 1, span // base
    return width


def _written(node: Expr, cells: Mapping[str, tuple[int, str]]) -> Expr:
    """The node with each bounded unknown replaced by its least value plus the number of its cells."""
    if isinstance(node, Name):
        if node.name not in cells:
            return node
        least, digits = cells[node.name]
        if not digits:
            return number(least, node.span)
        word = Word("0" + digits, node.span)
        return word if least == 0 else BinOp("+", number(least, node.span), word, node.span)
    changes: dict[str, Any] = {}
    for field in dataclasses.fields(node):
        value = getattr(node, field.name)
        if isinstance(value, tuple) and value and not isinstance(value[0], str):
            changes[field.name] = tuple(_written(item, cells) for item in value)
        elif field.name in ("left", "right", "operand"):
            changes[field.name] = _written(value, cells)
    # replace() on a union of node types: mypy would check the fields against every member
    return dataclasses.replace(cast(Any, node), **changes) if changes else node
