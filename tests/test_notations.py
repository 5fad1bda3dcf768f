"""One door for every notation: the table of readers, one signature, `Puzzle.read`, and the one
command-line driver taking every notation alike (its options before or after `--syntax NAME`)."""

from __future__ import annotations

import argparse
import ast
import dataclasses
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from smtcrypt import Puzzle
from smtcrypt.cli import main
from smtcrypt.cli.options import syntax_help, take_syntax
from smtcrypt.core.rules import Rules
from smtcrypt.errors import FormulaError, ParameterError
from smtcrypt.notations import NOTATIONS, READERS, SYNTAXES, Notation, Reading, named_syntaxes, read, shared_options
from smtcrypt.notations.options import boolean_text, boolean_value, option

ROOT = Path(__file__).resolve().parent.parent
DIVISION = (ROOT / "examples" / "layouts" / "division.txt").read_text(encoding="utf-8")

# The same puzzle, or a known one, in each notation, and its number of solutions.
SAMPLES = {
    "smtcrypt": ("SEND + MORE = MONEY", {}, 1),
    "layout": (DIVISION, {}, Puzzle.from_layout(DIVISION).count()),
    "enigma": ('SubstitutedSum "SEND + MORE = MONEY"', {}, 1),
    "cryptator": ("send+more=money", {}, 1),
}


def test_the_table_holds_every_notation_once() -> None:
    assert set(READERS) == set(SAMPLES) and tuple(READERS) == SYNTAXES


@pytest.mark.parametrize("syntax", sorted(SAMPLES))
def test_every_reader_returns_a_checked_problem_typed_rules_and_a_view(syntax: str) -> None:
    text, options, count = SAMPLES[syntax]
    reading = read(text, syntax, **options)
    assert isinstance(reading, Reading) and reading.syntax == syntax
    assert isinstance(reading.rules, Rules) and reading.problem.letters
    assert set(reading.seconds) == {"parse", "check"}
    assert Puzzle.read(text, syntax, **options).count() == count
    solution = Puzzle.read(text, syntax, **options).first()
    assert solution is not None and reading.view.line(solution)


def test_the_shortcuts_read_through_the_same_door() -> None:
    assert Puzzle.from_enigma(["SubstitutedExpression", "TOM * 13 = DALEY"]).count() == 1
    assert Puzzle.from_enigma('SubstitutedExpression "TOM * 13 = DALEY"').count() == 1
    assert Puzzle.from_cryptator("send+more=money").reading.syntax == "cryptator"
    assert Puzzle.from_layout(DIVISION).reading.syntax == "layout"
    assert Puzzle("SEND + MORE = MONEY", base=10).reading.syntax == "smtcrypt"
    with pytest.raises(TypeError):  # a reading carries its own rules
        Puzzle(read("A + B = C"), base=16)
    with pytest.raises(FormulaError, match="unknown syntax"):
        read("A + B = C", "fortran")


def test_enigmas_impossible_puzzle_has_no_solution_through_the_api() -> None:
    puzzle = Puzzle.from_enigma('SubstitutedSum -b7 "SEND + MORE = MONEY"')
    assert puzzle.reading.impossible is not None and puzzle.count() == 0


def test_shared_rule_options_in_each_notation() -> None:
    assert shared_options("smtcrypt", {"base": 16}) == {"rules": Rules(base=16)}
    assert shared_options("cryptator", {"base": 16, "assign": ["a=1"]})["assign"] == ["a=1"]
    assert shared_options("enigma", {"base": 10, "distinct": True, "digits": None}) == {}
    with pytest.raises(FormulaError, match="enigma.py command line's own"):
        shared_options("enigma", {"base": 16})
    with pytest.raises(FormulaError, match="only --base"):
        shared_options("cryptator", {"digits": "1-9"})


@dataclasses.dataclass(frozen=True)
class ShoutedOptions:
    """A toy notation's own option, declared once."""

    loud: bool = option(True, "read lowercase letters as capitals", "--loud", metavar="true|false",
                        text=boolean_text, value=boolean_value)


def shouted(text: str | list[str], options: ShoutedOptions, rules: Rules | None, /) -> Reading:
    """A toy notation: the formula language written in lowercase (one formula, or several)."""
    text = text if isinstance(text, str) else "\n".join(text)
    return dataclasses.replace(read(text.upper() if options.loud else text, rules=rules), syntax="shouted")


def test_a_new_notation_is_its_reader_and_one_row(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The row's options record makes the option of the command line (with its help), of the web's
    query string and of the API, each read and checked as the record says."""
    assert named_syntaxes() == ("smtcrypt", "enigma", "cryptator")  # a layout comes by --layout FILE
    monkeypatch.setitem(NOTATIONS, "shouted", Notation("shouted", shouted, "shouted (lowercase formulas)", "formula",
                                                       options=ShoutedOptions, rules=True))
    assert read("send + more = money", "shouted").problem.letters == read("SEND + MORE = MONEY").problem.letters
    assert Puzzle.read("send + more = money", "shouted", base=10).count() == 1
    assert Puzzle.read("send + more = money", "shouted", loud=False).verdict().status.value == "infinite"
    with pytest.raises(ParameterError, match="^loud: expected True or False"):
        Puzzle.read("a + b = c", "shouted", loud="yes")
    assert take_syntax(["--syntax", "shouted", "a + b = c"]) == ("shouted", ["a + b = c"])  # the command line's
    parser = argparse.ArgumentParser()
    syntax_help(parser)
    assert "shouted (lowercase formulas)" in parser.format_help()
    assert run(capsys, "--syntax", "shouted", "--count", "send + more = money")[:2] == (0, "1\n")
    with pytest.raises(SystemExit) as exited:
        main(["--syntax", "shouted", "--loud", "maybe", "send + more = money"])
    assert exited.value.code == 2 and "argument --loud: expected true or false, not 'maybe'" in capsys.readouterr().err
    with pytest.raises(FormulaError, match="characters: the limit is"):  # the door's own checks hold for it
        read("a" * 200_000, "shouted")
    try:
        from smtcrypt.web.query import BadQuery, read_query
    except ImportError:  # the web extra is not installed
        return
    query = read_query([("formula", "a = b"), ("syntax", "shouted"), ("loud", "no")], max_timeout=10)
    assert (query.syntax, query.options) == ("shouted", {"loud": False})
    with pytest.raises(BadQuery, match="is syntax=shouted's, not syntax=smtcrypt's"):
        read_query([("formula", "a = b"), ("loud", "no")], max_timeout=10)


def test_syntax_is_read_once_wherever_it_stands() -> None:
    assert take_syntax(["--json", "--syntax", "enigma", "X"]) == ("enigma", ["--json", "X"])
    assert take_syntax(["--syntax=cryptator", "a+b=c"]) == ("cryptator", ["a+b=c"])
    assert take_syntax(["A + B = C"]) == ("smtcrypt", ["A + B = C"])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("argv", [
    ["--syntax", "enigma", "--json", "SubstitutedExpression", "TOM * 13 = DALEY"],  # ours after --syntax
    ["--json", "--syntax", "enigma", "SubstitutedExpression", "TOM * 13 = DALEY"],  # before it
    ["--syntax", "enigma", "SubstitutedExpression", "TOM * 13 = DALEY", "--json"],  # among the solver's arguments
    ["--syntax=enigma", "SubstitutedExpression", "TOM * 13 = DALEY", "--json"],
])
def test_our_options_stand_before_or_after_syntax_enigma(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert code == 0 and data["count"] == 1 and data["syntax"] == "enigma"


@pytest.mark.parametrize("syntax, puzzle", [("enigma", ["SubstitutedExpression", "TOM * 13 = DALEY"]),
                                            ("cryptator", ["send+more=money"]),
                                            ("smtcrypt", ["SEND + MORE = MONEY"])])
def test_every_notation_takes_our_search_options(capsys: pytest.CaptureFixture[str], syntax: str,
                                                  puzzle: list[str]) -> None:
    code, out, _ = run(capsys, "--unique", "--json", "--strategy", "z3", "--syntax", syntax, *puzzle)
    data = json.loads(out)
    assert code == 0 and data["status"] == "unique" and data["strategy"] == "z3"
    code, out, _ = run(capsys, "--syntax", syntax, *puzzle, "--count", "--timeout", "60")
    assert code == 0 and out.strip() == "1"


def test_enigma_first_after_the_solver_is_enigmas_and_before_it_ours(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--first", "--syntax", "enigma", "SubstitutedExpression", "--distinct=", "AB = BA"],
                 ["--syntax", "enigma", "SubstitutedExpression", "--distinct=", "AB = BA", "--first"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and out.count(" / ") == 1 and "stopped as asked" in out


def test_a_rule_option_of_ours_with_enigma_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--digits", "1-9", "--syntax", "enigma", "SubstitutedExpression", "A + B = C"])
    assert stopped.value.code == 2 and "--digits" in capsys.readouterr().err


@pytest.mark.parametrize("command, text", [("explain", 'SubstitutedExpression "TOM * 13 = DALEY"'),
                                           ("explain", "send+more=money")])
def test_explain_takes_every_notation(capsys: pytest.CaptureFixture[str], command: str, text: str) -> None:
    syntax = "enigma" if text.startswith("Substituted") else "cryptator"
    code, out, _ = run(capsys, command, "--json", "--syntax", syntax, text)
    assert code == 0 and json.loads(out)["solution"]


def test_batch_takes_enigma_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = tmp_path / "puzzles.txt"
    lines.write_text('SubstitutedExpression "TOM * 13 = DALEY"\nSubstitutedSum -b7 "SEND + MORE = MONEY"\n',
                     encoding="utf-8")
    code, out, _ = run(capsys, "batch", "--count", "--syntax", "enigma", str(lines))
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [answer["count"] for answer in answers] == [1, 0]
    assert all(answer["syntax"] == "enigma" for answer in answers)


def test_play_takes_every_notation() -> None:
    result = subprocess.run([sys.executable, "-m", "smtcrypt", "play", "--syntax", "cryptator", "a+a=b"],
                            input="A = 1\n", capture_output=True, text=True, timeout=60)
    assert result.returncode in (0, 1) and "Traceback" not in result.stderr and result.stdout


def test_a_file_that_is_not_utf8_is_refused_by_name(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "layout.txt"
    bad.write_bytes(b"  A\xff\n")
    code, _, err = run(capsys, "--layout", str(bad))
    assert code == 2 and "not UTF-8" in err
    marked = tmp_path / "marked.txt"  # a byte-order mark, as some editors save UTF-8, is not part of the text
    marked.write_text("\ufeff" + DIVISION, encoding="utf-8")
    code, _, _ = run(capsys, "--layout", str(marked), "--count")
    assert code == 0


def test_no_rules_travel_as_dicts_below_the_edges() -> None:
    """Below the command line, the web page and the API facade, rules are typed (`Rules`): no
    `**rules` and no parameter or field named `rules` typed as a dict."""
    package = ROOT / "smtcrypt"
    edges = ("cli", "web")
    found = []
    for path in package.rglob("*.py"):
        relative = path.relative_to(package)
        if relative.parts[0] in edges or relative.name == "api.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg is None and isinstance(node.value, ast.Name) \
                    and "rules" in node.value.id:
                found.append(f"{relative}:{node.lineno} **{node.value.id}")
            if isinstance(node, (ast.arg, ast.AnnAssign)):
                name = node.arg if isinstance(node, ast.arg) else ast.unparse(node.target)
                annotation = node.annotation
                if name.endswith("rules") and annotation is not None and "dict" in ast.unparse(annotation).lower():
                    found.append(f"{relative}:{node.lineno} {name}: {ast.unparse(annotation)}")
    assert found == []


def test_the_options_records_are_the_vocabulary_of_every_door(capsys: pytest.CaptureFixture[str]) -> None:
    """Cryptator's and a layout's own options: the API's shortcuts take the records' fields, the command
    line's groups are made of them, the web reads them, and a wrong one is refused by name everywhere."""
    from smtcrypt.cli.solve import build_parser, cryptator_parser
    from smtcrypt.notations.cryptator.options import CryptatorOptions
    from smtcrypt.notations.layout.options import LayoutOptions
    from smtcrypt.notations.options import specs

    for shortcut, kind in ((Puzzle.from_cryptator, CryptatorOptions), (Puzzle.from_layout, LayoutOptions)):
        keywords = [name for name, parameter in inspect.signature(shortcut).parameters.items()
                    if parameter.kind is not parameter.VAR_KEYWORD][1:]
        assert keywords == [spec.name for spec in specs(kind)]
    for parser, kind in ((cryptator_parser(), CryptatorOptions), (build_parser(), LayoutOptions)):
        dests = {action.dest: action for action in parser._actions}
        for spec in specs(kind):
            assert not spec.flags or (spec.name in dests and dests[spec.name].help == spec.help)
    assert Puzzle.read("send+more=money", "cryptator", relax_max=1).count() == 104
    with pytest.raises(ParameterError, match="^relax_max: must be at least 0, not -1"):
        Puzzle.read("send+more=money", "cryptator", relax_max=-1)
    with pytest.raises(ParameterError, match="^nonzero_remainders: not an option of syntax 'cryptator'"):
        Puzzle.read("send+more=money", "cryptator", nonzero_remainders=True)
    assert run(capsys, "--syntax", "cryptator", "-max", "1", "--count", "send+more=money")[:2] == (0, "104\n")
    code, out, _ = run(capsys, "--layout", str(ROOT / "examples" / "layouts" / "division.txt"), "--nonzero-remainders",
                       "--count")
    assert code in (0, 1) and int(out) == Puzzle.from_layout(DIVISION, nonzero_remainders=True).count()
    try:
        from smtcrypt.web.query import BadQuery, read_query
    except ImportError:  # the web extra is not installed
        return
    assert read_query([("formula", "a+b=c"), ("syntax", "cryptator"), ("relax_min", "1")],
                      max_timeout=10).options == {"relax_min": 1}
    with pytest.raises(BadQuery, match="'relax_min': must be an integer, not 'x'"):
        read_query([("formula", "a+b=c"), ("syntax", "cryptator"), ("relax_min", "x")], max_timeout=10)
    from smtcrypt.web.play import play  # a game on the page, in any notation, as `smtcrypt play --syntax ...`

    game = play({"formula": "send+more=money", "syntax": "cryptator", "relax_max": 0, "decisions": ["M = 1"]}, 10)
    assert game["decisions"] == ["M = 1"] and game["fixed"]["M"] == 1
