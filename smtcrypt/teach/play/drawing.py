"""The position drawn as on paper: the puzzle long-hand with the digits known so far written in.

A sum (or difference) of words is drawn right-aligned over a rule and its total, a product of two
words as a multiplication; any other formula, and a layout as printed (a long division), as its
own lines with the known letters' digits in place of the letters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from smtcrypt.core.check import Problem
from smtcrypt.core.letters import char_width, display_width, is_letter, is_wildcard, shown
from smtcrypt.core.longhand import Layout, Row
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.tree import BinOp, Compare, Expr, Word


def _cell(text: str, wide: bool) -> str:
    """One cell of a drawn word: a digit, `?` or a letter, two columns wide where letters are (CJK)."""
    return text if not wide or char_width(text[-1]) == 2 else " " + text


def position_layout(problem: Problem, known: Mapping[str, int]) -> Layout:
    """The puzzle as on paper with the known letters' digits written in: a sum (or difference) of
    words right-aligned, a product of two words as a multiplication; any other formula as its line."""
    def word(node: Expr) -> str | None:
        if not isinstance(node, Word):
            return None
        return "".join(_cell(digit_char(known[ch]) if ch in known else ("?" if is_wildcard(ch) else shown(ch)), wide)
                       for ch in node.letters)

    wide = any(char_width(letter) == 2 for letter in problem.letters)  # CJK: every cell two columns wide
    constraints = problem.formula.constraints
    if len(constraints) == 1 and isinstance(constraints[0], Compare) and constraints[0].ops == ("==",):
        left, right = constraints[0].operands
        for side, result in ((left, right), (right, left)):
            total = word(result)
            if total is None:
                continue
            rows = _sum_rows(side, word) or _product_rows(side, word)
            if rows:
                width = max(display_width(total), *map(display_width, rows))
                return Layout("position", (*(Row(text, "number") for text in rows), Row("-" * width, "rule"),
                                           Row(total, "result")))
    return lines_layout(filled_in(problem.source, known))


def lines_layout(text: str) -> Layout:
    """Text as a layout of its lines, each kept where it stands (the layout right-aligns its rows)."""
    lines = text.split("\n")
    width = max(map(display_width, lines))
    return Layout("line", tuple(Row(line + " " * (width - display_width(line)), "number") for line in lines))


def filled_in(text: str, known: Mapping[str, int], lowercase: bool = False) -> str:
    """A puzzle's text with the known letters' digits written in and the `?`s as `?`; with `lowercase`
    (a layout as printed) a lowercase letter is its capital, else a lowercase name is no letter."""
    def cell(ch: str) -> str:
        letter = ch.upper() if lowercase else ch
        if is_letter(letter) and letter in known:
            return digit_char(known[letter])
        return "?" if is_wildcard(ch) else ch

    return "".join(map(cell, text))


def _sum_rows(side: Expr, word: Callable[[Expr], str | None]) -> list[str]:
    terms: list[tuple[str, Expr]] = []

    def collect(node: Expr, sign: str) -> None:
        """A chain of + and - as signed operands (the sign of a term inside `A - (B - C)` flipped)."""
        if isinstance(node, BinOp) and node.op in ("+", "-"):
            collect(node.left, sign)
            collect(node.right, node.op if sign == "+" else ("-" if node.op == "+" else "+"))
        else:
            terms.append((sign, node))

    collect(side, "+")
    texts = [word(node) for _, node in terms]
    drawn = [text for text in texts if text is not None]
    if len(terms) < 2 or len(drawn) < len(texts):
        return []
    return [drawn[0], *(f"{sign} {text}" for (sign, _), text in zip(terms[1:], drawn[1:]))]


def _product_rows(side: Expr, word: Callable[[Expr], str | None]) -> list[str]:
    if not (isinstance(side, BinOp) and side.op == "*"):
        return []
    first, second = word(side.left), word(side.right)
    if first is None or second is None:
        return []
    return [first, f"× {second}"]
