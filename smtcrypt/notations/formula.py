"""The formula language's door: `SEND + MORE = MONEY`, or several formulas that must all hold."""

from __future__ import annotations

from typing import Any

from smtcrypt.core.check import check
from smtcrypt.core.clock import Clock
from smtcrypt.core.parse import parse
from smtcrypt.core.results import FormulaText, join
from smtcrypt.core.rules import Rules, rules_of
from smtcrypt.notations.base import Reading


def read(text: FormulaText, /, *, rules: Rules | None = None, **rule_options: Any) -> Reading:
    """The checked problem of one formula or several (a list, or lines), under `rules` or the rule
    keywords; a `FormulaError` with a caret under the fault."""
    typed = rules_of(rules, rule_options)
    clock = Clock()
    with clock("parse"):
        tree = parse(join(text))
    with clock("check"):
        problem = check(tree, typed)
    return Reading("smtcrypt", problem.source, problem, typed, seconds=clock.seconds)
