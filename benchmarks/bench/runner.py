"""Benchmark smtcrypt against the seed notebook's brute force, an exact brute force and CP-SAT.

Puzzles come from benchmarks/corpus.tsv; `--only products` takes benchmarks/products.tsv instead,
`--only layouts` counts the skeleton layouts of benchmarks/layouts/ (see bench/layouts.py), and
`--only enigma` runs the published enigma.py command lines of tests/data/enigma_commands.tsv (see
bench/enigma.py), and `--only words` times puzzles with the number-theory words beside the same
puzzles written without them (see bench/words.py), and `--only play` times scripted play-throughs
move by move beside a brute-force reference (see bench/play.py), and `--only generate` generates
Cryptagen's Greek row and times it beside the published counts and times (see bench/generating.py),
and `--only sample` finds ten random puzzles in 100,000 words beside a naive sampler (see bench/sampling.py).

    python benchmarks/run.py [--only TAG[+TAG],...] [--methods smtcrypt,notebook,bruteforce,cpsat]
        [--strategy NAME] [--timeout S] [--bruteforce-timeout S] [--first] [--out benchmarks/results]

For every puzzle of benchmarks/corpus.tsv (or only those tagged TAG) each method counts ALL
solutions (puzzles tagged `first` have so many solutions that only the first is timed), in one
process, after a warm-up. It prints a table, totals and medians of time ratios, the speed target
smtcrypt <= max(0.25 s, 2 x notebook), checks that every method that finished found the same
number of solutions, and the number corpus.tsv records (exit status 1 and DISAGREE if not; the
notebook's float arithmetic may differ on `/`, fractional powers and repeating decimals and is
then only remarked), and writes the results as JSON and a log-scale plot under --out.

`--first` times only the first solution (default set: the notebook puzzles), for comparison
with the 51.7 s that Peter Norvig's notebook reports for its brute-force first solutions.

The products class (`--only products`, benchmarks/products.tsv) runs smtcrypt, cpsat and
bruteforce by default and ends with its targets: smtcrypt's median time per puzzle <= 30 ms, its
slowest <= 1 s, the median smtcrypt/CP-SAT ratio <= 0.1. The layouts class (`--only layouts`)
prints, per layout, the solutions, smtcrypt's seconds and solutions a second (target >= 20,000),
the reference's seconds and their ratio; smtcrypt's timeout is 120 s there unless --timeout says.

The methods:
  smtcrypt    smtcrypt.count(formula, timeout=...), or the first of smtcrypt.solve(...); with
              --strategy NAME, strategy=NAME is passed (the table then says smtcrypt[NAME])
  notebook    the seed notebook's faster_solve: the formula compiled once into a Python lambda
              over the letters, called on every permutation of (1,...,9,0); Python's float `/`
  bruteforce  every permutation of digits for the letters, tested by the parsed formula compiled
              once into Python closures (exact ints, Fractions only where `/` or a non-integer
              or negative power needs them); no eval
  cpsat       OR-tools CP-SAT (one worker, all solutions enumerated) on an exact model of the
              puzzle when it has one (sums, products, integer powers and roots, abs/min/max,
              `X / Y = Z / W` equalities, comparisons); '-' when it cannot be modelled exactly
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from smtcrypt.core.parse import parse
from smtcrypt.core.tree import letters

from . import HERE, enigma, generating, layouts, play, products, sampling, words
from .bruteforce import run_bruteforce
from .corpus import DEFAULT_CORPUS, load_corpus, select
from .cpsat import have_ortools, run_cpsat
from .notebook import run_notebook
from .report import Table, machine_info, print_summary, save, summarise
from .results import Puzzle
from .smtcrypt_method import label, run_smtcrypt, strategy_support

METHODS = ("smtcrypt", "notebook", "bruteforce", "cpsat")
REFERENCES = ("notebook", "bruteforce")  # the methods that try every permutation, with their own budget
WARM_UP = "SEND + MORE = MONEY"
DEFAULT_OUT = HERE / "results"
RUNNERS = {"smtcrypt": run_smtcrypt, "notebook": run_notebook, "bruteforce": run_bruteforce, "cpsat": run_cpsat}


def check_agreement(puzzle: Puzzle) -> str | None:
    """None if the methods agree (with each other and with corpus.tsv); else what differs.

    A result computed with floats (the notebook on `/`, fractional powers, repeating decimals)
    is left out: if its count differs, `puzzle.remark` says so instead.
    """
    finished = {m: r.count for m, r in puzzle.results.items() if r.finished and r.exact}
    if puzzle.expected is not None:
        finished["corpus.tsv"] = puzzle.expected if puzzle.mode == "all" else min(puzzle.expected, 1)
    if len(set(finished.values())) > 1:
        return "counts differ: " + ", ".join(f"{m}={c}" for m, c in finished.items())
    if finished:
        (complete,) = set(finished.values())
        for method, result in puzzle.results.items():
            if not result.exact:
                if result.finished and result.count != complete:
                    puzzle.remark = f"{method} {result.count}: {result.note}"
                continue
            if result.status in ("timeout", "unknown") and result.count is not None and result.count > complete:
                return f"{method} found {result.count} before its time limit, more than the {complete} of " \
                       + ", ".join(m for m in finished)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--only", metavar="TAG", help="only puzzles with this tag (TAG1,TAG2: any of them; "
                                                       "TAG1+TAG2: both, e.g. sum+10letters)")
    parser.add_argument("--formula", action="append", metavar="F",
                        help="benchmark this formula instead of the corpus (repeatable)")
    parser.add_argument("--methods", help="comma-separated, of: " + ", ".join(METHODS) + " (default: all four; "
                        "for --only products: " + ",".join(products.METHODS) + ")")
    parser.add_argument("--strategy", metavar="NAME",
                        help="pass strategy=NAME to smtcrypt.count/solve (auto, z3, exhaustive, ...): time a "
                             "forced strategy; the table shows smtcrypt[NAME]")
    parser.add_argument("--timeout", type=float, help="seconds per puzzle for smtcrypt and cpsat (default 60; "
                        f"for --only layouts: {layouts.DEFAULT_TIMEOUT:g}, for smtcrypt on each layout)")
    parser.add_argument("--bruteforce-timeout", type=float, default=30.0,
                        help="seconds per puzzle for notebook and bruteforce (and the layouts' reference)")
    parser.add_argument("--first", action="store_true",
                        help="time the first solution only (default set: --only notebook)")
    parser.add_argument("--corpus", type=Path, help="the corpus file (default benchmarks/corpus.tsv; for --only "
                        "products: benchmarks/products.tsv)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where the JSON and the plot go")
    parser.add_argument("--no-save", action="store_true", help="print only; write no files")
    parser.add_argument("--jobs", type=int, default=2, help="for --only generate: processes (default 2)")
    parser.add_argument("--confirm", action="store_true",
                        help="for --only generate: Z3 proves each puzzle a second time (as generate --confirm)")
    parser.add_argument("--no-confirm", dest="confirm", action="store_false",
                        help="for --only generate: no second proof by Z3 (the default)")
    parser.add_argument("--lists", default="greek,colours", choices=["greek,colours", "greek", "colours"],
                        help="for --only generate: Cryptagen's word lists to run (default both)")
    args = parser.parse_args(argv)
    product_class = products.selected(args.only)

    if args.only == words.TAG:  # a class of its own: each puzzle with and without the number-theory words
        return words.main(args.timeout, None if args.no_save else args.out, machine_info())
    if args.only == generating.TAG:  # a class of its own: Cryptagen's Greek row, generated and timed
        return generating.main(args.jobs, args.confirm, None if args.no_save else args.out,
                               tuple(args.lists.split(",")))
    if args.only == sampling.TAG:  # a class of its own: random puzzles from 100,000 words beside a naive sampler
        return sampling.main()
    if args.only == play.TAG:  # a class of its own: scripted play-throughs, each move beside a reference
        return play.main()
    if args.only == "enigma":  # a class of its own: published enigma.py command lines, as a user runs them
        return enigma.main()
    if args.only == layouts.TAG:  # a class of its own: layouts, not formulas
        if args.strategy is not None and not strategy_support()[0]:
            parser.error("--strategy: the installed smtcrypt does not accept strategy=")
        return layouts.main(args.timeout, args.bruteforce_timeout, args.strategy,
                            None if args.no_save else args.out, machine_info())
    if args.timeout is None:
        args.timeout = 60.0
    if args.methods is None:
        args.methods = ",".join(products.METHODS if product_class else METHODS)
    if args.corpus is None:
        args.corpus = products.PRODUCTS_CORPUS if product_class else DEFAULT_CORPUS

    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        parser.error(f"unknown method(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(METHODS)}")
    if "cpsat" in methods and not have_ortools():
        print("note: ortools is not installed: the cpsat method is skipped", file=sys.stderr)
        methods.remove("cpsat")
    if args.strategy is not None:
        takes, known = strategy_support()
        if not takes:
            print("error: --strategy: the installed smtcrypt does not accept strategy= in smtcrypt.count and "
                  "smtcrypt.solve (it is too old for this option); run without --strategy", file=sys.stderr)
            return 2
        if known is not None and args.strategy not in known:
            parser.error(f"--strategy: unknown strategy {args.strategy!r} (known: {', '.join(known)})")
    labels = {"smtcrypt": label(args.strategy)}

    if args.formula:
        puzzles = [Puzzle(f, ["cli"]) for f in args.formula]
    else:
        puzzles = select(load_corpus(args.corpus), args.only or ("notebook" if args.first else None))
    if not puzzles:
        parser.error("no puzzle selected")
    for puzzle in puzzles:
        if args.first or "first" in puzzle.tags:
            puzzle.mode = "first"
        try:
            puzzle.letters = len(letters(parse(puzzle.formula)))
        except Exception:
            puzzle.letters = None

    table = Table(methods, labels)
    info = machine_info()
    print(f"smtcrypt benchmark: {len(puzzles)} puzzles, methods {', '.join(table.full[m] for m in methods)}, "
          f"{'first solution' if args.first else 'all solutions'}; timeouts {args.timeout:g} s "
          f"(notebook, bruteforce {args.bruteforce_timeout:g} s)")
    print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items() if v is not None))
    started = time.perf_counter()
    # warm-up: imports (a sum's backends, and a product's, which load lazily), the parser, Z3
    for formula in (WARM_UP, products.WARM_UP):
        run_smtcrypt(formula, "all", args.timeout, args.strategy)
    if "cpsat" in methods:
        run_cpsat(WARM_UP, "all", args.timeout)
    for method in REFERENCES:
        if method in methods:
            RUNNERS[method]("TO + GO = OUT", "all", args.bruteforce_timeout)
    print(f"warm-up {time.perf_counter() - started:.2f} s;  L = letters, * = first solution only, "
          "T/O(n) = time limit after n solutions, - = not modelled")
    print(table.header())

    for index, puzzle in enumerate(puzzles, 1):
        for method in methods:
            if method == "smtcrypt":
                result = run_smtcrypt(puzzle.formula, puzzle.mode, args.timeout, args.strategy)
            else:
                budget = args.bruteforce_timeout if method in REFERENCES else args.timeout
                result = RUNNERS[method](puzzle.formula, puzzle.mode, budget)
            puzzle.results[method] = result
        puzzle.disagreement = check_agreement(puzzle)
        table.print_row(index, puzzle)

    summary = summarise(puzzles, methods, args.first)
    print_summary(summary, table, puzzles, args.first)
    if product_class and "smtcrypt" in methods and not args.first:
        summary["products"] = products.summarise_products(puzzles)
        products.print_products(summary["products"], table.full["smtcrypt"])
    disagreements = [p for p in puzzles if p.disagreement]
    errors = [(p, m, r) for p in puzzles for m, r in p.results.items() if r.status == "error"]
    if disagreements:
        print("\n" + "!" * 78)
        print(f"DISAGREE: {len(disagreements)} puzzle(s) where the methods that finished differ:")
        for p in disagreements:
            print(f"  {p.formula!r}: {p.disagreement}")
        print("!" * 78)
    else:
        print("\nagreement: every method that finished found the same number of solutions on every puzzle"
              + (" (float semantics aside, see the remarks)" if any(p.remark for p in puzzles) else ""))
    if errors:
        print(f"ERRORS: {len(errors)}")
        for p, m, r in errors:
            print(f"  {table.full[m]} on {p.formula!r}: {r.note}")

    if not args.no_save:
        record = {
            "timestamp": time.strftime("%Y%m%d-%H%M%S"), "mode": "first" if args.first else "all",
            "methods": methods, "labels": table.full, "strategy": args.strategy,
            "timeout": args.timeout, "bruteforce_timeout": args.bruteforce_timeout,
            "only": args.only, "machine": info, "wall_seconds": time.perf_counter() - started,
            "summary": summary,
            "disagreements": [{"formula": p.formula, "what": p.disagreement} for p in disagreements],
        }
        save(args.out, record, puzzles, table, info)
    return 1 if disagreements or errors else 0
