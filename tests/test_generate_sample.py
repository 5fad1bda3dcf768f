"""`generate --sample N --seed S`: random unique puzzles without enumerating the list."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

import pytest

import smtcrypt
from smtcrypt.cli import main as cli
from smtcrypt.setters.generate import Totals, generate, sample

WORDS = Path(__file__).resolve().parent.parent / "examples" / "words"
PLANETS = (WORDS / "planets.txt").read_text().split()
GREEK = (WORDS / "greek.txt").read_text().split()


@pytest.fixture(scope="module")
def every_planet_puzzle() -> dict[str, dict[str, int]]:
    return {puzzle.formula: puzzle.solution.mapping for puzzle in generate(PLANETS)}


def test_samples_are_puzzles_the_full_run_finds(every_planet_puzzle):
    found = list(sample(PLANETS, count=8, seed=5, confirm=True))
    assert len(found) == 8
    assert len({puzzle.formula for puzzle in found}) == 8  # never the same puzzle twice
    for puzzle in found:
        assert every_planet_puzzle[puzzle.formula] == puzzle.solution.mapping


def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others():
    first = [puzzle.formula for puzzle in sample(PLANETS, count=5, seed=11)]
    assert [puzzle.formula for puzzle in sample(PLANETS, count=5, seed=11)] == first
    others = {tuple(puzzle.formula for puzzle in sample(PLANETS, count=5, seed=seed)) for seed in range(4)}
    assert len(others) > 1


def test_a_sample_stops_after_its_draws_with_fewer_puzzles_and_says_how_many_draws():
    totals = Totals()
    found = list(sample(PLANETS, count=1000, seed=0, draws=300, totals=totals))
    assert totals.draws == 300
    assert 0 < len(found) <= 26  # the list has 26 unique A + B = C puzzles in all
    assert totals.verdicts["unique"] == len(found)
    assert totals.candidates == sum(totals.verdicts.values()) + totals.filtered


def test_sampling_each_shape_of_an_addend_range_with_distinct_words():
    every = {puzzle.formula for puzzle in generate(GREEK, addends=range(2, 4), distinct_words=True)}
    totals = Totals()
    found = list(sample(GREEK, count=3, seed=2, addends=range(2, 4), distinct_words=True, totals=totals))
    assert totals.by_shape == {"A + B = C": 3, "A + B + C = D": 3}
    assert {puzzle.formula for puzzle in found} <= every
    for puzzle in found:
        words = puzzle.formula.replace("=", "+").split(" + ")
        assert len(set(words)) == len(words)


def test_a_product_shape_is_sampled_through_the_solver():
    found = list(sample(["ODD", "TWO", "SIX", "TEN", "ONE", "FIVE", "NINE", "SEVEN", "EIGHT", "THREE"],
                        "A * B = C", count=2, seed=1, draws=2000))
    assert found
    for puzzle in found:
        assert smtcrypt.verdict(puzzle.formula).status is smtcrypt.Status.UNIQUE


def test_a_large_list_is_sampled_without_enumerating_it():
    rng = random.Random(7)
    words = ["".join(rng.choice(string.ascii_uppercase[:14]) for _ in range(rng.randint(3, 6)))
             for _ in range(20_000)]
    totals = Totals()
    found = list(sample(words, count=3, seed=3, totals=totals))
    assert len(found) == 3
    assert totals.candidates < 20_000  # the full run has about 4 * 10**12 candidates
    for puzzle in found:
        verdict = smtcrypt.verdict(puzzle.formula)
        assert verdict.status is smtcrypt.Status.UNIQUE
        assert verdict.solutions[0].mapping == puzzle.solution.mapping


def test_the_command_line(capsys, tmp_path):
    path = tmp_path / "planets.txt"
    path.write_text("\n".join(PLANETS))
    assert cli(["generate", "--sample", "3", "--seed", "4", "--json", "--words", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["puzzles"]) == 3
    assert data["sample"] == {"count": 3, "seed": 4}
    assert data["totals"]["draws"] >= 3
    assert [p["formula"] for p in data["puzzles"]] == [p.formula for p in sample(PLANETS, count=3, seed=4)]
    assert cli(["generate", "--sample", "40", "--draws", "500", "--words", str(path)]) == 0
    assert "asked for in 500 draws" in capsys.readouterr().err.splitlines()[-1]
    assert cli(["generate", "--sample", "40", "--draws", "1", "--words", str(path)]) == 1  # none found
    for extra in (["--jobs", "2"], ["--limit", "3"], ["--checkpoint", str(tmp_path / "c.json")]):
        with pytest.raises(SystemExit) as raised:
            cli(["generate", "--sample", "3", *extra, "--words", str(path)])
        assert raised.value.code == 2
        assert "--sample" in capsys.readouterr().err


def test_a_small_list_is_found_exhausted_long_before_the_draws_run_out():
    totals = Totals()
    found = list(sample(PLANETS, count=1000, seed=1, totals=totals))
    assert totals.draws < 200_000  # of the default 1,000,000
    assert len(found) >= 20  # of the list's 26 unique A + B = C puzzles (the draws reach nearly all candidates)
