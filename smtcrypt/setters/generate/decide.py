"""Deciding candidates: sums by the column-free search once per key (a complete proof), confirmed
by the exact re-check and, with `confirm`, the solver's own proof; products and other rules by the
solver alone."""

from __future__ import annotations

import functools
import itertools
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from smtcrypt.core.check import Problem, check
from smtcrypt.core.parse import parse
from smtcrypt.core.results import Solution, Status, fill_in
from smtcrypt.core.rules import Rules
from smtcrypt.core.tree import Constraints
from smtcrypt.core.verify import satisfies
from smtcrypt.search import Search
from smtcrypt.setters.distribute import PerThread
from smtcrypt.setters.generate.batches import LastSlotBatches
from smtcrypt.setters.generate.index import WordIndex
from smtcrypt.setters.generate.keys import KEY_CACHE, KEY_SEARCH, Key, WordTable, search_key_cached
from smtcrypt.setters.generate.results import TALLY, Block, Generated, Totals
from smtcrypt.setters.generate.rules import given_rules
from smtcrypt.setters.generate.shapes import Parts, letter_mask
from smtcrypt.setters.generate.template import Template, parse_template

SUM_RULES = {"distinct", "allow_leading_zeros"}  # the rules the column search models; others go to the solver


def named_letters(rules: Rules) -> int:
    """The letters `--assign`, `--domain` and `--distinct` groups name, as a mask."""
    return letter_mask("".join([*rules.assign, *rules.domains, *(rules.groups or ())]))


@dataclass(frozen=True)
class Setting:
    """What every candidate of a run shares."""

    shape: str  # the template's text
    rules: Rules  # made once per run, at the edge (`core.rules.rules_of`): never validated again per candidate
    timeout: float  # seconds for each call to the solver
    confirm: bool = False  # Z3 proves each puzzle the search found unique a second time (--confirm)
    distinct_words: bool = False  # no word twice in a puzzle

    def __post_init__(self) -> None:
        # Refused where it is made: a dict of rules would fail deep in a worker process, candidate by candidate.
        if not isinstance(self.rules, Rules):
            raise TypeError(f"a Setting's rules are a Rules (smtcrypt.core.rules.make_rules), "
                            f"not {type(self.rules).__name__}")

    @property
    def template(self) -> Template:
        return parse_template(self.shape)

    @property
    def by_search(self) -> bool:
        """Sums and differences under rules the column-free search models go to the sum kernel
        (`smtcrypt.engine.sums`): all letters distinct or none (groups of distinct letters go to the
        solver), leading zeros or not."""
        return (self.template.linear and set(given_rules(self.rules)) <= SUM_RULES
                and self.rules.groups is None)

    @property
    def base(self) -> int:
        return self.rules.base


class SolverProof:
    """The solver's own proof that a puzzle has just the solution the search found, in one Z3
    context kept for the whole run by one process: making a context costs more than the proof.
    Z3 and the encoders are imported here, with the first proof, so that the command line's
    `--help` and a run that never proves anything do not load the solver."""

    def __init__(self) -> None:
        from smtcrypt.encode.base import Context

        self.context = Context()

    def unique(self, problem: Problem, mapping: dict[str, int]) -> bool:
        from smtcrypt.encode import encode
        from smtcrypt.engine.z3search import ModelSearch

        TALLY.add("proofs")
        # No deadline, so no watchdog thread touches the shared context: the finite-domain solver
        # decides a base-10 sum (ten letters at most) quickly.
        encoded = encode(problem, self.context)
        if encoded.interchangeable:  # symmetric letters: let the search find and permute models
            models = ModelSearch(encoded)
            found = list(itertools.islice(models, 2))
            return models.end is not None and models.end.complete and found == [mapping]
        models = ModelSearch(encoded, blocked=[mapping])  # blocked from the start: one `unsat` proves there is no other
        return next(iter(models), None) is None and models.end is not None and models.end.complete


def load_solver() -> None:
    """Import Z3 and the encoders now: a run about to fork its processes does it once for all of
    them, instead of each process at its first proof."""
    import smtcrypt.encode
    import smtcrypt.engine.z3search  # noqa: F401 - loaded for the processes forked next


def confirm_unique(setting: Setting, formula: str, mapping: dict[str, int],
                   proof: Callable[[Problem, dict[str, int]], bool] | None,
                   tree: Constraints | None = None) -> Solution | None:
    """The exact re-check of a solution the search found unique and, given a `proof`, the solver's
    own verdict; None if either disagrees (such a puzzle is never reported). `tree`: the formula's
    tree, made already (`Template.tree`, a layout's own nodes)."""
    problem = check(tree if tree is not None else parse(formula), setting.rules)
    if not satisfies(problem, mapping) or (proof is not None and not proof(problem, mapping)):
        return None
    return Solution(mapping, fill_in(problem, mapping))


def solver_verdict(setting: Setting, formula: str) -> tuple[Status, Solution | None]:
    """The solver's verdict on a candidate (products, and rules the search does not model); a
    search stopped early (`found`) did not decide, so it counts as unknown."""
    problem = check(parse(formula), setting.rules)
    TALLY.add("solver")
    verdict = Search(problem, timeout=setting.timeout, decide=True).verdict()
    status = verdict.status if verdict.status is not Status.FOUND else Status.UNKNOWN
    return status, verdict.solutions[0] if verdict.status is Status.UNIQUE else None


class Decider:
    """Decides candidates of one setting (one template) in one process: sums by the column search,
    once per key, confirmed; the rest by the solver. Every genre's candidates go through it."""

    def __init__(self, setting: Setting, words: Sequence[str]):
        self.setting = setting
        self.words = words
        self.table = WordTable(words, setting.rules)
        self.template = setting.template
        self.fixed_mask = letter_mask("".join(self.template.fixed))
        self.named = named_letters(setting.rules)
        self.by_search = setting.by_search  # asked once: it reads the rules and the template
        self.solver = SolverProof() if setting.confirm and self.by_search else None
        self.proved: dict[Key, bool] = {}  # the solver's verdict, once per key (bounded like the search's)

    def holds_named(self, parts: Parts) -> bool:
        """Does the candidate hold every letter the rules name? (The checker refuses a rule about a
        letter the formula does not have, so a candidate without it cannot follow the rules.)"""
        mask = self.fixed_mask
        for word in parts:
            mask |= self.table.masks[word]
        return mask & self.named == self.named

    def decide(self, parts: Parts) -> tuple[Status, Solution | None]:
        if not self.by_search:
            return solver_verdict(self.setting, self.template.formula(parts))
        key, letters = self.table.key(self.template, parts)
        count, digits = search_key_cached(key, self.table.distinct, self.setting.base)
        if count != 1 or digits is None:
            return (Status.NONE if count == 0 else Status.MULTIPLE), None
        return self.confirmed(parts, dict(zip(letters, digits)), key)

    def confirmed(self, parts: Parts, mapping: dict[str, int],
                  key: Key | None = None) -> tuple[Status, Solution | None]:
        """The verdict on a sum the search found unique: re-checked exactly and, with `confirm`,
        proved by the solver (once per key)."""
        proof = None
        if self.solver is not None:
            proof = functools.partial(self.proof, key if key is not None else self.table.key(self.template, parts)[0])
        formula = self.template.formula(parts)
        tree = self.template.tree(parts) if formula.isascii() else None  # other scripts: the parser normalises them
        solution = confirm_unique(self.setting, formula, dict(sorted(mapping.items())), proof, tree)
        return (Status.UNIQUE, solution) if solution is not None else (Status.UNKNOWN, None)

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


class Checker(Decider):
    """Decides the candidates of one run that pass the filters, chunk by chunk (the candidates led
    by one word), in one process. A key's verdict is remembered in a bounded cache: two sums with
    one key are usually searched once."""

    def __init__(self, setting: Setting, words: Sequence[str]):
        super().__init__(setting, words)
        self.index = WordIndex(words, self.template, self.table.distinct, setting.base,
                               leading_zeros=not self.table.leading, distinct_words=setting.distinct_words)
        # Sums of distinct letters, each candidate once without a mirror check, every one decided:
        # batches once the compiled search is loaded (`batches`).
        self.batchable = (self.by_search and self.table.distinct and self.template.mirror is None
                          and not self.named and self.index.linear)
        self.batches: LastSlotBatches | None = None

    def batched(self) -> LastSlotBatches | None:
        """The run's batches, once this process has loaded the compiled search; None to decide the
        candidates one at a time."""
        if self.batches is None and self.batchable and KEY_SEARCH.ready():
            assert KEY_SEARCH.batch is not None
            batches = LastSlotBatches(self.words, self.template, self.index, self.setting.base, self.table.leading,
                                      KEY_SEARCH.batch)
            self.batchable = batches.fits()
            self.batches = batches if self.batchable else None
        return self.batches

    def block(self, first: int) -> Block:
        batches = self.batched()
        if batches is not None:
            return self.block_of_batches(first, batches)
        template = self.template
        totals, puzzles = Totals(), []
        passed = 0
        for indices in self.index.chunk(first):
            parts = tuple(self.words[index] for index in indices)
            if self.named and not self.holds_named(parts):
                continue  # filtered: a letter the rules name is not in this puzzle
            passed += 1
            status, solution = self.decide(parts)
            totals.count(status)
            if solution is not None:
                puzzles.append(Generated(template.formula(parts), solution))
        # The filtered candidates are counted, not built: the chunk's share of the plain loops.
        totals.candidates = self.index.chunk_size(first)
        totals.filtered = totals.candidates - passed
        totals.by_shape[self.setting.shape] = len(puzzles)
        return Block(totals, puzzles)

    def block_of_batches(self, first: int, batches: LastSlotBatches) -> Block:
        """`block`, a batch of candidates at a time: the same verdicts and puzzles, in the same order."""
        totals, puzzles = Totals(), []
        passed = 0
        for batch in batches.chunk(first):
            passed += len(batch.candidates)
            TALLY.add("compiled", len(batch.candidates))
            totals.verdicts[Status.NONE.value] += int(np.count_nonzero(batch.counts == 0))
            totals.verdicts[Status.MULTIPLE.value] += int(np.count_nonzero(batch.counts >= 2))
            for position, mapping in batch.solutions.items():
                parts = tuple(self.words[index] for index in batch.candidates[position])
                status, solution = self.confirmed(parts, mapping)
                totals.count(status)
                if solution is not None:
                    puzzles.append(Generated(self.template.formula(parts), solution))
        totals.candidates = self.index.chunk_size(first)
        totals.filtered = totals.candidates - passed
        totals.by_shape[self.setting.shape] = len(puzzles)
        return Block(totals, puzzles)


_checkers = PerThread()


@dataclass(frozen=True)
class GenerateTask:
    """One run's work, sent once to each process or Dask worker: one setting per shape, and the
    words its slots take; `task(chunk)` is the chunk of the candidates of one shape led by one
    word (the shapes' chunks one after the other)."""

    settings: tuple[Setting, ...]
    pools: tuple[tuple[str, ...], ...]
    token: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def chunks(self) -> int:
        return sum(len(pool) for pool in self.pools)

    def locate(self, chunk: int) -> tuple[int, int]:
        """(shape, first word) of a chunk."""
        for shape, pool in enumerate(self.pools):
            if chunk < len(pool):
                return shape, chunk
            chunk -= len(pool)
        raise IndexError("no such chunk")

    def __call__(self, chunk: int) -> Block:
        shape, first = self.locate(chunk)
        checkers: dict[int, Checker] = _checkers.get(self.token, dict)
        if shape not in checkers:
            checkers[shape] = Checker(self.settings[shape], self.pools[shape])
        before = TALLY.now()
        block = checkers[shape].block(first)
        block.totals.work = TALLY.since(before)  # this chunk's searches and proofs, wherever it ran
        return block
