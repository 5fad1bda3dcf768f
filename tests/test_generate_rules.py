"""The generator's rules are typed and made once per run: the public functions take a `Rules` (or the
rule keywords, made into one by `make_rules` at the edge), and every part below them takes the
`Rules` as they are, never a `dict[str, Any]` of rules nor `**rules`, so a candidate is never
validated again."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import smtcrypt.core.rules
from smtcrypt.core.rules import Rules, make_rules, rules_of
from smtcrypt.errors import FormulaError
from smtcrypt.setters.generate import Totals, generate, generate_crosswords, grid_solutions, sample
from smtcrypt.setters.generate.decide import Setting
from smtcrypt.setters.generate.rules import DEFAULT_RULES, given_rules

PACKAGE = Path(__file__).resolve().parent.parent / "smtcrypt"
BELOW = sorted([*(PACKAGE / "setters" / "generate").glob("*.py"), PACKAGE / "setters" / "distribute.py"])
CLI = [PACKAGE / "cli" / name for name in ("generate.py", "generate_crossword.py", "longmul.py")]
# The public functions: each takes `rules: Rules | None` and the rule keywords, typed as `RuleOptions`.
PUBLIC = {"generate", "sample", "doubly_true", "generate_crosswords", "crossword_candidates", "grid_solutions"}
TYPED = {"Rules", "Rules | None"}


def name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def functions(tree: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


@pytest.mark.parametrize("path", [*BELOW, *CLI], ids=name)
def test_no_rules_are_spread_as_keywords(path):
    """`f(**rules)` (or `**self.rules`) hands an untyped dict on: below the edge the `Rules` go as they are."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spread = [f"line {node.lineno}: **{ast.unparse(keyword.value)}" for node in ast.walk(tree)
              if isinstance(node, ast.Call) for keyword in node.keywords
              if keyword.arg is None and "rules" in ast.unparse(keyword.value).lower()]
    assert spread == []


@pytest.mark.parametrize("path", BELOW, ids=name)
def test_rules_are_typed_below_the_edge(path):
    """Every parameter and attribute named `rules` is a `Rules`; keyword arguments (`**options`) are
    the public functions' typed rule keywords only."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    wrong = []
    for function in functions(tree):
        arguments = function.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
            if "rules" in argument.arg:
                annotation = ast.unparse(argument.annotation) if argument.annotation is not None else "(none)"
                if annotation not in TYPED:
                    wrong.append(f"{function.name}({argument.arg}: {annotation})")
        if arguments.kwarg is not None:
            annotation = ast.unparse(arguments.kwarg.annotation) if arguments.kwarg.annotation is not None else ""
            if function.name not in PUBLIC or annotation != "Unpack[RuleOptions]":
                wrong.append(f"{function.name}(**{arguments.kwarg.arg}: {annotation or '(none)'})")
        if function.name in PUBLIC:
            given = {argument.arg: ast.unparse(argument.annotation) for argument in arguments.kwonlyargs
                     if argument.annotation is not None}
            if given.get("rules") != "Rules | None":
                wrong.append(f"{function.name} takes no `rules: Rules | None`")
    for node in ast.walk(tree):
        if (isinstance(node, ast.AnnAssign) and "rules" in ast.unparse(node.target).lower()
                and ast.unparse(node.annotation) not in TYPED):
            wrong.append(f"line {node.lineno}: {ast.unparse(node.target)}: {ast.unparse(node.annotation)}")
    assert wrong == []


@pytest.mark.parametrize("path", BELOW, ids=name)
def test_no_dict_of_any_names_rules(path):
    """A text check as well as the tree's: no `dict[str, Any]` (nor `Mapping[str, Any]`) on a line about rules."""
    lines = [f"{number}: {line.strip()}" for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if "rules" in line.lower() and ("dict[str, Any]" in line or "Mapping[str, Any]" in line)]
    assert lines == []


@pytest.mark.parametrize("path", BELOW, ids=name)
def test_rules_are_validated_at_the_edge_only(path):
    """`make_rules` (the validation) runs in `core.rules.rules_of`, once per run; a candidate is checked
    under the run's `Rules` as they are."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
             and ast.unparse(node.func).split(".")[-1] == "make_rules"]
    assert calls == []


def test_the_public_functions_are_the_ones_that_take_keywords():
    """The structural tests above name the public functions: each one is still there."""
    found = {function.name for path in BELOW for function in functions(ast.parse(path.read_text(encoding="utf-8")))
             if function.args.kwarg is not None}
    assert found == PUBLIC


def test_a_run_validates_its_rules_once(monkeypatch):
    """Products go to the solver, each checked under the run's rules: made once, whatever the candidates."""
    made = []

    def counted(**options):
        made.append(options)
        return make_rules(**options)

    monkeypatch.setattr(smtcrypt.core.rules, "make_rules", counted)
    totals = Totals()
    words = ["ODD", "FREAKY", "TWO", "SQUARE", "AB"]
    found = [p.formula for p in generate(words, "A * B = C", totals=totals, domains=["D=7"])]
    assert sum(totals.verdicts.values()) >= 2 and len(made) == 1
    assert found == [p.formula for p in generate(words, "A * B = C", rules=make_rules(domains=["D=7"]))]
    assert len(made) == 1  # given as `Rules`, they are not made again


@pytest.mark.slow  # three whole runs; the other tests here hold the typed rules every run
def test_rules_or_keywords_give_the_same_run():
    words = ["SEND", "MORE", "MONEY", "ABC"]
    by_keywords = [(p.formula, p.solution.mapping) for p in generate(words, allow_leading_zeros=True, base=10)]
    by_rules = [(p.formula, p.solution.mapping) for p in generate(words, rules=make_rules(allow_leading_zeros=True))]
    assert by_keywords == by_rules
    assert ([p.formula for p in sample(words, count=2, rules=DEFAULT_RULES)]
            == [p.formula for p in sample(words, count=2)])
    grid = (("A", "E", "C"), ("DE", "BD", "EA"), ("DC", "BA", "AD"))
    assert grid_solutions(grid, rules=DEFAULT_RULES) == grid_solutions(grid) == [{"A": 4, "B": 2, "C": 7, "D": 1,
                                                                                  "E": 3}]


def test_rules_and_keywords_together_or_a_dict_are_refused():
    with pytest.raises(TypeError, match="not both"):
        list(generate(["SEND"], rules=DEFAULT_RULES, base=16))
    with pytest.raises(TypeError, match="Rules"):
        list(generate(["SEND"], rules={"base": 16}))  # type: ignore[arg-type]
    with pytest.raises(FormulaError, match="base"):
        list(generate(["SEND"], base=99))
    with pytest.raises(ValueError, match="digits"):
        list(generate_crosswords(["AB", "CD"], rules=make_rules(digits="0-8")))


def test_given_rules_name_what_differs_from_the_defaults():
    """What names a run in its checkpoint (JSON) and decides how it searches: the default rules give
    nothing, an explicit `base=10` included; the rest by their keyword."""
    assert given_rules(DEFAULT_RULES) == given_rules(make_rules(base=10, domains={}, assign=[])) == {}
    assert given_rules(make_rules(distinct=False, allow_leading_zeros=True, base=16)) == {
        "distinct": False, "allow_leading_zeros": True, "base": 16}
    assert given_rules(make_rules(distinct="CBA,ED", digits="1-3", domains=["S=8-9"], assign={"M": 1},
                                  nonzero_single_letters=True)) == {
        "distinct": ["ABC", "DE"], "digits": [1, 2, 3], "domains": {"S": [8, 9]}, "assign": {"M": 1},
        "nonzero_single_letters": True}


def test_a_shapes_variant_is_a_replace_of_the_runs_rules():
    """Rules are frozen: a setting's variant (here another base) is `dataclasses.replace`, and the
    setting decides by it, with the run's rules left as they were."""
    run = Setting("A + B = C", DEFAULT_RULES, 10.0)
    wide = dataclasses.replace(run, rules=dataclasses.replace(run.rules, base=16))
    assert run.by_search and run.base == 10
    assert not wide.by_search and wide.base == 16 and Rules() == DEFAULT_RULES
    assert not Setting("A + B = C", make_rules(distinct="AB,CD"), 10.0).by_search  # groups go to the solver
    assert rules_of(wide.rules, {}) is wide.rules


def test_a_setting_refuses_rules_that_are_not_rules():
    """A dict of rules would fail deep in a worker process; the setting refuses it where it is made."""
    with pytest.raises(TypeError, match="Rules"):
        Setting("A + B = C", {}, 60.0)  # type: ignore[arg-type]
