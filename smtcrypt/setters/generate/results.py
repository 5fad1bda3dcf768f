"""What a generator run hands back: unique puzzles, and totals of what it decided."""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.results import Solution, Status

# The verdicts a run counts, in the order its totals show them.
VERDICTS = (Status.UNIQUE, Status.MULTIPLE, Status.NONE, Status.UNKNOWN)
# What decided and proved a run's candidates (`Totals.work`, `--stats`): sums searched by the search
# numba compiled and in plain Python, candidates the solver decided, Z3's second proofs (--confirm).
WORK = ("compiled", "python", "solver", "proofs")


@dataclass
class Totals:
    """What a generator run did: candidates seen, filtered cheaply, and each verdict (keyed by the
    status's name, as the JSON output shows them)."""

    words: int = 0
    skipped_words: int = 0  # not made of the letters A-Z only (number words: more letters than the base has digits)
    candidates: int = 0
    filtered: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: {status.value: 0 for status in VERDICTS})
    seconds: float = 0.0
    expected: int = 0  # candidates in all, known before the run
    chunks: int = 0  # chunks of work in all (one per word), and how many have finished, wherever they ran
    chunks_done: int = 0
    by_shape: dict[str, int] = field(default_factory=dict)  # unique puzzles of each shape (one per --addends size)
    draws: int = 0  # random draws made (a --sample run)
    work: dict[str, int] = field(default_factory=lambda: dict.fromkeys(WORK, 0))  # what decided them (`WORK`)

    def count(self, status: Status) -> None:
        self.verdicts[status.value] += 1

    def add(self, other: Totals) -> None:
        self.candidates += other.candidates
        self.filtered += other.filtered
        for name, value in other.verdicts.items():
            self.verdicts[name] += value
        for shape, value in other.by_shape.items():
            self.by_shape[shape] = self.by_shape.get(shape, 0) + value
        self.add_work(other.work)

    def add_work(self, work: dict[str, int]) -> None:
        for name, value in work.items():
            self.work[name] = self.work.get(name, 0) + value


class Tally(threading.local):
    """This thread's running count of the searches and proofs made (`WORK`), added to where they
    run; a chunk of a run, or one decision, takes the difference over its work (`since`), which
    its totals carry to the process that hands the puzzles out."""

    def __init__(self) -> None:
        self.counts = dict.fromkeys(WORK, 0)

    def add(self, name: str, count: int = 1) -> None:
        self.counts[name] += count

    def now(self) -> dict[str, int]:
        return dict(self.counts)

    def since(self, before: dict[str, int]) -> dict[str, int]:
        return {name: value - before[name] for name, value in self.counts.items()}


TALLY = Tally()


@dataclass(frozen=True)
class Generated:
    formula: str
    solution: Solution


@dataclass
class Block:
    """What the candidates led by one word came to: their totals and unique puzzles, in order."""

    totals: Totals
    puzzles: list[Generated]

    def to_data(self) -> dict[str, Any]:
        """As JSON data, for a checkpoint file."""
        t = self.totals
        return {"candidates": t.candidates, "filtered": t.filtered, "verdicts": t.verdicts, "by_shape": t.by_shape,
                "work": t.work, "puzzles": [[p.formula, p.solution.mapping, p.solution.text] for p in self.puzzles]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Block:
        totals = Totals(candidates=data["candidates"], filtered=data["filtered"], verdicts=dict(data["verdicts"]),
                        by_shape=dict(data.get("by_shape", {})))
        totals.add_work(data.get("work", {}))  # a checkpoint written before `work` has none
        return cls(totals, [Generated(formula, Solution(mapping, text)) for formula, mapping, text in data["puzzles"]])


def hand_out(blocks: Generator[tuple[int, Any], None, None], totals: Any, limit: int | None,
             done: Callable[[], None]) -> Iterator[Any]:
    """The puzzles of the blocks of a run in order, each block's totals added to `totals` (a
    `Totals` or a genre's), until `limit` puzzles; the blocks are closed and `done` is called
    however the caller stops (the limit, an error, Ctrl-C, or a reader that stops reading)."""
    reported = 0
    try:
        for _, block in blocks:
            totals.add(block.totals)
            for puzzle in block.puzzles:
                yield puzzle
                reported += 1
                if limit is not None and reported >= limit:
                    return
    finally:
        blocks.close()
        done()
