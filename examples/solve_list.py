"""Solve every puzzle in a file (one formula a line; '#' starts a comment) and report each verdict.

    python examples/solve_list.py [FILE] [--timeout S]

Without FILE it works through the 67 formulas of Peter Norvig's notebook, kept in the tests.
"""

import argparse
import time
from pathlib import Path

import smtcrypt

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "notebook.txt"


def formulas(path: Path):
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            yield line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle")
    args = parser.parse_args()
    start = time.monotonic()
    tally: dict[str, int] = {}
    for formula in formulas(args.file):
        try:
            verdict = smtcrypt.verdict(formula, timeout=args.timeout)
        except smtcrypt.FormulaError as error:
            print(f"{formula}\n  error: {error}")
            tally["error"] = tally.get("error", 0) + 1
            continue
        tally[verdict.status.value] = tally.get(verdict.status.value, 0) + 1
        first = verdict.solutions[0].text if verdict.solutions else "-"
        print(f"{verdict.status.value:8} {verdict.seconds:6.2f} s  {formula:45.45}  {first}")
    summary = ", ".join(f"{count} {status}" for status, count in sorted(tally.items()))
    print(f"{summary} in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main()
