"""Cryptator's door: a formula in its notation under its rules and options, shown in its symbols."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from smtcrypt.core.check import check
from smtcrypt.core.clock import Clock
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.results import Solution, join
from smtcrypt.core.rules import Rules
from smtcrypt.notations.base import Reading, View
from smtcrypt.notations.cryptator.options import CryptatorOptions
from smtcrypt.notations.cryptator.translate import CryptatorPuzzle, translate


class CryptatorView(View):
    """Solutions in our notation beside the formula as written, filled in, and the user's symbols."""

    def __init__(self, translated: CryptatorPuzzle):
        self.translated = translated

    @property
    def formula(self) -> str:  # type: ignore[override]
        """A verdict names our formulas, one a line (the problem's source is the text as written)."""
        return join(self.translated.formulas)

    def symbols(self, mapping: Mapping[str, int]) -> dict[str, int]:
        return self.translated.user_mapping(mapping)

    def header(self) -> str:
        return f"{self.translated.text.strip()}  reads as  {self.translated.formula}"

    def line(self, solution: Solution, answer: str | None = None) -> str:
        """`9567 + 1085 == 10652  (9567+1085=10652)  /  s=9 e=5 ...`: ours, as written, the symbols."""
        read = self.translated
        symbols = " ".join(f"{symbol}={digit_char(digit)}" for symbol, digit in self.symbols(solution.mapping).items())
        return f"{read.ours_filled(solution.mapping)}  ({read.substitute(solution.mapping).strip()})  /  {symbols}"

    def fields(self) -> dict[str, Any]:
        read = self.translated
        return {"formula": read.formula, "cryptator": read.text, "syntax": "cryptator", "conditions": read.conditions,
                "letters": read.letters}

    def solution_fields(self, solution: Solution, answer: str | None = None) -> dict[str, Any]:
        read = self.translated
        return {"mapping": self.symbols(solution.mapping), "text": read.ours_filled(solution.mapping),
                "cryptator": read.substitute(solution.mapping)}


def read(text: str, options: CryptatorOptions, rules: Rules | None, /) -> Reading:
    """The checked problem of a Cryptator formula (`send+more=money`, `a*a=b && b=a+a`, `r='36'`) under
    Cryptator's rules and its options (`CryptatorOptions`: -b, -z, the assignments naming its own
    symbols, -min and -max); the rules are Cryptator's own (`rules`, the shared ones, is None)."""
    clock = Clock()
    with clock("parse"):
        translated = translate(text, base=options.base, allow_leading_zeros=options.allow_leading_zeros,
                               assign=options.assign, relax_min=options.relax_min, relax_max=options.relax_max)
    with clock("check"):
        problem = check(translated.tree, translated.rules)
    return Reading("cryptator", translated.text, problem, translated.rules, CryptatorView(translated), clock.seconds,
                   strategy=translated.strategy)
