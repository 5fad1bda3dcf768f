"""The puzzle's rules at the generator's edge: a public function's rule keywords (those of `Puzzle`)
made into one typed `Rules` per run (by `core.rules.rules_of`, as at every door), and what a run's
rules change from the defaults.

`make_rules` validates the keywords once, before any work starts; below the public functions every
part takes the `Rules` as they are, so a candidate is checked under its run's rules without
validating them again (the generator decides millions of candidates, the rules are the same for all).
A variant for one shape is `dataclasses.replace` of the run's rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypedDict

from smtcrypt.core.rules import DigitSpec, Rules

__all__ = ["DEFAULT_RULES", "RuleOptions", "given_rules"]

DEFAULT_RULES = Rules()  # distinct letters, no leading zero, base 10


class RuleOptions(TypedDict, total=False):
    """The rule keywords a public function takes, as `make_rules` (and `Puzzle`) take them:
    `generate(words, base=16)` is `generate(words, rules=make_rules(base=16))`."""

    distinct: bool | str | Iterable[str]
    allow_leading_zeros: bool
    base: int
    digits: DigitSpec | None
    domains: Mapping[str, DigitSpec] | Iterable[str] | None
    assign: Mapping[str, int] | Iterable[str] | None
    nonzero_single_letters: bool


def given_rules(rules: Rules) -> dict[str, object]:
    """The rules that differ from the defaults, by their keyword, as JSON data: what names a run in
    its checkpoint file, and what decides how it searches (and which rules a genre refuses).
    Groups of distinct letters are the keyword `distinct`, as `make_rules` takes them."""
    given: dict[str, object] = {}
    if rules.groups is not None:
        given["distinct"] = list(rules.groups)
    elif not rules.distinct:
        given["distinct"] = False
    if rules.allow_leading_zeros:
        given["allow_leading_zeros"] = True
    if rules.base != DEFAULT_RULES.base:
        given["base"] = rules.base
    if rules.digits is not None:
        given["digits"] = sorted(rules.digits)
    if rules.domains:
        given["domains"] = {letter: sorted(values) for letter, values in sorted(rules.domains.items())}
    if rules.assign:
        given["assign"] = dict(sorted(rules.assign.items()))
    if rules.nonzero_single_letters:
        given["nonzero_single_letters"] = True
    return given
