"""`smtcrypt batch`: one JSON line per puzzle, in input order; bad lines answered, not fatal."""

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from smtcrypt.cli import batch as batch_module
from smtcrypt.cli.batch import BatchTotals, batch, read_puzzles
from smtcrypt.engine.sums import compiled as sums_compiled
from smtcrypt.engine.sums.compiled import CompiledSums, count_sums, search_codes, search_masks

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))

LINES = ["# a book of puzzles", "SEND + MORE = MONEY", "", "ODD * ODD = FREAKY", "SEND + + = MONEY",
         "   # indented comment", "TWO + TWO = FOUR", "AB + CD = A"]


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "smtcrypt", "batch", *args], input=stdin, capture_output=True,
                          text=True, env=ENV, timeout=120)


def test_lines_comments_and_blanks():
    assert read_puzzles(LINES) == [(2, "SEND + MORE = MONEY"), (4, "ODD * ODD = FREAKY"), (5, "SEND + + = MONEY"),
                                   (7, "TWO + TWO = FOUR"), (8, "AB + CD = A")]


def test_answers_in_input_order_with_errors_in_place():
    puzzles = read_puzzles(LINES)
    for jobs in (1, 2):
        answers = list(batch(puzzles, jobs=jobs, decide=True))
        assert [a["line"] for a in answers] == [2, 4, 5, 7, 8]
        assert [a.get("status") for a in answers] == ["unique", "multiple", None, "multiple", "none"]
        bad = answers[2]
        assert set(bad) == {"line", "formula", "error"} and bad["formula"] == "SEND + + = MONEY"
        assert "column" in bad["error"] and "^" in bad["error"]
    counted = list(batch(puzzles, count=True))
    assert counted[3]["count"] == 7 and "solutions" not in counted[3] and counted[3]["complete"]


def test_command_line_stdin_totals_and_exit_codes(tmp_path):
    result = run("--first", "-", stdin="\n".join(LINES))
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["line"] for a in answers] == [2, 4, 5, 7, 8]
    assert answers[0]["status"] == "found" and answers[0]["solutions"][0]["text"] == "9567 + 1085 = 10652"
    assert "5 puzzles: solved 4, errors 1, unknown 0" in result.stderr and "median" in result.stderr
    assert result.returncode == 2  # a bad line
    good = tmp_path / "good.txt"
    good.write_text("SEND + MORE = MONEY\nTWO + TWO = FOUR\n")
    result = run("--unique", "--jobs", "2", str(good))
    assert result.returncode == 0 and [json.loads(line)["status"] for line in result.stdout.splitlines()] == [
        "unique", "multiple"]
    assert run(str(tmp_path / "missing.txt")).returncode == 2
    assert run("--digits", "1-x", str(good)).returncode == 2


def test_an_unknown_answer_is_counted_as_unknown():
    totals = BatchTotals()
    totals.add({"line": 1, "status": "unknown", "seconds": 1.0})
    totals.add({"line": 2, "status": "none", "seconds": 3.0})
    totals.add({"line": 3, "formula": "?", "error": "bad"})
    assert (totals.solved, totals.errors, totals.unknown) == (1, 1, 1)
    assert "median 2.000 s" in totals.line(4.0)


def test_shared_rules_name_letters_of_the_puzzles_not_of_a_stand_in(tmp_path, capsys):
    """--domain S=9 is checked once without a formula, then applies to each puzzle (it used to be
    checked against a stand-in puzzle `A = A` and always refused: "S does not occur")."""
    from smtcrypt.cli import main

    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("SEND + MORE = MONEY\nS + S = AB\n")
    assert main(["batch", "--unique", "--domain", "S=9", str(puzzles)]) == 0
    answers = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert answers[0]["status"] == "unique" and answers[0]["solutions"][0]["mapping"]["S"] == 9
    assert all(answer["solutions"][0]["mapping"]["S"] == 9 for answer in answers)
    assert main(["batch", "--count", "--domain", "S=1-5", str(puzzles)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[0])["count"] == 0  # SEND + MORE = MONEY needs S = 9


def test_batch_takes_every_rule_option_of_the_solver(tmp_path, capsys):
    from smtcrypt.cli import main

    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text("AB * CD = EEF\n")
    assert main(["batch", "--count", "--distinct", "ABCD", str(puzzles)]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 42  # as `smtcrypt --count --distinct ABCD`
    for bad in (["--base", "65"], ["--distinct", "AB", "--no-distinct"], ["--domain", "S=x"]):
        try:
            main(["batch", *bad, str(puzzles)])
        except SystemExit as stop:
            assert stop.code == 2, bad
        else:
            raise AssertionError(f"{bad} was accepted")


def test_many_puzzles_a_process_load_the_compiled_sum_kernel(monkeypatch):
    """From COMPILED_FROM puzzles a process, each process loads the compiled sum kernel (where numba is
    installed) and the linear backend decides unique sums with it; the answers are the same. The kernel
    here is the compiled one's code run as plain Python (numba's own compile is tests/test_sums_kernel.py's,
    where the engine runs it too): what is tested is when batch loads it and what it answers then."""
    loads = []

    @functools.cache  # once a process, as the compiled one is loaded
    def load_as_plain_python() -> CompiledSums:
        loads.append(True)
        return CompiledSums(search_masks, search_codes, count_sums)

    monkeypatch.setattr(sums_compiled, "compiled", load_as_plain_python)
    puzzles = read_puzzles(LINES)
    plain = list(batch(puzzles, count=True, stats=True))
    assert not loads and plain[0]["stats"]["sum_kernel"] == "plain"
    monkeypatch.setattr(batch_module, "COMPILED_FROM", len(puzzles))
    compiled = list(batch(puzzles, count=True, stats=True))
    assert loads == [True] and compiled[0]["stats"]["sum_kernel"] == "compiled"
    assert [answer.get("count") for answer in compiled] == [answer.get("count") for answer in plain]


def test_each_puzzles_best_value_as_the_command_line_gives_it(tmp_path):
    lines = ["SEND + MOST = MONEY", "SEND + MORE = MONY", "SEND + MORE = MONEY", "AB + CD = EF"]
    answers = list(batch(list(enumerate(lines, 1)), objective=("maximize", "MONEY")))
    assert [answer["line"] for answer in answers] == [1, 2, 3, 4]
    assert answers[0]["status"] == "optimal" and answers[0]["optimum"] == 10876 and answers[0]["objective"] == "MONEY"
    assert answers[1]["status"] == "none" and answers[1]["optimum"] is None
    assert "does not occur" in answers[3]["error"]  # no M in AB + CD = EF
    assert answers[2]["optimum"] == 10652 and answers[2]["solutions"][0]["text"] == "9567 + 1085 = 10652"
    file = tmp_path / "puzzles.txt"
    file.write_text("SEND + MOST = MONEY\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "smtcrypt", "batch", "--minimize", "MONEY", "--unique", str(file)],
                         capture_output=True, text=True, timeout=120)
    answer = json.loads(run.stdout)
    assert run.returncode == 0 and answer["optimum"] == 10437 and answer["attained"] == "multiple"
