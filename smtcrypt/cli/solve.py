"""`smtcrypt [options] FORMULA...`: solve, count, decide uniqueness, or answer one question, in any
notation: the formula language, a printed layout (`--layout FILE`), an enigma.py command line or
run file (`--syntax enigma`), or Cryptator's notation (`--syntax cryptator`).

Exit codes: 0 a solution (with --unique: exactly one, proved); 1 no solution (with
--unique: none or several); 2 bad input or usage; 3 unknown (time limit, solver gave up).

This module is the options only: the puzzle's modules (the parser, the search) load once the
command line is read (cli/solving.py), so that `--help`, `--version` and usage errors stay fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import NoReturn

from smtcrypt._version import VERSION_LINE
from smtcrypt.cli.options import (
    FLAGS,
    VALUED,
    JsonErrorParser,
    add_notation_options,
    add_own_options,
    add_search_options,
    rule_options,
    rules_from,
    syntax_help,
    take_syntax,
)
from smtcrypt.notations.cryptator.options import CryptatorOptions
from smtcrypt.notations.layout.options import LayoutOptions
from smtcrypt.notations.options import FALSE, TRUE, boolean_text, specs

SUBCOMMANDS = """\
       smtcrypt generate [options] [WORD ...]     puzzles with exactly one solution from words
       smtcrypt batch [options] FILE              one puzzle a line, one JSON answer a line
       smtcrypt explain [options] FORMULA...      the solution step by step, as a person finds it
       smtcrypt worksheet [options] FORMULA...    a printable worksheet with an answer key
       smtcrypt play [options] FORMULA...         solve it by hand, each move checked and explained
       smtcrypt serve [options]                   the web page
       smtcrypt page --out DIR [options]          the web page as a static folder, solving in the browser
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
  smtcrypt --json-lines "NUM + BER = PLAY"       a JSON object a solution as found, then the verdict
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
  smtcrypt "SEND + MOST = MONEY" --maximize MONEY   the largest MONEY, proved
  smtcrypt "AB * CD = EEF" --distinct ABCD       only A, B, C, D must differ
  smtcrypt "?? * ?? = 1?0?"                      each ? is a digit of its own
  smtcrypt --layout division.txt                 a long division (or multiplication) as printed
  smtcrypt --layout division.txt "A + B = 9"     with a condition on its letters
  smtcrypt --syntax enigma SubstitutedExpression "TOM * 13 = DALEY"   an enigma.py command line
  smtcrypt --syntax enigma --run examples/enigma/enigma380.run   an enigma.py run file
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
    add_notation_options(parser.add_argument_group("layout options (with --layout)"), LayoutOptions)
    parser.add_argument("--answer", metavar="EXPR",
                        help="the values EXPR (e.g. \"EFGH %% 9\" or \"(A, BC)\") takes over the solutions, each "
                             "with how many give it; with --unique, only prove it unique or show two")
    best = parser.add_mutually_exclusive_group()
    best.add_argument("--maximize", metavar="EXPR",
                      help="the largest value EXPR (e.g. MONEY) takes over the solutions, and a solution attaining "
                           "it, proved; with --unique, also whether one solution only attains it")
    best.add_argument("--minimize", metavar="EXPR", help="the smallest value, as --maximize")
    add_search_options(parser)
    syntax_help(parser)
    parser.add_argument("--version", action="version", version=VERSION_LINE)
    parser.usage = (parser.format_usage().removeprefix("usage: ").rstrip() + "\n" + SUBCOMMANDS)
    return parser


def cryptator_parser() -> JsonErrorParser:
    """`--syntax cryptator`: Cryptator's own options, spelled as Cryptator spells them, and ours."""
    parser = JsonErrorParser(prog="smtcrypt --syntax cryptator",
                             description="Read a cryptarithm in Cryptator's notation (send+more=money, "
                                         "a*a=b && b=a+a, r='36') and solve it under Cryptator's rules.")
    parser.add_argument("formula", metavar="FORMULA", help="the cryptarithm, as Cryptator reads it")
    add_notation_options(parser.add_argument_group("Cryptator's options"), CryptatorOptions)
    add_search_options(parser)
    return parser


def explicit_values(argv: list[str]) -> list[str]:
    """A boolean of Cryptator's (`-z`) followed by no true/false is `-z true`, as args4j reads it: the
    formula after it stays the formula."""
    booleans = {flag for spec in specs(CryptatorOptions) if spec.text is boolean_text for flag in spec.flags}
    found = []
    for index, arg in enumerate(argv):
        found.append(arg)
        if arg in booleans and (index + 1 == len(argv) or argv[index + 1].lower() not in TRUE + FALSE):
            found.append("true")
    return found


ENIGMA_USAGE = ("smtcrypt --syntax enigma [our options] SOLVER ARGS...\n"
                "       smtcrypt --syntax enigma [our options] --run FILE\n"
                "       (SOLVER: SubstitutedExpression, SubstitutedDivision or SubstitutedSum; our options "
                "may also stand among the solver's arguments, where enigma.py's own --first comes first)")


class EnigmaParser(JsonErrorParser):
    """`--syntax enigma`: our options only; the puzzle's rules are the enigma.py command line's own, so
    a rule option of ours (`--base 10` before the solver's name) is refused, saying where it goes."""

    def error(self, message: str) -> NoReturn:
        if "unrecognized arguments" in message:
            message += ("; with --syntax enigma the puzzle's rules are the enigma.py command line's own: give "
                        "enigma.py's options (--base=B, --digits=..., --assign=...) after the solver's name")
        super().error(message)


def enigma_parser() -> JsonErrorParser:
    parser = EnigmaParser(prog="smtcrypt --syntax enigma", usage=ENIGMA_USAGE,
                          description="Read an enigma.py command line (python3 enigma.py SOLVER ARGS...) or run "
                                      "file as written, and solve it.")
    add_search_options(parser)
    return parser


def split_enigma(argv: list[str]) -> tuple[list[str], list[str]]:
    """Our options and the enigma.py command line. Ours may stand anywhere; after the solver's name,
    a name enigma.py has too (`--first`) is enigma.py's (it means the same). After `--run FILE`
    every option is ours."""
    ours: list[str] = []
    theirs: list[str] = []
    solver: str | None = None
    position = 0
    while position < len(argv):
        argument = argv[position]
        position += 1
        name = argument.partition("=")[0]
        if solver is None and argument in ("-h", "--help"):
            ours.append(argument)
        elif solver is None and (argument == "--run" or not argument.startswith("-")):
            solver = argument
            theirs.append(argument)
            if argument == "--run":  # its FILE
                theirs += argv[position:position + 1]
                position += 1
        elif name in VALUED:
            ours.append(argument)
            if "=" not in argument:  # its value
                ours += argv[position:position + 1]
                position += 1
        elif argument in FLAGS and not (argument == "--first" and solver not in (None, "--run")):
            ours.append(argument)
        elif solver is None:  # one of our rule options, or enigma.py's before its solver's name
            ours.append(argument)  # refused by our parser, which has no rule options
        else:
            theirs.append(argument)
    return ours, theirs


def main(argv: Sequence[str]) -> int:
    syntax, argv = take_syntax(list(argv), usage=build_parser)
    json_errors = "--json" in argv or "--json-lines" in argv
    if syntax == "enigma":
        ours, theirs = split_enigma(argv)
        parser = enigma_parser()
        parser.json_errors = json_errors
        args = parser.parse_args(ours)
        args.formula, args.layout, args.answer, args.maximize, args.minimize = theirs, None, None, None, None
        if not theirs:
            parser.error("give an enigma.py SOLVER and its arguments, or --run FILE")
    elif syntax == "cryptator":
        parser = cryptator_parser()
        parser.json_errors = json_errors
        args = parser.parse_args(explicit_values(argv))
        args.layout, args.answer, args.maximize, args.minimize = None, None, None, None
    else:
        parser = build_parser()
        add_own_options(parser, syntax)  # a notation of the table's own options (none of the formula language's)
        parser.json_errors = json_errors
        args = parser.parse_args(argv)
        if not args.formula and args.layout is None:
            parser.error("give a FORMULA or --layout FILE")
        args.rules = rules_from(args, parser)
        if args.answer is not None and (args.first or args.limit or args.count):
            parser.error("--answer lists every value (or, with --unique, proves one); "
                         "it takes no --first, --limit or --count")
        if args.answer is not None and args.json_lines:
            parser.error("--answer prints its values as lines or in one --json object; it takes no --json-lines")
        objective = "--maximize" if args.maximize is not None else "--minimize" if args.minimize is not None else None
        if objective and (args.answer is not None or args.first or args.limit or args.count or args.json_lines):
            parser.error(f"{objective} finds the best value (with --unique, whether one solution attains it); "
                         "it takes no --answer, --first, --limit, --count or --json-lines")
    args.syntax = syntax
    from smtcrypt.cli.solving import solve  # the puzzle's modules, once the command line is valid

    return solve(args)
