"""Property tests with letters of several scripts: the random formulas of tests/test_properties.py,
their letters A-D renamed to letters (and combining marks) of Cyrillic, Greek, accented Latin,
Devanagari, Hebrew, Armenian, Thai and CJK, solved by every encoding and strategy and by the
brute-force reference (tests/reference.py)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_properties import Case, cases, check_against_reference

# Each a letter of its own that NFC leaves alone beside any other of these: the marks (a virama and a
# vowel sign) neither compose with a letter before them nor change places with each other.
SCRIPT_LETTERS = ("Д", "Ж", "Ω", "É", "Ř", "न", "\u094d", "\u093e", "א", "Ա", "ก", "一")


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


@settings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(script_cases(extras=True))
@example(Case("0 <= x <= 0, 0 = 0.(0)", {"distinct": False, "digits": [0]}, {"x": (0, 0)}))  # filled in as written
@example(Case("0.(्Д) = Д / (् + 1), नि = 1ि", {"base": 8, "allow_leading_zeros": True}))
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
        seen.update(ch for ch in case.text if ch in SCRIPT_LETTERS)
    collect()
    assert len(seen) >= 8 and {"\u094d", "\u093e"} & seen
