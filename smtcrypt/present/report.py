"""One way out: what one search found, written from the notation's view, the verdict and the
solutions, the same for `smtcrypt --json`, `smtcrypt batch` and the web API.

A `Report` is made once a puzzle, from its `Reading`. It writes each solution as the notation shows it
(`entry`: the user's own symbols, the formula as written, filled in; a line of `--json-lines`, a
solution of the web's answer), tallies the answer the notation's own command asks for (enigma.py's
`--answer`), and writes the verdict's object (`verdict`), which holds the notation's fields in place of
ours: so the same puzzle gives the same JSON object by every interface, only each interface's own
fields beside it (batch's `line`), and the seconds, differing.

    >>> from smtcrypt.notations import read
    >>> Report(read("send + more = money", "cryptator")).fields()["letters"]["s"]
    'S'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.notations import Reading
from smtcrypt.present.answers import value_json, value_text
from smtcrypt.present.data import solution_data, solution_dict, to_dict
from smtcrypt.present.optimum import to_dict as optimum_fields
from smtcrypt.present.text import summary_line
from smtcrypt.setters.answers import Expression, Value
from smtcrypt.setters.optimum import Optimum


class Report:
    """The output of one puzzle's search, in its notation's own terms.

    Made before the search: the notation's answer expression is checked here (a `FormulaError` for a
    bad one, before any search)."""

    def __init__(self, reading: Reading):
        self.reading = reading
        self.view = reading.view
        self.base = reading.rules.base
        self.answer = None if self.view.answer is None else Expression(self.view.answer, reading.problem)
        self.tally: dict[Value, int] = {}

    def fields(self) -> dict[str, Any]:
        """What the object says of the puzzle as written, besides the verdict (its formula, its syntax)."""
        return self.view.fields()

    def value(self, solution: Solution) -> str | None:
        """The answer's value for `solution`, as text (None where the notation asks for none)."""
        return None if self.answer is None else value_text(self.answer.value(solution.mapping, self.base))

    def found(self, solution: Solution) -> str | None:
        """A solution as it is found: its answer tallied, and its value as text (see `value`)."""
        if self.answer is None:
            return None
        value = self.answer.value(solution.mapping, self.base)
        self.tally[value] = self.tally.get(value, 0) + 1
        return value_text(value)

    def line(self, solution: Solution, value: str | None = None) -> str:
        """A solution as the notation prints it, a line of text (the answer's `value` shown, if any)."""
        return self.view.line(solution, value)

    def entry(self, solution: Solution, value: str | None = None) -> dict[str, Any]:
        """A solution as the object lists it, and as a line of `--json-lines`: mapping (in the user's
        symbols), text (and what the notation adds: the formula as written, filled in)."""
        fields = self.view.solution_fields(solution, value)
        return fields if fields is not None else solution_dict(solution)

    def page(self, solution: Solution) -> dict[str, Any]:
        """A solution as the web page shows it as it is found: its entry, its line, its long-hand layout."""
        value = self.found(solution)
        return solution_data(solution, self.entry(solution, value), self.line(solution, value))

    def answers(self) -> list[tuple[Value, int]]:
        """Each value the answer took, with how many solutions give it, in the order the text shows them."""
        return sorted(self.tally.items(), key=lambda item: str(item[0]))

    def verdict(self, verdict: Verdict, *, stats: bool = False, solutions: bool = True,
                limit: int | None = None) -> dict[str, Any]:
        """The object: `present.data.to_dict`'s, with the notation's fields and its solutions
        (`solutions=False`: without the list, for `--count`, `--json-lines` and a stream), and the
        answers tallied, where the notation asks for an answer."""
        entries = [self.entry(solution, self.value(solution)) for solution in verdict.solutions] if solutions else None
        data = to_dict(verdict, stats=stats, solutions=solutions, limit=limit, fields=self.fields(), entries=entries)
        if self.answer is not None:
            data["answers"] = [{"value": value_json(value), "count": count} for value, count in self.answers()]
        return data

    def optimum(self, result: Optimum, *, stats: bool = False, solutions: bool = True) -> dict[str, Any]:
        """The object of an optimisation (`--maximize`, `--minimize`): the verdict's, its solutions those
        attaining the optimum, with the optimum's fields (`present.optimum.to_dict`)."""
        data = self.verdict(result.as_verdict, stats=stats, solutions=solutions)
        if stats and result.verdict.stats is not None:  # the last search's costs, with that search's proof
            data["stats"] = result.verdict.stats.as_dict(result.verdict.proof)
        data.update(optimum_fields(result))
        return data

    def hint(self, verdict: Verdict) -> str | None:
        """What the user most likely meant, where a verdict suggests a slip: lowercase words of our
        formula language are integer unknowns, not words of digits, and `send + more = money` so read
        has infinitely many solutions."""
        problem = self.reading.problem
        words = [name for name in problem.unknowns if len(name) > 1]
        if verdict.status is not Status.INFINITE or self.reading.syntax != "smtcrypt" or problem.letters or not words:
            return None
        return (f"lowercase names such as {words[0]!r} are whole numbers, not words of digits: write the words in "
                f"capitals ({words[0].upper()}), or give --syntax cryptator to read lowercase words as Cryptator does")

    def summary(self, verdict: Verdict) -> list[str]:
        """The lines that end a run of text output: the notation's own, or the usual summary line."""
        answers: Sequence[tuple[str, int]] = [(value_text(value), count) for value, count in self.answers()]
        lines = self.view.summary(verdict, answers)
        return lines if lines is not None else [summary_line(verdict)]
