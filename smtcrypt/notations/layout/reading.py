"""The layout's door: a long multiplication or division as printed, with conditions on its letters."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from smtcrypt.core.check import Problem
from smtcrypt.core.clock import Clock
from smtcrypt.core.letters import WILDCARD_NAMES
from smtcrypt.core.results import FormulaText, Solution
from smtcrypt.core.rules import Rules, rules_of
from smtcrypt.notations.base import Reading, View
from smtcrypt.notations.layout.conditions import LayoutFormula
from smtcrypt.notations.layout.formula import PrintedLayout
from smtcrypt.notations.layout.reader import parse_layout


class LayoutView(View):
    """Solutions shown filled into the layout as it was given, the letters' digits under it."""

    def __init__(self, layout: PrintedLayout, conditions: str):
        self.layout, self.conditions = layout, conditions
        self.drawing = layout.text
        self.formula = layout.text + (f"\n{conditions}" if conditions else "")

    def fill(self, problem: Problem) -> Callable[[dict[str, int]], str]:
        return self.layout.filler(problem)

    def searched(self, problem: Problem) -> str:
        """The rows' equations, one a line, then the conditions, each `?` by the hidden name it has in
        the search (the problem's source is the layout and the conditions as written)."""
        equations = self.layout.formula(problem.rules.base)
        if not self.conditions:
            return equations
        names = iter(WILDCARD_NAMES[self.layout.hidden:])
        return equations + "\n" + "".join(next(names) if ch == "?" else ch for ch in self.conditions)

    def line(self, solution: Solution, answer: str | None = None) -> str:
        return self.layout.block(solution)


def read(text: str | PrintedLayout, /, *, conditions: FormulaText | None = None, nonzero_remainders: bool = False,
         conditions_allow_leading_zeros: bool = False, rules: Rules | None = None, **rule_options: Any) -> Reading:
    """The checked problem of a layout (its text, or one read already) and its `conditions`, formulas
    naming its letters in capitals (a letter the layout lacks is one more letter of the puzzle).
    `nonzero_remainders`: no remainder row of a division starts with 0 (enigma.py's rule; for a text).
    `conditions_allow_leading_zeros`: the conditions' words may start with 0, the rows keep the rule."""
    typed = rules_of(rules, rule_options)
    clock = Clock()
    with clock("parse"):
        layout = text if isinstance(text, PrintedLayout) else parse_layout(text, nonzero_remainders=nonzero_remainders)
        joined = LayoutFormula(layout, conditions, typed.base)
    with clock("check"):
        problem = joined.check(joined.tree, typed, conditions_allow_leading_zeros=conditions_allow_leading_zeros)
    view = LayoutView(layout, joined.conditions)
    return Reading("layout", view.formula or layout.text, problem, typed, view, clock.seconds)
