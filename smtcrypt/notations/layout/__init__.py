"""Long multiplication and long division pasted as printed, turned into equations between words.

A cell holds a letter (in either case: `p` is the letter P), a literal digit or a `?` (a digit of
its own). Only the right edges of the rows carry meaning: a partial product ends under the
multiplier digit it belongs to, a row of a division ends under the dividend digit its quotient
digit stands over. The layout becomes an
ordinary formula (each row an equation between words, and the rules of long division as
comparisons), so every search, proof and the exact re-check apply to it unchanged; its `?` cells
are named by characters of the Private Use Area (`letters.WILDCARD_NAMES`), which the parser accepts only in a
formula made here. Each solution is shown filled into the layout as it was given. Conditions on
the letters (`LayoutFormula`) follow the equations in the same formula.

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
`division` (the rules of long division, step by step under the quotient), `formula` (the layout
as read: its rows, the equations they make, a solution filled in), `conditions` (a layout's
equations and conditions on its letters, parsed and checked as one formula).
"""

from smtcrypt.errors import LayoutError
from smtcrypt.notations.layout.conditions import LayoutFormula
from smtcrypt.notations.layout.formula import Literal, Power, PrintedLayout, PrintedRow
from smtcrypt.notations.layout.reader import parse_layout

__all__ = ["PrintedLayout", "LayoutError", "LayoutFormula", "Literal", "Power", "PrintedRow", "parse_layout"]
