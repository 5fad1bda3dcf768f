"""The work of one request: reading the puzzle, searching, explaining, a move of a game, a worksheet.

It runs where the request can be ended from outside: in a process of its own on the server
(`process.py`), or in the page's Web Worker in the browser (`browser.py`). Either way its messages
go to an `Outbox`:

    ("start", {"formula", "letters", "timeout",    a search has read its puzzle and begins (`fields`: what
               "fields"})                          its verdict's object says of the puzzle as written)
    ("solution", {...})                          one solution of a stream, as the page shows it
    ("solutions", [{...}, ...])                  solutions of a JSON answer, in batches
    ("found", n)                                 the count so far, every PROGRESS_EVERY seconds
    ("done", verdict, shown)                     the verdict (`smtcrypt --json`'s object, its
                                                 solutions sent before)
    ("result", data)                             the answer of any other work
    ("refused", status, body)                    bad input: the 4xx to answer
    ("memory",)                                  the work ran out of the memory it may use
    ("error", text)                              an internal error

Nothing here imports the web framework, starts a thread or a process, or limits memory: the
browser has none of them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from smtcrypt.api import Puzzle
from smtcrypt.core.check import Problem
from smtcrypt.core.letters import is_wildcard
from smtcrypt.errors import FormulaError
from smtcrypt.present.report import Report
from smtcrypt.search import DEFAULT_MEMORY_MB, Search
from smtcrypt.search.verdicts import impossible
from smtcrypt.setters.answers import Expression
from smtcrypt.web.query import BadQuery, Query, formula_error, puzzle_of

STREAMED_SOLUTIONS = 200  # solutions sent one by one to the page; past this only the count grows
BATCH = 1000  # solutions of a JSON answer sent to the server at once
MIN_SECONDS = 0.01  # what a search is given when reading its puzzle used up the time


@dataclass
class Job:
    """One request's work, and the seconds it may take from the start of its process, reading the
    puzzle included: the work gets the time left (`seconds_left`)."""

    kind: str  # "search", "check", "explain", "play" or "worksheet"
    timeout: float
    query: Query | None = None  # the search's, the check's and the explanation's puzzle and options
    stream: bool = False  # a search: each solution as an event (the page), or the verdict only (the JSON API)
    body: Any = None  # a move: the request's JSON; a worksheet: (formulas, title, paper)
    memory_mb: int = DEFAULT_MEMORY_MB
    deadline: float = math.inf  # a `time.monotonic()` moment, set where the work starts

    def start_clock(self) -> None:
        self.deadline = time.monotonic() + self.timeout

    def seconds_left(self) -> float:
        return max(self.deadline - time.monotonic(), MIN_SECONDS)


class Outbox:
    """Where a job's messages go: the pipe to the server (`process.Channel`), or the page itself where
    the work runs in the browser (`browser.py`). The search it runs is kept, for a stop that comes."""

    def __init__(self) -> None:
        self.search: Search | None = None
        self.stop_requested = False

    def send(self, message: tuple[Any, ...]) -> None:
        raise NotImplementedError

    def counting(self) -> Callable[[], None]:
        """Start sending the count found so far, where something can send it while the search runs;
        returns what ends it. Here, nothing: the verdict carries the count."""
        return lambda: None


def named_letters(problem: Problem) -> list[str]:
    """The puzzle's letters as the user wrote them: the hidden names of its `?`s are no letters to show."""
    return [letter for letter in problem.letters if not is_wildcard(letter)]


def search(outbox: Outbox, job: Job) -> None:
    """Read the puzzle, search within the time left, send the solutions and the verdict, written by
    the one report of every interface (`present.report`): the object `smtcrypt --json` prints."""
    query = job.query
    assert query is not None
    started = time.monotonic()
    puzzle = puzzle_of(query)
    mode = query.mode
    try:
        output = Report(puzzle.reading)
    except FormulaError as error:  # the notation's answer expression (enigma.py's --answer)
        raise formula_error(error) from None
    if query.objective is not None:
        optimum(outbox, job, puzzle, output, started)
        return
    options = {**query.search_options, "timeout": job.seconds_left()}
    try:
        searching = puzzle.search(**options, keep=mode != "count")  # a count is the number only, as `--count --json`
    except ValueError as error:  # a strategy that cannot search this puzzle
        raise BadQuery(400, str(error), option="strategy") from None
    outbox.search = searching
    if outbox.stop_requested:
        searching.request_stop()
    problem = puzzle.problem
    outbox.send(("start", {"formula": problem.source, "letters": named_letters(problem),
                            "timeout": job.timeout,  # the request's limit; the search has what is left
                            "fields": {"formula": searching.formula, **output.fields()}}))
    if puzzle.reading.impossible is not None:  # ruled out before any search, as on the command line
        outbox.send(("done", output.verdict(impossible(puzzle.reading.text, time.monotonic() - started),
                                             stats=query.stats, solutions=False), 0))
        return
    stop_counting = outbox.counting()
    shown, batch = 0, []
    try:
        for solution in searching:
            if job.stream:
                if shown < STREAMED_SOLUTIONS:
                    shown += 1
                    outbox.send(("solution", {"event": "solution", "index": shown, **output.page(solution)}))
                    # the page shows no more: count the rest without making them, unless an answer tallies each
                    if shown == STREAMED_SOLUTIONS and output.answer is None:
                        searching.keep = False
                else:
                    output.found(solution)
            else:
                batch.append(output.entry(solution, output.found(solution)))
                if len(batch) >= BATCH:
                    outbox.send(("solutions", batch))
                    batch = []
        if batch:
            outbox.send(("solutions", batch))
        verdict = output.verdict(searching.verdict(), stats=query.stats, solutions=False)
    finally:
        stop_counting()
    outbox.send(("done", verdict, shown))


def optimum(outbox: Outbox, job: Job, puzzle: Puzzle, output: Report, started: float) -> None:
    """A search for the best value (maximize= or minimize=), its messages as a search's: the solutions
    attaining it (with mode=unique, two where more do), then the optimisation's object."""
    query = job.query
    assert query is not None and query.objective is not None
    sense, expression = query.objective
    problem = puzzle.problem
    try:  # the objective checked before the search starts, as a formula is: refused with its caret
        Expression(expression, problem)
        if query.strategy != "auto":
            puzzle.search(strategy=query.strategy)  # a strategy that cannot search this puzzle says so here
    except FormulaError as error:
        raise BadQuery(400, f"error in {sense}: {error.message}", option=sense, column=error.column,
                       snippet=error.snippet) from None
    except ValueError as error:
        raise BadQuery(400, str(error), option="strategy") from None
    outbox.send(("start", {"formula": problem.source, "letters": named_letters(problem), "timeout": job.timeout,
                           "fields": {"formula": puzzle.view.formula or problem.source, **output.fields()}}))
    result = puzzle.optimize(expression, sense=sense, unique=query.mode == "unique", timeout=job.seconds_left(),
                             strategy=query.strategy)
    for index, solution in enumerate(result.solutions, 1):
        if job.stream:
            outbox.send(("solution", {"event": "solution", "index": index, **output.page(solution)}))
        else:
            outbox.send(("solutions", [output.entry(solution, output.found(solution))]))
    outbox.send(("done", output.optimum(result, stats=query.stats, solutions=False), len(result.solutions)))


def check(job: Job) -> dict[str, Any]:
    assert job.query is not None
    problem = puzzle_of(job.query).problem
    return {"ok": True, "letters": named_letters(problem), "unknowns": list(problem.unknowns)}


def explain(job: Job) -> dict[str, Any]:
    assert job.query is not None
    puzzle = puzzle_of(job.query)
    from smtcrypt.present.data import explanation  # (the teaching code loads where it is asked for: see WORK)

    return explanation(puzzle, job.seconds_left())


def move(job: Job) -> dict[str, Any]:
    from smtcrypt.web.play import play

    return play(job.body, job.seconds_left())


def worksheet(job: Job) -> str:
    from smtcrypt.teach.worksheet import build_worksheet

    formulas, title, paper = job.body
    seconds = job.seconds_left()
    try:  # the whole sheet within the limit
        return build_worksheet(formulas, title=title, paper=paper, timeout=seconds, total=seconds)
    except FormulaError as error:
        raise formula_error(error) from None


# The work other than a search. Each loads the teaching code it needs when first asked: a search's
# process, or the page's searches worker (where loading Python costs seconds), never needs it.
WORK: dict[str, Callable[[Job], Any]] = {"check": check, "explain": explain, "play": move, "worksheet": worksheet}
