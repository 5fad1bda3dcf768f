"""`smtcrypt [options] FORMULA...`: solve, count, decide uniqueness, or answer one question.

Exit codes: 0 a solution (with --unique: exactly one, proved); 1 no solution (with
--unique: none or several); 2 bad input or usage; 3 unknown (time limit, solver gave up).

This module is the options only: the puzzle's modules (the parser, the search) load once the
command line is read (cli/solving.py), so that `--help`, `--version` and usage errors stay fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from smtcrypt._version import __version__
from smtcrypt.cli.options import (
    DEFAULT_MEMORY_MB,
    MIN_MEMORY_MB,
    STRATEGIES,
    JsonErrorParser,
    integer_in,
    positive,
    positive_number,
    rule_options,
    rules_from,
)

SUBCOMMANDS = """\
       smtcrypt generate [options] [WORD ...]     puzzles with exactly one solution from words
       smtcrypt batch [options] FILE              one puzzle a line, one JSON answer a line
       smtcrypt explain [options] FORMULA...      the solution step by step, as a person finds it
       smtcrypt worksheet [options] FORMULA...    a printable worksheet with an answer key
       smtcrypt play [options] FORMULA...         solve it by hand, each move checked and explained
       smtcrypt serve [options]                   the web page
       (each: smtcrypt COMMAND --help)"""

EXAMPLES = """\
examples:
  smtcrypt "SEND + MORE = MONEY"                 every solution, then a summary line
  smtcrypt generate --words examples/words/planets.txt   puzzles with exactly one solution
  smtcrypt serve                                 the web page at http://127.0.0.1:8000/ (pip install ".[web]")
  smtcrypt worksheet "SEND + MORE = MONEY" -o sheet.html  a printable worksheet with an answer key
  smtcrypt batch --first puzzles.txt             one JSON line per puzzle of a file, in order
  smtcrypt play "SEND + MORE = MONEY"            solve it by hand: type S = 9, E < 5, undo, hint
  smtcrypt --unique "ODD * ODD = FREAKY"         prove there is exactly one solution, or show two
  smtcrypt --count "NUM + BER = PLAY"            how many solutions (96)
  smtcrypt --first "NORTH / SOUTH = EAST / WEST"  stop at the first solution
  smtcrypt "A**N + B**N = C**N" "N > 1"          several constraints, all must hold
  smtcrypt --json "TWO * TWO = SQUARE"           one JSON object for scripts
  smtcrypt "XAB * CD = EFGHJ" --assign X=7       fix a letter (it stays distinct from the others)
  smtcrypt "ABCDE * 4 = EDCBA" --digits 1-9 --no-distinct
  smtcrypt "EVE / DID = 0.(TALK)" "gcd(EVE, DID) = 1"   repeating decimals, gcd
  smtcrypt "p + d + q + h = 19, p + 10*d + 25*q + 50*h = 95, p >= 0, d >= 0, q >= 0, h >= 0"
  smtcrypt --base 16 "ADD + ADD = CAB"           words in another base
  smtcrypt --stats "SEND + MORE = MONEY"         also what the search cost, and how it was proved
  smtcrypt --count --strategy exhaustive "ABC % DE = F"   force one way of searching
  smtcrypt --show long "ODD * ODD = FREAKY"      each solution as long multiplication
  smtcrypt explain "SEND + MORE = MONEY"         step by step, every step proved; difficulty 1-5
  smtcrypt "TWO * TWO = SQUARE" --answer "S + Q"   the answer's values, each with its solutions
  smtcrypt --unique "ABCD - DCBA = EFGH" --answer "EFGH % 9"   prove the answer unique
  smtcrypt "AB * CD = EEF" --distinct ABCD       only A, B, C, D must differ
  smtcrypt "?? * ?? = 1?0?"                      each ? is a digit of its own
  smtcrypt --layout division.txt                 a long division (or multiplication) as printed
  smtcrypt --layout division.txt "A + B = 9"     with a condition on its letters
  smtcrypt --syntax enigma SubstitutedExpression "pkm - pmd = xp" --symbols=dkmpx   an enigma.py command line
  smtcrypt --syntax cryptator "nrgy = MC ^ 2" -b 4   a formula in Cryptator's notation, under its rules

formulas: UPPERCASE words are numbers made of digit letters (and literal digits: 7AB; each ? a digit of its own);
lowercase names are integer unknowns; 0.(TALK) is a repeating decimal; + - * / // % ** ( ),
comparisons (= == != < <= > >=, chained), and or not, in {...}, abs min max gcd sum(range(n)),
is_prime is_square is_cube is_power is_triangular is_palindrome divides dsum rev.
Distinct letters take distinct digits and no word of two or more letters starts with 0,
unless --no-distinct or --allow-leading-zeros.

exit status: 0 solution found (--unique: exactly one, proved), 1 no solution (--unique:
none or several), 2 bad input, 3 unknown (time limit or the solver gave up).
"""


def build_parser() -> JsonErrorParser:
    parser = JsonErrorParser(
        prog="smtcrypt", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
        parents=[rule_options()],
        description="Solve cryptarithms (alphametics) such as SEND + MORE = MONEY with the Z3 SMT solver: "
                    "every solution, or a proof that a puzzle has exactly one.")
    parser.add_argument("formula", nargs="*", metavar="FORMULA",
                        help="the puzzle; several arguments are constraints that must all hold")
    parser.add_argument("--layout", metavar="FILE",
                        help="a long multiplication or long division as printed, from FILE (- for stdin); "
                             "FORMULAs given with it are conditions on its letters")
    parser.add_argument("--answer", metavar="EXPR",
                        help="the values EXPR (e.g. \"EFGH %% 9\" or \"(A, BC)\") takes over the solutions, each "
                             "with how many give it; with --unique, only prove it unique or show two")
    mode = parser.add_argument_group(
        "what to report", "at most one of --first, --limit, --count and --unique; without them, every "
        "solution").add_mutually_exclusive_group()
    mode.add_argument("--first", action="store_true", help="stop at the first solution")
    mode.add_argument("--limit", type=positive, metavar="N", help="stop after N solutions")
    mode.add_argument("--count", action="store_true", help="print only the number of solutions")
    mode.add_argument("--unique", action="store_true",
                      help="decide uniqueness: stop after two; exit 0 only if exactly one is proved")
    parser.add_argument("--stats", action="store_true",
                        help="also report the search space, Z3's counters and the time per stage")
    parser.add_argument("--timeout", type=positive_number, metavar="S", help="bound the whole search to S seconds")
    parser.add_argument("--max-memory", type=integer_in(MIN_MEMORY_MB), metavar="MB", default=DEFAULT_MEMORY_MB,
                        help=f"cap the solver's memory (default {DEFAULT_MEMORY_MB}, at least {MIN_MEMORY_MB}); "
                             "reaching it ends the search as unknown")
    parser.add_argument("--strategy", choices=STRATEGIES, default="auto",
                        help="how to search: z3 (the solver, model by model), linear (a sum's equation, digit "
                             "by digit within its bounds), digits (equations of products, column by column from the "
                             "right), join (an equation searched side by side: "
                             "the sides' values matched, or a word read off the other side's value), cubes (the "
                             "solver, blocking proved cubes of solutions), exhaustive (every assignment, compiled), "
                             "or auto (default: by estimated cost, switching while running)")
    parser.add_argument("--show", choices=("line", "long"), default="line",
                        help="how to show each solution: line (default) or long (written out long-hand: a sum "
                             "with its carries, long multiplication, long division)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    parser.add_argument("--syntax", choices=("smtcrypt", "enigma", "cryptator"), default="smtcrypt",
                        help="the notation of the rest of the command line: smtcrypt (default), enigma (an "
                             "enigma.py SubstitutedExpression, SubstitutedDivision or SubstitutedSum command line, "
                             "or --run FILE, as written; of these options it takes --json, --timeout, --stats, --first "
                             "and --count, before or after it) or cryptator (a formula in Cryptator's notation, "
                             "with its -b, -z, -min, -max and --assign; see smtcrypt --syntax cryptator --help)")
    parser.add_argument("--version", action="version", version=f"smtcrypt {__version__}")
    parser.usage = (parser.format_usage().removeprefix("usage: ").rstrip() + "\n" + SUBCOMMANDS)
    return parser


def main(argv: Sequence[str]) -> int:
    parser = build_parser()
    parser.json_errors = "--json" in argv
    args = parser.parse_args(argv)
    if args.syntax == "enigma":  # the command line goes to the enigma reader before this parser sees it
        parser.error("--syntax enigma reads the rest of the command line as enigma.py does: of our options it "
                     "takes only --json, --timeout S, --stats, --first and --count (before or after it)")
    if not args.formula and args.layout is None:
        parser.error("give a FORMULA or --layout FILE")
    rules = rules_from(args, parser)
    if args.answer is not None and (args.first or args.limit or args.count):
        parser.error("--answer lists every value (or, with --unique, proves one); "
                     "it takes no --first, --limit or --count")
    from smtcrypt.cli.solving import solve  # the puzzle's modules, once the command line is valid

    return solve(args, rules)
