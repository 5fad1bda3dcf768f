"""Printable worksheets: puzzles laid out long-hand with a blank box under every letter, and an
answer key on its own page. One self-contained HTML page (A4 or Letter), printed to paper or PDF
by the browser; the same page is served by `smtcrypt serve` at /worksheet.

    smtcrypt worksheet "SEND + MORE = MONEY" "ODD * ODD = FREAKY" -o sheet.html
    smtcrypt worksheet --from puzzles.txt --paper letter -o sheet.html
    smtcrypt worksheet --generate --words examples/words/planets.txt --count 6 -o sheet.html

A sum of words equal to a word is stacked in columns, as on paper; so is a product of two words.
Any other formula is written on one line, each letter in its box.
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from smtcrypt.core.check import Problem, check
from smtcrypt.core.letters import is_letter as is_puzzle_letter
from smtcrypt.core.letters import is_wildcard, shown, symbols
from smtcrypt.core.numerals import digit_char
from smtcrypt.core.parse import parse
from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import BinOp, Compare, Expr, Word
from smtcrypt.search import DEFAULT_TIMEOUT, Search

PAPERS = {"a4": "A4", "letter": "letter"}
STATUS_NOTES = {
    Status.UNIQUE: "unique (proved)",
    Status.MULTIPLE: "not unique: this is one of several solutions",
    Status.NONE: "no solution (proved)",
    Status.UNKNOWN: "undecided",
    Status.FOUND: "a solution",
    Status.INFINITE: "infinitely many solutions",
}


@dataclass(frozen=True)
class StackedFormula:
    """A formula stacked in columns: operand rows with their signs, then the result row."""

    operands: tuple[tuple[str, str], ...]  # (sign, digits-and-letters), the first sign empty
    result: str


@dataclass(frozen=True)
class Entry:
    """One puzzle of the sheet with its verdict (for the key)."""

    formula: str
    problem: Problem
    verdict: Verdict
    difficulty: int | None


def _addends(node: Expr) -> list[tuple[str, str]] | None:
    """The words of a chain such as `SEND + MORE - THE`, each with its sign, or None."""
    if isinstance(node, Word):
        return [("+", node.letters)]
    if isinstance(node, BinOp) and node.op in ("+", "-") and isinstance(node.right, Word):
        left = _addends(node.left)
        return None if left is None else left + [(node.op, node.right.letters)]
    return None


def stacked(problem: Problem) -> StackedFormula | None:
    """The column layout of `WORD + WORD - ... = WORD` or `WORD * WORD = WORD` (either side), or None."""
    constraints = problem.formula.constraints
    if len(constraints) != 1 or not isinstance(constraints[0], Compare) or constraints[0].ops != ("==",):
        return None
    left, right = constraints[0].operands
    if not isinstance(right, Word) and isinstance(left, Word):
        left, right = right, left
    if not isinstance(right, Word):
        return None
    if isinstance(left, BinOp) and left.op == "*" and isinstance(left.left, Word) and isinstance(left.right, Word):
        return StackedFormula((("", left.left.letters), ("×", left.right.letters)), right.letters)
    addends = _addends(left)
    if addends is None or len(addends) < 2:
        return None
    operands = tuple(("" if index == 0 else sign, text) for index, (sign, text) in enumerate(addends))
    return StackedFormula(operands, right.letters)


def is_letter(char: str) -> bool:
    """A letter with a box of its own (the hidden names of `?`s are not written as letters)."""
    return is_puzzle_letter(char) and not is_wildcard(char)


def _cell(char: str, mapping: dict[str, int] | None) -> str:
    """A letter's box (blank, or with its digit in the key); a literal digit is printed as it is."""
    if not is_letter(char):
        return f'<span class="cell fixed">{html.escape("?" if is_wildcard(char) else char)}</span>'
    digit = "" if mapping is None else digit_char(mapping[char])
    return (f'<span class="cell"><span class="letter">{html.escape(shown(char))}</span>'
            f'<span class="digit">{digit}</span></span>')


def _row(sign: str, text: str, width: int, mapping: dict[str, int] | None, css: str = "") -> str:
    cells = ['<span class="cell pad"></span>'] * (width - len(text)) + [_cell(char, mapping) for char in text]
    return f'<div class="row {css}"><span class="sign">{html.escape(sign)}</span>{"".join(cells)}</div>'


def layout(problem: Problem, mapping: dict[str, int] | None = None) -> str:
    """The puzzle long-hand in HTML: stacked where it can be, else one line of boxes and symbols."""
    rows = stacked(problem)
    if rows is not None:
        width = max(len(text) for text in [*(text for _, text in rows.operands), rows.result])
        body = [_row(sign, text, width, mapping) for sign, text in rows.operands]
        body.append(_row("", rows.result, width, mapping, "result"))
        return f'<div class="stack">{"".join(body)}</div>'
    lines = []
    for text in problem.source.splitlines():
        chunks = []  # a line breaks only at its spaces: 0.(TALK) stays in one piece
        for chunk in text.split():
            chunks.append('<span class="chunk">' + "".join(
                _cell(char, mapping) if is_letter(char) else f'<span class="symbol">{html.escape(char)}</span>'
                for char in symbols(chunk)) + "</span>")
        lines.append(f'<div class="inline">{"".join(chunks)}</div>')
    return "".join(lines)


def letter_key(problem: Problem, mapping: dict[str, int] | None = None) -> str:
    """Every letter once, with a box for its digit."""
    return ('<div class="letters">' + "".join(
        f'<span class="pair">{html.escape(shown(letter))} = {_cell(letter, mapping)}</span>'
        for letter in sorted(problem.letters) if is_letter(letter))
        + "</div>")


CSS = """
@page { size: %(paper)s; margin: 14mm 14mm 16mm; }
* { box-sizing: border-box; }
body { font: 12pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #111; margin: 0; }
.sheet { max-width: 182mm; margin: 0 auto; padding: 6mm 0; }
h1 { font-size: 18pt; margin: 0 0 2mm; }
.name { margin: 0 0 6mm; color: #333; }
.intro { margin: 0 0 6mm; font-size: 10.5pt; color: #333; }
.puzzles { display: grid; grid-template-columns: repeat(2, 1fr); gap: 8mm 10mm; }
.puzzle { break-inside: avoid; page-break-inside: avoid; border: 0.3mm solid #999; border-radius: 2mm; padding: 4mm; }
.puzzle h2 { font-size: 11pt; margin: 0 0 3mm; font-weight: 600; }
.puzzle .formula { font-family: "DejaVu Sans Mono", monospace; font-weight: normal; color: #333; }
.stack { display: inline-block; font-family: "DejaVu Sans Mono", monospace; }
.row { display: flex; align-items: flex-end; }
.row.result { border-top: 0.5mm solid #111; padding-top: 1mm; margin-top: 1mm; }
.sign { width: 6mm; text-align: center; font-size: 14pt; }
.cell { display: inline-flex; position: relative; width: 8mm; height: 9mm; margin: 0.5mm; border: 0.3mm solid #333;
        align-items: center; justify-content: center; font-size: 14pt; font-family: "DejaVu Sans Mono", monospace; }
.cell.pad { border-color: transparent; }
.cell.fixed { border-style: dotted; font-weight: bold; }
.cell .letter { position: absolute; top: 0.3mm; left: 0.8mm; font-size: 7pt; color: #555; }
.cell .digit { font-weight: bold; }
.inline { display: flex; flex-wrap: wrap; align-items: center; gap: 0 2.5mm; }
.chunk { display: inline-flex; align-items: center; white-space: nowrap; }
.inline .symbol { font-size: 14pt; white-space: pre; font-family: "DejaVu Sans Mono", monospace; }
.letters { margin-top: 3mm; display: flex; flex-wrap: wrap; gap: 1mm 3mm; font-size: 10pt; align-items: center; }
.pair { display: inline-flex; align-items: center; gap: 1mm; }
.pair .cell { width: 7mm; height: 7mm; }
.pair .cell .letter { display: none; }
.key { break-before: page; page-break-before: always; }
.key .puzzle { border-style: dashed; }
.answer { margin-top: 2mm; font-size: 10pt; }
.answer .line { font-family: "DejaVu Sans Mono", monospace; font-size: 11pt; }
.long-hand { font: 11pt/1.2 "DejaVu Sans Mono", monospace; margin: 2mm 0 0; }
.meta { color: #555; font-size: 9.5pt; }
@media screen { body { background: #eee; } .sheet { background: #fff; padding: 10mm 14mm; margin: 5mm auto;
  box-shadow: 0 0 2mm #aaa; max-width: 210mm; } }
"""


def _puzzle_box(number: int, entry: Entry, answers: bool) -> str:
    formula = html.escape(entry.formula.replace("\n", "; "))
    rating = "" if entry.difficulty is None else f' <span class="meta">difficulty {entry.difficulty}/5</span>'
    title = f'<h2>{number}. <span class="formula">{formula}</span>{rating}</h2>'
    if not answers:
        return f'<div class="puzzle">{title}{layout(entry.problem)}{letter_key(entry.problem)}</div>'
    return f'<div class="puzzle">{title}{_answer(entry)}</div>'


def _answer(entry: Entry) -> str:
    """A puzzle's answer in the key: the solution long-hand (or in the boxes), its digits and the verdict."""
    verdict = entry.verdict
    note = STATUS_NOTES[verdict.status] + (f" ({verdict.reason})" if verdict.status is Status.UNKNOWN else "")
    if not verdict.solutions:
        return f'<p class="answer">{html.escape(note)}</p>'
    solution: Solution = verdict.solutions[0]
    drawn = solution.layout()
    written = "" if drawn.kind == "line" else drawn.text()
    shown = (f'<pre class="long-hand">{html.escape(written)}</pre>' if written
             else layout(entry.problem, solution.mapping))
    mapping = " ".join(f"{name}={value}" for name, value in solution.mapping.items())
    return (f'{shown}<div class="answer"><div class="line">{html.escape(solution.text)}</div>'
            f'<div>{html.escape(mapping)}</div><div class="meta">{html.escape(note)}</div></div>')


def render(entries: Sequence[Entry], *, title: str = "Cryptarithms", paper: str = "a4") -> str:
    """The worksheet page: the puzzles, then the answer key starting on a new page."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, not {paper!r}")
    heading = html.escape(title)
    puzzles = "".join(_puzzle_box(number, entry, False) for number, entry in enumerate(entries, 1))
    answers = "".join(_puzzle_box(number, entry, True) for number, entry in enumerate(entries, 1))
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{heading}</title>
<style>{CSS % {"paper": PAPERS[paper]}}</style>
</head>
<body>
<section class="sheet questions">
<h1>{heading}</h1>
<p class="name">Name: ______________________________ &nbsp; Date: ______________</p>
<p class="intro">Each letter stands for a digit; different letters for different digits, and no number starts with 0.
Write each letter's digit in its boxes.</p>
<div class="puzzles">{puzzles}</div>
</section>
<section class="sheet key">
<h1>{heading}: answers</h1>
<div class="puzzles">{answers}</div>
</section>
</body>
</html>
"""


def entries_of(formulas: Sequence[str], *, timeout: float = DEFAULT_TIMEOUT, total: float | None = None,
               rate: Callable[[str], int] | None = None, rules: Rules | None = None) -> list[Entry]:
    """Each formula parsed, checked and decided (unique or not) for the key; `FormulaError` for a bad one.

    `timeout` bounds each puzzle's search, `total` all of them together (the server's limit per
    request): a puzzle left without time is `undecided` in the key, never called unique. `rate` gives
    a formula's difficulty (1-5) for the sheet, where the caller wants it shown; `rules` are the
    puzzles' rules (by default the usual ones).
    """
    problems = [check(parse(formula), rules) for formula in formulas]  # every formula checked before any search
    deadline = None if total is None else time.monotonic() + total
    entries = []
    for formula, problem in zip(formulas, problems):
        budget = timeout if deadline is None else max(0.001, min(timeout, deadline - time.monotonic()))
        verdict = Search(problem, timeout=budget, decide=True).verdict()
        entries.append(Entry(formula, problem, verdict, None if rate is None else rate(formula)))
    return entries


def build_worksheet(formulas: Sequence[str], *, title: str = "Cryptarithms", paper: str = "a4",
                    timeout: float = DEFAULT_TIMEOUT, total: float | None = None) -> str:
    """The worksheet of `formulas` as one HTML page."""
    return render(entries_of(formulas, timeout=timeout, total=total), title=title, paper=paper)
