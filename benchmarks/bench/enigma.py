"""The enigma class: the published enigma.py command lines of tests/data/enigma_commands.tsv, each run
as a user runs it (`smtcrypt --syntax enigma ...`, through `smtcrypt.cli.main`), timed beside an
exact brute force over the same translated formula and rules (up to ten letters) (tests/reference.py's, which shares
only the parser with smtcrypt). A long division has no reference here (its layout's cells are the
parser's hidden names): its count is checked against the published one only.

The target: none over 2 s. Both counts must agree with the published count (DISAGREE otherwise).

    python benchmarks/bench/enigma.py        # one line a command line, then the slowest
"""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "enigma_commands.tsv"
TARGET_SECONDS = 2.0
MAX_REFERENCE_LETTERS = 10  # beyond, the brute force's space (10**16 with free symbols) is out of reach


def rows() -> list[tuple[str, int | None, list[str]]]:
    """name, published count (None where the source gives only the answer), arguments."""
    found = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, _source, count, _expect, command = line.split("\t")
        found.append((name, None if count == "?" else int(count), shlex.split(command)))
    return found


def smtcrypt_count(command: list[str]) -> tuple[int | None, float]:
    from smtcrypt.cli import main

    out = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["--json", "--syntax", "enigma", *command])
    seconds = time.perf_counter() - start
    data = json.loads(out.getvalue())
    return (data.get("count") if data.get("complete") else None), seconds


def reference_count(command: list[str]) -> tuple[int | None, float]:
    """The brute force's count of a SubstitutedExpression's translation; None for a division."""
    from smtcrypt.notations.enigma import read_command

    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.reference import count

    puzzle = read_command(command)
    if puzzle.layout is not None or len(puzzle.letters) > MAX_REFERENCE_LETTERS:
        return None, 0.0
    typed = puzzle.rules
    rules = {"distinct": ",".join(typed.groups) if typed.groups else typed.distinct,
             "allow_leading_zeros": typed.allow_leading_zeros, "base": typed.base, "digits": typed.digits,
             "domains": dict(typed.domains), "assign": dict(typed.assign)}
    start = time.perf_counter()
    value = count("\n".join(puzzle.formulas), **rules)
    return value, time.perf_counter() - start


def main() -> int:
    status = 0
    timings = []
    for name, published, command in rows():
        try:
            found, seconds = smtcrypt_count(command)
            reference, reference_seconds = reference_count(command)
        except Exception as problem:  # reported, and the run fails, but the other rows are still timed
            print(f"ERROR    {type(problem).__name__}: {problem}  {name}")
            status = 1
            continue
        expected = published if published is not None else found  # only the answer published: the counts agree
        agree = found is not None and found == expected and reference in (None, expected)
        status |= 0 if agree and seconds <= TARGET_SECONDS else 1
        timings.append((seconds, name))
        shown = "-" if reference is None else f"{reference} in {reference_seconds:.3f} s"
        print(f"{'ok' if agree else 'DISAGREE':8} {seconds:7.3f} s  smtcrypt {found}  reference {shown}  "
              f"published {published}  {name}")
    slowest = max(timings)
    print(f"slowest: {slowest[0]:.3f} s ({slowest[1]}); target: none over {TARGET_SECONDS} s")
    return status


if __name__ == "__main__":
    sys.exit(main())
