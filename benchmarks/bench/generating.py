"""The generating class (`run.py --only generate`): Cryptagen's Greek and colour rows, generated and timed.

Cryptagen (the generator of the Cryptator project, ICTAI 2025) publishes, for the 24 Greek letter
names, how many sums of n distinct unordered words onto one more word have exactly one solution
(at most ten letters, no leading zero, no word twice), and its best time for each n (Table III
of its paper). Here each n is one `smtcrypt generate --addends N --distinct-words` run
(`generate(..., addends=range(n, n + 1), distinct_words=True)`) on `--jobs` processes (2 by
default), timed from the call to the last puzzle; its count must be the published one (DISAGREE
and exit status 1 otherwise). After the timing, every reported puzzle is decided again by
`smtcrypt.verdict` and must be `unique`.

The same for its second row, the 143 colour names (`examples/words/colors.txt`), n = 2 to 6.

The target, from the issue that brought templates: each n in at most max(1 s, a tenth of the
best published time).

    python benchmarks/run.py --only generate [--jobs N] [--confirm]

By default each puzzle is proved once, by the exhaustive search, and re-checked exactly, as
`smtcrypt generate` does; `--confirm` times Z3's second proof of each as well.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path
from typing import Any

import smtcrypt
from smtcrypt.setters.generate import Totals, generate

TAG = "generate"
GREEK = ["ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON", "ZETA", "ETA", "THETA", "IOTA", "KAPPA", "LAMBDA", "MU",
         "NU", "XI", "OMICRON", "PI", "RHO", "SIGMA", "TAU", "UPSILON", "PHI", "CHI", "PSI", "OMEGA"]
# words on the left -> (unique puzzles, best time in seconds), Cryptagen's Table III
PUBLISHED = {2: (4, 0.1), 3: (38, 1.9), 4: (128, 10.9), 5: (207, 26.1), 6: (184, 16.1), 7: (30, 3.6), 8: (2, 1.0)}
# the same for its 143 colour names (examples/words/colors.txt, the X11 colour names Cryptator ships)
COLOURS = Path(__file__).resolve().parents[2] / "examples" / "words" / "colors.txt"
PUBLISHED_COLOURS = {2: (66, 1.8), 3: (315, 47.0), 4: (357, 145.3), 5: (163, 317.1), 6: (46, 431.9)}
LISTS = {"greek": (GREEK, PUBLISHED), "colours": (None, PUBLISHED_COLOURS)}


def target(best: float) -> float:
    return max(1.0, best / 10)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def words_of(name: str) -> list[str]:
    words = LISTS[name][0]
    return list(words) if words is not None else COLOURS.read_text(encoding="utf-8").split()


def run_row(n: int, jobs: int, confirm: bool, name: str = "greek") -> dict[str, Any]:
    totals = Totals()
    words = words_of(name)
    start, cpu = time.perf_counter(), cpu_seconds()
    found = list(generate(words, addends=range(n, n + 1), distinct_words=True, jobs=jobs, confirm=confirm,
                          totals=totals))
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    count, best = LISTS[name][1][n]
    return {"list": name, "n": n, "candidates": totals.candidates, "decided": totals.candidates - totals.filtered,
            "unique": len(found), "published": count, "seconds": round(seconds, 3), "cpu": round(cpu, 3), "best": best,
            "target": target(best), "met": seconds <= target(best), "agree": len(found) == count,
            "work": totals.work, "formulas": [puzzle.formula for puzzle in found]}


def main(jobs: int = 2, confirm: bool = False, out: Path | None = None, lists: tuple[str, ...] = ("greek", "colours")
         ) -> int:
    rows = []
    load = os.getloadavg()
    for name in lists:
        words = words_of(name)
        print(f"{name}: {len(words)} words, --distinct-words, --jobs {jobs}{', --confirm' if confirm else ''}")
        print(f"{'n':>2} {'candidates':>14} {'decided':>8} {'unique':>7} {'published':>9} | {'seconds':>8} "
              f"{'cpu':>6} {'best':>6} {'target':>7}  met")
        for n in LISTS[name][1]:
            row = run_row(n, jobs, confirm, name)
            rows.append(row)
            flag = "" if row["agree"] else "  DISAGREE"
            print(f"{n:>2} {row['candidates']:>14,} {row['decided']:>8,} {row['unique']:>7} {row['published']:>9} | "
                  f"{row['seconds']:>8.2f} {row['cpu']:>6.2f} {row['best']:>6.1f} {row['target']:>7.2f}  "
                  f"{'yes' if row['met'] else 'no'}{flag}", flush=True)
    total = sum(row["seconds"] for row in rows)
    print(f"load average before the run {load[0]:.2f}, after {os.getloadavg()[0]:.2f} (2 cores: above 2, other "
          "work shares them); cpu = seconds of CPU in this process and its pool")
    print(f"all rows: {total:.2f} s; target met for {sum(row['met'] for row in rows)} of {len(rows)}")
    wrong = [formula for row in rows for formula in row["formulas"]
             if smtcrypt.verdict(formula).status is not smtcrypt.Status.UNIQUE]
    checked = sum(len(row["formulas"]) for row in rows)
    print(f"re-decided by smtcrypt.verdict: {checked - len(wrong)} of {checked} unique" +
          (f"; NOT UNIQUE: {', '.join(wrong[:5])}" if wrong else ""))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "generate-latest.json").write_text(json.dumps({"jobs": jobs, "confirm": confirm, "rows": rows},
                                                             indent=1), encoding="utf-8")
    return 1 if wrong or not all(row["agree"] for row in rows) else 0
