"""Column addition for word sums: `SEND + MORE = MONEY` as one equation per digit column.

Every constraint must be an equation (or a chain or an `and` of them) between integer-linear
combinations of words (`2*TWO + 3*ONE = FORTYTWO`). Each column gets a carry with the tight bounds
it allows, so the finite-domain solver propagates digit by digit, as a person adding by hand would.
"""

from __future__ import annotations

from collections import defaultdict

import z3

from smtcrypt.analysis.carries import columns_by_carries
from smtcrypt.analysis.linear import ColumnForm, column_equations, letter_weights
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import scaled
from smtcrypt.encode.base import Encoded, indicator_name, letter_variables

BASE = 10  # the column encoding is decimal: `accepts` refuses other bases


class ColumnsEncoding:
    """Word sums, differences and integer multiples, equated: the shape of most alphametics."""

    name = "columns"

    def accepts(self, problem: Problem) -> bool:
        return problem.rules.base == BASE and not problem.unknowns and column_equations(problem) is not None

    def encode(self, problem: Problem, context: z3.Context) -> Encoded:
        # The whole model is written as SMT-LIB text and parsed in one call: building its few
        # hundred terms through the Python API costs several times more.
        letters = letter_variables(problem, context)
        allowed = {letter: problem.allowed[letter] for letter in letters}
        forms = column_equations(problem) or []
        # bounds first, in Python: faster on SEND + MORE = MONEY and on the 199-addend sum
        narrowed = None if not all(allowed.values()) else propagate(forms, allowed)
        if narrowed is None:
            return Encoded(context, letters, [z3.BoolVal(False, context)], "linear")
        model = Text()
        for letter, digits in narrowed.items():
            model.declare(f"|{letter}|", "Int")
            model.within(f"|{letter}|", digits)
        for index, form in enumerate(forms):
            column_constraints(model, form, narrowed, f"carry{index}")
        all_distinct = problem.distinctness == "all"
        if all_distinct:
            # distinctness once, as digit cardinality: with Distinct as well, the search was slower
            digit_cardinality(model, narrowed)
        else:  # only some letters differ (--distinct groups, wildcards apart)
            for group in problem.groups:
                model.claim(f"(distinct {' '.join(f'|{letter}|' for letter in group)})")
        groups = interchangeable(forms, problem)
        for group in groups:  # one ordering per group; the solver yields the permutations
            differ = any(group[0] in members for members in problem.groups)
            for first, second in zip(group, group[1:]):
                model.claim(f"({'<' if differ else '<='} |{first}| |{second}|)")
        constraints = z3.parse_smt2_string(model.text(), ctx=context)
        return Encoded(context, letters, list(constraints), "linear", interchangeable=groups, digits_only=True,
                       indicators=all_distinct, determined=determined(forms, narrowed))


class Text:
    """SMT-LIB text for one model: declarations, then every claim in one conjunction (one term
    to hand back to Python: wrapping each assertion costs more than parsing it)."""

    def __init__(self) -> None:
        self.declarations: list[str] = []
        self.claims: list[str] = []

    def declare(self, name: str, sort: str) -> None:
        self.declarations.append(f"(declare-const {name} {sort})")

    def claim(self, term: str) -> None:
        self.claims.append(term)

    def within(self, name: str, digits: frozenset[int]) -> None:
        """`name` takes one of `digits`: bounds, and the digits themselves if there are gaps."""
        low, high = min(digits), max(digits)
        self.claim(f"(>= {name} {number(low)}) (<= {name} {number(high)})")
        if len(digits) != high - low + 1:
            self.claim(f"(or {' '.join(f'(= {name} {number(d)})' for d in sorted(digits))})")

    def text(self) -> str:
        return "\n".join([*self.declarations, f"(assert (and true {' '.join(self.claims)}))"])


def number(value: int) -> str:
    """An integer literal in SMT-LIB, where -3 is written (- 3)."""
    return str(value) if value >= 0 else f"(- {-value})"


def propagate(forms: list[ColumnForm], allowed: dict[str, frozenset[int]]) -> dict[str, frozenset[int]] | None:
    """Each equation as one weighted sum: drop the digits of a letter that the other letters' least and
    greatest totals cannot balance, until nothing changes (distinctness ignored); None if a letter
    has no digit left. SEND + MORE = MONEY: M must be 1, and then S 9."""
    domains = {letter: sorted(digits) for letter, digits in allowed.items()}
    sums = [(letter_weights(form, BASE), form.get(("", 0), 0)) for form in forms]
    changed = True
    while changed:
        changed = False
        for weight, constant in sums:
            extremes = {letter: scaled(w, (domains[letter][0], domains[letter][-1])) for letter, w in weight.items()}
            low = constant + sum(least for least, _ in extremes.values())
            high = constant + sum(most for _, most in extremes.values())
            for letter, w in weight.items():
                least, most = extremes[letter]
                kept = [d for d in domains[letter] if low - least + w * d <= 0 <= high - most + w * d]
                if not kept:
                    return None
                if len(kept) < len(domains[letter]):
                    domains[letter] = kept
                    changed = True
                    extremes[letter] = scaled(w, (kept[0], kept[-1]))
                    low, high = low + extremes[letter][0] - least, high + extremes[letter][1] - most
    return {letter: frozenset(digits) for letter, digits in domains.items()}


def digit_cardinality(model: Text, allowed: dict[str, frozenset[int]]) -> None:
    """Distinctness as "each digit is used at most once" (and "at least once" when the letters must use
    every digit), over the `indicator`s: the finite-domain solver reasons far better with these."""
    digits = sorted(set().union(*allowed.values())) if allowed else []
    for digit in digits:
        users = [letter for letter in allowed if digit in allowed[letter]]
        named = [f"|{indicator_name(letter, digit)}|" for letter in users]
        for letter, name in zip(users, named):
            model.declare(name, "Bool")
            model.claim(f"(= {name} (= |{letter}| {digit}))")
        if len(users) > 1:
            model.claim(f"((_ at-most 1) {' '.join(named)})")
        if len(allowed) == len(digits) and users:
            model.claim(f"(or {' '.join(named)})")


def determined(forms: list[ColumnForm], allowed: dict[str, frozenset[int]]) -> frozenset[str]:
    """Letters whose digits the other letters' digits fix, which blocking clauses may leave out: in one
    equation, letters by increasing |w| while each |w| exceeds what those before can move the sum, so
    their weighted sum, which the others fix, tells their digits apart. WELL - DO + YOU = PUNK: K, D, U, W."""
    best: frozenset[str] = frozenset()
    for form in forms:
        weight = letter_weights(form, BASE)
        taken, reach = set(), 0
        for letter in sorted(weight, key=lambda letter: abs(weight[letter])):
            if abs(weight[letter]) > reach:
                taken.add(letter)
                reach += abs(weight[letter]) * (max(allowed[letter]) - min(allowed[letter]))
        if len(taken) > len(best):
            best = frozenset(taken)
    return best


def interchangeable(forms: list[ColumnForm], problem: Problem) -> tuple[tuple[str, ...], ...]:
    """Letters with the same coefficient in every column and the same rules: swapping their digits maps
    solutions to solutions (N, B in NUM + BER = PLAY), so the solver finds only those where they
    increase, and permutes the rest."""
    profiles: dict[tuple, list[str]] = defaultdict(list)
    for letter in problem.letters:
        profile = tuple(sorted((number, column, coefficient) for number, form in enumerate(forms)
                               for (name, column), coefficient in form.items() if name == letter and coefficient))
        membership = tuple(index for index, group in enumerate(problem.groups) if letter in group)
        profiles[(problem.allowed[letter], membership, profile)].append(letter)
    return tuple(tuple(group) for group in profiles.values() if len(group) > 1)


def column_constraints(model: Text, form: ColumnForm, allowed: dict[str, frozenset[int]], stem: str) -> None:
    """The equation form == 0, one constraint per column with integer carries bounded by what
    the column can hold."""
    columns: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for (letter, position), coefficient in form.items():
        if letter and coefficient:
            columns[position].append((coefficient, letter))
    plan = columns_by_carries(columns, form.get(("", 0), 0), 10,
                              lambda letter: (min(allowed[letter]), max(allowed[letter])))
    if plan is None:
        model.claim("false")
        return
    carry = None
    for column in plan:
        parts = [f"(* {number(c)} |{letter}|)" for c, letter in column.terms]
        parts += [number(column.fixed)] if column.fixed else []
        parts += [carry] if column.carry_in and carry is not None else []
        total = f"(+ {' '.join(parts)} 0)"
        if column.carry_out is None:  # nothing may be carried out of the top column
            model.claim(f"(= {total} 0)")
            return
        carry = f"{stem}_{column.position + 1}"
        model.declare(carry, "Int")
        model.claim(f"(>= {carry} {number(column.carry_out[0])}) (<= {carry} {number(column.carry_out[1])})")
        model.claim(f"(= {total} (* 10 {carry}))")
