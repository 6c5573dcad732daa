"""The reader's own pronoun puzzle: four boxes of text in, a ``Puzzle`` or a reason out.

"Train it yourself" lets the reader rewrite the puzzle in the page's language: the people,
the actions and the two groups of reasons (``actor``: the reason points at the one who acts;
``patient``: at the one acted upon), one item per line. The sentence template and the
pronoun stay the language's (the site's puzzle, ``learning.views.puzzle(lang)``).

    made = own_puzzle(site, {"people": "...", "actions": "...", "actor": "...", "patient": "..."})
    if isinstance(made, Refusal):
        message = refusal_text(made, t)      # in the page's language
    else:
        made.puzzle, made.train, made.validation, made.test
        message = ready_text(made, t)
    reader_text(site)                         # the four boxes for a puzzle (the site's, to start)

A refusal is a key of this module's ``STRINGS`` and the values its sentence needs (the
offending item, the box, the numbers), so the page says it in its own words; nothing is
raised for anything a reader can type. The checks come before ``Puzzle`` is made, in the
order a reader would fix them: each box is text, not too long, not empty, not too many
lines; each item has no markup (``< > &``), no braces (they are the template's slots; the
one exception is ``{second}`` in an action, where the language's template leaves the one
acted upon to the action, as Persian does), no invisible character but ZWNJ and ZWJ inside
a word (Persian writes «دانش‌آموز» with one), is not too long nor of too many words; a person
is one word and not the pronoun; no item twice in a box, no reason in both groups; enough
of each. Then the build's give-away check (``attention_py.learning.tasks.cues``): a puzzle whose
two groups of reasons differ in form is refused with its first cue, named in the page's
language. Last, the split (``Puzzle.split``): too few held-out sentences is refused too.

Text is tidied as ``Puzzle`` reads it (runs of spaces are one space), put in Unicode NFC, and
a ZWNJ or ZWJ at the edge of a word (invisible there) is dropped; lines left empty are
ignored. The reader's puzzle is written the way the site's is: in a language whose puzzle
file says ``spaces: false`` the reader writes without spaces too (``把{second}骂了``), and a
space only cuts a word in two where the reader wants one (``Puzzle.shown``).

Limits, and why: a reader must not be able to make the check or training take minutes. The
give-away check reads only the reasons (a tenth of a millisecond at the limits); the cost is
in the puzzle's size. Sentences are ``people x (people - 1) x actions x reasons``: at the
limits (8 people, 5 actions, 12 reasons a side) 6,720, against the English site's 1,680.
Training time grows with the sentences' length (at most 5 words an action or a reason, 40
characters an item: sentences of at most 16 words, the site's have 10) and with the
held-out sets, scored in full every ``eval_every`` steps, which grow with ``people x
(people - 1) x actions`` (1,120 sentences at the limits, the site's 672). Measured by
``.venv/bin/python -m bench own_puzzle`` (natively, CPU time; 2026-12-02, 2 cores shared
with other work; two runs, at load averages 8 and 3.7), the site's puzzle, then at the
limits: the whole check 12-20 ms, 61-84 ms; one training step 20-32 ms, 48-55 ms; one
scoring of the held-out sets 0.16-0.24 s, 0.46-0.49 s; a run of 240 steps (the longest the
figure offers) with its scorings about 7-11 s, 18-19 s. The reader's largest puzzle trains
about 2-2.6 times as long as the site's: in the page, where the site's 120 steps take about
9 s (bench/README.md), under a minute for 240.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ....learning import Puzzle
from ....learning.tasks.cues import LENGTHS, SHARED_WORD, cues
from ....learning.tasks.puzzle import SLOT_WORD, split_words
from ...kit.strings import Text, excerpt

STRINGS = tuple(
    """
    own_field_people own_field_actions own_field_actor own_field_patient own_words_separator
    own_ready own_not_text own_text_too_long own_empty own_too_many own_too_few
    own_item_too_long own_too_many_words own_markup own_braces own_action_slot own_invisible
    own_person_space own_pronoun own_duplicate own_both_groups own_cue_lengths
    own_cue_lengths_one own_cue_shared_word own_cue_shape own_split_small
    """.split()  # noqa: SIM905
)

FIELDS = ("people", "actions", "actor", "patient")  # the boxes, in the page's order
MAX_ITEMS = {"people": 8, "actions": 5, "actor": 12, "patient": 12}
# 3 people: with 2, no number of actions allowed gives MIN_HELD_OUT; 4 reasons: see ``_split``
MIN_ITEMS = {"people": 3, "actions": 1, "actor": 4, "patient": 4}
MAX_TEXT = 1000  # characters in one box, checked before anything else reads it
# What a box takes at all: the page's box cuts a longer paste there, so the reader sees the
# check's refusal of a text over MAX_TEXT under the boxes, not a figure error elsewhere.
MAX_BOX = 4 * MAX_TEXT
MAX_ITEM = 40  # characters in one item
MAX_WORDS = 5  # words in an action or a reason (a person is one)
MIN_HELD_OUT = 24  # sentences in each of the validation and test sets
MARKUP = "<>&"
BRACES = "{}"
SECOND = "{second}"
JOINERS = "\u200c\u200d"  # ZWNJ, ZWJ: letters' joining inside a word (Persian, Indic scripts)
INVISIBLE = ("Cc", "Cf", "Co", "Cs")  # control, format, private-use and surrogate characters
READERS = ("item", "word", "words")  # a refusal's values that quote the reader's own text


@dataclass(frozen=True)
class Refusal:
    """Why the reader's puzzle was not made: ``key`` (one of ``STRINGS``) and the values its
    sentence needs. A value named ``field`` is a box (one of ``FIELDS``); ints are counts;
    a ``Fraction`` is a share, written as a percentage; a tuple is a list of words."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class OwnPuzzle:
    """The reader's puzzle and how many sentences its split (``Puzzle.split``) puts in each part."""

    puzzle: Puzzle
    train: int
    validation: int
    test: int


class _Refused(Exception):
    """Carries a ``Refusal`` out of the checks (caught in ``own_puzzle``, never seen outside)."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.refusal = Refusal(key, values)


def own_puzzle(site: Puzzle, texts: Mapping[str, Any]) -> OwnPuzzle | Refusal:
    """The puzzle made of ``site``'s template and pronoun and the reader's ``texts`` (a box's
    text per name of ``FIELDS``, one item a line), or the first ``Refusal`` it meets."""
    try:
        boxes = {name: _items(name, texts.get(name) if isinstance(texts, Mapping) else None, site) for name in FIELDS}
        both = sorted(set(boxes["actor"]) & set(boxes["patient"]))
        if both:
            raise _Refused("own_both_groups", item=both[0])
        puzzle = Puzzle(
            site.template,
            site.pronoun,
            boxes["people"],
            boxes["actions"],
            boxes["actor"],
            boxes["patient"],
            spaced=site.spaced,
        )
        _no_cue(puzzle)
        return _split(puzzle)
    except _Refused as refused:
        return refused.refusal


def reader_text(puzzle: Puzzle) -> dict[str, str]:
    """The four boxes' text for ``puzzle``: one item a line (a person by its name, its form in
    the first role: the boxes have one form per person)."""
    lines = {
        "people": puzzle.people,
        "actions": puzzle.actions,
        "actor": puzzle.reasons_actor,
        "patient": puzzle.reasons_patient,
    }
    return {name: "\n".join(items) for name, items in lines.items()}


def refusal_text(refusal: Refusal, t: Text) -> str:
    """The refusal as a sentence in ``t``'s language (plain text: escape it where it is shown)."""
    return t.plain(refusal.key, **{name: _written(name, value, t) for name, value in refusal.values.items()})


def ready_text(made: OwnPuzzle, t: Text) -> str:
    """What the reader's puzzle makes: its training, validation and test sentences."""
    return t.plain("own_ready", train=t.count(made.train), validation=t.count(made.validation), test=t.count(made.test))


def _written(name: str, value: Any, t: Text) -> str:
    """A refusal's value as its sentence shows it: a box by its label, numbers in the
    language's digits, words joined by its separator; the reader's own text (``READERS``) as
    typed, but short and isolated (``excerpt``: invisible characters left out, at most
    ``EXCERPT_MAX_CHARS``), as every refusal quotes what it was given."""
    if name == "field":
        return t.plain(f"own_field_{value}")
    if isinstance(value, Fraction):
        return t.prose_numbers.pct(float(100 * value), 0)
    if isinstance(value, int):
        return t.count(value)
    written = t.plain("own_words_separator").join(value) if isinstance(value, tuple) else str(value)
    return excerpt(written) if name in READERS else written


def _items(name: str, text: Any, site: Puzzle) -> tuple[str, ...]:
    """The items of box ``name``, tidied and checked one by one, then as a list."""
    if not isinstance(text, str):
        raise _Refused("own_not_text", field=name)
    if len(text) > MAX_TEXT:
        raise _Refused("own_text_too_long", field=name, limit=MAX_TEXT)
    items = [item for item in map(_tidy, text.splitlines()) if item]
    if not items:
        raise _Refused("own_empty", field=name)
    if len(items) > MAX_ITEMS[name]:
        raise _Refused("own_too_many", field=name, limit=MAX_ITEMS[name], count=len(items))
    for item in items:
        _check_item(name, item, site)
    seen: set[str] = set()
    for item in items:
        if item in seen:
            raise _Refused("own_duplicate", field=name, item=item)
        seen.add(item)
    if len(items) < MIN_ITEMS[name]:
        raise _Refused("own_too_few", field=name, minimum=MIN_ITEMS[name], count=len(items))
    return tuple(items)


def _tidy(line: str) -> str:
    """A line as ``Puzzle`` reads it (words between single spaces), in NFC, without the
    joiners at a word's edge, where they join nothing."""
    words = (word.strip(JOINERS) for word in unicodedata.normalize("NFC", line).split())
    return " ".join(word for word in words if word)


def _check_item(name: str, item: str, site: Puzzle) -> None:
    """One tidied item of box ``name``: its length first (the rest reads it), then what no
    item may hold, then what a person, an action, a reason must be."""
    if len(item) > MAX_ITEM:
        raise _Refused("own_item_too_long", item=item[:MAX_ITEM] + "…", limit=MAX_ITEM)
    for char in item:
        if char in MARKUP:
            raise _Refused("own_markup", item=item, char=char)
        if unicodedata.category(char) in INVISIBLE and char not in JOINERS:
            raise _Refused("own_invisible", item=item, code=f"U+{ord(char):04X}")
    words = split_words(item, site.spaced)
    if name == "actions":
        _check_action(item, words, site)
    elif any(char in BRACES for char in item):
        raise _Refused("own_braces", item=item)
    if name == "people":
        if len(words) > 1:
            raise _Refused("own_person_space", item=item)
        if item == site.pronoun:
            raise _Refused("own_pronoun", item=item)
    elif len(words) > MAX_WORDS:
        raise _Refused("own_too_many_words", item=item, limit=MAX_WORDS)


def _check_action(item: str, words: list[str], site: Puzzle) -> None:
    """An action has no braces, but for one ``{second}`` (as a word of its own, punctuation
    attached allowed; in a language written without spaces, wherever it stands) when the
    language's template has none: then the action must place it."""
    leaves_second = SECOND not in site.template
    slots = 0
    for word in words:
        slot = SLOT_WORD.match(word)
        if leaves_second and slot and slot.group(2) == SECOND:
            slots += 1
        elif any(char in BRACES for char in word):
            raise _Refused("own_braces", item=item)
    if leaves_second and slots != 1:
        raise _Refused("own_action_slot", item=item, slot=SECOND)


def _no_cue(puzzle: Puzzle) -> None:
    """The build's give-away check: the first form cue of the reasons, if any, refuses."""
    found = cues(puzzle)
    if not found:
        return
    cue = found[0]
    groups = {
        "in_actor": cue.in_actor,
        "n_actor": cue.n_actor,
        "in_patient": cue.in_patient,
        "n_patient": cue.n_patient,
    }
    if cue.kind == LENGTHS:
        if cue.length == 1:
            raise _Refused("own_cue_lengths_one", **groups)
        raise _Refused("own_cue_lengths", length=cue.length, **groups)
    if cue.kind == SHARED_WORD:
        raise _Refused("own_cue_shared_word", word=cue.words[0], place=cue.place, **groups)
    raise _Refused("own_cue_shape", words=cue.words, accuracy=cue.accuracy, chance=cue.chance)


def _split(puzzle: Puzzle) -> OwnPuzzle:
    """The puzzle with its split's sizes; refused when a held-out set is too small to say
    anything (each has ``2 x people x (people - 1) x actions`` sentences, whatever the reasons).

    Why at least 4 reasons a side (``MIN_ITEMS``): the split holds out, for each person, two
    reasons of each group (one for validation, one for test; ``Puzzle.held_out_pairs``), so
    with 4 training still shows each person as the answer of half the reasons of each group.
    """
    train, validation, test = (len(part) for part in puzzle.split())
    if min(validation, test) < MIN_HELD_OUT:
        raise _Refused("own_split_small", validation=validation, test=test, minimum=MIN_HELD_OUT)
    return OwnPuzzle(puzzle, train, validation, test)
