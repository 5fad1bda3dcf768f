"""Puzzle generation: every puzzle of a shape over a word list whose verdict is `unique`, proved.

A shape is a template (`template`): an equation of word slots and fixed words. Cheap filters
come first (more letters than the base has digits, magnitudes that cannot balance): the word
index (`index`) builds only the candidates that pass them, one chunk per shape and leading word,
and `distribute` runs the chunks on local processes or a Dask cluster, resumably.
Sums and differences are then decided by an exhaustive search (the sum kernel,
`smtcrypt.engine.sums`), which settles a candidate in microseconds and whose "exactly one" is a complete proof; each
puzzle it finds unique is re-checked exactly before it is reported and, with `confirm`, proved
unique a second time by the solver. Products, and rules the column search does not model (other
bases, digit domains, groups), go to the solver directly.

The parts: `template` (shapes as templates), `shapes` (candidates and the magnitude filter),
`index` (only the candidates that pass the filters), `keys` (a sum up to renaming letters),
`decide` (the search, the solver and the re-check), `batches` (the candidates the kernel compiled
by numba, where it is installed, decides a batch at a time), `results`
(puzzles and totals), `sample` (random puzzles of a big list). The genres: `doubly`
(doubly-true puzzles of number words);
`crossword` and `crossword_search` (grids of sums); long multiplications whose every printed row is
a word: `longmul` (the enumeration and the puzzles), `multiply` (their rows, searched by the digits backend),
`partials` (what a multiplicand times a digit spells).
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from smtcrypt.core.rules import Rules, rules_of
from smtcrypt.search import DEFAULT_TIMEOUT
from smtcrypt.setters.distribute import Checkpoint, run_chunks
from smtcrypt.setters.generate.crossword import (
    Crossword,
    CrosswordTotals,
    crossword_formula,
    crossword_layout,
    generate_crosswords,
    grid_solutions,
)
from smtcrypt.setters.generate.decide import (
    Checker,
    Decider,
    GenerateTask,
    Setting,
    SolverProof,
    confirm_unique,
    load_solver,
    solver_verdict,
)
from smtcrypt.setters.generate.doubly import doubly_true
from smtcrypt.setters.generate.keys import KEY_SEARCH, LOAD_FIRST, Key, Words, WordTable, search_key
from smtcrypt.setters.generate.longmul import GeneratedLayout, LongMultiplication, LongTotals, long_multiplications
from smtcrypt.setters.generate.results import VERDICTS, Block, Generated, Totals, hand_out
from smtcrypt.setters.generate.rules import RuleOptions, given_rules
from smtcrypt.setters.generate.sample import DEFAULT_DRAWS, Sampler
from smtcrypt.setters.generate.shapes import (
    SHAPES,
    Parts,
    Shape,
    as_sum,
    candidate_count,
    candidates,
    clean,
    fits,
    formula_of,
    lengths_fit,
)
from smtcrypt.setters.generate.template import Template, addend_templates, parse_template

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["SHAPES", "VERDICTS", "Block", "Checker", "Crossword", "CrosswordTotals", "Decider", "GenerateTask",
           "Generated", "GeneratedLayout", "Key", "LongMultiplication", "LongTotals", "Parts", "Sampler", "Setting",
           "Shape", "SolverProof", "Template", "Totals", "WordTable", "Words", "addend_templates", "as_sum",
           "candidate_count", "candidates", "clean", "confirm_unique", "crossword_formula", "crossword_layout",
           "doubly_true", "fits", "formula_of", "generate", "generate_crosswords", "grid_solutions", "lengths_fit",
           "long_multiplications", "parse_template", "run_header", "sample", "search_key", "solver_verdict",
           "templates_of"]


def run_header(settings: Sequence[Setting], words: Sequence[str]) -> dict[str, Any]:
    """What names a run in its checkpoint file: a file is resumed only by the same run."""
    digest = hashlib.sha256("\n".join(words).encode()).hexdigest()
    first = settings[0]
    return {"smtcrypt": "generate", "shape": first.shape if len(settings) == 1 else [s.shape for s in settings],
            "rules": given_rules(first.rules), "timeout": first.timeout, "confirm": first.confirm,
            **({"distinct_words": True} if first.distinct_words else {}), "words": len(words), "words_sha256": digest}


def templates_of(shape: str, addends: range | None) -> list[Template]:
    """The shapes of a run: the template, or with `addends` the sums of each size onto its right side."""
    return addend_templates(shape, addends) if addends is not None else [parse_template(shape)]


def generate(words: Iterable[str], shape: str = "A + B = C", *, limit: int | None = None,
             timeout: float = DEFAULT_TIMEOUT, totals: Totals | None = None,
             progress: Callable[[Totals], None] | None = None, jobs: int = 1, confirm: bool = False,
             scheduler: Any = None, checkpoint: str | os.PathLike[str] | None = None,
             addends: range | None = None, distinct_words: bool = False, rules: Rules | None = None,
             **options: Unpack[RuleOptions]) -> Iterator[Generated]:
    """Every puzzle of `shape` over `words` with exactly one solution, proved; `totals` is filled in.

    `shape` is a template (`A + B = C`, `A * B = C * D`, `A + B = MONEY`: single capitals are
    slots, longer words fixed); `addends=range(2, 7)` runs the sums of 2 to 6 slots onto its right
    side in one go, and `distinct_words` puts no word twice in a puzzle.
    The puzzle's rules are `rules` (a `Rules`, from `smtcrypt.core.rules.make_rules`) or the rule
    keywords, as for `Puzzle` (`base=16`, `allow_leading_zeros=True`, ...): made once for the run.
    Sums and differences are decided by an exhaustive search (the sum kernel), once per shape of sum
    up to renaming letters: a complete proof, and the exact re-check of each solution always
    runs; with `confirm` Z3 proves each puzzle found unique a second time, independently. The
    work is split into chunks, one per shape and word (the candidates it leads); `jobs` processes
    share them, or the Dask cluster at `scheduler` (an address, or a `distributed.Client`). A
    `checkpoint` file records finished chunks, and a run given the same file again skips them.
    Puzzles come in the order of the shapes and of the word list, whatever runs them.
    """
    templates = templates_of(shape, addends)  # a bad shape is a FormulaError with a caret
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    made = rules_of(rules, options)  # bad rules are refused before any work starts
    totals = totals if totals is not None else Totals()
    start = time.monotonic()
    kept, totals.skipped_words = clean(words, any_script=True)
    totals.words = len(kept)
    settings = tuple(Setting(template.text, made, timeout, confirm, distinct_words) for template in templates)
    # With distinct words, a slot never takes a word the template fixes.
    pools = tuple(tuple(word for word in kept if not (distinct_words and word in template.fixed))
                  for template in templates)
    totals.expected = sum(candidate_count(template, len(pool), distinct_words)
                          for template, pool in zip(templates, pools))
    task = GenerateTask(settings, pools)
    totals.chunks = task.chunks
    saved = Checkpoint(checkpoint, run_header(settings, kept)) if checkpoint is not None else None

    def finished(done: int, chunks: int) -> None:
        totals.chunks_done = done
        totals.seconds = time.monotonic() - start
        if progress is not None:
            progress(totals)

    if jobs > 1 and scheduler is None and any(setting.confirm and setting.by_search for setting in settings):
        load_solver()  # forked processes inherit the solver instead of each importing it
    if totals.expected >= LOAD_FIRST and scheduler is None and any(setting.by_search for setting in settings):
        KEY_SEARCH.load()  # a large run: the compiled search from the start, in this process and those it forks
    blocks = run_chunks(task, task.chunks, jobs=jobs, scheduler=scheduler, checkpoint=saved,
                        encode=Block.to_data, decode=Block.from_data, finished=finished)

    def done() -> None:
        if saved is not None:
            saved.close()
        totals.seconds = time.monotonic() - start

    yield from hand_out(blocks, totals, limit, done)


def sample(words: Iterable[str], shape: str = "A + B = C", count: int = 10, *, seed: int = 0,
           draws: int = DEFAULT_DRAWS, timeout: float = DEFAULT_TIMEOUT, totals: Totals | None = None,
           progress: Callable[[Totals], None] | None = None, confirm: bool = False, addends: range | None = None,
           distinct_words: bool = False, rules: Rules | None = None,
           **options: Unpack[RuleOptions]) -> Iterator[Generated]:
    """`count` random puzzles of `shape` (of each shape, with `addends`) with exactly one solution,
    proved, without enumerating the candidates: for word lists too big to run through (`sample`).

    The same `seed`, words and shape give the same puzzles. Each shape stops after `draws` random
    draws, with fewer puzzles if it found fewer; `totals.draws` says how many were made.
    """
    templates = templates_of(shape, addends)
    if count < 1 or draws < 1:
        raise ValueError("count and draws must be at least 1")
    made = rules_of(rules, options)
    totals = totals if totals is not None else Totals()
    start = time.monotonic()
    kept, totals.skipped_words = clean(words, any_script=True)
    totals.words = len(kept)

    def timed(totals: Totals) -> None:
        totals.seconds = time.monotonic() - start
        if progress is not None:
            progress(totals)

    try:
        for template in templates:
            setting = Setting(template.text, made, timeout, confirm, distinct_words)
            pool = [word for word in kept if not (distinct_words and word in template.fixed)]
            if pool:
                yield from Sampler(setting, pool, seed=seed, draws=draws, totals=totals).puzzles(count, timed)
    finally:
        totals.seconds = time.monotonic() - start
