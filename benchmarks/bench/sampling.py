"""The sampling class (`run.py --only sample`): ten random unique `A + B = C` puzzles from 100,000 words.

The words are the 100,000 most frequent English words of three letters or more made of the
letters a-z only, from the `wordfreq` package (the `bench` extra brings it). For each of five
seeds, `smtcrypt.setters.generate.sample` finds ten puzzles; the run is timed from the call
(the word index built included) to the tenth puzzle, in wall and CPU seconds, beside a
reference in the same run: the plainest sampler on the generator's public parts (`reference`),
three words drawn at once and filtered after; the ratio shows what drawing slot by slot, with
the filters tested as the words come, saves or costs.
Every puzzle found is then decided again by `smtcrypt.verdict` and must be `unique`.

The target, from the issue that brought sampling: ten puzzles in under 10 s.

    python benchmarks/run.py --only sample
"""

from __future__ import annotations

import random
import re
import statistics
import time
from typing import Any

import smtcrypt
from smtcrypt.core.results import Status
from smtcrypt.core.rules import Rules
from smtcrypt.setters.generate import Totals, sample
from smtcrypt.setters.generate.decide import Checker, Setting

TAG = "sample"
WORDS = 100_000
COUNT = 10
SEEDS = range(5)
TARGET = 10.0
REFERENCE_SECONDS = 60.0


def word_list() -> list[str] | None:
    """The 100,000 words, or None without `wordfreq`."""
    try:
        import wordfreq
    except ImportError:
        return None
    words = [word.upper() for word in wordfreq.top_n_list("en", 400_000) if re.fullmatch("[a-z]{3,}", word)]
    return words[:WORDS]


def ours(words: list[str], seed: int) -> dict[str, Any]:
    totals = Totals()
    start, cpu = time.perf_counter(), time.process_time()
    found = list(sample(words, "A + B = C", COUNT, seed=seed, totals=totals))
    return {"seed": seed, "seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu,
            "found": [puzzle.formula for puzzle in found], "draws": totals.draws, "decided": totals.candidates}


def reference(words: list[str], seed: int) -> dict[str, Any]:
    """The plainest sampler on the generator's public parts: three words drawn at random, kept if
    they pass `WordTable.passes_filters`, decided by `Checker.decide`, until ten are unique or
    `REFERENCE_SECONDS` pass. (The enumeration itself is no reference: its first chunk alone, the
    list's first word beside every pair of others, holds 5 * 10**9 candidates.)"""
    start, cpu = time.perf_counter(), time.process_time()
    checker = Checker(Setting("A + B = C", Rules(), 60.0), words)  # its word index is built in the time, as ours
    rng = random.Random(seed)
    found: list[str] = []
    decided = 0
    while len(found) < COUNT and time.perf_counter() - start < REFERENCE_SECONDS:
        parts = tuple(rng.choice(words) for _ in range(3))
        if not checker.table.passes_filters(checker.template, parts):
            continue
        decided += 1
        status, _ = checker.decide(parts)
        if status is Status.UNIQUE:
            found.append(checker.template.formula(parts))
    return {"seed": seed, "seconds": time.perf_counter() - start, "cpu": time.process_time() - cpu, "found": found,
            "decided": decided}


def main() -> int:
    words = word_list()
    if words is None:
        print("the sampling class needs wordfreq: pip install '.[bench]'")
        return 2
    print(f"{len(words):,} words; {COUNT} unique A + B = C puzzles per seed; target {TARGET:g} s")
    print(f"{'seed':>4} | {'seconds':>8} {'cpu':>6} {'draws':>7} {'decided':>8} | {'plain s':>12} "
          f"{'cpu':>6} {'decided':>8} | ratio")
    rows = []
    for seed in SEEDS:
        row = ours(words, seed)
        ref = reference(words, seed)
        ratio = row["seconds"] / ref["seconds"]
        rows.append((row, ref))
        print(f"{seed:>4} | {row['seconds']:>8.2f} {row['cpu']:>6.2f} {row['draws']:>7,} {row['decided']:>8,} | "
              f"{ref['seconds']:>12.2f} {ref['cpu']:>6.2f} {ref['decided']:>8,} | {ratio:.3f}", flush=True)
    seconds = [row["seconds"] for row, _ in rows]
    print(f"median {statistics.median(seconds):.2f} s, slowest {max(seconds):.2f} s: target "
          f"{'met' if max(seconds) < TARGET else 'MISSED'}; median ratio to the reference "
          f"{statistics.median(row['seconds'] / ref['seconds'] for row, ref in rows):.3f}")
    formulas = [formula for row, _ in rows for formula in row["found"]]
    wrong = [formula for formula in formulas if smtcrypt.verdict(formula).status is not Status.UNIQUE]
    print(f"re-decided by smtcrypt.verdict: {len(formulas) - len(wrong)} of {len(formulas)} unique"
          + (f"; NOT UNIQUE: {', '.join(wrong[:5])}" if wrong else ""))
    short = [row["seed"] for row, _ in rows if len(row["found"]) < COUNT]
    if short:
        print(f"seeds with fewer than {COUNT} puzzles: {short}")
    return 1 if wrong or short else 0
