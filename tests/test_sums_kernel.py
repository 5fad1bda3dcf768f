"""The sum kernel (`smtcrypt.engine.sums`): the plain search and the compiled one against a brute force
over digit tuples (itertools) for random weights, bases 2 to 16, distinct digits or not, random
allowed sets, starting totals and limits; word sums against known answers and the formula brute
force; the compiled kernel run as plain Python and compiled by numba."""

from __future__ import annotations

import itertools
import random
import signal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import brute_force

from smtcrypt import Puzzle
from smtcrypt.engine import Executor, sums
from smtcrypt.engine.sums import SumSearch, digit_mask, plan_sum, sum_solutions
from smtcrypt.engine.sums import compiled as kernel
from smtcrypt.engine.sums.compiled import fits_int64, search_codes, search_masks
from smtcrypt.engine.sums.plan import FIELDS, NO_PAIRS, PAIR_SPAN
from smtcrypt.engine.sums.search import DONE, FRESH, WORK, walk


def weights(addends, result, base=10):
    """Each letter's place-value weight: NUM + BER = PLAY gives N: 100, ..., P: -1000."""
    weight = {}
    for word, sign in [(word, 1) for word in addends] + [(result, -1)]:
        for position, letter in enumerate(reversed(word)):
            weight[letter] = weight.get(letter, 0) + sign * base ** position
    return weight


def solve_sum(addends, result, *, limit=None, distinct=True, allow_leading_zeros=False, base=10):
    """The solutions of `addends[0] + ... = result` (words of capital letters) by the plain kernel."""
    weight = weights(addends, result, base)
    heads = set() if allow_leading_zeros else {word[0] for word in (*addends, result) if len(word) > 1}
    letters = sorted(weight)
    full = (1 << base) - 1
    plan = plan_sum([weight[letter] for letter in letters], [full & ~int(letter in heads) for letter in letters],
                    distinct=distinct, base=base)
    return [dict(zip(letters, digits)) for digits in sum_solutions(plan, limit)]


def as_set(found):
    return {tuple(sorted(mapping.items())) for mapping in found}


def every_solution(weight, masks, total=0, distinct=True, base=10, used=0):
    """The brute force: every digit tuple the sets (less `used`) and distinctness allow, tried."""
    domains = [[digit for digit in range(base) if mask >> digit & 1 and not used >> digit & 1] for mask in masks]
    return [digits for digits in itertools.product(*domains)
            if (not distinct or len(set(digits)) == len(digits)) and sum(map(int.__mul__, weight, digits)) + total == 0]


def magnitude_search(weight, lowest, distinct=True, base=10):
    """An independent search for larger sums: heaviest first, each digit cut by the interval the
    later letters can reach (no congruences, no table of pairs), in the caller's order."""
    order = sorted(range(len(weight)), key=lambda index: -abs(weight[index]))
    reach = [(0, 0)] * (len(order) + 1)
    for k in range(len(order) - 1, -1, -1):
        w = weight[order[k]]
        ends = (w * lowest[order[k]], w * (base - 1))
        reach[k] = (reach[k + 1][0] + min(ends), reach[k + 1][1] + max(ends))
    found, values = [], [0] * len(weight)

    def place(k, total, used):
        if k == len(order):
            if total == 0:
                found.append(tuple(values))
            return
        if not reach[k][0] <= -total <= reach[k][1]:
            return
        for digit in range(lowest[order[k]], base):
            if not (distinct and used >> digit & 1):
                values[order[k]] = digit
                place(k + 1, total + weight[order[k]] * digit, used | 1 << digit)

    place(0, 0, 0)
    return found


def random_case(rng, most=4000):
    """(weights, masks, total, distinct, base) of a random sum whose brute force tries at most `most` tuples."""
    while True:
        base = rng.randint(2, 16)
        distinct = rng.random() < 0.6
        n = rng.randint(0, min(6, base) if distinct else 6)
        choices = (0, 1, -1, 2, base, -base, base + 1, base ** 2, -(base ** 2), -(base ** 2) + base)
        weight = [rng.choice(choices) * rng.choice((1, 1, 2, 3)) for _ in range(n)]
        full = (1 << base) - 1
        masks = [rng.choice((full, full - 1, rng.randint(0, full), rng.randint(0, full) | rng.randint(0, full)))
                 for _ in range(n)]
        size = 1
        for mask in masks:
            size *= max(1, mask.bit_count())
        if size <= most:
            total = rng.choice((0, 0, 0, rng.randint(-3 * base, 3 * base), rng.randint(-base ** 2, base ** 2)))
            return weight, masks, total, distinct, base


# The word sums of the search it replaced, against known answers and the formula's brute force.

def test_weights_are_place_values():
    assert weights(["SEND", "MORE"], "MONEY") == {
        "S": 1000, "E": 91, "N": -90, "D": 1, "M": -9000, "O": -900, "R": 10, "Y": -1}


def test_known_puzzles():
    assert solve_sum(["SEND", "MORE"], "MONEY") == [
        {"M": 1, "S": 9, "O": 0, "E": 5, "N": 6, "R": 8, "D": 7, "Y": 2}]
    assert len(solve_sum(["NUM", "BER"], "PLAY")) == 96
    assert len(solve_sum(["ALPHABET", "LETTERS"], "SCRABBLE")) == 1
    assert len(solve_sum(["SATURN", "URANUS", "NEPTUNE", "PLUTO"], "PLANETS")) == 1
    assert solve_sum(["THREE", "COMET"], "SPACE") == []  # E + T ends in E: T = 0, but T leads THREE


def test_limit_stops_early():
    assert len(solve_sum(["NUM", "BER"], "PLAY", limit=2)) == 2
    assert len(solve_sum(["NUM", "BER"], "PLAY", limit=1)) == 1


def test_rules_distinct_and_leading_zeros():
    assert as_set(solve_sum(["A", "A"], "B", distinct=False)) == brute_force("A + A = B", distinct=False)
    assert as_set(solve_sum(["AB", "C"], "AD", allow_leading_zeros=True)) == brute_force(
        "AB + C = AD", allow_leading_zeros=True)


def test_a_letter_of_weight_zero_takes_every_free_digit():
    full = (1 << 10) - 1
    assert sum_solutions(plan_sum([1, 0], [full, full])) == [(0, digit) for digit in range(1, 10)]  # d0 = 0, d1 any other
    assert len(solve_sum(["AB"], "AB")) == 9 * 9  # every letter cancels out
    assert len(sum_solutions(plan_sum([0], [full - 1]))) == 9
    # no letter: the empty assignment balances a total of zero, and nothing balances another
    assert sum_solutions(plan_sum([], [])) == [()]
    assert sum_solutions(plan_sum([], []), total=3) == []


words = st.text(alphabet="ABCDE", min_size=1, max_size=4)


@settings(max_examples=30, deadline=None)
@given(st.lists(words, min_size=1, max_size=3), words, st.booleans(), st.booleans())
def test_every_solution_matches_brute_force(addends, result, distinct, allow_leading_zeros):
    solutions_match_brute_force(addends, result, distinct, allow_leading_zeros)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(st.lists(words, min_size=1, max_size=3), words, st.booleans(), st.booleans())
def test_every_solution_matches_brute_force_many(addends, result, distinct, allow_leading_zeros):
    solutions_match_brute_force(addends, result, distinct, allow_leading_zeros)


def solutions_match_brute_force(addends, result, distinct, allow_leading_zeros):
    formula = " + ".join(addends) + " = " + result
    expected = brute_force(formula, distinct=distinct, allow_leading_zeros=allow_leading_zeros)
    found = solve_sum(addends, result, distinct=distinct, allow_leading_zeros=allow_leading_zeros)
    assert len(found) == len(expected)
    assert as_set(found) == expected


def test_other_bases_give_exactly_the_solvers_solutions():
    """The digits run to base - 1 and the place values are powers of the base."""
    import smtcrypt

    assert weights(["AB"], "C", base=16) == {"A": 16, "B": 1, "C": -1}
    for formula, addends, result, base in [("SEND + MORE = MONEY", ["SEND", "MORE"], "MONEY", 16),
                                           ("ADD + ADD = CAB", ["ADD", "ADD"], "CAB", 16),
                                           ("AB + BA = CDC", ["AB", "BA"], "CDC", 7),
                                           ("A + B = CA", ["A", "B"], "CA", 3)]:
        expected = {tuple(sorted(s.mapping.items())) for s in smtcrypt.solve(formula, base=base)}
        assert as_set(solve_sum(addends, result, base=base)) == expected, (formula, base)


# Properties of the kernel against the brute force.

def plain_against_brute_force(seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    for _ in range(rounds):
        weight, masks, total, distinct, base = random_case(rng)
        used = rng.randint(0, (1 << base) - 1) if distinct and rng.random() < 0.3 else 0
        plan = plan_sum(weight, masks, distinct=distinct, base=base)
        expected = every_solution(weight, masks, total, distinct, base, used)
        found = sum_solutions(plan, total=total, used=used)
        case = (weight, masks, total, distinct, base, used)
        assert sorted(found) == expected, case  # each solution once
        limit = rng.randint(1, 3)
        assert sum_solutions(plan, limit, total, used) == found[:limit], case


@pytest.mark.parametrize("seed, rounds", [(1, 400), pytest.param(2, 8000, marks=pytest.mark.slow)])
def test_the_plain_search_finds_what_the_brute_force_finds(seed, rounds):
    plain_against_brute_force(seed, rounds)


def compiled_against_plain(search, seed: int, rounds: int) -> None:
    """The compiled kernel's count (up to a limit) and first solution are the plain kernel's."""
    rng = random.Random(seed)
    for _ in range(rounds):
        weight, masks, total, distinct, base = random_case(rng)
        expected = sum_solutions(plan_sum(weight, masks, distinct=distinct, base=base), total=total)
        assert sorted(expected) == every_solution(weight, masks, total, distinct, base)
        for limit in (1, 2, rng.randint(3, 50)):
            out = np.full(max(1, len(weight)), -1, np.int64)
            found = search(np.array(weight, np.int64), np.array(masks, np.int64), total, base, distinct, limit, out)
            case = (weight, masks, total, distinct, base, limit)
            assert found == min(limit, len(expected)), case
            if expected:
                assert tuple(int(digit) for digit in out[:len(weight)]) == expected[0], case


def test_the_compiled_search_as_plain_python_finds_what_the_plain_search_finds():
    compiled_against_plain(search_masks, 3, 120)


def walked(search, plan, total, used, rows, every, arrays):
    """Every call of `search` (the one `walk`, plain or compiled) over the plan until it ends, with
    `rows` rows of solutions and a budget raised by `every` steps at each call that spends it: each
    call's solutions (in the caller's letter order), and the steps entered after it."""
    n = plan.size
    steps, pairs = plan.steps, plan.pairs()[0]
    state, work, out = [FRESH, 0], [[0] * n for _ in range(WORK)], [[0] * n for _ in range(rows)]
    if arrays:  # int64 arrays, as the compiled kernel takes them
        steps = np.array(steps, np.int64).reshape(n, FIELDS)
        pairs = [np.array(part, np.int64) for part in pairs]
        state, work, out = np.array(state, np.int64), np.array(work, np.int64).reshape(WORK, n), np.zeros((rows, n), np.int64)
    calls, budget = [], every
    while state[0] != DONE:
        written = search(steps, *pairs, total, used, plan.distinct, state, work, out, budget)
        found = [tuple(int(row[plan.order.index(index)]) for index in range(n)) for row in out[:written]]
        calls.append((found, int(state[1])))
        if state[1] >= budget:
            budget += every
    return calls


def test_the_search_plain_and_compiled_takes_the_same_steps():
    """The one search, run as plain Python on lists and compiled by numba on int64 arrays (as plain Python
    on arrays where numba is not installed), over the same plans, with and without the table of pairs:
    the same solutions in the same order, call by call, the same steps entered; and what a brute force finds."""
    compiled_walk = compiled_or_skip().walk if kernel.compiled_available() else walk
    rng = random.Random(6)
    tables = {"direct": 0, "hashed": 0}
    for _ in range(300):
        weight, masks, total, distinct, base = random_case(rng)
        if rng.random() < 0.3:  # the last two letters' totals too far apart for a table of every one: hashed
            scale = rng.choice((997, 4096, 10**6))
            weight, total = [w * scale for w in weight], total * scale
        used = rng.randint(0, (1 << base) - 1) if distinct and rng.random() < 0.3 else 0
        plan = plan_sum(weight, masks, distinct=distinct, base=base)
        if plan.least + total > 0 or plan.most + total < 0:  # SumSearch searches none of these
            continue
        pairs, widest = plan.pairs()
        if pairs != NO_PAIRS:
            tables["hashed" if len(pairs[1]) > PAIR_SPAN else "direct"] += 1
        expected = every_solution(weight, masks, total, distinct, base, used)
        orders = []
        for table in ((pairs, widest), (NO_PAIRS, 0)):
            plan.tabled = table
            rows, every = max(table[1], rng.randint(1, 5)), rng.choice((1, 2, 8, 1 << 20))
            plain = walked(walk, plan, total, used, rows, every, False)
            case = (weight, masks, total, distinct, base, used, table[0] is NO_PAIRS, rows, every)
            assert walked(compiled_walk, plan, total, used, rows, every, True) == plain, case
            found = [digits for solutions, _ in plain for digits in solutions]
            assert sorted(found) == expected, case
            orders.append(found)
        assert orders[0] == orders[1], case  # the table of pairs finds them in the order the search does
    assert tables["direct"] > 20 and tables["hashed"] > 5, tables


def compiled_or_skip():
    pytest.importorskip("numba", reason="the compiled search needs numba: pip install 'smtcrypt[fast]'")
    return kernel.compiled()


@pytest.mark.parametrize("seed, rounds", [(4, 1500), pytest.param(5, 20000, marks=pytest.mark.slow)])
def test_the_compiled_search_finds_what_the_plain_search_finds(seed, rounds):
    compiled_against_plain(compiled_or_skip().search, seed, rounds)


def test_big_integers_and_base_64_in_the_plain_search():
    """Weights beyond 64 bits and digits beyond 62, which the compiled search does not take."""
    base = 64
    big = base ** 12
    weight = [big, -big, 2 * big, -2 * big, 1, 1, -2]
    full = (1 << base) - 1
    masks = [1 << 63 | 1 << 61 | 5, full, full, full ^ 1, full, 1 << 62 | 1 << 63, full]
    found = sum_solutions(plan_sum(weight, masks, base=base), 50)
    assert len(found) == 50 and not fits_int64(weight, base)
    for digits in found:
        assert sum(w * d for w, d in zip(weight, digits)) == 0 and len(set(digits)) == len(digits)
        assert all(mask >> digit & 1 for mask, digit in zip(masks, digits))
    assert {digits[5] for digits in found} <= {62, 63}


def test_the_search_counts_its_nodes_and_stops_when_asked():
    full = (1 << 10) - 1
    plan = plan_sum([1, 2, 3, 4, -5, -6], [full] * 6, distinct=False)  # a search of several hundred nodes
    search = SumSearch(plan)
    every = list(search)
    assert search.nodes > 500 and not search.stopped
    asked = []
    stopping = SumSearch(plan, poll=lambda: asked.append(1) or len(asked) == 2, every=64)
    part = list(stopping)
    assert stopping.stopped and len(asked) == 2 and stopping.nodes == 64 * 2
    assert part == every[:len(part)] and len(part) < len(every)
    with pytest.raises(ValueError, match="power of two"):
        SumSearch(plan, every=1000)


def test_digits_already_used_are_left_out():
    full = (1 << 10) - 1
    plan = plan_sum([1, 1, -1], [full] * 3)
    used = digit_mask([0, 5, 9])
    found = sum_solutions(plan, used=used)
    assert found and all(not used >> digit & 1 for digits in found for digit in digits)
    assert sorted(found) == every_solution([1, 1, -1], [full] * 3, 0, True, 10, used)


# The generator's keys: codes 2 * weight + (1 where the letter may not be zero), all letters distinct.

def random_keys(seed: int, count: int, base: int = 10):
    """(codes, weights, lowest) of random word sums over ten letters, some with cancelling letters."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        words = ["".join(rng.choice("ABCDEFGHIJ") for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(3, 5))]
        weight = weights(words[:-1], words[-1], base)
        if len(weight) < 4:
            continue
        letters = sorted(weight, key=lambda letter: -abs(weight[letter]))
        w = [weight[letter] for letter in letters]
        lowest = [rng.randint(0, 1) for _ in letters]
        found += 1
        yield [2 * x + low for x, low in zip(w, lowest)], w, lowest


def expected_key(w, lowest, base):
    every = magnitude_search(w, lowest, base=base)
    return min(2, len(every)), every[0] if len(every) == 1 else None


def key_answer(counter, codes, base):
    out = np.zeros(len(codes), np.int64)
    found = counter(np.array(codes, np.int64), base, 2, out)
    return found, tuple(int(digit) for digit in out) if found == 1 else None


@pytest.mark.parametrize("base", [10, 16])
def test_a_key_as_plain_python_finds_what_a_magnitude_search_finds(base, monkeypatch):
    monkeypatch.setattr(kernel, "SEARCH", search_masks)  # the plain search, even after another test compiled it
    for codes, w, lowest in random_keys(base, 60, base):
        assert key_answer(search_codes, codes, base) == expected_key(w, lowest, base), codes


@pytest.mark.parametrize("base, rounds", [(10, 600), (12, 300), pytest.param(12, 4000, marks=pytest.mark.slow)])
def test_a_compiled_key_finds_what_a_magnitude_search_finds(base, rounds):
    codes_search = compiled_or_skip().codes
    for codes, w, lowest in random_keys(100 + base, rounds, base):
        assert key_answer(codes_search, codes, base) == expected_key(w, lowest, base), codes


def test_sizes_that_fit_64_bits():
    assert fits_int64((10**9, -(10**9) // 2, 1, -2), 10)
    assert not fits_int64((10**18, -(10**18) // 2, 1, -2), 10)
    assert not fits_int64((1, -1), 63) and fits_int64((1, -1), 62)
    assert not fits_int64((1, -1), 10, total=1 << 62)


def test_a_long_period_is_solved_without_overflow():
    """Later letters whose weights share a divisor past 2**31.5: the congruence's product of two
    residues would overflow 64 bits, so the compiled search works it out by doubling."""
    big = 3_037_000_510  # past LONG_PERIOD, and a multiple of the base: the letter of weight -1 goes first
    full = (1 << 10) - 1
    # the first letter's residue is -3 (mod big), times the inverse of -1: a product near big ** 2 > 2 ** 63
    weight, masks, total = [-1, 3 * big, -5 * big, 2 * big], [full] * 4, 3
    plan = plan_sum(weight, masks)
    assert plan.order[0] == 0 and plan.steps[0][8] == big  # the first step's period is the long one
    expected = sum_solutions(plan, total=total)
    assert expected and sorted(expected) == every_solution(weight, masks, total)
    searches = [search_masks, *([compiled_or_skip().search] if kernel.compiled_available() else [])]
    for search in searches:
        out = np.zeros(4, np.int64)
        found = search(np.array(weight, np.int64), np.array(masks, np.int64), total, 10, True, 99, out)
        assert found == len(expected) and tuple(out) == expected[0]


def test_ctrl_c_while_the_search_compiles_is_held_until_it_is_compiled():
    """numba interrupted halfway keeps a library without code (every later call fails), so the
    compile runs with Ctrl-C held back and delivered after it."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # an earlier test may have set another
    try:
        done = []
        with pytest.raises(KeyboardInterrupt), kernel.interrupts_held():
            signal.raise_signal(signal.SIGINT)
            done.append("the block ran to its end")
        assert done == ["the block ran to its end"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


def double(x):
    return 2 * x


def test_no_writable_cache_directory_compiles_without_one(monkeypatch):
    """A read-only install run by a user without a writable home: numba finds nowhere to cache and
    refuses `cache=True`; the search is then compiled in each process, without a warning."""
    import warnings

    numba = pytest.importorskip("numba")
    config = numba.core.config
    if not hasattr(config, "CACHE_LOCATOR_CLASSES"):
        pytest.skip("this numba has no NUMBA_CACHE_LOCATOR_CLASSES to stand for a read-only install")
    monkeypatch.setattr(config, "CACHE_DIR", "")
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", "UserProvidedCacheLocator")  # with no CACHE_DIR: none
    with pytest.raises(RuntimeError, match="cannot cache"):
        numba.njit(cache=True)(double)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert kernel.jit(double)(21) == 42


def test_the_engine_counts_with_the_compiled_kernel_as_with_the_plain_one(monkeypatch):
    """Loaded for the engine (as a batch of many puzzles loads it), the compiled kernel settles a sum with
    no solution or one, and hands a sum with more to the plain search: the same solutions either way,
    for sums with free letters, other bases, rules and conditions beside the equation."""
    pytest.importorskip("numba", reason="the compiled search needs numba: pip install 'smtcrypt[fast]'")
    puzzles = [("SEND + MORE = MONEY", {}), ("ALPHA + BETA + DELTA + ETA + PHI = KAPPA", {}),
               ("SAINT + GEORGE = DRAGON", {}), ("A + B = C", {}), ("SEND + MORE = MONEY and S < 9", {}),
               ("SEND + MORE = MONEY and S < 8", {}), ("AB + BA = CC", {"distinct": False}),
               ("SIX + SEVEN + SEVEN = TWENTY", {"base": 10}), ("EIN + EIN = ZWEI", {"base": 8}),
               ("ABC + DEF = GHIJ", {"allow_leading_zeros": True, "assign": {"A": 1}}), ("TO + GO = OUT", {}),
               ("NINE + NINE = EIGHTEEN", {})]

    def solve_all(executor):
        found = {}
        for formula, rules in puzzles:
            search = Puzzle(formula, **rules).search(strategy="linear", executor=executor)
            found[formula, str(rules)] = ([solution.mapping for solution in search], search.statistics().sum_kernel)
        return found

    plain = solve_all(Executor.AUTO)
    assert {kernel for _, kernel in plain.values()} == {"plain"}
    assert sums.compiled_kernel(Executor.COMPILED) is not None
    compiled = solve_all(Executor.COMPILED)
    for key, (solutions, kernel_used) in compiled.items():
        assert solutions == plain[key][0], key
        assert kernel_used == ("compiled" if len(solutions) < 2 else "plain"), key
