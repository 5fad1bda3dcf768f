"""What the page and the worksheets show beyond the solution line (smtcrypt/present/data.py)."""

from __future__ import annotations

import smtcrypt
from smtcrypt.engine import Executor
from smtcrypt.engine.sums import compiled as sums_compiled
from smtcrypt.engine.sums.compiled import CompiledSums, count_sums, search_codes, search_masks
from smtcrypt.present.data import explanation, long_hand, solution_data
from smtcrypt.present.text import stats_lines


def test_a_solution_for_the_page_has_its_long_hand_layout_where_its_shape_has_one():
    solution = next(smtcrypt.solve("ODD * ODD = FREAKY"))
    assert long_hand(solution) == solution.long_hand() and "4739" in long_hand(solution)  # a partial product
    assert solution_data(solution) == {"text": "677 * 677 = 458329", "mapping": solution.mapping,
                                       "line": "677 * 677 = 458329  /  A=3 D=7 E=8 F=4 K=2 O=6 R=5 Y=9",
                                       "long_hand": solution.long_hand()}
    assert long_hand(next(smtcrypt.solve("A**2 + B**2 = C**2"))) is None  # no layout: the plain line says it all


def test_an_explanation_for_the_page_is_its_steps_as_data():
    puzzle = smtcrypt.Puzzle("SEND + MORE = MONEY")
    explained = puzzle.explain()
    data = explanation(puzzle)
    assert data == {"difficulty": explained.difficulty, "complete": True, "legend": list(explained.legend),
                    "steps": [{"kind": step.kind, "text": step.text} for step in explained.steps]}
    assert puzzle.difficulty() == explained.difficulty == 1


def test_stats_say_which_sum_kernel_decided(monkeypatch):
    """--stats names the search that decided a sum: the plain one with its nodes, or the compiled kernel
    (loaded for the engine by a batch of many puzzles; here its code run as plain Python)."""
    first = stats_lines(smtcrypt.Puzzle("SEND + MORE = MONEY").search().verdict())[0]
    assert "nodes of the linear search" in first
    monkeypatch.setattr(sums_compiled, "compiled", lambda: CompiledSums(search_masks, search_codes, count_sums))
    first = stats_lines(smtcrypt.Puzzle("SEND + MORE = MONEY").search(executor=Executor.COMPILED).verdict())[0]
    assert first.endswith("(decided by the compiled sum kernel)")
    many = smtcrypt.Puzzle("NUM + BER = PLAY").search(executor=Executor.COMPILED).verdict()
    assert "nodes of the linear search" in stats_lines(many)[0]
