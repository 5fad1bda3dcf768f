"""The generator's use of the sum kernel (engine/sums/compiled.py): `count_sums` for a batch of sums that
differ in one word, run as plain Python and compiled by numba, against an independent search; the
choice of plain Python or compiled (`KeySearch`); and the same puzzles from a whole run either way."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_sums_kernel import magnitude_search

from smtcrypt.engine.sums import compiled as kernel
from smtcrypt.engine.sums.compiled import compiled_available, count_sums, search_codes, search_masks
from smtcrypt.setters.generate import Totals, generate
from smtcrypt.setters.generate import decide as decide_module
from smtcrypt.setters.generate import keys as keys_module
from smtcrypt.setters.generate.keys import KeySearch

WORDS = ["SEND", "MORE", "MONEY", "EAT", "THAT", "APPLE", "CROSS", "ROADS", "DANGER", "TEN", "NINE", "FORTY",
         "SIXTY", "ODD", "EVEN", "TWO", "FOUR", "SIX", "GREEN", "ORANGE", "COLOR", "BASE", "BALL", "GAMES"]


def compiled_or_skip():
    pytest.importorskip("numba", reason="the compiled search needs numba: pip install 'smtcrypt[fast]'")
    return kernel.compiled()


def expected(w: list[int], lowest: list[int], base: int) -> tuple[int, tuple[int, ...] | None]:
    every = magnitude_search(w, lowest, base=base)
    return min(2, len(every)), every[0] if len(every) == 1 else None


def batch_against_a_magnitude_search(batch, seed: int, rounds: int, base: int = 10) -> None:
    """Sums OTHERS + coefficient * WORD = 0 for random other words and a batch of last words."""
    rng = random.Random(seed)
    alphabet = "ABCDEFGHIJ"
    for _ in range(rounds):
        others = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 3))]
        signs = [rng.choice((1, 1, -1)) for _ in others]
        coefficient = rng.choice((-1, 1, 2))
        lasts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(8)]
        leading = rng.random() < 0.7
        rows = np.zeros((3, len(alphabet)), np.int64)
        for word, sign in zip(others, signs):
            for position, letter in enumerate(reversed(word)):
                rows[0, alphabet.index(letter)] += sign * base ** position
                rows[1, alphabet.index(letter)] = 1
            if leading and len(word) > 1:
                rows[2, alphabet.index(word[0])] = 1
        letters = np.array([alphabet.index(letter) for word in lasts for letter in word], np.int64)
        starts = np.cumsum([0] + [len(word) for word in lasts]).astype(np.int64)
        counts = np.empty(len(lasts), np.int64)
        digits = np.empty((len(lasts), len(alphabet)), np.int64)
        batch(rows, coefficient, int(leading), letters, starts, np.arange(len(lasts), dtype=np.int64), base, 2, counts,
              digits)
        for j, word in enumerate(lasts):
            weight: dict[str, int] = {}
            for other, sign in [*zip(others, signs), (word, coefficient)]:
                for position, letter in enumerate(reversed(other)):
                    weight[letter] = weight.get(letter, 0) + sign * base ** position
            heads = {w[0] for w in [*others, word] if len(w) > 1} if leading else set()
            names = sorted(weight)
            every = magnitude_search([weight[name] for name in names], [int(name in heads) for name in names],
                                     base=base)
            assert counts[j] == min(2, len(every)), (others, signs, coefficient, word)
            if len(every) == 1:
                assert {name: int(digits[j, alphabet.index(name)]) for name in names} == dict(zip(names, every[0]))
                assert all(digits[j, k] == -1 for k, name in enumerate(alphabet) if name not in weight)


def test_a_batch_as_plain_python_finds_what_a_magnitude_search_finds(monkeypatch):
    monkeypatch.setattr(kernel, "SEARCH", search_masks)  # the plain search, even after another test compiled it
    batch_against_a_magnitude_search(count_sums, 1, 40)


@pytest.mark.parametrize("rounds", [100, pytest.param(600, marks=pytest.mark.slow)])
def test_the_compiled_batch_finds_what_a_magnitude_search_finds(rounds):
    batch = compiled_or_skip().batch
    batch_against_a_magnitude_search(batch, 2, rounds)


KEY = (2000, -1000, 3, -4)  # weights 1000, -500, 1, -2; the third letter may not be zero


def key_answer(key):
    return expected([code >> 1 for code in key], [code & 1 for code in key], 10)


def test_sums_too_large_for_64_bits_stay_in_python():
    search = KeySearch(after=0, allowed=True)
    search.counter = search_codes  # as if compiled: no numba needed to test the choice
    assert search.count((2 * 10**18, -(10**18), 3, -4), 10) is None
    assert search.count(KEY, 10) == key_answer(KEY)
    assert search.count((4, -2, 1), 10) is None  # fewer than four letters: the plain search


def test_python_first_then_compiled_after_enough_sums():
    search = KeySearch(after=3, allowed=False)
    assert [search.count(KEY, 10) for _ in range(3)] == [None, None, None]
    assert search.searched == 3 and not search.ready()  # numba missing: Python for good
    search = KeySearch(after=3, allowed=True)
    assert [search.count(KEY, 10) for _ in range(3)] == [None, None, None]  # Python for the first three
    assert search.searched == 3
    if compiled_available():  # the fourth loads the compiled search
        assert search.count(KEY, 10) == key_answer(KEY) and search.counter is not None


# the shapes of four words are whole runs of tens of seconds: in the slow run
@pytest.mark.parametrize("shape, options", [
    ("A + B = C", {}),
    pytest.param("A + B + C = D", {}, marks=pytest.mark.slow),
    ("A - B = C", {}),
    ("A + B = C", {"allow_leading_zeros": True}),
    pytest.param("A + B + C = D", {"distinct_words": True}, marks=pytest.mark.slow),
    ("A + B = MONEY", {}),
    pytest.param("A + B = C + D", {}, marks=pytest.mark.slow),  # a mirrored shape: decided one candidate at a time
])
def test_a_run_gives_the_same_puzzles_compiled_or_not(monkeypatch, shape, options):
    compiled_or_skip()
    runs = []
    for search in (KeySearch(allowed=False), KeySearch(after=0, allowed=True)):
        monkeypatch.setattr(keys_module, "KEY_SEARCH", search)
        monkeypatch.setattr(decide_module, "KEY_SEARCH", search)
        keys_module.search_key_cached.cache_clear()
        totals = Totals()
        puzzles = [(puzzle.formula, puzzle.solution.mapping) for puzzle in generate(WORDS, shape, totals=totals, **options)]
        runs.append((puzzles, dict(totals.verdicts), totals.candidates, totals.filtered))
    keys_module.search_key_cached.cache_clear()
    assert runs[0] == runs[1]
    assert runs[0][1]["none"] > 0


def test_the_totals_say_which_search_decided_the_sums(monkeypatch):
    """`Totals.work` (what `generate --stats` prints): the sums searched in plain Python before numba
    is loaded, by the compiled search after (one at a time or a batch at a time)."""
    compiled_or_skip()
    for search, way in ((KeySearch(allowed=False), "python"), (KeySearch(after=0, allowed=True), "compiled")):
        monkeypatch.setattr(keys_module, "KEY_SEARCH", search)
        monkeypatch.setattr(decide_module, "KEY_SEARCH", search)
        keys_module.search_key_cached.cache_clear()
        totals = Totals()
        list(generate(WORDS, totals=totals))
        other = "compiled" if way == "python" else "python"
        assert totals.work[way] > 0, totals.work
        assert totals.work[other] < totals.work[way]  # sums of fewer than four letters stay in Python
    keys_module.search_key_cached.cache_clear()
