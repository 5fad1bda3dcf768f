"""Crosswords: every N x N grid of distinct words whose rows and columns are sums and that has
exactly one solution, each puzzle once, against a brute force over digit assignments."""

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import smtcrypt
from smtcrypt.setters.generate import (
    CrosswordTotals,
    crossword_formula,
    crossword_layout,
    generate_crosswords,
    grid_solutions,
)

ROOT = Path(__file__).resolve().parent.parent
WORDS = ["A", "C", "D", "E", "AD", "AE", "BA", "BD", "DC", "DE", "EA"]  # five letters, three unique crosswords


def value(word, mapping):
    number = 0
    for letter in word:
        number = number * 10 + mapping[letter]
    return number


def symmetric(grid):
    """The grids that are the same puzzle: the first two rows swapped, the first two columns
    swapped, transposed (3 x 3)."""
    found = set()
    for rows in itertools.permutations(range(2)):
        for columns in itertools.permutations(range(2)):
            order_r, order_c = (*rows, 2), (*columns, 2)
            moved = tuple(tuple(grid[r][c] for c in order_c) for r in order_r)
            found.add(moved)
            found.add(tuple(zip(*moved)))
    return found


def canonical(grid):
    return min(symmetric(grid))


def block(by_word, values):
    """The top-left words a, b, d, e whose sums a + b, a + d, d + e, b + e and a + b + d + e are words' values."""
    for a, b in itertools.permutations(by_word, 2):
        if by_word[a] + by_word[b] not in values:
            continue
        for d in by_word:
            if by_word[a] + by_word[d] not in values:
                continue
            for e in by_word:
                sums = (by_word[d] + by_word[e], by_word[b] + by_word[e], by_word[a] + by_word[b] + by_word[d] + by_word[e])
                if all(number in values for number in sums):
                    yield a, b, d, e


def brute_force(words, leading_zeros=False):
    """Each 3 x 3 grid's solutions, by trying every digit assignment of the list's letters:
    a + b = c, d + e = f, g + h = i, a + d = g, b + e = h, c + f = i, words all different. With
    `leading_zeros`, a word may start with 0 (and two words may then have one value: each value
    keeps every word it can be)."""
    letters = sorted(set("".join(words)))
    solutions = {}
    for digits in itertools.permutations(range(10), len(letters)):
        mapping = dict(zip(letters, digits))
        if leading_zeros:
            for grid in zero_grids(words, mapping):
                used = set("".join(itertools.chain(*grid)))
                solutions.setdefault(canonical(grid), set()).add(tuple(sorted((k, mapping[k]) for k in used)))
            continue
        values = {value(word, mapping): word for word in words if len(word) == 1 or mapping[word[0]]}
        by_word = {word: number for number, word in values.items()}
        for a, b, d, e in block(by_word, values):
            va, vb, vd, ve = by_word[a], by_word[b], by_word[d], by_word[e]
            c, f, g, h, i = (values[number] for number in (va + vb, vd + ve, va + vd, vb + ve, va + vb + vd + ve))
            grid = ((a, b, c), (d, e, f), (g, h, i))
            if len(set(itertools.chain(*grid))) < 9:
                continue
            used = set("".join(itertools.chain(*grid)))
            solutions.setdefault(canonical(grid), set()).add(tuple(sorted((k, mapping[k]) for k in used)))
    return solutions


def zero_grids(words, mapping):
    """The 3 x 3 grids of distinct words whose six sums hold under `mapping`, leading zeros allowed."""
    by_value = {}
    for word in words:
        by_value.setdefault(value(word, mapping), []).append(word)
    number = {word: value(word, mapping) for word in words}
    for a, b in itertools.permutations(words, 2):
        for c in by_value.get(number[a] + number[b], ()):
            for d in words:
                for g in by_value.get(number[a] + number[d], ()):
                    for e in words:
                        for f in by_value.get(number[d] + number[e], ()):
                            for h in by_value.get(number[b] + number[e], ()):
                                for i in by_value.get(number[c] + number[f], ()):
                                    grid = ((a, b, c), (d, e, f), (g, h, i))
                                    if number[g] + number[h] == number[i] and len(set(itertools.chain(*grid))) == 9:
                                        yield grid


@pytest.fixture(scope="module")
def expected():
    return brute_force(WORDS)


@pytest.mark.slow  # the brute force of every grid takes 10 to 30 s; the next test checks a smaller list every run
def test_the_generator_finds_what_the_brute_force_finds(expected):
    totals = CrosswordTotals()
    found = list(generate_crosswords(WORDS, 3, totals=totals, confirm=True))
    grids = [canonical(puzzle.grid) for puzzle in found]
    assert len(grids) == len(set(grids))  # each puzzle once
    assert set(grids) == {grid for grid, solutions in expected.items() if len(solutions) == 1}
    assert len(found) == 3
    assert totals.grids == len(expected)  # every grid with a solution was reached, once
    assert totals.verdicts["unique"] == 3 and totals.verdicts["unknown"] == 0
    for puzzle in found:
        (only,) = expected[canonical(puzzle.grid)]
        assert puzzle.solution.mapping == dict(only)


@pytest.mark.slow  # a brute force of every grid; the default rules' brute force runs every run
def test_leading_zeros_allowed_against_the_brute_force():
    words = ["A", "B", "C", "D", "AB", "BA", "AC", "CA", "BC", "DA", "AD", "CD"]
    expected = brute_force(words, leading_zeros=True)
    found = list(generate_crosswords(words, 3, allow_leading_zeros=True, confirm=True))
    grids = [canonical(puzzle.grid) for puzzle in found]
    assert len(grids) == len(set(grids))
    assert set(grids) == {grid for grid, solutions in expected.items() if len(solutions) == 1}
    assert any(len(solutions) == 1 for solutions in expected.values())
    for puzzle in found:
        (only,) = expected[canonical(puzzle.grid)]
        assert puzzle.solution.mapping == dict(only)
        assert smtcrypt.verdict(puzzle.formula, allow_leading_zeros=True).status is smtcrypt.Status.UNIQUE


def test_the_formula_proves_unique_on_its_own():
    for puzzle in generate_crosswords(WORDS, 3):
        verdict = smtcrypt.verdict(puzzle.formula)
        assert verdict.status is smtcrypt.Status.UNIQUE
        assert verdict.solutions[0].mapping == puzzle.solution.mapping
        assert puzzle.formula.count(" and ") == 5


def test_a_grid_printed_and_decided():
    grid = (("A", "E", "C"), ("DE", "BD", "EA"), ("DC", "BA", "AD"))
    assert crossword_formula(grid) == ("A + E = C and DE + BD = EA and DC + BA = AD and A + DE = DC and "
                                       "E + BD = BA and C + EA = AD")
    assert crossword_layout(grid).splitlines() == [" A +  E =  C", "+    +    +", "DE + BD = EA", "=    =    =",
                                                   "DC + BA = AD"]
    assert grid_solutions(grid) == [{"A": 4, "B": 2, "C": 7, "D": 1, "E": 3}]
    assert smtcrypt.count(crossword_formula(grid)) == 1


def test_bad_sizes_and_rules_are_refused():
    with pytest.raises(ValueError, match="3 x 3"):
        list(generate_crosswords(WORDS, 2))
    with pytest.raises(ValueError, match="digits"):
        list(generate_crosswords(WORDS, 3, digits="0-8"))


def run(*args):
    return subprocess.run([sys.executable, "-m", "smtcrypt", "generate", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_the_command_line_json(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS))
    done = run("--crossword", "3", "--json", "--words", str(words))
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["totals"]["unique"] == len(data["puzzles"]) == 3
    for puzzle in data["puzzles"]:
        assert set(puzzle) >= {"formula", "layout", "solution"}
        assert puzzle["layout"].count("\n") == 4
        assert smtcrypt.verdict(puzzle["formula"]).status is smtcrypt.Status.UNIQUE


def test_the_command_line_text_and_exit_codes(tmp_path):
    done = run("--crossword", "3", *WORDS)
    assert done.returncode == 0 and "DE + BD = EA" in done.stdout and "13 + 21 = 34" in done.stdout
    assert "unique 3" in done.stderr
    assert run("--crossword", "3", "ONE", "TWO", "THREE").returncode == 1  # no grid at all
    assert run("--crossword", "2", *WORDS).returncode == 2
    assert run("--crossword", "3", "--addends", "2-3", *WORDS).returncode == 2
