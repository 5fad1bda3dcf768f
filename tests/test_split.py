"""Leading-digit bounds (analysis/split.py): narrowing and cases drop no solution, and a search split
into cases finds exactly the solutions of the brute-force reference."""

import functools

import pytest
import z3
from reference import brute_force

from smtcrypt.analysis.polynomials import analyse
from smtcrypt.analysis.split import Bounds, Case
from smtcrypt.core.check import check
from smtcrypt.core.parse import parse
from smtcrypt.core.rules import Rules
from smtcrypt.encode.products import ProductsEncoding
from smtcrypt.engine.z3search import ModelSearch

PUZZLES = [  # formula, rules: small enough for brute force
    ("YOU = ME ** 2", Rules()),
    ("PI * R**2 = AREA", Rules()),
    ("HE * HE = SHE", Rules()),
    ("AB / C = DE / F", Rules()),
    ("A / B = C / D", Rules(distinct=False)),
    ("7A * B = C7", Rules(distinct=False)),
    ("AB * AB = CDE", Rules(base=8)),
    ("AB / CD = 1.2(3)", Rules()),
    ("A ** 3 == BC and B + C == A * D", Rules(distinct=False)),
    ("AB * CD = 1000", Rules(allow_leading_zeros=True)),
]


def setup(formula, rules):
    problem = check(parse(formula), rules)
    bounds = Bounds(analyse(problem).polynomials, rules.base, rules.distinct)
    domains = {letter: tuple(sorted(problem.allowed[letter])) for letter in problem.letters}
    return problem, bounds, domains


def holds(case: Case, solution: dict[str, int]) -> bool:
    return (all(solution[letter] == digit for letter, digit in case.fixed)
            and all(solution[letter] != digit for letter, digit in case.excluded))


def solutions(formula, rules):
    return [dict(s) for s in reference_solutions(formula, rules.distinct, rules.allow_leading_zeros, rules.base)]


@functools.cache  # each puzzle's brute force once, for the three tests that compare with it
def reference_solutions(formula: str, distinct: bool, allow_leading_zeros: bool, base: int) -> frozenset:
    return frozenset(brute_force(formula, distinct=distinct, allow_leading_zeros=allow_leading_zeros, base=base))


def test_narrowing_examples():
    _, bounds, domains = setup("YOU = ME ** 2", Rules())
    assert bounds.narrow(domains)["M"] == (1, 2, 3)  # ME ** 2 has three digits
    _, bounds, domains = setup("ODD * ODD = FREAKY", Rules())
    assert bounds.narrow(domains)["O"] == (3, 4, 5, 6, 7, 8, 9)  # ODD * ODD has six digits
    _, bounds, domains = setup("AB * CD = 1", Rules())
    assert bounds.narrow(domains) is None  # two two-digit numbers make at least 100


def test_heaviest_letters_come_first():
    _, bounds, domains = setup("NORTH / SOUTH = EAST / WEST", Rules())
    assert set(bounds.heaviest(list(domains))[:4]) == {"N", "S", "E", "W"}


@pytest.mark.parametrize("formula, rules", PUZZLES)
def test_narrowing_and_cases_keep_every_solution(formula, rules):
    _, bounds, domains = setup(formula, rules)
    expected = solutions(formula, rules)
    narrowed = bounds.narrow(domains)
    if narrowed is None:
        assert not expected
        return
    assert all(solution[letter] in narrowed[letter] for solution in expected for letter in narrowed)
    cases = bounds.cases(domains, limit=50)
    for solution in expected:  # in exactly one case: the cases do not overlap
        assert sum(holds(case, solution) for case in cases) == 1, solution


@pytest.mark.parametrize("split_after", [0, 1])  # split at once, or after the first check gives up
@pytest.mark.parametrize("formula, rules", PUZZLES)
def test_split_search_agrees_with_reference(formula, rules, split_after):
    problem = check(parse(formula), rules)
    search = ModelSearch(ProductsEncoding().encode(problem, z3.Context()), split_after=split_after)
    found = [tuple(sorted(model.items())) for model in search]
    assert search.end is not None and search.end.complete
    assert len(found) == len(set(found))
    assert set(found) == {tuple(sorted(s.items())) for s in solutions(formula, rules)}
    if split_after == 0:
        assert search.cases is not None and not search.cases  # every case was searched


def test_a_hard_search_splits_and_stays_complete():
    problem = check(parse("NAUGHT ** 2 = ZERO ** 3"), Rules())
    search = ModelSearch(ProductsEncoding().encode(problem, z3.Context()))
    assert list(search) == [{"N": 3, "A": 2, "U": 8, "G": 5, "H": 0, "T": 9, "Z": 4, "E": 7, "R": 6, "O": 1}]
    assert search.cases is not None and not search.cases and search.end.complete  # 328509 ** 2 = 4761 ** 3, and no other
