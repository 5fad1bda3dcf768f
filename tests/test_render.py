"""Stage 6: text lines and JSON, from hand-built Solution and Verdict values."""

from __future__ import annotations

import json

import pytest

from smtcrypt.core.results import Solution, Status, Verdict
from smtcrypt.present.data import to_dict, to_json
from smtcrypt.present.text import plural, solution_line, summary_line

SEND = Solution({"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2}, "9567 + 1085 = 10652")
ODD_1 = Solution({"A": 4, "D": 9, "E": 8, "F": 6, "K": 0, "O": 7, "R": 3, "Y": 1}, "799 * 799 = 638401")
ODD_2 = Solution({"A": 3, "D": 7, "E": 8, "F": 4, "K": 2, "O": 6, "R": 5, "Y": 9}, "677 * 677 = 458329")


def verdict(status: Status, solutions=(), complete=True, reason=None, seconds=0.234,
            formula="SEND + MORE = MONEY") -> Verdict:
    return Verdict(formula, status, tuple(solutions), complete, reason, seconds)


SOLUTION_LINES = [
    (SEND, "9567 + 1085 = 10652  /  D=7 E=5 M=1 N=6 O=0 R=8 S=9 Y=2"),
    (ODD_2, "677 * 677 = 458329  /  A=3 D=7 E=8 F=4 K=2 O=6 R=5 Y=9"),
    (Solution({"A": 1, "B": 2}, "1 = 1\n2 = 2"), "1 = 1; 2 = 2  /  A=1 B=2"),
    (Solution({"A": 1, "B": 1, "C": 2}, "1 + 1 = 2\n1 < 2\n2 > 1"), "1 + 1 = 2; 1 < 2; 2 > 1  /  A=1 B=1 C=2"),
    (Solution({}, "1 + 1 = 2"), "1 + 1 = 2  /  "),
]


@pytest.mark.parametrize("solution, expected", SOLUTION_LINES)
def test_solution_line(solution, expected):
    line = solution_line(solution)
    assert line == expected
    assert "\n" not in line


@pytest.mark.parametrize("count, expected", [(0, "0 solutions"), (1, "1 solution"), (2, "2 solutions"),
                                             (11, "11 solutions")])
def test_plural(count, expected):
    assert plural(count) == expected


SUMMARIES = [
    (verdict(Status.UNIQUE, [SEND]), "1 solution (unique: search complete, 0.23 s)"),
    (verdict(Status.MULTIPLE, [ODD_1, ODD_2], complete=False),
     "2 solutions (not unique: stopped after two, 0.23 s)"),
    (verdict(Status.MULTIPLE, [ODD_1, ODD_2], complete=True), "2 solutions (search complete, 0.23 s)"),
    (verdict(Status.NONE, [], seconds=0.01), "0 solutions (search complete, 0.01 s)"),
    (verdict(Status.UNKNOWN, [], complete=False, reason="timeout", seconds=5.0),
     "0 solutions found; search incomplete (timeout), so more may exist (5.00 s)"),
    (verdict(Status.UNKNOWN, [SEND], complete=False, reason="solver gave up", seconds=1.005),
     "1 solution found; search incomplete (solver gave up), so more may exist (1.00 s)"),
    (verdict(Status.FOUND, [SEND], complete=False, seconds=0.0),
     "1 solution (stopped as asked; more may exist, 0.00 s)"),
    (verdict(Status.FOUND, [ODD_1, ODD_2], complete=False, seconds=12.345),
     "2 solutions (stopped as asked; more may exist, 12.35 s)"),
    (verdict(Status.INFINITE, [SEND], complete=False, reason="infinitely many solutions: x = 1 + t for t = 0, 1, "
                                                             "2, ...", seconds=0.5),
     "1 solution shown; infinitely many solutions: x = 1 + t for t = 0, 1, 2, ... (0.50 s)"),
    (verdict(Status.OPTIMAL, [ODD_1], seconds=0.25), "1 solution attaining the optimum (proved, 0.25 s)"),
]


@pytest.mark.parametrize("value, expected", SUMMARIES)
def test_summary_line(value, expected):
    assert summary_line(value) == expected


def test_summary_line_covers_every_status():
    assert {v.status for v, _ in SUMMARIES} == set(Status)


BASE_KEYS = {"formula", "status", "count", "complete", "solutions", "seconds", "strategy", "proof"}

DICTS = [
    (verdict(Status.UNIQUE, [SEND]), BASE_KEYS),
    (verdict(Status.MULTIPLE, [ODD_1, ODD_2], complete=False), BASE_KEYS),
    (verdict(Status.MULTIPLE, [ODD_1, ODD_2, SEND], complete=True), BASE_KEYS),
    (verdict(Status.NONE, []), BASE_KEYS),
    (verdict(Status.FOUND, [SEND], complete=False), BASE_KEYS),
    (verdict(Status.UNKNOWN, [], complete=False, reason="timeout"), BASE_KEYS | {"reason"}),
    (verdict(Status.UNKNOWN, [SEND], complete=False, reason="canceled"), BASE_KEYS | {"reason"}),
]


@pytest.mark.parametrize("value, keys", DICTS)
def test_to_dict_keys(value, keys):
    data = to_dict(value)
    assert set(data) == keys
    assert data["formula"] == value.formula
    assert data["status"] == value.status.value
    assert isinstance(data["status"], str) and not isinstance(data["status"], Status)
    assert data["count"] == value.count == len(value.solutions)
    assert data["complete"] is value.complete
    assert data["solutions"] == [{"mapping": s.mapping, "text": s.text} for s in value.solutions]
    if "reason" in keys:
        assert data["reason"] == value.reason


def test_to_dict_of_unknown_verdict():
    data = to_dict(verdict(Status.UNKNOWN, [], complete=False, reason="timeout", seconds=2.5))
    assert data == {"formula": "SEND + MORE = MONEY", "status": "unknown", "count": 0, "complete": False,
                    "solutions": [], "seconds": 2.5, "reason": "timeout", "strategy": None, "proof": None}


@pytest.mark.parametrize("seconds, expected", [(0.0321, 0.0321), (0.1234567891, 0.123457), (3, 3)])
def test_to_dict_rounds_seconds(seconds, expected):
    assert to_dict(verdict(Status.UNIQUE, [SEND], seconds=seconds))["seconds"] == expected


@pytest.mark.parametrize("value", [v for v, _ in DICTS])
def test_json_round_trips(value):
    text = to_json(value)
    assert "\n" not in text
    loaded = json.loads(text)
    assert loaded == to_dict(value)
    assert set(loaded) == set(to_dict(value))


def test_json_of_the_readme_example():
    loaded = json.loads(to_json(verdict(Status.UNIQUE, [SEND], seconds=0.032)))
    assert loaded == {"formula": "SEND + MORE = MONEY", "status": "unique", "count": 1, "complete": True,
                      "solutions": [{"mapping": {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2},
                                     "text": "9567 + 1085 = 10652"}], "seconds": 0.032,
                      "strategy": None, "proof": None}
    assert list(loaded["solutions"][0]["mapping"]) == sorted(loaded["solutions"][0]["mapping"])


def test_json_keeps_non_ascii_text():
    text = to_json(verdict(Status.NONE, [], formula="A = B  # ≠"))
    assert "≠" in text
    assert json.loads(text)["formula"] == "A = B  # ≠"


def test_json_multiline_formula_round_trips():
    value = verdict(Status.UNIQUE, [Solution({"A": 1, "B": 2}, "1 < 2\n2 > 1")], formula="A < B\nB > A")
    loaded = json.loads(to_json(value))
    assert loaded["formula"] == "A < B\nB > A"
    assert loaded["solutions"][0]["text"] == "1 < 2\n2 > 1"
