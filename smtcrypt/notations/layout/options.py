"""A layout's own options, besides the puzzle's rules: the conditions on its letters and enigma.py's two
rules for a division, in the record every way in reads them from (`smtcrypt.notations.options`)."""

from __future__ import annotations

from dataclasses import dataclass

from smtcrypt.core.results import FormulaText
from smtcrypt.notations.options import boolean_text, boolean_value, option, texts_value


@dataclass(frozen=True)
class LayoutOptions:
    """The conditions (formulas naming the layout's letters in capitals; on the command line, the FORMULA
    arguments after --layout FILE), and the two rules of enigma.py's divisions."""

    conditions: FormulaText | None = option(
        None, "formulas the layout's letters must also satisfy, naming them in capitals", text=str,
        value=texts_value, repeatable=True)
    nonzero_remainders: bool = option(False, "no remainder row of a division starts with 0, a one-digit one included",
                                      "--nonzero-remainders", text=boolean_text, value=boolean_value)
    conditions_allow_leading_zeros: bool = option(
        False, "the conditions' words may start with 0 (the layout's rows keep the rule)",
        "--conditions-allow-leading-zeros", text=boolean_text, value=boolean_value)
