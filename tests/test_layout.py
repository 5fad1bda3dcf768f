"""Long multiplication and long division as printed: counts and filled-in layouts against a brute
force that prints every multiplication (or division) of the right sizes, written here from the
layout rules and sharing nothing with smtcrypt.layout, and errors that point at line and column."""

from __future__ import annotations

import json

import pytest

import smtcrypt
import smtcrypt.core.parse as core_parse
from smtcrypt import FormulaError, Puzzle, Status
from smtcrypt.cli import main
from smtcrypt.core.letters import WILDCARD_NAMES
from smtcrypt.errors import LayoutError
from smtcrypt.notations.layout import LongDivision, parse_layout
from smtcrypt.notations.layout import reader as layout_reader

MULTIPLICATION = """\
    7??
  x  ??
  -----
   ?8??
  ?9??
  -----
  ?5???
"""

DIVISION = """\
       ?7?
     -----
 2? ) ????
      ??
      --
      ???
      ???
      ---
       ???
       ???
       ---
         0
"""


# --- the brute force: print every candidate, compare it with the pattern cell by cell ----------------

def numbers(text: str) -> list[tuple[str, int]]:
    """The layout's numbers in reading order, each with its right edge's column (rules and signs left out)."""
    found = []
    for line in text.splitlines():
        for token in line.replace(")", " ").replace("x", " ").replace("*", " ").replace("×", " ").split():
            if not set(token) <= set("-="):
                found.append((token, line.rindex(token) + len(token) - 1))
    return found


def matches(pattern: list[tuple[str, int]], printed: list[tuple[str, int]]) -> dict[str, int] | None:
    """The letters' digits if `printed` fits `pattern` (same lengths and right edges, relative to the
    last number's; literal digits equal; each letter one digit, distinct letters distinct digits)."""
    if len(pattern) != len(printed):
        return None
    shift = pattern[-1][1] - printed[-1][1]
    letters: dict[str, int] = {}
    for (cells, edge), (digits, printed_edge) in zip(pattern, printed):
        if len(cells) != len(digits) or edge != printed_edge + shift:
            return None
        for cell, digit in zip(cells, digits):
            if cell.isdigit() and cell != digit:
                return None
            if cell.isalpha() and letters.setdefault(cell, int(digit)) != int(digit):
                return None
    return letters if len(set(letters.values())) == len(letters) else None


def printed_multiplication(a: int, b: int) -> list[tuple[str, int]]:
    """a x b as printed: a, b, a partial product per nonzero digit of b (last digit first) ending under it,
    the product; right edges as columns from an arbitrary origin."""
    rows = [(str(a), 0), (str(b), 0)]
    if b >= 10:
        rows += [(str(a * int(digit)), -place) for place, digit in enumerate(reversed(str(b))) if digit != "0"]
    return rows + [(str(a * b), 0)]


def printed_division(d: int, q: int, r: int) -> list[tuple[str, int]]:
    """(d*q + r) / d as printed: the quotient, divisor, dividend, then per nonzero quotient digit the
    product under its digit and the remainder with the dividend's next digits brought down (as many as
    the zero digits after it, and one), or the final remainder; right edges as columns of the dividend."""
    dividend, quotient = str(d * q + r), str(q)
    n, m = len(dividend), len(quotient)
    last = n - 1
    rows = [(quotient, last), (str(d), -2), (dividend, last)]
    position = n - m  # the dividend digit the first quotient digit stands over
    current = int(dividend[:position + 1])
    index = 0
    while index < m:
        digit = int(quotient[index])
        assert current // d == digit
        if digit == 0:  # only before the first nonzero digit
            index += 1
            position += 1
            current = current * 10 + int(dividend[position])
            continue
        rows.append((str(d * digit), position))
        remainder = current - d * digit
        following = next((j for j in range(index + 1, m) if quotient[j] != "0"), None)
        if following is None:
            rows.append((str(int(str(remainder) + dividend[position + 1:])), last))
            break
        brought = following - index
        current = int(str(remainder) + dividend[position + 1:position + 1 + brought])
        rows.append((str(current), position + brought))
        index, position = following, position + brought
    return rows


def values(cells: str) -> list[int]:
    """The numbers of len(cells) digits (no leading 0) whose literal digits are those of `cells`."""
    low = 10 ** (len(cells) - 1) if len(cells) > 1 else 0
    return [v for v in range(low, 10 ** len(cells))
            if all(not cell.isdigit() or cell == digit for cell, digit in zip(cells, str(v)))]


def brute_multiplications(layout: str) -> list[tuple[int, int, dict]]:
    pattern = numbers(layout)
    found = []
    for a in values(pattern[0][0]):
        for b in values(pattern[1][0]):
            letters = matches(pattern, printed_multiplication(a, b))
            if letters is not None:
                found.append((a, b, letters))
    return found


def brute_divisions(layout: str, remainders: range | None = None) -> list[tuple[int, int, int]]:
    pattern = numbers(layout)
    quotient, divisor = pattern[0][0], pattern[1][0]
    dividend_edge = pattern[2][1]
    pattern = [(cells, edge - dividend_edge) for cells, edge in pattern]
    pattern[1] = (divisor, 0)  # the divisor's edge carries no meaning
    found = []
    for d in values(divisor):
        for q in values(quotient):
            for r in (remainders or range(d)):
                if r >= d:
                    break
                printed = printed_division(d, q, r)
                edge = printed[2][1]
                printed = [(digits, column - edge) for digits, column in printed]
                printed[1] = (printed[1][0], 0)
                if matches(pattern, printed) is not None:
                    found.append((d, q, r))
    return found


# --- the examples ---------------------------------------------------------------------------------

def test_brute_force_prints_the_examples_as_given():
    assert printed_multiplication(736, 48) == [("736", 0), ("48", 0), ("5888", 0), ("2944", -1), ("35328", 0)]
    assert printed_division(20, 175, 0) == [("175", 3), ("20", -2), ("3500", 3), ("20", 1), ("150", 2),
                                            ("140", 2), ("100", 3), ("100", 3), ("0", 3)]
    assert printed_division(5, 204, 0)[3:] == [("10", 1), ("20", 3), ("20", 3), ("0", 3)]


def test_multiplication_example_has_8_solutions():
    expected = brute_multiplications(MULTIPLICATION)
    assert len(expected) == 8 and (736, 48, {}) in expected
    verdict = Puzzle.from_layout(MULTIPLICATION).search().verdict()
    assert verdict.status is Status.MULTIPLE and verdict.complete and verdict.count == 8
    shown = sorted(solution.text for solution in verdict.solutions)
    wanted = []
    for a, b, _ in expected:
        rows = [str(a), str(b), str(a * (b % 10)), str(a * (b // 10)), str(a * b)]
        wanted.append(f"    {rows[0]}\n  x  {rows[1]}\n  -----\n   {rows[2]}\n  {rows[3]}\n  -----\n  {rows[4]}")
    assert shown == sorted(wanted)
    assert smtcrypt.Puzzle.from_layout(MULTIPLICATION).count() == 8


def test_division_example_has_154_solutions():
    expected = brute_divisions(DIVISION, remainders=range(1))  # the final remainder is printed 0
    assert len(expected) == 154 and (20, 175, 0) in expected
    puzzle = Puzzle.from_layout(DIVISION)
    assert puzzle.count() == 154
    solutions = list(puzzle.solve())
    found = sorted((int(s.text.splitlines()[2].split(")")[0]), int(s.text.splitlines()[0]), 0) for s in solutions)
    assert found == sorted(expected)
    example = next(s for s in solutions if s.text.splitlines()[0].strip() == "175" and " 20 " in s.text)
    assert example.text == ("       175\n     -----\n 20 ) 3500\n      20\n      --\n      150\n      140\n"
                            "      ---\n       100\n       100\n       ---\n         0")
    assert example.mapping == {} and len(example.wildcards) == DIVISION.count("?")


def test_layout_examples_through_the_command_line(tmp_path, capsys):
    path = tmp_path / "layout.txt"
    path.write_text(MULTIPLICATION)
    assert main(["--count", "--layout", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "8"
    for text, count in ((MULTIPLICATION, 8), (DIVISION, 154)):
        path.write_text(text)
        assert main(["--json", "--layout", str(path)]) == 0
        data = json.loads(capsys.readouterr().out)
        assert data["count"] == count and data["status"] == "multiple" and data["complete"]
        assert data["formula"] == text.rstrip("\n")
        assert all(len(s["wildcards"]) == text.count("?") and "?" not in s["text"] for s in data["solutions"])
    path.write_text(MULTIPLICATION)
    assert main(["--layout", str(path), "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("    7") and "  x  " in out and out.count("\n  -----\n") == 2


def test_layout_from_standard_input(monkeypatch, capsys):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(MULTIPLICATION))
    assert main(["--count", "--layout", "-"]) == 0
    assert capsys.readouterr().out.strip() == "8"


# --- more layouts, each against the brute force -----------------------------------------------------

def test_multiplication_with_a_zero_multiplier_digit():
    layout = """\
     7?
  x ?0?
  -----
    ?8?
  ?9?
  -----
  ?????
"""
    expected = brute_multiplications(layout)
    assert expected and all(b // 10 % 10 == 0 for _, b, _ in expected)
    assert Puzzle.from_layout(layout).count() == len(expected)


def test_multiplication_with_letters_follows_the_letter_rules():
    layout = """\
     AB
   * BA
   ----
    ???
   ???
   ----
   ?C??
"""
    expected = brute_multiplications(layout)
    solutions = list(Puzzle.from_layout(layout).solve())
    assert sorted((s.mapping["A"], s.mapping["B"], s.mapping["C"]) for s in solutions) == sorted(
        (letters["A"], letters["B"], letters["C"]) for _, _, letters in expected)
    assert solutions and all(len({s.mapping["A"], s.mapping["B"], s.mapping["C"]}) == 3 for s in solutions)


def test_one_digit_multiplier_has_no_partial_products():
    layout = "  ???\n×   7\n ----\n 6??1\n"
    expected = brute_multiplications(layout)
    assert Puzzle.from_layout(layout).count() == len(expected) > 0


def test_division_with_a_zero_quotient_digit_and_a_remainder():
    layout = """\
        ?0?
      -----
  1? ) ???4
       ??
       --
        ???
        ???
        ---
          ?
"""
    expected = brute_divisions(layout, remainders=range(10))  # the final remainder has one digit
    assert expected and all(q // 10 % 10 == 0 for _, q, _ in expected)
    solutions = list(Puzzle.from_layout(layout).solve())
    assert len(solutions) == len(expected)
    for solution in solutions:
        lines = solution.text.splitlines()
        divisor, dividend = (int(part) for part in lines[2].split(")"))
        quotient, remainder = int(lines[0]), int(lines[-1])
        assert (divisor, quotient, remainder) in expected and divisor * quotient + remainder == dividend


def test_layout_answers_and_uniqueness():
    puzzle = Puzzle.from_layout(MULTIPLICATION)
    result = puzzle.answers("1")  # a constant: the same for every solution
    assert result.status == "unique" and result.values[0].count == 8
    fixed = MULTIPLICATION.replace("  x  ??", "  x  48")
    assert Puzzle.from_layout(fixed).count() == len(brute_multiplications(fixed)) == 8  # all 8 have 48
    text = "    7AB\n  x  ??\n  -----\n   ?8??\n  ?9??\n  -----\n  ?5???\n"
    lettered = Puzzle.from_layout(text)
    expected = brute_multiplications(text)
    assert {letters["A"] for _, _, letters in expected} == {3} and len(expected) == 7
    assert lettered.answers("A").status == "unique" and lettered.answers("A").value == 3
    assert lettered.answers("A").values[0].count == 7
    decided = lettered.answers("A", unique=True)
    assert decided.status == "unique" and decided.proof and decided.values[0].count is None
    assert lettered.answers("B", unique=True).status == "multiple"


# --- errors ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, message, line, column", [
    ("  7??\n+ ??\n----\n?????\n", "expected x, * or ×", 2, 1),
    ("   7??\nx  ??\n-----\n ?8??\n?9??\n-----\n?5???\n", "the multiplicand and the multiplier", 1, 6),
    ("    7??\n  x  ??\n  -----\n    ?8??\n  ?9??\n  -----\n  ?5???\n", "a partial product must end under a digit",
     4, 8),
    ("    7??\n  x  ??\n  -----\n  ?9??\n   ?8??\n  -----\n  ?5???\n",
     "partial products go from the multiplier's last digit", 5, 7),
    ("    7??\n  x  ??\n  -----\n   ?8?_\n  ?9??\n  -----\n  ?5???\n", "expected letters, digits or '?'", 4, 7),
    ("    7??\n  x  ??\n  -----\n   ?8??\n  ?9??\n", "the layout ends too early", 5, 6),
    ("    ??\n  ---\n?) ???\n  ?\n  -\n  ??\n", "must end under a dividend digit that a quotient digit", 4, 3),
    ("    ?\n  --\n?) ??\n   ??\n   --\n   ?\n", "the final remainder must end under the dividend's last digit",
     6, 4),
    ("   ?1\n  --\n?) ??\n   ?\n   -\n    ?\n", "has no rows under it", 1, 5),
    ("    ?\n  --\n?) ??\n", "the layout ends too early", 3, 5),
])
def test_layout_errors_point_at_line_and_column(text, message, line, column):
    with pytest.raises(LayoutError) as caught:
        parse_layout(text)
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == (line, column), str(caught.value)
    assert isinstance(caught.value, FormulaError) and "^" in caught.value.snippet


def test_layout_errors_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("    7??\n  x  ??\n  -----\n   ?8??\n  ?9??\n")
    assert main(["--layout", str(path)]) == 2
    err = capsys.readouterr().err
    assert "the layout ends too early" in err and "line 5, column 6" in err and "^" in err
    assert main(["--layout", str(tmp_path / "missing.txt")]) == 2
    assert "No such file" in capsys.readouterr().err
    assert main(["--layout", str(path), "A = B"]) == 2  # the layout's error, before its condition is read
    assert "the layout ends too early" in capsys.readouterr().err


def test_layout_cells_cannot_be_written_in_a_formula():
    """The hidden names of a layout's cells are refused in a formula a user writes."""
    layout = parse_layout(MULTIPLICATION)
    with pytest.raises(FormulaError, match="unexpected character"):
        Puzzle(layout.formula())


# --- conditions on a layout's letters ---------------------------------------------------------------

LETTERED_DIVISION = """\
       A?B
     -----
 C? ) ????
      ??
      --
      ???
      D??
      ---
       ???
       ???
       ---
         0
"""


def brute_letters(layout: str) -> list[dict[str, int]]:
    """The letters' digits of every division the brute force prints for an exact `layout`."""
    found = []
    pattern = numbers(layout)
    for d, q, r in brute_divisions(layout, remainders=range(1)):
        printed = printed_division(d, q, r)
        shift = pattern[2][1] - printed[2][1]
        letters = matches([(cells, 0) for cells, _ in pattern], [(digits, 0) for digits, _ in printed])
        assert letters is not None and shift is not None
        found.append(letters)
    return found


def test_a_condition_on_the_layouts_letters_changes_the_count():
    """The issue's shape of condition: exactly one of four given digits is wrong."""
    every = brute_letters(LETTERED_DIVISION)
    assert Puzzle.from_layout(LETTERED_DIVISION).count() == len(every) == 1233
    condition = "(A != 2) + (B != 9) + (C != 4) + (D != 6) = 1"
    wanted = [letters for letters in every
              if (letters["A"] != 2) + (letters["B"] != 9) + (letters["C"] != 4) + (letters["D"] != 6) == 1]
    puzzle = Puzzle.from_layout(LETTERED_DIVISION, condition)
    solutions = list(puzzle.solve())
    assert len(solutions) == len(wanted) == 3
    assert sorted(tuple(s.mapping[k] for k in "ABCD") for s in solutions) == sorted(
        tuple(letters[k] for k in "ABCD") for letters in wanted)
    assert all(puzzle.layout.block(s).startswith(s.text) and "?" not in s.text for s in solutions)
    several = Puzzle.from_layout(LETTERED_DIVISION, ["(A != 2) + (B != 9) + (C != 4) + (D != 6) = 1", "A = 2"])
    assert several.count() == sum(letters["A"] == 2 for letters in wanted)


def test_a_condition_may_name_a_new_letter_an_unknown_or_a_wildcard():
    """A letter the layout lacks is one more letter under the same rules (distinct from the layout's);
    a lowercase name is an integer unknown; a `?` is a digit of its own, apart from the layout's cells."""
    every = brute_letters(LETTERED_DIVISION)
    new_letter = Puzzle.from_layout(LETTERED_DIVISION, "E = A + 1")
    assert new_letter.count() == sum(letters["A"] + 1 not in {letters[k] for k in "ABCD"} and letters["A"] < 9
                                     for letters in every)
    assert all(s.mapping["E"] == s.mapping["A"] + 1 for s in new_letter.solve())
    unknown = Puzzle.from_layout(LETTERED_DIVISION, ["n = A * B", "n > 40"])
    assert unknown.count() == sum(letters["A"] * letters["B"] > 40 for letters in every)
    wildcard = Puzzle.from_layout(DIVISION, "? = 1")
    assert wildcard.count() == 154  # a digit of its own, fixed: the layout's cells untouched
    assert len(wildcard.letters) == DIVISION.count("?") + 1


@pytest.mark.parametrize("conditions, message, line, column", [
    ("A + = 2", "missing operand", 1, 5),
    (["A > 1", "B = C +"], "unexpected end of formula", 2, 8),
    (["A > 1", "foo(B) = 2"], "unknown function 'foo'", 2, 1),
    ("\ue000 = 1", "unexpected character", 1, 1),  # the name of a layout's hidden cell is not the user's to write
    ("A = 10", None, None, None),
])
def test_errors_in_a_condition_point_at_the_conditions_own_text(conditions, message, line, column):
    if message is None:
        assert Puzzle.from_layout(LETTERED_DIVISION, conditions).count() == 0  # A is a digit: no error, no solution
        return
    with pytest.raises(FormulaError) as caught:
        Puzzle.from_layout(LETTERED_DIVISION, conditions)
    error = caught.value
    assert message in error.message and (error.line, error.column) == (line, column), str(error)
    text = conditions if isinstance(conditions, str) else "\n".join(conditions)
    assert error.source == text and "^" in error.snippet


def test_a_check_error_in_a_condition_points_at_the_condition():
    """Errors the checker finds (here: an eleventh distinct letter) are pointed at in the condition."""
    with pytest.raises(FormulaError) as caught:
        Puzzle.from_layout(LETTERED_DIVISION, "E + F + G + H + I + J + K = 7")
    assert "distinct letters" in caught.value.message and caught.value.source == "E + F + G + H + I + J + K = 7"
    assert caught.value.column == 25  # K, the eleventh letter


# --- lowercase symbols --------------------------------------------------------------------------------

def test_lowercase_symbols_are_the_same_letters_as_capitals():
    lower = LETTERED_DIVISION.replace("A", "a").replace("B", "b").replace("C", "c").replace("D", "d")
    upper = Puzzle.from_layout(LETTERED_DIVISION)
    lowered = Puzzle.from_layout(lower)
    assert lowered.formula == upper.formula and lowered.count() == upper.count()
    first = lowered.first()
    assert first is not None and first.text == upper.layout.filler(upper.problem)(
        {**first.mapping, **dict(zip(upper.problem.wildcards, first.wildcards))})
    block = lowered.layout.block(first)
    assert "  /  a=" in block and "A=" not in block  # the letters as the layout writes them
    mixed = Puzzle.from_layout(lower.replace(" c? )", " C? )"))  # c and C: one letter, shown as first written
    assert mixed.count() == upper.count() and mixed.layout.spelling["C"] == "C"
    assert mixed.layout.spelling["A"] == "a"


def test_lowercase_layout_takes_capital_conditions():
    lower = LETTERED_DIVISION.lower()
    condition = "(A != 2) + (B != 9) + (C != 4) + (D != 6) = 1"
    assert Puzzle.from_layout(lower, condition).count() == 3
    with pytest.raises(FormulaError) as caught:  # in a formula a lowercase name is an integer unknown
        Puzzle.from_layout(lower, "A > 1 and b = 9")
    assert "the layout's letter B" in caught.value.message and caught.value.column == 11
    unknown = Puzzle.from_layout(lower, "n = A + 1").first()  # a name that is no letter of the layout: an unknown
    assert unknown is not None and unknown.mapping["n"] == unknown.mapping["A"] + 1


def test_the_multiplier_after_x_may_be_a_lowercase_word():
    layout = "     ab\n   x ba\n   ----\n    ???\n   ???\n   ----\n   ?c??\n"
    upper = "     AB\n   x BA\n   ----\n    ???\n   ???\n   ----\n   ?C??\n"
    assert Puzzle.from_layout(layout).count() == Puzzle.from_layout(upper).count() == len(
        brute_multiplications(upper))
    xy = "     xy\n   x yx\n   ----\n    ???\n   ???\n   ----\n   ????\n"  # the letter x after the operator x
    assert Puzzle.from_layout(xy).count() == len(brute_multiplications(xy.upper().replace("X YX", "x YX")))


# --- enigma.py's rules for divisions, as options --------------------------------------------------

ENIGMA_206 = """\
         ???
      -----
  ?? ) pkmkh
       pmd
       ---
        xpk
         ??
        ---
         khh
         mbg
         ---
           k
"""


def test_enigma_206_as_printed_has_its_one_solution():
    """enigma.py's example: pkmkh / ?? = ???, [pkm - pmd = xp, xpk - ?? = kh, khh - mbg = k]."""
    for nonzero in (False, True):
        solutions = list(Puzzle.from_layout(ENIGMA_206, nonzero_remainders=nonzero).solve())
        assert len(solutions) == 1
        assert solutions[0].text.splitlines()[2].split() == ["77", ")", "47670"]
        assert solutions[0].text.splitlines()[0].strip() == "619" and solutions[0].text.splitlines()[-1].strip() == "7"


def test_nonzero_remainders_keeps_a_one_digit_remainder_from_0():
    layout = """\
        ?0?
      -----
  1? ) ???4
       ??
       --
        ???
        ???
        ---
          ?
"""
    every = brute_divisions(layout, remainders=range(10))
    nonzero = [(d, q, r) for d, q, r in every if r != 0]
    assert len(nonzero) < len(every)
    assert Puzzle.from_layout(layout).count() == len(every)
    assert Puzzle.from_layout(layout, nonzero_remainders=True).count() == len(nonzero)
    assert "?" not in parse_layout(layout, nonzero_remainders=True).formula()
    exact = Puzzle.from_layout(DIVISION, nonzero_remainders=True)  # a remainder written 0 is 0
    assert exact.count() == 154


def test_conditions_may_allow_leading_zeros_while_the_rows_keep_the_rule():
    layout = DIVISION.replace(" ????\n", " ???E\n")
    every = brute_letters(layout)
    assert {letters["E"] for letters in every} >= {0, 5}
    puzzle = Puzzle.from_layout(layout, "EF % 10 = 3")  # F: a new letter (3), distinct from E
    assert puzzle.count() == sum(letters["E"] not in (0, 3) for letters in every)  # the word EF keeps E from 0
    loose = Puzzle.from_layout(layout, "EF % 10 = 3", conditions_allow_leading_zeros=True)
    assert loose.count() == sum(letters["E"] != 3 for letters in every)
    headed = DIVISION.replace("2? )", "E? )")
    rows = Puzzle.from_layout(headed, "EF % 10 = 3", conditions_allow_leading_zeros=True)
    solutions = list(rows.solve())
    assert solutions and all(s.mapping["E"] != 0 for s in solutions)  # the divisor's head stays nonzero
    assert len(solutions) == sum(letters["E"] != 3 for letters in brute_letters(headed))


# --- the reader builds the formula's tree: no text of ours is parsed ------------------------------

def test_a_layout_is_read_into_nodes_and_only_the_users_conditions_are_parsed(monkeypatch):
    """A multiplication, a division and enigma.py's SubstitutedDivision (built from its rows, not from
    its drawing; its --extra condition a tree enigma's reader built) come to their problems without the
    parser, but for the conditions as the user wrote them."""
    composed, conditions = core_parse.normal, "A + ? > 1"
    parsed = []

    def guarded(source):  # every parse begins by composing its text, whichever module called it
        assert source == conditions, f"a text the user did not write was parsed: {source!r}"
        parsed.append(source)
        return composed(source)

    monkeypatch.setattr(core_parse, "normal", guarded)
    multiplication = Puzzle.from_layout(MULTIPLICATION)
    division = Puzzle.from_layout(DIVISION, conditions)

    def printed(*args):
        raise AssertionError("enigma.py's rows were printed and read back")

    monkeypatch.setattr(layout_reader.LayoutReader, "__init__", printed)
    enigma = Puzzle.from_enigma(["SubstitutedDivision", "pkmkh / ?? = ???", "pkm - pmd = xp", "xpk - ?? = kh",
                                 "khh - mbg = k", "--extra=p + k > 3"])
    assert parsed == [conditions]
    assert multiplication.problem.source == MULTIPLICATION.rstrip("\n")  # the spans' text: the layout's
    assert division.problem.source == DIVISION.rstrip("\n") + "\n" + conditions
    assert enigma.problem.source == enigma.view.drawing + "\n(p + k > 3)"
    # the condition's `?` named after the layout's cells, a digit of its own
    assert len(division.problem.wildcards) == DIVISION.count("?") + 1
    assert division.formula.splitlines()[-1] == "A + " + WILDCARD_NAMES[DIVISION.count("?")] + " > 1"


def test_the_checkers_errors_point_into_the_layout():
    with pytest.raises(FormulaError) as caught:  # a row's literal digit the base lacks
        Puzzle.from_layout(MULTIPLICATION, base=8)
    assert "8 is not a digit in base 8" in caught.value.message
    assert (caught.value.line, caught.value.column) == (4, 5) and caught.value.snippet == "     ?8??\n      ^"
    with pytest.raises(LayoutError) as literal:  # a row of literal digits alone
        Puzzle.from_layout("   17\n x 12\n ----\n   34\n  17\n ---\n  204\n", base=5)
    assert "7 is not a digit in base 5" in literal.value.message
    assert (literal.value.line, literal.value.column) == (1, 5)


def test_a_division_from_its_rows_reads_as_its_drawing():
    """`LongDivision` (enigma.py's rows) reads as the same division printed and read back: the same
    equations, cells and hidden names, and the same first fault."""
    rows = LongDivision("PKMKH", "??", "???", (("PMD", "XPK"), ("??", "KHH"), ("MBG", "K")))
    read, printed = rows.read(), parse_layout(rows.text)
    assert read.formula() == printed.formula() and read.text == printed.text == rows.text.rstrip("\n")
    assert (read.cells, read.hidden, read.operands) == (printed.cells, printed.hidden, printed.operands)
    wrong = LongDivision("???", "?", "1?", (None, ("?", "?")))  # a quotient digit 1 with no rows
    with pytest.raises(LayoutError) as from_rows:
        wrong.read()
    with pytest.raises(LayoutError) as from_text:
        parse_layout(wrong.text)
    assert str(from_rows.value) == str(from_text.value) and "no rows under it" in from_rows.value.message
