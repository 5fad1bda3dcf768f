"""`Search.request_stop` acts at any point of a search: while an encoding is built, while a hard
search is split into cases, between two solver calls, and in every backend; a stopped search is
`unknown` (interrupted), never a proof. The latency itself is measured by benchmarks/stop_latency.py."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import smtcrypt
from smtcrypt.analysis import split
from smtcrypt.encode import products

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from stop_latency import latency  # noqa: E402  (the benchmark's harness: a search on a thread, stopped, timed)


def test_a_stop_during_the_encoding_ends_it_at_the_next_checkpoint(monkeypatch):
    search = smtcrypt.Puzzle("NAUGHT ** 2 = ZERO ** 3").search(strategy="z3")
    calls = []
    original = products._Builder.partial

    def partial(self, a, b):
        calls.append(1)
        if len(calls) == 3:
            search.request_stop()  # as if from another thread, in the middle of the long multiplication
        return original(self, a, b)

    monkeypatch.setattr(products._Builder, "partial", partial)
    verdict = search.verdict()
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "interrupted"
    assert len(calls) == 3  # the checkpoint of the call in which the stop came ended the encoding


def test_a_stop_during_the_split_is_no_proof(monkeypatch):
    """A split cut short holds fewer cases than solutions need: the search must not end complete."""
    search = smtcrypt.Puzzle("NORTH / SOUTH = EAST / WEST").search(strategy="z3")
    original = split.Bounds.cases

    def cases(self, domains, *args, **kwargs):
        search.request_stop()
        return original(self, domains, *args, **kwargs)

    monkeypatch.setattr(split.Bounds, "cases", cases)
    monkeypatch.setattr("smtcrypt.engine.z3search.SPLIT_AFTER_CONFLICTS", 1)  # split at the first check
    verdict = search.verdict()
    assert verdict.status is smtcrypt.Status.UNKNOWN and verdict.reason == "interrupted"
    assert not verdict.complete and verdict.proof is None


def test_cases_cut_short_once_stopped():
    bounds = split.Bounds([{("AB", "CD"): 1, ("EF",): -1}])
    domains = {letter: tuple(range(10)) for letter in "ABCDEF"}
    assert split.Bounds.cases(bounds, domains)
    assert split.Bounds.cases(bounds, domains, stopped=lambda: True) == []


@pytest.mark.parametrize("formula, strategy", [
    ("NORTH / SOUTH = EAST / WEST", "auto"),  # Z3 (encoding, split), then the join
    ("ABCDE < FGHIJ", "cubes"),
    ("ABCDEFGHIJ % 7 = 3", "exhaustive"),
    ("ODD + ODD + ODD + ODD + ODD + ODD = EVEN + EVEN", "linear"),
])
def test_request_stop_at_random_moments_ends_the_search(formula, strategy):
    draw = random.Random(17)
    for _ in range(3):
        seconds = latency(formula, strategy, first=False, after=draw.uniform(0.0, 0.4), patience=5)
        # the bound here is loose (a loaded machine); the benchmark measures the latency itself
        assert seconds is None or seconds < 1.0
