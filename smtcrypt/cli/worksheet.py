"""`smtcrypt worksheet`: a printable page of puzzles with an answer key."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.cli.options import (
    DEFAULT_TIMEOUT,
    Exit,
    positive_number,
    rule_options,
    rules_from,
    syntax_help,
    take_syntax,
)
from smtcrypt.cli.options import difficulty_range as difficulties
from smtcrypt.core.results import Status
from smtcrypt.core.rules import make_rules
from smtcrypt.errors import FormulaError
from smtcrypt.notations import shared_options
from smtcrypt.notations.cryptator import inline as inline_cryptator
from smtcrypt.setters.generate import SHAPES, generate
from smtcrypt.teach.worksheet import PAPERS, Entry, entries_of, render

POOL_PER_PUZZLE = 4  # generated puzzles drawn from: this many per puzzle wanted, so that a seed changes the sheet


# A sheet holds formulas under shared rules: Cryptator's rules can be written into a formula, but an
# enigma.py command line's rules (groups, domains, its own symbols) cannot, so it is not taken here.
WORKSHEET_SYNTAXES = ("smtcrypt", "cryptator")


def read_formulas(path: Path) -> list[str]:
    """One formula a line; blank lines and lines starting with # are skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def difficulty_range(text: str) -> tuple[int, int]:
    """`2-3` or `4`: the lowest and the highest difficulty (1 to 5) of the generated puzzles."""
    allowed = difficulties(text)
    return allowed[0], allowed[-1]


def rater(rules: dict[str, Any]) -> Callable[[str], int]:
    """A puzzle's difficulty 1-5 under the sheet's rules, from its explanation."""
    return lambda formula: Puzzle(formula, **rules).difficulty()


def generated_formulas(words_file: Path, *, count: int, shape: str, seed: int | None,
                       difficulties: tuple[int, int] | None, timeout: float, rules: dict[str, Any]) -> list[str]:
    """`count` puzzles with exactly one solution over the word list, drawn at random (`seed` repeats a draw)."""
    words = read_formulas(words_file)
    rng = random.Random(seed)
    rng.shuffle(words)  # the generator follows the list's order: shuffled, the first word is not in every puzzle
    rate = rater(rules)
    pool = []
    for generated in generate(words, shape, timeout=timeout, **rules):
        if difficulties is not None and not difficulties[0] <= rate(generated.formula) <= difficulties[1]:
            continue
        pool.append(generated.formula)
        if len(pool) >= POOL_PER_PUZZLE * count:
            break
    return pool if len(pool) <= count else [pool[index] for index in sorted(rng.sample(range(len(pool)), count))]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="smtcrypt worksheet", parents=[rule_options()],
        description="A printable worksheet (HTML; print it to paper or PDF from the browser): the puzzles laid out "
                    "long-hand with blank boxes, and an answer key on its own page.")
    parser.add_argument("formulas", nargs="*", metavar="FORMULA", help="puzzles to put on the sheet")
    parser.add_argument("--from", dest="from_file", type=Path, metavar="FILE",
                        help="also the puzzles of FILE, one a line (# starts a comment)")
    parser.add_argument("--generate", action="store_true",
                        help="also puzzles with exactly one solution, made from --words")
    parser.add_argument("--words", type=Path, metavar="FILE", help="the word list for --generate, one word a line")
    parser.add_argument("--count", type=int, default=6, metavar="N", help="how many puzzles to generate (default 6)")
    parser.add_argument("--shape", choices=SHAPES, default="A + B = C", help="the shape of generated puzzles")
    parser.add_argument("--seed", type=int, metavar="N", help="repeat the same random draw of generated puzzles")
    parser.add_argument("--difficulty", type=difficulty_range, metavar="A-B",
                        help="keep generated puzzles of difficulty A to B (1-5), where smtcrypt rates difficulty")
    parser.add_argument("--title", default="Cryptarithms", help="the sheet's heading")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4", help="paper size (default a4)")
    parser.add_argument("--allow-multiple", action="store_true",
                        help="put puzzles without exactly one solution on the sheet too (the key shows the first); "
                             "without it such a puzzle is refused by name")
    parser.add_argument("--timeout", type=positive_number, default=DEFAULT_TIMEOUT, metavar="S",
                        help=f"bound each puzzle's search to S seconds (default {DEFAULT_TIMEOUT:g})")
    syntax_help(parser, WORKSHEET_SYNTAXES)
    parser.add_argument("-o", "--output", default="-", metavar="FILE", help="where to write the page (default: stdout)")
    return parser


def fail(message: str) -> Exit:
    print(f"smtcrypt worksheet: error: {message}", file=sys.stderr)
    return Exit.USAGE


def usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options together, or None."""
    if args.generate and args.words is None:
        return "--generate needs --words FILE"
    if (args.words is not None or args.difficulty is not None) and not args.generate:
        return "--words and --difficulty go with --generate"
    if args.count < 1:
        return "--count must be at least 1"
    return None


def not_one(entry: Entry, written: str, timeout: float) -> tuple[Exit, str] | None:
    """Why `entry` (`written` so by the user) does not belong on a sheet whose every puzzle has exactly
    one solution, with the exit code (2: the puzzle is not one; 3: it was not decided in time), or None
    where it does: a key that gives one answer of several would mark a right answer wrong."""
    status = entry.verdict.status
    if status is Status.UNIQUE:
        return None
    if status is Status.UNKNOWN:
        return Exit.UNKNOWN, (f"{written!r} was not decided within {timeout:g} s ({entry.verdict.reason}): "
                              f"give it more --timeout, or --allow-multiple to put it on the sheet undecided")
    has = "no solution" if status is Status.NONE else "more than one solution"
    return Exit.USAGE, (f"{written!r} has {has}, not exactly one: give --allow-multiple to put it on the "
                        f"sheet anyway")


def summary(entries: Sequence[Entry], output: str) -> str:
    """How many puzzles, by status, and where the page went."""
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.verdict.status.value] = counts.get(entry.verdict.status.value, 0) + 1
    by_status = ", ".join(f"{number} {status}" for status, number in counts.items())
    return (f"smtcrypt worksheet: {len(entries)} puzzles ({by_status})"
            + ("" if output == "-" else f" written to {output}"))


def main(argv: Sequence[str]) -> int:
    syntax, argv = take_syntax(list(argv), WORKSHEET_SYNTAXES, build_parser)
    parser = build_parser()
    args = parser.parse_args(argv)
    rules = rules_from(args, parser)
    problem = usage_problem(args)
    if problem is not None:
        return fail(problem)
    formulas = list(args.formulas)
    try:
        if args.from_file is not None:
            formulas += read_formulas(args.from_file)
        if args.generate:
            formulas += generated_formulas(args.words, count=args.count, shape=args.shape, seed=args.seed,
                                           difficulties=args.difficulty, timeout=args.timeout, rules=rules)
    except OSError as error:
        return fail(f"cannot read {error.filename}: {error.strerror}")
    except FormulaError as error:  # rules the generator refuses
        return fail(str(error))
    written = list(formulas)  # as the user wrote them, to name one refused
    if syntax == "cryptator":  # each formula with Cryptator's rules written in, under the shared ones
        try:
            formulas = [inline_cryptator(formula, **shared_options(syntax, rules)) for formula in formulas]
        except FormulaError as error:
            return fail(str(error))
        rules = {"base": rules["base"], "allow_leading_zeros": rules["allow_leading_zeros"]}
    if not formulas:
        return fail("no puzzles: give formulas, --from FILE or --generate --words FILE")
    try:
        sheet = entries_of(formulas, timeout=args.timeout, rate=None if args.difficulty is None else rater(rules),
                           rules=make_rules(**rules))
    except FormulaError as error:
        return fail(str(error))
    refusals = [] if args.allow_multiple else \
        [why for why in (not_one(entry, text, args.timeout) for entry, text in zip(sheet, written)) if why]
    if refusals:
        for _, message in refusals:
            print(f"smtcrypt worksheet: error: {message}", file=sys.stderr)
        return Exit.USAGE if any(code is Exit.USAGE for code, _ in refusals) else Exit.UNKNOWN
    page = render(sheet, title=args.title, paper=args.paper)
    if args.output == "-":
        sys.stdout.write(page)
    else:
        Path(args.output).write_text(page, encoding="utf-8")
    print(summary(sheet, args.output), file=sys.stderr)
    return Exit.FOUND
