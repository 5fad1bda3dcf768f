"""The optional presentations (smtcrypt/present.py): the page and the worksheets show a long-hand
layout, hints and a difficulty where smtcrypt makes them, and the plain line where it does not."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import smtcrypt
from smtcrypt import api
from smtcrypt.present import difficulty, explanation, features, long_hand, solution_data, svg


def test_without_presentations_the_plain_line():
    solution = next(smtcrypt.solve("SEND + MORE = MONEY"))
    puzzle = smtcrypt.Puzzle("SEND + MORE = MONEY")
    have = features()
    assert have["long_hand"] == callable(getattr(api.Solution, "long_hand", None))
    if not have["long_hand"]:
        assert long_hand(solution) is None and svg(solution) is None
        assert solution_data(solution) == {"text": "9567 + 1085 = 10652", "mapping": solution.mapping,
                                           "line": "9567 + 1085 = 10652  /  D=7 E=5 M=1 N=6 O=0 R=8 S=9 Y=2",
                                           "long_hand": None}
    if not have["explain"]:
        assert explanation(puzzle) is None and difficulty(puzzle) is None


class Kind(enum.Enum):
    DEDUCE = "deduce"


@dataclass
class Step:
    kind: Kind
    text: str


@dataclass
class Explained:
    steps: list
    difficulty: int | None = None


def test_explanations_of_several_shapes(monkeypatch):
    puzzle = smtcrypt.Puzzle("SEND + MORE = MONEY")
    monkeypatch.setattr(api.Puzzle, "explain", lambda self, timeout=None: Explained([Step(Kind.DEDUCE, "M = 1")], 2),
                        raising=False)
    assert features()["explain"] and features()["difficulty"]
    assert explanation(puzzle) == {"difficulty": 2, "steps": [{"kind": "deduce", "text": "M = 1"}]}
    assert difficulty(puzzle) == 2
    monkeypatch.setattr(api.Puzzle, "explain", lambda self: {"steps": ["M = 1", {"kind": "case", "text": "E = 5?"}]},
                        raising=False)
    monkeypatch.setattr(api.Puzzle, "difficulty", lambda self: 4, raising=False)
    assert explanation(puzzle, timeout=3) == {"difficulty": 4, "steps": [{"kind": None, "text": "M = 1"},
                                                                          {"kind": "case", "text": "E = 5?"}]}
    assert difficulty(puzzle) == 4


def test_long_hand_where_it_exists(monkeypatch):
    monkeypatch.setattr(api.Solution, "long_hand", lambda self: "long " + self.text, raising=False)
    monkeypatch.setattr(api.Solution, "svg", lambda self: "<svg/>", raising=False)
    solution = next(smtcrypt.solve("ODD * ODD = FREAKY"))
    assert long_hand(solution) == "long 677 * 677 = 458329" and svg(solution) == "<svg/>"
    assert solution_data(solution)["long_hand"] == "long 677 * 677 = 458329"
