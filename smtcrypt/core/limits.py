"""The limits of a formula's tree, however it was made: parsed from our text, or built by a reader
from the user's own notation (Cryptator's, a layout's rows, an added constraint).

A parsed tree is within them by construction (the parser refuses a text over MAX_SOURCE_LENGTH, a
nesting deeper than MAX_DEPTH and a number of more than MAX_NUMBER_DIGITS digits, each under its
place). A tree built by code may share a part in several places (Cryptator's `//` of operands that
may be negative repeats both, to round toward zero), so that its written size can grow faster than
the user's text: it is measured here, each shared part once, before any stage walks it.

A tree's size is the characters its formula text would take at least: a word, name or number its
own characters, an operator one. A parsed tree is never larger than its text, so the one limit,
MAX_SOURCE_LENGTH, holds both.
"""

from __future__ import annotations

import sys
from typing import Any

from smtcrypt.core.numerals import MAX_NUMBER_DIGITS, too_many_digits
from smtcrypt.core.tree import (
    BoolOp,
    Compare,
    Constraints,
    Expr,
    Name,
    Number,
    Repeating,
    Word,
    children,
)
from smtcrypt.errors import FormulaLimitError

MAX_SOURCE_LENGTH = 100_000  # characters in one formula, or of any puzzle's text
MAX_DEPTH = 1_000  # nesting of the tree, including chains such as A + B + C + ...

# The stages after parsing recurse a few Python frames per level of the tree: room for MAX_DEPTH, made
# by the first parse or check (not on import: importing smtcrypt changes nothing of the interpreter's).
STACK_ROOM = 12 * MAX_DEPTH


def make_room() -> None:
    """Room on the stack for the stages after parsing, made by the first parse of either reader, or
    by the first check of a tree a reader built without parsing."""
    if sys.getrecursionlimit() < STACK_ROOM:
        sys.setrecursionlimit(STACK_ROOM)


def check_length(text: Any, what: str) -> None:
    """Refuse a puzzle's text (a string, or a list of them: lines, arguments) of more than
    MAX_SOURCE_LENGTH characters, before any work on it, with a caret where the limit falls: a
    translation may make a text larger, never a text too large smaller."""
    if isinstance(text, str):
        size = len(text)
    elif isinstance(text, (list, tuple)) and all(isinstance(item, str) for item in text):
        size = sum(map(len, text)) + max(len(text) - 1, 0)
    else:
        return  # not text: the reader says what it expected
    if size > MAX_SOURCE_LENGTH:
        source = text if isinstance(text, str) else "\n".join(text)
        raise FormulaLimitError(f"{what} of {size:,} characters: the limit is {MAX_SOURCE_LENGTH:,}", source,
                                MAX_SOURCE_LENGTH)


def check_tree(formula: Constraints) -> Constraints:
    """The formula, marked `measured`; refused, under its innermost part too large, if nested more than
    MAX_DEPTH deep, with a numeral of more than MAX_NUMBER_DIGITS digits, or standing for more than
    MAX_SOURCE_LENGTH characters of formula text. Each shared part is measured once, without
    recursion; a tree measured already (a parsed one) is not walked again. Also makes the stack room
    the later stages need for a tree that deep (`core.parse.make_room`)."""
    if formula.measured:
        return formula
    make_room()
    sizes: dict[int, int] = {}  # by id of node: the characters it stands for
    depths: dict[int, int] = {}
    total = 0
    for constraint in formula.constraints:
        stack: list[tuple[Expr, bool]] = [(constraint, False)]
        while stack:
            node, ready = stack.pop()
            key = id(node)
            if key in sizes:
                continue
            kids = children(node)
            if not ready:
                stack.append((node, True))
                stack.extend((kid, False) for kid in reversed(kids) if id(kid) not in sizes)
                continue
            size, depth = _own_size(node, formula), 1
            for kid in kids:
                size += sizes[id(kid)]
                depth = max(depth, depths[id(kid)] + 1)
            if depth > MAX_DEPTH:
                raise _refused(f"formula nested more than {MAX_DEPTH} levels deep (long chains of one operator "
                               "count as nesting)", formula, node)
            if size > MAX_SOURCE_LENGTH:
                raise _refused(f"this part stands for {size:,} characters of smtcrypt's formulas (a part a reader "
                               f"repeats counts each time): the limit is {MAX_SOURCE_LENGTH:,}", formula, node)
            sizes[key], depths[key] = size, depth
        total += sizes[id(constraint)] + 1  # and a separator
        if total > MAX_SOURCE_LENGTH + 1:
            raise _refused(f"the formulas stand for {total - 1:,} characters of smtcrypt's formulas: the limit is "
                           f"{MAX_SOURCE_LENGTH:,}", formula, constraint)
    return Constraints(formula.constraints, formula.source, measured=True)


def _own_size(node: Expr, formula: Constraints) -> int:
    """The characters a node takes of its text without its parts; a numeral's digits checked."""
    if isinstance(node, Word):
        return _digits(len(node.letters), len(node.letters), "a word", formula, node)
    if isinstance(node, Number):  # as written (`core.tree.number` writes no value too long)
        return _digits(len(node.text), len(node.text), "a number", formula, node)
    if isinstance(node, Repeating):
        return _digits(len(node.text), len(node.text_of_digits()), "a repeating decimal", formula, node)
    if isinstance(node, Name):
        return len(node.name)
    if isinstance(node, Compare):
        return len(node.ops)
    if isinstance(node, BoolOp):
        return len(node.operands) - 1
    return 1  # an operator, a call's name, a collection's brackets


def _digits(size: int, digits: int, what: str, formula: Constraints, node: Expr) -> int:
    if digits > MAX_NUMBER_DIGITS:
        raise _refused(too_many_digits(digits, what), formula, node)
    return size


def _refused(message: str, formula: Constraints, node: Expr) -> FormulaLimitError:
    return FormulaLimitError(message, formula.source, node.span.start, node.span.end - node.span.start)
