#!/usr/bin/env python3
"""Two ways to enumerate every model of one encoding, timed side by side in one run.

    python benchmarks/enumeration.py [--only TAG] [--repeat N]

blocking   what smtcrypt does: after each model, a clause that excludes it (through the
           Boolean `letter=digit` indicators on the finite-domain solver), then check again.
partition  the "all models by partition" method: after a model m of the cube being searched,
           search the disjoint cubes x1=m1, ..., x(i-1)=m(i-1), xi!=mi for each letter i,
           each a check under assumptions, with no clause ever added.

Both run on the same encoding (the one smtcrypt chooses) of each puzzle tagged TAG in the
corpus (by default `sum`, where every puzzle has a finite-domain encoding) and must count the
same models; the faster method is smtcrypt's. Prints milliseconds (the best of --repeat runs),
solver checks and the partition/blocking ratio per puzzle, and the median ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

import z3  # noqa: E402

from smtcrypt import Puzzle  # noqa: E402
from smtcrypt.encode import Encoded, choose  # noqa: E402
from smtcrypt.engine.z3search import ModelSearch, make_solver, solvers  # noqa: E402


def encoded(formula: str) -> Encoded:
    problem = Puzzle(formula).problem
    return choose(problem).encode(problem, z3.Context())


def by_blocking(formula: str) -> tuple[int, int]:
    """(models, checks) as smtcrypt enumerates them."""
    search = ModelSearch(encoded(formula))
    models = sum(1 for _ in search)
    assert search.end is not None and search.end.complete
    return models, search.checks


def by_partition(formula: str) -> tuple[int, int]:
    """(models, checks), counting the permutations of interchangeable letters as smtcrypt does."""
    enc = encoded(formula)
    solver = make_solver((*solvers(enc), "general")[0], enc.context)
    solver.add(*enc.constraints)
    letters = list(enc.letters.items())
    is_digit = {}  # (letter, digit) -> the Boolean letter == digit, defined once
    for letter, var in letters:
        for digit in range(10):
            flag = is_digit[letter, digit] = z3.Bool(f"{letter}={digit}", enc.context)
            solver.add(flag == (var == digit))
    search = ModelSearch(enc)  # only for its variants: the permutations of interchangeable letters
    cubes: list[list[tuple[str, int, bool]]] = [[]]  # (letter, digit, equal) literals
    models = checks = 0
    while cubes:
        cube = cubes.pop()
        checks += 1
        result = solver.check(*[is_digit[letter, d] if equal else z3.Not(is_digit[letter, d]) for letter, d, equal in cube])
        if result == z3.unsat:
            continue
        assert result == z3.sat, result
        model = solver.model()
        found = {letter: model.eval(var, model_completion=True).as_long() for letter, var in letters}
        models += sum(1 for _ in search.variants(found))
        fixed = {(letter, d) for letter, d, equal in cube if equal}
        prefix: list[tuple[str, int, bool]] = []
        for letter, digit in found.items():
            if (letter, digit) not in fixed:  # otherwise the cube already forces it: nothing differs
                cubes.append(cube + prefix + [(letter, digit, False)])
            prefix.append((letter, digit, True))
    return models, checks


def best(method, formula: str, repeat: int) -> tuple[float, int, int]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        models, checks = method(formula)
        times.append(time.perf_counter() - start)
    return min(times), models, checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="sum", metavar="TAG", help="corpus tag (default: sum)")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs per puzzle and method (best kept)")
    parser.add_argument("--corpus", type=Path, default=HERE / "corpus.tsv")
    args = parser.parse_args(argv)
    formulas = []
    for line in args.corpus.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            formula, _, tags = line.partition("\t")
            tags_here = tags.split(",")
            if args.only in tags_here and "first" not in tags_here:
                formulas.append(formula)
    best(by_blocking, "SEND + MORE = MONEY", 1)  # warm up
    print(f"{'formula':40} {'models':>7} | {'blocking ms':>11} {'checks':>6} | {'partition ms':>12} {'checks':>6} | ratio")
    ratios, status = [], 0
    for formula in formulas:
        block_s, block_models, block_checks = best(by_blocking, formula, args.repeat)
        part_s, part_models, part_checks = best(by_partition, formula, args.repeat)
        if block_models != part_models:
            print(f"DISAGREE on {formula}: {block_models} vs {part_models}")
            status = 1
        ratios.append(part_s / block_s)
        shown = formula if len(formula) <= 40 else formula[:37] + "..."
        print(f"{shown:40} {block_models:>7} | {block_s * 1e3:>11.1f} {block_checks:>6} | "
              f"{part_s * 1e3:>12.1f} {part_checks:>6} | {ratios[-1]:5.2f}")
    if ratios:
        print(f"median partition/blocking time ratio over {len(ratios)} puzzles: {statistics.median(ratios):.2f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
