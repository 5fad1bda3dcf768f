"""Long multiplication and long division pasted as printed, turned into equations between words.

A cell holds a letter (in either case: `p` is the letter P), a literal digit or a `?` (a digit of
its own). Only the right edges of the rows carry meaning: a partial product ends under the
multiplier digit it belongs to, a row of a division ends under the dividend digit its quotient
digit stands over. The layout becomes an
ordinary formula (each row an equation between words, and the rules of long division as
comparisons), built as the formula's tree with its spans in the layout's text, so every search,
proof and the exact re-check apply to it unchanged and the checker's errors point into the layout;
its `?` cells are named by characters of the Private Use Area (`letters.WILDCARD_NAMES`), which no
formula a user writes can name. Each solution is shown filled into the layout as it was given.
Conditions on the letters (`LayoutFormula`) follow the equations in the same formula.

Multiplication::

        7??          multiplicand
      x  ??          x, * or × and the multiplier
      -----
       ?8??          one partial product per nonzero multiplier digit, the last digit's first,
      ?9??           each ending under its digit (none for a one-digit multiplier)
      -----
      ?5???          the product

Division::

           ?7?       the quotient, its last digit over the dividend's last digit
         -----
     2? ) ????       divisor ) dividend
          ??         per nonzero quotient digit: the divisor times it, ending under the dividend
          --         digit the quotient digit stands over; a rule; the remainder with the next
          ???        dividend digits brought down (one more per quotient digit 0), or at the end
          ...        the final remainder, ending under the dividend's last digit

The modules, one job each: `reader` (the printed text read row by row, and long multiplication),
`division` (the rules of long division, step by step under the quotient), `rows` (a long division
given by its rows rather than printed: enigma.py's), `formula` (the layout as read: its rows, the
equations they make as parts of the formula's tree, a solution filled in), `conditions` (a layout's
equations and conditions on its letters, checked as one formula). Its options are one record
(`options`), which the command line and the web page read without loading the parser: the names
below load from their modules on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from smtcrypt.errors import LayoutError

if TYPE_CHECKING:
    from smtcrypt.notations.layout.conditions import LayoutFormula
    from smtcrypt.notations.layout.formula import Part, Power, PrintedLayout, PrintedRow, Relation, RowNumber
    from smtcrypt.notations.layout.options import LayoutOptions
    from smtcrypt.notations.layout.reader import parse_layout
    from smtcrypt.notations.layout.rows import LongDivision

_MODULES = {"LayoutFormula": "conditions", "Part": "formula", "Power": "formula", "PrintedLayout": "formula",
            "PrintedRow": "formula", "Relation": "formula", "RowNumber": "formula", "LayoutOptions": "options",
            "parse_layout": "reader", "LongDivision": "rows"}


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)


__all__ = ["LayoutError", "LayoutFormula", "LayoutOptions", "LongDivision", "Part", "Power", "PrintedLayout",
           "PrintedRow", "Relation", "RowNumber", "parse_layout"]
