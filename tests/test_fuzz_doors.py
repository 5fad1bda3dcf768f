"""A fuzz harness for every door: hostile inputs drawn for the formula language, Cryptator's
notation, enigma.py command lines and run files, printed layouts and play moves. Each must end
cleanly: a reading (then a short search whose every solution re-checks) or a `FormulaError` with
its message, never another exception, and within a time bound. A few hundred examples run every
time; `-m slow` runs thousands (the fixed hypothesis profile draws the same ones each run).
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smtcrypt import Puzzle
from smtcrypt.errors import FormulaError
from smtcrypt.notations import read
from smtcrypt.teach.play import DecisionError

SECONDS = 10.0  # any door must answer within this, hostile input or not (generous: a loaded 2-core machine)
EVERY_RUN, SLOW_RUN = 40, 1500

# Pieces of hostile input: deep nesting, long sums, huge numbers and powers, odd characters.
HOSTILE = st.sampled_from([
    "(" * 400, ")" * 400, "((((((((((A))))))))))", "9" * 5000, "1" + "0" * 400, " + A" * 2000, "** 1000",
    "2 ** 1000", "((2 ** 1000) ** 1000) ** 1000", "7 ** 9999999", "\x00", "\ufeff", "\ud800", "é", "R\u0306",
    "न्न", "?", "{", "}", "'", '"', "\\", "#", ";", "\n", "\r", "\t", "0.(", "0.(AB)", "--", "-", "1e9", "//",
])


def pieces(words: list[str]) -> st.SearchStrategy[str]:
    """Text joined from a notation's own tokens and the hostile pieces."""
    token = st.one_of(st.sampled_from(words), HOSTILE, st.text(max_size=4))
    return st.lists(token, min_size=1, max_size=12).map(" ".join)


FORMULA = pieces(["A", "B", "AB", "SEND", "MORE", "MONEY", "+", "-", "*", "/", "//", "%", "**", "(", ")", "=",
                  "==", "<", "and", "or", "not", "in", "{1, 2}", "abs(", "gcd(", "is_prime(", "dsum(", "x", "7",
                  "sum(range(", ","])
CRYPTATOR = pieces(["send", "more", "money", "a", "b", "ab", "+", "-", "*", "/", "//", "%", "^", "=", "!=", "<",
                    "&&", ";", "(", ")", "'12'", "'0'", "ДВА", "TŘI"])
ENIGMA_WORDS = ["SubstitutedExpression", "SubstitutedSum", "SubstitutedDivision", "TOM * 13 = DALEY",
                "{SEND} + {MORE} = {MONEY}", "is_square({ONE})", "--digits=1-9", "--digits=0-99999999999", "-aO,0",
                "-i0,AB", "--answer=ABC", "--distinct=AB,CD", "--base=7", "-b64", "--symbols=abc", "--first",
                "pkmkh / ?? = ???", "pkm - pmd = xp", "--template=X", "--solution=AB", "ordered(A, B)", "--code=1"]
ENIGMA = st.lists(st.one_of(st.sampled_from(ENIGMA_WORDS), HOSTILE, st.text(max_size=6)), min_size=1, max_size=6)
RUN_FILE = st.lists(st.one_of(st.sampled_from(ENIGMA_WORDS + ['"', "#!", "\\", "\n"]), HOSTILE),
                    min_size=1, max_size=10).map("\n".join)
LAYOUT = st.lists(st.one_of(st.sampled_from(["   7??", " x  ??", " -----", "  ?8??", " ?9??", "?5???", "2? ) ????",
                                             "      ??", "      --", "       ???", "   ?7?"]),
                            HOSTILE, st.text(alphabet="?A1 )-x*×\n", max_size=12)),
                  min_size=1, max_size=8).map("\n".join)
MOVE = pieces(["S", "=", "9", "!=", "<", "E", "c2", "1", "undo", "hint", "marks", "show", ":", "S: 1 2 9"])

DOORS = {"smtcrypt": FORMULA, "cryptator": CRYPTATOR, "enigma": st.one_of(ENIGMA, RUN_FILE), "layout": LAYOUT}


def ends_cleanly(text: object, syntax: str) -> None:
    """Read `text` in `syntax`: a FormulaError with a message, or a puzzle whose short search ends and
    re-checks; either within SECONDS."""
    start = time.monotonic()
    try:
        puzzle = Puzzle(read(text, syntax))
    except FormulaError as error:
        assert error.message
    else:
        verdict = puzzle.search(limit=1, timeout=0.2).verdict()
        for solution in verdict.solutions:
            assert puzzle.is_solution(solution.mapping)
    assert time.monotonic() - start < SECONDS, (syntax, text)


def door_test(syntax: str, examples: int):  # type: ignore[no-untyped-def]
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(DOORS[syntax])
    def test(text: object) -> None:
        ends_cleanly(text, syntax)
    return test


@pytest.mark.parametrize("syntax", sorted(DOORS))
def test_every_door_ends_cleanly(syntax: str) -> None:
    door_test(syntax, EVERY_RUN)()


# found by the slow run: an error where "0\n" ends, on the line after the last, raised IndexError making
# its message; and "\x0b", "\x85" or "\u2028" split lines where the error's line counted none
LINE_ENDS = ["0\n", "A +\n", "A\n\n", "send +\r\n", "A \x0b= B", "A\x85+", "A\u2028=", "\n", "= \r"]


@pytest.mark.parametrize("syntax", ["smtcrypt", "cryptator", "layout"])
@pytest.mark.parametrize("text", LINE_ENDS)
def test_an_error_on_a_last_or_odd_line_has_its_caret(syntax: str, text: str) -> None:
    try:
        read(text, syntax)
    except FormulaError as error:
        if error.position is not None:
            assert "^" in str(error) and f"line {error.line}," in str(error)


@pytest.mark.slow
@pytest.mark.parametrize("syntax", sorted(DOORS))
def test_every_door_ends_cleanly_on_thousands(syntax: str) -> None:
    door_test(syntax, SLOW_RUN)()


def move_test(examples: int):  # type: ignore[no-untyped-def]
    game = Puzzle("SEND + MORE = MONEY").play(timeout=1.0)

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(MOVE)
    def test(move: str) -> None:
        start = time.monotonic()
        try:
            assert game.play(move)
        except DecisionError as error:
            assert error.message
        assert time.monotonic() - start < SECONDS, move
    return test


@pytest.mark.parametrize("examples", [EVERY_RUN, pytest.param(SLOW_RUN, marks=pytest.mark.slow)])
def test_play_moves_end_cleanly(examples: int) -> None:
    move_test(examples)()


COMMAND_LINES = [
    ["--digits", "0-99999999999", "A + B = C"],
    ["A = ((2 ** 1000) ** 1000) ** 1000"],
    ["A + B = C", "--answer", "7 ** 9999999"],
    ["A = " + "9" * 5000],
    ["--syntax", "cryptator", "(" * 2000 + "a" + ")" * 2000 + "=b"],
    ["--syntax", "enigma", "SubstitutedExpression", "(" * 2000 + "A" + ")" * 2000 + " = B"],
    ["--syntax", "enigma", "SubstitutedSum", "--digits=0-99999999999", "A + B = C"],
    ["--layout", "/dev/null"],
]


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=lambda argv: " ".join(argv)[:40])
def test_hostile_command_lines_end_cleanly(argv: list[str]) -> None:
    """The command line on the hostile inputs of the issue: exit 0-3, no traceback, bounded time."""
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-m", "smtcrypt", "--timeout", "5", *argv], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode in (0, 1, 2, 3), result.stderr
    assert "Traceback" not in result.stderr
    assert time.monotonic() - start < 5 + SECONDS
