"""Searches in several threads give the same answers as serially; the order of solutions is fixed
for a fixed strategy (under `auto`, which backend finishes a search may depend on timing)."""

from concurrent.futures import ThreadPoolExecutor

import smtcrypt

PUZZLES = ["SEND + MORE = MONEY", "NUM + BER = PLAY", "ODD * ODD = FREAKY", "TWO * TWO = SQUARE",
           "SAVE + MORE = MONEY", "A**N + B**N = C**N and N > 1", "MON-EY = EVIL**(1/2)", "X / X = X"]


def answers(formula: str, strategy: str = "auto") -> list[str]:
    return [solution.text for solution in smtcrypt.solve(formula, strategy=strategy)]


def test_eight_puzzles_in_four_threads_match_serial_answers():
    serial = [sorted(answers(formula)) for formula in PUZZLES]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = [sorted(found) for found in pool.map(answers, PUZZLES)]
    assert threaded == serial


def test_in_threads_a_fixed_strategy_keeps_its_order():
    serial = [answers(formula, "z3") for formula in PUZZLES]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(lambda formula: answers(formula, "z3"), PUZZLES))
    assert threaded == serial


def test_the_order_of_solutions_is_the_same_on_every_run():
    first, second = answers("NUM + BER = PLAY"), answers("NUM + BER = PLAY")
    assert first == second and len(first) == 96
