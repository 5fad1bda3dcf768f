"""The generator's compiled sum search (`kernel.count_sum`): the same answers as `wordsum`'s search,
run as plain Python and compiled by numba, and the same puzzles from a whole run either way."""

from __future__ import annotations

import random

import numpy as np
import pytest

from smtcrypt.setters.generate import Totals, generate
from smtcrypt.setters.generate import keys as keys_module
from smtcrypt.setters.generate.kernel import KeySearch, count_sum, fits_int64
from smtcrypt.setters.wordsum import solve_weights, weights

WORDS = ["SEND", "MORE", "MONEY", "EAT", "THAT", "APPLE", "CROSS", "ROADS", "DANGER", "TEN", "NINE", "FORTY",
         "SIXTY", "ODD", "EVEN", "TWO", "FOUR", "SIX", "GREEN", "ORANGE", "COLOR", "BASE", "BALL", "GAMES"]


def compiled_or_skip():
    pytest.importorskip("numba", reason="the compiled search needs numba: pip install 'smtcrypt[fast]'")
    from smtcrypt.setters.generate.kernel import compiled_counter

    return compiled_counter()


def random_sums(seed: int, count: int, base: int = 10):
    """(codes, weights, lowest) of random word sums over ten letters, some with cancelling letters."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        words = ["".join(rng.choice("ABCDEFGHIJ") for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(3, 5))]
        weight = weights(words[:-1], words[-1], base)
        if len(weight) < 4:
            continue
        letters = sorted(weight, key=lambda letter: -abs(weight[letter]))
        w = [weight[letter] for letter in letters]
        lowest = [rng.randint(0, 1) for _ in letters]
        found += 1
        yield [2 * x + low for x, low in zip(w, lowest)], w, lowest


def expected(w: list[int], lowest: list[int], base: int) -> tuple[int, tuple[int, ...] | None]:
    every = solve_weights(w, lowest, base=base)
    return min(2, len(every)), every[0] if len(every) == 1 else None


def answer(counter, codes: list[int], base: int) -> tuple[int, tuple[int, ...] | None]:
    out = np.zeros(len(codes), np.int64)
    found = counter(np.array(codes, np.int64), base, 2, out)
    return found, tuple(int(digit) for digit in out) if found == 1 else None


@pytest.mark.parametrize("base", [10, 16])
def test_the_search_as_plain_python_finds_what_wordsum_finds(base):
    for codes, w, lowest in random_sums(base, 150, base):
        assert answer(count_sum, codes, base) == expected(w, lowest, base), codes


@pytest.mark.parametrize("base", [10, 12])
def test_the_compiled_search_finds_what_wordsum_finds(base):
    counter = compiled_or_skip()
    for codes, w, lowest in random_sums(100 + base, 2000, base):
        assert answer(counter, codes, base) == expected(w, lowest, base), codes


def test_sums_too_large_for_64_bits_stay_in_python():
    assert fits_int64((2 * 10**9, -(10**9), 3, -4), 10)
    assert not fits_int64((2 * 10**18, -(10**18), 3, -4), 10)
    search = KeySearch(after=0, allowed=True)
    search.counter = count_sum  # as if compiled: no numba needed to test the choice
    assert search.compiled((2 * 10**18, -(10**18), 3, -4), 10) is None
    assert search.compiled((2000, -1000, 3, -4), 10) is count_sum
    assert search.compiled((4, -2, 1), 10) is None  # fewer than four letters: `wordsum`'s search


def test_python_first_then_compiled_after_enough_sums():
    search = KeySearch(after=3, allowed=True)
    search.counter = None
    assert [search.compiled((2000, -1000, 3, -4), 10) for _ in range(3)] == [None, None, None]
    assert search.searched == 3
    assert KeySearch(after=0, allowed=False).compiled((2000, -1000, 3, -4), 10) is None  # numba missing


@pytest.mark.parametrize("shape", ["A + B = C", "A + B + C = D", "A - B = C"])
def test_a_run_gives_the_same_puzzles_compiled_or_not(monkeypatch, shape):
    compiled_or_skip()
    runs = []
    for search in (KeySearch(allowed=False), KeySearch(after=0, allowed=True)):
        monkeypatch.setattr(keys_module, "KEY_SEARCH", search)
        keys_module.search_key_cached.cache_clear()
        totals = Totals()
        puzzles = [(puzzle.formula, puzzle.solution.mapping) for puzzle in generate(WORDS, shape, totals=totals)]
        runs.append((puzzles, dict(totals.verdicts), totals.candidates, totals.filtered))
    keys_module.search_key_cached.cache_clear()
    assert runs[0] == runs[1]
    assert runs[0][1]["unique"] > 0 and runs[0][1]["none"] > 0
