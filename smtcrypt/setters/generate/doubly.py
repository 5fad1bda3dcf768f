"""Doubly-true puzzles: sums (and products) of number words whose numbers are true as well,
`EIGHT + TEN + SIXTEEN + SEVENTEEN + EIGHTEEN = SIXTYNINE`, each with exactly one solution as a
cryptarithm, proved.

The words are spelled by the `num2words` library (the optional extra `smtcrypt[words]`, imported
with the first word spelled), upper-cased, with spaces, hyphens, apostrophes and commas dropped;
accents are dropped in the Latin and Greek scripts (`é` -> `E`, `ł` -> `L`, `έ` -> `Ε`), and other
scripts keep their letters as written (`Й` stays a letter of its own, as does each letter of
Devanagari or Thai with its marks, one symbol as the parser reads it).
The candidates are the choices of distinct numbers that are true (a sum of numbers in the range
onto one more number in it), enumerated with the letters so far as a bit mask and the least the
sum can reach: a choice over the base's count of letters, or over the range, is cut with every
choice under it before any digit is tried. Each candidate is then decided as any generated
puzzle is (`decide.Decider`): the column search once per key and the exact re-check (with
`confirm`, the solver's second proof); products by the solver.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING

from smtcrypt.core.letters import is_letter, spelled
from smtcrypt.core.results import Status
from smtcrypt.core.rules import Rules, rules_of
from smtcrypt.search import DEFAULT_TIMEOUT
from smtcrypt.setters.generate.decide import Decider, Setting
from smtcrypt.setters.generate.results import TALLY, Generated, Totals
from smtcrypt.setters.generate.rules import RuleOptions
from smtcrypt.setters.generate.shapes import first_of_mirror, fits
from smtcrypt.setters.generate.template import MAX_ADDENDS, Template, addend_templates, parse_template

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["CRYPTAGEN_LANGUAGES", "NumberWords", "UnknownLanguage", "WordsUnavailable", "doubly_true",
           "language_code", "languages", "number_words", "puzzle_word", "spell", "unspelled", "value_choices"]

# The languages Cryptagen (the Cryptator project's generator) offers for doubly-true puzzles.
CRYPTAGEN_LANGUAGES = ("en", "hi", "es", "fr", "ar", "ru", "pt", "id", "de", "tr", "it", "uk", "pl", "ro", "el")
INSTALL = "pip install 'smtcrypt[words]'"
SUMS = "A + B = C"  # the template of a sum onto one word; without --addends, of any number of words
# Latin letters that carry their mark in the letter itself, with no decomposition to drop it from.
PLAIN_LATIN = {"Ł": "L", "Ø": "O", "Đ": "D", "Ħ": "H", "Ŧ": "T", "Ŀ": "L", "Ɨ": "I", "Æ": "AE", "Œ": "OE",
               "Þ": "TH", "ẞ": "SS"}
ARABIC_VOWEL_MARKS = frozenset([*map(chr, range(0x064B, 0x0653)), "\u0670"])  # harakat: optional, as Latin accents


class WordsUnavailable(RuntimeError):
    """The library that spells number words is not installed."""


class UnknownLanguage(ValueError):
    """A language the library cannot spell."""


def num2words_module() -> ModuleType:
    """The `num2words` library, imported on first use: only doubly-true puzzles need it."""
    try:
        import num2words
    except ImportError:
        raise WordsUnavailable(f"doubly-true puzzles spell numbers with the num2words library: {INSTALL}") from None
    return num2words


def languages() -> list[str]:
    """The language codes the installed `num2words` spells (`en`, `pt_BR`, ...)."""
    return sorted(num2words_module().CONVERTER_CLASSES)


def unspelled() -> list[str]:
    """Cryptagen's languages the installed `num2words` cannot spell."""
    known = set(languages())
    return [code for code in CRYPTAGEN_LANGUAGES if code not in known]


def language_code(lang: str) -> str:
    """`pt-br` -> `pt_BR`: the library's code for `lang`, or UnknownLanguage naming the languages it has."""
    known = languages()
    head, _, region = lang.strip().replace("-", "_").partition("_")
    code = f"{head.lower()}_{region.upper()}" if region else head.lower()
    if code in known:
        return code
    ours = [code for code in CRYPTAGEN_LANGUAGES if code in known]
    others = [code for code in known if code not in ours]
    missing = f" (not {', '.join(unspelled())})" if unspelled() else ""
    raise UnknownLanguage(f"num2words cannot spell numbers in {lang!r}; of Cryptagen's languages it spells "
                          f"{', '.join(ours)}{missing}, and also {', '.join(others)}")


def plain_letter(base: str, marks: str) -> str:
    """One letter as a puzzle writes it: Latin and Greek lose their accents, other scripts keep
    their marks (Arabic's optional vowel marks aside)."""
    name = unicodedata.name(base, "")
    if name.startswith("LATIN"):
        return PLAIN_LATIN.get(base, base)
    if name.startswith("GREEK"):
        return base
    return base + "".join(mark for mark in marks if mark not in ARABIC_VOWEL_MARKS)


def puzzle_word(text: str) -> str:
    """A number's words as one puzzle word: `vingt-et-un` -> `VINGTETUN`, `dix-sept` -> `DIXSEPT`,
    `douăzeci și unu` -> `DOUAZECISIUNU`, `дев'ять` -> `ДЕВЯТЬ`; "" if a letter is left that no
    puzzle can hold."""
    decomposed = unicodedata.normalize("NFD", text.upper())
    letters: list[str] = []
    base, marks = "", ""
    for ch in [*decomposed, " "]:
        if unicodedata.category(ch) in ("Mn", "Mc", "Me") and base:
            marks += ch
            continue
        if base:
            letters.append(plain_letter(base, marks))
        base, marks = (ch, "") if ch.isalpha() else ("", "")
    word = spelled(unicodedata.normalize("NFC", "".join(letters).upper()))  # read by symbols: न् is one letter
    return word if word and all(is_letter(symbol) for symbol in word) else ""


def spell(value: int, lang: str) -> str:
    """`spell(69, "en")` -> `SIXTYNINE`: the number's words in `lang` as a puzzle word."""
    return puzzle_word(num2words_module().num2words(value, lang=language_code(lang)))


@dataclass
class NumberWords:
    """The numbers of a range whose words fit a puzzle, each with its word and its letters as a bit
    mask (over the letters of this run's words, whatever their script)."""

    lang: str
    words: dict[int, str]  # value -> word, for the values kept
    masks: dict[int, int]
    skipped: int = 0  # words with more letters than the puzzle can hold (or none)
    values: list[int] = field(default_factory=list)  # the kept values, ascending


def number_words(lang: str, numbers: range, most_letters: int | None = 10) -> NumberWords:
    """The words of `numbers` in `lang`; words of more than `most_letters` distinct letters are
    skipped (they cannot take distinct digits)."""
    code = language_code(lang)
    speller = num2words_module().num2words
    spelled = NumberWords(code, {}, {})
    bits: dict[str, int] = {}
    for value in numbers:
        word = puzzle_word(speller(value, lang=code))
        letters = set(word)
        if not word or (most_letters is not None and len(letters) > most_letters):
            spelled.skipped += 1
            continue
        mask = 0
        for letter in letters:
            mask |= 1 << bits.setdefault(letter, len(bits))
        spelled.words[value], spelled.masks[value] = word, mask
        spelled.values.append(value)
    return spelled


Terms = tuple[tuple[int, tuple[int, ...]], ...]  # (sign, the slots multiplied), summed


def product(sign: int, factors: tuple[int, ...], values: Sequence[int]) -> int:
    for slot in factors:
        sign *= values[slot]
    return sign


@dataclass(frozen=True)
class SlotEquation:
    """A template read as arithmetic on its slots' values (slot i is the template's i-th slot): the
    order the slots are filled in, the last one solved for from the others' values, and whether
    the left side only grows as values grow while the right is that slot alone (sums and products
    onto one word), so that a choice whose left side already passes the range is cut."""

    order: tuple[int, ...]  # slots, in the order they are filled; the last is solved for
    follows: tuple[bool, ...]  # does each slot share its group (an unordered choice) with the one before?
    terms: Terms  # left - right
    left: Terms
    monotone: bool
    solvable: bool  # the last slot is used once: the others' values give its own
    plain_sum: bool = False  # a sum of distinct slots onto the last: its least is a sum of consecutive numbers

    @classmethod
    def of(cls, template: Template) -> SlotEquation:
        order = tuple(slot for group in template.groups for slot in group)
        group_of = {slot: number for number, group in enumerate(template.groups) for slot in group}
        follows = tuple(depth > 0 and group_of[slot] == group_of[order[depth - 1]] for depth, slot in enumerate(order))
        index = {name: number for number, name in enumerate(template.slots)}
        terms = tuple((sign, tuple(index[name] for name in term.factors)) for sign, _, term in template.signed_terms())
        left = tuple((term.sign, tuple(index[name] for name in term.factors)) for term in template.left)
        last = order[-1]
        monotone = (all(sign == 1 for sign, _ in left) and terms[len(left):] == ((-1, (last,)),)
                    and all(last not in factors for _, factors in left))
        solvable = sum(factors.count(last) for _, factors in terms) == 1
        plain_sum = monotone and all(len(factors) == 1 for _, factors in left) and all(follows[1:-1])
        return cls(order, follows, terms, left, monotone, solvable, plain_sum)

    def balance(self, values: Sequence[int]) -> int:
        """left - right for these slot values (0: true)."""
        return sum(product(sign, factors, values) for sign, factors in self.terms)

    def solve_last(self, values: list[int]) -> int | None:
        """The last slot's value that makes the equation true, the others given (None if no whole
        number does); for a slot used once, whose term is then linear in it."""
        last = self.order[-1]
        values[last] = 1
        slope = next(product(sign, factors, values) for sign, factors in self.terms if last in factors)
        values[last] = 0
        rest = self.balance(values)
        if not slope or rest % slope:
            return None
        return -rest // slope

    def least_left(self, values: list[int], depth: int, index: int, ascending: Sequence[int]) -> int:
        """The least the left side can be with the slots up to `depth` chosen (the one at `depth`
        being ascending[index]): the rest of its group takes the next values, later slots the least."""
        guess = list(values)
        ahead = index
        for position in range(depth + 1, len(self.order) - 1):
            if self.follows[position] and ahead >= 0:
                ahead += 1
                guess[self.order[position]] = ascending[min(ahead, len(ascending) - 1)]
            else:
                ahead = -1
                guess[self.order[position]] = ascending[0]
        return sum(product(sign, factors, guess) for sign, factors in self.left)


class Choices:
    """The search behind `value_choices`: one template's slots filled one at a time."""

    def __init__(self, equation: SlotEquation, spelled: NumberWords, most_letters: int | None,
                 reached: list[int] | None):
        self.equation = equation
        self.ascending = spelled.values
        self.masks = spelled.masks
        self.cap = most_letters if most_letters is not None else 1 << 30  # no cap where letters may repeat digits
        self.top = max(self.ascending, default=0)
        self.last = len(equation.order) - 1
        self.chosen = [0] * len(equation.order)
        self.indices: list[int] = []
        self.reached = reached
        self.largest: dict[int, int] = {}  # letters so far -> the largest number whose word keeps them within the cap
        self.prefix = [0]  # prefix[i]: the sum of the i least numbers
        for value in self.ascending:
            self.prefix.append(self.prefix[-1] + value)

    def largest_result(self, mask: int) -> int:
        found = self.largest.get(mask)
        if found is None:
            found = self.largest[mask] = max((value for value in self.ascending
                                              if (mask | self.masks[value]).bit_count() <= self.cap), default=-1)
        return found

    def least(self, depth: int, index: int) -> int:
        """The least the left side can be with the slots up to `depth` chosen; for a plain sum, the
        numbers chosen and the next ones (past the top where too few are left)."""
        equation = self.equation
        if not equation.plain_sum:
            return equation.least_left(self.chosen, depth, index, self.ascending)
        more = self.last - 1 - depth  # addends still to choose, each larger than the one before
        if index + 1 + more > len(self.ascending):
            return self.top + 1
        chosen = sum(self.chosen[slot] for slot in equation.order[:depth + 1])
        return chosen + self.prefix[index + 1 + more] - self.prefix[index + 1]

    def finish(self, mask: int) -> Iterator[tuple[int, ...]]:
        """The last slot: solved for, or tried with every number where it is used more than once."""
        equation, chosen, order, last = self.equation, self.chosen, self.equation.order, self.last
        if self.reached is not None:
            self.reached[0] += 1
        taken = {chosen[slot] for slot in order[:last]}
        solved = equation.solve_last(chosen) if equation.solvable else None
        options = ([solved] if solved in self.masks else []) if equation.solvable else self.ascending
        for value in options:
            if value in taken or (equation.follows[last] and value <= self.ascending[self.indices[-1]]):
                continue
            if (mask | self.masks[value]).bit_count() > self.cap:
                continue
            chosen[order[last]] = value
            if equation.solvable or equation.balance(chosen) == 0:
                yield tuple(chosen)

    def fill(self, depth: int, mask: int, taken: frozenset[int]) -> Iterator[tuple[int, ...]]:
        if depth == self.last:
            yield from self.finish(mask)
            return
        equation, ascending = self.equation, self.ascending
        slot = equation.order[depth]
        for index in range(self.indices[-1] + 1 if equation.follows[depth] else 0, len(ascending)):
            value = ascending[index]
            joined = mask | self.masks[value]
            if value in taken or joined.bit_count() > self.cap:
                continue
            self.chosen[slot] = value
            if equation.monotone:
                least = self.least(depth, index)
                if least > self.top:
                    break  # the left side only grows with the value: no later one fits the range
                if least > self.largest_result(joined):
                    continue  # no number the sum could reach has a word within the letters left
            self.indices.append(index)
            yield from self.fill(depth + 1, joined, taken | {value})
            self.indices.pop()


def value_choices(equation: SlotEquation, spelled: NumberWords, most_letters: int | None = 10,
                  reached: list[int] | None = None) -> Iterator[tuple[int, ...]]:
    """The true choices of distinct numbers for the slots (in slot order), each puzzle once: the
    numbers of one group ascending, all words together within `most_letters` letters. `reached`
    counts the choices of every slot but the last (zero: no larger sum can fit either)."""
    return Choices(equation, spelled, most_letters, reached).fill(0, 0, frozenset())


def doubly_templates(shape: str | None, addends: range | None) -> list[Template]:
    """The shapes of a run with a size of sum given (`addends`) or a template (`shape`); a fixed
    word is refused (its number would be unknown)."""
    templates = addend_templates(shape or SUMS, addends) if addends is not None else [parse_template(shape or SUMS)]
    for template in templates:
        if template.fixed:
            raise ValueError(f"a doubly-true shape has slots only (single capitals), not the word "
                             f"{template.fixed[0]}: its number would be unknown")
    return templates


def all_choices(shape: str | None, addends: range | None, spelled: NumberWords,
                most_letters: int | None) -> Iterator[tuple[Template, tuple[int, ...]]]:
    """Every template's true choices; with neither `shape` nor `addends`, sums of 2, 3, ... words
    until no sum of that many distinct numbers fits the range and the letters."""
    if shape is not None or addends is not None:
        for template in doubly_templates(shape, addends):
            equation = SlotEquation.of(template)
            yield from ((template, values) for values in value_choices(equation, spelled, most_letters))
        return
    for count in range(2, MAX_ADDENDS + 1):
        template = addend_templates(SUMS, range(count, count + 1))[0]
        reached = [0]
        yield from ((template, values) for values in value_choices(SlotEquation.of(template), spelled, most_letters,
                                                                   reached))
        if not reached[0]:
            return


@dataclass
class DoublyRun:
    """What the candidates of one run share: the spelled words, the rules, a decider per shape."""

    spelled: NumberWords
    rules: Rules
    timeout: float
    confirm: bool
    deciders: dict[str, Decider] = field(default_factory=dict)

    def decider(self, template: Template) -> Decider:
        found = self.deciders.get(template.text)
        if found is None:
            setting = Setting(template.text, self.rules, self.timeout, self.confirm, distinct_words=True)
            found = self.deciders[template.text] = Decider(setting, list(self.spelled.words.values()))
        return found

    def decide(self, template: Template, values: tuple[int, ...], totals: Totals) -> Generated | None:
        """The candidate's verdict, counted; the puzzle if it is unique (proved and re-checked)."""
        parts = tuple(self.spelled.words[value] for value in values)
        decider = self.decider(template)
        if (not fits(template, parts, decider.setting.base, not decider.table.leading)
                or not first_of_mirror(template, parts) or (decider.named and not decider.holds_named(parts))):
            totals.filtered += 1  # magnitudes that cannot balance, a mirror seen once, a named letter missing
            return None
        before = TALLY.now()
        status, solution = decider.decide(parts)
        totals.add_work(TALLY.since(before))
        totals.count(status)
        if status is not Status.UNIQUE or solution is None:
            return None
        totals.by_shape[template.text] = totals.by_shape.get(template.text, 0) + 1
        return Generated(template.formula(parts), solution)


def doubly_true(lang: str, numbers: range, addends: range | None = None, *, shape: str | None = None,
                limit: int | None = None, timeout: float = DEFAULT_TIMEOUT, totals: Totals | None = None,
                progress: Callable[[Totals], None] | None = None, confirm: bool = False,
                rules: Rules | None = None, **options: Unpack[RuleOptions]) -> Iterator[Generated]:
    """Every doubly-true puzzle of number words in `lang` (a num2words code: `en`, `fr`, `ru`, ...)
    for the numbers in `numbers`, with exactly one solution, proved; `totals` is filled in.

    Without `shape` or `addends`, sums of any number of distinct words onto one more; `addends=range(2, 4)`
    keeps sums of 2 and 3 words, and `shape` is a template of slots (`A * B = C`: the numbers
    multiply). `rules` (a `Rules`), or the rule keywords, are the puzzle's rules, as for `generate`."""
    made = rules_of(rules, options)  # bad rules are refused before any work starts, and made once
    if shape is not None or addends is not None:
        doubly_templates(shape, addends)  # a bad shape is refused before any word is spelled
    totals = totals if totals is not None else Totals()
    start = time.monotonic()
    most = made.base if made.distinct else None  # groups (`made.groups`) do not cap the letters in all
    spelled = number_words(lang, numbers, most)
    totals.words, totals.skipped_words = len(numbers), spelled.skipped
    chosen = list(all_choices(shape, addends, spelled, most))
    totals.expected = totals.chunks = len(chosen)
    run = DoublyRun(spelled, made, timeout, confirm)
    found = 0
    try:
        for done, (template, values) in enumerate(chosen, 1):
            totals.by_shape.setdefault(template.text, 0)
            puzzle = run.decide(template, values, totals)
            totals.candidates = totals.chunks_done = done
            if progress is not None and (done % 256 == 0 or done == len(chosen)):
                totals.seconds = time.monotonic() - start
                progress(totals)
            if puzzle is not None:
                yield puzzle
                found += 1
                if limit is not None and found >= limit:
                    return
    finally:
        totals.seconds = time.monotonic() - start
