"""How soon `Search.request_stop()` acts: the time from the call (from another thread, at a random
moment of the search) to the end of the search, per puzzle and strategy, over every stage a search
goes through (encoding, splitting into cases, solver calls, cubes, the Python backends, the switch
from one backend to another).

    python benchmarks/stop_latency.py [--trials N] [--seed S]

Prints the median and the worst latency in milliseconds per row and over all stops.
"""

from __future__ import annotations

import argparse
import random
import statistics
import threading
import time

import smtcrypt

CASES = [
    ("NORTH / SOUTH = EAST / WEST", "auto", False),  # products encoding, a split search, then the join
    ("NORTH / SOUTH = EAST / WEST", "z3", False),
    ("NORTH / SOUTH = EAST / WEST", "auto", True),  # --first: Z3 races the join on a second thread
    ("NAUGHT ** 2 = ZERO ** 3", "z3", False),
    ("ABCDE < FGHIJ", "cubes", False),
    ("gcd(ABCDE, FGHIJ) > 500", "auto", False),  # bit-vector cubes, then every assignment
    ("ABCDEFGHIJ % 7 = 3", "auto", False),
    ("ONE < TWO < THREE < TWO * TWO", "z3", False),  # a model per check
    ("p * p + q * q = r * r, p > 0, q > 0", "auto", False),  # integer unknowns: Z3's general solver
]


def latency(formula: str, strategy: str, first: bool, after: float, patience: float | None = None) -> float | None:
    """Seconds from request_stop to the search's end; None if the search ended before `after`.
    The stopped search must end `unknown` (interrupted), within `patience` seconds if given."""
    search = smtcrypt.Puzzle(formula).search(strategy=strategy, limit=1 if first else None)
    done = threading.Event()

    def run() -> None:
        try:
            search.run()
        finally:
            done.set()

    thread = threading.Thread(target=run)
    thread.start()
    if done.wait(after):
        thread.join()
        return None
    started = time.monotonic()
    search.request_stop()
    if not done.wait(patience):
        raise AssertionError(f"the stop was not acted on within {patience} s: {formula} ({strategy})")
    seconds = time.monotonic() - started
    thread.join()
    verdict = search.verdict()
    assert verdict.reason == "interrupted" and not verdict.complete, verdict
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10, help="stops per row (default 10)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    draw = random.Random(args.seed)
    every = []
    print(f"{'puzzle':45} {'strategy':10} {'stops':>5} {'median ms':>10} {'worst ms':>9}")
    for formula, strategy, first in CASES:
        found = [latency(formula, strategy, first, draw.uniform(0.0, 0.8)) for _ in range(args.trials)]
        times = [seconds * 1000 for seconds in found if seconds is not None]
        every += times
        name = formula + (" (first)" if first else "")
        if times:
            print(f"{name:45} {strategy:10} {len(times):5} {statistics.median(times):10.1f} {max(times):9.1f}")
        else:
            print(f"{name:45} {strategy:10} {0:5} {'(ended before every stop)':>20}")
    print(f"all: {len(every)} stops, median {statistics.median(every):.1f} ms, worst {max(every):.1f} ms, "
          f"{sum(t <= 50 for t in every)} within 50 ms")


if __name__ == "__main__":
    main()
