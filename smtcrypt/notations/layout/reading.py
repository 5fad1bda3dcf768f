"""The layout's door: a long multiplication or division as printed, with conditions on its letters."""

from __future__ import annotations

from collections.abc import Callable

from smtcrypt.core.check import Problem
from smtcrypt.core.clock import Clock
from smtcrypt.core.letters import WILDCARD_NAMES
from smtcrypt.core.results import FormulaText, Solution
from smtcrypt.core.rules import Rules, make_rules
from smtcrypt.core.tree import Constraints
from smtcrypt.notations.base import Reading, View
from smtcrypt.notations.layout.conditions import LayoutFormula
from smtcrypt.notations.layout.formula import PrintedLayout
from smtcrypt.notations.layout.options import LayoutOptions
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


def read(text: str | PrintedLayout, options: LayoutOptions, rules: Rules | None, /) -> Reading:
    """The checked problem of a layout (its text, or one read already) under the puzzle's `rules` (the
    defaults if None) and the layout's own options (see `LayoutOptions`: its conditions, enigma.py's
    rules for a division)."""
    rules = rules if rules is not None else make_rules()
    clock = Clock()
    with clock("parse"):
        layout = text if isinstance(text, PrintedLayout) else parse_layout(
            text, nonzero_remainders=options.nonzero_remainders)
    return checked(layout, options.conditions, rules, options.conditions_allow_leading_zeros, clock)


def checked(layout: PrintedLayout, conditions: FormulaText | Constraints | None, rules: Rules,
            conditions_allow_leading_zeros: bool = False, clock: Clock | None = None) -> Reading:
    """The checked problem of a layout read and its `conditions`, formulas naming its letters in capitals
    (a letter the layout lacks is one more letter of the puzzle), as text, or as the tree a reader built
    of them (enigma.py's `--extra` under a division). `conditions_allow_leading_zeros`: the conditions'
    words may start with 0, the rows keep the rule."""
    clock = clock or Clock()
    with clock("parse"):
        joined = LayoutFormula(layout, conditions, rules.base)
    with clock("check"):
        problem = joined.check(joined.tree, rules, conditions_allow_leading_zeros=conditions_allow_leading_zeros)
    view = LayoutView(layout, joined.conditions)
    return Reading("layout", view.formula or layout.text, problem, rules, view, clock.seconds)
