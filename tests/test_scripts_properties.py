"""Property tests with letters of several scripts: the random formulas of tests/test_properties.py,
their letters A-D renamed to letters (and combining marks) of Cyrillic, Greek, accented Latin,
Devanagari, Hebrew, Armenian, Thai and CJK, solved by every encoding and strategy and by the
brute-force reference (tests/reference.py)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reference import brute_force
from test_properties import Case, cases, check_against_reference

import smtcrypt
from smtcrypt.core.letters import symbols

# Each one symbol that NFC leaves alone beside any other of these: the letters with marks (न् with a virama,
# ना with a vowel sign, R̆ with a breve that has no composed form, กิ with a Thai vowel above) are one letter
# each, a letter apart from the same letter without them.
SCRIPT_LETTERS = ("Д", "Ж", "Ω", "É", "Ř", "R\u0306", "न", "न\u094d", "न\u093e", "א", "Ա", "ก", "ก\u0e34", "一")


def renamed(case: Case, names: dict[str, str]) -> Case:
    """The case with its letters renamed, in the formula and in the rules that name them."""
    table = str.maketrans(names)
    rules = dict(case.rules)
    if not isinstance(rules.get("distinct", True), bool):
        rules["distinct"] = [group.translate(table) for group in rules["distinct"]]
    for option in ("domains", "assign"):
        if option in rules:
            rules[option] = {letter.translate(table): value for letter, value in rules[option].items()}
    return Case(case.text.translate(table), rules, case.bounds)


@st.composite
def script_cases(draw: st.DrawFn, extras: bool = False) -> Case:
    case = draw(cases(extras=extras))
    letters = draw(st.lists(st.sampled_from(SCRIPT_LETTERS), min_size=4, max_size=4, unique=True))
    renamed_case = renamed(case, dict(zip("ABCD", letters)))
    assert unicodedata.normalize("NFC", renamed_case.text) == renamed_case.text
    return renamed_case


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(script_cases(extras=True))
@example(Case("0 <= x <= 0, 0 = 0.(0)", {"distinct": False, "digits": [0]}, {"x": (0, 0)}))  # filled in as written
@example(Case("0.(न्Д) = Д / (न् + 1), नि = 1नि", {"base": 8, "allow_leading_zeros": True}))
def test_formulas_in_several_scripts_match_brute_force(case):
    check_against_reference(case)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script_cases(extras=True))
def test_formulas_in_several_scripts_match_brute_force_many(case):
    check_against_reference(case)


def test_the_generator_draws_several_scripts():
    seen: set[str] = set()

    @settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(script_cases(extras=True))
    def collect(case):
        seen.update(symbol for symbol in symbols(case.text) if symbol in SCRIPT_LETTERS)
    collect()
    assert len(seen) >= 8 and {"न\u094d", "न\u093e", "R\u0306", "ก\u0e34"} & seen


@pytest.mark.parametrize("strategy", ["z3", "cubes", "exhaustive"])
def test_the_digits_of_a_word_keep_a_letter_with_its_mark_whole(strategy):
    """rev, dsum and is_palindrome of a word read its symbols: R̆ (R and a breve) is one letter, reversed or not."""
    for formula in ("rev(0AR\u0306) = R\u0306A", "dsum(R\u0306AR\u0306) = 7", "is_palindrome(R\u0306AR\u0306) and A < R\u0306"):
        found = {tuple(sorted(s.mapping.items())) for s in smtcrypt.Puzzle(formula).solve(strategy=strategy)}
        assert found == brute_force(formula), formula
