"""Limits are stated and enforced: each a clear FormulaError, fast, never a crash or a hang."""

import time

import pytest
import z3
from lark import Token
from lark import Tree as LarkTree
from test_fuzz import random_inputs

import smtcrypt
from smtcrypt.core.letters import normal
from smtcrypt.core.parse import MAX_DEPTH, MAX_SOURCE_LENGTH, parse, parser
from smtcrypt.core.results import Ending, Status
from smtcrypt.core.tree import children
from smtcrypt.encode import base
from smtcrypt.encode.base import Context

LIMITS = [
    ("(" * 10_000 + "A" + ")" * 10_000 + " = B", None),  # brackets alone add no depth: solved
    ("-" * 10_000 + "A = B", "nested more than"),
    ("A" + "**A" * 5_000 + " = B", "nested more than"),
    ("A + " * 250_000 + "A = B", "characters: the limit is"),  # a 1 MB formula
    (" + ".join(["AB"] * 100_000) + " = C", "characters: the limit is"),  # 100,000 words
    (" + ".join(["A"] * 1_500) + " = BCD", "nested more than"),
    ("A ** BCDEFGHIJ = 5", "digits smtcrypt computes"),
    ("ABCDEFGHIJ ** ABCDEFGHIJ = 5", "digits smtcrypt computes"),
    ("2 ** (10 ** 10) = A", "beyond the supported limit"),
]


@pytest.mark.parametrize("formula, message", LIMITS, ids=range(len(LIMITS)))
def test_limits_are_clear_errors_and_fast(formula, message):
    # the work done, in CPU seconds: other jobs on a shared machine stretch the wall clock, not this
    start = time.process_time()
    if message is None:
        assert smtcrypt.verdict(formula, timeout=10).status is smtcrypt.Status.NONE
    else:
        with pytest.raises(smtcrypt.FormulaError) as caught:
            smtcrypt.verdict(formula, timeout=10)
        assert message in caught.value.message
        assert caught.value.line >= 1 and "^" in str(caught.value)
        assert time.process_time() - start < 1.0


def test_the_deepest_allowed_chain_is_solved():
    formula = " + ".join(["A"] * (MAX_DEPTH - 2)) + " = BCD"  # 998 * A = BCD has no distinct solution
    assert smtcrypt.verdict(formula, timeout=30).status is smtcrypt.Status.NONE
    assert MAX_SOURCE_LENGTH >= 100_000


def tree_depth(root) -> int:
    """The depth `parse` checks, of a Lark tree or of ours (trees and nodes counted, tokens not)."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        kids = node.children if isinstance(node, LarkTree) else () if isinstance(node, Token) else children(node)
        stack.extend((kid, depth + 1) for kid in kids if isinstance(kid, LarkTree) or hasattr(kid, "span"))
    return deepest


def test_no_tree_is_deeper_than_its_text_is_long():
    """`parse` walks the trees for their depth only where the text has MAX_DEPTH characters or more:
    every node but the root takes a token of its own, so a tree is at most one deeper than its text
    is long. Here on the deepest short constructs and the fuzz inputs that parse."""
    texts = ["-" * 40 + "A = B", "not " * 20 + "A", "A" + "**A" * 30 + " = B", "(" * 30 + "A" + ")" * 30,
             "f(" * 20 + "A" + ")" * 20 + " = B", "((" * 10 + "A," + ")," * 10 + ") = B", "{" * 10 + "A" + "}" * 10,
             " + ".join("A" * 50) + " = B", "A < B < C < D < E", "-A ** -B ** -C = D", *random_inputs(1_500, 11)]
    checked = 0
    for text in texts:
        source = normal(text)
        try:
            tree = parse(text)
        except smtcrypt.FormulaError:
            continue
        lark_tree = parser("\n" in source).parse(source)
        assert tree_depth(lark_tree) <= len(source) + 1, text
        assert all(tree_depth(constraint) <= len(source) + 1 for constraint in tree.constraints), text
        checked += 1
    assert checked > 150  # the fuzz inputs that parse, and the constructs above


def test_sum_of_a_range_of_a_ten_letter_word_costs_nothing():
    start = time.monotonic()
    verdict = smtcrypt.verdict("sum(range(ABCDEFGHIJ)) = 45", timeout=30)
    assert verdict.status is smtcrypt.Status.NONE  # the closed form n(n-1)/2, never a loop over n values
    assert time.monotonic() - start < 5


def test_z3_past_its_memory_cap_ends_the_search_as_memory_not_the_process(monkeypatch):
    """Past `memory_max_size` (counted over the process), Z3 makes no context and returns none; its
    Python binding then went on to a segmentation fault (a slow fuzz run's worker died so). Our contexts
    look, and the search ends `unknown` for memory; the portfolio answers by another backend."""
    monkeypatch.setattr(base, "_fresh_context", lambda: None)
    verdict = smtcrypt.Puzzle("ODD * ODD = FREAKY").search(strategy="z3").verdict()
    assert verdict.status is Status.UNKNOWN and verdict.ending is Ending.MEMORY
    assert smtcrypt.Puzzle("ODD * ODD = FREAKY").search().verdict().status is Status.MULTIPLE


def test_a_fresh_z3_context_is_made_as_z3_makes_one():
    solvers = []
    for context in (Context(), z3.Context()):
        x = z3.Int("x", context)
        solver = z3.Solver(ctx=context)
        solver.add(x * x == 49, x > 0)
        solvers.append((solver, x))
    (ours, x), (theirs, _) = solvers
    assert ours.sexpr() == theirs.sexpr()
    assert ours.check() == z3.sat and ours.model()[x].as_long() == 7
    with pytest.raises(z3.Z3Exception):  # an error in the context raised in Python, as z3.Context's are
        z3.Z3_get_numeral_string(ours.ctx.ref(), x.as_ast())
