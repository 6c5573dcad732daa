"""Translated figure strings: lookup while rendering, and a completeness check for the build.

Strings live in one file per language, ``docs/figure-strings/<lang>.yml``, keyed by
figure name and then by key, plus a ``common`` section shared by all figures::

    common:
      digits: "۰۱۲۳۴۵۶۷۸۹"
      decimal: "٫"
    softmax:
      title: Softmax

The package never parses YAML (Pyodide has no YAML library): the build parses the file
and passes the resulting dict, adding ``common.direction`` ("rtl" or "ltr"), which it
derives from the language code (a figure's direction is its page's; no file states it). A template may name values in braces ("{word}"); the check
makes sure every translation uses exactly the placeholders of the English original, so a
translator can reorder a sentence but cannot lose a number.

Mathematics inside a sentence goes between dollar signs ("divide by $√dₖ$"): the figure
shows it left to right, isolated from the sentence around it, so that in Hebrew or Persian
"√dₖ" does not come out as "dₖ√". Accessible names get the same text without the dollars.

A few keys may be left out, and then have a default (``OPTIONAL``): ``common.between_sentences``
is what stands between two sentences a figure writes one after the other (a readout and its
verdict), a space unless the language writes none there, as Chinese and Japanese do after
"。" (``between_sentences: ""``). ``Text.sentences`` is the one way to join them.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .format import LATIN, NUMBER_KEYS, NumberFormat, number_key_problem
from .html import el, esc

STRINGS_DIR = "docs/figure-strings"
_MATH = re.compile(r"\$([^$]+)\$")
# Keys a strings file may leave out, by section, with the value the figures use then. A file
# that says nothing keeps its figures exactly as they were before the key existed.
OPTIONAL: dict[str, dict[str, str]] = {"common": {"between_sentences": " "}}
# A sentence that quotes what the reader gave (a refused value, a part of a file) quotes at
# most this many of its characters: a refusal stays a sentence, whatever it was given.
EXCERPT_MAX_CHARS = 32
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ: Persian words need them
BETWEEN_SENTENCES_PROBLEM = (
    'must be " " (a space, as most languages write between sentences) or "" (nothing, as Chinese '
    'and Japanese write after "。")'
)


class MissingStringError(LookupError):
    """A key a figure needs is absent from a language's strings file."""


@dataclass(frozen=True)
class Num:
    """A measured value (a weight, a loss, a drift) to be placed into a sentence by
    ``Text.sentence``, which writes it with ``digits`` decimals in the prose's digits."""

    value: float
    digits: int = 2


@dataclass(frozen=True)
class Pct:
    """A percentage (``share`` already in percent units, see ``format.percent_shares``) to be
    placed into a sentence by ``Text.sentence``, in the prose's digits and percent sign."""

    share: float
    digits: int = 1


SentencePart = str | int | Num | Pct  # what ``Text.sentence`` fills a placeholder with


def strings_file(lang: str) -> str:
    """The conventional path of a language's strings file, for error messages."""
    return f"{STRINGS_DIR}/{lang}.yml"


def excerpt(text: object) -> str:
    """What a refusal may quote of ``text``: its start, without controls or invisible
    formatting (bidi overrides and isolates, zero-width spaces; ZWNJ and ZWJ stay), cut with
    "…" past ``EXCERPT_MAX_CHARS``, and isolated (U+2068 … U+2069) so that neither its
    direction nor the sentence's reorders the other. The page quotes an address's setting
    the same way (docs/widgets/figure-address.js, ``excerpt``). Reads no further into
    ``text`` than the characters it keeps (and any hidden ones between them)."""
    kept: list[str] = []
    for char in str(text):
        if unicodedata.category(char) in ("Cc", "Cf") and char not in _JOINERS:
            continue
        if len(kept) == EXCERPT_MAX_CHARS:
            kept.append("…")
            break
        kept.append(char)
    return "\u2068" + "".join(kept) + "\u2069"


def placeholders(template: str) -> set[str]:
    """The ``{names}`` a template uses; ValueError if the braces are malformed."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class Text:
    """The strings of one figure in one language, with clear errors for missing keys.

    A key is the figure's own (``"title"``) or a shared one (``"common.static_hint"``).
    ``plain`` gives text for attributes (aria-label and the like); ``html`` gives escaped
    markup and lets the caller insert ready-made fragments. A sentence that holds numbers is
    ``sentence``'s: it writes them all in the prose's digits (``Num``, ``Pct``, a count).
    Numbers elsewhere (tables, axes, controls) go through ``count`` (a whole number), ``num``
    (a measured value) and ``pct`` (a percentage), or ``numbers``, the figure's format, for
    the rest (see ``format.NumberFormat``).
    Every key looked up is remembered in ``used`` so the tests can compare it with the
    figure's declared keys.
    """

    def __init__(self, strings: Mapping[str, Any], lang: str, figure: str, shared: tuple[str, ...] = ()) -> None:
        if not isinstance(strings, Mapping):
            raise TypeError(
                f"strings must be a mapping (the parsed {strings_file(lang)}), got {type(strings).__name__}"
            )
        self.strings = strings
        self.lang = lang
        self.figure = figure
        self.shared = shared  # sections besides "common" this figure reads (and carries)
        self.used: set[str] = set()

    def _template(self, key: str) -> str:
        section, _, name = key.rpartition(".")
        section = section or self.figure
        full = f"{section}.{name}"
        self.used.add(full)
        table = self.strings.get(section)
        value = table.get(name) if isinstance(table, Mapping) else None
        if not isinstance(value, str):
            raise MissingStringError(
                f"missing figure string {full!r} for language {self.lang!r}: "
                f"add it to {strings_file(self.lang)} under {section}: {name}:"
            )
        return value

    def plain(self, key: str, **values: Any) -> str:
        """Unescaped text with ``{placeholders}`` filled in; escape it where it is used."""
        template = self._template(key).replace("$", "")
        return template.format(**values) if values else template

    def html(self, key: str, **fragments: str) -> str:
        """Escaped text; placeholders are filled with the given (already safe) markup.

        A sentence that holds numbers is ``sentence``'s: ``html`` leaves them as they come."""
        template = _MATH.sub(_math_span, esc(self._template(key)))
        return template.format(**fragments) if fragments else template

    def sentence(self, key: str, **parts: SentencePart) -> str:
        """A sentence as markup (like ``html``) whose numbers are all written one way: the
        language's prose digits (``prose_numbers``), whatever ``common.measured`` says.

        The one way to put a number into a sentence (a readout, a note, a caption): pass it
        as ``Num(value, digits)``, ``Pct(share, digits)`` or an ``int`` (a count), never
        written already. Persian writes its tables of numbers in Latin digits and its prose in
        Persian ones, and a sentence holding both ("گام ۱۲۰: زیان 0.00") reads as a mistake;
        tables keep ``num`` and ``pct``. Buttons and axes beside counts (a recipe's steps and
        rates, the induction curves) take the page's digits too, so that one row of controls
        never mixes the two. A measured value keeps its
        left-to-right span (``apy-num``), so its signs stay in place in a right-to-left
        sentence. Strings are markup, as for ``html``; a sentence part may itself be a
        ``sentence`` (a list item of a readout). (``learning.views.percent`` and
        ``measured`` with ``in_sentence=True`` do the same for train_live, until it moves here.)
        """
        return self.html(key, **{name: self.sentence_part(part) for name, part in parts.items()})

    def sentences(self, *parts: str) -> str:
        """Sentences (markup, each ``sentence`` or ``html``) one after another, as the language
        joins them: ``common.between_sentences`` between each two, a space by default."""
        return self._optional("common.between_sentences").join(parts)

    def _optional(self, key: str) -> str:
        """An ``OPTIONAL`` key's value: the file's, else its default."""
        section, _, name = key.partition(".")
        self.used.add(key)
        table = self.strings.get(section)
        value = table.get(name) if isinstance(table, Mapping) else None
        return value if isinstance(value, str) else OPTIONAL[section][name]

    def sentence_part(self, part: SentencePart) -> str:
        """One part of a ``sentence`` as markup: a number in the prose's digits, or the markup given."""
        numbers = self.prose_numbers
        if isinstance(part, (bool, float)):  # a float says no digits, a bool is no number
            raise TypeError(f"a sentence's number is a Num, a Pct or an int (a count), got {part!r}")
        if isinstance(part, int):
            return esc(numbers.count(part))
        if isinstance(part, Num):
            return _number_span(numbers.num(part.value, part.digits))
        if isinstance(part, Pct):
            return _number_span(numbers.pct(part.share, part.digits))
        return part

    @cached_property
    def prose_numbers(self) -> NumberFormat:
        """How the language writes a number in a sentence (``common.digits``, ``decimal``, ``percent``)."""
        return NumberFormat(
            digits=self.plain("common.digits"),
            decimal=self.plain("common.decimal"),
            percent=self.plain("common.percent"),
        )

    @cached_property
    def numbers(self) -> NumberFormat:
        """How the figure writes its measured values (``common.measured``): like the prose, or
        ``LATIN`` like the articles' mathematics."""
        style = self.plain("common.measured")
        problem = number_key_problem("measured", style)
        if problem:
            raise ValueError(f"common.measured {style!r} in {strings_file(self.lang)}: {problem}")
        return self.prose_numbers if style == "prose" else LATIN

    def count(self, number: int) -> str:
        """A whole number as the language writes it inside a sentence: "8 words", "۸ کلمه"."""
        return self.prose_numbers.count(number)

    def num(self, value: float, digits: int = 2) -> str:
        """A measured value (a weight, a score, a coordinate) as the figure shows it: "0.56", "0,56"."""
        return self.numbers.num(value, digits)

    def pct(self, share: float, digits: int = 1) -> str:
        """A percentage (already in percent units) as the figure shows it: "99.2%", "99,2 %"."""
        return self.numbers.pct(share, digits)

    @property
    def direction(self) -> str:
        return "rtl" if self.plain("common.direction").strip().lower() == "rtl" else "ltr"

    def subset(self) -> dict[str, Any]:
        """The sections this figure reads (its own and ``common``), for the page to keep."""
        return {
            section: dict(self.strings[section])
            for section in ("common", *self.shared, self.figure)
            if isinstance(self.strings.get(section), Mapping)
        }


def _number_span(written: str) -> str:
    return el("span", {"dir": "ltr", "class": "apy-num"}, esc(written))


def _math_span(match: re.Match[str]) -> str:
    return f'<span class="apy-math" dir="ltr">{match.group(1)}</span>'


def check_strings(
    strings: Mapping[str, Any],
    required: Mapping[str, Iterable[str]],
    *,
    source: str,
    reference: Mapping[str, Any] | None = None,
) -> list[str]:
    """Every problem with one language's strings, each naming the file and the key.

    ``required`` maps a section (a figure name or "common") to the keys it must have.
    With ``reference`` (the English strings), placeholders must match the reference's.
    Returns an empty list when all is well; the build prints the list and stops.
    """
    problems = []
    if not isinstance(strings, Mapping):
        return [f"{source}: expected a mapping of sections, got {type(strings).__name__}"]
    for section, keys in required.items():
        table = strings.get(section)
        if not isinstance(table, Mapping):
            problems.append(f"{source}: missing section {section!r}")
            continue
        for key in keys:
            value = table.get(key)
            where = f"{source}: {section}.{key}"
            if value is None:
                problems.append(f"{where}: missing")
            elif not isinstance(value, str) or not value.strip():
                problems.append(f"{where}: must be a non-empty string")
            elif section == "common" and key in NUMBER_KEYS and number_key_problem(key, value):
                problems.append(f"{where}: {number_key_problem(key, value)}")
            else:
                problems.extend(_placeholder_problems(value, where, reference, section, key))
    for section, table in strings.items():
        if section not in required:
            problems.append(f"{source}: unknown section {section!r} (neither a figure nor a section of the page)")
        elif isinstance(table, Mapping):
            optional = OPTIONAL.get(section, {})
            extra = sorted(set(table) - set(required[section]) - set(optional))
            problems.extend(f"{source}: {section}.{key}: unknown key (nothing reads it)" for key in extra)
            problems.extend(
                f"{source}: {section}.{key}: {optional_key_problem(key, table[key])}"
                for key in optional
                if key in table and optional_key_problem(key, table[key])
            )
    return problems


def optional_key_problem(key: str, value: Any) -> str | None:
    """What is wrong with ``value`` as the optional key ``key`` (of ``OPTIONAL``), or None."""
    if key == "between_sentences":
        if not isinstance(value, str) or len(value) > 1 or value.strip():
            return BETWEEN_SENTENCES_PROBLEM
        return None
    raise KeyError(f"not an optional key: {key!r}")


def _placeholder_problems(
    value: str, where: str, reference: Mapping[str, Any] | None, section: str, key: str
) -> list[str]:
    try:
        names = placeholders(value)
    except ValueError as error:
        return [f"{where}: malformed braces ({error})"]
    if reference is None:
        return []
    original = reference.get(section, {}).get(key) if isinstance(reference.get(section), Mapping) else None
    if not isinstance(original, str):
        return []
    want = placeholders(original)
    if names != want:
        return [f"{where}: uses placeholders {sorted(names)} but the English text uses {sorted(want)}"]
    return []
