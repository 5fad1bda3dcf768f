"""Hypothesis draws the same examples in every run (a fixed seed), so that a suite that passed passes
again, the slow one (`pytest -m slow`) included. To draw new examples, run with
`--hypothesis-profile=explore`, and keep a formula that fails as an `@example` of its test."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("fixed")
