"""The bit-vector encoder: letters as bit-vectors, the puzzle's rules, and the node cases of its own."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from fractions import Fraction

import z3

from smtcrypt.analysis.arithmetic import prime_test, repeating_fraction, signed_width
from smtcrypt.core.check import Problem
from smtcrypt.core.intervals import digit_count
from smtcrypt.core.rules import PRIME_LIMIT
from smtcrypt.core.tree import BinOp, Call, Expr, Name, Repeating, Word, walk
from smtcrypt.encode import words
from smtcrypt.encode.base import Ok, Unsupported, checkpoint, indicator, rule_constraints
from smtcrypt.encode.bitvec.ints import Z, fitted
from smtcrypt.encode.bitvec.rationals import BitVecRat, BitVecRationals, Value
from smtcrypt.encode.walk import TreeEncoder

FEW_DIVISORS = 100  # past this many trial divisions, is_prime of a term of few letters is decided case by case
MAX_CASES = 1_000  # the most assignments of its letters such a term is simplified for


class BitVecEncoder(BitVecRationals, TreeEncoder[BitVecRat, Z]):
    """The tree walk over bounded bit-vector fractions: letters are unsigned bit-vectors of the
    base's digit width."""

    def __init__(self, problem: Problem, context: z3.Context):
        if problem.unknowns:
            raise Unsupported("integer unknowns")
        super().__init__(context)
        self.problem = problem
        self.base = problem.rules.base
        self.letter_width = max(1, (self.base - 1).bit_length())
        self.letters = {letter: z3.BitVec(letter, self.letter_width, context) for letter in problem.letters}
        self.digits = {letter: sorted(problem.allowed[letter]) for letter in problem.letters}

    def rules(self) -> list[z3.BoolRef]:
        """The puzzle's rules over unsigned letters, leaving out a bound that their width keeps."""
        top = (1 << self.letter_width) - 1
        return rule_constraints(self.problem, self.letters, lambda var, low, high: (
            [z3.UGE(var, low)] if low > 0 else []) + ([z3.ULE(var, high)] if high < top else []))

    def indicators(self) -> list[z3.BoolRef]:
        """The Boolean `A=1` defined as A == 1 for every digit a letter may take (`Encoded.indicators`):
        blocking clauses of these read models many times faster than clauses of bit-vector disequalities."""
        return [indicator(letter, digit, self.ctx) == (var == digit)
                for letter, var in self.letters.items() for digit in self.digits[letter]]

    def letter_table(self, letter: str, value: Callable[[int], int]) -> Z:
        """value(digit) of a letter's digit, as a table over the digits it may take."""
        digits = self.digits[letter]
        values = [value(d) for d in digits] or [0]
        lo, hi = min(values), max(values)
        if lo == hi:
            return self.const(lo)
        width = fitted(lo, hi)
        var = self.letters[letter]
        term = z3.BitVecVal(values[-1], width, self.ctx)
        for digit, result in reversed(list(zip(digits, values))[:-1]):
            term = z3.If(var == digit, z3.BitVecVal(result, width, self.ctx), term)
        return Z(term, lo, hi)

    def letter(self, letter: str) -> Z:
        """A letter's digit as a Z."""
        digits = self.digits[letter] or [0]
        lo, hi = digits[0], digits[-1]
        if lo == hi:
            return self.const(lo)
        width = signed_width(lo, hi)
        var = self.letters[letter]
        term = z3.ZeroExt(width - var.size(), var) if width >= var.size() else z3.Extract(width - 1, 0, var)
        return Z(term, lo, hi)

    def power(self, a: BitVecRat, k: int) -> tuple[BitVecRat, Ok]:
        """a ** k for an integer k, and the condition that it is defined (a != 0 for k < 0)."""
        if a.const is not None:
            if a.const == 0 and k < 0:
                return self.fraction(Fraction(0)), False
            return self.fraction(a.const ** k), True
        if k == 0:
            return self.fraction(Fraction(1)), True
        if k < 0 and a.letter is not None:  # 1 / d**-k from a table; d = 0 is undefined
            return (BitVecRat(self.const(1), self.letter_table(a.letter, lambda d: max(d, 1) ** -k)),
                    self.nonzero(a.num))
        if k < 0:
            inverse, ok = self.inverse(a)
            return self.power(inverse, -k)[0], ok
        if k == 1:
            return a, True
        if a.letter is not None:
            return self.integer(self.letter_table(a.letter, lambda d: d ** k)), True
        return BitVecRat(self.z_power(a.num, k), self.z_power(a.den, k)), True

    def letters_value(self, weights: dict[str, int], literal: int) -> BitVecRat:
        """sum(weight * letter) + literal, a lone letter's digit marked as such (its powers are tables)."""
        letter = next(iter(weights)) if not literal and list(weights.values()) == [1] else None
        total = self.weighted_sum([(weight, self.letter(letter)) for letter, weight in weights.items()], literal)
        return BitVecRat(total, self.const(1), letter)

    def encode_repeating(self, node: Repeating) -> tuple[Value, Ok]:
        weights, literal, scale = repeating_fraction(node, self.base)
        return BitVecRat(self.letters_value(weights, literal).num, self.const(scale)), True

    def division(self, op: str, a: BitVecRat, b: BitVecRat) -> tuple[BitVecRat, Ok]:
        nonzero = self.nonzero(b.num)
        if op == "/":
            return self.divide(a, b), nonzero
        if a.const is not None and b.const is not None:
            if b.const == 0:
                return self.fraction(Fraction(0)), False
            return self.fraction(Fraction(a.const // b.const if op == "//" else a.const % b.const)), nonzero
        x, y, den = self.common(a, b)  # a / b = x / y, and a % b = (x % y) / den
        if op == "//":
            return self.integer(self.z_floordiv(x, y)), nonzero
        return BitVecRat(self.z_mod(x, y), den if den is not None else self.z_mul(a.den, b.den)), nonzero

    def power_of(self, node: BinOp, base: BitVecRat, exponent: BitVecRat) -> tuple[BitVecRat, Ok]:
        fixed = self.problem.constant_exponents.get(node)
        if fixed is None:
            return self.power_choice(node, base, exponent)
        if fixed.denominator != 1:
            raise Unsupported("a rational exponent")
        return self.power(base, fixed.numerator)

    def range_sum(self, start: Z, stop: Z) -> BitVecRat:
        """sum(range(start, stop)) = max(0, stop - start) * (start + stop - 1) / 2, an even product halved."""
        count = self.z_sub(stop, start)
        product = self.z_mul(count, self.z_sub(self.z_add(start, stop), self.const(1)))
        total = self.z_ite(self.z_compare(">", count, self.const(0)), product, self.const(0))
        return self.integer(self.z_half(total))

    def gcd(self, nodes: Sequence[Expr], wholes: list[Z]) -> tuple[BitVecRat, Ok]:
        """Euclid's algorithm, unrolled (see `z_gcd`): a function of the letters, defined everywhere."""
        result = self.z_abs(wholes[0])
        for whole in wholes[1:]:
            result = self.z_gcd(result, self.z_abs(whole))
        return self.integer(result), True

    # --- the number-theory words (see encode/words.py) --------------------------------------------

    def number_word(self, node: Call, wholes: list[Z]) -> tuple[Value, Ok]:
        """Tables, trial division and digits, all functions of the letters; a power or triangular
        number beyond its table is left to the general encoding (Unsupported)."""
        x = wholes[0]
        if node.name == "divides":
            return self.divides(*wholes), True
        if node.name in ("dsum", "rev", "is_palindrome"):
            return self.digit_word(node, x), True
        if node.name == "is_prime" and x.hi >= PRIME_LIMIT:  # undefined from there on: the general encoding says where
            raise Unsupported("is_prime() of a number that may reach PRIME_LIMIT")
        if (by_letters := words.word_table(node, self.problem)) is not None:
            return words.trie(*by_letters, lambda letter, digit: self.letters[letter] == digit, self.ctx), True
        if (listed := words.table(node, (x.lo, x.hi), self.base)) is not None:
            return self.one_of(x, listed), True
        if node.name != "is_prime":
            raise Unsupported(f"{node.name}() of a term of {x.width} bits")
        divisors = words.trial_divisors(x.hi)
        if (divisors is None or len(divisors) > FEW_DIVISORS) and (cases := self.prime_by_cases(node, x)) is not None:
            return cases, True
        if divisors is None:
            raise Unsupported(f"is_prime() of a term of {x.width} bits")
        tests = [self.z_compare(">=", x, self.const(2))]
        for p in divisors:  # up to 10,000 of them, seconds of work: the search's stop and clock are read
            checkpoint(self.ctx)
            tests.append(z3.Or(self.z_compare("==", x, self.const(p)), self.nonzero(self.z_mod(x, self.const(p)))))
        return z3.And(*tests), True

    def prime_by_cases(self, node: Call, x: Z) -> z3.BoolRef | None:
        """`is_prime` of a computed term of few letters (`is_prime(A ** A)`), decided assignment by
        assignment (Z3 simplifies the term to a number, tested here) and chosen digit by digit as for a
        word: trial division of such wide terms is slow for Z3 to refute. None where the term has
        unknowns other than letters, or more than MAX_CASES assignments."""
        names: dict[str, None] = {}
        for part in walk(node.args[0]):
            if isinstance(part, Name):
                return None
            if isinstance(part, (Word, Repeating)):
                names.update((cell, None) for cell in part.text_of_digits() if not cell.isdigit())
        letters = tuple(names)
        if not letters or math.prod(len(self.digits[letter]) for letter in letters) > MAX_CASES:
            return None
        rows = []
        for digits in itertools.product(*(self.digits[letter] for letter in letters)):
            checkpoint(self.ctx)
            value = z3.simplify(z3.substitute(x.term, *[
                (self.letters[letter], z3.BitVecVal(digit, self.letter_width, self.ctx))
                for letter, digit in zip(letters, digits)]))
            if not z3.is_bv_value(value):
                return None
            if prime_test(value.as_signed_long()):
                rows.append(tuple(digits))
        return words.trie(letters, rows, lambda letter, digit: self.letters[letter] == digit, self.ctx)

    def one_of(self, x: Z, values: list[int]) -> z3.BoolRef:
        tests = [self.z_compare("==", x, self.const(value)) for value in values if x.lo <= value <= x.hi]
        return z3.Or(*tests) if len(tests) > 1 else tests[0] if tests else z3.BoolVal(False, self.ctx)

    def divides(self, d: Z, x: Z) -> z3.BoolRef:
        """x = k*d for an integer k: 0 divides only 0."""
        zero = self.const(0)
        if d.value is not None:
            return self.z_compare("==", x, zero) if d.value == 0 else self.z_compare(
                "==", self.z_mod(x, self.const(abs(d.value))), zero)
        remainder = self.z_mod(x, d)  # exact where d != 0, the only place it is read
        return z3.Or(z3.And(self.z_compare("==", d, zero), self.z_compare("==", x, zero)),
                     z3.And(self.nonzero(d), self.z_compare("==", remainder, zero)))

    def digit_word(self, node: Call, x: Z) -> Value:
        """dsum, rev or is_palindrome of x from its digits, the last first, each a remainder by the base;
        the reversal runs up to the highest nonzero digit, with x's sign."""
        rest, base, digits = self.z_abs(x), self.const(self.base), []
        for _ in range(digit_count(max(-x.lo, x.hi), self.base)):
            digits.append(self.z_mod(rest, base))
            rest = self.z_floordiv(rest, base)
        if node.name == "dsum":
            return self.integer(self.weighted_sum([(1, digit) for digit in digits], 0))
        value = self.const(0)
        for top in range(len(digits)):
            reversed_digits = self.weighted_sum([(self.base ** (top - place), digits[place])
                                                 for place in range(top + 1)], 0)
            value = self.z_ite(self.nonzero(digits[top]), reversed_digits, value)
        if x.lo < 0:
            value = self.z_ite(self.z_compare("<", x, self.const(0)), self.z_neg(value), value)
        return self.integer(value) if node.name == "rev" else self.z_compare("==", value, x)

    def absolute(self, value: BitVecRat) -> BitVecRat:
        return BitVecRat(self.z_abs(value.num), value.den)

    def within(self, whole: Z, start: Z, stop: Z) -> z3.BoolRef:
        return z3.And(self.z_compare(">=", whole, start), self.z_compare("<", whole, stop))
