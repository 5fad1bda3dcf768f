"""OR-tools CP-SAT, one worker, enumerating all solutions of an exact integer model of the puzzle:
sums, products, integer powers and roots, `abs`/`min`/`max`, `sum(range(n))`, comparisons,
`in`/`not in`, and `X / Y = Z / W` cross-multiplied. A puzzle it cannot model exactly (variable
exponents, `or`/`not`, `//`, `%`, gcd, repeating decimals, a quotient inside a sum) is skipped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from smtcrypt.core.parse import parse
from smtcrypt.core.tree import BinOp, BoolOp, Call, Collection, Compare, Expr, Number, Unary, Word, letters, words

from .exact import COMPARE, constant_value, exact_power, floor_root
from .results import Result, Unsupported

INT_LIMIT = 1 << 62  # keep every bound well inside CP-SAT's int64 domains


@dataclass
class Term:
    expr: object  # an int, an IntVar or a linear expression
    lo: int
    hi: int

    @property
    def constant(self) -> bool:
        return self.lo == self.hi


class CpSatModel:
    """The puzzle as a CP-SAT model: one IntVar per letter, AllDifferent, leading letters >= 1."""

    def __init__(self, formula: str):
        from ortools.sat.python import cp_model

        self.cp = cp_model
        tree = parse(formula)
        self.model = cp_model.CpModel()
        self.leading = {word.letters[0] for word in words(tree)
                        if len(word.letters) > 1 and word.letters[0].isalpha()}
        self.letters = letters(tree)
        self.vars = {x: self.model.new_int_var(1 if x in self.leading else 0, 9, x) for x in self.letters}
        if len(self.vars) > 1:
            self.model.add_all_different(list(self.vars.values()))
        self.cache: dict[Expr, Term] = {}
        for constraint in tree.constraints:
            self.constraint(constraint)

    # -- terms ------------------------------------------------------------------------------

    def make(self, expr, lo: int, hi: int) -> Term:
        if max(abs(lo), abs(hi)) > INT_LIMIT:
            raise Unsupported("values beyond int64")
        return Term(expr, lo, hi)

    def new_var(self, lo: int, hi: int):
        if max(abs(lo), abs(hi)) > INT_LIMIT:
            raise Unsupported("values beyond int64")
        return self.model.new_int_var(lo, hi, "")

    def var_of(self, term: Term):
        if isinstance(term.expr, self.cp.IntVar):
            return term.expr
        var = self.new_var(term.lo, term.hi)
        self.model.add(var == term.expr)
        return var

    def term(self, node: Expr) -> Term:
        if node not in self.cache:
            self.cache[node] = self._term(node)
        return self.cache[node]

    def _term(self, node: Expr) -> Term:
        if isinstance(node, Word):
            if len(node.letters) == 1:
                var = self.vars[node.letters]
                return Term(var, 1 if node.letters in self.leading else 0, 9)
            coefs: dict[str, int] = {}
            const = 0  # literal digits inside the word (`7AB`)
            for power, letter in enumerate(reversed(node.letters)):
                if letter.isdigit():
                    const += int(letter) * 10 ** power
                else:
                    coefs[letter] = coefs.get(letter, 0) + 10 ** power
            lo = const + sum(c * (x in self.leading) for x, c in coefs.items())
            hi = const + sum(c * 9 for c in coefs.values())
            expr = self.cp.LinearExpr.weighted_sum([self.vars[x] for x in coefs], list(coefs.values())) + const
            return self.make(expr, lo, hi)
        if isinstance(node, Number):
            if node.value.denominator != 1:
                raise Unsupported("a non-integer number")
            value = int(node.value)
            return Term(value, value, value)
        if isinstance(node, Unary):
            inner = self.term(node.operand)
            return inner if node.op == "+" else self.make(-inner.expr, -inner.hi, -inner.lo)
        if isinstance(node, BinOp):
            if node.op in ("+", "-"):
                a, b = self.term(node.left), self.term(node.right)
                if node.op == "+":
                    return self.make(a.expr + b.expr, a.lo + b.lo, a.hi + b.hi)
                return self.make(a.expr - b.expr, a.lo - b.hi, a.hi - b.lo)
            if node.op == "*":
                return self.multiply(self.term(node.left), self.term(node.right))
            if node.op == "**":
                return self.power(node)
            raise Unsupported(f"'{node.op}' inside an expression")
        if isinstance(node, Call):
            return self.call(node)
        raise Unsupported(f"{type(node).__name__} inside an expression")

    def multiply(self, a: Term, b: Term) -> Term:
        if a.constant or b.constant:
            (factor, other) = (a.lo, b) if a.constant else (b.lo, a)
            bounds = (factor * other.lo, factor * other.hi)
            return self.make(factor * other.expr if factor else 0, min(bounds), max(bounds))
        corners = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        target = self.new_var(min(corners), max(corners))
        self.model.add_multiplication_equality(target, [self.var_of(a), self.var_of(b)])
        return Term(target, min(corners), max(corners))

    def power(self, node: BinOp) -> Term:
        exponent = constant_value(node.right)
        if exponent is None:
            raise Unsupported("a variable exponent")
        base = self.term(node.left)
        if base.constant:
            try:
                value = exact_power(base.lo, exponent)
            except ArithmeticError:
                raise Unsupported("an undefined constant power") from None
            if isinstance(value, Fraction) and value.denominator != 1:
                raise Unsupported("a non-integer constant power")
            value = int(value)
            return Term(value, value, value)
        p, q = exponent.numerator, exponent.denominator
        if p < 0:
            raise Unsupported("a negative exponent")
        if q != 1:  # the exact non-negative q-th root r of an integer: r >= 0 and r**q == base
            top = floor_root(max(base.hi, 0), q)
            root = Term(self.new_var(0, top), 0, top)
            self.model.add(self.integer_power(root, q).expr == base.expr)
            base = root
        return self.integer_power(base, p)

    def integer_power(self, base: Term, k: int) -> Term:
        if k == 0:
            return Term(1, 1, 1)
        result = base
        for _ in range(k - 1):
            result = self.multiply(result, base)
        return result

    def call(self, node: Call) -> Term:
        if node.name == "sum":
            (inner,) = node.args
            if not (isinstance(inner, Call) and inner.name == "range" and len(inner.args) == 1):
                raise Unsupported("sum(range(a, b))")
            n = self.term(inner.args[0])
            if n.lo < 0:
                raise Unsupported("sum(range(n)) with n that may be negative")
            lo, hi = n.lo * (n.lo - 1) // 2 if n.lo else 0, n.hi * (n.hi - 1) // 2 if n.hi else 0
            total = self.new_var(lo, hi)
            below = self.make(n.expr - 1, n.lo - 1, n.hi - 1)
            self.model.add(2 * total == self.multiply(n, below).expr)
            return Term(total, lo, hi)
        args = [self.term(arg) for arg in node.args]
        if node.name == "abs":
            (a,) = args
            hi = max(abs(a.lo), abs(a.hi))
            lo = 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
            target = self.new_var(lo, hi)
            self.model.add_abs_equality(target, self.var_of(a))
            return Term(target, lo, hi)
        if node.name in ("min", "max"):
            pick = min if node.name == "min" else max
            lo, hi = pick(a.lo for a in args), pick(a.hi for a in args)
            target = self.new_var(lo, hi)
            add = self.model.add_min_equality if node.name == "min" else self.model.add_max_equality
            add(target, [self.var_of(a) for a in args])
            return Term(target, lo, hi)
        raise Unsupported(f"function {node.name}")

    # -- constraints ------------------------------------------------------------------------

    def constraint(self, node: Expr) -> None:
        if isinstance(node, BoolOp) and node.op == "and":
            for operand in node.operands:
                self.constraint(operand)
            return
        if not isinstance(node, Compare):
            raise Unsupported(f"a top-level '{getattr(node, 'op', 'not')}'")
        operands = list(node.operands)
        for position, (op, right) in enumerate(zip(node.ops, operands[1:])):
            left = operands[position]
            if op in ("in", "not in"):
                if position + 1 < len(node.ops):
                    raise Unsupported("a comparison chained after 'in'")
                self.membership(self.term(left), op, right)
            else:
                self.comparison(left, op, right)

    def ratio(self, node: Expr) -> tuple[Term, Term | None]:
        """A side of an equation as numerator, denominator (None: an integer expression)."""
        if isinstance(node, BinOp) and node.op == "/":
            return self.term(node.left), self.term(node.right)
        return self.term(node), None

    def comparison(self, left: Expr, op: str, right: Expr) -> None:
        (p1, q1), (p2, q2) = self.ratio(left), self.ratio(right)
        if q1 is not None or q2 is not None:
            if op not in ("==", "!="):
                raise Unsupported("a quotient in an inequality")
            for q in (q1, q2):  # a zero divisor makes the formula undefined: not a solution
                if q is not None:
                    self.require(q.expr != 0)
            # P1/Q1 op P2/Q2  <=>  P1*Q2 op P2*Q1 when Q1, Q2 != 0
            one = Term(1, 1, 1)
            p1, p2 = self.multiply(p1, q2 or one), self.multiply(p2, q1 or one)
        self.require(COMPARE[op](p1.expr, p2.expr))

    def require(self, constraint) -> None:
        if isinstance(constraint, bool):  # both sides were constants
            if not constraint:
                self.model.add(self.model.new_constant(0) == 1)  # false: no solution
            return
        self.model.add(constraint)

    def membership(self, item: Term, op: str, container: Expr) -> None:
        if isinstance(container, Collection):
            members = [self.term(x) for x in container.items]
            if op == "not in":
                for member in members:
                    self.require(item.expr != member.expr)
                return
            flags = []
            for member in members:  # flag <=> item == member, so flags are determined by the letters
                flag = self.model.new_bool_var("")
                self.model.add(item.expr == member.expr).only_enforce_if(flag)
                self.model.add(item.expr != member.expr).only_enforce_if(~flag)
                flags.append(flag)
            self.model.add_bool_or(flags)
            return
        if isinstance(container, Call) and container.name == "range" and op == "in":
            bounds = [self.term(x) for x in container.args]
            start, stop = (Term(0, 0, 0), bounds[0]) if len(bounds) == 1 else bounds
            self.require(item.expr >= start.expr)
            self.require(item.expr < stop.expr)
            return
        raise Unsupported(f"'{op}' with this container")

    # -- search -----------------------------------------------------------------------------

    def solve(self, timeout: float, first: bool) -> tuple[int, str]:
        cp = self.cp
        solver = cp.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.max_time_in_seconds = timeout
        variables = [self.vars[x] for x in self.letters]
        if first:
            status = solver.solve(self.model)
            if status in (cp.OPTIMAL, cp.FEASIBLE):
                return 1, "ok"
            return 0, "ok" if status == cp.INFEASIBLE else ("invalid" if status == cp.MODEL_INVALID else "timeout")

        class Collector(cp.CpSolverSolutionCallback):
            def __init__(self):
                super().__init__()
                self.seen: set[tuple[int, ...]] = set()

            def on_solution_callback(self):
                self.seen.add(tuple(self.value(v) for v in variables))

        solver.parameters.enumerate_all_solutions = True
        collector = Collector()
        status = solver.solve(self.model, collector)
        if status in (cp.OPTIMAL, cp.INFEASIBLE):
            return len(collector.seen), "ok"
        return len(collector.seen), "invalid" if status == cp.MODEL_INVALID else "timeout"


_ORTOOLS: bool | None = None


def have_ortools() -> bool:
    global _ORTOOLS
    if _ORTOOLS is None:
        try:
            from ortools.sat.python import cp_model  # noqa: F401
            _ORTOOLS = True
        except ImportError:
            _ORTOOLS = False
    return _ORTOOLS


def run_cpsat(formula: str, mode: str, timeout: float) -> Result:
    if not have_ortools():
        return Result("skip", None, None, "ortools is not installed")
    start = time.perf_counter()
    try:
        model = CpSatModel(formula)
        count, status = model.solve(max(0.001, timeout - (time.perf_counter() - start)), first=(mode == "first"))
    except Unsupported as error:
        return Result("skip", None, None, str(error))
    except Exception as error:
        return Result("error", None, time.perf_counter() - start, f"{type(error).__name__}: {error}")
    if status == "invalid":
        return Result("error", count, time.perf_counter() - start, "CP-SAT: MODEL_INVALID")
    return Result(status, count, time.perf_counter() - start)
