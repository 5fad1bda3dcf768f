"""Searches in several threads give the same answers as serially; the order of solutions is fixed."""

from concurrent.futures import ThreadPoolExecutor

import smtcrypt

PUZZLES = ["SEND + MORE = MONEY", "NUM + BER = PLAY", "ODD * ODD = FREAKY", "TWO * TWO = SQUARE",
           "SAVE + MORE = MONEY", "A**N + B**N = C**N and N > 1", "MON-EY = EVIL**(1/2)", "X / X = X"]


def answers(formula: str) -> list[str]:
    return [solution.text for solution in smtcrypt.solve(formula)]


def test_eight_puzzles_in_four_threads_match_serial_answers():
    serial = [answers(formula) for formula in PUZZLES]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(answers, PUZZLES))
    assert threaded == serial


def test_the_order_of_solutions_is_the_same_on_every_run():
    first, second = answers("NUM + BER = PLAY"), answers("NUM + BER = PLAY")
    assert first == second and len(first) == 96
