#!/usr/bin/env python3
"""The best value, proved: smtcrypt's `optimize` against two reference methods, in the same run.

A held-out set of optimisation puzzles in the classic shapes (none of them among the tests' classics
that the bounding search was written against): the largest or smallest word of a sum or product,
and objectives over several words. For each, in one process:

- smtcrypt: `Puzzle.optimize` (searches that bound the objective as they go, each proved);
- the brute force: every permutation of distinct digits (as the seed notebook searches), the
  formula and the objective compiled into closures (benchmarks/bench/bruteforce.py), the best value
  kept;
- Z3's optimiser: the formula as one Z3 term (`search/terms.py`), the rules as constraints, and
  `Optimize.maximize` (or `minimize`) of the objective.

The three optima must agree; the report gives each method's seconds and the ratios to smtcrypt's.

    python benchmarks/optimum.py
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import permutations
from pathlib import Path

import z3

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the `bench` package, however this file is run
    sys.path.insert(0, str(HERE))

from bench.bruteforce import BruteForce  # noqa: E402

from smtcrypt import Puzzle  # noqa: E402
from smtcrypt.core.parse import parse  # noqa: E402
from smtcrypt.core.tree import BinOp, Compare, Expr, Number, Word  # noqa: E402
from smtcrypt.search.terms import formula_term, proof_context  # noqa: E402
from smtcrypt.setters.optimum import Optimum  # noqa: E402

HELD_OUT = [  # formula, objective, sense
    ("TWO + TWO = FOUR", "FOUR", "maximize"),
    ("TWO + TWO = FOUR", "FOUR", "minimize"),
    ("ODD + ODD = EVEN", "EVEN", "maximize"),
    ("WRONG + WRONG = RIGHT", "RIGHT", "maximize"),
    ("AB * CD = EFG", "EFG", "maximize"),
    ("ABC * DE = FGHI", "FGHI", "minimize"),
    ("ABCD * E = FGHI", "FGHI", "maximize"),
    ("A + B + C = D + E + F", "ABC - DEF", "maximize"),
    ("AB + CD + EF = GH", "GH", "minimize"),
    ("BASE + BALL = GAMES", "GAMES", "minimize"),
    ("ABC + DEF = GHI", "ABC * DEF", "maximize"),
    ("SEND + MORE = MONEY", "SEND - MORE", "minimize"),
]


def objective_node(objective: str) -> Expr:
    tree = parse(f"{objective} == 0")
    node = tree.constraints[0]
    assert isinstance(node, Compare)
    return node.operands[0]


def brute_force(formula: str, objective: str, sense: str) -> int:
    """The best value over every permutation that solves the formula."""
    search = BruteForce(formula)
    value = search.compile(objective_node(objective))
    better = max if sense == "maximize" else min
    best = None
    for digits in permutations(range(10), len(search.letters)):
        if search.leading and 0 in digits[:search.leading]:
            continue
        try:
            if search.test(digits):
                found = value(digits)
                best = found if best is None else better(best, found)
        except ArithmeticError:
            pass
    assert best is not None
    return int(best)


def z3_term(node: Expr, context: z3.Context) -> z3.ArithRef:
    """A word, a number, or + - * of them, over one Int per letter (as `formula_term` names them)."""
    if isinstance(node, Word):
        total = z3.IntVal(0, context)
        for letter in node.letters:
            total = total * 10 + (int(letter) if letter.isdigit() else z3.Int(letter, context))
        return total
    if isinstance(node, Number):
        return z3.IntVal(int(node.value), context)
    if isinstance(node, BinOp) and node.op in "+-*":
        left, right = z3_term(node.left, context), z3_term(node.right, context)
        return left + right if node.op == "+" else left - right if node.op == "-" else left * right
    raise ValueError(f"not a word expression: {node}")


def z3_optimum(formula: str, objective: str, sense: str) -> int:
    """Z3's optimiser on the formula's term, with the rules as constraints."""
    problem = Puzzle(formula).problem
    context = proof_context()
    letters = [z3.Int(letter, context) for letter in problem.letters]
    term = formula_term(problem, context)
    assert term is not None
    optimizer = z3.Optimize(ctx=context)
    optimizer.add(term, z3.Distinct(*letters))
    for letter, variable in zip(problem.letters, letters):
        optimizer.add(variable >= (1 if letter in problem.leading else 0), variable <= 9)
    goal = z3_term(objective_node(objective), context)
    handle = optimizer.maximize(goal) if sense == "maximize" else optimizer.minimize(goal)
    assert optimizer.check() == z3.sat
    return optimizer.upper(handle).as_long() if sense == "maximize" else optimizer.lower(handle).as_long()


def optimized(formula: str, objective: str, sense: str) -> Optimum:
    return Puzzle(formula).optimize(objective, sense=sense)


def timed(function, *args):
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def main() -> int:
    Puzzle("SEND + MORE = MONEY").optimize("MONEY")  # imports, the grammar and Z3 loaded first
    rows, to_brute, to_z3 = [], [], []
    for formula, objective, sense in HELD_OUT:
        result, ours = timed(optimized, formula, objective, sense)
        brute, brute_seconds = timed(brute_force, formula, objective, sense)
        optimum, z3_seconds = timed(z3_optimum, formula, objective, sense)
        agree = result.status.value == "optimal" and result.value == brute == optimum
        to_brute.append(ours / brute_seconds)
        to_z3.append(ours / z3_seconds)
        rows.append(f"  {'ok ' if agree else 'DIFFERENT'} {sense[:3]} {objective:>11} = {str(result.value):>7} "
                    f"({result.searches:2d} searches)  smtcrypt {ours:7.3f} s  brute force {brute_seconds:7.3f} s  "
                    f"Z3 Optimize {z3_seconds:7.3f} s  {formula}")
        if not agree:
            rows.append(f"    smtcrypt {result.status.value} {result.value}, brute force {brute}, Z3 {optimum}")
    print(f"{len(HELD_OUT)} held-out optimisation puzzles")
    print("\n".join(rows))
    print(f"smtcrypt / brute force: median {statistics.median(to_brute):.3f}, "
          f"smtcrypt / Z3 Optimize: median {statistics.median(to_z3):.3f} (geometric mean "
          f"{statistics.geometric_mean(to_z3):.3f})")
    return 0 if all(row.startswith("  ok") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
