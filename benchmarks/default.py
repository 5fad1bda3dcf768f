#!/usr/bin/env python3
"""The default against every strategy: does `auto` ever strand a user where one backend would not?

For each puzzle of the corpora (benchmarks/corpus.tsv, products.tsv and a few systems from outside
sources below), in one process: the default's time to count every solution (or to find the first,
for the corpus's `first` puzzles), then each strategy forced. A strategy is given only the time in
which it could still beat the default by the target's margin, (auto - 0.2 s) / 2: one that has not
finished by then cannot make the default miss the target. The report lists each puzzle whose
default took more than 2 x its best strategy + 0.2 s, and the worst ratios.

    python benchmarks/default.py                 # the corpora and the systems
    python benchmarks/default.py --only systems  # the systems alone
    python benchmarks/default.py --limit 40      # the first 40 puzzles of each corpus
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the `bench` package, however this file is run
    sys.path.insert(0, str(HERE))

from bench.corpus import load_corpus  # noqa: E402

import smtcrypt  # noqa: E402
from smtcrypt.engine.base import STRATEGIES  # noqa: E402
from smtcrypt.engine.kernels import load_compiled  # noqa: E402

SLACK = 0.2  # seconds: the target is auto <= 2 x best + SLACK
TIMEOUT = 60.0  # seconds the default gets

# Puzzles of many equations over large digit ranges, as users bring them from outside sources
LETTER_VALUES = ["B + A + L + L + E + T = 45", "C + E + L + L + O = 43", "C + O + N + C + E + R + T = 74",
                 "F + L + U + T + E = 30", "F + U + G + U + E = 50", "G + L + E + E = 66", "J + A + Z + Z = 58",
                 "L + Y + R + E = 47", "O + B + O + E = 53", "O + P + E + R + A = 65", "P + O + L + K + A = 59",
                 "Q + U + A + R + T + E + T = 50", "S + A + X + O + P + H + O + N + E = 134",
                 "S + C + A + L + E = 51", "S + O + L + O = 37", "S + O + N + G = 61",
                 "S + O + P + R + A + N + O = 82", "T + H + E + M + E = 72", "V + I + O + L + I + N = 100",
                 "W + A + L + T + Z = 34"]
SYSTEMS: list[tuple[str, list[str], dict[str, object]]] = [
    ("letters worth 1 to 26", LETTER_VALUES, {"base": 27, "digits": "1-26"}),
    ("letters worth 1 to 26, the first ten sums", LETTER_VALUES[:10], {"base": 27, "digits": "1-26"}),
    ("a magic square of 1 to 9", ["A + B + C = 15", "D + E + F = 15", "G + H + J = 15", "A + D + G = 15",
                                  "B + E + H = 15", "C + F + J = 15", "A + E + J = 15", "C + E + G = 15"],
     {"digits": "1-9"}),
    ("a cross-sum of base 16", ["AB + CD = EF", "AC + BD = FE", "A + B + C + D + E + F = 40"], {"base": 16}),
    # integer unknowns with bounds, as a modeller writes them (searched as digits of their own)
    ("a multiplier as an unknown", ["ABCDEFGH * m = HGFEDCBA", "2 <= m <= 9"], {}),
    ("four prices that add and multiply to 7.11", ["a + b + c + d = 711", "a * b * c * d = 711000000",
                                                   "1 <= a <= 711", "1 <= b <= 711", "1 <= c <= 711",
                                                   "1 <= d <= 711", "a <= b <= c <= d"], {}),
    ("two 8-digit squares", ["x == ABCD ** 2", "y == EFGH ** 2", "x + y == IJ * 1000001",
                             "10000000 <= x <= 99999999", "10000000 <= y <= 99999999"], {}),
]


def timed(formula: list[str] | str, rules: dict[str, object], first: bool, strategy: str,
          timeout: float) -> tuple[float, str]:
    """Seconds to the answer and how it ended ("ok", "timeout", "skip" for a strategy refused)."""
    start = time.perf_counter()
    try:
        puzzle = smtcrypt.Puzzle(formula, **rules)  # type: ignore[arg-type]
        if first:
            puzzle.first(timeout=timeout, strategy=strategy)
        else:
            puzzle.count(timeout=timeout, strategy=strategy)
    except smtcrypt.StrategyError:
        return 0.0, "skip"
    except smtcrypt.IncompleteSearch:
        return time.perf_counter() - start, "timeout"
    return time.perf_counter() - start, "ok"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["corpus", "products", "systems"], help="one set of puzzles")
    parser.add_argument("--limit", type=int, help="the first N puzzles of each corpus")
    options = parser.parse_args()
    puzzles: list[tuple[str, list[str] | str, dict[str, object], bool]] = []
    if options.only in (None, "corpus"):
        corpus = load_corpus(HERE / "corpus.tsv")[:options.limit]
        puzzles += [(entry.formula, entry.formula, {}, "first" in entry.tags) for entry in corpus]
    if options.only in (None, "products"):
        products = load_corpus(HERE / "products.tsv")[:options.limit]
        puzzles += [(entry.formula, entry.formula, {}, False) for entry in products]
    if options.only in (None, "systems"):
        puzzles += [(name, formula, rules, False) for name, formula, rules in SYSTEMS]
    # the process warmed up first: imports, the grammar, Z3 and the compiled kernels (not any puzzle's time)
    load_compiled()
    for strategy in STRATEGIES:
        timed("SEND + MORE = MONEY", {}, False, strategy, TIMEOUT)
    misses, ratios = [], []
    for name, formula, rules, first in puzzles:
        auto, ending = timed(formula, rules, first, "auto", TIMEOUT)
        best, best_name = auto, "auto"
        for strategy in STRATEGIES[1:]:
            budget = (auto - SLACK) / 2
            if budget <= 0:
                break
            seconds, end = timed(formula, rules, first, strategy, budget)
            if end == "ok" and seconds < best:
                best, best_name = seconds, strategy
        ratios.append((auto / best if best else 1.0, name, auto, best, best_name))
        if ending != "ok" or auto > 2 * best + SLACK:
            misses.append(f"  {name}: auto {auto:.3f} s ({ending}), {best_name} {best:.3f} s")
    ratios.sort(reverse=True)
    print(f"{len(puzzles)} puzzles; the default within 2 x its best strategy + {SLACK} s on "
          f"{len(puzzles) - len(misses)}")
    for ratio, name, auto, best, best_name in ratios[:10]:
        print(f"  auto / best {ratio:5.2f}  auto {auto:.3f} s, {best_name} {best:.3f} s  {name[:70]}")
    if misses:
        print("missed:\n" + "\n".join(misses))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
