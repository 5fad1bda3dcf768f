"""The plain reader (core/parse.py's `_PlainReader`) builds the very tree Lark's path builds, spans
included, or leaves the text to Lark: on every formula of the benchmarks' corpora and of Cryptator's
collection as translated, and on seeded random texts of its alphabet, valid or not, `parse` gives the
same tree or the same error with the plain reader and without it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import smtcrypt.core.parse as parsing
from smtcrypt.core.parse import parse
from smtcrypt.core.results import join
from smtcrypt.errors import FormulaError
from smtcrypt.notations.cryptator import translate

ROOT = Path(__file__).resolve().parent.parent
NO_TEXT = re.compile("(?!)")  # matches nothing: every text goes to Lark


def outcome(source: str) -> object:
    """The tree, written out with every span, or the error's kind, message and place."""
    try:
        return repr(parse(source))
    except FormulaError as error:
        return type(error).__name__, str(error), error.position, error.length


def both(source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    plain = outcome(source)
    with monkeypatch.context() as patched:
        patched.setattr(parsing, "_PLAIN_TEXT", NO_TEXT)
        through_lark = outcome(source)
    return plain, through_lark


def corpus_formulas() -> list[str]:
    found = []
    for name in ("corpus.tsv", "products.tsv"):
        for line in (ROOT / "benchmarks" / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                found.append(line.split("\t")[0])
    return found


def collection_formulas() -> list[str]:
    """Cryptator's kept collection, translated: sums, products, conditions of digit counts, one a line."""
    found = []
    for path in sorted((ROOT / "benchmarks" / "collection").rglob("*.db.txt")):
        for line in path.read_text(encoding="utf-8").splitlines()[::7]:  # a seventh of each file: every shape
            if line.strip():
                found.append(join(translate(line.strip()).formulas))
    return found


EDGES = [
    "A + B = C\n\nD = E;", ";;A=B,,", "(A +\n B) = C", "-A ** -B ** 2 = C", "A < B <= C != D", "007 + 7AB = 12",
    "A = (B)", "((A)) = ((B + C) * D)", "A // B % C / D = E", "A\n= B", "A = B\n(C)", "A*-B=--C", "+A=B",
    "(A + B) * (C + D) = EF", "EVIL**(1/2) = -(X)", "A = B = C", "A\t=\fB", "(A == 0) + (B == 0) <= 1\nA + B == C",
    "A" * 1001 + " = B", "0" * 1001 + " = B", "(" * 150 + "A" + ")" * 150 + " = B", "- " * 150 + "A = B",
    "A" + " + A" * 1200 + " = B", "A ** " * 150 + "A = B", "A = B !", "A =! B", "A <> B", "A = ()", "A = (B, C)",
]


def test_every_corpus_formula_reads_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    for source in corpus_formulas() + EDGES:
        plain, through_lark = both(source, monkeypatch)
        assert plain == through_lark, source


def test_cryptators_collection_reads_alike_and_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    formulas = collection_formulas()
    assert len(formulas) > 300
    taken = sum(parsing._PlainReader(source).constraints() is not None for source in formulas)
    assert taken >= 0.95 * len(formulas)  # all but the few with `abs(...)` or letters of other scripts
    for source in formulas:
        plain, through_lark = both(source, monkeypatch)
        assert plain == through_lark, source


def random_expression(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 4 or roll < 0.3:
        return rng.choice(["A", "BC", "7", "12", "0", "3D", "X1", "007"])
    if roll < 0.45:
        return rng.choice(["-", "+"]) + rng.choice(["", " "]) + random_expression(rng, depth + 1)
    if roll < 0.6:
        space = ["", " ", "\n"]
        return "(" + rng.choice(space) + random_expression(rng, depth + 1) + rng.choice(space) + ")"
    op = rng.choice(["+", "-", "*", "/", "//", "%", "**", "=", "==", "<", "<=", "!=", ">", ">="])
    return random_expression(rng, depth + 1) + rng.choice(["", " "]) + op + rng.choice(["", " "]) + \
        random_expression(rng, depth + 1)


def test_random_formulas_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(31)
    for _ in range(600):
        source = rng.choice(["", ";", "\n"]) + ",\n".join(random_expression(rng) for _ in range(rng.randint(1, 3)))
        plain, through_lark = both(source, monkeypatch)
        assert plain == through_lark, source


def test_random_texts_of_its_alphabet_read_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    pieces = ["A", "AB", "7", "07", "7A", "+", "-", "*", "/", "//", "%", "**", "(", ")", "=", "==", "!=", "<",
              "<=", ">", ">=", ",", ";", "\n", " ", "!", "***", "\t"]
    rng = random.Random(47)
    for _ in range(150):  # mostly mistakes: each one is worded by Lark, a few milliseconds apiece
        source = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 10)))
        plain, through_lark = both(source, monkeypatch)
        assert plain == through_lark, source


def test_what_the_plain_reader_leaves_to_lark() -> None:
    for source in ("a + b = c", "ABS(A) = B", "abs(A) = B", "A = B and B = C", "Д + A = B", "0.5 * A = B", "A_B = C",
                   "A = ?", "A in {1, 2}", "A = B \\\n + C", "A = B\r\n", "A = (B, C)", "A ++ = B"):
        assert parsing._PlainReader(source).constraints() is None or not parsing._PLAIN_TEXT.fullmatch(source), source
    assert parsing._PlainReader("SEND + MORE = MONEY").constraints() is not None
