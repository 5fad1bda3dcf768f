"""What the command line prints where the documentation once drifted from it: --json errors,
--count with --json, the usage line, the mutually exclusive modes, short error excerpts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from smtcrypt.cli import main
from smtcrypt.cli.solve import build_parser

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def in_repository(monkeypatch):
    monkeypatch.chdir(ROOT)  # the word lists are named from the repository's root


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exit:  # argparse's own exits (usage errors, --help)
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err


def test_json_bad_formula_is_a_json_error_object_on_stdout(capsys):
    code, out, err = run(capsys, "--json", "SEND + MORE = = MONEY")
    assert code == 2
    data = json.loads(out)
    assert data == {"status": "error", "error": "unexpected '=': missing operand", "line": 1, "column": 15,
                    "snippet": "  SEND + MORE = = MONEY\n                ^"}
    assert err.startswith("smtcrypt: error: unexpected '='")  # people still read stderr


@pytest.mark.parametrize("args", [
    ["--json", "--limit", "0", "A + B = C"],
    ["--json", "--first", "--count", "A + B = C"],
    ["--json", "--assign", "A", "A + B = C"],
    ["--json", "--strategy", "linear", "A * B = C"],
])
def test_json_usage_errors_are_json_too(capsys, args):
    code, out, err = run(capsys, *args)
    assert code == 2 and err
    data = json.loads(out)
    assert data["status"] == "error" and data["error"]


def test_without_json_errors_leave_stdout_empty(capsys):
    code, out, err = run(capsys, "SEND + + = MONEY")
    assert code == 2 and out == "" and err.startswith("smtcrypt: error: ")


def test_count_json_prints_the_count_without_solutions(capsys):
    code, out, _ = run(capsys, "--count", "--json", "NUM + BER = PLAY")
    data = json.loads(out)
    assert code == 0 and data["count"] == 96 and data["status"] == "multiple" and data["complete"]
    assert "solutions" not in data


def test_usage_mentions_generate_and_the_exclusive_modes(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    usage = out.split("\n\n")[0]
    assert "smtcrypt generate" in usage
    assert "[--first | --limit N | --count | --unique]" in " ".join(usage.split())
    assert "at most one of --first, --limit, --count and --unique" in " ".join(out.split())
    groups = build_parser()._mutually_exclusive_groups
    assert [sorted(a.dest for a in group._group_actions) for group in groups] == [
        ["maximize", "minimize"], ["count", "first", "limit", "unique"], ["json", "json_lines"]]
    assert "[--json | --json-lines]" in " ".join(usage.split())


def test_assign_message_shows_a_form_that_is_accepted(capsys):
    code, _, err = run(capsys, "--assign", "A", "A + B = C")
    assert code == 2 and "expected LETTER=DIGIT such as A=7, not 'A'" in err
    code, out, _ = run(capsys, "--count", "--assign", "A=7", "A + B = C")
    assert code == 0 and int(out) > 0
    code, _, err = run(capsys, "--domain", "A", "A + B = C")
    assert code == 2 and "expected LETTER=DIGITS such as A=1-5" in err


def test_an_over_long_formula_gets_a_short_excerpt(capsys):
    formula = "A + " * 30_000 + "B = C"  # 120,005 characters: over the limit
    code, out, err = run(capsys, formula)
    assert code == 2 and out == ""
    assert "formula of 120,005 characters: the limit is 100,000" in err
    assert len(err) < 400
    excerpt, caret = err.splitlines()[1:3]
    assert excerpt.startswith("  ...") and excerpt.endswith("...")
    assert excerpt[caret.index("^")] == formula[100_000]  # the caret still points at the fault


def test_a_long_line_with_a_syntax_error_is_shown_around_the_fault(capsys):
    formula = "A + " * 200 + "B = = C" + " + D" * 200
    code, _, err = run(capsys, formula)
    lines = err.splitlines()
    assert code == 2 and len(err) < 400
    assert lines[2].index("^") == lines[1].index("= = C") + 2


def test_generate_limit_says_it_stopped_early_and_what_its_totals_count(capsys):
    code, out, err = run(capsys, "generate", "--limit", "2", "--words", "examples/words/planets.txt")
    assert code == 0 and len(out.splitlines()) == 2
    assert err.rstrip().endswith("; stopped early at --limit 2: the totals count the 1,656 of 7,200 candidates "
                                 "decided so far")
    code, out, _ = run(capsys, "generate", "--json", "--limit", "2", "--words", "examples/words/planets.txt")
    data = json.loads(out)
    assert data["limit_reached"] is True and data["complete"] is False and len(data["puzzles"]) == 2
    code, out, err = run(capsys, "generate", "--limit", "100", "--words", "examples/words/planets.txt")
    assert len(out.splitlines()) == 26 and "stopped early" not in err  # the limit was not reached


def test_explain_json_bad_input_is_json_too(capsys):
    code, out, err = run(capsys, "explain", "--json", "SEND + + = MONEY")
    assert code == 2 and err.startswith("smtcrypt: error: ")
    assert json.loads(out)["status"] == "error"
    code, out, err = run(capsys, "explain", "--json", "--hint", "x", "A + B = C")
    assert code == 2 and json.loads(out)["error"] == "usage: argument --hint: invalid integer value: 'x'"


@pytest.mark.parametrize("args, said", [
    (["--assign", "S=9", "--assign", "S=8", "SEND + MORE = MONEY"], "--assign S: the letter is assigned twice ('9' and '8')"),
    (["--domain", "S=1-3", "--domain", "S=9", "SEND + MORE = MONEY"], "--domain S: the letter is given twice"),
    (["explain", "--assign", "S=9", "--assign", "S=8", "SEND + MORE = MONEY"], "--assign S: the letter is assigned twice"),
    (["--syntax", "cryptator", "send+more=money", "--assign", "s=9", "--assign", "s=8"],
     "the symbol 's' is assigned twice (9 and 8)"),
])
def test_a_letter_assigned_twice_is_bad_input(capsys, args, said):
    # before: the last one silently held (S=8: no solution)
    code, out, err = run(capsys, *args)
    assert code == 2 and said in err and out == ""
