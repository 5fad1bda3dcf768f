"""Cryptator's collection, as kept in benchmarks/collection/: every file is the one its manifest
records (copied verbatim: its length and its puzzles), every puzzle reads through the Cryptator door,
and a seeded draw of small ones counts what the benchmark's brute force counts (it reads Cryptator's
text itself and shares nothing with smtcrypt). The whole collection is timed by
`python benchmarks/run.py --only collection`."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench.collection import SAMPLE, NotHandled, brute_count, load, read_equations, symbols_of  # noqa: E402

from smtcrypt import Puzzle  # noqa: E402
from smtcrypt.notations import read  # noqa: E402

MANIFEST = SAMPLE / "MANIFEST.tsv"
DRAW = {"sums": 3, "multiplications": 3, "crosswords": 1, "long multiplications": 1}  # of at most SMALL symbols
SMALL = 7


def manifest() -> dict[str, tuple[int, int]]:
    """file -> (characters, puzzles), as recorded when the file was copied."""
    rows = {}
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, characters, puzzles, _commit = line.split("\t")
            rows[name] = (int(characters), int(puzzles))
    return rows


def test_each_kept_file_is_the_one_its_manifest_records() -> None:
    recorded = manifest()
    kept = {path.relative_to(SAMPLE).as_posix(): path for path in SAMPLE.rglob("*.db.txt")}
    assert sorted(kept) == sorted(recorded)
    for name, path in kept.items():
        text = path.read_text(encoding="utf-8")
        puzzles = sum(1 for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
        assert (len(text), puzzles) == recorded[name], name
    assert sum(puzzles for _, puzzles in recorded.values()) == 2_755


def test_every_kind_reads_through_the_cryptator_door() -> None:
    """Every tenth puzzle each run, of every kind and file; all of them in the slow run."""
    entries = load(SAMPLE)
    assert len(entries) == 2_755
    assert {entry.kind for entry in entries} == {"sums", "multiplications", "long multiplications", "crosswords"}
    reads_through_the_door(entries[::10])


@pytest.mark.slow  # 2,755 readings, about 5 s
def test_every_puzzle_reads_through_the_cryptator_door() -> None:
    reads_through_the_door(load(SAMPLE))


def reads_through_the_door(entries: list) -> None:
    assert {entry.kind for entry in entries} == {"sums", "multiplications", "long multiplications", "crosswords"}
    for entry in entries:
        reading = read(entry.text, "cryptator")
        assert reading.problem.letters, entry.where


def test_a_seeded_draw_counts_as_a_brute_force_does() -> None:
    small: dict[str, list] = {}
    for entry in load(SAMPLE):
        try:
            equations = read_equations(entry.text)
        except NotHandled:
            continue
        if len(symbols_of(equations)) <= SMALL:
            small.setdefault(entry.kind, []).append(entry)
    rng = random.Random(2024)
    draw = [entry for kind, size in DRAW.items() for entry in rng.sample(small[kind], size)]
    for entry in draw:
        assert Puzzle.read(entry.text, "cryptator").count(timeout=60) == brute_count(entry.text), entry.where


def test_the_brute_force_counts_cryptators_rules() -> None:
    assert brute_count("to + go = out") == 1  # 21 + 81 = 102
    assert brute_count("a * b = ca") == 6  # 2 * 6 = 12, 4 * 6 = 24, 5 * 3 = 15, 5 * 7 = 35, 5 * 9 = 45, 8 * 6 = 48
    assert brute_count("a + b = c") == 32  # single letters are not 0 either: a + b <= 9, a != b
    assert brute_count("in * go = kan && in * '1' + km * '10' = kan && in * g = km && in * o = in") == 1
