"""A puzzle's shape as a template: an equation of word slots and fixed words.

`A + B + C = D`, `A * B = C * D`, `A + B = MONEY`: a single capital is a slot that a word of the
list fills, a longer word is fixed, and a slot used twice (`A + A = B`) is the same word twice.
Sides are sums and differences of terms, and a term is a word or a product of words. Slots that
can trade places without changing the puzzle (the terms of one sum, with one sign, or the factors
of one product) form a group, filled by an unordered choice, so each puzzle is a candidate once.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re
from dataclasses import dataclass

from smtcrypt.core.parse import parse
from smtcrypt.core.tree import BinOp, Compare, Constraints, Expr, Span, Word
from smtcrypt.errors import FormulaError

__all__ = ["Template", "Term", "addend_templates", "parse_template"]

TOKEN = re.compile(r"\s*(?:([A-Za-z]+)|([-+*=])|(\S))")
MAX_ADDENDS = 25  # the slots are single capitals: A to Y, and the result's Z


@dataclass(frozen=True)
class Term:
    """One term of a side: its sign as written, and its factors (slot names or fixed words)."""

    sign: int
    factors: tuple[str, ...]


@dataclass(frozen=True)
class Template:
    """A shape: the two sides' terms, and its text as the formulas it makes print it (`A + B = C`)."""

    text: str
    left: tuple[Term, ...]
    right: tuple[Term, ...]

    @functools.cached_property
    def slots(self) -> tuple[str, ...]:
        """The slot names in order of first appearance: a candidate's words come in this order."""
        seen: dict[str, None] = {}
        for term in (*self.left, *self.right):
            seen.update((name, None) for name in term.factors if is_slot(name))
        return tuple(seen)

    @functools.cached_property
    def fixed(self) -> tuple[str, ...]:
        """The fixed words, each once, in order."""
        return tuple(dict.fromkeys(name for term in (*self.left, *self.right) for name in term.factors
                                   if not is_slot(name)))

    @functools.cached_property
    def linear(self) -> bool:
        """A sum or difference of words: the column-free search decides it."""
        return all(len(term.factors) == 1 for term in (*self.left, *self.right))

    def signed_terms(self) -> list[tuple[int, int, Term]]:
        """(sign moved to the left side, side, term): the equation as left - right = 0."""
        return [(term.sign * (1 if side == 0 else -1), side, term)
                for side, terms in enumerate((self.left, self.right)) for term in terms]

    def coefficients(self) -> dict[str, int]:
        """A linear template as sum(coefficient * word) = 0: `A - B = C` is A: 1, B: -1, C: -1."""
        assert self.linear
        found: dict[str, int] = {}
        for sign, _, term in self.signed_terms():
            found[term.factors[0]] = found.get(term.factors[0], 0) + sign
        return found

    @functools.cached_property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Slots that trade places freely, as indices into `slots`, largest group first.

        In a sum, slots with one coefficient (`A + B = C + D`: A and B, C and D); in general, slots
        used once as whole terms of one sign, or as factors of one product."""
        slots = self.slots
        kinds: dict[object, list[int]] = {}
        if self.linear:
            coefficient = self.coefficients()
            for index, name in enumerate(slots):
                kinds.setdefault(("sum", coefficient[name]), []).append(index)
        else:
            uses = {name: sum(term.factors.count(name) for _, _, term in self.signed_terms()) for name in slots}
            for position, (sign, side, term) in enumerate(self.signed_terms()):
                for name in term.factors:
                    if not is_slot(name):
                        continue
                    kind: object = (("term", sign) if len(term.factors) == 1 else ("product", side, position))
                    kinds.setdefault(kind if uses[name] == 1 else ("alone", name), []).append(slots.index(name))
        groups = [tuple(sorted(set(members))) for members in kinds.values()]
        return tuple(sorted(groups, key=lambda group: (-len(group), group[0])))

    @functools.cached_property
    def mirror(self) -> tuple[int, ...] | None:
        """Where the sides mirror each other up to the names of the slots (`A * B = C * D`,
        `A + B = C + D`): for each slot, the slot whose word takes its place when the sides are
        swapped; None for a template whose swapped sides are another shape."""
        swapped = [*self.text.split(" = ", 1)[1].split(" "), "=", *self.text.split(" = ", 1)[0].split(" ")]
        order = list(dict.fromkeys(token for token in swapped if token.isalpha() and is_slot(token)))
        rename = dict(zip(order, self.slots))
        if " ".join(rename.get(token, token) for token in swapped) != self.text or order == list(self.slots):
            return None
        return tuple(self.slots.index(name) for name in order)

    def formula(self, parts: tuple[str, ...]) -> str:
        """The formula with the slots filled: `A + B = C` and (SEND, MORE, MONEY) give SEND + MORE = MONEY."""
        fill = dict(zip(self.slots, parts))
        return " ".join(fill.get(token, token) for token in self.text.split(" "))

    @functools.cached_property
    def parsed(self) -> Constraints:
        """The template's own tree: its slots are words of one capital."""
        return parse(self.text)

    @functools.cached_property
    def slot_starts(self) -> list[int]:
        """Where each slot occurrence starts in the text, in order."""
        starts, offset = [], 0
        for token in self.text.split(" "):
            if token.isalpha() and is_slot(token):
                starts.append(offset)
            offset += len(token) + 1
        return starts

    def tree(self, parts: tuple[str, ...]) -> Constraints:
        """What `parse(self.formula(parts))` gives, built from the template's tree: parsing
        with the grammar takes longer than deciding a candidate, and a large run re-checks many
        puzzles. Every node is new, with the span it has in the formula."""
        fill = dict(zip(self.slots, parts))
        starts = self.slot_starts
        grown = [0]  # grown[i]: how much longer the formula is than the template before slot occurrence i
        for start in starts:
            grown.append(grown[-1] + len(fill[self.text[start]]) - 1)

        def moved(offset: int) -> int:
            """A template offset in the formula: moved by the growth of the slots before it."""
            return offset + grown[bisect.bisect_left(starts, offset)]

        def span(old: Span) -> Span:
            start = moved(old.start)
            return Span(start, moved(old.end), old.line, start + 1)

        def filled(node: Expr) -> Expr:
            if isinstance(node, Word):
                return Word(fill.get(node.letters, node.letters), span(node.span))
            if isinstance(node, BinOp):
                return BinOp(node.op, filled(node.left), filled(node.right), span(node.span))
            if isinstance(node, Compare):
                return Compare(tuple(filled(operand) for operand in node.operands), node.ops, span(node.span))
            raise TypeError(f"a template holds no {type(node).__name__}")  # sums and products of words only

        return dataclasses.replace(self.parsed, constraints=tuple(filled(node) for node in self.parsed.constraints),
                                   source=self.formula(parts))


def is_slot(name: str) -> bool:
    return len(name) == 1


def template_error(text: str, position: int, message: str) -> FormulaError:
    return FormulaError(f"shape: {message}", text, position)


def tokens(text: str) -> list[tuple[str, int]]:
    """The words and operators of a template with their positions; anything else is an error."""
    found = []
    position = 0
    stripped = text.rstrip()
    while position < len(stripped):
        match = TOKEN.match(stripped, position)
        assert match is not None  # \S matches whatever is left
        if match.group(3) is not None:
            raise template_error(text, match.start(3), f"unexpected {match.group(3)!r}: a shape has words "
                                 "(single capitals are slots), +, -, * and one =")
        found.append((match.group(1) or match.group(2), match.start(1) if match.group(1) else match.start(2)))
        position = match.end()
    return found


def parse_side(text: str, items: list[tuple[str, int]], end: int) -> tuple[Term, ...]:
    """A side: term (+|- term)*, a term being word (* word)*."""
    terms: list[Term] = []
    sign, factors, expect_word = 1, [], True
    for token, position in items:
        if expect_word:
            if not token.isalpha():
                raise template_error(text, position, f"a word was expected, not {token!r}")
            factors.append(token.upper())
        elif token == "*":
            pass
        elif token in "+-":
            terms.append(Term(sign, tuple(factors)))
            sign, factors = (1 if token == "+" else -1), []
        else:
            raise template_error(text, position, f"an operator was expected, not {token!r}")
        expect_word = not expect_word
    if expect_word:
        raise template_error(text, end, "a word was expected")
    terms.append(Term(sign, tuple(factors)))
    return tuple(terms)


@functools.lru_cache(maxsize=256)
def parse_template(text: str) -> Template:
    """`A + B = C`, `A * B = C * D`, `A + B = MONEY`: the template, or a FormulaError with a caret."""
    items = tokens(text)
    equals = [index for index, (token, _) in enumerate(items) if token == "="]
    if len(equals) != 1:
        where = items[equals[1]][1] if len(equals) > 1 else len(text.rstrip())
        raise template_error(text, where, "a shape is one equation: it needs exactly one =")
    split = equals[0]
    left = parse_side(text, items[:split], items[split][1])
    right = parse_side(text, items[split + 1:], len(text.rstrip()))
    words = [token.upper() for token, _ in items if token.isalpha()]
    template = Template(" ".join(token.upper() for token, _ in items), left, right)
    if not template.slots:
        first = items[0][1] if items else 0
        raise template_error(text, first, f"no slot in {' '.join(words)!r}: slots are single capitals (A + B = C)")
    return template


def addend_templates(shape: str, addends: range) -> list[Template]:
    """`--addends 2-4` over a sum `A + B = R`: the sums of 2, 3 and 4 slots onto the same right side
    (a slot there is named after the addends: A + B = C, A + B + C = D, ...)."""
    template = parse_template(shape)
    if (len(template.right) != 1 or len(template.right[0].factors) != 1 or template.right[0].sign != 1
            or any(term.sign != 1 or len(term.factors) != 1 or not is_slot(term.factors[0]) for term in template.left)
            or len({term.factors[0] for term in template.left}) != len(template.left)
            or (is_slot(template.right[0].factors[0]) and template.right[0].factors[0] in
                {term.factors[0] for term in template.left})):
        raise template_error(shape, 0, "--addends needs a sum of distinct slots onto one word (A + B = C, "
                             "A + B = MONEY)")
    if addends.start < 1 or addends.stop - 1 > MAX_ADDENDS:
        raise ValueError(f"--addends: from 1 to {MAX_ADDENDS} words on the left")
    result = template.right[0].factors[0]
    made = []
    for count in addends:
        names = [chr(ord("A") + index) for index in range(count + 1)]
        right = names[count] if is_slot(result) else result
        made.append(parse_template(" + ".join(names[:count]) + " = " + right))
    return made
