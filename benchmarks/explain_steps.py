"""How long explanations are: steps per letter over the notebook's formulas and the classic sums.

    python benchmarks/explain_steps.py [--tags notebook,classic+sum] [--json FILE] [--timeout S]

For each formula of benchmarks/corpus.tsv with one of the tags (`A+B`: both), one explanation
(`Puzzle.explain()`, its default budget of work): its status, whether reasoning finished it, its
steps (every line, the solution and the cases listed included), its letters, steps per letter, its
difficulty and how long it took. The summary gives, per tag, the mean and the largest steps per
letter, and how many explanations reasoning finished. `--json` also writes the rows, so that two
runs (before and after a change) can be compared line by line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench.corpus import DEFAULT_CORPUS, load_corpus, select  # noqa: E402

from smtcrypt.api import Puzzle  # noqa: E402


def measure(formula: str, timeout: float | None) -> dict[str, object]:
    """One explanation's length and how it ended."""
    puzzle = Puzzle(formula)
    start = time.perf_counter()
    explanation = puzzle.explain(timeout=timeout)
    seconds = time.perf_counter() - start
    letters = len(puzzle.problem.letters)
    steps = len(explanation.steps)
    return {"formula": formula, "status": explanation.status.value, "complete": explanation.complete,
            "steps": steps, "letters": letters, "per_letter": round(steps / max(1, letters), 2),
            "difficulty": explanation.difficulty, "seconds": round(seconds, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tags", default="notebook,classic+sum", help="the corpus's tags to explain (`A,B`: either)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--timeout", type=float, default=None, help="seconds per explanation (default: its budget)")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args(argv)
    puzzles = select(load_corpus(args.corpus), args.tags)
    rows = []
    for puzzle in puzzles:
        row = measure(puzzle.formula, args.timeout)
        row["tags"] = puzzle.tags
        rows.append(row)
        print(f"{row['steps']:>5} {row['letters']:>3} {row['per_letter']:>6} {row['status']:<9} "
              f"{'done' if row['complete'] else 'open':<5} d{row['difficulty']} {row['seconds']:>7} s  "
              f"{puzzle.formula}", flush=True)
    for group in args.tags.split(","):
        wanted = set(group.split("+"))
        chosen = [row for row in rows if wanted <= set(row["tags"])]  # type: ignore[arg-type]
        if not chosen:
            continue
        ratios = [float(row["per_letter"]) for row in chosen]  # type: ignore[arg-type]
        finished = sum(1 for row in chosen if row["complete"])
        unique = [row for row in chosen if row["status"] == "unique"]
        print(f"{group}: {len(chosen)} formulas, steps {sum(int(row['steps']) for row in chosen)} "  # type: ignore[call-overload]
              f"(mean {statistics.mean(ratios):.2f} a letter, most {max(ratios):.2f}); reasoning finished "
              f"{finished}, of the {len(unique)} unique {sum(1 for row in unique if row['complete'])}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
