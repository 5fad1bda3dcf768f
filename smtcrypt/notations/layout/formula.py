"""A layout as read: its rows, the equations they make, and a solution filled into its text.

The equations are kept in pieces (formula text, place values, literal rows) and written out once
the base is known (`PrintedLayout.formula(base)`): a layout is read before its puzzle's rules are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from smtcrypt.core.check import Problem
from smtcrypt.core.letters import is_letter
from smtcrypt.core.numerals import digit_char, place_values
from smtcrypt.errors import LayoutError

if TYPE_CHECKING:
    from smtcrypt.core.results import Solution


@dataclass(frozen=True)
class Power:
    """A power of the base, a place value: written out once the base is known."""

    exponent: int

    def text(self, base: int) -> str:
        return str(base ** self.exponent)


@dataclass(frozen=True)
class Literal:
    """A row of literal digits: its value in the base, once the base is known."""

    digits: str

    def text(self, base: int) -> str:
        bad = next((digit for digit in self.digits if int(digit) >= base), None)
        if bad is not None:
            raise LayoutError(f"{bad} is not a digit in base {base}")
        return str(place_values(self.digits, base)[1])  # bases past 36 too, which `int(text, base)` stops at


Piece = str | Power | Literal  # formula text, a place value or a literal row
Formula = tuple[Piece, ...]  # an expression or equation in pieces, written out by `PrintedLayout.formula(base)`


def written(*parts: Piece | Formula) -> Formula:
    """Pieces and formulas joined into one formula, in order."""
    joined: list[Piece] = []
    for part in parts:
        joined.extend(part if isinstance(part, tuple) else (part,))
    return tuple(joined)


def joined(separator: str, formulas: Sequence[Formula]) -> Formula:
    """Formulas with `separator` between them (" + " for a sum)."""
    return written(*(piece for index, formula in enumerate(formulas)
                     for piece in ((separator,) if index else ()) + formula))


@dataclass(frozen=True)
class PrintedRow:
    """A number as printed: its cells' names (letters, digits, hidden names) and where it stands."""

    names: str
    line: int  # 0-based
    start: int  # column of its first cell
    end: int  # column of its last cell: its right edge

    @property
    def word(self) -> Formula:
        """The row in the formula: a word, or for literal digits alone their value in the base (a
        plain number is decimal)."""
        return (self.names,) if not self.names.isdigit() else (Literal(self.names),)


@dataclass
class PrintedLayout:
    """A parsed layout: its kind, its text, the formula its rows make, and its cells."""

    kind: str  # "multiplication" or "division"
    text: str
    lines: list[str]
    equations: list[Formula] = field(default_factory=list)  # written out once the base is known
    cells: dict[tuple[int, int], str] = field(default_factory=dict)  # (line, column) -> the cell's name
    spelling: dict[str, str] = field(default_factory=dict)  # a letter -> as the layout first writes it (p for P)
    hidden: int = 0  # how many cells '?' there are: WILDCARD_NAMES[:hidden] name them
    # a division's dividend, divisor and quotient by their cells' names (a digit names itself), so
    # that a solution's numbers are read off its mapping, not off the layout filled in
    operands: tuple[str, ...] = ()

    def formula(self, base: int = 10) -> str:
        """The rows' equations, one a line, with the base's powers and literal numbers written out."""
        return "\n".join("".join(piece if isinstance(piece, str) else piece.text(base) for piece in equation)
                         for equation in self.equations)

    def block(self, solution: Solution) -> str:
        """A solution for people: the filled-in layout, the letters' digits if any, and a blank line."""
        letters = " ".join(f"{self.spelling.get(name, name)}={digit_char(value) if is_letter(name) else value}"
                           for name, value in solution.mapping.items())
        return solution.text + (f"\n  /  {letters}" if letters else "") + "\n"

    def filler(self, problem: Problem) -> Callable[[dict[str, int]], str]:
        """A solution's text: the layout with every cell's digit filled in, spacing kept."""
        lines = [list(line) for line in self.lines]
        cells = [(line, column, name) for (line, column), name in self.cells.items() if not name.isdigit()]

        def fill(assignment: dict[str, int]) -> str:
            for line, column, name in cells:
                lines[line][column] = digit_char(assignment[name])
            return "\n".join("".join(line) for line in lines)
        return fill

