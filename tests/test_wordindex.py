"""The word index: exactly the candidates of the plain loops that pass the filters, in their order."""

import random
import string

import pytest

from smtcrypt.core.rules import make_rules
from smtcrypt.setters.generate import SHAPES, Words, candidate_count, candidates
from smtcrypt.setters.generate.index import WordIndex, letter_mask


def random_words(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    words = {"".join(rng.choice(string.ascii_uppercase[:rng.choice([6, 12, 26])]) for _ in range(rng.randint(1, 8)))
             for _ in range(count)}
    return sorted(words, key=lambda word: rng.random())


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("distinct", [True, False])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_index_gives_the_plain_loops_candidates_that_pass_the_filters(shape, distinct, seed):
    words = random_words(seed, 14 if shape == "A + B + C = D" else 30)
    table = Words(words, make_rules(distinct=distinct))
    index = WordIndex(words, shape, distinct)
    total = 0
    for first in range(index.chunks()):
        plain = list(candidates(shape, words, first))
        total += len(plain)
        assert index.chunk_size(first) == len(plain)
        expected = [parts for parts in plain if table.passes_filters(shape, parts)]
        assert [tuple(words[i] for i in found) for found in index.chunk(first)] == expected
    assert total == candidate_count(shape, len(words))


def test_the_index_drops_what_the_filters_drop():
    words = ["ABCDEF", "GHIJKL", "AB", "CDE", "ABCDE", "MNOPQR"]
    index = WordIndex(words, "A + B = C")
    found = [tuple(words[i] for i in parts) for first in range(len(words)) for parts in index.chunk(first)]
    assert ("ABCDEF", "GHIJKL", "MNOPQR") not in found  # 18 letters
    assert all(len(c) in (max(len(a), len(b)), max(len(a), len(b)) + 1) for a, b, c in found)
    assert ("AB", "CDE", "ABCDE") not in found and ("AB", "AB", "CDE") in found
    assert letter_mask("ABBA") == 0b11
