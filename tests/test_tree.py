"""The typed tree: walking it, its words and its letters."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smtcrypt.core.parse import parse
from smtcrypt.core.tree import (
    BinOp,
    Compare,
    Constraints,
    Number,
    Span,
    Unary,
    Word,
    children,
    letters,
    to_text,
    walk,
    words,
)

SPAN = Span(0, 1, 1, 1)


def describe(node) -> str:
    """A short label per node: the word, the number, or the node's operator."""
    if isinstance(node, Word):
        return node.letters
    if isinstance(node, Number):
        return node.text
    if isinstance(node, Compare):
        return "cmp" + "".join(node.ops)
    name = getattr(node, "op", None) or getattr(node, "name", None) or getattr(node, "kind", None)
    return f"{type(node).__name__}:{name}" if name else type(node).__name__


WALKS = [
    ("A + B * C = D", ["cmp==", "BinOp:+", "A", "BinOp:*", "B", "C", "D"]),
    ("A * B + C = D", ["cmp==", "BinOp:+", "BinOp:*", "A", "B", "C", "D"]),
    ("-A ** 2 < B", ["cmp<", "Unary:-", "BinOp:**", "A", "2", "B"]),
    ("not A or B and C", ["BoolOp:or", "Not", "A", "BoolOp:and", "B", "C"]),
    ("max(A, B + 1) in {C, D}", ["cmpin", "Call:max", "A", "BinOp:+", "B", "1", "Collection:set", "C", "D"]),
    ("sum(range(A, B)) = C", ["cmp==", "Call:sum", "Call:range", "A", "B", "C"]),
    ("A < B <= C", ["cmp<<=", "A", "B", "C"]),
]


@pytest.mark.parametrize("formula, expected", WALKS)
def test_walk_is_preorder_left_to_right(formula, expected):
    (constraint,) = parse(formula).constraints
    assert [describe(node) for node in walk(constraint)] == expected


def test_walk_starts_with_the_node_itself_and_visits_each_node_once():
    (constraint,) = parse("AB + CD * EF = GH - 1").constraints
    visited = list(walk(constraint))
    assert visited[0] is constraint
    assert len({id(node) for node in visited}) == len(visited) == 9


def test_walk_of_a_leaf():
    word = Word("ABC", SPAN)
    assert list(walk(word)) == [word]


def test_walk_is_lazy():
    (constraint,) = parse("A + B = C").constraints
    iterator = walk(constraint)
    assert next(iterator) is constraint


def test_walk_does_not_recurse():
    depth = 5000
    leaf = Word("A", SPAN)
    node = leaf
    for _ in range(depth):
        node = Unary("-", node, SPAN)
    visited = list(walk(node))
    assert len(visited) == depth + 1
    assert visited[0] is node
    assert visited[-1] is leaf
    assert all(isinstance(v, Unary) for v in visited[:-1])


def test_walk_does_not_recurse_on_a_deep_binop_chain():
    depth = 5000
    node = Word("A", SPAN)
    for _ in range(depth):
        node = BinOp("+", node, Number(Fraction(1), "1", SPAN), SPAN)
    visited = list(walk(node))
    assert len(visited) == 2 * depth + 1
    assert sum(isinstance(v, Word) for v in visited) == 1


CHILDREN = [
    ("A", []),
    ("2", []),
    ("-A", ["A"]),
    ("not A", ["A"]),
    ("A + B", ["A", "B"]),
    ("A < B < C", ["A", "B", "C"]),
    ("A or B or C", ["A", "B", "C"]),
    ("max(A, B, 3)", ["A", "B", "3"]),
    ("A in (B, C)", ["A", "(B, C)"]),
]


@pytest.mark.parametrize("formula, expected", CHILDREN)
def test_children(formula, expected):
    (node,) = parse(formula).constraints
    assert [to_text(child) for child in children(node)] == expected


WORDS = [
    ("SEND + MORE = MONEY", ["SEND", "MORE", "MONEY"]),
    ("ODD * ODD = FREAKY", ["ODD", "ODD", "FREAKY"]),
    ("AB + CD = EF; GH = IJ", ["AB", "CD", "EF", "GH", "IJ"]),
    ("A = B\nC = 2 * D", ["A", "B", "C", "D"]),
    ("max(A, B) in {C, range(D)} or not E", ["A", "B", "C", "D", "E"]),
    ("1 + 2 = 3", []),
    ("sum(range(AB, CD)) = EF**(1/2)", ["AB", "CD", "EF"]),
]


@pytest.mark.parametrize("formula, expected", WORDS)
def test_words_in_source_order(formula, expected):
    parsed = parse(formula)
    found = list(words(parsed))
    assert [word.letters for word in found] == expected
    assert [word.span.start for word in found] == sorted(word.span.start for word in found)
    assert all(isinstance(word, Word) for word in found)


def test_words_are_occurrences_not_values():
    found = list(words(parse("ODD * ODD = FREAKY")))
    assert found[0] is not found[1]
    assert found[0].span != found[1].span


LETTERS = [
    ("ODD * ODD", ("O", "D")),
    ("ODD * ODD = FREAKY", ("O", "D", "F", "R", "E", "A", "K", "Y")),
    ("SEND + MORE = MONEY", ("S", "E", "N", "D", "M", "O", "R", "Y")),
    ("B = A\nC = B", ("B", "A", "C")),
    ("ZYX = XYZ", ("Z", "Y", "X")),
    ("1 = 1", ()),
]


@pytest.mark.parametrize("formula, expected", LETTERS)
def test_letters_in_first_appearance_order(formula, expected):
    assert letters(parse(formula)) == expected


def test_letters_of_a_hand_built_formula():
    formula = Constraints((Compare((Word("BA", SPAN), Word("AC", SPAN)), ("==",), SPAN),), "BA = AC")
    assert letters(formula) == ("B", "A", "C")
    assert [w.letters for w in words(formula)] == ["BA", "AC"]


def test_nodes_compare_by_identity():
    one, other = Word("A", SPAN), Word("A", SPAN)
    assert one != other
    assert one == one
    assert len({one, other}) == 2
