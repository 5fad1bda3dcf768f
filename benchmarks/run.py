#!/usr/bin/env python3
"""Benchmark smtcrypt against the seed notebook's compiled brute force, an exact brute force and
OR-tools CP-SAT on the puzzle corpus: the entry point of the `bench` package next to this file.

    python benchmarks/run.py --only table
    python benchmarks/run.py --only general --methods smtcrypt,notebook,bruteforce
    python benchmarks/run.py --only collection        # Cryptator's collection (bench/collection.py)
    python benchmarks/run.py --help
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the `bench` package, however this file is run
    sys.path.insert(0, str(HERE))

from bench import collection  # noqa: E402
from bench.runner import main  # noqa: E402

if __name__ == "__main__":
    if collection.selected(sys.argv[1:]):  # a class with options of its own (--collection DIR, ...)
        sys.exit(collection.main(sys.argv[1:]))
    sys.exit(main())
