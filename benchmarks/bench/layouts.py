"""The layouts class (`run.py --only layouts`): skeleton long divisions and multiplications, as
printed, with tens of thousands of solutions each, counted by smtcrypt and by a reference.

smtcrypt counts each layout as a user would (`smtcrypt.Puzzle.from_layout(text).count(timeout=...)`,
the API behind `smtcrypt --count --layout FILE`), from the text to the count. The reference
enumerates the NUMBERS, not the cells: the divisor, the quotient and the remainder of a division,
the multiplicand and the multiplier of a multiplication; it does the long-hand working as printed
(each row a number with no leading zero, ending in its column; a quotient or multiplier digit 0
has no row, so the next remainder brings down one more digit) and keeps the numbers whose rows
have the layout's lengths, columns and literal digits. Plain Python: it reads the layout's rows
itself and uses nothing of smtcrypt but the parser's check that the layout is well formed. A `?`
is any digit; the reference does not take letters.

The target: smtcrypt lists at least 20,000 solutions a second. Both counts must agree with each
other and with the count recorded here (DISAGREE and exit status 1 otherwise).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from itertools import product as cartesian
from pathlib import Path

import smtcrypt
from smtcrypt.engine import Ending
from smtcrypt.notations.layout import parse_layout

from . import HERE
from .results import Unsupported

LAYOUT_DIR = HERE / "layouts"
TAG = "layouts"
DEFAULT_TIMEOUT = 120.0  # seconds for smtcrypt on one layout
TARGET_RATE = 20_000  # solutions a second
# file, solutions (counted by the reference, and by smtcrypt with no time limit), what it is
LAYOUTS = (
    ("division-three-steps.txt", 32_606, "????? / ?? = ???, three steps, final remainder one digit"),
    ("division-zero-digit.txt", 239_265, "????? / ?? = ?0?: the zero digit brings down two digits"),
    ("multiplication-3x2.txt", 45_237, "??? x ?? = ?????, partial products of four digits"),
    ("multiplication-3x3.txt", 18_256, "??? x ??? = ?????, partial products of 3, 4 and 3 digits"),
)


# -- the layout's rows -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """A printed number: its cells (`?` or a digit) and its right edge, counted in columns left of
    the last digit of the dividend (division) or of the multiplier (multiplication)."""

    cells: str
    shift: int

    def fits(self, text: str, shift: int) -> bool:
        """Whether the number printed as `text`, ending `shift` columns left, fills this row."""
        if shift != self.shift or len(text) != len(self.cells):
            return False
        return all(cell == "?" or cell == digit for cell, digit in zip(self.cells, text))

    def allows(self, position: int, digit: int) -> bool:
        cell = self.cells[position]
        return cell == "?" or cell == str(digit)


@dataclass
class Shape:
    """A layout read row by row: for a division the quotient, divisor, dividend and the rows under
    them (product, remainder, product, remainder, ...); for a multiplication the multiplicand, the
    multiplier, the partial products and the product."""

    kind: str
    top: Row  # the quotient or the multiplicand
    left: Row  # the divisor or the multiplier
    middle: Row | None  # the dividend (division)
    rows: list[Row]  # the working: division steps, or partial products then the product


def is_rule(line: str) -> bool:
    text = line.strip()
    return bool(text) and (set(text) == {"-"} or set(text) == {"="})


def cells_of(text: str, what: str) -> str:
    if not text or any(ch != "?" and not ch.isdigit() for ch in text):
        raise Unsupported(f"{what} {text!r}: the reference reads cells '?' and digits only")
    return text


def read_shape(text: str) -> Shape:
    """The rows of a layout, after smtcrypt's parser has accepted it as well formed."""
    parse_layout(text)  # a LayoutError for a layout smtcrypt would refuse
    lines = [line.rstrip() for line in text.expandtabs(8).splitlines() if line.strip()]
    if any(")" in line for line in lines):
        quotient_line, _, bracket_line, *working = lines
        divisor_text, _, dividend_text = bracket_line.partition(")")
        end = len(bracket_line) - 1  # the dividend's last column
        quotient = Row(cells_of(quotient_line.strip(), "quotient"), end - (len(quotient_line) - 1))
        divisor = Row(cells_of(divisor_text.strip(), "divisor"), 0)
        dividend = Row(cells_of(dividend_text.strip(), "dividend"), 0)
        rows = [Row(cells_of(line.strip(), "row"), end - (len(line) - 1)) for line in working if not is_rule(line)]
        return Shape("division", quotient, divisor, dividend, rows)
    top_line, multiplier_line, *working = lines
    end = len(multiplier_line) - 1
    multiplier = multiplier_line.strip()[1:].strip()  # after x, * or ×
    rows = [Row(cells_of(line.strip(), "row"), end - (len(line) - 1)) for line in working if not is_rule(line)]
    return Shape("multiplication", Row(cells_of(top_line.strip(), "multiplicand"), 0),
                 Row(cells_of(multiplier, "multiplier"), 0), None, rows)


def numbers(row: Row) -> Iterator[int]:
    """The numbers of the row's length (no leading zero but for a one-digit row) its digits allow."""
    size = len(row.cells)
    choices = [[d for d in range(1 if position == 0 and size > 1 else 0, 10) if row.allows(position, d)]
               for position in range(size)]
    for digits in cartesian(*choices):
        yield int("".join(map(str, digits)))


# -- long division -------------------------------------------------------------------------------------

def division_working(divisor: int, quotient: int, remainder: int) -> list[tuple[str, int]]:
    """The rows under the dividend as printed, each (text, columns left of the dividend's last digit):
    per nonzero quotient digit the divisor times it under the dividend digit that digit stands over,
    then what is left with the dividend digits brought down up to the next nonzero quotient digit,
    or at the end the remainder."""
    dividend = str(divisor * quotient + remainder)
    digits = str(quotient)
    size, count = len(dividend), len(digits)
    rows: list[tuple[str, int]] = []
    step = 0
    current = int(dividend[:size - count + 1])
    while True:
        taken = divisor * int(digits[step])
        rows.append((str(taken), count - 1 - step))
        left = current - taken
        following = next((j for j in range(step + 1, count) if digits[j] != "0"), count)
        if following == count:  # the last step: the remainder, with any digits left brought down
            rest = dividend[size - count + step + 1:]
            rows.append((str(left * 10 ** len(rest) + int(rest or "0")), 0))
            return rows
        brought = dividend[size - count + step + 1:size - count + following + 1]
        current = left * 10 ** len(brought) + int(brought)
        rows.append((str(current), count - 1 - following))
        step = following


def count_division(shape: Shape, deadline: float) -> tuple[int, bool]:
    """(solutions, complete): every divisor and quotient whose products fit their rows, and every
    remainder below the divisor, kept when the dividend and the whole working fit."""
    assert shape.middle is not None
    quotient, dividend, rows = shape.top, shape.middle, shape.rows
    count = len(quotient.cells)
    size = len(dividend.cells)
    if quotient.shift != 0 or len(rows) % 2:
        return 0, True
    products = rows[0::2]
    steps = {count - 1 - row.shift: row for row in products}  # quotient position -> its product's row
    if len(steps) != len(products) or not all(0 <= step < count for step in steps):
        return 0, True
    found = 0
    for divisor in numbers(shape.left):
        if time.perf_counter() > deadline:
            return found, False
        choices = []
        for position in range(count):
            if position in steps:
                choices.append([d for d in range(1, 10) if quotient.allows(position, d)
                                and steps[position].fits(str(divisor * d), steps[position].shift)])
            else:
                choices.append([0] if quotient.allows(position, 0) else [])
        for digits in cartesian(*choices):
            if digits[0] == 0 and count > 1:
                continue
            value = int("".join(map(str, digits)))
            times = divisor * value
            for remainder in range(max(0, 10 ** (size - 1) - times), min(divisor, 10 ** size - times)):
                if not dividend.fits(str(times + remainder), 0):
                    continue
                working = division_working(divisor, value, remainder)
                if len(working) == len(rows) and all(row.fits(*printed) for row, printed in zip(rows, working)):
                    found += 1
    return found, True


# -- long multiplication -------------------------------------------------------------------------------

def count_multiplication(shape: Shape, deadline: float) -> tuple[int, bool]:
    """(solutions, complete): every multiplicand; per multiplier digit, the digits whose partial
    product fits its row (a digit with no row is 0); every multiplier made of them whose product
    fits the last row."""
    multiplier, rows = shape.left, shape.rows
    size = len(multiplier.cells)
    product_row = rows[-1]
    partials = {row.shift: row for row in rows[:-1]}  # the multiplier digit's place -> its row
    if size == 1 and partials or len(partials) != len(rows) - 1:
        return 0, True
    found = 0
    for top in numbers(shape.top):
        if time.perf_counter() > deadline:
            return found, False
        choices = []
        for position in range(size):  # from the first digit
            place = size - 1 - position
            if size == 1:
                choices.append([d for d in range(10) if multiplier.allows(0, d)])
            elif place in partials:
                choices.append([d for d in range(1, 10) if multiplier.allows(position, d)
                                and partials[place].fits(str(top * d), place)])
            else:
                choices.append([0] if multiplier.allows(position, 0) else [])
        for digits in cartesian(*choices):
            if digits[0] == 0 and size > 1:
                continue
            if product_row.fits(str(top * int("".join(map(str, digits)))), 0):
                found += 1
    return found, True


def count_reference(text: str, budget: float) -> tuple[int, bool]:
    start = time.perf_counter()
    shape = read_shape(text)
    counter = count_division if shape.kind == "division" else count_multiplication
    return counter(shape, start + budget)


# -- the run -------------------------------------------------------------------------------------------

@dataclass
class LayoutRun:
    name: str
    what: str
    expected: int
    smtcrypt_status: str = "error"  # ok, timeout, unknown or error
    smtcrypt_count: int | None = None
    smtcrypt_seconds: float | None = None
    smtcrypt_note: str | None = None
    reference_status: str = "error"
    reference_count: int | None = None
    reference_seconds: float | None = None
    reference_note: str | None = None
    disagreement: str | None = None

    @property
    def rate(self) -> float | None:
        """smtcrypt's solutions a second (so far, if it was stopped)."""
        if self.smtcrypt_count is None or not self.smtcrypt_seconds:
            return None
        return self.smtcrypt_count / self.smtcrypt_seconds


def run_smtcrypt_layout(run: LayoutRun, text: str, timeout: float, strategy: str | None) -> None:
    options = {} if strategy is None else {"strategy": strategy}
    start = time.perf_counter()
    try:
        run.smtcrypt_count = smtcrypt.Puzzle.from_layout(text).count(timeout=timeout, **options)
        run.smtcrypt_status = "ok"
    except smtcrypt.IncompleteSearch as error:
        run.smtcrypt_status = "timeout" if error.ending is Ending.TIME else "unknown"
        run.smtcrypt_count, run.smtcrypt_note = error.found, error.reason
    except Exception as error:
        run.smtcrypt_status, run.smtcrypt_note = "error", f"{type(error).__name__}: {error}"
    run.smtcrypt_seconds = time.perf_counter() - start


def run_reference(run: LayoutRun, text: str, budget: float) -> None:
    start = time.perf_counter()
    try:
        count, complete = count_reference(text, budget)
        run.reference_status, run.reference_count = ("ok" if complete else "timeout"), count
    except Exception as error:
        run.reference_status, run.reference_note = "error", f"{type(error).__name__}: {error}"
    run.reference_seconds = time.perf_counter() - start


def check(run: LayoutRun) -> str | None:
    """None if the finished counts agree with each other and with the recorded one; else what differs."""
    counts: dict[str, int | None] = {"recorded": run.expected}
    if run.smtcrypt_status == "ok":
        counts["smtcrypt"] = run.smtcrypt_count
    if run.reference_status == "ok":
        counts["reference"] = run.reference_count
    if len(set(counts.values())) > 1:
        return "counts differ: " + ", ".join(f"{who}={count}" for who, count in counts.items())
    if run.smtcrypt_status != "ok" and (run.smtcrypt_count or 0) > run.expected:
        return f"smtcrypt found {run.smtcrypt_count} before it stopped, more than the {run.expected} recorded"
    return None


def shown_count(status: str, count: int | None) -> str:
    if status == "ok":
        return f"{count:,}"
    if status == "error":
        return "ERROR"
    return f"{'T/O' if status == 'timeout' else '?'}({count or 0:,})"


def main(timeout: float | None, budget: float, strategy: str | None, out: Path | None, info: dict) -> int:
    """Count every layout with smtcrypt and the reference; print the table and the target; the
    exit status (1 on a disagreement or a crash)."""
    limit = DEFAULT_TIMEOUT if timeout is None else timeout
    name = "smtcrypt" if strategy is None else f"smtcrypt[{strategy}]"
    print(f"smtcrypt benchmark, layouts: {len(LAYOUTS)} skeleton long divisions and multiplications from "
          f"{LAYOUT_DIR.relative_to(HERE.parent)}/; {name} timeout {limit:g} s, reference {budget:g} s")
    print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items() if v is not None))
    started = time.perf_counter()
    warm = LayoutRun("warm-up", "", 0)
    run_smtcrypt_layout(warm, "    ??\n  x  ?\n  ----\n   ???\n", limit, strategy)  # imports, the parser, Z3
    print(f"warm-up {time.perf_counter() - started:.2f} s;  T/O(n) = time limit after n solutions")
    header = (f"{'layout':28} {'solutions':>9} | {name:>13} {'s':>8} {'solutions/s':>11} | {'reference':>9} "
              f"{'s':>7} | {'smt/ref':>8}")
    print(header)
    runs = []
    for file, expected, what in LAYOUTS:
        text = (LAYOUT_DIR / file).read_text(encoding="utf-8")
        run = LayoutRun(file.removesuffix(".txt"), what, expected)
        run_smtcrypt_layout(run, text, limit, strategy)
        run_reference(run, text, budget)
        run.disagreement = check(run)
        runs.append(run)
        rate = "-" if run.rate is None else f"{run.rate:,.0f}" + ("" if run.smtcrypt_status == "ok" else "*")
        ratio = "-"
        if run.smtcrypt_seconds and run.reference_seconds and "error" not in (run.smtcrypt_status, run.reference_status):
            value = run.smtcrypt_seconds / run.reference_seconds
            ratio = f"{value:.3g}" if run.smtcrypt_status == "ok" and run.reference_status == "ok" else f">{value:.3g}"
        flag = "   <-- DISAGREE" if run.disagreement else ""
        print(f"{run.name:28} {expected:>9,} | {shown_count(run.smtcrypt_status, run.smtcrypt_count):>13} "
              f"{run.smtcrypt_seconds or 0:8.2f} {rate:>11} | "
              f"{shown_count(run.reference_status, run.reference_count):>9} {run.reference_seconds or 0:7.2f} | "
              f"{ratio:>8}{flag}", flush=True)
        for who, note, status in (("smtcrypt", run.smtcrypt_note, run.smtcrypt_status),
                                  ("reference", run.reference_note, run.reference_status)):
            if status == "error":
                print(f"      {who} ERROR: {note}")

    finished = [run for run in runs if run.smtcrypt_status == "ok"]
    rates = [run.rate for run in finished if run.rate is not None]
    held = len(finished) == len(runs) and all(rate >= TARGET_RATE for rate in rates)
    print(f"\n* = stopped by the time limit: the rate so far.  smt/ref = {name} seconds / reference seconds")
    slowest = min(rates) if rates else None
    print(f"target {name} >= {TARGET_RATE:,} solutions a second on every layout: "
          f"{'holds' if held else 'MISSED'}; {len(finished)} of {len(runs)} finished"
          + (f", the slowest of them at {slowest:,.0f} a second" if slowest is not None else "")
          + (f", median {statistics.median(rates):,.0f}" if rates else ""))
    disagreements = [run for run in runs if run.disagreement]
    errors = [run for run in runs if "error" in (run.smtcrypt_status, run.reference_status)]
    if disagreements:
        print("\n" + "!" * 78)
        print(f"DISAGREE: {len(disagreements)} layout(s):")
        for run in disagreements:
            print(f"  {run.name}: {run.disagreement}")
        print("!" * 78)
    else:
        print("\nagreement: every count that finished is the recorded one")
    if errors:
        print(f"ERRORS: {len(errors)}")
    if out is not None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        record = {"timestamp": stamp, "class": TAG, "timeout": limit, "reference_budget": budget,
                  "strategy": strategy, "machine": info, "wall_seconds": time.perf_counter() - started,
                  "target_rate": TARGET_RATE, "target_holds": held,
                  "layouts": [asdict(run) | {"rate": run.rate} for run in runs]}
        out.mkdir(parents=True, exist_ok=True)
        text = json.dumps(record, indent=1)
        (out / f"layouts-{stamp}.json").write_text(text, encoding="utf-8")
        (out / "layouts-latest.json").write_text(text, encoding="utf-8")
        print(f"wrote {out}/layouts-{stamp}.json and layouts-latest.json")
    return 1 if disagreements or errors else 0
