"""Fuzzing the input: every input ends in solutions, a FormulaError or `unknown`, never another
exception and never a hang; on the command line, exit 0, 1, 2 or 3 and never a traceback."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import smtcrypt
from smtcrypt.errors import FormulaError

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [line.strip() for line in (ROOT / "tests" / "data" / "notebook.txt").read_text().splitlines()
         if line.strip() and not line.startswith("#")]
TOKENS = ["A", "B", "AB", "ABC", "7", "0", "1.5", ".5", "+", "-", "*", "/", "//", "%", "**", "(", ")", "{", "}",
          ",", ";", "\n", "=", "==", "!=", "<", "<=", ">", ">=", "and", "or", "not", "in", "is", "abs", "min",
          "max", "sum", "range", "gcd", "x", "0.(AB)", "AB7", " ", "", "^", "é", "\\", "#", "'"]


def random_inputs(count: int, seed: int):
    rng = random.Random(seed)
    for index in range(count):
        kind = index % 4
        if kind == 0:  # random bytes, decoded leniently
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).decode("utf-8", "replace")
        elif kind == 1:  # random Unicode
            yield "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 30)))
        else:  # a notebook formula with tokens inserted, deleted or swapped
            words = rng.choice(SEEDS).split()
            for _ in range(rng.randrange(1, 4)):
                action, where = rng.randrange(3), rng.randrange(len(words) + 1)
                if action == 0:
                    words.insert(where, rng.choice(TOKENS))
                elif action == 1 and len(words) > 1:
                    del words[min(where, len(words) - 1)]
                elif len(words) > 1:
                    i, j = rng.randrange(len(words)), rng.randrange(len(words))
                    words[i], words[j] = words[j], words[i]
            yield " ".join(words)


def outcome(text: str) -> str:
    try:
        puzzle = smtcrypt.Puzzle(text)
    except FormulaError as error:
        assert isinstance(error, ValueError) and error.message
        return "error"
    verdict = puzzle.search(limit=1, timeout=0.1).verdict()
    for solution in verdict.solutions:
        assert puzzle.is_solution(solution.mapping)
    return verdict.status.value


def fuzz(count: int, seed: int) -> dict[str, int]:
    tally: dict[str, int] = {}
    for text in random_inputs(count, seed):
        result = outcome(text)
        tally[result] = tally.get(result, 0) + 1
    return tally


@pytest.mark.parametrize("count", [1_000, pytest.param(5_000, marks=pytest.mark.slow)])
def test_fuzz_inputs(count):
    tally = fuzz(count, seed=2026)
    assert sum(tally.values()) == count
    assert tally.get("error", 0) > 0 and sum(tally.values()) - tally.get("error", 0) > 0


@pytest.mark.slow
def test_fuzz_100000_inputs():
    tally = fuzz(100_000, seed=7)
    assert sum(tally.values()) == 100_000


@pytest.mark.parametrize("count", [12, pytest.param(48, marks=pytest.mark.slow)])
def test_command_line_on_a_sample_never_shows_a_traceback(count):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    for text in list(random_inputs(count, seed=11)):
        text = text.replace("\x00", "")
        result = subprocess.run([sys.executable, "-m", "smtcrypt", "--timeout", "1", "--limit", "1", "--", text],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode in (0, 1, 2, 3), (text, result.stderr)
        assert "Traceback" not in result.stderr, (text, result.stderr)
