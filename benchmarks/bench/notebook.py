"""The seed notebook's compiled brute force (`compile_formula` + `faster_solve`), the reference of
the project's speed target.

As in the notebook, the formula is compiled ONCE into a Python lambda over its letters (in
alphabetical order), each word written as `(100*A+10*B+C)` and the leading letters required
nonzero by `A and D and ... and (formula)`; the lambda is called on every
`itertools.permutations((1,2,3,4,5,6,7,8,9,0), n)`, an `ArithmeticError` means "not a
solution", and every solution is collected as the filled-in string.

One difference in how the lambda is made: its text is written from smtcrypt's parsed and checked
tree, node by node, not by regular expressions over the raw text, so only validated letters,
numbers written out by this module, operators and the functions abs, min, max, gcd, sum and
range reach `eval`. The arithmetic stays Python's, as in the notebook: `/` is float division,
`**` with a fractional or negative exponent gives a float (`**(1/2)` of a non-square is an
irrational float, not "not a solution"), and a repeating decimal `0.(AB)` becomes
`(10*A+B)/99`. On such formulas ("float semantics") the count may legitimately differ from the
exact one; everywhere else it must agree.

Not expressible, so skipped: integer unknowns (lowercase names), rules other than the default
(distinct digits, no leading zero), and `range()` or `gcd()` of a value that may be a float (a
TypeError in Python).
"""

from __future__ import annotations

import itertools
import math
import time
from itertools import islice

from smtcrypt.core.check import Problem, check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Expr,
    Name,
    Not,
    Number,
    Repeating,
    Unary,
    Word,
    walk,
)

from .results import Result, Unsupported

DIGITS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)  # the notebook's order
NAMESPACE = {"abs": abs, "min": min, "max": max, "sum": sum, "range": range, "gcd": math.gcd}
FLOAT_SEMANTICS = "float semantics"
cat = "".join


def mult(factor: int, var: str) -> str:
    return var if factor == 1 else f"{factor}*{var}"


def number_source(text: str) -> str:
    """Digits (letters or literal digits) as the notebook writes a word: 'YOU' -> '(100*Y+10*O+U)'."""
    terms, constant = [], 0
    for power, ch in enumerate(reversed(text)):
        if ch.isdigit():
            constant += int(ch) * 10 ** power
        else:
            terms.append(mult(10 ** power, ch))
    terms.reverse()
    if constant or not terms:
        terms.append(str(constant))
    return "(" + "+".join(terms) + ")"


def nonnegative_integer(node: Expr) -> bool:
    """True if the node is sure to be an int >= 0 in Python (so `x ** node` stays an int)."""
    if isinstance(node, Word):
        return True
    if isinstance(node, Number):
        return node.value.denominator == 1 and node.value >= 0
    if isinstance(node, BinOp) and node.op in ("+", "*"):
        return nonnegative_integer(node.left) and nonnegative_integer(node.right)
    if isinstance(node, Call) and node.name in ("min", "max", "gcd"):
        return all(nonnegative_integer(arg) for arg in node.args)
    return False


def floaty(node: Expr) -> bool:
    """True if Python may compute this node (or something under it) as a float."""
    for inner in walk(node):
        if isinstance(inner, Repeating):
            return True
        if isinstance(inner, Number) and inner.value.denominator != 1:
            return True
        if isinstance(inner, BinOp) and (inner.op == "/" or (inner.op == "**" and not nonnegative_integer(inner.right))):
            return True
    return False


def source(node: Expr) -> str:
    """Python source for a node, fully parenthesised, from the tree only."""
    if isinstance(node, Word):
        return number_source(node.letters)
    if isinstance(node, Number):
        value = node.value
        return str(int(value)) if value.denominator == 1 else repr(float(value))
    if isinstance(node, Repeating):  # whole.fixed(period) = (whole fixed period - whole fixed) / (10^f (10^p - 1))
        denominator = 10 ** len(node.fixed) * (10 ** len(node.period) - 1)
        longer, head = number_source(node.whole + node.fixed + node.period), number_source(node.whole + node.fixed)
        return f"(({longer}-{head})/{denominator})"
    if isinstance(node, Name):
        raise Unsupported("integer unknowns: the notebook's lambda ranges over digits only")
    if isinstance(node, Unary):
        return f"({node.op}{source(node.operand)})"
    if isinstance(node, BinOp):
        return f"({source(node.left)} {node.op} {source(node.right)})"
    if isinstance(node, Compare):
        parts = [source(node.operands[0])]
        for op, operand in zip(node.ops, node.operands[1:]):
            parts += [op, source(operand)]
        return "(" + " ".join(parts) + ")"
    if isinstance(node, BoolOp):
        return "(" + f" {node.op} ".join(source(operand) for operand in node.operands) + ")"
    if isinstance(node, Not):
        return f"(not {source(node.operand)})"
    if isinstance(node, Call):
        if node.name in ("range", "gcd") and any(floaty(arg) for arg in node.args):
            raise Unsupported(f"{node.name}() of a value that may be a float (a TypeError in Python)")
        if node.name not in NAMESPACE:
            raise Unsupported(f"function {node.name}")
        return f"{node.name}(" + ", ".join(source(arg) for arg in node.args) + ")"
    if isinstance(node, Collection):
        items = [source(item) for item in node.items]
        if node.kind == "set":
            return "{" + ", ".join(items) + "}"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    raise Unsupported(f"cannot write {type(node).__name__} as Python")


def lambda_source(problem: Problem) -> tuple[str, str]:
    """('lambda A,B,...: B and N and (body)', the letters in parameter order), as compile_formula makes."""
    if problem.unknowns:
        raise Unsupported("integer unknowns: the notebook's lambda ranges over digits only")
    if problem.rules != Rules():
        raise Unsupported("options the notebook cannot express (it has distinct digits and no leading zero only)")
    params = cat(sorted(problem.letters))
    body = " and ".join(source(constraint) for constraint in problem.formula.constraints)
    body = " and ".join(sorted(problem.leading) + [body])
    return f"lambda {','.join(params)}: {body}", params


class Notebook:
    """One formula compiled once into a lambda; `run` calls it on every permutation, as faster_solve."""

    def __init__(self, formula: str):
        problem = check(parse(formula))
        self.formula = formula
        self.text, self.letters = lambda_source(problem)
        self.exact = not any(floaty(constraint) for constraint in problem.formula.constraints)
        # only the tree's letters, numbers, operators and the names of NAMESPACE are in the text
        self.fn = eval(self.text, {"__builtins__": {}, **NAMESPACE})

    def run(self, budget: float, first: bool = False, start: float | None = None) -> tuple[list[str], bool]:
        """(the filled-in solutions, complete): every permutation, or until the first or the budget."""
        deadline = (time.perf_counter() if start is None else start) + budget
        fn, formula, letters, found = self.fn, self.formula, self.letters, []
        candidates = itertools.permutations(DIGITS, len(letters))
        while True:
            chunk = list(islice(candidates, 1 << 15))
            if not chunk:
                return found, True
            for digits in chunk:
                try:
                    if fn(*digits):
                        found.append(formula.translate(str.maketrans(letters, cat(map(str, digits)))))
                        if first:
                            return found, True
                except ArithmeticError:
                    pass
            if time.perf_counter() > deadline:
                return found, False


def run_notebook(formula: str, mode: str, budget: float) -> Result:
    start = time.perf_counter()
    try:
        notebook = Notebook(formula)
        found, complete = notebook.run(budget, first=(mode == "first"), start=start)
    except Unsupported as error:
        return Result("skip", None, None, str(error))
    except Exception as error:  # a formula error, or Python itself failing (a TypeError, as it would there)
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    return Result("ok" if complete else "timeout", len(found), time.perf_counter() - start,
                  None if notebook.exact else FLOAT_SEMANTICS, exact=notebook.exact)
