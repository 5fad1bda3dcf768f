"""The number-theory words class (`run.py --only words`): puzzles written with `is_prime`, `is_square`,
`dsum`, `rev`, ..., each beside the same puzzle written without them (a witness unknown such as
`t * t = TEN, 0 <= t <= 31`, a gcd with a primorial, the letters spelled out) and beside brute force.

Each puzzle is solved in the same run three ways, all solutions and the proof that there are no
others: smtcrypt on the puzzle with the words (`auto`, and `--strategy z3`), smtcrypt on the puzzle
without them (`auto`), and brute force (`--strategy exhaustive`: the compiled formula on every
assignment the rules allow). The counts must agree (DISAGREE and exit status 1 otherwise). The
ratios are time without / time with, and brute force / with.

The target, from the issue that brought the words: a puzzle written with them is at least as fast
as the same puzzle written without, and `SEVEN - THREE = FOUR, is_square(TEN)` takes under 0.2 s.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import smtcrypt

TAG = "words"
DEFAULT_TIMEOUT = 120.0  # seconds per search
TARGET_SECONDS = 0.2  # for the first puzzle, with the words
PRIMORIAL_316 = math.prod(p for p in range(2, 317) if all(p % d for d in range(2, p)))  # primes up to sqrt(99999)
PRIMORIAL_100 = math.prod(p for p in range(2, 100) if all(p % d for d in range(2, p)))  # up to sqrt(9999)

# what it is, the puzzle with the words, the same puzzle without them
PUZZLES = (
    ("a sum, a square", "SEVEN - THREE = FOUR, is_square(TEN)",
     "SEVEN - THREE = FOUR, t * t = TEN, 0 <= t <= 31"),
    ("a sum, a prime", "SEVEN - THREE = FOUR, is_prime(SEVEN)",
     f"SEVEN - THREE = FOUR, gcd(SEVEN, {PRIMORIAL_316}) = 1"),
    ("a product, a square", "ABC * DE = FGHI, is_square(FGHI)",
     "ABC * DE = FGHI, r * r = FGHI, 32 <= r <= 99"),
    ("a sum, a digit sum", "SEND + MORE = MONEY, dsum(SEND) = 27",
     "SEND + MORE = MONEY, S + E + N + D = 27"),
    ("a reversal", "ABCD * 4 = rev(ABCD)", "ABCD * 4 = DCBA"),
    ("two triangular numbers", "is_triangular(ABC), is_triangular(CBA)",
     "8 * ABC + 1 = s * s, 8 * CBA + 1 = t * t, 0 <= s <= 90, 0 <= t <= 90"),
    ("a square and a prime", "is_square(ABCD), is_prime(DCBA)",
     f"ABCD = r * r, 32 <= r <= 99, gcd(DCBA, {PRIMORIAL_100}) = 1"),
)


@dataclass
class Run:
    """One puzzle's runs: each way's count (None if it did not finish) and seconds."""

    what: str
    with_words: str
    without: str
    counts: dict[str, int | None] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    strategies: dict[str, str] = field(default_factory=dict)

    @property
    def disagreement(self) -> bool:
        return len({count for count in self.counts.values() if count is not None}) > 1


WAYS = (  # name, which formula, strategy
    ("words", "with_words", "auto"),
    ("words z3", "with_words", "z3"),
    ("without", "without", "auto"),
    ("brute force", "with_words", "exhaustive"),
)


def solve(run: Run, way: str, formula: str, strategy: str, timeout: float) -> None:
    """Every solution and the proof that there are no others, timed."""
    started = time.perf_counter()
    search = smtcrypt.Puzzle(formula).search(strategy=strategy, timeout=timeout)
    solutions = sum(1 for _ in search)
    verdict = search.verdict()
    run.seconds[way] = time.perf_counter() - started
    run.counts[way] = solutions if verdict.complete else None
    run.strategies[way] = (verdict.stats.strategy if verdict.stats is not None else None) or "-"


def shown(seconds: float | None, count: int | None) -> str:
    if seconds is None:
        return "-"
    text = f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"
    return text if count is not None else f">{text}"


def main(timeout: float | None = None, out: Path | None = None, info: dict | None = None) -> int:
    """Run every puzzle every way; print the table, the ratios and the target; the exit status (1 on
    a disagreement)."""
    limit = DEFAULT_TIMEOUT if timeout is None else timeout
    print(f"smtcrypt benchmark, number-theory words: {len(PUZZLES)} puzzles, each with the words, without them "
          f"and by brute force; timeout {limit:g} s")
    if info:
        print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items() if v is not None))
    started = time.perf_counter()
    smtcrypt.Puzzle("A + B = CD, is_prime(CD)").count()  # imports, the parser, the compiled code
    smtcrypt.Puzzle("A + B = CD, is_prime(CD)").count(strategy="z3")  # and Z3
    print(f"warm-up {time.perf_counter() - started:.2f} s")
    print(f"{'puzzle':24} {'solutions':>9} | {'words':>9} {'words z3':>9} {'without':>9} {'brute':>9} | "
          f"{'without/words':>13} {'brute/words':>11}")
    runs = []
    for what, with_words, without in PUZZLES:
        run = Run(what, with_words, without)
        for way, which, strategy in WAYS:
            solve(run, way, getattr(run, which), strategy, limit)
        runs.append(run)
        count = next((c for c in run.counts.values() if c is not None), None)
        words_seconds = run.seconds["words"]
        ratios = [f"{run.seconds[way] / words_seconds:.3g}" if words_seconds else "-" for way in ("without", "brute force")]
        flag = "   <-- DISAGREE" if run.disagreement else ""
        print(f"{what:24} {count if count is not None else '-':>9} | "
              + " ".join(f"{shown(run.seconds.get(way), run.counts.get(way)):>9}" for way, _, _ in WAYS)
              + f" | {ratios[0]:>13} {ratios[1]:>11}{flag}")
    first = runs[0].seconds["words"]
    slower = [run.what for run in runs if run.seconds["words"] > run.seconds["without"] * 1.1 + 0.01]
    print(f"\ntarget: {PUZZLES[0][1]!r} in {first * 1000:.0f} ms, <= {TARGET_SECONDS * 1000:g} ms: "
          + ("holds" if first <= TARGET_SECONDS else "MISSED"))
    print("target: with the words at least as fast as without (10% and 10 ms allowed): "
          + ("holds" if not slower else "MISSED on " + ", ".join(slower)))
    print("strategies (auto, with the words): " + "; ".join(f"{run.what}: {run.strategies['words']}" for run in runs))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        path = out / "words.json"
        path.write_text(json.dumps({"runs": [asdict(run) for run in runs], "machine": info or {}}, indent=1) + "\n",
                        encoding="utf-8")
        print(f"wrote {path}")
    return 1 if any(run.disagreement for run in runs) else 0


if __name__ == "__main__":  # python -m bench.words, from benchmarks/
    raise SystemExit(main())
