"""The puzzle generator: only proved-unique puzzles, each candidate once, cheap filters counted."""

import json
import os
import subprocess
import sys
from pathlib import Path

import smtcrypt
from smtcrypt.generate import Totals, candidates, generate, lengths_fit

ROOT = Path(__file__).resolve().parent.parent


def test_send_more_money_is_found_and_proved_unique():
    totals = Totals()
    found = list(generate(["send", "MORE", "money", "x-ray"], "A + B = C", totals=totals))
    assert [puzzle.formula for puzzle in found] == ["SEND + MORE = MONEY"]
    assert found[0].solution.text == "9567 + 1085 = 10652"
    assert smtcrypt.verdict(found[0].formula).status is smtcrypt.Status.UNIQUE
    assert totals.words == 3 and totals.skipped_words == 1
    assert totals.candidates == 6 * 3  # unordered pairs of addends (with repeats) times results
    assert totals.filtered + sum(totals.verdicts.values()) == totals.candidates
    assert totals.verdicts["unique"] == 1


def test_each_sum_is_a_candidate_once():
    seen = {tuple(sorted(parts[:2])) + parts[2:] for parts in candidates("A + B = C", ["AB", "CD", "EF"])}
    assert len(seen) == len(list(candidates("A + B = C", ["AB", "CD", "EF"]))) == 18


def test_length_filters():
    assert lengths_fit("A + B = C", ["SEND", "MORE", "MONEY"])
    assert not lengths_fit("A + B = C", ["SEND", "MORE", "MON"])
    assert lengths_fit("A * B = C", ["ODD", "ODD", "FREAKY"]) and not lengths_fit("A * B = C", ["ODD", "ODD", "FOUR"])
    assert lengths_fit("A - B = C", ["MONEY", "MORE", "SEND"])
    assert lengths_fit("A + B + C = D", ["SEVEN", "SEVEN", "SIX", "TWENTY"])


def test_limit_stops_after_n_unique_puzzles():
    words = (ROOT / "examples" / "words" / "planets.txt").read_text().split()[:8]
    assert len(list(generate(words, "A + B = C", limit=1))) == 1


def test_command_line_json_and_exit_codes():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = lambda *args: subprocess.run([sys.executable, "-m", "smtcrypt", "generate", *args],
                                       capture_output=True, text=True, env=env, timeout=120)
    result = run("--json", "SEND", "MORE", "MONEY")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["puzzles"][0]["formula"] == "SEND + MORE = MONEY"
    assert set(data["totals"]) == {"candidates", "filtered", "unique", "multiple", "none", "unknown"}
    assert run("AB", "AB", "AB").returncode == 1
    assert run("--shape", "A ^ B = C", "AB").returncode == 2
    assert run().returncode == 2
