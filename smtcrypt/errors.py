"""Errors a user can cause, each pointing at the place in the formula.

`FormulaError` is a `ValueError`, so callers may catch either. Its `str` is the
message, the source line and a caret under the fault:

    unexpected '+': missing operand at line 1, column 7
      SEND ++ MORE = MONEY
            ^

How a search ends without solutions (not finished, infinitely many, ...) is not an error in the
formula: those outcomes are in `smtcrypt.core.outcomes`.
"""

from __future__ import annotations

EXCERPT = 60  # characters shown on each side of the fault when its line is longer than SHORT_LINE
SHORT_LINE = 2 * EXCERPT + 40  # a line up to this long is shown whole


class FormulaError(ValueError):
    """A formula that cannot be solved as written: bad syntax, names or limits."""

    def __init__(self, message: str, source: str = "", position: int | None = None, length: int = 1):
        self.message = message
        self.source = source
        self.position = position
        if position is None:
            self.line = self.column = 0
        else:
            position = max(0, min(position, len(source)))
            self.line = source.count("\n", 0, position) + 1
            self.column = position - (source.rfind("\n", 0, position) + 1) + 1
        self.length = max(1, length)
        super().__init__(str(self))

    @property
    def snippet(self) -> str:
        """The offending source line with a caret (or carets) under the fault; of a long line only
        an excerpt around the fault, so that a 100,000-character formula gives a short message."""
        if self.position is None:
            return ""
        # lines as `line` counts them, at "\n" alone (splitlines also breaks at "\r", "\x0b", "\x85", ...,
        # and has no line after a final newline: where "0\n" ends, `line` is 2)
        line_text = self.source.split("\n")[self.line - 1].rstrip("\r") if self.source.strip() else ""
        column = self.column
        if len(line_text) > SHORT_LINE:
            start = max(0, column - 1 - EXCERPT)
            end = min(len(line_text), column - 1 + EXCERPT)
            before, after = ("..." if start else ""), ("..." if end < len(line_text) else "")
            line_text, column = before + line_text[start:end] + after, column - start + len(before)
        width = max(1, min(self.length, EXCERPT, len(line_text) - column + 1))
        return f"  {line_text}\n  {' ' * (column - 1)}{'^' * width}"

    def __str__(self) -> str:
        if self.position is None:
            return self.message
        return f"{self.message} at line {self.line}, column {self.column}\n{self.snippet}"


class FormulaSyntaxError(FormulaError):
    """The text does not follow the grammar."""


class FormulaNameError(FormulaError):
    """An unknown name or a function used with the wrong arguments."""


class FormulaLimitError(FormulaError):
    """A formula beyond what smtcrypt decides: too many letters, exponents too big."""


class ParameterError(FormulaError, TypeError):
    """A keyword of the Python API of the wrong type or out of range (`assign={"E": 5.0}`, `solve(123)`,
    `timeout=0`): the message names the parameter as the caller spelled it, not a command-line flag.
    Both a `ValueError` (as every bad input is) and a `TypeError` (as Python's own wrong-type errors are),
    so that either `except` catches it."""


class LayoutError(FormulaError):
    """A layout that is not a long multiplication or division as printed; points at line and column."""
