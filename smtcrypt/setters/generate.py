"""Puzzle generation: every puzzle of a shape over a word list whose verdict is `unique`, proved.

Cheap filters come first (more than ten letters, word lengths that cannot add up): the word
index of `wordindex` builds only the candidates that pass them, one chunk per leading word, and
`distribute` runs the chunks on local processes or a Dask cluster, resumably. Sums and
differences are then decided by the exhaustive column search of `wordsum`, which settles a
candidate in microseconds; each puzzle it finds unique is confirmed by the solver's own verdict
and by the exact re-check before it is reported. Products, and rules the column search does not
model (bases, digit domains), go to the solver directly.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import os
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.core.check import Problem, check
from smtcrypt.core.parse import parse
from smtcrypt.core.results import Solution, Status, fill_in
from smtcrypt.core.rules import make_rules
from smtcrypt.core.verify import satisfies
from smtcrypt.search import Search
from smtcrypt.setters.distribute import Checkpoint, PerThread, run_chunks
from smtcrypt.setters.wordindex import WordIndex
from smtcrypt.setters.wordsum import solve_weights, weights

SHAPES = ("A + B = C", "A + B + C = D", "A * B = C", "A - B = C")
VERDICTS = ("unique", "multiple", "none", "unknown")
SUM_RULES = {"distinct", "allow_leading_zeros"}  # the rules the column search models; others go to the solver

Parts = tuple[str, ...]  # the words of one candidate, in the order of the shape's names A, B, C, D


@dataclass
class Totals:
    """What a generator run did: candidates seen, filtered cheaply, and each verdict."""

    words: int = 0
    skipped_words: int = 0  # not made of the letters A-Z only
    candidates: int = 0
    filtered: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICTS, 0))
    seconds: float = 0.0
    expected: int = 0  # candidates in all, known before the run
    chunks: int = 0  # chunks of work in all (one per word), and how many have finished, wherever they ran
    chunks_done: int = 0

    def add(self, other: Totals) -> None:
        self.candidates += other.candidates
        self.filtered += other.filtered
        for name, value in other.verdicts.items():
            self.verdicts[name] += value


@dataclass(frozen=True)
class Generated:
    formula: str
    solution: Solution


def clean(words: Iterable[str]) -> tuple[list[str], int]:
    """Upper-cased words of the letters A-Z, each once, in order; and how many were skipped."""
    kept: dict[str, None] = {}
    skipped = 0
    for word in words:
        word = word.strip().upper()
        if not word:
            continue
        if word.isascii() and word.isalpha():
            kept[word] = None
        else:
            skipped += 1
    return list(kept), skipped


def as_sum(shape: str, parts: Parts) -> tuple[Parts, str] | None:
    """The addends and the result of a sum shape (`A - B = C` is `B + C = A`); None for products."""
    if shape == "A - B = C":
        return parts[1:], parts[0]
    if shape == "A * B = C":
        return None
    return parts[:-1], parts[-1]


def lengths_fit(shape: str, parts: Parts) -> bool:
    """Can numbers of these lengths (no leading zeros) satisfy the shape at all?"""
    if shape == "A * B = C":
        a, b, c = (len(part) for part in parts)
        return a + b - 1 <= c <= a + b
    addends, result = as_sum(shape, parts)
    longest = max(len(word) for word in addends)
    return longest <= len(result) <= longest + math.ceil(math.log10(len(addends)))


def candidates(shape: str, words: Sequence[str], first: int | None = None) -> Iterator[Parts]:
    """Each puzzle once: addends and factors as unordered choices (A + B = C is B + A = C, and
    A - B = C is A - C = B). With `first`, only the candidates whose first choice is words[first]."""
    choose = 3 if shape == "A + B + C = D" else 2
    starts = range(len(words)) if first is None else [first]
    for start in starts:
        for rest in itertools.combinations_with_replacement(words[start:], choose - 1):
            for other in words:
                if shape == "A - B = C":
                    yield other, words[start], *rest
                else:
                    yield words[start], *rest, other


def candidate_count(shape: str, words: int) -> int:
    choose = 3 if shape == "A + B + C = D" else 2
    return math.comb(words + choose - 1, choose) * words


def formula_of(shape: str, parts: Parts) -> str:
    text = shape
    for name, part in zip("ABCD", parts):
        text = text.replace(name, "{" + name + "}", 1)
    return text.format(**dict(zip("ABCD", parts)))


Key = tuple[int, ...]  # a sum's shape up to renaming letters: sorted 2 * weight + (1 if it leads a word)


@dataclass(frozen=True)
class Setting:
    """What every candidate of a run shares."""

    shape: str
    rules: dict[str, Any]
    timeout: float  # seconds for each call to the solver
    confirm: bool = True  # the solver proves each puzzle the search found unique a second time

    @property
    def by_search(self) -> bool:
        """Sums and differences under rules the column-free search models go to `wordsum`."""
        modelled = {name for name, value in self.rules.items() if not (name == "base" and type(value) is int and value == 10)}
        return self.shape != "A * B = C" and modelled <= SUM_RULES  # an explicit base 10 is the default


class Words:
    """Each word's letters (as a bit mask) and place-value weights, computed once per run."""

    def __init__(self, words: Sequence[str], rules: dict[str, Any]):
        self.masks = {word: sum(1 << (ord(letter) - 65) for letter in set(word)) for word in words}
        self.weights = {word: weights([word], "") for word in words}
        self.distinct = rules.get("distinct", True)
        self.leading = not rules.get("allow_leading_zeros", False)

    def passes_filters(self, shape: str, parts: Parts) -> bool:
        """More than ten letters cannot take distinct digits; lengths must be able to add up."""
        if self.distinct:
            mask = 0
            for word in parts:
                mask |= self.masks[word]
            if mask.bit_count() > 10:
                return False
        return lengths_fit(shape, parts)

    def key(self, shape: str, parts: Parts) -> tuple[Key, list[str]]:
        """The sum's key, and its letters in the key's order. Two sums with one key have the same
        solutions up to renaming letters, so each key is searched once per run."""
        addends, result = as_sum(shape, parts)
        weight: dict[str, int] = {}
        for word in addends:
            for letter, w in self.weights[word].items():
                weight[letter] = weight.get(letter, 0) + w
        for letter, w in self.weights[result].items():
            weight[letter] = weight.get(letter, 0) - w
        heads = {word[0] for word in parts if len(word) > 1} if self.leading else set()
        coded = sorted(((2 * w + (letter in heads), letter) for letter, w in weight.items()),
                       key=lambda pair: (-abs(pair[0]), pair[0]))
        return tuple(code for code, _ in coded), [letter for _, letter in coded]


def search_key(key: Key, distinct: bool) -> tuple[int, tuple[int, ...] | None]:
    """How many solutions a key has (0, 1 or 2 meaning at least two), and the digits of the one."""
    found = solve_weights([code >> 1 for code in key], [code & 1 for code in key], limit=2, distinct=distinct)
    return len(found), found[0] if len(found) == 1 else None


class SolverProof:
    """The solver's own proof that a puzzle has just the solution the search found, in one Z3
    context kept for the whole run by one process: making a context costs more than the proof."""

    def __init__(self) -> None:
        import z3

        self.context = z3.Context()

    def unique(self, problem: Problem, mapping: dict[str, int]) -> bool:
        from smtcrypt.encode import encode
        from smtcrypt.engine.z3search import ModelSearch

        # No deadline, so no watchdog thread touches the shared context: the finite-domain solver
        # decides a sum of at most ten letters in milliseconds.
        encoded = encode(problem, self.context)
        if encoded.interchangeable:  # symmetric letters: let the search find and permute models
            models = ModelSearch(encoded)
            found = list(itertools.islice(models, 2))
            return models.end is not None and models.end.complete and found == [mapping]
        models = ModelSearch(encoded, blocked=[mapping])  # blocked from the start: one `unsat` proves there is no other
        return next(iter(models), None) is None and models.end is not None and models.end.complete


def confirm_unique(setting: Setting, formula: str, mapping: dict[str, int],
                   proof: Callable[[Problem, dict[str, int]], bool] | None) -> Solution | None:
    """The exact re-check of a solution the search found unique and, given a `proof`, the solver's
    own verdict; None if either disagrees (such a puzzle is never reported)."""
    problem = check(parse(formula), make_rules(**setting.rules))
    if not satisfies(problem, mapping) or (proof is not None and not proof(problem, mapping)):
        return None
    return Solution(mapping, fill_in(problem, mapping))


def solver_verdict(setting: Setting, formula: str) -> tuple[str, Solution | None]:
    """The solver's verdict on a candidate (products, and rules the search does not model)."""
    problem = check(parse(formula), make_rules(**setting.rules))
    verdict = Search(problem, timeout=setting.timeout, decide=True).verdict()
    status = verdict.status.value if verdict.status is not Status.FOUND else "unknown"
    return status, verdict.solutions[0] if verdict.status is Status.UNIQUE else None


@dataclass
class Block:
    """What the candidates led by one word came to: their totals and unique puzzles, in order."""

    totals: Totals
    puzzles: list[Generated]

    def to_data(self) -> dict[str, Any]:
        """As JSON data, for a checkpoint file."""
        t = self.totals
        return {"candidates": t.candidates, "filtered": t.filtered, "verdicts": t.verdicts,
                "puzzles": [[p.formula, p.solution.mapping, p.solution.text] for p in self.puzzles]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Block:
        totals = Totals(candidates=data["candidates"], filtered=data["filtered"], verdicts=dict(data["verdicts"]))
        return cls(totals, [Generated(formula, Solution(mapping, text)) for formula, mapping, text in data["puzzles"]])


KEY_CACHE = 1 << 14  # verdicts of keys kept per process: bounded, so memory does not grow with the run


@functools.lru_cache(maxsize=KEY_CACHE)
def search_key_cached(key: Key, distinct: bool) -> tuple[int, tuple[int, ...] | None]:
    return search_key(key, distinct)


class Checker:
    """Decides the candidates of one run that pass the filters, chunk by chunk (the candidates led
    by one word), in one process. A key's verdict is remembered in a bounded cache: two sums with
    one key are usually searched once."""

    def __init__(self, setting: Setting, words: Sequence[str]):
        self.setting = setting
        self.words = words
        self.table = Words(words, setting.rules)
        self.index = WordIndex(words, setting.shape, self.table.distinct)
        self.solver = SolverProof() if setting.confirm and setting.by_search else None
        self.proved: dict[Key, bool] = {}  # the solver's verdict, once per key (bounded like the search's)

    def block(self, first: int) -> Block:
        shape = self.setting.shape
        totals, puzzles = Totals(), []
        words = self.words
        passed = 0
        for indices in self.index.chunk(first):
            passed += 1
            parts = tuple(words[index] for index in indices)
            status, solution = self.decide(parts)
            totals.verdicts[status] += 1
            if solution is not None:
                puzzles.append(Generated(formula_of(shape, parts), solution))
        # The filtered candidates are counted, not built: the chunk's share of the plain loops.
        totals.candidates = self.index.chunk_size(first)
        totals.filtered = totals.candidates - passed
        return Block(totals, puzzles)

    def decide(self, parts: Parts) -> tuple[str, Solution | None]:
        if not self.setting.by_search:
            return solver_verdict(self.setting, formula_of(self.setting.shape, parts))
        key, letters = self.table.key(self.setting.shape, parts)
        count, digits = search_key_cached(key, self.table.distinct)
        if count != 1:
            return ("none" if count == 0 else "multiple"), None
        proof = None if self.solver is None else functools.partial(self.proof, key)
        formula = formula_of(self.setting.shape, parts)
        solution = confirm_unique(self.setting, formula, dict(sorted(zip(letters, digits))), proof)
        return ("unique", solution) if solution is not None else ("unknown", None)

    def proof(self, key: Key, problem: Problem, mapping: dict[str, int]) -> bool:
        """The solver's proof, asked once per key: sums with one key are one problem up to the
        names of their letters, so one proof covers them all."""
        assert self.solver is not None
        proved = self.proved.get(key)
        if proved is None:
            if len(self.proved) >= KEY_CACHE:
                self.proved.clear()
            proved = self.proved[key] = self.solver.unique(problem, mapping)
        return proved


_checkers = PerThread()


@dataclass(frozen=True)
class GenerateTask:
    """One run's work, sent once to each process or Dask worker: `task(first)` is the chunk of the
    candidates led by words[first]."""

    setting: Setting
    words: tuple[str, ...]
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    def __call__(self, first: int) -> Block:
        return _checkers.get(self.token, lambda: Checker(self.setting, self.words)).block(first)


def run_header(setting: Setting, words: Sequence[str]) -> dict[str, Any]:
    """What names a run in its checkpoint file: a file is resumed only by the same run."""
    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()
    return {"smtcrypt": "generate", "shape": setting.shape, "rules": setting.rules, "timeout": setting.timeout,
            "confirm": setting.confirm, "words": len(words), "words_sha256": digest}


def generate(words: Iterable[str], shape: str = "A + B = C", *, limit: int | None = None, timeout: float = 10.0,
             totals: Totals | None = None, progress: Callable[[Totals], None] | None = None, jobs: int = 1,
             confirm: bool = True, scheduler: Any = None, checkpoint: str | os.PathLike[str] | None = None,
             **rules: Any) -> Iterator[Generated]:
    """Every puzzle of `shape` over `words` with exactly one solution, proved; `totals` is filled in.

    Sums and differences are decided by an exhaustive search (`wordsum`), once per shape of sum
    up to renaming letters; with `confirm` (the default) the solver proves each puzzle found unique
    a second time, and the exact re-check always runs. The work is split into chunks, one per
    word (the candidates it leads); `jobs` processes share them, or the Dask cluster at
    `scheduler` (an address, or a `distributed.Client`). A `checkpoint` file records finished
    chunks, and a run given the same file again skips them. Puzzles come in the order of the word
    list, whatever runs them.
    """
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r}: choose one of {', '.join(SHAPES)}")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    totals = totals if totals is not None else Totals()
    start = time.monotonic()
    kept, totals.skipped_words = clean(words)
    totals.words = len(kept)
    totals.expected = candidate_count(shape, len(kept))
    totals.chunks = len(kept)
    setting = Setting(shape, dict(rules), timeout, confirm)
    saved = Checkpoint(checkpoint, run_header(setting, kept)) if checkpoint is not None else None

    def finished(done: int, chunks: int) -> None:
        totals.chunks_done = done
        totals.seconds = time.monotonic() - start
        if progress is not None:
            progress(totals)

    blocks = run_chunks(GenerateTask(setting, tuple(kept)), len(kept), jobs=jobs, scheduler=scheduler,
                        checkpoint=saved, encode=Block.to_data, decode=Block.from_data, finished=finished)
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
        if saved is not None:
            saved.close()
        totals.seconds = time.monotonic() - start
