"""Explanations: every step re-proved here by a check that shares nothing with the explainer (the
step's fact holds in every solution that meets its assumptions: solutions from the brute-force
reference, or from smtcrypt's complete search where that would be too slow), explanations end in
the solution, and the difficulty is deterministic."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from reference import brute_force, is_solution

import smtcrypt
from smtcrypt.api import Puzzle
from smtcrypt.cli import main
from smtcrypt.core.results import Status
from smtcrypt.teach.explain import Explainer, Step, condition, difficulty

DATA = Path(__file__).parent / "data" / "notebook.txt"
EXERCISM = Path("/work/shared/puzzles/exercism.tsv")
NOTEBOOK = [line.strip() for line in DATA.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
MANY = 20000  # above this many solutions, each fact is checked by a search for a counterexample instead


def letters_of(text: str) -> set[str]:
    return {ch for word in re.findall(r"[A-Z][A-Z0-9]*", text) for ch in word if ch.isalpha()}


def holds(condition_text: str, mapping: dict[str, int]) -> bool:
    """The reference's evaluator on a condition over some of the letters (no digit rules)."""
    used = {letter: mapping[letter] for letter in letters_of(condition_text)}
    return is_solution(condition_text, used, distinct=False, allow_leading_zeros=True)


def all_solutions(formula: str) -> list[dict[str, int]] | None:
    """Every solution: by brute force when small, else by smtcrypt's complete search; None if too many."""
    if len(letters_of(formula)) <= 7:
        return [dict(solution) for solution in brute_force(formula)]
    found = list(Puzzle(formula).solve(limit=MANY + 1))
    return None if len(found) > MANY else [dict(s.mapping) for s in found]


def check_explanation(formula: str, explanation) -> None:
    """Every fact, under its assumptions, holds in every solution; the explanation ends in the answer."""
    solutions = all_solutions(formula)
    checked = 0
    for step in explanation.steps:
        assert step.kind in ("deduce", "case", "contradiction", "solution")
        if step.fact is None:
            continue
        if solutions is not None:
            for mapping in solutions:
                if all(holds(a, mapping) for a in step.assuming):
                    assert holds(step.fact, mapping), (step, mapping)
        else:  # a counterexample would be a solution of: the formula, the assumptions, not the fact
            verdict = smtcrypt.verdict([formula, *step.assuming, f"not ({step.fact})"], timeout=60)
            assert verdict.status is Status.NONE, step
        checked += 1
    person_steps_read_as_printed(explanation)
    last = explanation.steps[-1]
    if explanation.status == "unique":
        assert last.kind == "solution"
        if explanation.complete:
            assert last.fact is not None and all(holds(last.fact, s) for s in solutions or [])
        assert solutions is None or explanation.solution == solutions[0] or [explanation.solution] == solutions
    elif explanation.status == "none":
        assert solutions == [] and last.kind in ("contradiction", "solution")
    else:
        assert last.kind == "solution"
    assert explanation.steps


PRINTED = {"!=": "≠", ">=": "≥", "<=": "≤", " not in ": "∉"}


def person_steps_read_as_printed(explanation) -> None:
    """A person's steps: printed symbols, never the programmer's; no step concludes a fact it was
    given; every step of reasoning concludes something about a letter (a carry only inside one)."""
    for step in explanation.steps:
        assert not any(symbol in step.text for symbol in PRINTED), step.text
        if step.kind != "deduce" or " So " not in step.text or ", with " not in step.text:
            continue
        given = step.text.split(", with ", 1)[1].split(". So ", 1)[0]
        given_facts = set(re.split(r", | and ", given))
        for conjunct in (step.fact or "").split(" and "):
            shown = conjunct
            for plain, printed in PRINTED.items():
                shown = shown.replace(plain, printed)
            assert shown not in given_facts, step.text
        if "cases" not in step.uses:
            assert step.fact is not None or "?" in step.text, step.text
    for step in explanation.steps:  # a step names each fact it uses once: no column's equation twice
        if ", with " not in step.text or ": " not in step.text:
            continue
        statements = step.text.split(", with ", 1)[0].rsplit(": ", 1)[-1]
        pieces = [piece for piece in re.split(r"; | and ", statements) if "=" in piece]
        assert len(pieces) == len(set(pieces)), step.text


FAST = ["SEND + MORE = MONEY", "ODD * ODD = FREAKY", "SORRY + TO + BE + A + PARTY = POOPER",
        "DOUBLE + DOUBLE + TOIL = TROUBLE", "X / X = X", "ONE < TWO and FOUR < FIVE", "TWO * TWO = SQUARE",
        "ACA + DD == BD", "A + A + A + A + A + A + A + A + A + A + A + B == BCC"]


@pytest.mark.parametrize("formula", FAST)
def test_every_step_holds_in_every_solution(formula):
    check_explanation(formula, Puzzle(formula).explain())


def exercism() -> list[str]:
    if not EXERCISM.exists():
        return []
    return [line.split("\t")[0] for line in EXERCISM.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


@pytest.mark.slow
@pytest.mark.parametrize("formula", NOTEBOOK + exercism())
def test_every_step_of_every_explanation(formula):
    check_explanation(formula, Puzzle(formula).explain())


def test_send_more_money_is_explained_column_by_column():
    explanation = Puzzle("SEND + MORE = MONEY").explain()
    assert explanation.status == "unique" and explanation.complete
    first = explanation.steps[0]
    assert first.fact == "M = 1" and first.uses == ("column 5",) and first.assuming == ()
    assert any("N = E + 1" in (step.fact or "").split(" and ") for step in explanation.steps)
    assert explanation.steps[-1].kind == "solution"
    assert explanation.solution == {"D": 7, "E": 5, "M": 1, "N": 6, "O": 0, "R": 8, "S": 9, "Y": 2}
    assert all(step.kind != "case" for step in explanation.steps)
    assert explanation.difficulty == 1
    # a puzzle book's walkthrough takes about 7 steps; the reasoning's own trace took 18
    assert len(explanation.steps) <= 10 < len(explanation.trace)
    assert all(step.fact is not None for step in explanation.steps)  # no step about carries only
    assert [step.fact for step in explanation.trace][:2] == ["M = 1", None]  # --terse: today's form, c5 = 1 alone


def forced_alone(step) -> bool:
    """A step of one column that only does its arithmetic: every other letter and carry of it given
    a digit, one letter's digit concluded (`Column 6: O + c6 = C, with O = 2 and c6 = 1. So C = 3.`)."""
    match = re.fullmatch(r"Column \d+: ([^,]*), with (.*)\. So (\S+) = (\d+)\.", step.text)
    if match is None:
        return False
    statement, given, concluded, _ = match.groups()
    known = {part.split(" = ")[0] for part in re.split(r", | and ", given) if re.fullmatch(r"\S+ = \d+", part)}
    named = set(re.findall(r"\bc\d+\b|\b[A-Z]\b", statement))
    return named - {concluded} <= known


@pytest.mark.parametrize("formula", ["GREEN + ORANGE = COLORS", "SEND + MORE = MONEY", "DONALD + GERALD = ROBERT",
                                     "CRACK + HACK = ERROR"])
def test_a_columns_arithmetic_is_said_with_the_step_that_made_it_possible(formula):
    explanation = Puzzle(formula).explain()
    assert not [step.text for step in explanation.steps if forced_alone(step)]
    # its trace does it alone: after `Suppose O = 2`, `Column 6: O + c6 = C with O = 2 and c6 = 1. So C = 3.`
    if formula == "GREEN + ORANGE = COLORS":
        assert any(step.text.startswith("Column 6: ") and step.text.endswith("So C = 3.") for step in explanation.trace)
        told = [step.text for step in explanation.steps]
        supposed = told.index("Suppose O = 2.")
        assert told[supposed + 1].startswith("Columns 6, ") and "C = 3" in told[supposed + 1].split(" So ")[1]
        assert len(explanation.steps) <= 27  # 3 steps a letter at most (29 when each column's arithmetic was a step)
    check_explanation(formula, explanation)


def test_a_step_names_a_column_once_when_a_pair_of_columns_has_it():
    from smtcrypt.teach.explain.person import Teller
    explainer = Explainer(Puzzle("GREEN + ORANGE = COLORS").problem)
    columns = {rule.name: rule for rule in explainer.rules if len(rule.equations) == 1}
    pair = next(rule for rule in explainer.rules if rule.uses == ("column 5", "column 4"))
    assert pair.said == (columns["column 5"].statement, columns["column 4"].statement)
    teller = Teller(explainer.variables, explainer.letters, explainer.named, explainer.groups,
                    explainer.distinct_text, explainer.prover.domain_term, explainer.budget)
    head, statements, _ = teller.rules_said([columns["column 3"], columns["column 4"], pair])
    assert head == "columns 3, 4 and 5"
    assert statements == f"{columns['column 3'].statement}; {columns['column 4'].statement}; " \
                         f"{columns['column 5'].statement}"  # column 4 once, though the pair has it too


def test_a_case_split_is_shown_and_closed():
    explanation = Puzzle("DOUBLE + DOUBLE + TOIL = TROUBLE").explain()
    cases = [step for step in explanation.trace if step.kind == "case"]
    assert cases and explanation.difficulty >= 3
    case = cases[0]
    assert case.assuming[-1] == case.fact
    closing = [step for step in explanation.trace if step.kind == "contradiction" and step.fact == f"not ({case.fact})"]
    assert closing and closing[0].assuming == case.assuming[:-1]
    # told as a person's: "Suppose D = 6: then ... cannot hold. So D ≠ 6", the last digit left in the same step
    supposed = [step for step in explanation.steps if step.text.startswith(f"Suppose {case.fact}")]
    assert supposed and supposed[0].assuming == case.assuming[:-1]
    assert supposed[0].fact in (f"not ({case.fact})", f"{case.fact.split(' = ')[0]} = {explanation.solution[case.fact[0]]}")


def test_products_use_last_digits_and_sizes():
    explanation = Puzzle("ODD * ODD = FREAKY").explain()
    uses = {use for step in explanation.steps for use in step.uses}
    assert "the last digit" in uses and "the sizes of the numbers" in uses
    assert explanation.status == "multiple" and len(explanation.solutions) == 2
    assert [s.kind for s in explanation.steps[-2:]] == ["solution", "solution"]


def test_products_are_reasoned_column_by_column_as_in_long_multiplication():
    explanation = Puzzle("HIP * HIP = HURRAY").explain()
    uses = {use for step in explanation.steps for use in step.uses}
    assert "the last digit" in uses and "column 2 of the long multiplication" in uses
    last_digit = next(step for step in explanation.steps if step.uses and step.uses[0] == "the last digit")
    assert "P·P = Y + 10·c2" in last_digit.text  # the units column: the last digit times itself, and its carry
    second = next(step for step in explanation.steps if "column 2 of the long multiplication" in step.uses)
    assert "2·I·P + c2 = A + 10·c3" in second.text  # both rows' digits in the tens column, and the carry in
    assert explanation.status == "unique" and explanation.complete
    check_explanation("HIP * HIP = HURRAY", explanation)


def test_a_long_multiplication_needs_fewer_cases_than_last_digits_and_sizes():
    # PI * R**2 = AREA took 5 case splits with the last digits and sizes alone
    explanation = Puzzle("PI * R**2 = AREA").explain()
    assert explanation.complete and explanation.case_splits <= 3
    check_explanation("PI * R**2 = AREA", explanation)


def test_a_constraint_over_few_letters_is_decided_by_trying_its_digits():
    # with only the bounds, this took 654 case splits (1,312 steps)
    explanation = Puzzle("sum(range(POP)) = BOBO").explain()
    assert [step.fact for step in explanation.trace[:-1]] == ["P = 1", "O = 0", "B = 5"]
    assert all(step.uses == ("trying the digits",) for step in explanation.steps[:-1])
    assert explanation.difficulty == 3 and explanation.complete
    check_explanation("sum(range(POP)) = BOBO", explanation)


def wildcard_facts_hold(formula: str, explanation, solutions, **rules) -> None:
    """Each step's conclusion, `?k` read as the k-th `?`'s digit, holds in every solution that meets
    its assumptions (solutions: smtcrypt's complete search, which shares nothing with the explainer)."""
    spare = [letter for letter in "ZYXWVUTSRQ" if letter not in formula]
    for step in explanation.steps:
        if step.kind != "deduce" or " So " not in step.text:
            continue
        conclusion = step.text.rsplit(" So ", 1)[1].rstrip(".")
        if re.search(r"\bc\d", conclusion):  # a carry's value: not a condition on the digits
            continue
        renamed = re.sub(r"\?(\d+)", lambda m: spare[int(m.group(1)) - 1], conclusion)
        for solution in solutions:
            digits = {**solution.mapping, **dict(zip(spare, solution.wildcards))}
            if all(holds(a, digits) for a in step.assuming):
                assert holds(renamed, digits), (step.text, str(solution))
        assert step.fact is None or not re.search(r"[^\x00-\x7f]", step.fact)


@pytest.mark.parametrize("formula", ["?? * ?? = 1?0?", "A? + ?A = 1?1", "?A * B = 1?4"])
def test_wildcards_are_digits_of_their_own_not_distinct_letters(formula):
    # a `?` may repeat any digit: 11 * 91 = 1001 is a solution, so no step may say the last `?`s are >= 2
    explanation = Puzzle(formula).explain()
    solutions = list(Puzzle(formula).solve())
    wildcard_facts_hold(formula, SimpleNamespace(steps=explanation.trace), solutions)  # --terse: the formula language
    for step in explanation.steps:  # the person's steps: their facts over the named letters
        for solution in solutions:
            if step.fact is not None and all(holds(a, dict(solution.mapping)) for a in step.assuming):
                assert holds(step.fact, dict(solution.mapping)), (step.text, str(solution))
    assert all(not re.search(r"[^\x00-\x7f·≡≠≤≥∉]", step.text) for step in explanation.steps)  # `?k`, never hidden names
    listed = [step.text for step in explanation.steps if step.text.startswith("Solution: ")]
    assert listed and listed[0] == f"Solution: {solutions[0]}."  # the formula filled in, `?`s and all


def test_distinct_groups_are_what_the_explanation_assumes(capsys):
    formula = "AB * CD = EEF"
    explanation = Puzzle(formula, distinct="ABCD").explain()
    solutions = list(Puzzle(formula, distinct="ABCD").solve())
    assert len(solutions) == 42 and explanation.count == 42
    for step in explanation.steps:
        if step.fact is not None:
            assert all(holds(step.fact, dict(s.mapping)) for s in solutions if all(holds(a, dict(s.mapping)) for a in step.assuming)), step
    assert any("ABCD all different" in step.text for step in explanation.steps)
    assert main(["explain", "--distinct", "ABCD", formula]) == 0
    assert "ABCD all different" in capsys.readouterr().out
    with pytest.raises(SystemExit) as usage:
        main(["explain", "--distinct", "AB", "--no-distinct", formula])
    assert usage.value.code == 2


@pytest.mark.parametrize("examples", [50, pytest.param(300, marks=pytest.mark.slow)])
def test_a_rule_yields_exactly_what_its_equations_allow(examples):
    """The search behind each rule (bounds, a value that follows from the others, steps of a modulus)
    against trying every assignment, on random column equations with products and carries."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from smtcrypt.teach.explain import Explainer, Rule

    names = ["A", "B", "C", "c2", "c3"]

    @settings(max_examples=examples, deadline=None, derandomize=True)
    @given(st.lists(st.tuples(st.lists(st.sampled_from(names), min_size=1, max_size=3), st.integers(-12, 12)),
                    min_size=1, max_size=5),
           st.integers(-30, 30), st.integers(0, 6), st.integers(0, 6),
           st.sampled_from([(-10, 1), (1,)]), st.booleans())
    def check(terms, constant, low2, width3, carry_terms, two):
        explainer = Explainer(Puzzle("A + B = C").problem)
        explainer.variables.domains.update({"c2": tuple(range(low2 - 3, low2 + 4)), "c3": tuple(range(0, width3 + 1))})
        equation: dict[tuple[str, ...], int] = {}
        for monomial, coefficient in terms:
            key = tuple(sorted(monomial))
            equation[key] = equation.get(key, 0) + coefficient
        for c, name in zip(carry_terms, ("c3", "c2")):
            equation[(name,)] = equation.get((name,), 0) + c
        equations = ((equation, constant),) + ((({("A",): 1, ("c2",): -1}, 0),) if two else ())
        variables = tuple(dict.fromkeys(v for eq, _ in equations for m in eq for v in m))
        rule = Rule("test", "", variables, None, 1, equations)  # type: ignore[arg-type]
        domains = {v: (tuple(range(10)) if v in "ABC" else explainer.variables.domains[v]) for v in variables}
        found = explainer.rule_search.search(rule, domains, ())
        assert found is not None
        supported, everything = found
        expected = {v: set() for v in variables}
        count = 0
        for values in itertools.product(*(domains[v] for v in variables)):
            mapping = dict(zip(variables, values))
            letters = [mapping[v] for v in variables if v in "ABC"]
            if len(set(letters)) == len(letters) and rule.check(mapping):
                count += 1
                for v in variables:
                    expected[v].add(mapping[v])
        assert supported == expected
        if everything is not None:
            assert len(everything) == count

    check()


def test_no_solution_ends_in_a_contradiction():
    explanation = Puzzle("ACA + DD == BD").explain()
    assert explanation.status == "none" and explanation.steps[-1].kind == "contradiction"
    assert explanation.solution is None


def test_difficulty_is_deterministic():
    first = Puzzle("DOUBLE + DOUBLE + TOIL = TROUBLE").explain()
    second = Puzzle("DOUBLE + DOUBLE + TOIL = TROUBLE").explain()
    assert [s.as_dict() for s in first.steps] == [s.as_dict() for s in second.steps]
    assert first.difficulty == second.difficulty == Puzzle("DOUBLE + DOUBLE + TOIL = TROUBLE").difficulty()


def test_difficulty_scale():
    plain = Step("deduce", "", (), "A = 1")
    assert difficulty([plain]) == 1
    assert difficulty([Step("deduce", "", (), "A = 1", width=2)]) == 2
    assert difficulty([Step("case", "", (), "A = 1", ("A = 1",), depth=1), plain]) == 3
    assert difficulty([Step("case", "", (), "A = 1", ("A = 1", "B = 2"), depth=2)]) == 4
    assert difficulty([plain], complete=False) == 5


def test_conditions_are_written_in_the_formula_language():
    digits = range(10)
    assert condition("M", [1], digits) == "M = 1"
    assert condition("E", range(1, 10), digits) == "E != 0"
    assert condition("S", [8, 9], digits) == "S >= 8"
    assert condition("S", [2, 4, 6], digits) == "S in {2, 4, 6}"
    assert condition("S", [0, 1, 2, 3, 4, 5, 7, 8], digits) == "S not in {6, 9}"
    assert condition("S", [2, 3, 4], digits) == "2 <= S <= 4"
    for text in ("M = 1", "S >= 8", "S in {2, 4, 6}", "S not in {6, 9}", "2 <= S <= 4", "not (E = 5)"):
        assert smtcrypt.count([text, "S + M + E = 100 * 0 + S + M + E"], distinct=False) >= 1


def test_cli_explain_hint_and_json(capsys):
    assert main(["explain", "--hint", "2", "SEND + MORE = MONEY"]) == 0
    out = capsys.readouterr().out
    assert "difficulty 1 of 5" in out and " 1. Column 5" in out and " 3." not in out and "more steps" in out
    assert main(["explain", "--json", "SEND + MORE = MONEY"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"formula", "status", "difficulty", "steps", "solution"}
    assert data["solution"]["M"] == 1 and data["steps"][0]["fact"] == "M = 1"
    assert set(data["steps"][0]) == {"kind", "text", "uses", "fact", "assuming"}
    assert main(["explain", "ACA + DD == BD"]) == 1
    assert main(["explain", "SEND + + MORE"]) == 2


def test_explanation_displays_itself_in_notebooks():
    explanation = Puzzle("SEND + MORE = MONEY").explain()
    page = explanation._repr_html_()
    assert "<ol>" in page and "M = 1" in page
    assert "difficulty 1" in explanation.text()


def test_generate_keeps_only_the_difficulties_asked(capsys):
    from smtcrypt.cli.generate import main as generate_main
    from smtcrypt.cli.options import difficulty_range

    assert difficulty_range("1-2") == range(1, 3) and difficulty_range("3") == range(3, 4)
    words = ["MARS", "STAR", "SOLAR", "SPACE", "MOONS", "ORBIT"]
    assert generate_main([*words, "--difficulty", "1-2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out and all(re.search(r"\(difficulty [12]\)$", line) for line in out)
    for line in out:
        formula = line.split("  /  ")[0]
        assert Puzzle(formula).difficulty() in (1, 2)
