"""A layout's equations and conditions on its letters, as one formula checked together."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

from smtcrypt.core.check import Problem, check
from smtcrypt.core.letters import WILDCARD_FIRST, WILDCARD_NAMES, is_wildcard, normal, spelled
from smtcrypt.core.parse import parse
from smtcrypt.core.results import FormulaText, join
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Constraints,
    Expr,
    Name,
    Not,
    Number,
    Repeating,
    Span,
    Unary,
    Word,
    walk,
    words,
)
from smtcrypt.errors import FormulaError, FormulaNameError
from smtcrypt.notations.layout.formula import PrintedLayout


class LayoutFormula:
    """A layout's equations and, after them, conditions on its letters (formulas as `Puzzle` takes
    them): checked as one formula, so that a condition's letter is the layout's letter and a new
    letter is one more letter of the puzzle under the same rules.

    The equations are the layout's own nodes, their spans in its text; the conditions are parsed
    from the user's text alone, and follow the layout's text in the formula's source (after a line
    break), their spans moved there. Errors in a condition point at the condition's own text.

    The conditions' `?`s are named after the layout's, so each is a digit of its own as in any
    formula. `conditions_allow_leading_zeros`: words in the conditions may start with 0 while the
    layout's rows keep the rule (enigma.py's `--extra` expressions under a division).
    """

    def __init__(self, layout: PrintedLayout, conditions: FormulaText | Constraints | None, base: int = 10):
        self.layout = layout
        if isinstance(conditions, Constraints):  # a reader's own tree (enigma.py's --extra), its spans in its source
            self.conditions = conditions.source
        else:
            self.conditions = "" if conditions is None else normal(join(conditions))
        equations = layout.constraints(base)
        if not self.conditions.strip(" \t\r\n;,"):
            self.conditions, self.source, self.offset = "", layout.text, len(layout.text)
            self.tree = Constraints(equations, self.source)
            return
        # the user's text parsed (errors point at the conditions as written), or the reader's tree as built
        parsed = conditions if isinstance(conditions, Constraints) else parse(self.conditions)
        self.refuse_lowercase_letters(parsed)
        # each `?` a word's, named by the parser in order
        wildcards = sum(is_wildcard(ch) for word in words(parsed) for ch in word.letters)
        if wildcards > len(WILDCARD_NAMES) - layout.hidden:
            raise FormulaError(f"more than {len(WILDCARD_NAMES)} cells and wildcards '?' in the layout and its "
                               "conditions", self.conditions, max(self.conditions.rfind("?"), 0))
        self.offset = len(layout.text) + 1
        self.source = layout.text + "\n" + self.conditions
        moved = Moved(self.offset, layout.text.count("\n") + 1, layout.hidden)
        self.tree = Constraints((*equations, *(moved(constraint) for constraint in parsed.constraints)), self.source)

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


class Moved:
    """The conditions' nodes as they stand after the layout: each span moved `offset` characters
    (`lines` lines) on, each wildcard named after the layout's `hidden` cells (the parser names a
    text's `?`s from the first hidden name on)."""

    def __init__(self, offset: int, lines: int, hidden: int):
        self.offset, self.lines, self.hidden = offset, lines, hidden

    def named(self, ch: str) -> str:
        """A letter of a word, a wildcard's name moved past the layout's cells."""
        return WILDCARD_NAMES[self.hidden + ord(ch) - WILDCARD_FIRST] if is_wildcard(ch) else ch

    def span(self, span: Span) -> Span:
        return Span(span.start + self.offset, span.end + self.offset, span.line + self.lines, span.column)

    def __call__(self, node: Expr) -> Expr:  # noqa: PLR0911
        span = self.span(node.span)
        if isinstance(node, Word):
            letters = node.letters
            if any(is_wildcard(ch) for ch in letters):
                letters = spelled("".join(map(self.named, letters)))
            return Word(letters, span)
        if isinstance(node, Name):
            return Name(node.name, span)
        if isinstance(node, Number):
            return Number(node.value, node.text, span)
        if isinstance(node, Repeating):
            return Repeating(node.whole, node.fixed, node.period, node.text, span)
        if isinstance(node, Unary):
            return Unary(node.op, self(node.operand), span)
        if isinstance(node, BinOp):
            return BinOp(node.op, self(node.left), self(node.right), span)
        if isinstance(node, Compare):
            return Compare(tuple(map(self, node.operands)), node.ops, span)
        if isinstance(node, BoolOp):
            return BoolOp(node.op, tuple(map(self, node.operands)), span)
        if isinstance(node, Not):
            return Not(self(node.operand), span)
        if isinstance(node, Call):
            return Call(node.name, tuple(map(self, node.args)), span)
        return Collection(node.kind, tuple(map(self, node.items)), span)
