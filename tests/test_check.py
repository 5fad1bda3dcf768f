"""Stage 2: names, arguments, rules and limits; the annotations the encoder needs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from smtcrypt import Puzzle
from smtcrypt.core.check import check, check_expression, large_exponents, splits
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules, make_rules
from smtcrypt.core.tree import BinOp, to_text, walk
from smtcrypt.errors import FormulaError, FormulaLimitError, FormulaNameError, FormulaSyntaxError


def problem(formula: str, **rules: bool):
    return check(parse(formula), Rules(**rules))


def powers(formula) -> list[BinOp]:
    """The `**` nodes of a parsed formula, in walk order."""
    return [node for c in formula.constraints for node in walk(c) if isinstance(node, BinOp) and node.op == "**"]


def test_rules_defaults():
    assert Rules() == Rules(distinct=True, allow_leading_zeros=False)
    assert Rules().distinct is True
    assert Rules().allow_leading_zeros is False


def test_rules_hash_and_equal_rules_hash_equal():
    from smtcrypt.core.rules import make_rules

    assert hash(Rules()) == hash(Rules(distinct=True, allow_leading_zeros=False))
    given = make_rules(base=12, digits="1-9", domains={"A": "1-3", "B": [2, 5]}, assign={"C": 4})
    same = make_rules(assign=["C=4"], domains=["B=2,5", "A=1-3"], digits=range(1, 10), base=12)
    assert given == same and hash(given) == hash(same)  # the order of letters given does not matter
    assert len({given, same, Rules()}) == 2
    assert {given: "x"}[same] == "x"
    assert given.domains["A"] == frozenset({1, 2, 3}) and given.assign == {"C": 4}  # read as before
    others = [make_rules(base=12, digits="1-9", domains={"A": "1-3", "B": [2, 5]}, assign={"C": 5}),
              make_rules(base=12, digits="1-9", domains={"A": "1-4", "B": [2, 5]}, assign={"C": 4}),
              make_rules(base=12, digits="1-8", domains={"A": "1-3", "B": [2, 5]}, assign={"C": 4}),
              make_rules(base=11, digits="1-9", domains={"A": "1-3", "B": [2, 5]}, assign={"C": 4}),
              make_rules(base=12, digits="1-9", domains={"A": "1-3", "B": [2, 5]}, assign={"C": 4}, distinct=False)]
    assert all(other != given for other in others)
    assert len({given, *others}) == 6  # unequal rules stay apart in a set
    assert hash(Rules(digits={1, 2}, domains={"A": {3}})) == hash(Rules(digits=frozenset({1, 2}),
                                                                       domains={"A": frozenset({3})}))


def test_check_uses_default_rules():
    checked = check(parse("AB = C"))
    assert checked.rules == Rules()
    assert checked.leading == frozenset("A")


def test_problem_keeps_formula_and_source():
    parsed = parse("SEND + MORE = MONEY")
    checked = check(parsed, Rules())
    assert checked.formula is parsed
    assert checked.source == "SEND + MORE = MONEY"


LETTERS = [
    ("ODD * ODD = FREAKY", ("O", "D", "F", "R", "E", "A", "K", "Y")),
    ("SEND + MORE = MONEY", ("S", "E", "N", "D", "M", "O", "R", "Y")),
    ("A = B\nC = A", ("A", "B", "C")),
    ("ZA = 10 + Y; X = 2", ("Z", "A", "Y", "X")),
    ("abs(B - A) in {C, B}", ("B", "A", "C")),
    ("1 + 1 = 2", ()),
]


@pytest.mark.parametrize("formula, expected", LETTERS)
def test_letters_in_first_appearance_order(formula, expected):
    assert problem(formula).letters == expected


LEADING = [
    ("SEND + MORE = MONEY", {"S", "M"}),
    ("A + B = C", set()),
    ("A + BC = D", {"B"}),
    ("AB = B; BA = A", {"A", "B"}),
    ("ODD * ODD = FREAKY", {"O", "F"}),
    ("A * A = AA", {"A"}),
]


@pytest.mark.parametrize("formula, expected", LEADING)
def test_leading_letters(formula, expected):
    assert problem(formula).leading == frozenset(expected)


@pytest.mark.parametrize("formula", [f for f, _ in LEADING])
def test_no_leading_letters_when_leading_zeros_allowed(formula):
    assert problem(formula, allow_leading_zeros=True).leading == frozenset()


ELEVEN = [
    # formula, position of the 11th distinct letter (line, column)
    ("ABCDE + FGHIJ = KA", 1, 17),
    ("ABCDEFGHIJK = A", 1, 11),
    ("ABCDE = FGHIJ\nAX = B", 2, 2),
    ("ABCDE + FGHIJ = AB + KA", 1, 22),
]


@pytest.mark.parametrize("formula, line, column", ELEVEN)
def test_eleven_distinct_letters_is_a_limit_error(formula, line, column):
    with pytest.raises(FormulaLimitError) as caught:
        problem(formula)
    error = caught.value
    assert isinstance(error, FormulaError) and isinstance(error, ValueError)
    assert (error.line, error.column) == (line, column)
    assert "11 distinct letters" in error.message


@pytest.mark.parametrize("formula", [f for f, _, _ in ELEVEN])
def test_eleven_letters_allowed_without_distinct(formula):
    checked = problem(formula, distinct=False)
    assert len(checked.letters) == 11


def test_ten_distinct_letters_are_fine():
    assert len(problem("ABCDE + FGHIJ = JIHGF").letters) == 10


NAME_ERRORS = [
    # formula, line, column, text the message must contain
    ("A = Ab", 1, 5, "unknown name 'Ab'"),
    ("A = B\nC = Xy", 2, 5, "unknown name 'Xy'"),
    ("ABc = A", 1, 1, "unknown name 'ABc'"),
    ("abs = A", 1, 1, "unknown name 'abs'"),
    ("foo(A) = B", 1, 1, "unknown function 'foo'"),
    ("A = Abs(B)", 1, 5, "unknown function 'Abs'"),
    ("abs(A, B) = C", 1, 1, "abs() takes"),
    ("abs() = C", 1, 1, "abs() takes"),
    ("min(A) = B", 1, 1, "min() takes"),
    ("C = max(A)", 1, 5, "max() takes"),
    ("sum(A) = B", 1, 1, "sum() takes"),
    ("sum(range(A), B) = C", 1, 1, "sum() takes"),
    ("sum({A, B}) = C", 1, 1, "sum() takes"),
    ("A in range(B, C, D)", 1, 6, "range() takes"),
    ("A in range()", 1, 6, "range() takes"),
]


@pytest.mark.parametrize("formula, line, column, text", NAME_ERRORS)
def test_name_errors(formula, line, column, text):
    with pytest.raises(FormulaNameError) as caught:
        problem(formula)
    error = caught.value
    assert isinstance(error, ValueError)
    assert (error.line, error.column) == (line, column)
    assert text in error.message


CONTAINER_ERRORS = [
    # formula, line, column
    ("{A} = B", 1, 1),
    ("A = {B}", 1, 5),
    ("A = (B, C)", 1, 5),
    ("A = ()", 1, 5),
    ("range(A) = B", 1, 1),
    ("A = range(B)", 1, 5),
    ("A + range(B) in {C}", 1, 5),
    ("A in {B, {C}}", 1, 10),
    ("A in B", 1, 6),
    ("A in B + C", 1, 6),
    ("A not in 3", 1, 10),
    ("A in abs(B)", 1, 6),
]


@pytest.mark.parametrize("formula, line, column", CONTAINER_ERRORS)
def test_collections_and_ranges_only_where_allowed(formula, line, column):
    with pytest.raises(FormulaError) as caught:
        problem(formula)
    error = caught.value
    assert not isinstance(error, (FormulaSyntaxError, FormulaLimitError))
    assert (error.line, error.column) == (line, column)


CONTAINERS_OK = [
    "A in {B, C}",
    "A not in (B, C)",
    "A in (B,)",
    "A in ()",
    "A in range(B)",
    "A in range(B, C)",
    "sum(range(A)) = B",
    "sum(range(A, B)) in range(C)",
    "A < B in {C}",
]


@pytest.mark.parametrize("formula", CONTAINERS_OK)
def test_collections_and_ranges_allowed(formula):
    assert problem(formula).letters


TOP_LEVEL_ERRORS = [
    # formula, line, column
    ("SEND + MORE", 1, 1),
    ("A", 1, 1),
    ("A = B; C", 1, 8),
    ("A = B\n2 * C", 2, 1),
    ("abs(A)", 1, 1),
    ("-A", 1, 1),
]


@pytest.mark.parametrize("formula, line, column", TOP_LEVEL_ERRORS)
def test_constraint_that_is_only_arithmetic(formula, line, column):
    with pytest.raises(FormulaError) as caught:
        problem(formula)
    error = caught.value
    assert type(error) is FormulaError
    assert (error.line, error.column) == (line, column)
    assert "comparison" in error.message


@pytest.mark.parametrize("formula", ["A = B", "A or B", "not A", "A and B = C", "(A < B)"])
def test_constraints_that_compare_or_combine(formula):
    assert problem(formula).letters


CONSTANT_EXPONENTS = [
    ("EVIL**(1/2) = A", [Fraction(1, 2)]),
    ("ATOM**0.5 = A", [Fraction(1, 2)]),
    ("A**2 = BC", [Fraction(2)]),
    ("A**-1 = B", [Fraction(-1)]),
    ("A**(2/4) = B", [Fraction(1, 2)]),
    ("A**(1 + 1/3) = B", [Fraction(4, 3)]),
    ("A**(-(3/2)) = B", [Fraction(-3, 2)]),
    ("A**(2*3 - 1) = B", [Fraction(5)]),
    ("A**1000 = B", [Fraction(1000)]),
    ("A**(1/100) = B", [Fraction(1, 100)]),
    ("A**2 + B**3 = C**2", [Fraction(2), Fraction(3), Fraction(2)]),
]


@pytest.mark.parametrize("formula, expected", CONSTANT_EXPONENTS)
def test_constant_exponents(formula, expected):
    checked = problem(formula)
    nodes = powers(checked.formula)
    assert [checked.constant_exponents[node] for node in nodes] == expected
    assert all(isinstance(value, Fraction) for value in checked.constant_exponents.values())
    assert dict(checked.exponent_ranges) == {}


EXPONENT_RANGES = [
    ("A**N = B", {}, (0, 9)),
    ("2**AB = C", {}, (10, 99)),
    ("2**AB = C", {"allow_leading_zeros": True}, (0, 99)),
    ("A**-N = B", {}, (-9, 0)),
    ("A**(N*M) = B", {}, (0, 81)),
    ("A**(N - M) = B", {}, (-9, 9)),
    ("A**(N + 2) = B", {}, (2, 11)),
    ("A**abs(N - M) = B", {}, (0, 9)),
    ("A**min(N, 3) = B", {}, (0, 3)),
    ("A**max(N, 3) = B", {}, (3, 9)),
    ("A**(N*(M + 5) + min(P, 1)) = B", {}, (0, 127)),  # 128 cases: the limit
    ("A**(N + 991) = B", {}, (991, 1000)),
]


@pytest.mark.parametrize("formula, rules, expected", EXPONENT_RANGES)
def test_variable_exponent_ranges(formula, rules, expected):
    checked = problem(formula, **rules)
    (node,) = powers(checked.formula)
    assert checked.exponent_ranges[node] == expected
    assert node not in checked.constant_exponents


EXPONENT_LIMITS = [
    # formula, the exponent the error points at
    ("A**2000 = B", "2000"),
    ("A**-1001 = B", "-1001"),
    ("A**(1/101) = B", "1/101"),
    ("A**(1001/2) = B", "1001/2"),
    ("A**(B/C) = D", "B/C"),  # not an integer expression
    ("A**(N//2) = B", "N//2"),
    ("A**(10**4) = B", "10**4"),
    ("A**(2**2000) = B", "2**2000"),
]


LARGE_EXPONENTS = [
    # more values than Z3's encodings split a power into: computed by the backends that evaluate the formula
    ("A**BCD = E", (100, 999)),
    ("A**(N*(M + 5) + min(P, 2)) = B", (0, 128)),  # 129 cases
    ("A**(N + 992) = B", (992, 1001)),  # values above 1000
    ("2**ABCDE > 5", (10000, 99999)),  # 2**99999 has 30,103 digits
    ("1**ABCDEFGHIJ = 1", (1000000000, 9999999999)),  # 1 and 0 to any power stay small
]


@pytest.mark.parametrize("formula, expected", LARGE_EXPONENTS)
def test_large_variable_exponents_are_taken(formula, expected):
    checked = problem(formula)
    (node,) = powers(checked.formula)
    assert checked.exponent_ranges[node] == expected
    assert large_exponents(checked) == [node] and not splits(expected)


POWER_SIZE_LIMITS = [
    # formula, the power the error points at, text of the message
    ("A**BCDEFGHIJ = 5", "A**BCDEFGHIJ", "1,204,119,999 digits (9**999999999)"),
    ("3**ABCDEF = 5", "3**ABCDEF", "digits (3**999999)"),
    ("ABCDE**FGHIJ > 7", "ABCDE**FGHIJ", "more than the 100,000 digits smtcrypt computes"),
    ("(A/B)**CDE = 3", "(A/B)**CDE", "its base must then be an integer expression"),
]


@pytest.mark.parametrize("formula, power, text", POWER_SIZE_LIMITS)
def test_powers_too_large_to_compute_are_refused_at_the_power(formula, power, text):
    with pytest.raises(FormulaLimitError) as caught:
        problem(formula)
    error = caught.value
    start = error.column - 1
    assert formula[start:start + error.length] == power and text in error.message, error


@pytest.mark.parametrize("formula, exponent", EXPONENT_LIMITS)
def test_exponent_limits(formula, exponent):
    with pytest.raises(FormulaLimitError) as caught:
        problem(formula)
    error = caught.value
    assert error.line == 1
    start = error.column - 1
    assert formula[start:start + error.length] == exponent


@pytest.mark.parametrize("formula, expected", [
    ("A**2**2 = BC", Fraction(4)),
    ("A**(2**-1) = B", Fraction(1, 2)),
    ("A**(2**3 - 7) = B", Fraction(1)),
])
def test_constant_power_exponent(formula, expected):
    """Regression: at 05de55e constant() folded only + - * /, so A**2**2 was a 'variable exponent' error."""
    checked = problem(formula)
    outer = powers(checked.formula)[0]
    assert to_text(outer.left) == "A"
    assert checked.constant_exponents[outer] == expected


# --- letters with combining marks ---------------------------------------------------------------------------


def test_a_letter_with_a_combining_mark_is_one_letter_of_the_puzzle():
    breve = "TR\u0306I + TR\u0306I = SIX"  # R + U+0306, which has no composed form
    assert problem(breve).letters == ("T", "R\u0306", "I", "S", "X")
    assert Puzzle(breve).count() == Puzzle("TŘI + TŘI = SIX").count() == 15
    assert Puzzle(breve, assign=["R\u0306=3"]).count() == 1
    assert Puzzle(breve, distinct="TR\u0306I,SX").count() == Puzzle("TŘI + TŘI = SIX", distinct="TŘI,SX").count()
    assert check(parse(breve), make_rules(distinct="R\u0306T")).groups == (("T", "R\u0306"),)
    with pytest.raises(FormulaError, match="names a letter twice"):
        make_rules(distinct="R\u0306R\u0306")
    (solution,) = Puzzle("0.(R\u0306) = R\u0306 / 9, R\u0306 > 8").solve()
    assert solution.text == "0.(9) = 9 / 9, 9 > 8" and solution.mapping == {"R\u0306": 9}


@pytest.mark.parametrize(("formula", "unknowns"), [
    ("x\u0303 + 1 = 3", ("x\u0303",)),  # a combining mark on a lowercase letter belongs to the name
    ("été + τρια = 5", ("été", "τρια")),
    ("x\u0306 + R\u0306 = 5", ("x\u0306",)),
])
def test_lowercase_names_of_every_script_are_unknowns(formula, unknowns):
    assert problem(formula).unknowns == unknowns


def test_check_expression_names_and_containers_but_no_comparison():
    """An expression that is not a constraint (an answer to a puzzle) passes with known functions,
    and fails as `check` would on an unknown one or a stray container."""
    check_expression(parse("A + gcd(B, C)"))
    check_expression(parse("A in {1, 2}"))
    with pytest.raises(FormulaNameError, match="unknown function 'foo'"):
        check_expression(parse("A + foo(B)"))
    with pytest.raises(FormulaNameError, match="unknown name"):
        check_expression(parse("A + Print"))
    with pytest.raises(FormulaError, match="may only follow 'in'"):
        check_expression(parse("A + {1, 2}"))
