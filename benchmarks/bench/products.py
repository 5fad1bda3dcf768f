"""The products class (`run.py --only products`): multiplication puzzles with several words on each
side, from benchmarks/products.tsv (made by benchmarks/make_products.py), and its targets.

Each puzzle is run by smtcrypt (its default strategy, so whatever backend `auto` picks), CP-SAT
(one worker) and the exact brute force, in the same run; the counts are checked against each other
and against the file's, as for any corpus. The targets, for smtcrypt finding all solutions and
proving there are no others, per puzzle: a median of at most 30 ms, the slowest at most 1 s, and a
median smtcrypt/CP-SAT time ratio of at most 0.1.
"""

from __future__ import annotations

import statistics

from . import HERE
from .report import ratio_stats
from .results import Puzzle

PRODUCTS_CORPUS = HERE / "products.tsv"
TAG = "products"
METHODS = ("smtcrypt", "cpsat", "bruteforce")  # the default methods of the class
WARM_UP = "THETA * XI = ETA * NU * PHI"  # a product large enough to go on compiled: the first puzzle pays no set-up
MEDIAN_SECONDS = 0.030  # target: median smtcrypt time per puzzle
SLOWEST_SECONDS = 1.0  # target: the slowest smtcrypt time
CPSAT_RATIO = 0.1  # target: median smtcrypt time / CP-SAT time


def selected(only: str | None) -> bool:
    """Whether `--only` asks for the products class (`products`, or `products+unique`, ...)."""
    if not only:
        return False
    return any(TAG in {tag.strip() for tag in group.split("+")} for group in only.split(","))


def summarise_products(puzzles: list[Puzzle]) -> dict:
    """smtcrypt's median and slowest time per puzzle and the median smtcrypt/CP-SAT ratio, with the
    targets. A puzzle smtcrypt did not finish counts at the time it was stopped (a lower bound), and
    the slowest-time target then fails; a crash is left out of the times and fails both time targets."""
    runs = [(p.formula, p.results["smtcrypt"]) for p in puzzles if "smtcrypt" in p.results]
    timed = [(formula, r.seconds, r.finished) for formula, r in runs
             if r.seconds is not None and r.status not in ("skip", "error")]
    unfinished = [formula for formula, r in runs if not r.finished]
    summary: dict = {"puzzles": len(runs), "unfinished": unfinished, "median_seconds": None,
                     "slowest_seconds": None, "slowest_formula": None, "slowest_finished": None,
                     "cpsat_ratio": None, "targets": {}}
    if timed:
        summary["median_seconds"] = statistics.median(seconds for _, seconds, _ in timed)
        formula, seconds, finished = max(timed, key=lambda item: item[1])
        summary.update(slowest_seconds=seconds, slowest_formula=formula, slowest_finished=finished)
    crashed = any(r.status == "error" for _, r in runs)
    if summary["median_seconds"] is not None:
        summary["targets"]["median"] = not crashed and summary["median_seconds"] <= MEDIAN_SECONDS
        summary["targets"]["slowest"] = not unfinished and summary["slowest_seconds"] <= SLOWEST_SECONDS
    if any("cpsat" in p.results for p in puzzles):
        stats = ratio_stats(puzzles, "smtcrypt", "cpsat")
        summary["cpsat_ratio"] = stats["median"]
        summary["cpsat_ratio_puzzles"] = stats["puzzles"]
        if stats["median"] is not None:
            summary["targets"]["cpsat_ratio"] = stats["median"] <= CPSAT_RATIO
    return summary


def show_seconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def print_products(summary: dict, name: str) -> None:
    """The class's lines after the general summary: the three numbers and whether each target holds."""
    def verdict(key: str) -> str:
        held = summary["targets"].get(key)
        return "not measured" if held is None else ("holds" if held else "MISSED")

    print(f"\nproducts: {name} per puzzle (all solutions and the proof that there are no others), over "
          f"{summary['puzzles']} puzzles" + (f", {len(summary['unfinished'])} not finished (counted at their "
                                             "time limit)" if summary["unfinished"] else ""))
    if summary["median_seconds"] is None:
        print("  no time measured")
        return
    print(f"  median {show_seconds(summary['median_seconds'])}: target <= {MEDIAN_SECONDS * 1000:g} ms "
          f"{verdict('median')}")
    bound = "" if summary["slowest_finished"] else " (stopped: a lower bound)"
    print(f"  slowest {show_seconds(summary['slowest_seconds'])}{bound} on {summary['slowest_formula']!r}: "
          f"target <= {SLOWEST_SECONDS:g} s {verdict('slowest')}")
    if summary["cpsat_ratio"] is not None:
        print(f"  median {name}/cpsat {summary['cpsat_ratio']:.3g} over {summary['cpsat_ratio_puzzles']} puzzles "
              f"both finished: target <= {CPSAT_RATIO:g} {verdict('cpsat_ratio')}")
    else:
        print(f"  median {name}/cpsat: not measured (cpsat not run, or no puzzle both finished)")
