"""The collection class (`run.py --only collection`): Cryptator's published collection of cryptarithms
(arnaud-m/cryptator, `src/main/cryptarithms/**/*.db.txt`, one puzzle a line), each counted as a user
would, from its text to its count.

The puzzles are a sample of the collection kept in benchmarks/collection/ (see its README.md), or,
with `--collection DIR`, a checkout of Cryptator's `src/main/cryptarithms` (all 39,613). Their kind
comes from their folder: `multiplications/`, `long-multiplications/`, `crosswords/`, and sums for
every other file.

For every puzzle, in this process and after a warm-up: `Puzzle.read(text, "cryptator").count()`, the
public door `smtcrypt batch --syntax cryptator` goes through, timed in CPU seconds from the text to
the count (reading, checking, planning, searching and the exact re-check of every solution). By
kind: how many, the median, the 99th percentile, the slowest and the total. Then the whole set as
a user runs it, `smtcrypt batch --syntax cryptator --count --jobs 2 FILE` in a fresh process (wall
seconds, start-up included), every count equal to this process's. Then a seeded draw of puzzles
of at most 8 symbols, each counted by a brute force that reads Cryptator's text itself (sums and
products of words and quoted constants, equations joined by `&&` or `;`) and tries every
assignment at once on numpy arrays: it shares nothing with smtcrypt.

The targets, printed with whether each holds: sums a median of at most 1 ms and a 99th percentile
of at most 10 ms, multiplications a median of at most 2 ms, and the whole collection (39,613
puzzles) in at most 60 s with `--jobs 2`: unless the puzzles run are the whole collection, projected
from two batch runs, of the first half of the puzzles and of all (their difference is the time a
puzzle takes; the rest is paid once a run: the start, the pool, the compiled kernel's load). The
medians are also given with the parser's memo of shapes emptied before each puzzle (`core/parse.py`). A count that differs (smtcrypt and the brute force, or the batch and
this process), or a puzzle smtcrypt could not count, makes the exit status 1 (DISAGREE, ERROR).

    python benchmarks/run.py --only collection
    python benchmarks/run.py --only collection --collection ~/cryptator/src/main/cryptarithms
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from smtcrypt.engine.base import Executor, compiled_available

from . import HERE, ROOT

TAG = "collection"
SAMPLE = HERE / "collection"  # the kept sample, files as in Cryptator's src/main/cryptarithms
WHOLE = 39_613  # puzzles in Cryptator's collection
KINDS = {"multiplications": "multiplications", "long-multiplications": "long multiplications",
         "crosswords": "crosswords"}  # by folder; every other file holds sums
ORDER = ("sums", "multiplications", "long multiplications", "crosswords")
TARGETS = {  # (kind, statistic): seconds at most
    ("sums", "median"): 0.001,
    ("sums", "p99"): 0.010,
    ("multiplications", "median"): 0.002,
}
WHOLE_SECONDS = 60.0  # target: the whole collection with --jobs 2
DEFAULT_TIMEOUT = 60.0  # seconds for one puzzle
BRUTE_LETTERS = 8  # the brute force's draw: puzzles of at most this many symbols
BRUTE_PUZZLES = 30
BRUTE_SEED = 2024
JOBS = 2


@dataclass(frozen=True)
class Entry:
    """One puzzle of the collection: its kind, its file (relative to the collection) and line, its text."""

    kind: str
    file: str
    line: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Timed:
    """smtcrypt's count of one puzzle and the CPU seconds it took, or why it has none."""

    entry: Entry
    count: int | None
    seconds: float
    problem: str | None = None


@dataclass
class Report:
    """The run's findings: what differs, what failed, and the numbers by kind."""

    disagreements: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    kinds: dict[str, dict[str, float]] = field(default_factory=dict)
    targets: dict[str, bool] = field(default_factory=dict)


# -- the puzzles ------------------------------------------------------------------------------------

def selected(argv: Sequence[str]) -> bool:
    """Whether a command line asks for this class (`--only collection` or `--only=collection`)."""
    for index, arg in enumerate(argv):
        if arg == "--only" and index + 1 < len(argv):
            return argv[index + 1] == TAG
        if arg.startswith("--only="):
            return arg.partition("=")[2] == TAG
    return False


def kind_of(relative: Path) -> str:
    return KINDS.get(relative.parts[0], "sums") if len(relative.parts) > 1 else "sums"


def load(directory: Path) -> list[Entry]:
    """Every puzzle of the `.db.txt` files under `directory`, in file order; blank lines and `#` comments
    are skipped, as `smtcrypt batch` skips them."""
    entries = []
    for path in sorted(directory.rglob("*.db.txt")):
        relative = path.relative_to(directory)
        kind = kind_of(relative)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.lstrip().startswith("#"):
                entries.append(Entry(kind, relative.as_posix(), number, line.strip()))
    return entries


# -- smtcrypt in this process -----------------------------------------------------------------------

def executor_for(entries: Sequence[Entry]) -> Executor:
    """The executor `smtcrypt batch` would run this many puzzles in one process with."""
    from smtcrypt.cli.batch import COMPILED_FROM

    return Executor.COMPILED if len(entries) >= COMPILED_FROM and compiled_available() else Executor.AUTO


def count_one(entry: Entry, timeout: float, executor: Executor = Executor.AUTO) -> Timed:
    """The count of one puzzle through the public door, and its CPU seconds from text to count."""
    from smtcrypt import IncompleteSearch, Puzzle

    start = time.process_time()
    try:
        found = Puzzle.read(entry.text, "cryptator").count(timeout=timeout, executor=executor)
    except IncompleteSearch as stopped:
        return Timed(entry, None, time.process_time() - start, f"not finished: {stopped}")
    except Exception as problem:  # reported with the puzzle, and the run fails; the others are still timed
        return Timed(entry, None, time.process_time() - start, f"{type(problem).__name__}: {problem}")
    return Timed(entry, found, time.process_time() - start)


def warm_up(entries: Sequence[Entry], timeout: float) -> float:
    """Imports, the parser and each backend's set-up paid before the timing: the first puzzle of each kind
    counted twice, and the compiled kernels loaded where `smtcrypt batch` would run them for this many
    puzzles in one process. Wall seconds."""
    from smtcrypt.engine.kernels import load_compiled

    started = time.perf_counter()
    executor = executor_for(entries)
    if executor is Executor.COMPILED:
        load_compiled()
    firsts = {entry.kind: entry for entry in reversed(entries)}
    for entry in firsts.values():
        for _ in range(2):
            count_one(entry, timeout, executor)
    return time.perf_counter() - started


def print_unshaped(entries: Sequence[Entry], timeout: float) -> None:
    """The medians again with the parser's memo of shapes emptied before each puzzle (`core.parse`: a
    puzzle whose shape, its capitals as A, an earlier one had, is parsed a tenth as long): what a
    collection of puzzles all of new shapes would take. Not a target; said beside them."""
    from smtcrypt.core.parse import forget_shapes

    seconds: dict[str, list[float]] = {}
    for entry in entries:
        forget_shapes()
        seconds.setdefault(entry.kind, []).append(count_one(entry, timeout, executor_for(entries)).seconds)
    print("every shape new (the parser's memo of shapes emptied before each puzzle): medians "
          + ", ".join(f"{kind} {show_ms(statistics.median(seconds[kind]))} ms" for kind in ORDER if kind in seconds))


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def by_kind(timed: Sequence[Timed]) -> dict[str, dict[str, float]]:
    """Per kind: puzzles, median, 99th percentile, slowest and total CPU seconds."""
    table: dict[str, dict[str, float]] = {}
    for kind in ORDER:
        seconds = [t.seconds for t in timed if t.entry.kind == kind]
        if seconds:
            table[kind] = {"puzzles": len(seconds), "median": statistics.median(seconds),
                           "p99": percentile(seconds, 0.99), "max": max(seconds), "total": sum(seconds)}
    return table


def show_ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


# -- the batch, as a user runs it -------------------------------------------------------------------

def run_batch(entries: Sequence[Entry], jobs: int, timeout: float) -> tuple[float, float, list[dict]]:
    """`smtcrypt batch --syntax cryptator --count --jobs N FILE` in a fresh process: wall seconds, CPU seconds
    (the command's and its pool's) and the answers, one a puzzle, in order."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text("".join(entry.text + "\n" for entry in entries), encoding="utf-8")
        command = [sys.executable, "-m", "smtcrypt", "batch", "--syntax", "cryptator", "--count",
                   "--jobs", str(jobs), "--timeout", f"{timeout:g}", str(path)]
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT),
                                                                                 os.environ.get("PYTHONPATH")])))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", env=environment, check=False)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(answers) != len(entries):
        raise RuntimeError(f"smtcrypt batch answered {len(answers)} of {len(entries)} puzzles "
                           f"(exit {done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, cpu, answers


# -- the brute force: Cryptator's text read here, every assignment tried at once ---------------------

WORD = re.compile(r"[a-zA-Z\u0080-\uFFFF0-9]+")
CONSTANT = re.compile(r"'([0-9]+)'|\"([0-9]+)\"")


class NotHandled(Exception):
    """A puzzle outside the brute force's reach: an operator other than `+` and `*`, too many symbols or
    numbers too large for 64 bits."""


@dataclass(frozen=True)
class Term:
    """A product of words (their symbols) and of a constant factor."""

    words: tuple[str, ...]
    factor: int


Side = tuple[Term, ...]  # a sum of terms


def read_side(text: str) -> Side:
    """`a * b + 'c' * d + e` as terms; anything else is not handled."""
    terms = []
    for part in text.split("+"):
        words, factor = [], 1
        for atom in part.split("*"):
            atom = atom.strip()
            constant = CONSTANT.fullmatch(atom)
            if constant:
                factor *= int(constant.group(1) or constant.group(2))
            elif WORD.fullmatch(atom):
                words.append(atom)
            else:
                raise NotHandled(f"{atom!r}")
        terms.append(Term(tuple(words), factor))
    return tuple(terms)


def read_equations(text: str) -> list[tuple[Side, Side]]:
    """The equations of a line (`&&` or `;` between them), each `side = side`."""
    equations = []
    for part in re.split(r"&&|;", text):
        if not part.strip():
            continue
        if part.count("=") != 1 or any(op in part for op in ("<", ">", "!")):
            raise NotHandled(part.strip())
        left, right = part.split("=")
        equations.append((read_side(left), read_side(right)))
    if not equations:
        raise NotHandled(text)
    return equations


def symbols_of(equations: Iterable[tuple[Side, Side]]) -> list[str]:
    """Each symbol once, in order of appearance; every character of a word is a symbol of its own."""
    return list(dict.fromkeys(ch for left, right in equations for term in (*left, *right) for word in term.words
                              for ch in word))


def brute_count(text: str, base: int = 10) -> int:
    """The solutions of a Cryptator puzzle by its rules: every symbol a digit, all different (at most `base`
    symbols here), the first symbol of every word not 0 (a word of one symbol too)."""
    import numpy as np

    equations = read_equations(text)
    symbols = symbols_of(equations)
    if len(symbols) > min(base, BRUTE_LETTERS):
        raise NotHandled(f"{len(symbols)} symbols")
    largest = max(abs(term.factor) * base ** sum(len(word) for word in term.words)
                  for left, right in equations for term in (*left, *right))
    terms = sum(len(left) + len(right) for left, right in equations)
    if largest * terms >= 2 ** 62:
        raise NotHandled("numbers beyond 64 bits")
    column = {symbol: index for index, symbol in enumerate(symbols)}
    digits = np.arange(base, dtype=np.int8).reshape(-1, 1)  # every assignment of distinct digits, a row each
    for _ in range(len(symbols) - 1):
        rows = np.repeat(digits, base, axis=0)
        after = np.tile(np.arange(base, dtype=np.int8), len(digits))
        fresh = ~(rows == after[:, None]).any(axis=1)
        digits = np.hstack([rows[fresh], after[fresh, None]])
    keep = np.ones(len(digits), dtype=bool)
    leading = {word[0] for left, right in equations for term in (*left, *right) for word in term.words}
    for symbol in leading:
        keep &= digits[:, column[symbol]] != 0
    digits = digits[keep]

    def value(word: str) -> np.ndarray:
        total = np.zeros(len(digits), dtype=np.int64)
        for ch in word:
            total = total * base + digits[:, column[ch]].astype(np.int64)
        return total

    def side(terms: Side) -> np.ndarray:
        total = np.zeros(len(digits), dtype=np.int64)
        for term in terms:
            product = np.full(len(digits), term.factor, dtype=np.int64)
            for word in term.words:
                product = product * value(word)
            total = total + product
        return total

    holds = np.ones(len(digits), dtype=bool)
    for left, right in equations:
        holds &= side(left) == side(right)
    return int(holds.sum())


def brute_draw(entries: Sequence[Entry], size: int, seed: int) -> list[Entry]:
    """A seeded draw of `size` puzzles the brute force handles, of at most BRUTE_LETTERS symbols."""
    eligible = []
    for entry in entries:
        try:
            equations = read_equations(entry.text)
        except NotHandled:
            continue
        if len(symbols_of(equations)) <= BRUTE_LETTERS:
            eligible.append(entry)
    return random.Random(seed).sample(eligible, min(size, len(eligible)))


# -- the run ----------------------------------------------------------------------------------------

def print_kinds(table: dict[str, dict[str, float]], report: Report) -> None:
    print(f"\n{'kind':22}{'puzzles':>9}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}{'total s':>9}")
    for kind, row in table.items():
        print(f"{kind:22}{int(row['puzzles']):9,}{show_ms(row['median']):>11}{show_ms(row['p99']):>9}"
              f"{show_ms(row['max']):>9}{row['total']:9.2f}")
    print()
    for (kind, statistic), bound in TARGETS.items():
        if kind in table:
            held = table[kind][statistic] <= bound
            report.targets[f"{kind} {statistic}"] = held
            print(f"target: {kind} {statistic} {show_ms(table[kind][statistic])} ms <= {bound * 1000:g} ms "
                  f"{'holds' if held else 'MISSED'}")


def compare_batch(timed: Sequence[Timed], answers: Sequence[dict], report: Report) -> None:
    for one, answer in zip(timed, answers):
        if "error" in answer:
            report.errors.append(f"batch: {one.entry.where}: {answer['error']}")
        elif one.count is not None and answer.get("complete") and answer.get("count") != one.count:
            report.disagreements.append(f"{one.entry.where}: in process {one.count}, batch {answer.get('count')}")


def brute_check(entries: Sequence[Entry], counts: dict[Entry, int | None], size: int, seed: int,
                report: Report) -> None:
    draw = brute_draw(entries, size, seed)
    started = time.perf_counter()
    for entry in draw:
        expected = brute_count(entry.text)
        found = counts.get(entry)
        if found != expected:
            report.disagreements.append(f"{entry.where}: smtcrypt {found}, brute force {expected}: {entry.text}")
    print(f"brute force: {len(draw)} puzzles of at most {BRUTE_LETTERS} symbols (seed {seed}), "
          f"{time.perf_counter() - started:.1f} s: "
          f"{'every count agrees' if not report.disagreements else 'DISAGREE'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="run.py --only collection", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(__doc__.splitlines()[1:]))
    parser.add_argument("--only", choices=[TAG], default=TAG)
    parser.add_argument("--collection", type=Path, metavar="DIR", default=SAMPLE,
                        help="a checkout of Cryptator's src/main/cryptarithms (default: the sample kept in "
                             "benchmarks/collection)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds for one puzzle")
    parser.add_argument("--jobs", type=int, default=JOBS, help="processes of the batch run (default 2)")
    parser.add_argument("--brute", type=int, default=BRUTE_PUZZLES, metavar="N",
                        help=f"puzzles the brute force counts (default {BRUTE_PUZZLES})")
    parser.add_argument("--seed", type=int, default=BRUTE_SEED, help="the brute force's draw")
    parser.add_argument("--no-batch", action="store_true", help="leave out the batch run")
    args = parser.parse_args(argv)

    entries = load(args.collection)
    if not entries:
        parser.error(f"no puzzle in {args.collection} (files *.db.txt)")
    report = Report()
    executor = executor_for(entries)
    print(f"collection: {len(entries):,} puzzles from {args.collection}; warm-up "
          f"{warm_up(entries, args.timeout):.2f} s; kernels "
          f"{'compiled (as a batch of this size runs them)' if executor is Executor.COMPILED else 'plain'}")
    timed = [count_one(entry, args.timeout, executor) for entry in entries]
    for one in timed:
        if one.problem:
            report.errors.append(f"{one.entry.where}: {one.problem}: {one.entry.text}")
    report.kinds = by_kind(timed)
    print_kinds(report.kinds, report)
    print_unshaped(entries, args.timeout)
    others = [one for one in timed if one.count is not None and one.count != 1]
    print(f"solutions: {sum(one.count == 1 for one in timed):,} puzzles unique, {len(others)} otherwise"
          + "".join(f"\n  {one.count} solutions: {one.entry.where}: {one.entry.text}" for one in others[:20]))

    if not args.no_batch:
        wall, cpu, answers = run_batch(entries, args.jobs, args.timeout)
        compare_batch(timed, answers, report)
        print(f"\nbatch --count --jobs {args.jobs}: {len(entries):,} puzzles in {wall:.2f} s wall, {cpu:.2f} s CPU "
              f"in all its processes ({wall / len(entries) * 1000:.2f} ms wall a puzzle); load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        if len(entries) >= WHOLE:
            whole, how = wall, ""
        else:  # a fixed part (start-up, the pool, the compiled kernel's load) and a part a puzzle: two sizes,
            # the first half and all (not the puzzles twice over: the second time, every shape is known)
            half = entries[:len(entries) // 2]
            first, _, _ = run_batch(half, args.jobs, args.timeout)
            each = max(wall - first, 0.0) / (len(entries) - len(half))
            whole = wall - each * len(entries) + each * WHOLE
            how = (f", projected from its first {len(half):,} puzzles in {first:.2f} s and all in {wall:.2f} s "
                   f"({wall - each * len(entries):.2f} s once, {each * 1000:.3f} ms a puzzle; "
                   f"{wall / len(entries) * WHOLE:.1f} s scaled in proportion)")
        held = whole <= WHOLE_SECONDS
        report.targets["whole collection"] = held
        print(f"target: the whole collection {whole:.1f} s wall{how} <= {WHOLE_SECONDS:g} s "
              f"{'holds' if held else 'MISSED'}")

    brute_check(entries, {one.entry: one.count for one in timed}, args.brute, args.seed, report)
    for line in report.disagreements:
        print(f"DISAGREE {line}")
    for line in report.errors:
        print(f"ERROR    {line}")
    return 1 if report.disagreements or report.errors else 0
