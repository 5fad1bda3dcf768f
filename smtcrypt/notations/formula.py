"""The formula language's door: `SEND + MORE = MONEY`, or several formulas that must all hold."""

from __future__ import annotations

from smtcrypt.core.check import check
from smtcrypt.core.clock import Clock
from smtcrypt.core.parse import parse
from smtcrypt.core.results import FormulaText, join
from smtcrypt.core.rules import Rules, make_rules
from smtcrypt.notations.base import Reading
from smtcrypt.notations.options import NoOptions


def read(text: FormulaText, options: NoOptions, rules: Rules | None, /) -> Reading:
    """The checked problem of one formula or several (a list, or lines), under `rules` (the defaults if
    None; the language has no options of its own); a `FormulaError` with a caret under the fault."""
    rules = rules if rules is not None else make_rules()
    clock = Clock()
    with clock("parse"):
        tree = parse(join(text))
    with clock("check"):
        problem = check(tree, rules)
    return Reading("smtcrypt", problem.source, problem, rules, seconds=clock.seconds)
