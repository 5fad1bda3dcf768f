"""`smtcrypt worksheet`: a printable page of puzzles with an answer key."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.errors import FormulaError
from smtcrypt.setters.generate import SHAPES, generate
from smtcrypt.teach.worksheet import PAPERS, entries_of, render


def read_formulas(path: Path) -> list[str]:
    """One formula a line; blank lines and lines starting with # are skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def difficulty_range(text: str) -> tuple[int, int]:
    """`2-3` or `4`: a range of difficulties from 1 to 5."""
    low, _, high = text.partition("-")
    try:
        bounds = int(low), int(high or low)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a range such as 1-3, not {text!r}") from None
    if not 1 <= bounds[0] <= bounds[1] <= 5:
        raise argparse.ArgumentTypeError(f"difficulties go from 1 to 5, low to high, not {text!r}")
    return bounds


def rating(formula: str) -> int:
    """A puzzle's difficulty 1-5, from its explanation."""
    return Puzzle(formula).difficulty()


def generated_formulas(words_file: Path, *, count: int, shape: str, seed: int | None,
                       difficulties: tuple[int, int] | None, timeout: float) -> list[str]:
    """`count` puzzles with exactly one solution over the word list, drawn at random (`seed` repeats a draw)."""
    words = read_formulas(words_file)
    rng = random.Random(seed)
    rng.shuffle(words)  # the generator follows the list's order: shuffled, the first word is not in every puzzle
    pool = []
    for generated in generate(words, shape, timeout=timeout):
        if difficulties is not None:
            if not difficulties[0] <= rating(generated.formula) <= difficulties[1]:
                continue
        pool.append(generated.formula)
        if len(pool) >= 4 * count:
            break
    return pool if len(pool) <= count else [pool[index] for index in sorted(rng.sample(range(len(pool)), count))]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smtcrypt worksheet",
        description="A printable worksheet (HTML; print it to paper or PDF from the browser): the puzzles laid out "
                    "long-hand with blank boxes, and an answer key on its own page.")
    parser.add_argument("formulas", nargs="*", metavar="FORMULA", help="puzzles to put on the sheet")
    parser.add_argument("--from", dest="from_file", type=Path, metavar="FILE",
                        help="also the puzzles of FILE, one a line (# starts a comment)")
    parser.add_argument("--generate", action="store_true", help="also puzzles with exactly one solution, made from --words")
    parser.add_argument("--words", type=Path, metavar="FILE", help="the word list for --generate, one word a line")
    parser.add_argument("--count", type=int, default=6, metavar="N", help="how many puzzles to generate (default 6)")
    parser.add_argument("--shape", choices=SHAPES, default="A + B = C", help="the shape of generated puzzles")
    parser.add_argument("--seed", type=int, metavar="N", help="repeat the same random draw of generated puzzles")
    parser.add_argument("--difficulty", type=difficulty_range, metavar="A-B",
                        help="keep generated puzzles of difficulty A to B (1-5), where smtcrypt rates difficulty")
    parser.add_argument("--title", default="Cryptarithms", help="the sheet's heading")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="paper size (default a4)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S",
                        help="bound each puzzle's search to S seconds (default 10)")
    parser.add_argument("-o", "--output", default="-", metavar="FILE", help="where to write the page (default: stdout)")
    return parser


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)

    def fail(message: str) -> int:
        print(f"smtcrypt worksheet: error: {message}", file=sys.stderr)
        return 2

    if args.generate and args.words is None:
        return fail("--generate needs --words FILE")
    if (args.words is not None or args.difficulty is not None) and not args.generate:
        return fail("--words and --difficulty go with --generate")
    if args.count < 1:
        return fail("--count must be at least 1")
    formulas = list(args.formulas)
    try:
        if args.from_file is not None:
            formulas += read_formulas(args.from_file)
        if args.generate:
            formulas += generated_formulas(args.words, count=args.count, shape=args.shape, seed=args.seed,
                                           difficulties=args.difficulty, timeout=args.timeout)
    except OSError as error:
        return fail(f"cannot read {error.filename}: {error.strerror}")
    if not formulas:
        return fail("no puzzles: give formulas, --from FILE or --generate --words FILE")
    try:
        entries = entries_of(formulas, timeout=args.timeout, rate=None if args.difficulty is None else rating)
    except FormulaError as error:
        return fail(str(error))
    page = render(entries, title=args.title, paper=args.paper)
    if args.output == "-":
        sys.stdout.write(page)
    else:
        Path(args.output).write_text(page, encoding="utf-8")
    counts: dict[str, Any] = {}
    for entry in entries:
        counts[entry.verdict.status.value] = counts.get(entry.verdict.status.value, 0) + 1
    summary = ", ".join(f"{number} {status}" for status, number in counts.items())
    print(f"smtcrypt worksheet: {len(entries)} puzzles ({summary})"
          + ("" if args.output == "-" else f" written to {args.output}"), file=sys.stderr)
    return 0
