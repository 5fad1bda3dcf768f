"""enigma.py's door: a command line (`SubstitutedExpression "TOM * 13 = DALEY"`) or a run file, read
as written, its solutions shown as enigma.py shows them, in the user's symbols."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from smtcrypt.core.check import Problem, check
from smtcrypt.core.clock import Clock
from smtcrypt.core.numerals import digit_char, digit_writer, number_text
from smtcrypt.core.results import Solution, Status, Verdict, join
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import Constraints, Spans, compare, number
from smtcrypt.notations.base import Reading, View
from smtcrypt.notations.enigma.command import EnigmaPuzzle, read_command
from smtcrypt.notations.enigma.runfile import read_runfile
from smtcrypt.notations.layout import reading as layout_reading
from smtcrypt.notations.options import NoOptions

NEVER = "0 = 1"  # the formula of a puzzle enigma.py's own check shows has no solution (`impossible`)


def never() -> Constraints:
    """NEVER's tree, as the parser makes it of that text (its spans in it)."""
    spans = Spans(NEVER)
    zero, one = NEVER.index("0"), NEVER.index("1")
    return Constraints((compare(number(0, spans(zero)), "==", number(1, spans(one)), spans(0, len(NEVER))),), NEVER)


class EnigmaView(View):
    """A solution as enigma.py prints it: the expressions as written and then with the digits in (a
    division: `47670 / 77 = 619 (rem 7) [476 - 462 = 14, ...]`), and the user's symbols' digits."""

    def __init__(self, puzzle: EnigmaPuzzle, inner: View):
        self.puzzle, self.inner = puzzle, inner  # `inner`: the formula's or the layout's own view
        self.drawing = inner.drawing
        # our formula's text, where the tree searched was built from the expressions (its source is the puzzle's text)
        self.ours = join(puzzle.formulas) if puzzle.impossible is None and puzzle.division is None else None
        self.formula = puzzle.text if puzzle.impossible is not None else (
            inner.formula if self.ours is None else self.ours)
        self.answer = puzzle.answer_tree  # our tree of enigma's --answer
        # a division's dividend, divisor and quotient, by their cells' names
        self.operands = inner.layout.operands if isinstance(inner, layout_reading.LayoutView) else ()

    def fill(self, problem: Problem) -> Callable[[dict[str, int]], str]:
        """A solution's text: our formula filled in, where the expressions were searched; else the inner view's."""
        if self.ours is None:
            return self.inner.fill(problem)
        return formula_filler(self.ours, problem)

    def searched(self, problem: Problem) -> str:
        return self.inner.searched(problem)

    def symbols(self, mapping: Mapping[str, int]) -> dict[str, int]:
        return self.puzzle.user_mapping(mapping)

    def line(self, solution: Solution, answer: str | None = None) -> str:
        puzzle = self.puzzle
        symbols = " ".join(f"{symbol}={digit_char(digit)}" for symbol, digit in puzzle.listed(solution.mapping).items())
        if puzzle.division is not None:
            digits = dict(solution.mapping)  # and the digits of the `?`s, which a mapping lists apart
            if solution.problem is not None:
                digits.update(zip(solution.problem.wildcards, solution.wildcards))
            head = division_text(self.operands, digits, puzzle.rules.base)
            extra = " ".join(f"({puzzle.substitute(e, solution.mapping)})" for e in puzzle.expressions)
            line = " ".join(part for part in (head, extra) if part)
        elif puzzle.template is not None:  # --template: as written, then filled in
            line = f"{puzzle.template.written} {puzzle.substitute(puzzle.template, solution.mapping)}"
        else:
            written = " ".join(f"({expression.written})" for expression in puzzle.expressions)
            filled = " ".join(f"({puzzle.substitute(expression, solution.mapping)})"
                              for expression in puzzle.expressions)
            line = f"{written} {filled}"
        if symbols:
            line += f" / {symbols}"
        if answer is not None:
            line += f" / {answer}"
        return line

    def fields(self) -> dict[str, Any]:
        fields = {"formula": self.puzzle.text, "syntax": "enigma", "solver": self.puzzle.solver}
        if self.puzzle.answer is not None:
            fields["answer"] = self.puzzle.answer.text
        return fields

    def solution_fields(self, solution: Solution, answer: str | None = None) -> dict[str, Any]:
        return {"mapping": self.symbols(solution.mapping), "text": self.line(solution, answer)}

    def summary(self, verdict: Verdict, answers: Sequence[tuple[str, int]]) -> list[str] | None:
        """The answers with their counts, then `[N solutions; how the search ended]`, as enigma.py ends a run."""
        lines = [f"answer = {value} [{solutions(times)}]" for value, times in answers]
        seconds = f"{verdict.seconds:.2f} s"
        if verdict.status is Status.UNKNOWN:
            return lines + [f"[{solutions(verdict.count)} found; search incomplete ({verdict.reason}), so more may "
                            f"exist; {seconds}]"]
        if verdict.status is Status.FOUND:
            return lines + [f"[{solutions(verdict.count)}; stopped as asked, more may exist; {seconds}]"]
        return lines + [f"[{solutions(verdict.count)}; search complete, {seconds}]"]


def solutions(count: int) -> str:
    return f"{count} solution{'' if count == 1 else 's'}"


def formula_filler(formula: str, problem: Problem) -> Callable[[dict[str, int]], str]:
    """Our formula's text with each letter's digit in, by one `str.format` a solution: its capitals are
    the letters of its words (a function's name, `and`, `not` and `in` are lowercase, a number digits)."""
    letters = sorted(problem.letters)
    place = {letter: "{" + str(index) + "}" for index, letter in enumerate(letters)}
    template = "".join(place.get(ch, ch) for ch in formula.replace("{", "{{").replace("}", "}}"))
    digit = digit_writer(problem.rules.base)
    return lambda mapping: template.format(*map(digit, map(mapping.__getitem__, letters)))


def division_text(operands: Sequence[str], mapping: Mapping[str, int], base: int) -> str:
    """`a / b = c (rem r) [x - y = z, ...]` of a solution of a long division: its dividend, divisor and
    quotient (`operands`, by their cells' names) read off the solution's mapping, the steps worked out."""
    dividend, divisor, quotient = ([int(name) if name.isdigit() else mapping[name] for name in names]
                                   for names in operands)
    value = 0
    for digit in divisor:
        value = value * base + digit
    steps, current = [], 0
    for digit in dividend:
        current = current * base + digit
        times, remainder = divmod(current, value)
        if times:
            step = (number_text(current, base), number_text(value * times, base), number_text(remainder, base))
            steps.append("{} - {} = {}".format(*step))
        current = remainder
    written = ["".join(map(digit_char, digits)) for digits in (dividend, divisor, quotient)]
    return f"{written[0]} / {written[1]} = {written[2]} (rem {number_text(current, base)}) [{', '.join(steps)}]"


def read(text: str | Sequence[str], options: NoOptions, rules: Rules | None, /) -> Reading:
    """The checked problem of an enigma.py command line: the solver's name and its arguments as a
    list (`["SubstitutedSum", "SEND + MORE = MONEY"]`), or as text (one line, or a run file with
    comments and continued lines); its options and rules are the command line's own (`rules`, the
    shared ones, is None)."""
    clock = Clock()
    with clock("parse"):
        argv = read_runfile(text) if isinstance(text, str) else list(text)
        puzzle = read_command(argv)
    if puzzle.impossible is not None:  # no search can find what enigma.py's check rules out
        with clock("check"):
            problem = check(never(), Rules(base=puzzle.rules.base))
        view = EnigmaView(puzzle, View())
        return Reading("enigma", puzzle.text, problem, puzzle.rules, view, clock.seconds, first=puzzle.first,
                       impossible=puzzle.impossible)
    if puzzle.layout is not None:  # a division: its rows read, with --extra as its conditions
        with clock("parse"):
            layout = puzzle.layout.read()
        inner = layout_reading.checked(layout, puzzle.tree, puzzle.rules)
        for stage, seconds in inner.seconds.items():
            clock.seconds[stage] = clock.seconds.get(stage, 0.0) + seconds
        problem = inner.problem
        view = EnigmaView(puzzle, inner.view)
    else:  # the expressions' tree, built as they were read, its spans in the puzzle's text
        assert puzzle.tree is not None
        with clock("check"):
            problem = check(puzzle.tree, puzzle.rules)
        view = EnigmaView(puzzle, View())
    return Reading("enigma", puzzle.text, problem, puzzle.rules, view, clock.seconds, first=puzzle.first)
