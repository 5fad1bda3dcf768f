"""Applying a rule: the digits each of its variables can still take, found by a small search.

A rule's variables are tried in an order that lets the rule's bounds prune early; a variable that
follows from the others is computed, and one that must make a multiple of some b is stepped by b.
A digit no satisfying assignment uses is ruled out, and two letters whose difference is the same
in every assignment are tied (`N = E + 1`); Z3 then proves each such conclusion (`prover`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from smtcrypt.teach.explain.prover import Budget, OutOfTime
from smtcrypt.teach.explain.rules import Facts, Monomial, Rule, Variables, span

MAX_ENUMERATED = 20000  # most assignments of a rule's letters tried in full (relations need them all)
MAX_NODES = 200000  # most search nodes spent on a rule's digits in one application
BOUNDS_ONLY = 10**7  # a sum's column (or pair) with more digit combinations is reasoned about by its bounds alone
# a long multiplication's column is searched once its letters' digits times its narrower carry's values are fewer
COLUMN_SEARCH = 200_000
CHECK_EVERY = 4096  # search nodes between two looks at the clock and the budget

Domains = Mapping[str, tuple[int, ...]]  # each variable's values, ascending
Relation = tuple[str, str, int]  # (x, y, k): x = y + k
Supports = tuple[dict[str, set[int]], list[dict[str, int]] | None]  # values some assignment takes; all assignments


class RuleSearch:
    """The values a rule leaves each of its variables, given the facts; remembered, since the
    answer depends only on the values the variables may take and the differences among them."""

    def __init__(self, variables: Variables, letters: Sequence[str], groups: Sequence[Sequence[str]],
                 budget: Budget):
        self.variables = variables
        self.letters = letters
        self.groups = groups  # the letters that must differ
        self.rivals = {letter: {other for group in groups if letter in group for other in group} - {letter}
                       for letter in letters}
        # the distinctness groups each letter is in (a letter in none takes any digit)
        self.group_index = {letter: [g for g, group in enumerate(groups) if letter in group] for letter in letters}
        self.budget = budget
        self.memo: dict[Any, Supports | None] = {}

    def effective(self, facts: Facts, names: Iterable[str]) -> dict[str, tuple[int, ...]]:
        """The values each variable may take, less the digits other letters it must differ from are fixed to."""
        result = {}
        for name in names:
            digits = facts.domains[name]
            if len(digits) > 1 and self.rivals.get(name):
                taken = {facts.domains[other][0] for other in self.rivals[name] if len(facts.domains[other]) == 1}
                digits = tuple(d for d in digits if d not in taken)
            result[name] = digits
        return result

    def supports(self, rule: Rule, facts: Facts) -> Supports | None:
        """The values of each variable that some assignment satisfying the rule takes (and all such
        assignments when few); None when the search runs past its node budget."""
        domains = self.effective(facts, rule.variables)
        relations = tuple((x, y, k) for x, y, k in facts.relations if x in domains and y in domains)
        key = (id(rule), tuple(domains[v] for v in rule.variables), relations)
        if key not in self.memo:
            self.memo[key] = self.search(rule, domains, relations)
        return self.memo[key]

    def search(self, rule: Rule, domains: Domains, relations: Sequence[Relation]) -> Supports | None:
        """`supports` without the memory: by the rule's bounds where it has no equations or too many
        combinations, else by a digit search."""
        if any(not digits for digits in domains.values()):
            return {v: set() for v in rule.variables}, []
        if rule.possible is not None:
            return interval_supports(rule, domains), None
        if rule.equations and math.prod(len(digits) for digits in domains.values()) > BOUNDS_ONLY and \
                all(len(m) == 1 for terms, _ in rule.equations for m in terms):
            return bounds_supports(rule, domains), None
        if self._too_wide(rule, domains):
            return None  # a long multiplication's column with too many digits still open: later, or in a case
        order = search_order(rule, domains, self.variables.carries)
        digits = AssignmentSearch(rule, domains, relations, order, [self.group_index.get(v, []) for v in order],
                             len(self.groups), self.budget)
        has_letters = any(v in self.letters for v in order)
        return digits.run(self.variables.wide_carries if has_letters else set())

    def _too_wide(self, rule: Rule, domains: Domains) -> bool:
        """A long multiplication's column: its letters' digits times its narrower carries' values."""
        wide = sorted(len(domains[v]) for v in rule.variables if v in self.variables.wide_carries)
        if not wide:
            return False
        narrow = math.prod(len(domains[v]) for v in rule.variables if v not in self.variables.wide_carries)
        return narrow * math.prod(wide[:-1]) > COLUMN_SEARCH


def search_order(rule: Rule, domains: Domains, carries: set[str]) -> list[str]:
    """The order a rule's variables are tried in. A sum's column: the largest coefficients (the carry
    out) first, which the bounds then prune best. Columns of a long multiplication: the column
    nearest to complete next, its letters with the fewest digits first and its carries last, and any
    variable as soon as it follows from those before it (linear in an equation otherwise complete)."""
    def coefficient(v: str) -> int:
        return max((abs(c) for terms, _ in rule.equations for m, c in terms.items() if m == (v,)), default=0)
    if all(len(m) == 1 for terms, _ in rule.equations for m in terms):
        return sorted(rule.variables, key=lambda v: (-coefficient(v), len(domains[v])))
    order: list[str] = []
    remaining = list(rule.variables)
    while remaining:
        left = [[v for v in dict.fromkeys(v for m in terms for v in m) if v in remaining]
                for terms, _ in rule.equations]
        follows = [vs[0] for vs, (terms, _) in zip(left, rule.equations)
                   if len(vs) == 1 and all(m.count(vs[0]) <= 1 for m in terms)]
        if follows:
            pick = follows[0]
        else:
            nearest = min((vs for vs in left if vs), key=len)
            pick = min(nearest, key=lambda v: (v in carries, len(domains[v])))
        order.append(pick)
        remaining.remove(pick)
    return order


def bounds_supports(rule: Rule, domains: Domains) -> dict[str, set[int]]:
    """A column too wide to search (ten letters of a long sum): the digits its bounds allow, each
    variable's digit against the others' least and greatest."""
    supported = {v: set(digits) for v, digits in domains.items()}
    for terms, const in rule.equations:
        spans = {m[0]: span(m, c, domains) for m, c in terms.items()}
        low, high = const + sum(a for a, _ in spans.values()), const + sum(b for _, b in spans.values())
        for (v,), c in terms.items():
            rest_low, rest_high = low - spans[v][0], high - spans[v][1]
            supported[v] = {d for d in supported[v] if rest_low + c * d <= 0 <= rest_high + c * d}
    return supported


def interval_supports(rule: Rule, domains: Domains) -> dict[str, set[int]]:
    """The digits of each variable for which the rule may hold with the others anywhere in their ranges."""
    assert rule.possible is not None, "only a rule of bounds"
    box = {v: (d[0], d[-1]) for v, d in domains.items() if d}
    if len(box) < len(domains):
        return {v: set() for v in domains}
    return {var: {d for d in digits if rule.possible({**box, var: (d, d)})} for var, digits in domains.items()}


Term = tuple[int, tuple[int, ...], int]  # coefficient, the earlier positions in the term, the power of this one


@dataclass
class Table:
    """One equation laid along the search order, so that each position adds what it completes."""

    const: int
    at: list[list[Term]]  # at each position, the terms it completes there
    low: list[int]  # the least the terms completed after position i - 1 can add
    high: list[int]  # and the most
    solvable: list[bool]  # whether the position's value then follows from the others (linear, nothing after)
    modulus: list[int] = field(default_factory=list)  # where one term b·x is all that is left, b (else 0)


class AssignmentSearch:
    """A depth-first search of a rule's assignments, pruned by each equation's bounds, distinctness
    and the known differences: which values some assignment uses (and all assignments, when few)."""

    def __init__(self, rule: Rule, domains: Domains, relations: Sequence[Relation], order: list[str],
                 groups_at: list[list[int]], groups: int, budget: Budget):
        self.order = order
        self.n = len(order)
        self.digits = [domains[v] for v in order]
        self.allowed = [set(digits) for digits in self.digits]
        self.groups_at = groups_at  # the distinctness groups each position is in
        self.check = rule.holds
        self.budget = budget
        self.tables = [self._table(terms, const, domains) for terms, const in rule.equations]
        self.solve_by = [next((e for e, table in enumerate(self.tables) if table.solvable[i]), None)
                         for i in range(self.n)]
        self.step_by = [self._stepping(i) for i in range(self.n)]
        self.ties = self._ties(relations)
        size = math.prod(len(digits) for digits in self.digits)
        self.everything: list[dict[str, int]] | None = [] if size <= MAX_ENUMERATED else None
        self.supported: dict[str, set[int]] = {v: set() for v in order}
        self.values = [0] * self.n
        self.sums = [table.const for table in self.tables]
        self.used: list[set[int]] = [set() for _ in range(groups)]  # per group, the digits placed so far
        self.nodes = 0

    # the plan: each equation's terms by position, and what follows from them

    def _table(self, terms: Mapping[Monomial, int], const: int, domains: Domains) -> Table:
        n = self.n
        position = {v: i for i, v in enumerate(self.order)}
        at: list[list[Term]] = [[] for _ in range(n)]
        low, high = [0] * (n + 1), [0] * (n + 1)
        for monomial, c in terms.items():
            places = [position[v] for v in monomial]
            last = max(places)
            at[last].append((c, tuple(p for p in places if p != last), places.count(last)))
            least, most = span(monomial, c, domains)
            for i in range(last + 1):
                low[i] += least
                high[i] += most
        solvable = [low[i + 1] == high[i + 1] == 0 and bool(at[i]) and all(p == 1 for _, _, p in at[i])
                    for i in range(n)]
        table = Table(const, at, low, high, solvable, [0] * n)
        # where one term b·x is all that is left after position i, the sum so far is a multiple of b
        later = [sum(len(at[j]) for j in range(i + 1, n)) for i in range(n)]
        for i in range(n):
            if later[i] == 1:
                ((b, others, power),) = next(at[j] for j in range(i + 1, n) if at[j])
                table.modulus[i] = abs(b) if not others and power == 1 and abs(b) > 1 else 0
        return table

    def _stepping(self, i: int) -> int | None:
        """Where a sum of whole digits must be a multiple of b, a variable in a range it enters
        linearly steps by b: the equation that says so."""
        digits = self.digits[i]
        if digits != tuple(range(digits[0], digits[-1] + 1)):
            return None
        return next((e for e, table in enumerate(self.tables)
                     if table.modulus[i] and table.at[i] and all(p == 1 for _, _, p in table.at[i])), None)

    def _ties(self, relations: Sequence[Relation]) -> list[list[tuple[int, int]]]:
        """At position i: (earlier position j, d) with v_i = v_j + d."""
        position = {v: i for i, v in enumerate(self.order)}
        ties: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        for x, y, k in relations:
            i, j = position[x], position[y]
            if i > j:
                ties[i].append((j, k))
            else:
                ties[j].append((i, -k))
        return ties

    # the search

    def run(self, skip: set[str]) -> Supports | None:
        """All assignments when few; else, for each value not yet seen, one assignment that takes it
        (variables in `skip` left out: only a single value is said of those, proved by Z3). None when
        the search runs past its nodes; OutOfTime when past the explanation's budget."""
        try:
            if self.everything is not None:
                self.search(0, None)
            else:
                self.completions(skip)
        except OutOfTime:
            self.budget.work += self.nodes
            if self.budget.spent():
                raise
            return None
        self.budget.work += self.nodes
        return self.supported, self.everything

    def completions(self, skip: set[str]) -> None:
        """For each value of each variable that no assignment found so far takes, look for one."""
        for index, var in enumerate(self.order):
            if var in skip:  # what was seen will do
                continue
            for digit in self.digits[index]:
                if digit not in self.supported[var]:
                    self.search(0, (index, digit))

    def search(self, index: int, want: tuple[int, int] | None) -> bool:
        """Extend the assignment from position `index`; with `want` (position, value), stop at the
        first assignment that takes it."""
        self.nodes += 1
        if self.nodes > MAX_NODES or (self.nodes % CHECK_EVERY == 0 and self.budget.spent(self.nodes)):
            raise OutOfTime
        if index == self.n:
            return self.complete(want)
        for digit in self.candidates(index, want):
            changes = self.fits(index, digit)
            if changes is None:
                continue
            self.place(index, digit, changes)
            found = self.search(index + 1, want)
            self.unplace(index, digit, changes)
            if found:
                return True
        return False

    def complete(self, want: tuple[int, int] | None) -> bool:
        """A full assignment: recorded if the rule holds on it."""
        assignment = dict(zip(self.order, self.values))
        if self.check is not None and not self.check(assignment):
            return False
        for v, d in assignment.items():
            self.supported[v].add(d)
        if self.everything is not None:
            self.everything.append(assignment)
        return want is not None

    def candidates(self, index: int, want: tuple[int, int] | None) -> Iterable[int]:
        """The values to try at a position: the one wanted, the one that follows from the others, the
        residues of a modulus, or all."""
        pinned = want[1] if want is not None and want[0] == index else None
        e = self.solve_by[index]
        if e is not None:
            return self.follows(e, index, pinned)
        e = self.step_by[index]
        if e is not None and pinned is None:
            return residues(self.added(e, index, 1), self.sums[e], self.tables[e].modulus[index], self.digits[index])
        return self.digits[index] if pinned is None else (pinned,)

    def follows(self, e: int, index: int, pinned: int | None) -> Iterable[int]:
        """The value a·value + sum = 0 leaves, where equation `e` is linear in the position and complete."""
        a = self.added(e, index, 1)
        if not a:
            return () if self.sums[e] else (self.digits[index] if pinned is None else (pinned,))
        value, remainder = divmod(-self.sums[e], a)
        return (value,) if not remainder and value in self.allowed[index] and pinned in (None, value) else ()

    def added(self, e: int, index: int, digit: int) -> int:
        """What equation `e` gains when position `index` takes `digit`."""
        total = 0
        for c, others, power in self.tables[e].at[index]:
            term = c * digit ** power
            for j in others:
                term *= self.values[j]
            total += term
        return total

    def fits(self, index: int, digit: int) -> list[int] | None:
        """Each equation's gain if position `index` takes `digit`, or None if that breaks distinctness,
        a known difference, an equation's bounds or its modulus."""
        groups = self.groups_at[index]
        if groups and any(digit in self.used[g] for g in groups):
            return None
        if any(digit != self.values[j] + d for j, d in self.ties[index]):
            return None
        changes = []
        for e, table in enumerate(self.tables):
            change = self.added(e, index, digit)
            total = self.sums[e] + change
            if not total + table.low[index + 1] <= 0 <= total + table.high[index + 1] or (
                    table.modulus[index] and total % table.modulus[index]):
                return None
            changes.append(change)
        return changes

    def place(self, index: int, digit: int, changes: list[int]) -> None:
        self.values[index] = digit
        for e, change in enumerate(changes):
            self.sums[e] += change
        for g in self.groups_at[index]:
            self.used[g].add(digit)

    def unplace(self, index: int, digit: int, changes: list[int]) -> None:
        for g in self.groups_at[index]:
            self.used[g].discard(digit)
        for e, change in enumerate(changes):
            self.sums[e] -= change


def residues(a: int, total: int, modulus: int, digits: tuple[int, ...]) -> Iterable[int]:
    """The digits d with total + a·d a multiple of the modulus."""
    g = math.gcd(a, modulus)
    if total % g:
        return ()
    step = modulus // g
    first = (-total // g) * pow(a // g, -1, step) % step if step > 1 else 0
    return range(digits[0] + (first - digits[0]) % step, digits[-1] + 1, step)
