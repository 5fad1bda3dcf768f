"""Nothing found is lost: a run cut short by Ctrl-C or `--timeout` reports what it found in every
output form (lines, `--json`, `--count`, `--json-lines`), and never looks complete."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from interrupting import command, environment, interrupt

import smtcrypt
import smtcrypt.cli.solving
from smtcrypt.cli import main
from smtcrypt.present.data import LISTED, to_dict

# The case: a sum of 25 letters that may share digits, hundreds of thousands of solutions a
# second, far too many to finish (about 10**16)
MANY = ("--no-distinct", "--allow-leading-zeros", "ABCDEFGH + IJKLMNOP = QRSTUVWXY")


def smtcrypt_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smtcrypt", *args], capture_output=True, text=True,
                          env=environment(), timeout=120)


def verdict_of(lines: list[str]) -> tuple[list[dict], dict]:
    """The solutions and the verdict of `--json-lines` output: every line parses; the last is the verdict."""
    objects = [json.loads(line) for line in lines]
    *solutions, verdict = objects
    assert all(set(solution) >= {"mapping", "text"} and "status" not in solution for solution in solutions)
    return solutions, verdict


def test_ctrl_c_with_json_keeps_the_solutions_found():
    # before: exit 130 and nothing on stdout (writing so many solutions outlasted the last resort's grace)
    run = interrupt(command("--json", *MANY), sign="100000 solutions")
    assert run.code == 130 and "Traceback" not in run.err
    data = json.loads(run.out)
    assert (data["status"], data["complete"], data["reason"]) == ("unknown", False, "interrupted")
    assert len(data["solutions"]) == LISTED <= data["count"]
    if data["count"] > LISTED:  # past the cap: how many are listed, and why
        assert data["shown"] == data["shown_limit"] == LISTED
    assert all(solution["text"].count(" ") == 4 for solution in data["solutions"][:100])


def test_a_time_limit_with_json_keeps_the_solutions_found():
    result = smtcrypt_run("--json", "--timeout", "1", *MANY)
    assert result.returncode == 3
    data = json.loads(result.stdout)
    assert (data["status"], data["complete"], data["reason"]) == ("unknown", False, "time limit")
    assert 0 < len(data["solutions"]) <= data["count"]


def test_a_count_cut_short_says_it_is_a_lower_bound():
    # before: a bare number on stdout, as a complete count prints
    result = smtcrypt_run("--count", "--timeout", "1", *MANY)
    assert result.returncode == 3
    line, = result.stdout.splitlines()
    found = int(line.removeprefix("at least ").partition(";")[0])
    assert found > 0 and line == f"at least {found}; search incomplete (time limit)"
    as_json = json.loads(smtcrypt_run("--count", "--json", "--timeout", "1", *MANY).stdout)
    assert as_json["complete"] is False and as_json["count"] > 0 and "solutions" not in as_json


def test_a_complete_count_is_the_number_alone(capsys):
    assert main(["--count", "NUM + BER = PLAY"]) == 0
    assert capsys.readouterr().out == "96\n"


def test_json_lists_up_to_its_cap_and_counts_them_all(capsys, monkeypatch):
    monkeypatch.setattr(smtcrypt.cli.solving, "LISTED", 10)
    assert main(["--json", "NUM + BER = PLAY"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["count"] == 96 and data["complete"] is True and data["status"] == "multiple"
    assert len(data["solutions"]) == data["shown"] == data["shown_limit"] == 10
    listed = {solution["text"] for solution in data["solutions"]}
    assert listed <= {solution.text for solution in smtcrypt.Puzzle("NUM + BER = PLAY").solve()}


def test_a_search_keeps_at_most_what_it_is_asked_to():
    search = smtcrypt.Puzzle("NUM + BER = PLAY").search()
    search.retain = 5
    seen = list(search)
    verdict = search.verdict()
    assert len(seen) == verdict.count == 96 and list(verdict.solutions) == seen[:5]
    assert to_dict(verdict, limit=5)["shown"] == 5 and to_dict(verdict, limit=5)["shown_limit"] == 5
    assert "shown" not in to_dict(smtcrypt.Puzzle("NUM + BER = PLAY").search().verdict())


def test_json_lines_is_a_solution_a_line_then_the_verdict():
    result = smtcrypt_run("--json-lines", "NUM + BER = PLAY")
    assert result.returncode == 0
    solutions, verdict = verdict_of(result.stdout.splitlines())
    assert (verdict["status"], verdict["complete"], verdict["count"]) == ("multiple", True, 96)
    assert verdict["proof"] and "solutions" not in verdict
    expected = {solution.text for solution in smtcrypt.Puzzle("NUM + BER = PLAY").solve()}
    assert len(solutions) == 96 and {solution["text"] for solution in solutions} == expected
    with_stats = verdict_of(smtcrypt_run("--json-lines", "--stats", "--first", "NUM + BER = PLAY").stdout.splitlines())
    assert len(with_stats[0]) == 1 and with_stats[1]["stats"]["models"] == 1


def test_json_lines_ends_with_its_verdict_at_the_time_limit():
    result = smtcrypt_run("--json-lines", "--timeout", "1", *MANY)
    assert result.returncode == 3
    solutions, verdict = verdict_of(result.stdout.splitlines())
    assert (verdict["status"], verdict["complete"], verdict["reason"]) == ("unknown", False, "time limit")
    assert verdict["count"] == len(solutions) > 0


def test_json_lines_ends_with_its_verdict_at_ctrl_c():
    run = interrupt(command("--json-lines", *MANY), lines=1)
    assert run.code == 130 and "Traceback" not in run.err
    solutions, verdict = verdict_of(run.out.splitlines())
    assert (verdict["status"], verdict["complete"], verdict["reason"]) == ("unknown", False, "interrupted")
    assert verdict["count"] >= len(solutions) > 0


@pytest.mark.parametrize("args", [["--json-lines", "A + + B"], ["--json-lines", "--answer", "A", "A + B = C"]])
def test_json_lines_errors_are_json_too(capsys, args):
    try:
        code = main(args)
    except SystemExit as ended:  # a usage error
        code = ended.code
    assert code == 2
    assert json.loads(capsys.readouterr().out)["status"] == "error"
