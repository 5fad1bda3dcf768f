"""Step-by-step explanations: the solution in the order a person would find it, every step proved.

A puzzle is cut into *local rules*, each small enough for a person to hold in mind at once:
- sums and differences (the columns encoding's shape): one rule per digit column, with the
  carries as small unknowns (`D + E = Y + 10·c2`), and each pair of neighbouring columns;
- products, powers and quotients of words (the products encoding's shape, cross-multiplied): the
  columns of the long multiplication, each the products of a digit of one factor by a digit of
  the other that land in it (the rows' digits in that column) with the carries
  (`2·D·D + c2 = K + 10·c3`), the last digit first, and pairs of neighbouring columns; and the
  sizes of the numbers (every word an interval, as `encode/split.py` reads them);
- anything else: each constraint's bounds, read with every word an interval, and a constraint over
  few letters by trying their digits.
A rule is applied by trying the digits its letters may still take (a small search in Python, pruned
by interval bounds; a sum's column too wide for that, by its bounds alone); what it rules out, or a
fixed difference between two of its letters, is a step. No step is shown before Z3 has answered `unsat` to the rule, the facts so far, the puzzle's
digit rules and the negation of the step's conclusion: an explanation is never wrong, only
sometimes incomplete, and then it says so and lists what a search finds.

One rule at a time first, then pairs of rules; when nothing local follows, a case split on the
letter with the fewest digits left: each wrong digit is refuted by local reasoning under the
assumption (cases inside cases if needed). The search's own solutions only choose which cases
to show; every case shown is refuted by proved steps.
"""

from __future__ import annotations

import html
import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from smtcrypt.core.check import Problem
from smtcrypt.core.numerals import root_floor
from smtcrypt.core.rules import is_wildcard
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Compare,
    Constraints,
    Expr,
    Not,
    Number,
    Unary,
    Word,
    to_text,
)
from smtcrypt.core.tree import (
    letters as tree_letters,
)
from smtcrypt.search import Search

MAX_LISTED = 10  # solutions listed at the end of an explanation that cannot go further
MAX_ENUMERATED = 20000  # most assignments of a rule's letters tried in full (relations need them all)
MAX_NODES = 200000  # most search nodes spent on a rule's digits in one application
BOUNDS_ONLY = 10**7  # a sum's column (or pair) with more digit combinations than this is reasoned about by its bounds alone
MAX_STEPS = 20000  # steps tried (shown or not) before an explanation stops and lists what the search finds
SPLIT_CANDIDATES = 4  # letters tried for a case split, those with the fewest digits left
MAX_DEPTH = 3  # cases inside cases, at most this deep
MAX_TRIED = 2000  # a constraint (not a sum or a product) over letters with at most this many digit combinations is also tried digit by digit
TRYING = 3  # the width of that reasoning: after single rules and pairs, and rated with case splits
PROOF_TIMEOUT_MS = 5000  # a step Z3 cannot prove in this time is not shown (a safety net: see PROOF_RLIMIT)
PROOF_RLIMIT = 2_000_000  # nor one past this many of Z3's resource units (about 0.5 s here): the same on every machine
MAX_WORK = 6_000_000  # search nodes (and proofs) before an explanation stops and lists the solutions
PROOF_WORK = 1000  # a proof counts this many nodes, and one more for every RLIMIT_PER_NODE of Z3's resource units
RLIMIT_PER_NODE = 15  # about as long, here, as a node of the search
COLUMN_SEARCH = 200_000  # a long multiplication's column is searched once its letters' digits times its narrower carry's values are fewer
PAIR_LETTERS = 6  # two columns of a long multiplication are taken together only with this few letters

DEDUCE, CASE, CONTRADICTION, SOLUTION = "deduce", "case", "contradiction", "solution"


@dataclass(frozen=True)
class Step:
    """One step of an explanation: what it uses and what follows, under the open case's assumptions.

    `fact` is a condition in the formula language over the puzzle's letters (`"M = 1"`,
    `"S in {8, 9}"`, `"not (E = 5)"`), None for a step about carries only."""

    kind: str  # deduce | case | contradiction | solution
    text: str
    uses: tuple[str, ...]
    fact: str | None
    assuming: tuple[str, ...] = ()
    width: int = 1  # how many columns (or digits) of reasoning the step needs at once
    depth: int = 0  # how many cases are open
    split: str = ""  # the letter a case split was on, for the step that ends it

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "uses": list(self.uses), "fact": self.fact,
                "assuming": list(self.assuming)}


@dataclass(frozen=True)
class Explanation:
    """The steps from the puzzle to its solution (or to the cases that remain), and a difficulty 1-5."""

    formula: str
    status: str  # unique | multiple | none | unknown (as a search's verdict)
    steps: tuple[Step, ...]
    solutions: tuple[dict[str, int], ...]  # every solution when few (at most MAX_LISTED), else the first ones
    complete: bool  # True when reasoning alone reached the end; False when the rest was left to a search
    count: int | None = None  # solutions in all, when known
    seconds: float = 0.0

    @property
    def solution(self) -> dict[str, int] | None:
        return dict(self.solutions[0]) if self.status == "unique" else None

    @property
    def difficulty(self) -> int:
        return difficulty(self.steps, self.complete)

    @property
    def case_splits(self) -> int:
        return sum(1 for step in self.steps if step.kind == CASE)

    def text(self, hint: int | None = None) -> str:
        """The explanation as numbered lines; with `hint`, only the first `hint` steps."""
        steps = self.steps if hint is None else self.steps[:hint]
        lines = [f"{self.formula}  (difficulty {self.difficulty} of 5)"]
        for number, step in enumerate(steps, 1):
            lines.append(f"{number:>3}. {'    ' * step.depth}{step.text}")
        if hint is not None and hint < len(self.steps):
            lines.append(f"     ({len(self.steps) - hint} more steps)")
        elif not self.complete:
            lines.append("     (the reasoning above does not finish the puzzle: the rest was found by search)")
        return "\n".join(lines)

    def to_dict(self, hint: int | None = None) -> dict[str, Any]:
        steps = self.steps if hint is None else self.steps[:hint]
        result: dict[str, Any] = {"formula": self.formula, "status": self.status, "difficulty": self.difficulty,
                                  "complete": self.complete, "steps": [step.as_dict() for step in steps],
                                  "solution": self.solution}
        if self.status != "unique":
            result["solutions"] = [dict(s) for s in self.solutions]
            result["count"] = self.count
        return result

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        items = "".join(
            f"<li style='margin-left:{2 * step.depth}em'><b>{html.escape(step.kind)}</b>: {html.escape(step.text)}</li>"
            for step in self.steps)
        return (f"<div class='smtcrypt-explanation'><p><code>{html.escape(self.formula)}</code>: {self.status}, "
                f"difficulty {self.difficulty} of 5</p><ol>{items}</ol></div>")


def difficulty(steps: Sequence[Step], complete: bool = True) -> int:
    """1 one column at a time; 2 two columns at once, or a long chain of single columns; 3 a case
    split one deep, few, or trying the digits of a constraint; 4 many case splits or cases inside cases; 5 deeper still, or the reasoning
    does not finish."""
    if not complete:
        return 5
    width = max((step.width for step in steps), default=1)
    depth = max((step.depth for step in steps), default=0)
    cases = sum(1 for step in steps if step.kind == CASE)
    if depth >= 3:
        return 5
    if depth == 2 or cases > 8:
        return 4
    if cases or width >= TRYING:
        return 3
    if width >= 2 or len(steps) > 25:
        return 2
    return 1


# --- rules ------------------------------------------------------------------------------------------


Monomial = tuple[str, ...]  # a product of variables (letters, carries), repeats allowed; () is 1
Equation = tuple[dict[Monomial, int], int]  # sum(coefficient * product) + constant == 0


@dataclass
class Rule:
    """A small piece of the puzzle a person can take in at once, in Python and in Z3."""

    name: str  # "column 2", "the last digit", "the sizes of the numbers"
    statement: str  # "E + O + c2 = N + 10·c3"
    variables: tuple[str, ...]  # letters and carries
    term: z3.BoolRef
    width: int = 1
    equations: tuple[Equation, ...] = ()  # for column rules: each must hold
    holds: Callable[[Mapping[str, int]], bool] | None = None  # for other rules: on a full assignment
    possible: Callable[[Mapping[str, tuple[int, int]]], bool] | None = None  # interval rules: could it hold?

    def check(self, values: Mapping[str, int]) -> bool:
        if self.equations:
            return all(sum(c * math.prod(values[v] for v in m) for m, c in terms.items()) + const == 0
                       for terms, const in self.equations)
        if self.holds is not None:
            return self.holds(values)
        return self.possible({v: (values[v], values[v]) for v in self.variables})  # type: ignore[misc]


class Facts:
    """What is known: the values each letter and carry may still take, and fixed differences."""

    def __init__(self, domains: dict[str, tuple[int, ...]], relations: tuple[tuple[str, str, int], ...] = ()):
        self.domains = domains
        self.relations = relations  # (x, y, k): x = y + k

    def copy(self) -> Facts:
        return Facts(dict(self.domains), self.relations)


def digits_text(values: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, sorted(values))) + "}"


def condition(name: str, kept: Sequence[int], universe: Sequence[int]) -> str:
    """`X = 3`, `X != 0`, `X >= 5`, `2 <= X <= 4`, `X in {1, 3}` or `X not in {0, 5}`: the shortest
    way to say that X takes one of `kept` out of `universe`, in the formula language."""
    kept = sorted(kept)
    dropped = sorted(set(universe) - set(kept))
    if len(kept) == 1:
        return f"{name} = {kept[0]}"
    if len(dropped) == 1:
        return f"{name} != {dropped[0]}"
    if kept == list(range(kept[0], kept[-1] + 1)):
        if kept[-1] == max(universe):
            return f"{name} >= {kept[0]}"
        if kept[0] == min(universe):
            return f"{name} <= {kept[-1]}"
        return f"{kept[0]} <= {name} <= {kept[-1]}"
    if len(dropped) < len(kept):
        return f"{name} not in {digits_text(dropped)}"
    return f"{name} in {digits_text(kept)}"


def signed(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"


def _span(monomial: Monomial, coefficient: int, domains: Mapping[str, Sequence[int]]) -> tuple[int, int]:
    """The least and greatest value of coefficient * product over the variables' digits (ends of each)."""
    low = high = coefficient
    for var in monomial:
        digits = domains[var]
        corners = [x * d for x in (low, high) for d in (digits[0], digits[-1])]
        low, high = min(corners), max(corners)
    return low, high


# --- building the rules -------------------------------------------------------------------------------


class Builder:
    """The puzzle's variables (letters and carries) and its local rules."""

    def __init__(self, problem: Problem, context: z3.Context):
        from smtcrypt.encode import allowed_digits

        self.problem = problem
        self.ctx = context
        self.base = problem.rules.base
        self.vars: dict[str, z3.ArithRef] = {}
        self.domains: dict[str, tuple[int, ...]] = {}
        self.display: dict[str, str] = {}
        self.carries: set[str] = set()
        self.wide_carries: set[str] = set()  # the carries of long multiplications
        cells = {letter: f"?{index + 1}" for index, letter in enumerate(problem.wildcards)}
        for letter in problem.letters:
            self.vars[letter] = z3.Int(letter, context)
            self.domains[letter] = tuple(sorted(allowed_digits(problem, letter)))
            self.display[letter] = cells.get(letter, letter)  # a `?` by its place: ?1 is the first
        self.rules: list[Rule] = []
        self.kinds: set[str] = set()
        if not self._columns():
            self._products()
        self._bounds()

    def var(self, name: str, low: int, high: int, shown: str) -> None:
        self.vars[name] = z3.Int(name, self.ctx)
        self.domains[name] = tuple(range(low, high + 1))
        self.display[name] = shown
        self.carries.add(name)

    # sums: one rule per column, and per pair of neighbouring columns

    def _columns(self) -> bool:
        from smtcrypt.encode.columns import equations

        if self.base != 10 or self.problem.unknowns:
            return False
        forms = equations(self.problem)
        if forms is None:
            return False
        self.kinds.add("columns")
        singles: list[list[Rule]] = []
        for index, form in enumerate(forms):
            suffix = "" if len(forms) == 1 else f" of equation {index + 1}"
            mark = "" if len(forms) == 1 else "'" * index
            columns: dict[int, dict[Monomial, int]] = {}
            for (letter, column), coefficient in form.items():
                if letter and coefficient:
                    terms = columns.setdefault(column, {})
                    terms[(letter,)] = terms.get((letter,), 0) + coefficient
            fixed = self._spread(form.get(("", 0), 0))
            singles.append(self._column_rules(columns, fixed, mark, lambda k, suffix=suffix: f"column {k}{suffix}"))
        for group in singles:  # the leftmost column first: where a person starts on a sum
            self.rules += reversed(group)
        for group in singles:
            self.rules += reversed(self._pairs(group))
        return True

    def _spread(self, constant: int) -> dict[int, int]:
        """A constant's digits by column, with its sign."""
        sign, value, column, fixed = (-1 if constant < 0 else 1), abs(constant), 0, {}
        while value:
            value, digit = divmod(value, self.base)
            if digit:
                fixed[column] = sign * digit
            column += 1
        return fixed

    def _column_rules(self, columns: Mapping[int, Mapping[Monomial, int]], fixed: Mapping[int, int], mark: str,
                      name: Callable[[int], str]) -> list[Rule]:
        """One rule per digit column of `sum(columns[k] * base**k) + sum(fixed[k] * base**k) = 0`: the
        column's terms and the carry in equal the base times the carry out."""
        base = self.base
        top = max([*columns, *fixed, 0])
        rules: list[Rule] = []
        carry_in: str | None = None
        for column in range(top + 1):
            terms = {m: c for m, c in columns.get(column, {}).items() if c}
            constant = fixed.get(column, 0)
            parts = [_span(m, c, self.domains) for m, c in terms.items()]
            if carry_in is not None:
                parts.append(_span((carry_in,), 1, self.domains))
            smallest = constant + sum(low for low, _ in parts)
            largest = constant + sum(high for _, high in parts)
            carry_out = None
            if column < top:
                low_out, high_out = -(-smallest // base), largest // base
                carry_out = f"c{column + 2}{mark}"
                self.var(carry_out, min(low_out, high_out), max(low_out, high_out), carry_out)
            full = dict(terms)
            if carry_in is not None:
                full[(carry_in,)] = full.get((carry_in,), 0) + 1
            if carry_out is not None:
                full[(carry_out,)] = full.get((carry_out,), 0) - base
            carry_in = carry_out
            if not full and not constant:
                continue
            variables = tuple(dict.fromkeys(v for monomial in full for v in monomial))
            term = z3.Sum([self._product(m, c) for m, c in full.items()] + [z3.IntVal(constant, self.ctx)]) == 0
            rules.append(Rule(name(column + 1), self._equation_text(full, constant), variables, term, 1,
                              ((full, constant),)))
        return rules

    def _product(self, monomial: Monomial, coefficient: int) -> z3.ArithRef:
        total: Any = z3.IntVal(coefficient, self.ctx)
        for var in monomial:
            total = total * self.vars[var]
        return total

    def _pairs(self, group: Sequence[Rule], most_letters: int | None = None) -> list[Rule]:
        """Each two neighbouring columns that share a carry, as one rule (at most `most_letters` letters)."""
        pairs = []
        for first, second in zip(group, group[1:]):
            if not set(first.variables) & set(second.variables) & self.carries:
                continue
            pair = self._pair(second, first)
            if most_letters is None or sum(1 for v in pair.variables if v not in self.carries) <= most_letters:
                pairs.append(pair)
        return pairs

    def _equation_text(self, terms: Mapping[Monomial, int], const: int) -> str:
        """sum(c * product) + const == 0 as `D + E = Y + 10·c2`: positive terms left, negative right."""
        def part(items: list[tuple[Monomial, int]], number: int) -> str:
            texts = []
            for monomial, c in items:
                product = "·".join(self.display[v] for v in monomial)
                texts.append(product if c == 1 else f"{c}·{product}")
            if number:
                texts.append(str(number))
            return " + ".join(texts) if texts else "0"
        left = [(m, c) for m, c in terms.items() if c > 0]
        right = [(m, -c) for m, c in terms.items() if c < 0]
        return f"{part(left, max(const, 0))} = {part(right, max(-const, 0))}"

    def _pair(self, first: Rule, second: Rule) -> Rule:
        variables = tuple(dict.fromkeys(first.variables + second.variables))
        name = f"{first.name.split(' of ')[0]} and {second.name}"
        return Rule(name, f"{first.statement} and {second.statement}", variables,
                    z3.And(first.term, second.term), 2, first.equations + second.equations)

    # products: the columns of the long multiplication (the last digit first), and the sizes

    def _products(self) -> None:
        from smtcrypt.encode.products import analyse
        from smtcrypt.encode.split import Bounds

        if self.problem.unknowns:
            return
        analysis = analyse(self.problem)
        if analysis is None:
            return
        self.kinds.add("products")
        for index, poly in enumerate(analysis.polynomials):
            suffix = "" if len(analysis.polynomials) == 1 else f" of equation {index + 1}"
            mark = "" if len(analysis.polynomials) == 1 else "'" * index
            columns = self._long_multiplication(poly, suffix, mark)
            self.rules += columns
            self.rules += self._pairs(columns, PAIR_LETTERS)
            bounds = Bounds([poly], self.base, distinct=False)
            letters = tuple(dict.fromkeys(ch for monomial in poly for word in monomial for ch in word if ch.isalpha()))

            def possible(box: Mapping[str, tuple[int, int]], bounds: Bounds = bounds) -> bool:
                return bounds.possible({letter: (low, high) for letter, (low, high) in box.items()})

            term = self._poly_term(poly) == 0
            nonzero = [self._word_term(word) != 0 for word in analysis.nonzero]
            self.rules.append(Rule(f"the sizes of the numbers{suffix}", self._poly_text(poly) + " = 0", letters,
                                   z3.And(term, *nonzero) if nonzero else term, 1, possible=possible))

    def _long_multiplication(self, poly: Mapping[tuple[str, ...], int], suffix: str, mark: str) -> list[Rule]:
        """The equation's digit columns as in a long multiplication: in column k, every product of a
        digit of one factor by a digit of the other whose places add up to k (the rows' digits in that
        column, before the rows' own carries), plus the carry from the column before."""
        order = {letter: index for index, letter in enumerate(self.problem.letters)}
        # the products on the left, making the carries, and the words they equal on the right
        # (ABC / DE = F as E·F = C + 10·c2, not C = E·F + 10·c2 with carries below zero)
        degree = max(len(words) for words in poly)
        if sum(c for words, c in poly.items() if len(words) == degree) < 0:
            poly = {words: -c for words, c in poly.items()}
        columns: dict[int, dict[Monomial, int]] = {}
        fixed: dict[int, int] = {}
        for words, coefficient in poly.items():
            if not words:
                for column, digit in self._spread(coefficient).items():
                    fixed[column] = fixed.get(column, 0) + digit
                continue
            places = [[(ch, place) for place, ch in enumerate(reversed(word))] for word in words]
            for combination in itertools.product(*places):
                column = sum(place for _, place in combination)
                value = coefficient
                letters = []
                for ch, _ in combination:
                    if ch.isalpha():
                        letters.append(ch)
                    else:
                        value *= int(ch, 36)
                if not value:
                    continue
                if letters:
                    key = tuple(sorted(letters, key=order.__getitem__))
                    terms = columns.setdefault(column, {})
                    terms[key] = terms.get(key, 0) + value
                else:
                    fixed[column] = fixed.get(column, 0) + value

        def name(k: int) -> str:
            return f"the last digit{suffix}" if k == 1 else f"column {k} of the long multiplication{suffix}"

        known = set(self.carries)
        rules = self._column_rules(columns, fixed, mark, name)
        self.wide_carries |= self.carries - known
        return rules

    def _word_term(self, word: str) -> z3.ArithRef:
        total: Any = z3.IntVal(0, self.ctx)
        for ch in word:
            total = total * self.base + (self.vars[ch] if ch.isalpha() else int(ch, 36))
        return total

    def _poly_term(self, poly: Mapping[tuple[str, ...], int]) -> z3.ArithRef:
        terms = []
        for monomial, coefficient in poly.items():
            product: Any = z3.IntVal(coefficient, self.ctx)
            for word in monomial:
                product = product * self._word_term(word)
            terms.append(product)
        return z3.Sum(terms)

    def _poly_text(self, poly: Mapping[tuple[str, ...], int]) -> str:
        parts = []
        for monomial, coefficient in poly.items():
            words = ["".join("?" if is_wildcard(ch) and ch.isalpha() else ch for ch in word) for word in monomial]
            body = "·".join(words) if words else str(abs(coefficient))
            if words and abs(coefficient) != 1:
                body = f"{abs(coefficient)}·{body}"
            parts.append(("- " if coefficient < 0 else "+ ") + body)
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]

    # anything: each constraint's bounds

    def _bounds(self) -> None:
        from smtcrypt.encode.general import formula_terms

        if self.kinds or self.problem.unknowns:
            return
        constraints = list(self.problem.formula.constraints)
        for index, constraint in enumerate(constraints):
            letters = tree_letters(Constraints((constraint,), self.problem.source))
            if not letters:
                continue
            sub = Problem(Constraints((constraint,), self.problem.source), self.problem.rules, letters,
                          self.problem.leading, self.problem.constant_exponents, self.problem.exponent_ranges, (),
                          self.problem.allowed)
            terms = formula_terms(sub, self.ctx)
            if terms is None:
                continue
            term = z3.And(terms.formula, *terms.side) if terms.side else terms.formula

            def possible(box: Mapping[str, tuple[int, int]], node: Expr = constraint) -> bool:
                return truth_bounds(node, box, self.base) is not False

            name = "the bounds" if len(constraints) == 1 else f"the bounds of constraint {index + 1}"
            self.rules.append(Rule(name, to_text(constraint), letters, term, 1, possible=possible))
            self.kinds.add("bounds")
            if math.prod(len(self.domains[letter]) for letter in letters) <= MAX_TRIED:
                self.rules.append(self._trying(constraint, letters, term, index, len(constraints)))

    def _trying(self, constraint: Expr, letters: tuple[str, ...], term: z3.BoolRef, index: int, count: int) -> Rule:
        """A constraint over few letters, decided by trying the digits they may take (what a person
        with a calculator does when no bound helps): exact, by the independent evaluator."""
        from smtcrypt.core.verify import Undefined, evaluate

        base = self.base

        def holds(values: Mapping[str, int], node: Expr = constraint) -> bool:
            try:
                return evaluate(node, values, base) != 0
            except Undefined:
                return False

        name = "trying the digits" if count == 1 else f"trying the digits in constraint {index + 1}"
        return Rule(name, to_text(constraint), letters, term, TRYING, holds=holds)


# --- interval arithmetic over the tree ----------------------------------------------------------------

Box = Mapping[str, tuple[int, int]]
Interval = tuple[Fraction, Fraction]


def value_bounds(node: Expr, box: Box, base: int) -> Interval | None:
    """Exact bounds of a value with every letter within its box; None where not worked out."""
    if isinstance(node, Word):
        low = high = 0
        for ch in node.letters:
            a, b = (int(ch, 36), int(ch, 36)) if ch.isdigit() else box[ch]
            low, high = low * base + a, high * base + b
        return Fraction(low), Fraction(high)
    if isinstance(node, Number):
        return node.value, node.value
    if isinstance(node, Unary):
        inner = value_bounds(node.operand, box, base)
        return inner if inner is None or node.op == "+" else (-inner[1], -inner[0])
    if isinstance(node, BinOp):
        left, right = value_bounds(node.left, box, base), value_bounds(node.right, box, base)
        if left is None or right is None:
            return None
        if node.op == "+":
            return left[0] + right[0], left[1] + right[1]
        if node.op == "-":
            return left[0] - right[1], left[1] - right[0]
        if node.op == "*":
            corners = [a * b for a in left for b in right]
            return min(corners), max(corners)
        if node.op == "/" and (right[0] > 0 or right[1] < 0):
            corners = [a / b for a in left for b in right]
            return min(corners), max(corners)
        if node.op == "**" and right[0] == right[1] and left[0] >= 0:
            exponent = right[0]
            if exponent.denominator == 1 and exponent >= 0:
                return left[0] ** int(exponent), left[1] ** int(exponent)
            if exponent > 0 and exponent.numerator <= 64 and exponent.denominator <= 64:
                p, q = exponent.numerator, exponent.denominator
                low = math.floor(left[0]) ** p
                high = math.ceil(left[1]) ** p
                return Fraction(root_floor(low, q)), Fraction(root_floor(high, q) + 1)
        return None
    if isinstance(node, Call):
        parts = [value_bounds(arg, box, base) for arg in node.args]
        if any(part is None for part in parts):
            return None
        if node.name == "min":
            return min(p[0] for p in parts), min(p[1] for p in parts)  # type: ignore[index]
        if node.name == "max":
            return max(p[0] for p in parts), max(p[1] for p in parts)  # type: ignore[index]
        if node.name == "abs":
            low, high = parts[0]  # type: ignore[misc]
            return (Fraction(0) if low <= 0 <= high else min(abs(low), abs(high))), max(abs(low), abs(high))
    return None


def truth_bounds(node: Expr, box: Box, base: int) -> bool | None:
    """True or False if the bounds decide the condition for every value in the box, else None."""
    if isinstance(node, Compare):
        results = []
        operands = [value_bounds(op, box, base) for op in node.operands]
        for op, left, right in zip(node.ops, operands, operands[1:]):
            if left is None or right is None or op in ("in", "not in"):
                results.append(None)
                continue
            results.append(_compare_bounds(op, left, right))
        if any(r is False for r in results):
            return False
        return True if all(r is True for r in results) else None
    if isinstance(node, BoolOp):
        parts = [truth_bounds(op, box, base) for op in node.operands]
        if node.op == "and":
            return False if False in parts else (True if all(p is True for p in parts) else None)
        return True if True in parts else (False if all(p is False for p in parts) else None)
    if isinstance(node, Not):
        inner = truth_bounds(node.operand, box, base)
        return None if inner is None else not inner
    return None


def _compare_bounds(op: str, a: Interval, b: Interval) -> bool | None:
    if op in ("==", "="):
        if a[1] < b[0] or b[1] < a[0]:
            return False
        return True if a[0] == a[1] == b[0] == b[1] else None
    if op == "!=":
        inner = _compare_bounds("==", a, b)
        return None if inner is None else not inner
    if op == "<":
        return True if a[1] < b[0] else (False if a[0] >= b[1] else None)
    if op == "<=":
        return True if a[1] <= b[0] else (False if a[0] > b[1] else None)
    if op == ">":
        return _compare_bounds("<", b, a)
    if op == ">=":
        return _compare_bounds("<=", b, a)
    return None


# --- the explainer -------------------------------------------------------------------------------------


class OutOfTime(Exception):
    """The explanation ran past its budget or its length."""


class Contradiction(Exception):
    def __init__(self, steps: list[Step]):
        self.steps = steps


class Explainer:
    def __init__(self, problem: Problem, budget: float | None = None, max_work: int = MAX_WORK):
        self.problem = problem
        self.ctx = z3.Context()
        self.built = Builder(problem, self.ctx)
        self.rules = self.built.rules
        named = [letter for letter in problem.letters if not is_wildcard(letter)]
        self.distinct_text = ""  # no letters must differ
        if len(problem.groups) == 1 and set(problem.groups[0]) == set(named):
            self.distinct_text = "the letters all different"
        elif problem.groups:  # --distinct's groups
            groups = ["".join(group) for group in problem.groups]
            self.distinct_text = f"{groups[0]} all different" if len(groups) == 1 else \
                f"{', '.join(groups[:-1])} and {groups[-1]} each all different"
        self.letters = problem.letters
        # the `?`s are digits to find, but not letters: no fact, case or tie is stated about them
        self.named = tuple(letter for letter in problem.letters if not is_wildcard(letter))
        self.groups = problem.groups  # the letters that must differ (all but the `?`s, or --distinct's groups)
        self.distinct = bool(self.groups)
        self.rivals = {letter: {other for group in self.groups if letter in group for other in group} - {letter}
                       for letter in problem.letters}
        self.deadline = math.inf if budget is None else time.monotonic() + budget
        self.universe = {name: digits for name, digits in self.built.domains.items()}
        self.all_digits = tuple(range(problem.rules.base))
        self.steps_made = 0
        self.memo: dict[Any, Any] = {}
        self.dry = False
        self.work = 0  # search nodes tried and proofs made: a budget that does not depend on the machine
        self.rlimit_seen = 0
        self.max_work = max_work

    # facts as text and as Z3

    def fact_text(self, name: str, kept: Sequence[int]) -> str:
        universe = self.all_digits if name in self.letters else self.universe[name]
        return condition(self.built.display[name], kept, universe)

    def fact_terms(self, facts: Facts) -> list[tuple[str, z3.BoolRef]]:
        """Each known fact (a letter's or carry's values, a difference) with its text."""
        terms = []
        for name, digits in facts.domains.items():
            var = self.built.vars[name]
            universe = self.all_digits if name in self.letters else self.universe[name]
            text = condition(self.built.display[name], digits, universe)
            if list(digits) == list(universe):
                term = z3.And(var >= digits[0], var <= digits[-1]) if digits else z3.BoolVal(False, self.ctx)
                terms.append(("", term))
                continue
            if not digits:
                terms.append((text, z3.BoolVal(False, self.ctx)))
            elif list(digits) == list(range(digits[0], digits[-1] + 1)):
                terms.append((text, z3.And(var >= digits[0], var <= digits[-1])))
            else:
                terms.append((text, z3.Or(*[var == d for d in digits])))
        for x, y, k in facts.relations:
            terms.append((f"{x} = {y} {signed(k)}" if k else f"{x} = {y}", self.built.vars[x] == self.built.vars[y] + k))
        return terms

    def prove(self, rules: Sequence[Rule], facts: Facts, conclusion: z3.BoolRef) -> tuple[bool, list[str], bool] | None:
        """Z3's unsat for rules + facts + not conclusion: (proved, the facts used, distinctness used).
        While case splits are only being tried (`dry`), nothing is proved: the split chosen is made again
        with every step proved."""
        if self.dry:
            return True, [], False
        self.work += PROOF_WORK
        for with_distinct in ((False, True) if self.distinct else (False,)):
            solver = z3.Solver(ctx=self.ctx)
            solver.set("timeout", PROOF_TIMEOUT_MS)
            solver.set("rlimit", PROOF_RLIMIT)
            for rule in rules:
                solver.add(rule.term)
            if with_distinct:
                for group in self.groups:
                    solver.add(z3.Distinct(*[self.built.vars[l] for l in group]))
            tracked = {}
            known = self.fact_terms(facts)
            for index, (text, term) in enumerate(known):
                if not text:
                    solver.add(term)
                    continue
                flag = z3.Bool(f"fact{index}", self.ctx)
                tracked[flag.get_id()] = text
                solver.add(z3.Implies(flag, term))
            solver.add(z3.Not(conclusion))
            flags = [z3.Bool(f"fact{i}", self.ctx) for i in range(len(known))]
            flags = [f for f in flags if f.get_id() in tracked]
            answer = solver.check(*flags)
            self.count_proof_work(solver)
            if answer == z3.unsat:
                core = {f.get_id() for f in solver.unsat_core()}
                used = [text for key, text in tracked.items() if key in core]  # in the facts' order: the same every run
                return True, used, with_distinct
            if answer == z3.unknown:
                return None
        return False, [], False

    def count_proof_work(self, solver: z3.Solver) -> None:
        """Z3's resource units spent so far in this context (a count, not a time: the same on every
        machine), added to the work as search nodes."""
        statistics = solver.statistics()
        spent = next((statistics.get_key_value(key) for key in statistics.keys() if key == "rlimit count"), 0)
        self.work += max(0, spent - self.rlimit_seen) // RLIMIT_PER_NODE
        self.rlimit_seen = max(self.rlimit_seen, spent)

    # applying a rule: the digits each variable can still take, and fixed differences

    def effective(self, facts: Facts, names: Iterable[str]) -> dict[str, tuple[int, ...]]:
        result = {}
        for name in names:
            digits = facts.domains[name]
            if len(digits) > 1 and self.rivals.get(name):
                taken = {facts.domains[other][0] for other in self.rivals[name] if len(facts.domains[other]) == 1}
                digits = tuple(d for d in digits if d not in taken)
            result[name] = digits
        return result

    def supports(self, rule: Rule, facts: Facts) -> tuple[dict[str, set[int]], list[dict[str, int]] | None] | None:
        """The values of each variable that some assignment satisfying the rule takes (and all such
        assignments when few); None when the search runs past its node budget. Remembered: the
        answer depends only on the digits the rule's variables may take and the differences among them."""
        domains = self.effective(facts, rule.variables)
        relations = tuple((x, y, k) for x, y, k in facts.relations if x in domains and y in domains)
        key = (id(rule), tuple(domains[v] for v in rule.variables), relations)
        if key not in self.memo:
            self.memo[key] = self._supports(rule, domains, relations)
        return self.memo[key]

    def _order(self, rule: Rule, domains: Mapping[str, tuple[int, ...]]) -> list[str]:
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
            left = [[v for v in dict.fromkeys(v for m in terms for v in m) if v in remaining] for terms, _ in rule.equations]
            follows = [vs[0] for vs, (terms, _) in zip(left, rule.equations)
                       if len(vs) == 1 and all(m.count(vs[0]) <= 1 for m in terms)]
            if follows:
                pick = follows[0]
            else:
                nearest = min((vs for vs in left if vs), key=len)
                pick = min(nearest, key=lambda v: (v in self.built.carries, len(domains[v])))
            order.append(pick)
            remaining.remove(pick)
        return order

    def _supports(self, rule: Rule, domains: dict[str, tuple[int, ...]],
                  relations: tuple[tuple[str, str, int], ...]) -> tuple[dict[str, set[int]], list[dict[str, int]] | None] | None:
        if any(not digits for digits in domains.values()):
            return {v: set() for v in rule.variables}, []
        if rule.possible is not None:
            return self._interval_supports(rule, domains), None
        if rule.equations and math.prod(len(digits) for digits in domains.values()) > BOUNDS_ONLY and \
                all(len(m) == 1 for terms, _ in rule.equations for m in terms):
            return self._bounds_supports(rule, domains), None
        wide = sorted(len(domains[v]) for v in rule.variables if v in self.built.wide_carries)
        if wide and math.prod(len(domains[v]) for v in rule.variables if v not in self.built.wide_carries) * \
                math.prod(wide[:-1]) > COLUMN_SEARCH:
            return None  # a long multiplication's column with too many digits still open: later, or in a case
        order = self._order(rule, domains)
        n = len(order)
        position = {v: i for i, v in enumerate(order)}
        allowed = [set(domains[v]) for v in order]
        # the distinctness groups each position is in (a letter in none takes any digit)
        group_index = {letter: [g for g, group in enumerate(self.groups) if letter in group] for letter in self.letters}
        is_letter = [group_index.get(v, []) for v in order]
        # each equation: at each position the terms it completes there (coefficient, the earlier positions
        # in the term, the power of this position), the bounds of what the terms completed after can add,
        # and whether the position's value then follows from the others (linear in it, nothing after)
        equations = []
        for terms, const in rule.equations:
            at: list[list[tuple[int, tuple[int, ...], int]]] = [[] for _ in order]
            low, high = [0] * (n + 1), [0] * (n + 1)
            for monomial, c in terms.items():
                places = [position[v] for v in monomial]
                last = max(places)
                at[last].append((c, tuple(p for p in places if p != last), places.count(last)))
                least, most = _span(monomial, c, domains)
                for i in range(last + 1):
                    low[i] += least
                    high[i] += most
            solvable = [low[i + 1] == high[i + 1] == 0 and bool(at[i]) and all(p == 1 for _, _, p in at[i])
                        for i in range(n)]
            # where one term b·x is all that is left after position i, the sum so far is a multiple of b
            later = [sum(len(at[j]) for j in range(i + 1, n)) for i in range(n)]
            modulus = [0] * n
            for i in range(n):
                if later[i] == 1:
                    ((b, others, power),) = next(at[j] for j in range(i + 1, n) if at[j])
                    modulus[i] = abs(b) if not others and power == 1 and abs(b) > 1 else 0
            equations.append((at, const, low, high, solvable, modulus))
        solve_by = [next((e for e, eq in enumerate(equations) if eq[4][i]), None) for i in range(n)]
        # where a sum of whole digits must be a multiple of b, a variable in a range it enters linearly steps by b
        step_by = [next((e for e, eq in enumerate(equations) if eq[5][i] and eq[0][i] and all(p == 1 for _, _, p in eq[0][i])),
                        None) if domains[v] == tuple(range(domains[v][0], domains[v][-1] + 1)) else None
                   for i, v in enumerate(order)]
        ties: list[list[tuple[int, int]]] = [[] for _ in order]  # at position i: (earlier position j, d) with v_i = v_j + d
        for x, y, k in relations:
            i, j = position[x], position[y]
            if i > j:
                ties[i].append((j, k))
            else:
                ties[j].append((i, -k))
        size = math.prod(len(domains[v]) for v in order)
        everything: list[dict[str, int]] | None = [] if size <= MAX_ENUMERATED else None
        supported: dict[str, set[int]] = {v: set() for v in order}
        values = [0] * n
        sums = [const for _, const, _, _, _, _ in equations]
        used: list[set[int]] = [set() for _ in self.groups]  # per group, the digits its letters placed so far take
        nodes = [0]
        check = rule.holds

        def added(e: int, index: int, digit: int) -> int:
            total = 0
            for c, others, power in equations[e][0][index]:
                term = c * digit ** power
                for j in others:
                    term *= values[j]
                total += term
            return total

        def steps(a: int, total: int, modulus: int, digits: tuple[int, ...]) -> Iterable[int]:
            """The digits d with total + a·d a multiple of the modulus."""
            g = math.gcd(a, modulus)
            if total % g:
                return ()
            step = modulus // g
            first = (-total // g) * pow(a // g, -1, step) % step if step > 1 else 0
            return range(digits[0] + (first - digits[0]) % step, digits[-1] + 1, step)

        def search(index: int, want: tuple[int, int] | None) -> bool:
            nodes[0] += 1
            if nodes[0] > MAX_NODES or (nodes[0] & 4095 == 0 and (time.monotonic() > self.deadline
                                                                   or self.work + nodes[0] > self.max_work)):
                raise OutOfTime
            if index == n:
                if check is not None and not check(dict(zip(order, values))):
                    return False
                for v, d in zip(order, values):
                    supported[v].add(d)
                if everything is not None:
                    everything.append(dict(zip(order, values)))
                return want is not None
            digits: Iterable[int] = domains[order[index]] if want is None or want[0] != index else (want[1],)
            e = solve_by[index]
            if e is not None:  # the value follows from the others: a * value + sums[e] = 0
                a = added(e, index, 1)
                if a:
                    value, remainder = divmod(-sums[e], a)
                    digits = (value,) if not remainder and value in allowed[index] and (
                        want is None or want[0] != index or want[1] == value) else ()
                elif sums[e]:
                    digits = ()
            elif step_by[index] is not None and (want is None or want[0] != index):
                e = step_by[index]
                digits = steps(added(e, index, 1), sums[e], equations[e][5][index], domains[order[index]])
            letter = is_letter[index]
            for digit in digits:
                if letter and any(digit in used[g] for g in letter):
                    continue
                if any(digit != values[j] + d for j, d in ties[index]):
                    continue
                ok = True
                changes = []
                for e, (_, _, low, high, _, modulus) in enumerate(equations):
                    change = added(e, index, digit)
                    total = sums[e] + change
                    if not total + low[index + 1] <= 0 <= total + high[index + 1] or (
                            modulus[index] and total % modulus[index]):
                        ok = False
                        break
                    changes.append(change)
                if not ok:
                    continue
                values[index] = digit
                for e, change in enumerate(changes):
                    sums[e] += change
                if letter:
                    for g in letter:
                        used[g].add(digit)
                found = search(index + 1, want)
                if letter:
                    for g in letter:
                        used[g].discard(digit)
                for e, change in enumerate(changes):
                    sums[e] -= change
                if found:
                    return True
            return False

        try:
            if everything is not None:
                search(0, None)
            else:
                skip = self.built.wide_carries if any(v in self.letters for v in order) else set()
                for index, var in enumerate(order):
                    if var in skip:  # only a single value is said of these (proved by Z3): what was seen will do
                        continue
                    for digit in domains[var]:
                        if digit not in supported[var]:
                            search(0, (index, digit))
        except OutOfTime:
            self.work += nodes[0]
            if time.monotonic() > self.deadline or self.work > self.max_work:
                raise
            return None
        self.work += nodes[0]
        return supported, everything

    def _bounds_supports(self, rule: Rule, domains: Mapping[str, tuple[int, ...]]) -> dict[str, set[int]]:
        """A column too wide to search (ten letters of a long sum): the digits its bounds allow, each
        variable's digit against the others' least and greatest."""
        supported = {v: set(digits) for v, digits in domains.items()}
        for terms, const in rule.equations:
            spans = {m[0]: _span(m, c, domains) for m, c in terms.items()}
            low, high = const + sum(a for a, _ in spans.values()), const + sum(b for _, b in spans.values())
            for (v,), c in terms.items():
                rest_low, rest_high = low - spans[v][0], high - spans[v][1]
                supported[v] = {d for d in supported[v] if rest_low + c * d <= 0 <= rest_high + c * d}
        return supported

    def _interval_supports(self, rule: Rule, domains: Mapping[str, tuple[int, ...]]) -> dict[str, set[int]]:
        box = {v: (d[0], d[-1]) for v, d in domains.items() if d}
        if len(box) < len(domains):
            return {v: set() for v in domains}
        supported = {}
        for var, digits in domains.items():
            supported[var] = {d for d in digits if rule.possible({**box, var: (d, d)})}  # type: ignore[misc]
        return supported

    def apply(self, rule: Rule, facts: Facts, assuming: tuple[str, ...], depth: int,
              strong: bool = False) -> list[Step]:
        """The steps that `rule` gives from `facts` (updating them); [] if none; raises Contradiction.
        With `strong`, only what fixes a letter or a carry, or ties two letters."""
        found = self.supports(rule, facts)
        if found is None:
            return []
        supported, everything = found
        effective = self.effective(facts, rule.variables)
        # what distinctness alone takes from a letter (another letter's fixed digit) is no step of its own
        changes = [(v, tuple(sorted(supported[v]))) for v in rule.variables if supported[v] < set(effective[v])]
        if any(not kept for _, kept in changes) or (everything is not None and not everything):
            return self.contradiction(rule, facts, assuming, depth)
        if strong:
            changes = [(v, kept) for v, kept in changes if len(kept) == 1]
        # a long multiplication's carries range widely: said only once one value is left
        changes = [(v, kept) for v, kept in changes if len(kept) == 1 or v not in self.built.wide_carries]
        steps: list[Step] = []
        # letters first, then carries (a carry's value is said once with what it gives)
        changes.sort(key=lambda change: (change[0] not in self.letters, self.letters.index(change[0])
                                         if change[0] in self.letters else 0))
        for var, kept in changes:
            step = self.deduce(rule, facts, var, kept, assuming, depth)
            if step is None:
                continue
            steps.append(step)
            facts.domains[var] = kept
        if steps or everything is None:
            return steps
        for x, y in itertools.combinations([v for v in rule.variables if v in self.named], 2):
            if len(facts.domains[x]) == 1 or len(facts.domains[y]) == 1:
                continue
            differences = {values[x] - values[y] for values in everything}
            if len(differences) != 1:
                continue
            k = differences.pop()
            if k < 0:
                x, y, k = y, x, -k
            if (x, y, k) in facts.relations:
                continue
            step = self.relate(rule, facts, x, y, k, assuming, depth)
            if step is not None:
                steps.append(step)
                facts.relations += ((x, y, k),)
                return steps
        return steps

    def _with(self, used: list[str], distinct: bool) -> str:
        parts = list(used) + ([self.distinct_text] if distinct else [])
        return f" with {', '.join(parts[:-1]) + ' and ' + parts[-1] if len(parts) > 1 else parts[0]}" if parts else ""

    def _uses(self, rules: Sequence[Rule], distinct: bool) -> tuple[str, ...]:
        return tuple(name for rule in rules for name in rule.name.split(" and ")) + (("distinctness",) if distinct else ())

    def deduce(self, rule: Rule, facts: Facts, var: str, kept: Sequence[int], assuming: tuple[str, ...],
               depth: int) -> Step | None:
        term = z3.Or(*[self.built.vars[var] == d for d in kept])
        proof = self.prove([rule], facts, term)
        if not proof or not proof[0]:
            return None
        _, used, distinct = proof
        text = self.fact_text(var, kept)
        self.count_step()
        fact = text if var in self.named else None
        return Step(DEDUCE, f"{rule.name.capitalize()}: {rule.statement}{self._with(used, distinct)}. So {text}.",
                    self._uses([rule], distinct), fact, assuming, rule.width, depth)

    def relate(self, rule: Rule, facts: Facts, x: str, y: str, k: int, assuming: tuple[str, ...],
               depth: int) -> Step | None:
        proof = self.prove([rule], facts, self.built.vars[x] == self.built.vars[y] + k)
        if not proof or not proof[0]:
            return None
        _, used, distinct = proof
        text = f"{x} = {y} {signed(k)}" if k else f"{x} = {y}"
        self.count_step()
        return Step(DEDUCE, f"{rule.name.capitalize()}: {rule.statement}{self._with(used, distinct)}. So {text}.",
                    self._uses([rule], distinct), text, assuming, rule.width, depth)

    def contradiction(self, rule: Rule, facts: Facts, assuming: tuple[str, ...], depth: int) -> list[Step]:
        proof = self.prove([rule], facts, z3.BoolVal(False, self.ctx))
        if not proof or not proof[0]:
            return []
        _, used, distinct = proof
        raise Contradiction([Step(CONTRADICTION, f"{rule.name.capitalize()} cannot hold: {rule.statement}"
                                  f"{self._with(used, distinct)}.", self._uses([rule], distinct), None, assuming,
                                  rule.width, depth)])

    def count_step(self) -> None:
        self.steps_made += 1
        if self.steps_made > MAX_STEPS or time.monotonic() > self.deadline or self.work > self.max_work:
            raise OutOfTime

    # propagation: single rules first, then pairs, each change starting again from the first rule

    def propagate(self, facts: Facts, assuming: tuple[str, ...], depth: int) -> list[Step]:
        steps: list[Step] = []
        while True:
            if time.monotonic() > self.deadline or self.work > self.max_work:
                raise OutOfTime
            if self.all_fixed(facts):
                try:
                    self.check_complete(facts, assuming, depth)
                except Contradiction as stop:
                    stop.steps[:0] = steps
                    raise
                return steps
            for width, strong in ((1, True), (1, False), (2, True), (2, False), (TRYING, False)):
                progress = False
                for rule in self.rules:
                    if rule.width != width:
                        continue
                    try:
                        found = self.apply(rule, facts, assuming, depth, strong)
                    except Contradiction as stop:
                        stop.steps[:0] = steps
                        raise
                    if found:
                        steps += found
                        progress = True
                        break
                if progress:
                    break
            else:
                return steps

    @staticmethod
    def letter_of(step: Step) -> str:
        return step.split

    def all_fixed(self, facts: Facts) -> bool:
        """Every letter has one digit left (a letter's last digit may be the one the others left it)."""
        return all(len(digits) == 1 for digits in self.effective(facts, self.letters).values())

    def check_complete(self, facts: Facts, assuming: tuple[str, ...], depth: int) -> None:
        """Every letter fixed: if the local rules do not cover the whole formula, check the formula."""
        from smtcrypt.core.verify import satisfies

        mapping = {l: digits[0] for l, digits in self.effective(facts, self.letters).items()}
        if any(len({mapping[l] for l in group}) < len(group) for group in self.groups):
            pass  # distinctness is part of every proof below
        elif satisfies(self.problem, mapping):
            return
        from smtcrypt.encode.general import formula_terms

        terms = formula_terms(self.problem, self.ctx)
        if terms is None:
            raise OutOfTime
        whole = Rule("the formula", self.problem.source.replace("\n", ", "), self.letters,
                     z3.And(terms.formula, *terms.side) if terms.side else terms.formula, 1)
        steps = self.contradiction(whole, facts, assuming, depth)
        if not steps:
            raise OutOfTime

    # case splits

    def refute(self, facts: Facts, letter: str, digit: int, assuming: tuple[str, ...], depth: int,
               limit: int) -> list[Step] | None:
        """Steps that show `letter` cannot be `digit` under the facts: a case ending in a
        contradiction; None if local reasoning (with cases inside, fewer than `limit` deep) does not get there."""
        case = f"{letter} = {digit}"
        inner = assuming + (case,)
        trial = facts.copy()
        trial.domains[letter] = (digit,)
        opening = Step(CASE, f"Suppose {case}.", (), case, inner, 1, depth + 1)
        try:
            steps = self.propagate(trial, inner, depth + 1)
            while depth + 1 < limit:
                found = self.split(trial, inner, depth + 1, None, limit)
                if not found:
                    break
                steps += found
                steps += self.propagate(trial, inner, depth + 1)
        except Contradiction as stop:
            closing = Step(CONTRADICTION, stop.steps[-1].text + f" So {letter} != {digit}.", stop.steps[-1].uses,
                           f"not ({case})", assuming, stop.steps[-1].width, depth)
            return [opening, *stop.steps[:-1], closing]
        return None

    def split(self, facts: Facts, assuming: tuple[str, ...], depth: int, wanted: Mapping[str, int] | None,
              limit: int, only: Sequence[str] | None = None) -> list[Step]:
        """One case split that refutes every digit of a letter but the one in `wanted` (the solution,
        if any; inside a case every digit must go, and the case itself is refuted). Of the few letters
        with the fewest digits left, the one whose refutation is shortest."""
        candidates = sorted((l for l in self.named if len(self.effective(facts, [l])[l]) > 1),
                            key=lambda l: (len(self.effective(facts, [l])[l]), self.letters.index(l)))
        if not self.dry:  # try the candidates without proofs, then make the best split again with them
            self.dry = True
            try:
                trial = facts.copy()
                chosen = self.split(trial, assuming, depth, wanted, limit, candidates[:SPLIT_CANDIDATES])
            except Contradiction as stop:
                chosen = [stop.steps[-1]]
            finally:
                self.dry = False
            if not chosen:
                return []
            letter = chosen[-1].fact.split(" ")[0] if chosen[-1].fact else self.letter_of(chosen[-1])
            candidates = [letter]
        elif only is not None:
            candidates = list(only)
        best: tuple[list[Step], Facts, str] | None = None
        for letter in candidates[:SPLIT_CANDIDATES]:
            steps: list[Step] = []
            trial = facts.copy()
            keep = None if wanted is None else wanted.get(letter)
            for digit in self.effective(facts, [letter])[letter]:
                if digit == keep:
                    continue
                refutation = self.refute(trial, letter, digit, assuming, depth, limit)
                if refutation is None:
                    break
                steps += refutation
                trial.domains[letter] = tuple(d for d in trial.domains[letter] if d != digit)
            else:
                if best is None or len(steps) < len(best[0]):
                    best = (steps, trial, letter)
                if depth > 0:  # inside a case the first split that works will do
                    break
        if best is None:
            return []
        steps, trial, letter = best
        keep = None if wanted is None else wanted.get(letter)
        if keep is None:  # every digit refuted: the case itself is impossible
            raise Contradiction(steps + [Step(CONTRADICTION, f"{letter} can take no digit.", ("cases",), None,
                                              assuming, 1, depth, letter)])
        facts.domains.update(trial.domains)
        facts.domains[letter] = (keep,)
        text = f"{letter} = {keep}"
        self.count_step()
        steps.append(Step(DEDUCE, f"Every other digit of {letter} failed. So {text}.", ("cases",), text,
                          assuming, 1, depth))
        return steps

    def run(self, solutions: Sequence[dict[str, int]]) -> tuple[list[Step], str]:
        """The explanation's steps, and how it ended: "done" (reasoning reached the solution or a
        contradiction), "stuck" (nothing more follows) or "out of time"."""
        facts = Facts(dict(self.built.domains))
        steps: list[Step] = []
        if not self.rules:
            return steps, "stuck"
        try:
            while True:
                steps += self.propagate(facts, (), 0)
                if self.all_fixed(facts):
                    return steps, "done"
                if len(solutions) > 1:
                    return steps, "stuck"
                for limit in range(1, MAX_DEPTH + 1):  # cases as shallow as they can be
                    found = self.split(facts, (), 0, solutions[0] if solutions else None, limit)
                    if found:
                        break
                if not found:
                    return steps, "stuck"
                steps += found
        except Contradiction as stop:
            return steps + stop.steps, "done"
        except OutOfTime:
            return steps, "out of time"


def explain(problem: Problem, *, timeout: float | None = None) -> Explanation:
    """The explanation of a checked puzzle (see the module's docstring)."""
    start = time.monotonic()
    budget = timeout
    search = Search(problem, limit=MAX_LISTED + 1, timeout=budget)
    solutions = list(search)
    found = [dict(solution.mapping) for solution in solutions]
    shown = [solution_text(solution, problem) for solution in solutions]
    if search.reason is not None and not search.complete and len(found) <= MAX_LISTED:
        return Explanation(problem.source, "unknown", (), tuple(found), False, None, time.monotonic() - start)
    count: int | None = len(found)
    if len(found) > MAX_LISTED:
        left = None if budget is None else max(budget - (time.monotonic() - start), 1.0)
        counting = Search(problem, timeout=left, keep=False).run()
        count = counting.found if counting.complete else None
    status = "none" if not found else ("unique" if len(found) == 1 else "multiple")
    letters_only = [{k: v for k, v in s.items() if k in problem.letters} for s in found]
    if problem.unknowns:  # integer unknowns have no digits to reason about
        steps: list[Step] = []
        ending = "unsupported"
    else:
        explainer = Explainer(problem, None if budget is None else max(budget - (time.monotonic() - start), 1.0))
        steps, ending = explainer.run(letters_only)
    # a puzzle with several solutions is explained up to where the cases remain, then they are listed
    complete = ending == "done" or (ending == "stuck" and status == "multiple")
    if status == "unique" and ending == "done":
        fact = " and ".join(f"{k} = {v}" for k, v in sorted(letters_only[0].items()))
        steps.append(Step(SOLUTION, f"Solution: {shown[0]}.", (), fact or None, (), 1, 0))
    elif ending != "done":
        steps += closing_steps(shown, count, reasoned=complete)
    return Explanation(problem.source, status, tuple(steps), tuple(found[:MAX_LISTED]), complete, count,
                       time.monotonic() - start)


def solution_text(solution: Any, problem: Problem) -> str:
    """`D=7 E=5 M=1`; with `?`s, the formula filled in as well (`10 + 91 = 101  /  A=1`)."""
    if problem.wildcards:
        return str(solution)
    return " ".join(f"{k}={v}" for k, v in sorted(solution.mapping.items()))


def closing_steps(found: Sequence[str], count: int | None, reasoned: bool) -> list[Step]:
    """What the reasoning left open, said as such: the solutions a complete search finds (as `solution_text`)."""
    if not found:
        return [Step(SOLUTION, "No further step follows by local reasoning; a complete search finds no solution.",
                     ("search",), None, (), 1, 0)]
    listed = found[:MAX_LISTED]
    many = "" if count is not None else f" (the first {MAX_LISTED} of more)"
    lead = ("No further step follows by local reasoning. " if not reasoned else "Several cases remain. ") + \
        f"A complete search finds {count if count is not None else 'more than ' + str(MAX_LISTED)} " \
        f"solution{'' if count == 1 else 's'}{many}:"
    steps = [Step(SOLUTION, lead, ("search",), None, (), 1, 0)]
    for text in listed:
        steps.append(Step(SOLUTION, f"Solution: {text}.", ("search",), None, (), 1, 0))
    return steps
