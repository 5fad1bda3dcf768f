"""Stage 2: a parsed formula + the puzzle's rules -> a `Problem` ready to encode.

Checking is where names, argument counts, the placement of `{...}` and `range`,
and the limits are enforced, so that every later stage may assume a formula it
can decide. Errors point at the offending node.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from smtcrypt.core.intervals import Interval, interval
from smtcrypt.core.limits import check_tree
from smtcrypt.core.rules import (
    FUNCTIONS,
    MAX_FACTORIAL,
    PREDICATES,
    PRIME_LIMIT,
    Rules,
    is_unknown_name,
    is_wildcard,
)
from smtcrypt.core.tree import (
    BinOp,
    BoolOp,
    Call,
    Collection,
    Compare,
    Constraints,
    Expr,
    Name,
    Not,
    Number,
    Repeating,
    Unary,
    Word,
    children,
    letters_in,
    unknowns_in,
    walk,
)
from smtcrypt.errors import FormulaError, FormulaLimitError, FormulaNameError

MAX_EXPONENT = 1000  # largest |p| of a constant exponent p or p/q
MAX_ROOT = 100  # largest q of a constant exponent p/q
MAX_EXPONENT_CASES = 128  # largest number of values a variable exponent may take
MAX_CONSTANT_BITS = 100_000  # largest constant power folded while checking
# Largest value, in decimal digits, that any part of a formula may take, as estimated from its parts before
# anything is computed: a constant however it is written (nested powers too), a power, a product of words.
MAX_POWER_DIGITS = 100_000
MAX_VALUE_BITS = MAX_POWER_DIGITS * 100_000 // 30_103 + 1  # the same in bits: 2 ** MAX_VALUE_BITS has more digits


@dataclass(frozen=True, eq=False)
class Problem:
    """A checked formula with its rules: what the encoder and the verifier work from."""

    formula: Constraints
    rules: Rules
    letters: tuple[str, ...]  # in order of first appearance
    leading: frozenset[str]  # letters that may not be 0
    constant_exponents: Mapping[BinOp, Fraction] = field(default_factory=dict)
    exponent_ranges: Mapping[BinOp, Interval] = field(default_factory=dict)
    unknowns: tuple[str, ...] = ()  # lowercase names: unbounded integers, outside the digit rules
    allowed: Mapping[str, frozenset[int]] = field(default_factory=dict)  # the digits each letter may take
    distinct_groups: tuple[tuple[str, ...], ...] | None = None  # None: all letters, or none, as rules.distinct says
    # What the stages after the check work out about the problem, each fact once (analysis/facts.py):
    # not a field of the problem (a problem made from this one by `dataclasses.replace` starts empty)
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def source(self) -> str:
        return self.formula.source

    @property
    def groups(self) -> tuple[tuple[str, ...], ...]:
        """The sets of letters that must take distinct digits, each of two or more letters."""
        if self.distinct_groups is not None:
            return self.distinct_groups
        return (self.letters,) if self.rules.distinct and len(self.letters) > 1 else ()

    @property
    def distinctness(self) -> str:
        """"all" (every letter differs from every other), "none", or "some" (groups, or wildcards apart)."""
        groups = self.groups
        if not groups:
            return "none"
        return "all" if len(groups) == 1 and len(groups[0]) == len(self.letters) else "some"

    @cached_property
    def wildcards(self) -> tuple[str, ...]:
        """The letters that stand for the formula's `?`s (or a layout's), in order of appearance: the
        parser names them in that order, by increasing code point. Worked out once: a search asks it
        for each letter."""
        return tuple(sorted(letter for letter in self.letters if is_wildcard(letter)))


def _error(kind: type[FormulaError], message: str, formula: Constraints, node: Expr) -> FormulaError:
    return kind(message, formula.source, node.span.start, node.span.end - node.span.start)


def check(formula: Constraints, rules: Rules | None = None) -> Problem:
    """Check "NUM + BER = PLAY" under `rules` (by default the usual ones) and annotate what the encoder needs.

    The tree may be parsed or built by a reader, its spans in the user's own text: its limits are
    checked first (`core.limits`; a parsed tree is within them already). Each constraint is then
    walked once; every pass below reads the nodes of that walk, in the order, and with the errors,
    of a walk of its own."""
    rules = Rules() if rules is None else rules
    formula = check_tree(formula)
    parts = [tuple(walk(constraint)) for constraint in formula.constraints]  # each constraint's nodes, in order
    for constraint, nodes in zip(formula.constraints, parts):
        for node in nodes:
            _check_node(node, formula)
        if not (isinstance(constraint, (Compare, BoolOp, Not)) or is_predicate(constraint)):
            raise _error(FormulaError, "a constraint needs a comparison such as '=' (this part is only a number)",
                         formula, constraint)
    _check_containers(formula, parts)
    numeral_nodes = [node for nodes in parts for node in nodes if isinstance(node, (Word, Repeating))]
    _check_literal_digits(formula, rules.base, numeral_nodes)
    all_letters = letters_in(numeral_nodes)
    groups = _groups(formula, rules, all_letters)
    for group in groups:
        if len(group) > rules.base:
            extra = group[rules.base]
            where = next(node for node in numeral_nodes if extra in node.text_of_digits())
            raise FormulaLimitError(
                f"{len(group)} distinct letters cannot take distinct digits 0-{rules.base - 1} "
                f"(at most {rules.base}; use --no-distinct to allow repeats)",
                formula.source, _place(formula, where, extra))
    shortest = 1 if rules.nonzero_single_letters else 2
    leading = frozenset() if rules.allow_leading_zeros else frozenset(
        w.letters[0] for w in numeral_nodes if isinstance(w, Word) and len(w.letters) >= shortest
        and not w.letters[0].isdigit())
    allowed = _allowed_digits(formula, rules, all_letters, leading)
    constant_exponents: dict[BinOp, Fraction] = {}
    exponent_ranges: dict[BinOp, Interval] = {}
    for nodes in parts:
        for node in nodes:
            if isinstance(node, BinOp) and node.op == "**":
                _check_exponent(node, formula, rules, constant_exponents, exponent_ranges)
            elif isinstance(node, Call) and node.name == "is_prime":
                _check_prime_size(node, formula, rules)
            elif isinstance(node, Call) and node.name == "factorial":
                _check_factorial(node, formula, rules)
    check_size(formula, rules, parts)
    names = unknowns_in(node for nodes in parts for node in nodes)
    return Problem(formula, rules, all_letters, leading, constant_exponents, exponent_ranges, names,
                   allowed, groups)


def extended(problem: Problem, *constraints: Expr) -> Problem:
    """The problem with more constraints over its own letters (an answer's, an objective's), checked as
    the formula is. Each letter keeps the puzzle's digits: the words of an added constraint are not the
    puzzle's, and lend it no rule (`BA` in an answer does not forbid B = 0), nor does a reader's own
    (a layout's heads) get lost."""
    formula = problem.formula
    checked = check(Constraints((*formula.constraints, *constraints), formula.source), problem.rules)
    return dataclasses.replace(checked, leading=problem.leading, allowed=problem.allowed,
                               distinct_groups=problem.distinct_groups)


def _groups(formula: Constraints, rules: Rules, all_letters: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The letters that must differ, group by group (in order of appearance): by default every letter
    but the wildcards; with --distinct the groups given; groups of one letter dropped."""
    if rules.groups is None:
        named = tuple(letter for letter in all_letters if not is_wildcard(letter)) if rules.distinct else ()
        return (named,) if len(named) > 1 else ()
    missing = sorted({letter for group in rules.groups for letter in group} - set(all_letters))
    if missing:
        raise FormulaError(f"--distinct {missing[0]}: the letter {missing[0]} does not occur in the formula")
    order = {letter: index for index, letter in enumerate(all_letters)}
    groups = (tuple(sorted(group, key=order.__getitem__)) for group in rules.groups)
    return tuple(dict.fromkeys(group for group in groups if len(group) > 1))


def _check_literal_digits(formula: Constraints, base: int, numeral_nodes: list[Word | Repeating]) -> None:
    """Literal digits inside words and repeating decimals must be digits of the base."""
    for node in numeral_nodes:
        for ch in node.text_of_digits():
            if ch.isdigit() and int(ch) >= base:
                raise FormulaError(f"{ch} is not a digit in base {base}", formula.source, _place(formula, node, ch))


def _place(formula: Constraints, node: Word | Repeating, ch: str) -> int:
    """Where `ch` of a numeral stands in the source: under it, where the source writes it so; else at
    the numeral (a reader's word written in the user's own symbols)."""
    return node.span.start + max(formula.source.find(ch, node.span.start, node.span.end) - node.span.start, 0)


def _allowed_digits(formula: Constraints, rules: Rules, all_letters: tuple[str, ...],
                    leading: frozenset[str]) -> dict[str, frozenset[int]]:
    """Each letter's digits: the base, --digits, --domain, --assign, and no 0 at the head of a word."""
    for option, letters_given in (("--assign", rules.assign), ("--domain", rules.domains)):
        missing = sorted(set(letters_given) - set(all_letters))
        if missing:
            raise FormulaError(f"{option} {missing[0]}: the letter {missing[0]} does not occur in the formula")
    allowed = {}
    for letter in all_letters:
        digits = set(range(rules.base))
        if rules.digits is not None:
            digits &= rules.digits
        if letter in rules.domains:
            digits &= rules.domains[letter]
        if letter in rules.assign:
            digits &= {rules.assign[letter]}
        if letter in leading:
            digits.discard(0)
        allowed[letter] = frozenset(digits)
    return allowed


KNOWN_FUNCTIONS = ", ".join(name for name in FUNCTIONS if name not in ("sum", "range")) + ", sum(range(...))"


def is_predicate(node: Expr) -> bool:
    """A call of a number-theory predicate (`is_prime(X)`, `divides(D, X)`): true or false, as a comparison."""
    return isinstance(node, Call) and node.name in PREDICATES


def check_expression(formula: Constraints) -> None:
    """Raise the error `check` would for an unknown name, a function called wrongly or a container
    where Python could not use one; but ask for no comparison and apply no rules. For expressions
    that are not constraints, such as a reader's answer to a puzzle, which still must name only the
    functions the formulas may use, with the same messages."""
    for expression in formula.constraints:
        for node in walk(expression):
            _check_node(node, formula)
    _check_containers(formula)


def _check_node(node: Expr, formula: Constraints) -> None:
    if isinstance(node, Name) and not is_unknown_name(node.name):
        hint = (f" ({node.name}(...) is a function)" if node.name in FUNCTIONS else
                " (words are UPPERCASE letters or letters of a script without case, integer unknowns lowercase names; "
                f"functions are {KNOWN_FUNCTIONS})")
        raise _error(FormulaNameError, f"unknown name {node.name!r}{hint}", formula, node)
    if isinstance(node, Call):
        _check_call(node, formula)


def _check_call(node: Call, formula: Constraints) -> None:
    if node.name not in FUNCTIONS:
        raise _error(FormulaNameError, f"unknown function {node.name!r} (known: {KNOWN_FUNCTIONS})", formula, node)
    count = len(node.args)
    usage = FUNCTIONS[node.name]
    wrong = ((node.name in ("abs", "dsum", "rev", "factorial") and count != 1)
             or (node.name in ("min", "max", "gcd") and count < 2)
             or (node.name in PREDICATES and count != PREDICATES[node.name])
             or (node.name == "range" and not 1 <= count <= 2)
             or (node.name == "sum" and (count != 1 or not _is_range(node.args[0]))))
    if wrong:
        raise _error(FormulaNameError, f"{node.name}() takes {usage}", formula, node)
    if node.name == "is_power":
        power_word_exponent(node, formula)


def power_word_exponent(node: Call, formula: Constraints | None = None) -> int:
    """The k of `is_power(x, k)`: a constant integer from 1 to MAX_EXPONENT, which the checker has made sure of
    (with `formula`, a `FormulaLimitError` under k otherwise)."""
    k = constant(node.args[1])
    if k is not None and k.denominator == 1 and 1 <= k <= MAX_EXPONENT:
        return int(k)
    if formula is None:
        raise ValueError(f"is_power() with exponent {k}")
    what = "this one is not a constant" if k is None else f"not {k}"
    raise _error(FormulaLimitError, f"is_power(x, k) needs k a constant integer from 1 to {MAX_EXPONENT} ({what})",
                 formula, node.args[1])


def _check_prime_size(node: Call, formula: Constraints, rules: Rules) -> None:
    """is_prime() is decided below PRIME_LIMIT: an argument known to reach it is refused here (one whose
    size is known only from the digits, such as a variable power's, leaves such candidates out)."""
    bounds = interval(node.args[0], rules)
    if bounds is not None and bounds[1] >= PRIME_LIMIT:
        raise _error(FormulaLimitError, f"is_prime() decides numbers below 10**{len(str(PRIME_LIMIT)) - 1}; "
                     f"this one reaches {bounds[1]}", formula, node.args[0])


def _is_range(node: Expr) -> bool:
    return isinstance(node, Call) and node.name == "range"


def _check_containers(formula: Constraints, parts: list[tuple[Expr, ...]] | None = None) -> None:
    """`{...}`, `(a, b)` and `range(...)` may stand only where Python could use them here. `parts`: each
    constraint's nodes, walked already."""
    if parts is None:
        parts = [tuple(walk(constraint)) for constraint in formula.constraints]
    allowed: set[int] = set()
    for nodes in parts:
        for node in nodes:
            if isinstance(node, Compare):
                for index, (op, right) in enumerate(zip(node.ops, node.operands[1:])):
                    if op in ("in", "not in"):
                        if index + 1 < len(node.ops):
                            raise _error(FormulaError, f"a comparison chain cannot continue after '{op}': "
                                         "use 'and' between the comparisons", formula, node.operands[index + 2])
                        if not isinstance(right, Collection) and not _is_range(right):
                            raise _error(FormulaError, f"the right side of '{op}' must be a {{...}} or (...) "
                                         "literal or range(...)", formula, right)
                        allowed.add(id(right))
            elif isinstance(node, Call) and node.name == "sum":
                allowed.add(id(node.args[0]))
    for nodes in parts:
        for node in nodes:
            if (isinstance(node, Collection) or _is_range(node)) and id(node) not in allowed:
                what = "range(...)" if isinstance(node, Call) else "a {...} or (...) literal"
                raise _error(FormulaError, f"{what} may only follow 'in' or 'not in'"
                             + (" or stand inside sum(...)" if isinstance(node, Call) else ""), formula, node)


def constant(node: Expr) -> Fraction | None:
    """The exact value of a letter-free arithmetic expression such as `(1/2)`, else None."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Unary):
        value = constant(node.operand)
        return None if value is None else (-value if node.op == "-" else value)
    if isinstance(node, BinOp) and node.op in ("+", "-", "*", "/", "**"):
        left, right = constant(node.left), constant(node.right)
        if left is None or right is None or (node.op == "/" and right == 0):
            return None
        if node.op == "**":
            return _constant_power(left, right)
        return {"+": left + right, "-": left - right, "*": left * right}[node.op] if node.op != "/" else left / right
    return None


def _constant_power(base: Fraction, exponent: Fraction) -> Fraction | None:
    """base ** exponent for a modest integer exponent; anything else counts as not constant."""
    if exponent.denominator != 1 or (base == 0 and exponent < 0):
        return None
    size = max(base.numerator.bit_length(), base.denominator.bit_length(), 1)
    if abs(exponent.numerator) * size > MAX_CONSTANT_BITS:
        return None
    return base ** exponent.numerator


def _check_exponent(node: BinOp, formula: Constraints, rules: Rules,
                    constant_exponents: dict[BinOp, Fraction], exponent_ranges: dict[BinOp, Interval]) -> None:
    value = constant(node.right)
    if value is not None:
        if abs(value.numerator) > MAX_EXPONENT or value.denominator > MAX_ROOT:
            raise _error(FormulaLimitError, f"exponent {value} is beyond the supported limit "
                         f"(|p| <= {MAX_EXPONENT} and q <= {MAX_ROOT} for an exponent p/q)", formula, node.right)
        constant_exponents[node] = value
        return
    bounds = interval(node.right, rules)
    if bounds is None:
        raise _error(FormulaLimitError, "a variable exponent must be an integer expression of words and "
                     "integers using + - * abs min max dsum rev", formula, node.right)
    if not splits(bounds):  # the backends that evaluate the formula take it, if its values can be computed
        _check_power_size(node, bounds, formula, rules)
    exponent_ranges[node] = bounds


def _check_factorial(node: Call, formula: Constraints, rules: Rules) -> None:
    """n! needs bounds on n (the encoders tabulate it, the checker sizes it) and no n beyond MAX_FACTORIAL."""
    bounds = interval(node.args[0], rules)
    if bounds is None:
        raise _error(FormulaLimitError, "the factorial's argument must be an integer expression of words and "
                     "integers using + - * abs min max dsum rev, so that its bounds are known", formula, node.args[0])
    if bounds[1] > MAX_FACTORIAL:
        raise _error(FormulaLimitError, f"a factorial of up to {bounds[1]:,}: smtcrypt computes n! for n up to "
                     f"{MAX_FACTORIAL:,}", formula, node)


def splits(exponent: Interval) -> bool:
    """True if a variable exponent takes few enough values for the Z3 encodings, which split the power
    into a case per value (MAX_EXPONENT_CASES at most, none beyond MAX_EXPONENT); a larger one is
    evaluated by the backends that compute the formula (see `_check_power_size`)."""
    low, high = exponent
    return high - low + 1 <= MAX_EXPONENT_CASES and max(abs(low), abs(high)) <= MAX_EXPONENT


def large_exponents(problem: Problem) -> list[BinOp]:
    """The powers whose variable exponent takes too many values for the Z3 encodings to split."""
    return [node for node, bounds in problem.exponent_ranges.items() if not splits(bounds)]


def _check_power_size(node: BinOp, exponent: Interval, formula: Constraints, rules: Rules) -> None:
    """A power with a large variable exponent is computed exactly, candidate by candidate: its base must
    have bounds, and its value (or its reciprocal's) at most MAX_POWER_DIGITS digits."""
    base = interval(node.left, rules)
    low, high = exponent
    if base is None:
        raise _error(FormulaLimitError, f"this exponent takes values {low}..{high}, more than the "
                     f"{MAX_EXPONENT_CASES} cases of a power that Z3 takes, so the power is computed: its base "
                     "must then be an integer expression of words and integers, whose size is known", formula, node)
    largest = max(abs(base[0]), abs(base[1]))
    bits = max(abs(low), abs(high)) * largest.bit_length() if largest > 1 else 0
    digits = bits * 30103 // 100000 + 1  # largest ** |k| < 2 ** bits, which has at most this many digits
    if digits > MAX_POWER_DIGITS:
        raise _error(FormulaLimitError, f"this power may take values of {digits:,} digits ({largest}**"
                     f"{max(abs(low), abs(high))}): more than the {MAX_POWER_DIGITS:,} digits smtcrypt computes",
                     formula, node)


def check_size(formula: Constraints, rules: Rules, parts: list[tuple[Expr, ...]] | None = None) -> None:
    """Refuse, with a caret under it, any part of the formula whose value may have more than
    MAX_POWER_DIGITS digits, estimated from the sizes of its parts, innermost first, before any of it
    is computed: `((2 ** 1000) ** 1000) ** 1000` is refused at `(2 ** 1000) ** 1000` rather than
    computed for minutes, though each exponent alone is within MAX_EXPONENT. Also for expressions
    that are not constraints (a reader's answer to a puzzle), where nothing else bounds an exponent.
    `parts`: each constraint's nodes, walked already (in that order read backwards, each node's parts
    come before it); only a formula with a part too large is walked again, to name the innermost first."""
    if parts is not None and all(_sizes_fit(nodes, rules) for nodes in parts):
        return
    for constraint in formula.constraints:
        sizes: dict[int, int | None] = {}  # by id of node: its value's bits at most (None: not known)
        stack: list[tuple[Expr, bool]] = [(constraint, False)]
        while stack:  # parts before the whole, without recursion
            node, ready = stack.pop()
            if not ready:
                stack.append((node, True))
                stack.extend((kid, False) for kid in reversed(children(node)))
                continue
            bits = _bits(node, [sizes[id(kid)] for kid in children(node)], rules)
            if bits is not None and bits > MAX_VALUE_BITS:
                digits = bits * 30103 // 100000 + 1
                what = "constant" if constant(node) is not None or _is_constant(node) else "part"
                raise _error(FormulaLimitError, f"this {what} may take values of {digits:,} digits: more than the "
                             f"{MAX_POWER_DIGITS:,} digits smtcrypt computes", formula, node)
            sizes[id(node)] = bits


def _sizes_fit(nodes: tuple[Expr, ...], rules: Rules) -> bool:
    """Whether no part of a constraint (its nodes as `walk` gives them) may pass MAX_VALUE_BITS. Without
    powers and calls no part is larger than its words and numbers together plus a bit a node (`_bits`),
    which is seen at once; else each part is sized."""
    digit_bits, bound = (rules.base - 1).bit_length(), 0
    for node in nodes:
        if isinstance(node, Word):
            bound += len(node.letters) * digit_bits
        elif isinstance(node, Number):
            bound += abs(node.value.numerator).bit_length() + (node.value.denominator - 1).bit_length()
        elif isinstance(node, (Compare, Unary)) or (isinstance(node, BinOp) and node.op != "**"):
            bound += 1
        else:
            break
    else:
        if bound <= MAX_VALUE_BITS:
            return True
    sizes: dict[int, int | None] = {}
    for node in reversed(nodes):
        bits = _bits(node, [sizes[id(kid)] for kid in children(node)], rules)
        if bits is not None and bits > MAX_VALUE_BITS:
            return False
        sizes[id(node)] = bits
    return True


def _is_constant(node: Expr) -> bool:
    """Whether no letter or unknown stands in `node` (a constant too large to fold is one still)."""
    return not any(isinstance(part, (Word, Name, Repeating)) for part in walk(node))


def _bits(node: Expr, parts: list[int | None], rules: Rules) -> int | None:
    """At most how many bits the value of `node` has (numerator and denominator together), from the
    same bound of each of its `parts`; None where that is not known (an integer unknown)."""
    digit_bits = (rules.base - 1).bit_length()
    if isinstance(node, Word):
        return len(node.letters) * digit_bits
    if isinstance(node, Repeating):
        return 2 * (len(node.whole) + len(node.fixed) + len(node.period)) * digit_bits + 2
    if isinstance(node, Number):
        return abs(node.value.numerator).bit_length() + (node.value.denominator - 1).bit_length()
    if isinstance(node, (Compare, BoolOp, Not, Collection)) or is_predicate(node):
        return 1  # a truth value (a collection's items are bounded one by one)
    if any(part is None for part in parts):
        return None
    known = [part for part in parts if part is not None]
    if isinstance(node, Unary):
        return known[0]
    if isinstance(node, BinOp):
        left, right = known
        if node.op in ("+", "-"):
            return max(left, right) + 1
        if node.op == "**":
            return _power_bits(node, left, rules)
        return left + right  # * / // %: a product, or a quotient's numerator and denominator
    if isinstance(node, Call):
        if node.name in ("sum", "range"):
            return 2 * max(known, default=0) + 2  # sum(range(n)) is n(n - 1)/2
        if node.name == "dsum":
            return known[0].bit_length() + digit_bits  # at most (the digits' count) * (base - 1)
        if node.name == "factorial":  # of an argument with bounds (`_check_factorial`): its largest value's bits
            bounds = interval(node.args[0], rules)
            return None if bounds is None else math.factorial(min(max(bounds[1], 0), MAX_FACTORIAL)).bit_length()
        return max(known, default=0) + digit_bits  # abs, min, max, gcd, rev: no larger than an argument
    return None


def _power_bits(node: BinOp, base_bits: int, rules: Rules) -> int | None:
    """At most how many bits base ** exponent has: |p| * log2|base| / q for a constant exponent p/q,
    the largest |exponent| times log2|base| for a variable one (None if it has no bounds: refused by
    `_check_exponent` in a formula). log2|base| is exact where the base is a constant or has bounds."""
    base = constant(node.left)
    bounds = interval(node.left, rules) if base is None else None
    if base is not None:
        log = (math.log2(abs(base.numerator)) if base.numerator else 0.0) + math.log2(base.denominator)
    elif bounds is not None:
        largest = max(abs(bounds[0]), abs(bounds[1]))
        log = math.log2(largest) if largest else 0.0
    else:
        log = float(base_bits)
    value = constant(node.right)
    if value is not None:
        return math.ceil(abs(value.numerator) * log / value.denominator) + 1
    exponent = interval(node.right, rules)
    if exponent is None:
        return None
    return math.ceil(max(abs(exponent[0]), abs(exponent[1])) * log) + 1
