"""Shapes as templates: every unique puzzle of a template over a small list, each once, against a
brute force that tries every ordered filling of the slots and every assignment of digits."""

from __future__ import annotations

import functools
import itertools
import json
import operator
import random
import re
from collections.abc import Iterable

import pytest

import smtcrypt
from smtcrypt.core.rules import Rules
from smtcrypt.errors import FormulaError
from smtcrypt.setters.generate import Totals, candidate_count, candidates, generate, parse_template
from smtcrypt.setters.generate.index import WordIndex
from smtcrypt.setters.generate.keys import WordTable

# template -> the slots that trade places freely (written out here, not computed by the generator)
TEMPLATES = {
    "A + B = C": [("A", "B")],
    "A - B = C": [("B", "C")],
    "A + B + C = D": [("A", "B", "C")],
    "A * B = C": [("A", "B")],
    "A * B = C * D": [("A", "B"), ("C", "D")],
    "A + B = C + D": [("A", "B"), ("C", "D")],
    "A + A = B": [],
    "A + B = CAB": [("A", "B")],
    "A * B * C = D": [("A", "B", "C")],
    "A + B + A = C": [],
}


MIRRORED = {"A * B = C * D", "A + B = C + D"}


@functools.cache
def brute_count(formula: str) -> tuple[int, tuple[tuple[str, int], ...] | None]:
    """Solutions by trying every assignment of distinct digits, no leading zero (at most 2 counted)."""
    words = re.findall(r"[A-Z]+", formula)
    letters = sorted(set("".join(words)))
    heads = sorted({letters.index(word[0]) for word in words if len(word) > 1})
    sides = []  # each side: [(sign, [(letter indices, place values) for each factor])]
    for side in formula.split(" = "):
        terms, sign = [], 1
        for term in re.split(r" ([-+]) ", side):
            if term in "+-":
                sign = 1 if term == "+" else -1
                continue
            terms.append((sign, [([letters.index(letter) for letter in reversed(word)], [10 ** place for place in range(len(word))])
                                 for word in term.split(" * ")]))
        sides.append(terms)

    def value(terms, digits) -> int:
        total = 0
        for sign, factors in terms:
            product = 1
            for indices, places in factors:
                product *= sum(map(operator.mul, map(digits.__getitem__, indices), places))
            total += sign * product
        return total

    # sums only: the two sides are equal where one linear form (the left side minus the right) is zero
    linear = all(len(factors) == 1 for side in sides for _, factors in side)
    weights = [0] * len(letters)
    for side, outer in zip(sides, (1, -1)) if linear else ():
        for sign, ((indices, places),) in side:
            for index, place in zip(indices, places):
                weights[index] += outer * sign * place

    found, count = None, 0
    every: Iterable[tuple[int, ...]] = itertools.permutations(range(10), len(letters))
    for head in heads:
        every = filter(operator.itemgetter(head), every)  # no 0 at the head of a word
    for digits in every:
        if sum(map(operator.mul, weights, digits)) == 0 if linear else value(sides[0], digits) == value(sides[1], digits):
            count += 1
            found = tuple(zip(letters, digits))
            if count == 2:
                return 2, None
    return count, found if count == 1 else None


def fill(template: str, assignment: dict[str, str]) -> str:
    return " ".join(assignment.get(token, token) for token in template.split(" "))


def expected(template: str, words: list[str], distinct_words: bool) -> tuple[dict[str, tuple], dict, int]:
    """Every ordered filling's formula -> its puzzle up to the order of interchangeable slots; the
    unique puzzles with their solutions; and how many puzzles there are in all."""
    slots = sorted(set(re.findall(r"\b[A-Z]\b", template)))
    fixed = set(re.findall(r"\b[A-Z]{2,}\b", template))
    groups = TEMPLATES[template]
    classes, unique = {}, {}
    for chosen in itertools.product(words, repeat=len(slots)):
        if distinct_words and (len(set(chosen)) < len(chosen) or set(chosen) & fixed):
            continue
        assignment = dict(zip(slots, chosen))
        loose = set(slots) - {slot for group in groups for slot in group}
        key = (tuple(tuple(sorted(assignment[slot] for slot in group)) for group in groups),
               tuple(assignment[slot] for slot in sorted(loose)))
        if template in MIRRORED:  # the sides swapped are the same puzzle
            key = min(key, (key[0][::-1], key[1]))
        formula = fill(template, assignment)
        classes[formula] = key
    puzzles = set(classes.values())
    for formula, key in classes.items():
        if key in unique:
            continue
        count, mapping = brute_count(formula)
        if count == 1:
            unique[key] = dict(mapping)
    return classes, unique, len(puzzles)


def small_words(seed: int, count: int, letters: str = "ABCD") -> list[str]:
    rng = random.Random(seed)
    found: dict[str, None] = {}
    while len(found) < count:
        found["".join(rng.choice(letters) for _ in range(rng.choice([1, 2, 2, 3])))] = None
    return list(found)


WORDS = ["AB", "BA", "CA", "ACB", "D", "DA", "BC"]


LARGER = {"A + B + C = D", "A * B = C * D", "A + B = C + D", "A * B * C = D"}  # seconds each: in the slow run


@pytest.mark.parametrize("template", [pytest.param(template, marks=pytest.mark.slow) if template in LARGER else template
                                      for template in TEMPLATES])
@pytest.mark.parametrize("distinct_words", [False, True])
def test_each_unique_puzzle_once_against_a_brute_force(template, distinct_words):
    words = WORDS[:5] if len(set(re.findall(r"\b[A-Z]\b", template))) > 3 else WORDS
    classes, unique, puzzles = expected(template, words, distinct_words)
    totals = Totals()
    found = list(generate(words, template, totals=totals, distinct_words=distinct_words))
    keys = [classes[puzzle.formula] for puzzle in found]
    assert len(keys) == len(set(keys)), "a puzzle listed twice in another order of its terms"
    assert set(keys) == set(unique)
    for puzzle, key in zip(found, keys):
        assert puzzle.solution.mapping == unique[key]
    assert totals.candidates == candidate_count(template, len(words), distinct_words)
    if template not in MIRRORED:  # a mirrored puzzle and its sides swapped are one candidate each, one filtered
        assert totals.candidates == puzzles
    else:
        assert sum(totals.verdicts.values()) <= puzzles
    assert totals.filtered + sum(totals.verdicts.values()) == totals.candidates
    assert totals.verdicts["unknown"] == 0


@pytest.mark.slow  # the brute force of every template: 10 to 20 s
def test_the_brute_force_finds_puzzles_to_compare():
    """The table above is not vacuous: most templates have unique puzzles over the small list."""
    having = [template for template in TEMPLATES if expected(template, WORDS[:5], False)[1]]
    assert len(having) >= 6


@pytest.mark.parametrize("template", ["A + B = C", "A + B + C = D", "A * B = C * D", "A - B = C", "A + B = CAB"])
@pytest.mark.parametrize("distinct_words", [False, True])
@pytest.mark.parametrize("seed", [3, 4])
def test_the_index_gives_the_plain_loops_that_pass_the_filters(template, distinct_words, seed):
    words = small_words(seed, 9, "ABCDEFGHIJKLM")
    table = WordTable(words, Rules())
    index = WordIndex(words, template, distinct_words=distinct_words)
    total = 0
    for first in range(len(words)):
        plain = list(candidates(template, words, first, distinct_words=distinct_words))
        total += len(plain)
        assert index.chunk_size(first) == len(plain)
        passing = [parts for parts in plain if table.passes_filters(template, parts)]
        slots = parse_template(template).slots
        assert [tuple(words[i] for i in found) for found in index.chunk(first)] == passing, (slots, first)
    assert total == candidate_count(template, len(words), distinct_words)


def test_addends_run_each_size_in_order():
    words = ["SEND", "MORE", "MONEY", "ONE", "TWO", "NINE", "TEN", "SIX"]
    totals = Totals()
    together = [(p.formula, p.solution.mapping) for p in generate(words, addends=range(2, 4), totals=totals)]
    apart = [(p.formula, p.solution.mapping) for shape in ("A + B = C", "A + B + C = D") for p in generate(words, shape)]
    assert together == apart
    assert set(totals.by_shape) == {"A + B = C", "A + B + C = D"}
    assert sum(totals.by_shape.values()) == len(together)
    assert totals.candidates == candidate_count("A + B = C", 8) + candidate_count("A + B + C = D", 8)
    onto = [p.formula for p in generate(["SEND", "MORE", "TO", "GO"], "A + B = MONEY", addends=range(2, 3))]
    assert onto == ["SEND + MORE = MONEY"]


def test_templates_and_their_groups():
    assert parse_template("a+b = c").text == "A + B = C"
    assert parse_template("A - B = C").groups == ((1, 2), (0,))
    assert parse_template("A * B = C * D").groups == ((0, 1), (2, 3))
    assert parse_template("A + A = B").groups == ((0,), (1,))
    assert parse_template("A + B = MONEY").fixed == ("MONEY",)
    assert parse_template("A * B + C = D").groups == ((0, 1), (2,), (3,))
    assert parse_template("A * B = C * D").mirror == (2, 3, 0, 1)
    assert parse_template("A + B = C").mirror is None and parse_template("A * B = C").mirror is None


@pytest.mark.parametrize("text, column", [("A + B ^ C", 7), ("A + B", 6), ("A + = C", 5), ("AB + CD = EF", 1),
                                          ("A = B = C", 7), ("A B = C", 3)])
def test_a_bad_template_is_an_error_with_a_caret(text, column):
    with pytest.raises(FormulaError) as error:
        parse_template(text)
    assert error.value.column == column
    assert "^" in str(error.value)


def test_greek_sums_of_two_and_three_as_cryptagen_counts_them():
    """Cryptagen's rules (distinct unordered words, the result another word, at most ten letters,
    no leading zero, one solution): its published counts 4 and 38 for the Greek letter names."""
    greek = ["ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON", "ZETA", "ETA", "THETA", "IOTA", "KAPPA", "LAMBDA", "MU",
             "NU", "XI", "OMICRON", "PI", "RHO", "SIGMA", "TAU", "UPSILON", "PHI", "CHI", "PSI", "OMEGA"]
    totals = Totals()
    found = list(generate(greek, addends=range(2, 4), distinct_words=True, confirm=False, totals=totals))
    assert totals.by_shape == {"A + B = C": 4, "A + B + C = D": 38}
    for puzzle in found[:5]:
        assert smtcrypt.verdict(puzzle.formula).status is smtcrypt.Status.UNIQUE


def test_command_line_shapes(capsys):
    from smtcrypt.cli import main

    assert main(["generate", "--shape", "A + B = MONEY", "SEND", "MORE", "MONEY"]) == 0
    assert capsys.readouterr().out == "SEND + MORE = MONEY  /  9567 + 1085 = 10652\n"
    assert main(["generate", "--json", "--addends", "2-3", "--distinct-words", "SEND", "MORE", "MONEY"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["shapes"] == {"A + B = C": 1, "A + B + C = D": 0}
    assert [p["formula"] for p in data["puzzles"]] == ["SEND + MORE = MONEY"]
    for bad in (["--shape", "A + B ^ C"], ["--addends", "0-3"], ["--addends", "x"]):
        with pytest.raises(SystemExit) as stop:
            main(["generate", *bad, "SEND"])
        assert stop.value.code == 2
    assert "^" in capsys.readouterr().err
    assert main(["generate", "--addends", "2-3", "--shape", "A * B = C", "SEND"]) == 2  # not a sum of slots
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    shown = capsys.readouterr().out
    assert "--addends" in shown and "--distinct-words" in shown and "MONEY" in shown


@pytest.mark.parametrize("seed", range(6))
def test_the_sum_search_finds_what_a_magnitude_search_finds(seed):
    """The generator's search of a key (the sum kernel: its letters reordered, cut by divisibility)
    against an independent search by magnitude alone."""
    from test_sums_kernel import magnitude_search, weights

    from smtcrypt.engine.sums import sum_solutions
    from smtcrypt.setters.generate.keys import key_plan

    rng = random.Random(seed)
    for _ in range(60):
        words = ["".join(rng.choice("ABCDEFGHIJ") for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(3, 7))]
        weight = weights(words[:-1], words[-1])
        if not weight:
            continue
        letters = sorted(weight, key=lambda letter: -abs(weight[letter]))
        w = [weight[letter] for letter in letters]
        lowest = [rng.randint(0, 1) for _ in letters]
        key = tuple(2 * x + low for x, low in zip(w, lowest))
        assert sorted(sum_solutions(key_plan(key, True, 10))) == sorted(magnitude_search(w, lowest))
        assert len(sum_solutions(key_plan(key, True, 10), 2)) == min(2, len(magnitude_search(w, lowest)))


@pytest.mark.parametrize("text", [*TEMPLATES, "A + B = MONEY", "A + B + C = CHRISTMAS", "A - B - C = D"])
def test_a_template_fills_its_tree_as_the_parser_reads_the_formula(text):
    """The re-check reads `Template.tree(parts)` instead of parsing each formula: node for node and
    span for span, it is what the parser makes of the formula's text."""
    from smtcrypt.core.parse import parse

    template = parse_template(text)
    rng = random.Random(text)
    for _ in range(20):
        parts = tuple("".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(1, 9)))
                      for _ in template.slots)
        formula = template.formula(parts)
        assert repr(template.tree(parts)) == repr(parse(formula))
