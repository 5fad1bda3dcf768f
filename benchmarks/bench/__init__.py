"""The smtcrypt benchmark as a package: one module per method, the corpus, running and reporting.

    corpus.py           the puzzles of benchmarks/corpus.tsv, selection by tag, expected counts
    results.py          Result (one method on one puzzle) and Puzzle
    exact.py            exact roots, powers and quotients shared by the reference methods
    smtcrypt_method.py  smtcrypt.count / smtcrypt.solve, optionally with a forced strategy
    notebook.py         the seed notebook's faster_solve: the formula compiled once into a lambda
    bruteforce.py       every permutation, tested by the parsed formula compiled into exact closures
    cpsat.py            OR-tools CP-SAT on an exact integer model
    report.py           the table, totals, medians of ratios, the speed target, JSON and the plot
    products.py         the products class: benchmarks/products.tsv, its default methods and targets
    layouts.py          the layouts class: skeleton layouts, smtcrypt's count and a reference over numbers
    generating.py       the generating class: Cryptagen's Greek row, counts and times beside the published ones
    sampling.py         the sampling class: ten random puzzles from 100,000 words, beside drawing whole candidates
    runner.py           the command line: run every method on every puzzle, check that they agree

`benchmarks/run.py` is the entry point.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent  # benchmarks/
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # smtcrypt from this checkout, with or without PYTHONPATH
    sys.path.insert(0, str(ROOT))
