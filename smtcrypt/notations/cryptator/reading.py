"""Cryptator's door: a formula in its notation under its rules and options, shown in its symbols."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from smtcrypt.core.check import check
from smtcrypt.core.clock import Clock
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.results import Solution, join
from smtcrypt.notations.base import Reading, View
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


def read(text: str, /, *, base: int = 10, allow_leading_zeros: bool = False,
         assign: Mapping[str, int] | Iterable[str] | None = None, relax_min: int = 0, relax_max: int = 0) -> Reading:
    """The checked problem of a Cryptator formula (`send+more=money`, `a*a=b && b=a+a`, `r='36'`) under
    Cryptator's options: `base` (-b), `allow_leading_zeros` (-z), `assign` naming its own symbols
    (`{"a": 1}` or `["a=1"]`), and the relaxed digit counts `relax_min` (-min) and `relax_max` (-max)."""
    clock = Clock()
    with clock("parse"):
        translated = translate(text, base=base, allow_leading_zeros=allow_leading_zeros, assign=assign,
                               relax_min=relax_min, relax_max=relax_max)
    with clock("check"):
        problem = check(translated.tree, translated.rules)
    return Reading("cryptator", translated.text, problem, translated.rules, CryptatorView(translated), clock.seconds,
                   strategy=translated.strategy)
