"""The puzzle generator: only proved-unique puzzles, each candidate once, cheap filters counted."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import smtcrypt
from smtcrypt.core.rules import Rules, make_rules
from smtcrypt.setters.generate import Totals, Words, candidates, formula_of, generate, lengths_fit

ROOT = Path(__file__).resolve().parent.parent


def test_send_more_money_is_found_and_proved_unique():
    totals = Totals()
    found = list(generate(["send", "MORE", "money", "x-ray"], "A + B = C", totals=totals, confirm=True))
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


def test_a_difference_is_a_candidate_once():
    found = list(candidates("A - B = C", ["AB", "CD"]))
    assert ("AB", "AB", "CD") in found and ("AB", "CD", "AB") not in found  # A - B = C is A - C = B
    assert len(found) == 3 * 2


NUMBERS = (ROOT / "examples" / "words" / "numbers.txt").read_text().split()[:8]


@pytest.mark.parametrize("shape, rules", [
    ("A + B = C", {}),
    ("A - B = C", {}),
    ("A + B = C", {"allow_leading_zeros": True}),
    ("A + B = C", {"distinct": False}),
])
def test_every_verdict_matches_the_solver(shape, rules):
    """The search decides each candidate once per key; the solver decides each on its own."""
    words = NUMBERS[:6] if rules else NUMBERS
    table = Words(words, make_rules(**rules))
    expected = dict.fromkeys(("unique", "multiple", "none", "unknown"), 0)
    unique = []
    for parts in candidates(shape, words):
        if table.passes_filters(shape, parts):
            verdict = smtcrypt.verdict(formula_of(shape, parts), **rules)
            expected[verdict.status.value] += 1
            if verdict.status is smtcrypt.Status.UNIQUE:
                unique.append((verdict.formula, verdict.solutions[0].mapping))
    totals = Totals()
    found = [(puzzle.formula, puzzle.solution.mapping)
             for puzzle in generate(words, shape, totals=totals, confirm=True, **rules)]
    assert totals.verdicts == expected
    assert found == unique
    assert [(puzzle.formula, puzzle.solution.mapping) for puzzle in generate(words, shape, confirm=False, **rules)] == unique


def test_an_explicit_base_10_keeps_the_fast_sum_search(monkeypatch):
    from smtcrypt.setters.generate import Setting
    from smtcrypt.setters.generate import decide as module

    assert Setting("A + B = C", make_rules(base=10), 10.0).by_search
    assert Setting("A - B = C", make_rules(base=10, distinct=False), 10.0).by_search
    assert not Setting("A + B = C", make_rules(base=16), 10.0).by_search  # other bases go to the solver
    assert not Setting("A * B = C", make_rules(base=10), 10.0).by_search
    words = (ROOT / "examples" / "words" / "planets.txt").read_text().split()[:10]
    default = [(p.formula, p.solution.mapping) for p in generate(words, "A + B = C")]
    assert len(default) == 3  # SUN + MOON = PLUTO, EARTH + URANUS = SATURN, SATURN + URANUS = JUPITER

    def no_solver(*args, **kwargs):
        raise AssertionError("a sum under base 10 went to the solver")

    monkeypatch.setattr(module, "solver_verdict", no_solver)
    totals = Totals()
    assert [(p.formula, p.solution.mapping) for p in generate(words, "A + B = C", totals=totals, base=10)] == default
    assert totals.verdicts["unique"] == len(default)


def test_products_go_to_the_solver():
    totals = Totals()
    found = list(generate(["ODD", "FREAKY", "TWO", "SQUARE", "AB"], "A * B = C", totals=totals))
    assert totals.candidates == 15 * 5
    for puzzle in found:
        assert smtcrypt.verdict(puzzle.formula).status is smtcrypt.Status.UNIQUE
    assert totals.verdicts["multiple"] >= 1  # ODD * ODD = FREAKY has two solutions


def test_jobs_give_the_same_puzzles_in_the_same_order():
    words = (ROOT / "examples" / "words" / "planets.txt").read_text().split()[:12]
    serial = [(p.formula, p.solution.mapping) for p in generate(words, confirm=False)]
    assert serial
    assert [(p.formula, p.solution.mapping) for p in generate(words, confirm=False, jobs=2)] == serial


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
    assert run("--jobs", "0", "AB").returncode == 2
    plain = run("--no-confirm", "SEND", "MORE", "MONEY")
    assert plain.stdout == "SEND + MORE = MONEY  /  9567 + 1085 = 10652\n"
    assert "unique 1" in plain.stderr  # the summary is a diagnostic: stdout holds only puzzles


def test_the_solver_proof_says_unique_only_when_it_is():
    from smtcrypt.setters.generate import SolverProof

    proof = SolverProof()
    send = smtcrypt.Puzzle("SEND + MORE = MONEY")
    right = {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2}
    assert proof.unique(send.problem, right)
    assert not proof.unique(send.problem, {**right, "D": 3, "Y": 8})  # not a solution: the real one is found
    two = smtcrypt.Puzzle("TWO + TWO = FOUR")  # seven solutions, no interchangeable letters
    first = next(two.solve()).mapping
    assert not proof.unique(two.problem, first)
    num = smtcrypt.Puzzle("NUM + BER = PLAY")  # interchangeable letters: found and permuted
    assert not proof.unique(num.problem, next(num.solve()).mapping)
    assert proof.unique(send.problem, right)  # the shared context still answers


def test_the_letter_cap_and_the_length_filter_come_from_the_base():
    """Base 16 admits 16 distinct letters: ABCDEF + GHIJK = KLMNOP (16 letters, several solutions
    in base 16) is decided there, while base 10 filters it out as more than ten letters."""
    from smtcrypt.setters.generate.index import WordIndex

    words = ["ABCDEF", "GHIJK", "KLMNOP"]
    wide = ("ABCDEF", "GHIJK", "KLMNOP")
    assert not Words(words, Rules()).passes_filters("A + B = C", wide)
    assert Words(words, make_rules(base=16)).passes_filters("A + B = C", wide)
    in_index = lambda base: [tuple(words[i] for i in parts) for first in range(3)
                             for parts in WordIndex(words, "A + B = C", True, base).chunk(first)]
    assert wide not in in_index(10) and wide in in_index(16)
    assert lengths_fit("A + B + C = D", ["AB", "CD", "EF", "GHIJ"], base=2)  # three 2-digit numbers: up to 4 binary digits
    assert not lengths_fit("A + B + C = D", ["AB", "CD", "EF", "GHIJ"])
    decided = {}
    for base in (10, 16):
        totals = Totals()
        list(generate(words, totals=totals, base=base))
        decided[base] = sum(totals.verdicts.values())
        assert totals.filtered + decided[base] == totals.candidates == 18
    assert decided[16] > decided[10]
    assert smtcrypt.verdict("ABCDEF + GHIJK = KLMNOP", base=16).status is smtcrypt.Status.MULTIPLE


def test_generate_takes_the_rule_options(capsys):
    from smtcrypt.cli import main

    assert main(["generate", "--json", "--base", "16", "ABCDEF", "GHIJK", "KLMNOP"]) == 1  # no unique puzzle
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["filtered"] == 5 and data["totals"]["multiple"] == 6
    assert main(["generate", "--allow-leading-zeros", "--json", "SEND", "MORE", "MONEY"]) == 1
    assert json.loads(capsys.readouterr().out)["totals"]["multiple"] >= 1  # with leading zeros, several solutions
    assert main(["generate", "SEND", "MORE", "MONEY"]) == 0
    assert capsys.readouterr().out == "SEND + MORE = MONEY  /  9567 + 1085 = 10652\n"
    with pytest.raises(SystemExit) as stop:
        main(["generate", "--base", "65", "SEND"])
    assert stop.value.code == 2


def test_rules_that_name_letters_keep_the_candidates_that_have_them():
    """`--assign S=9` (or `--domain`, or `--distinct` groups) names a letter: a candidate without it
    cannot follow the rules (the checker refuses such a rule), so it is filtered, not an error."""
    totals = Totals()
    found = [(p.formula, p.solution.text) for p in generate(["SEND", "MORE", "MONEY"], totals=totals, domains=["S=9"])]
    assert found == [("SEND + MORE = MONEY", "9567 + 1085 = 10652")]
    plain = Totals()
    list(generate(["SEND", "MORE", "MONEY"], totals=plain))
    assert totals.filtered > plain.filtered and totals.candidates == plain.candidates == 18
    assert list(generate(["SEND", "MORE", "MONEY"], assign=["S=8"])) == []  # S = 9 in the only solution


def test_one_proof_by_default_and_z3s_second_with_confirm():
    """By default each puzzle is proved by the exhaustive search and re-checked exactly; `confirm`
    has Z3 prove it again, once per shape of sum: the same puzzles either way."""
    from smtcrypt.setters.generate.keys import search_key_cached

    words = (ROOT / "examples" / "words" / "planets.txt").read_text().split()[:10]
    runs = {}
    for confirm in (False, True):
        search_key_cached.cache_clear()  # every shape of sum searched again, and counted
        totals = Totals()
        runs[confirm] = [(p.formula, p.solution.mapping) for p in generate(words, confirm=confirm, totals=totals)]
        assert 0 < totals.work["python"] + totals.work["compiled"] <= sum(totals.verdicts.values())
        assert totals.work["solver"] == 0
        assert (0 < totals.work["proofs"] <= totals.verdicts["unique"]) if confirm else totals.work["proofs"] == 0
    search_key_cached.cache_clear()
    assert runs[False] == runs[True] and runs[False]


def test_command_line_confirm_and_stats():
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = lambda *args, words=("SEND", "MORE", "MONEY"): subprocess.run(
        [sys.executable, "-m", "smtcrypt", "generate", *args, *words], capture_output=True, text=True, env=env,
        timeout=120)
    default, confirmed, explicit = run("--stats"), run("--stats", "--confirm"), run("--no-confirm")
    # the same puzzle each way; the statistics go to stderr, after the totals
    assert default.stdout == confirmed.stdout == explicit.stdout == "SEND + MORE = MONEY  /  9567 + 1085 = 10652\n"
    assert "search: plain Python for 9" in default.stderr
    assert "Z3's second proof: not asked for (--confirm)" in default.stderr
    assert "Z3's second proof: 1 (once per shape of sum)" in confirmed.stderr
    assert "search:" not in explicit.stderr
    data = json.loads(run("--stats", "--json", "--confirm").stdout)
    assert data["stats"]["search"] == {"compiled": 0, "python": 9} and data["stats"]["second_proofs"] == 1
    products = run("--stats", "--shape", "A * B = C", words=("ODD", "ODD", "FREAKY", "TWO"))
    assert "solver: Z3 decided 3 candidates" in products.stderr and "search:" not in products.stderr
    assert run("--stats", "--crossword", "3").returncode == 2



def test_words_of_other_scripts_are_taken_for_sums_and_products() -> None:
    """Cyrillic and Greek words go into sums and products, each puzzle found unique by the solver. A
    letter that stays two code points after NFC (a Devanagari consonant with its vowel sign, R with
    a breve) is skipped, and counted: the compiled sum search numbers letters by code point."""
    from smtcrypt.setters.generate import Totals
    from smtcrypt.setters.generate.shapes import clean

    found = [puzzle.formula for puzzle in generate(["ДВА", "ЧЕТЫРЕ", "ВОСЕМЬ", "ТРИ", "ДЕВЯТЬ"], "A * B = C")]
    assert "ДВА * ДВА = ЧЕТЫРЕ" in found and all(smtcrypt.Puzzle(formula).count() == 1 for formula in found)
    assert clean(["ΔΥΟ", "नौ", "TR\u0306I", "TR\u030cI"], any_script=True) == (["ΔΥΟ", "TŘI"], 2)
    totals = Totals()
    list(generate(["ΕΝΑ", "ΔΥΟ", "ΤΡΙΑ", "नौ"], "A + B = C", totals=totals))
    assert totals.words == 3 and totals.skipped_words == 1


@pytest.mark.slow
def test_words_of_other_scripts_give_every_unique_puzzle() -> None:
    """Every unique candidate of Cyrillic words is found, in one of its two orders, and nothing else."""
    import itertools

    def unique(formula: str) -> bool:
        try:
            return smtcrypt.Puzzle(formula).count() == 1
        except smtcrypt.FormulaError:  # more letters than digits
            return False

    lists = {"A + B = C": ["ШЕСТЬ", "ДЕСЯТЬ", "СЕМЬ", "ВОСЕМЬ", "ЧЕТЫРЕ", "ДЕВЯТЬ", "ДВЕСТИ"],
             "A * B = C": ["ОДИН", "ДВА", "ТРИ", "ПЯТЬ", "СЕМЬ", "ДЕВЯТЬ", "СТО", "ДВЕСТИ"]}
    for shape, words in lists.items():
        found = {puzzle.formula for puzzle in generate(words, shape)}
        expected = {f"{a} {shape[2]} {b} = {c}" for a, b, c in itertools.product(words, repeat=3)
                    if unique(f"{a} {shape[2]} {b} = {c}")}
        assert found <= expected and found
        assert all(formula in found or f"{formula.split()[2]} {shape[2]} {formula.split()[0]} = "
                   f"{formula.split()[-1]}" in found for formula in expected)
