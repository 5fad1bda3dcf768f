"""A layout's equations and conditions on its letters, as one formula parsed and checked together."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from smtcrypt.core.check import Problem, check
from smtcrypt.core.letters import WILDCARD_NAMES, normal
from smtcrypt.core.parse import parse
from smtcrypt.core.results import FormulaText, join
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import Constraints, Name, walk, words
from smtcrypt.errors import FormulaError, FormulaNameError
from smtcrypt.notations.layout.formula import PrintedLayout


class LayoutFormula:
    """A layout's equations and, after them, conditions on its letters (formulas as `Puzzle` takes
    them): parsed and checked as one formula, so that a condition's letter is the layout's letter
    and a new letter is one more letter of the puzzle under the same rules. Errors in a condition
    point at the condition's own text, not at the formula made here.

    The conditions' `?`s are named after the layout's, so each is a digit of its own as in any
    formula. `conditions_allow_leading_zeros`: words in the conditions may start with 0 while the
    layout's rows keep the rule (enigma.py's `--extra` expressions under a division).
    """

    def __init__(self, layout: PrintedLayout, conditions: FormulaText | None, base: int = 10):
        self.layout = layout
        self.conditions = "" if conditions is None else normal(join(conditions))
        equations = layout.formula(base)
        if not self.conditions.strip(" \t\r\n;,"):
            self.conditions, self.source, self.offset = "", equations, len(equations)
            return
        self.refuse_lowercase_letters(parse(self.conditions))  # errors point at the conditions as written
        self.offset = len(equations) + 1
        self.source = equations + "\n" + self.named_wildcards(self.conditions, layout.hidden)

    def refuse_lowercase_letters(self, conditions: Constraints) -> None:
        """A condition's lowercase name that is a letter the layout writes lowercase is refused: in a
        formula it would be an integer unknown, not the letter, and the condition would quietly miss."""
        written = {spelled for spelled in self.layout.spelling.values() if spelled.islower()}
        for constraint in conditions.constraints:
            for node in walk(constraint):
                if isinstance(node, Name) and node.name in written:
                    raise FormulaNameError(
                        f"{node.name!r} is the layout's letter {node.name.upper()}: a condition names it "
                        f"{node.name.upper()} (a lowercase name in a formula is an integer unknown)",
                        conditions.source, node.span.start, node.span.end - node.span.start)

    @staticmethod
    def named_wildcards(text: str, first: int) -> str:
        """Each `?` replaced by the next hidden name from WILDCARD_NAMES[first] on, one character for one."""
        pieces = text.split("?")
        if len(pieces) - 1 > len(WILDCARD_NAMES) - first:
            raise FormulaError(f"more than {len(WILDCARD_NAMES)} cells and wildcards '?' in the layout and its "
                               "conditions", text, text.rindex("?"))
        return pieces[0] + "".join(WILDCARD_NAMES[first + index] + piece for index, piece in enumerate(pieces[1:]))

    @contextmanager
    def pointing_at_conditions(self) -> Iterator[None]:
        """A `FormulaError` in the conditions' part of the formula raised again at the conditions' text."""
        try:
            yield
        except FormulaError as error:
            if error.position is None or not self.conditions or error.position < self.offset:
                raise
            raise type(error)(error.message, self.conditions, error.position - self.offset,
                              error.length) from None

    def parse(self) -> Constraints:
        with self.pointing_at_conditions():
            return parse(self.source, named_cells=True)

    def check(self, tree: Constraints, rules: Rules, *, conditions_allow_leading_zeros: bool = False) -> Problem:
        """The checked problem; with `conditions_allow_leading_zeros` only the layout's words keep
        their first letter from 0 (checked with leading zeros allowed, so that every bound the
        encoders take from the rules holds; the layout's heads then kept from 0 by the problem)."""
        with self.pointing_at_conditions():
            if not conditions_allow_leading_zeros or rules.allow_leading_zeros or not self.conditions:
                return check(tree, rules)
            problem = check(tree, dataclasses.replace(rules, allow_leading_zeros=True))
        heads = frozenset(word.letters[0] for word in words(tree) if word.span.start < self.offset
                          and len(word.letters) > (0 if rules.nonzero_single_letters else 1)
                          and not word.letters[0].isdigit())
        allowed = {letter: digits - {0} if letter in heads else digits for letter, digits in problem.allowed.items()}
        return dataclasses.replace(problem, leading=heads, allowed=allowed)
