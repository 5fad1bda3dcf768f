"""`smtcrypt --syntax cryptator [options] FORMULA`: a formula in Cryptator's notation, read as written.

FORMULA is read as Cryptator reads it and solved under its rules (see smtcrypt.notations.cryptator);
its options keep Cryptator's spellings: `-b B` (the base), `-z [true|false]` (leading zeros
allowed), `-min N` and `-max N` (relax how often each digit may be used), and `--assign s=D` (a
symbol fixed to a digit, repeatable). First the formula as written and as smtcrypt reads it, then
each solution in our notation with the formula as written alongside, filled in, and the symbols'
digits; then the count.

Exit codes as every subcommand's (smtcrypt.cli.options.Exit): 0 a solution, 1 none, 2 bad input
(a caret under the fault), 3 unknown (the time limit: never reported as none), 130 stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.cli.interrupt import stopped_by_ctrl_c
from smtcrypt.cli.options import (
    Exit,
    JsonErrorParser,
    add_output_options,
    end_of_output,
    integer_in,
    print_json_error,
)
from smtcrypt.core.numerals import digit_char
from smtcrypt.errors import FormulaError
from smtcrypt.notations.cryptator import CryptatorPuzzle
from smtcrypt.present.data import to_dict
from smtcrypt.present.text import summary_line

USAGE = ("smtcrypt --syntax cryptator [-b B] [-z [true|false]] [-min N] [-max N] [--assign s=D] [--json] "
         "[--timeout S] [--stats] [--first] [--count] FORMULA")


def explicit_boolean(text: str) -> bool:
    """args4j's explicit boolean, as Cryptator's `-z` takes it: true/false, on/off, yes/no, 1/0."""
    value = text.lower()
    if value in ("true", "on", "yes", "1"):
        return True
    if value in ("false", "off", "no", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, not {text!r}")


def build_parser() -> JsonErrorParser:
    parser = JsonErrorParser(prog="smtcrypt --syntax cryptator", usage=USAGE,
                             description="Read a cryptarithm in Cryptator's notation (send+more=money, "
                                         "a*a=b && b=a+a, r='36') and solve it under Cryptator's rules.")
    parser.add_argument("formula", metavar="FORMULA", help="the cryptarithm, as Cryptator reads it")
    parser.add_argument("-b", "--base", type=integer_in(2), default=10, metavar="B",
                        help="base (radix) of the numbers (Cryptator's -b; default 10)")
    parser.add_argument("-z", "--allow-leading-zeros", type=explicit_boolean, default=False,
                        metavar="true|false", help="the first symbol of a word may be 0 (Cryptator's -z)")
    parser.add_argument("-min", "--relax-min", type=integer_in(0), default=0, metavar="N",
                        help="each digit may be used N times fewer than floor(symbols/base) (Cryptator's -min)")
    parser.add_argument("-max", "--relax-max", type=integer_in(0), default=0, metavar="N",
                        help="each digit may be used N times more than ceil(symbols/base) (Cryptator's -max)")
    parser.add_argument("--assign", action="append", metavar="s=D",
                        help="fix symbol s of the formula to digit D (repeatable)")
    add_output_options(parser)
    return parser


def without_syntax(argv: Sequence[str]) -> list[str]:
    """The command line without its `--syntax cryptator` (or `--syntax=cryptator`)."""
    argv = list(argv)
    if "--syntax=cryptator" in argv:
        argv.remove("--syntax=cryptator")
        return argv
    index = argv.index("--syntax")
    return argv[:index] + argv[index + 2:]


def explicit_values(argv: list[str]) -> list[str]:
    """`-z` followed by no true/false is `-z true`, as args4j reads it: the formula after it stays the formula."""
    words = ("true", "on", "yes", "1", "false", "off", "no", "0")
    found = []
    for index, arg in enumerate(argv):
        found.append(arg)
        if arg in ("-z", "--allow-leading-zeros") and (index + 1 == len(argv) or argv[index + 1].lower() not in words):
            found.append("true")
    return found


def main(argv: Sequence[str]) -> int:
    argv = explicit_values(without_syntax(argv))
    parser = build_parser()
    parser.json_errors = "--json" in argv
    args = parser.parse_args(argv)
    try:
        puzzle = Puzzle.from_cryptator(args.formula, base=args.base, allow_leading_zeros=args.allow_leading_zeros,
                                       assign=args.assign, relax_min=args.relax_min, relax_max=args.relax_max)
    except FormulaError as error:
        print(f"smtcrypt: error: {error}", file=sys.stderr)
        if args.json:
            print_json_error(error.message, error)
        return Exit.USAGE
    return solve(puzzle, puzzle.cryptator, args)


def solve(puzzle: Puzzle, read: CryptatorPuzzle, args: argparse.Namespace) -> int:
    search = puzzle.search(limit=1 if args.first else None, timeout=args.timeout)
    streaming = not (args.json or args.count)
    if streaming:
        print(f"{read.text.strip()}  reads as  {read.formula}")
    shown: list[dict[str, Any]] = []
    with stopped_by_ctrl_c(search):
        for solution in search:
            line = solution_line(read, solution.mapping)
            if streaming:
                print(line, flush=True)
            shown.append({"mapping": read.user_mapping(solution.mapping), "text": read.ours_filled(solution.mapping),
                          "cryptator": read.substitute(solution.mapping)})
    verdict = search.verdict()
    if args.json:
        data = to_dict(verdict, stats=args.stats)
        data.update(formula=read.formula, cryptator=read.text, syntax="cryptator", conditions=read.conditions,
                    letters=read.letters, solutions=shown)
        print(json.dumps(data, ensure_ascii=False))
    elif args.count:
        print(verdict.count)
    else:
        print(summary_line(verdict))
    return end_of_output(verdict, args)


def solution_line(read: CryptatorPuzzle, mapping: dict[str, int]) -> str:
    """`9567 + 1085 == 10652  (9567+1085=10652)  /  s=9 e=5 ...`: ours, the formula as written, the symbols."""
    symbols = " ".join(f"{symbol}={digit_char(digit)}" for symbol, digit in read.user_mapping(mapping).items())
    return f"{read.ours_filled(mapping)}  ({read.substitute(mapping).strip()})  /  {symbols}"
