"""The command line, run as a separate process (`python -m smtcrypt ...`) the way a user runs it:
output lines, modes, exit statuses, errors on stderr, and the --json schema."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from reference import as_solution, brute_force, is_solution

import smtcrypt

REPO = Path(__file__).resolve().parent.parent
HARD = "NORTH / SOUTH = EAST / WEST"
SOLUTION_LINE = re.compile(r"^(?P<text>.+)  /  (?P<pairs>(?:[A-Za-z_][A-Za-z0-9_]*=-?[0-9a-z]+ ?)+)$")
SUMMARY = re.compile(r"^(?P<count>\d+) solutions? \((?P<what>[^)]*), (?P<seconds>\d+\.\d+) s\)$")
JSON_KEYS = {"formula", "status", "count", "complete", "solutions", "seconds", "strategy", "proof"}


def run(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "smtcrypt", *args], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=timeout)


@pytest.fixture
def smtcrypt_cli(tmp_path):
    """Run the command from an unrelated directory, so nothing depends on the current directory."""
    return lambda *args, **kwargs: run(*args, cwd=tmp_path, **kwargs)


def solution_mappings(stdout: str) -> list[dict[str, int]]:
    mappings = []
    for line in stdout.splitlines()[:-1]:
        match = SOLUTION_LINE.match(line)
        assert match, f"not a solution line: {line!r}"
        mappings.append({name: int(value) for name, value in
                         (pair.split("=") for pair in match["pairs"].split())})
    return mappings


def assert_clean_error(result: subprocess.CompletedProcess) -> None:
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.strip()


# --- default output -------------------------------------------------------------------------------------------


def test_default_prints_every_solution_then_a_summary(smtcrypt_cli):
    result = smtcrypt_cli("ODD * ODD = FREAKY")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert set(lines[:2]) == {"799 * 799 = 638401  /  A=4 D=9 E=8 F=6 K=0 O=7 R=3 Y=1",
                              "677 * 677 = 458329  /  A=3 D=7 E=8 F=4 K=2 O=6 R=5 Y=9"}
    summary = SUMMARY.match(lines[-1])
    assert summary and summary["count"] == "2" and "search complete" in summary["what"]
    assert result.stderr == ""


def test_every_printed_solution_is_right(smtcrypt_cli):
    result = smtcrypt_cli("TWO + TWO = FOUR")
    assert result.returncode == 0
    mappings = solution_mappings(result.stdout)
    assert {as_solution(m) for m in mappings} == brute_force("TWO + TWO = FOUR")
    assert len(mappings) == 7
    assert SUMMARY.match(result.stdout.splitlines()[-1])["count"] == "7"


def test_unique_puzzle_summary(smtcrypt_cli):
    result = smtcrypt_cli("SEND + MORE = MONEY")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "9567 + 1085 = 10652  /  D=7 E=5 M=1 N=6 O=0 R=8 S=9 Y=2"
    summary = SUMMARY.match(result.stdout.splitlines()[1])
    assert summary and summary["count"] == "1" and "unique" in summary["what"]


def test_no_solution_exits_1(smtcrypt_cli):
    result = smtcrypt_cli("AB + AB = AB")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    summary = SUMMARY.match(lines[0])
    assert summary and summary["count"] == "0" and "search complete" in summary["what"]


# --- modes -------------------------------------------------------------------------------------------------------


def test_first(smtcrypt_cli):
    result = smtcrypt_cli("--first", "NUM + BER = PLAY")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    (mapping,) = solution_mappings(result.stdout)
    assert is_solution("NUM + BER = PLAY", mapping)
    assert SUMMARY.match(lines[-1])["count"] == "1"


def test_limit(smtcrypt_cli):
    result = smtcrypt_cli("--limit", "3", "NUM + BER = PLAY")
    assert result.returncode == 0
    mappings = solution_mappings(result.stdout)
    assert len(mappings) == 3 and len({as_solution(m) for m in mappings}) == 3
    assert all(is_solution("NUM + BER = PLAY", m) for m in mappings)
    assert SUMMARY.match(result.stdout.splitlines()[-1])["count"] == "3"


def test_count(smtcrypt_cli):
    result = smtcrypt_cli("--count", "NUM + BER = PLAY")
    assert result.returncode == 0
    assert result.stdout == "96\n"


def test_count_of_none_exits_1(smtcrypt_cli):
    result = smtcrypt_cli("--count", "AB + AB = AB")
    assert result.returncode == 1
    assert result.stdout == "0\n"


@pytest.mark.parametrize("formula, code, shown", [
    ("SEND + MORE = MONEY", 0, 1),
    ("ODD * ODD = FREAKY", 1, 2),  # two solutions: not unique
    ("AB + AB = AB", 1, 0),  # none
])
def test_unique_exit_codes(smtcrypt_cli, formula, code, shown):
    result = smtcrypt_cli("--unique", formula)
    assert result.returncode == code
    assert len(solution_mappings(result.stdout)) == shown


def test_unique_stops_after_two(smtcrypt_cli):
    result = smtcrypt_cli("--unique", "NUM + BER = PLAY")
    assert result.returncode == 1
    assert len(solution_mappings(result.stdout)) == 2


def test_no_distinct(smtcrypt_cli):
    assert smtcrypt_cli("--count", "A + B = C").stdout == f"{len(brute_force('A + B = C'))}\n"
    result = smtcrypt_cli("--count", "--no-distinct", "A + B = C")
    assert result.returncode == 0
    assert result.stdout == f"{len(brute_force('A + B = C', distinct=False))}\n"
    assert result.stdout == "55\n"


def test_allow_leading_zeros(smtcrypt_cli):
    assert smtcrypt_cli("AB = 1").returncode == 1
    result = smtcrypt_cli("--allow-leading-zeros", "AB = 1")
    assert result.returncode == 0
    assert solution_mappings(result.stdout) == [{"A": 0, "B": 1}]
    counted = smtcrypt_cli("--count", "--allow-leading-zeros", "AB + CD = EF")
    assert counted.stdout == f"{len(brute_force('AB + CD = EF', allow_leading_zeros=True))}\n"


def test_several_formula_arguments(smtcrypt_cli):
    result = smtcrypt_cli("A**N + B**N = C**N", "N > 1")
    assert result.returncode == 0
    mappings = solution_mappings(result.stdout)
    assert {as_solution(m) for m in mappings} == brute_force("A**N + B**N = C**N and N > 1")
    assert result.stdout.splitlines()[0].split("  /  ")[0] in ("3**2 + 4**2 = 5**2; 2 > 1",
                                                                "4**2 + 3**2 = 5**2; 2 > 1")


def test_several_formula_arguments_all_must_hold(smtcrypt_cli):
    alone = smtcrypt_cli("--count", "TWO + TWO = FOUR")
    both = smtcrypt_cli("--count", "TWO + TWO = FOUR", "O = 4")
    assert int(both.stdout) == len(brute_force("TWO + TWO = FOUR and O = 4")) < int(alone.stdout)


# --- errors and usage --------------------------------------------------------------------------------------------


def test_bad_formula_exits_2_with_a_caret(smtcrypt_cli):
    result = smtcrypt_cli("SEND + MORE = = MONEY")
    assert_clean_error(result)
    assert result.stderr.splitlines() == [
        "smtcrypt: error: unexpected '=': missing operand at line 1, column 15",
        "  SEND + MORE = = MONEY",
        "                ^",
    ]


@pytest.mark.parametrize("formula", ["SEND + MORE", "A = foo(B)", "ABCDEFGHIJK = 1", "A ^ B = C", "", "A = B +"])
def test_bad_formulas_exit_2(smtcrypt_cli, formula):
    result = smtcrypt_cli(formula)
    assert_clean_error(result)
    assert result.stderr.startswith("smtcrypt: error: ")


def test_bad_formula_with_json_still_exits_2(smtcrypt_cli):
    result = smtcrypt_cli("--json", "SEND + + = MONEY")
    assert result.returncode == 2 and result.stderr.startswith("smtcrypt: error: ")
    assert json.loads(result.stdout)["status"] == "error"  # a script reading stdout still gets JSON


@pytest.mark.parametrize("args", [
    ["--limit", "0", "A + B = C"],
    ["--limit", "x", "A + B = C"],
    ["--bogus", "A + B = C"],
    [],  # no formula
    ["--first", "--count", "A + B = C"],  # exclusive modes
    ["--timeout", "0", "A + B = C"],
    ["--base", "65", "A + B = C"],
    ["--digits", "x", "A + B = C"],
])
def test_usage_errors_exit_2(smtcrypt_cli, args):
    result = smtcrypt_cli(*args)
    assert_clean_error(result)


def test_usage_error_mentions_the_option(smtcrypt_cli):
    assert "--limit" in smtcrypt_cli("--limit", "0", "A + B = C").stderr
    assert "--bogus" in smtcrypt_cli("--bogus", "A + B = C").stderr
    assert "FORMULA" in smtcrypt_cli().stderr


# --- time limit -----------------------------------------------------------------------------------------------------


def test_tiny_timeout_exits_3(smtcrypt_cli):
    result = smtcrypt_cli("--timeout", "0.001", HARD)
    assert result.returncode == 3
    assert "incomplete" in result.stdout or "unknown" in result.stdout
    assert "Traceback" not in result.stderr


def test_tiny_timeout_json_is_unknown(smtcrypt_cli):
    result = smtcrypt_cli("--json", "--timeout", "0.001", HARD)
    assert result.returncode == 3
    data = json.loads(result.stdout)
    assert set(data) == JSON_KEYS | {"reason"}
    assert data["status"] == "unknown"
    assert data["complete"] is False
    assert data["reason"] == "time limit"
    assert data["count"] == len(data["solutions"])


# Z3 passes 256 MB within about 2 s on this one (under the default cap: 370 MB and still open
# after 200 s). Its sides' magnitudes overlap, so leading-digit bounds do not settle it at once.
MEMORY_HUNGRY = "ABCDEFGHIJ ** 4 + KLMNOPQRST ** 4 = UVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGH + 12345"


@pytest.mark.slow  # Z3's own cap; the process's cap ends a search as unknown in every run (test_deadlines)
def test_memory_limit_is_unknown_not_none(smtcrypt_cli):
    # Z3's own memory limit, so Z3 searches (`auto` gives this product to the digits backend, which needs little memory)
    result = smtcrypt_cli("--no-distinct", "--json", "--max-memory", "256", "--timeout", "60", "--strategy", "z3",
                          MEMORY_HUNGRY)
    assert result.returncode == 3, result.stderr
    data = json.loads(result.stdout)
    assert (data["status"], data["complete"], data["reason"]) == ("unknown", False, "memory limit")
    assert "Traceback" not in result.stderr


def test_tiny_timeout_with_unique_exits_3_not_1(smtcrypt_cli):
    result = smtcrypt_cli("--unique", "--timeout", "0.001", HARD)
    assert result.returncode == 3


def test_unbounded_unknowns_proved_infinite(smtcrypt_cli):
    result = smtcrypt_cli("--json", "x + y = 10")
    assert result.returncode == 0
    data = json.loads(result.stdout)
    assert data["status"] == "infinite" and data["complete"] is False
    assert data["reason"].startswith("infinitely many solutions: x = ")
    assert data["count"] is None and data["shown"] == 10  # no number that reads as a count
    assert all(s["mapping"]["x"] + s["mapping"]["y"] == 10 for s in data["solutions"])


def test_bounded_unknowns(smtcrypt_cli):
    result = smtcrypt_cli("x + y = 10 and x > 0 and y > 7")
    assert result.returncode == 0
    assert sorted(result.stdout.splitlines()[:2]) == ["1 + 9 = 10 and 1 > 0 and 9 > 7  /  x=1 y=9",
                                                      "2 + 8 = 10 and 2 > 0 and 8 > 7  /  x=2 y=8"]


def test_tiny_timeout_count_exits_3_and_says_why(smtcrypt_cli):
    result = smtcrypt_cli("--count", "--timeout", "0.001", HARD)
    assert result.returncode == 3
    assert "time limit" in result.stderr


# --- JSON --------------------------------------------------------------------------------------------------------------


def test_json_schema_unique(smtcrypt_cli):
    result = smtcrypt_cli("--json", "SEND + MORE = MONEY")
    assert result.returncode == 0
    assert result.stdout.count("\n") == 1  # one object, one line
    data = json.loads(result.stdout)
    assert set(data) == JSON_KEYS
    assert data["formula"] == "SEND + MORE = MONEY"
    assert data["status"] == "unique"
    assert data["count"] == 1
    assert data["complete"] is True
    assert data["solutions"] == [{"mapping": {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2},
                                  "text": "9567 + 1085 = 10652"}]
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0


@pytest.mark.parametrize("args, status, count, complete, code", [
    (["--first", "NUM + BER = PLAY"], "found", 1, False, 0),
    (["--limit", "4", "NUM + BER = PLAY"], "found", 4, False, 0),
    (["ODD * ODD = FREAKY"], "multiple", 2, True, 0),
    (["--unique", "ODD * ODD = FREAKY"], "multiple", 2, False, 1),
    (["AB + AB = AB"], "none", 0, True, 1),
    (["--unique", "AB + AB = AB"], "none", 0, True, 1),
    (["--first", "AB + AB = AB"], "none", 0, True, 1),
    (["--limit", "5", "ODD * ODD = FREAKY"], "multiple", 2, True, 0),  # the limit was not reached
    (["X / X = X"], "unique", 1, True, 0),
])
def test_json_statuses(smtcrypt_cli, args, status, count, complete, code):
    result = smtcrypt_cli("--json", *args)
    assert result.returncode == code
    data = json.loads(result.stdout)
    assert set(data) == JSON_KEYS  # `reason` only when the search is unknown
    assert (data["status"], data["count"], data["complete"]) == (status, count, complete)
    assert len(data["solutions"]) == count
    formula = args[-1]
    for solution in data["solutions"]:
        assert set(solution) == {"mapping", "text"}
        assert is_solution(formula, solution["mapping"])
        assert isinstance(solution["text"], str) and solution["text"].count("=") == formula.count("=")
    assert len({as_solution(s["mapping"]) for s in data["solutions"]}) == count


def test_json_of_several_formulas(smtcrypt_cli):
    data = json.loads(smtcrypt_cli("--json", "A**N + B**N = C**N", "N > 1").stdout)
    assert data["status"] == "multiple" and data["count"] == 2
    assert {as_solution(s["mapping"]) for s in data["solutions"]} == brute_force("A**N + B**N = C**N and N > 1")


# --- version and help ---------------------------------------------------------------------------------------------------


def test_version(smtcrypt_cli):
    result = smtcrypt_cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"smtcrypt {smtcrypt.__version__}"


def test_help_has_examples(smtcrypt_cli):
    result = smtcrypt_cli("--help")
    assert result.returncode == 0
    text = result.stdout
    assert "usage: smtcrypt" in text
    assert "examples:" in text
    assert 'smtcrypt "SEND + MORE = MONEY"' in text
    assert "--count" in text and "--unique" in text and "--json" in text
    assert "exit status" in text


def test_every_subcommand_takes_the_same_rule_options():
    """The rule options are one parent parser: every subcommand that takes a puzzle spells,
    checks and turns them into rules the same way."""
    import argparse

    from smtcrypt.cli import batch, explain, generate, solve, worksheet
    from smtcrypt.cli.options import rule_options, rules_from

    rules = {action.dest: action.option_strings for action in rule_options()._actions}
    given = ["--allow-leading-zeros", "--distinct", "AB,CD", "--assign", "A=1", "--digits", "0-7",
             "--domain", "S=1-5", "--base", "8"]
    expected = {"distinct": "AB,CD", "allow_leading_zeros": True, "base": 8, "digits": "0-7", "domains": ["S=1-5"],
                "assign": ["A=1"]}
    parsers = {"smtcrypt": (solve.build_parser(), ["X"]), "batch": (batch.build_parser(), ["FILE"]),
               "explain": (explain.build_parser(), ["X"]), "worksheet": (worksheet.build_parser(), []),
               "generate": (generate.build_parser(), [])}
    for name, (parser, positional) in parsers.items():
        options = {action.dest: action.option_strings for action in parser._actions}
        assert all(options.get(dest) == strings for dest, strings in rules.items()), name
        args = parser.parse_args([*given, *positional])
        assert rules_from(args, parser) == expected, name
        for bad in (["--base", "65"], ["--base", "1"]):
            with pytest.raises(SystemExit):
                parser.parse_args([*bad, *positional])
        with pytest.raises(SystemExit):
            rules_from(parser.parse_args(["--no-distinct", "--distinct", "AB", *positional]), parser)
    assert isinstance(rule_options(), argparse.ArgumentParser)


def test_a_worksheet_under_other_rules(tmp_path):
    result = run("worksheet", "--base", "16", "ADD + ADD = CAB", "-o", str(tmp_path / "sheet.html"), "--allow-multiple")
    assert result.returncode == 0 and "1 puzzles (1 multiple)" in result.stderr  # as smtcrypt --unique --base 16
    assert smtcrypt.verdict("ADD + ADD = CAB", base=16).status is smtcrypt.Status.MULTIPLE
    assert run("worksheet", "--base", "8", "ABC9 = D").returncode == 2  # 9 is not a digit in base 8


# --- --syntax -------------------------------------------------------------------------------------------------


def test_syntax_smtcrypt_is_the_default_notation(smtcrypt_cli):
    result = smtcrypt_cli("--syntax", "smtcrypt", "--count", "SEND + MORE = MONEY")
    assert (result.returncode, result.stdout) == (0, "1\n")


def test_syntax_enigma_reads_the_rest_of_the_command_line_as_enigma_does(smtcrypt_cli):
    result = smtcrypt_cli("--count", "--syntax", "enigma", "SubstitutedExpression", "pkm - pmd = xp", "--symbols=dkmpx")
    assert result.returncode == 0 and result.stdout.strip().isdigit()
    formula = smtcrypt_cli("--count", "--allow-leading-zeros", "--distinct", "DKMPX", "PKM - PMD = XP",
                           "P != 0, X != 0")
    assert result.stdout == formula.stdout


def test_our_output_options_may_follow_syntax_enigma(smtcrypt_cli):
    result = smtcrypt_cli("--syntax", "enigma", "--json", "SubstitutedExpression", "TOM * 13 = DALEY")
    assert result.returncode == 0 and json.loads(result.stdout)["count"] == 1
    result = smtcrypt_cli("--syntax", "enigma", "SubstitutedExpression", "TOM * 13 = DALEY", "--count")
    assert (result.returncode, result.stdout) == (0, "1\n")


def test_syntax_enigma_after_our_own_formula_options_is_a_usage_error(smtcrypt_cli):
    result = smtcrypt_cli("--base", "10", "--syntax", "enigma", "SubstitutedExpression", "A + B = C")
    assert_clean_error(result)
    assert "--syntax enigma" in result.stderr


# --- letters and names of every script, and formulas of constants ---------------------------------------------


def test_a_letter_with_a_combining_mark_is_one_letter(smtcrypt_cli):
    breve = smtcrypt_cli("--count", "TR\u0306I + TR\u0306I = SIX")  # R + U+0306 COMBINING BREVE
    caron = smtcrypt_cli("--count", "TŘI + TŘI = SIX")
    assert (breve.returncode, breve.stdout) == (caron.returncode, caron.stdout) == (0, "15\n")
    shown = smtcrypt_cli("R\u0306 + R\u0306 = SI")
    assert shown.returncode == 0 and "\u25cc" not in shown.stdout  # no mark drawn alone on a dotted circle
    assert "5 + 5 = 10  /  I=0 R\u0306=5 S=1" in shown.stdout.splitlines()


@pytest.mark.parametrize(("formula", "first_line"), [
    ("été = 5", "5 = 5  /  été=5"),
    ("τρια + τρια + τρια = εννεα", "0 + 0 + 0 = 0  /  εννεα=0 τρια=0"),  # lowercase Greek: unknowns, as x is
])
def test_lowercase_names_of_every_script_are_integer_unknowns(smtcrypt_cli, formula, first_line):
    result = smtcrypt_cli(formula)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert result.stdout.splitlines()[0] == first_line


@pytest.mark.parametrize(("args", "code", "count"), [
    (["12 + 33 = 45"], 0, "1"),
    (["12 + 33 = 46"], 1, "0"),
    (["--syntax", "enigma", "SubstitutedExpression", "12 + 33 = 45"], 0, "1"),
    (["--syntax", "enigma", "SubstitutedExpression", "12 + 33 = 46"], 1, "0"),
    (["--syntax", "cryptator", "'12'+'33'='45'"], 0, "1"),  # from Cryptator's own tests
    (["--syntax", "cryptator", "'12'+'33'='46'"], 1, "0"),
])
def test_a_puzzle_of_constants_is_true_or_false_in_every_notation(smtcrypt_cli, args, code, count):
    result = smtcrypt_cli("--count", *args)
    assert (result.returncode, result.stdout, result.stderr) == (code, count + "\n", "")
    shown = smtcrypt_cli(*args)
    assert shown.returncode == code and "Traceback" not in shown.stderr
