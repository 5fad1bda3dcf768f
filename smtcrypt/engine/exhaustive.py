"""The exhaustive backend: the checked tree compiled once into Python, tried on every assignment.

Where solutions are dense or the space is small, one solver check per model can never beat a
compiled candidate that costs well under a microsecond (`ABC % DE = F`: 2,357 solutions among
151,200 assignments). The formula becomes the body of one generated loop over the digit
tuples the rules allow, with the exact semantics of `verify.py`: Python ints, a `Fraction` only
where `/`, a negative power or a root needs one, never a float; a zero divisor or an irrational
root makes the candidate fail (an `ArithmeticError`), not the search. Trying every assignment
the rules allow is a proof of completeness, as `unsat` is.

Integer unknowns that the formula itself bounds (`1 <= x <= 3`, see bounded.py) are looped over
as letters are, each over its values, after the letters' digits in a candidate tuple.

The generated code holds only names it makes itself (`v0`, `u0`, `_F`, ...) and integers it
computed: no text of the formula reaches `compile`.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from smtcrypt.analysis.unknowns import Values, unknown_values
from smtcrypt.core.check import Problem
from smtcrypt.core.numerals import place_values, repeating_scale
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Name, Not, Number, Repeating, Unary, Word
from smtcrypt.core.verify import Undefined, integer_root, power
from smtcrypt.engine import Assignment, Ending, Proof, SearchEnd, Stoppable

Digits = tuple[int, ...]
OVERHEAD = 0.25e-6  # seconds per candidate beyond the formula: making and handing over the tuples
CHUNK_SECONDS = 0.01  # candidates between two looks at the clock and the stop flag
FIRST_CHUNK = 2048
YIELDED_WHEN_COUNTING = 100  # solutions yielded (for the caller's re-check) before a count goes on in bulk  # the first chunk also measures the cost of one candidate


class NotCompilable(ValueError):
    """The problem cannot be searched exhaustively (integer unknowns the formula leaves unbounded),
    or its code is too deep."""


def _as_integer(value: Any) -> int:
    if value.denominator != 1:
        raise Undefined("not an integer")
    return value.numerator


def _gcd(*values: Any) -> int:
    try:
        return math.gcd(*values)  # ints (and bools), the common case
    except TypeError:  # a Fraction among them: only whole ones have a gcd
        return math.gcd(*(_as_integer(value) for value in values))


def _bounds(args: tuple[Any, ...]) -> tuple[int, int]:
    bounds = [_as_integer(arg) for arg in args]
    return (0, bounds[0]) if len(bounds) == 1 else (bounds[0], bounds[1])


def _in_range(item: Any, *args: Any) -> bool:
    start, stop = _bounds(args)
    return item.denominator == 1 and start <= item < stop


def _sum_range(*args: Any) -> int:
    start, stop = _bounds(args)
    return max(0, stop - start) * (start + stop - 1) // 2


def _power(base: Any, exponent: Any) -> Any:
    """verify.power, with the common int ** non-negative int kept an int."""
    if type(base) is int and type(exponent) is int and exponent >= 0:
        return base ** exponent
    return power(base, exponent)


def _root_power(base: Any, p: int, q: int) -> Any:
    """base ** (p/q) for a constant exponent, exactly: the non-negative q-th root, if rational, to the p."""
    if type(base) is not int or base < 0:
        return power(base, Fraction(p, q))
    root = math.isqrt(base) if q == 2 else integer_root(base, q)
    if root is None or root ** q != base:
        raise Undefined("irrational root")
    if p >= 0:
        return root ** p
    if root == 0:
        raise Undefined("zero to a negative power")
    return Fraction(1, root ** -p)


def _nz(divisor: int) -> int:
    """The divisor, unless it is zero."""
    if divisor == 0:
        raise ZeroDivisionError("division by zero")
    return divisor


def _nonzero(*divisors: int) -> None:
    for divisor in divisors:
        if divisor == 0:
            raise ZeroDivisionError("division by zero")


# a/b OP c/d over integers, without making Fractions: equalities cross-multiplied, orderings
# multiplied through by (b*d)**2 > 0. Measured: NORTH / SOUTH = EAST / WEST 8.6 s -> about 2 s.
def _q_eq(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * d == c * b


def _q_ne(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * d != c * b


def _q_lt(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * b * d * d < c * d * b * b


def _q_le(a: int, b: int, c: int, d: int) -> bool:
    _nonzero(b, d)
    return a * b * d * d <= c * d * b * b


QUOTIENT_COMPARISONS = {"==": "_q_eq", "!=": "_q_ne", "<": "_q_lt", "<=": "_q_le", ">": "_q_lt", ">=": "_q_le"}

MAX_PAIR_CODE = 2000  # characters: a longer (numerator, denominator) pair is left to Fraction
HELPERS: dict[str, Any] = {"_nz": _nz, "_q_eq": _q_eq, "_q_ne": _q_ne, "_q_lt": _q_lt, "_q_le": _q_le,"_F": Fraction, "_pow": _power, "_root": _root_power, "_gcd": _gcd, "_in_range": _in_range,
                           "_sum_range": _sum_range, "abs": abs, "min": min, "max": max,
                           "_len": len, "ArithmeticError": ArithmeticError}
PRECEDENCE = {"+": 1, "-": 1, "*": 2}  # operators written without brackets inside a chain of their own kind


@dataclass
class Compiled:
    """The problem as one generated function: `scan(candidates)` is the list of those that solve it."""

    problem: Problem
    free: tuple[str, ...]  # the letters the loop assigns, in the order of a candidate tuple
    fixed: dict[str, int]  # letters the rules fix to one digit
    source: str  # the generated code, for tests and the curious
    scan: Callable[[Iterable[Digits]], list[Digits]]
    constants: tuple[Any, ...] = field(default=())
    unknowns: dict[str, Values] = field(default_factory=dict)  # each bounded unknown's values, after the letters in a candidate

    def assignment(self, digits: Digits) -> Assignment:
        """The letters' digits (and the unknowns' values), alphabetically."""
        values = dict(zip((*self.free, *self.unknowns), digits))
        if self.fixed or self.unknowns:
            values.update(self.fixed)
            return {name: values[name] for name in sorted(values)}
        return values


def _times(x: str, y: str) -> str:
    return y if x == "1" else x if y == "1" else f"({x}*{y})"


def _raised(x: str, k: int) -> str:
    return x if k == 1 or x == "1" else f"({x}**{k})"


class _Writer:
    """Python source for each node, the helpers and constants it needs."""

    def __init__(self, problem: Problem, names: dict[str, str]):
        self.problem = problem
        self.base = problem.rules.base
        self.names = names  # letter -> "v3" or a digit
        self.constants: list[Any] = []
        self.temporaries = itertools.count()
        self.may_fail = False  # some node can raise ArithmeticError: the loop needs a try

    def constant(self, value: Any) -> str:
        if isinstance(value, int):
            return f"({int(value)})"
        self.constants.append(value)
        return f"_K[{len(self.constants) - 1}]"

    def digits(self, letters: str) -> str:
        """A word's value as a sum of place values: 'ODD' -> (v0*100+v1*10+v1)."""
        weights, fixed = place_values(letters, self.base)
        terms = []
        for letter, weight in weights.items():
            name = self.names[letter]
            if name.isdigit():
                fixed += int(name) * weight
            else:
                terms.append(name if weight == 1 else f"{name}*{weight}")
        if fixed or not terms:
            terms.append(str(fixed))
        return "(" + "+".join(terms) + ")"

    def write(self, node: Expr) -> str:
        if isinstance(node, Word):
            return self.digits(node.letters)
        if isinstance(node, Repeating):
            head = self.digits(node.whole + node.fixed)
            head_and_period = self.digits(node.whole + node.fixed + node.period)
            denominator = repeating_scale(node.fixed, node.period, self.base)
            return f"_F({head_and_period}-{head}, {denominator})"
        if isinstance(node, Number):
            value = node.value
            return self.constant(value.numerator if value.denominator == 1 else value)
        if isinstance(node, Name):
            return self.names[node.name]  # "u0": the unknown's own loop variable
        if isinstance(node, Unary):
            return f"({node.op}{self.write(node.operand)})"
        if isinstance(node, BinOp):
            return self.binary(node)
        if isinstance(node, Compare):
            return self.comparison(node)
        if isinstance(node, BoolOp):
            return "(" + f" {node.op} ".join(self.write(operand) for operand in node.operands) + ")"
        if isinstance(node, Not):
            return f"(not {self.write(node.operand)})"
        if isinstance(node, Call):
            return self.call(node)
        raise NotCompilable(f"cannot compile {type(node).__name__} on its own")

    def binary(self, node: BinOp) -> str:
        if node.op in PRECEDENCE:
            # A + B + C + ... unbracketed: Python's parser refuses deeply nested brackets.
            parts = [self.write(node.right)]
            left = node.left
            ops = [node.op]
            while isinstance(left, BinOp) and left.op in PRECEDENCE and PRECEDENCE[left.op] == PRECEDENCE[node.op]:
                parts.append(self.write(left.right))
                ops.append(left.op)
                left = left.left
            parts.append(self.write(left))
            text = parts.pop()
            for op, part in zip(reversed(ops), reversed(parts)):
                text += f" {op} {part}"
            return f"({text})"
        left, right = self.write(node.left), self.write(node.right)
        if node.op == "/":
            self.may_fail = True
            return f"_F({left}, {right})"
        if node.op in ("//", "%"):
            self.may_fail = True
            return f"({left} {node.op} {right})"
        exponent = self.problem.constant_exponents.get(node)
        if exponent is not None and exponent.denominator == 1 and exponent >= 0:
            return f"({left} ** {int(exponent)})"
        self.may_fail = True
        if exponent is not None and exponent.denominator != 1:
            return f"_root({left}, {exponent.numerator}, {exponent.denominator})"
        return f"_pow({left}, {right if exponent is None else self.constant(exponent)})"

    def integral(self, node: Expr) -> bool:
        """True for an integer-valued expression that cannot fail: words, integers, + - * of them."""
        if isinstance(node, (Word, Name)):
            return True
        if isinstance(node, Number):
            return node.value.denominator == 1
        if isinstance(node, Unary):
            return self.integral(node.operand)
        return isinstance(node, BinOp) and node.op in PRECEDENCE and self.integral(node.left) and self.integral(node.right)

    def quotient(self, node: Expr) -> tuple[str, str] | None:
        """(numerator, denominator) code for a rational expression (words, numbers, repeating
        decimals, + - * /, non-negative integer powers), else None. The denominator is zero exactly
        where Python's evaluation divides by zero: a product of the divisors met, each nonzero
        otherwise (the divisor's own denominator, which is not a factor, is checked by `_nz`).
        Integers throughout: no Fraction made per candidate (A / B + C / D = E / F: 0.8 s -> 0.37 s)."""
        pair = self._pair(node)
        if pair is None or len(pair[0]) + len(pair[1]) > MAX_PAIR_CODE:
            return None
        return pair

    def _pair(self, node: Expr) -> tuple[str, str] | None:
        if self.integral(node):
            return self.write(node), "1"
        if isinstance(node, Number):
            return f"({node.value.numerator})", f"({node.value.denominator})"
        if isinstance(node, Repeating):
            head = self.digits(node.whole + node.fixed)
            head_and_period = self.digits(node.whole + node.fixed + node.period)
            return f"({head_and_period}-{head})", f"({repeating_scale(node.fixed, node.period, self.base)})"
        if isinstance(node, Unary) and node.op in ("-", "+"):
            inner = self._pair(node.operand)
            return None if inner is None else (f"({node.op}{inner[0]})", inner[1])
        if not isinstance(node, BinOp):
            return None
        if node.op == "**":
            exponent = self.problem.constant_exponents.get(node)
            if exponent is None or exponent.denominator != 1:
                return None
            inner = self._pair(node.left)
            if inner is None:
                return None
            k, (a, b) = int(exponent), inner
            if k < 0:  # (a/b)**-k = b**k / a**k: zero exactly where a is, and b checked
                return _raised(b if b == "1" else f"_nz({b})", -k), _raised(a, -k)
            return _raised(a, k), _raised(b, k) if k else f"(1 if {b} else 0)"
        if node.op not in ("+", "-", "*", "/"):
            return None
        left, right = self._pair(node.left), self._pair(node.right)
        if left is None or right is None:
            return None
        (a, b), (c, d) = left, right
        if node.op == "*":
            return _times(a, c), _times(b, d)
        if node.op == "/":
            return _times(a, d if d == "1" else f"_nz({d})"), _times(b, c)
        return f"({_times(a, d)} {node.op} {_times(c, b)})", _times(b, d)

    def comparison(self, node: Compare) -> str:
        """A chain, evaluated as Python does: each operand once, left to right, stopping at the first
        false link; temporaries carry an operand from one link to the next."""
        if len(node.ops) == 1 and node.ops[0] in QUOTIENT_COMPARISONS and not all(
                self.integral(operand) for operand in node.operands):
            left, right = self.quotient(node.operands[0]), self.quotient(node.operands[1])
            if left is not None and right is not None:
                self.may_fail = True
                op = node.ops[0]
                if op in (">", ">="):
                    left, right = right, left
                helper = QUOTIENT_COMPARISONS[op]
                return f"{helper}({left[0]}, {left[1]}, {right[0]}, {right[1]})"
        text: list[str] = []
        left = self.write(node.operands[0])
        last = len(node.ops) - 1
        for index, (op, operand) in enumerate(zip(node.ops, node.operands[1:])):
            if op in ("in", "not in"):
                if isinstance(operand, Collection):
                    items = "".join(self.write(item) + ", " for item in operand.items)
                    link = f"({left} {op} ({items}))"
                else:  # range(...): integers only, whatever the bounds' type
                    self.may_fail = True
                    args = ", ".join(self.write(arg) for arg in operand.args)
                    link = f"({'not ' if op == 'not in' else ''}_in_range({left}, {args}))"
                text.append(link)
                continue  # `in` ends a chain (checked)
            right = self.write(operand)
            if index < last:
                name = f"_t{next(self.temporaries)}"
                text.append(f"({left} {op} ({name} := {right}))")
                left = name
            else:
                text.append(f"({left} {op} {right})")
        return "(" + " and ".join(text) + ")"

    def call(self, node: Call) -> str:
        if node.name == "sum":
            self.may_fail = True
            args = ", ".join(self.write(arg) for arg in node.args[0].args)
            return f"_sum_range({args})"
        args = ", ".join(self.write(arg) for arg in node.args)
        if node.name == "gcd":
            self.may_fail = True
            return f"_gcd({args})"
        return f"{node.name}({args})"


def compile_problem(problem: Problem) -> Compiled:
    """The problem's constraints as one loop over candidate digit tuples (each unknown's value after
    the digits); `NotCompilable` if it has integer unknowns the formula leaves unbounded, or Python
    cannot compile code that deep."""
    bounded: dict[str, Values] = {}
    if problem.unknowns:
        found = unknown_values(problem)
        if found is None:
            raise NotCompilable("integer unknowns that the formula does not bound (such as 0 <= x <= 9) "
                                "have no finite set of values to try")
        bounded = {name: found[name] for name in sorted(found)}
    fixed = {letter: next(iter(problem.allowed[letter])) for letter in problem.letters
             if len(problem.allowed[letter]) == 1}
    free = tuple(sorted(letter for letter in problem.letters if letter not in fixed))  # assignments come out alphabetical
    names = {letter: f"v{index}" for index, letter in enumerate(free)}
    names.update({letter: str(digit) for letter, digit in fixed.items()})
    names.update({name: f"u{index}" for index, name in enumerate(bounded)})
    writer = _Writer(problem, names)
    body = " and ".join(f"{writer.write(constraint)}" for constraint in problem.formula.constraints)
    filters = _filters(problem, free, fixed, writer)
    target = "(" + "".join(f"v{index}, " for index in range(len(free))) + "".join(
        f"u{index}, " for index in range(len(bounded))) + ")"
    lines = ["def _scan(_candidates):",
             "    _hits = []",
             "    _keep = _hits.append",
             f"    for {target} in _candidates:"]
    indent = "        "
    if filters:
        lines.append(f"{indent}if {' and '.join(filters)}:")
        indent += "    "
    if writer.may_fail:
        lines += [f"{indent}try:", f"{indent}    if {body}:", f"{indent}        _keep({target})",
                  f"{indent}except ArithmeticError:", f"{indent}    pass"]
    else:
        lines += [f"{indent}if {body}:", f"{indent}    _keep({target})"]
    lines.append("    return _hits")
    source = "\n".join(lines) + "\n"
    namespace: dict[str, Any] = dict(HELPERS, _K=tuple(writer.constants), __builtins__={})
    try:
        exec(compile(source, "<smtcrypt formula>", "exec"), namespace)
    except (SyntaxError, RecursionError, MemoryError) as error:  # too deep for Python's own parser
        raise NotCompilable(f"the formula is too deeply nested to compile ({type(error).__name__})") from None
    return Compiled(problem, free, fixed, source, namespace["_scan"], tuple(writer.constants), bounded)


def _filters(problem: Problem, free: tuple[str, ...], fixed: dict[str, int], writer: _Writer) -> list[str]:
    """Conditions on a candidate that the candidates themselves do not already meet."""
    pool = candidate_digits(problem, free, fixed)
    if pool is None:  # letters drawn each from its own digits; only some of them must differ
        index = {letter: f"v{position}" for position, letter in enumerate(free)}
        return [f"_len({{{', '.join(index.get(letter) or str(fixed[letter]) for letter in group)}}}) == {len(group)}"
                for group in problem.groups]
    filters = []
    for index, letter in enumerate(free):
        allowed = problem.allowed[letter]
        if allowed >= pool:
            continue
        missing = pool - allowed
        if missing == {0}:
            filters.append(f"v{index}")
        else:
            filters.append(f"v{index} in {writer.constant(frozenset(allowed))}")
    return filters


def candidate_digits(problem: Problem, free: tuple[str, ...], fixed: dict[str, int]) -> frozenset[int] | None:
    """The digits distinct free letters are drawn from (None unless every letter must differ)."""
    if problem.distinctness != "all":
        return None
    pool = frozenset().union(*(problem.allowed[letter] for letter in free)) if free else frozenset()
    return pool - set(fixed.values())


def candidates(compiled: Compiled) -> tuple[Iterator[Digits], int]:
    """Every digit tuple for the free letters that the rules might allow (the loop's filters do the
    rest), each followed by every tuple of the bounded unknowns' values, and how many there are."""
    tuples, total = _letter_candidates(compiled)
    if not compiled.unknowns or not total:
        return tuples, total
    values = list(compiled.unknowns.values())
    count = total * math.prod(len(domain) for domain in values)
    # each letter tuple once, with every tuple of values (few: at most MAX_VALUES each), not the
    # letters' tuples kept in memory for every value
    return (digits + chosen for digits in tuples for chosen in itertools.product(*values)), count


def _letter_candidates(compiled: Compiled) -> tuple[Iterator[Digits], int]:
    problem, free, fixed = compiled.problem, compiled.free, compiled.fixed
    if any(not problem.allowed[letter] for letter in problem.letters):
        return iter(()), 0
    pool = candidate_digits(problem, free, fixed)
    if pool is None:
        domains = [sorted(problem.allowed[letter]) for letter in free]
        return itertools.product(*domains), math.prod(len(domain) for domain in domains)
    if len(set(fixed.values())) < len(fixed) or len(pool) < len(free):
        return iter(()), 0
    return itertools.permutations(sorted(pool), len(free)), math.perm(len(pool), len(free))


class ExhaustiveSearch(Stoppable):
    """Every assignment the rules allow, tried by the compiled formula, in chunks between which the
    clock and the stop flag are read. Skips the digit tuples (alphabetical) for which `skip` is true:
    solutions reported before a switch."""

    name = "exhaustive"
    exact = True  # its solutions are the formula's own exact evaluation, not a solver's model

    def __init__(self, compiled: Compiled, deadline: float | None = None,
                 skip: Callable[[tuple[int, ...]], bool] | None = None, listing: bool = True):
        self.compiled = compiled
        self.deadline = deadline
        self.skip = skip
        self.listing = listing  # False: yield the first YIELDED_WHEN_COUNTING solutions, count the rest in `bulk`
        self.found = 0  # solutions yielded
        self.bulk = 0
        self.end: SearchEnd | None = None
        self.stop_requested = False
        self.tried = 0  # candidate tuples evaluated
        self.total = candidates(compiled)[1]

    def statistics(self) -> dict[str, Any]:
        return {"candidates": self.total, "candidates_tried": self.tried}

    def __iter__(self) -> Iterator[Assignment]:
        for batch in self.batches():
            yield from batch

    def batches(self) -> Iterator[list[Assignment]]:
        """The solutions a chunk at a time: handing over a list costs less than a generator step each."""
        tuples, _ = candidates(self.compiled)
        size = FIRST_CHUNK
        while True:
            if self._stopping():
                return
            started = time.perf_counter()  # the chunk's making counts too: a chunk is the time between two looks
            chunk = list(itertools.islice(tuples, size))
            if not chunk:
                self.end = SearchEnd(Ending.COMPLETE, proof=Proof.EXHAUSTIVE)
                return
            hits = self.compiled.scan(chunk)
            spent = time.perf_counter() - started
            self.tried += len(chunk)
            size = max(FIRST_CHUNK, min(1 << 20, 2 * len(chunk), int(len(chunk) * CHUNK_SECONDS / max(spent, 1e-6))))
            assignment, skip = self.compiled.assignment, self.skip
            reordered = self.compiled.fixed or self.compiled.unknowns  # a hit's own order is not alphabetical
            if not self.listing and skip is None and self.found >= YIELDED_WHEN_COUNTING:
                self.bulk += len(hits)
                continue
            if skip is not None:  # on the hits only, as alphabetical tuples (the hits' own order without fixed letters or unknowns)
                hits = [digits for digits in hits if not skip(tuple(assignment(digits).values()) if reordered else digits)]
            batch = [assignment(digits) for digits in hits]
            if not self.listing and len(batch) > YIELDED_WHEN_COUNTING - self.found:
                keep = max(0, YIELDED_WHEN_COUNTING - self.found)
                self.bulk += len(batch) - keep
                batch = batch[:keep]
            self.found += len(batch)
            if batch:
                yield batch


def sample_costs(compiled: Compiled, sample: int = FIRST_CHUNK) -> tuple[float, float]:
    """What one candidate costs, and the share of candidates that are solutions, measured on a
    random sample (timings on a shared machine drift: a measurement here and now beats any constant)."""
    problem, free = compiled.problem, compiled.free
    _, total = candidates(compiled)
    values = list(compiled.unknowns.values())
    if not total or not (free or values):
        return 0.0, 0.0
    pool = candidate_digits(problem, free, compiled.fixed)
    draw = random.Random(len(free))  # the first candidates are unlike the rest (leading zeros): draw some
    if pool is None:
        domains = [sorted(problem.allowed[letter]) for letter in free] + values
        chunk = [tuple(draw.choice(domain) for domain in domains) for _ in range(sample)]
    else:
        digits = sorted(pool)
        chunk = [tuple(draw.sample(digits, len(free))) + tuple(draw.choice(domain) for domain in values)
                 for _ in range(sample)]
    started = time.perf_counter()
    hits = compiled.scan(chunk)
    return (time.perf_counter() - started) / len(chunk) + OVERHEAD, len(hits) / len(chunk)
