"""One digit convention per sentence: a figure's sentences write every number one way.

Persian writes its prose in Persian digits (۱۲۰) and the figures' tables and axes in Latin
ones (0.56, ``common.measured: latin``). A sentence that mixes the two ("گام ۱۲۰: زیان
0.00") reads as a mistake, so every number a sentence holds goes through ``Text.sentence``
(attention_py/figures/kit/strings.py), which writes it in the prose's digits. This test draws
every figure at a few states in each right-to-left language and reads its sentences: the
readout, the notes and captions under it, and the body's paragraphs, but not tables, SVG
drawings or controls, whose numbers keep the measured format.
"""

from __future__ import annotations

import re

import pytest

from attention_py.figures import FIGURES
from tests.figures.support import parse, strings
from tests.figures.test_figures_strings import TOUR

LATIN = re.compile(r"[0-9]")
PERSIAN = re.compile(r"[۰-۹]")
NOT_PROSE = {"table", "svg", "select", "option", "input", "button", "output"}
# A sentence ends at . ! ? ؟ or ؛ followed by a space (not the "." of 0.56).
SENTENCE_END = re.compile(r"(?<=[.!?؟؛])\s+")

STATES = {
    **TOUR,
    "multi_head": [{"heads": 1}, {"heads": 2}, {"heads": 4}],
    "training_replay": [{}, {"checkpoint": 0}, {"checkpoint": 3, "sentence": 1, "view": "full"}],
    "trained_reader": [{}, {"reason": 5, "first": 1, "second": 0}],
    "train_live": [{}, {"sentence": 2, "view": "full"}],
}


def prose(element) -> str:
    """The element's text without what sits in a table, a drawing or a control, or in
    mathematics (``.apy-math``: a 9×16 shape is written in Latin digits, like the articles')."""
    return "".join(
        part if isinstance(part, str) else ("" if part.tag in NOT_PROSE or part.has_class("apy-math") else prose(part))
        for part in element.parts
    )


def sentences(markup: str) -> list[str]:
    """The sentences of a drawn figure: its paragraphs' prose, split at each sentence's end."""
    root = parse(markup)
    paragraphs = root.find_all(lambda e: e.tag in {"p", "li", "caption", "figcaption"})
    found = []
    for paragraph in paragraphs:
        if any(a.tag in NOT_PROSE - {"caption"} for a in ancestors(paragraph)):
            continue
        found += [s for s in SENTENCE_END.split(" ".join(prose(paragraph).split())) if s]
    return found


def ancestors(element):
    node = element.parent
    while node is not None:
        yield node
        node = node.parent


def mixed(found: list[str]) -> list[str]:
    return [s for s in found if LATIN.search(s) and PERSIAN.search(s)]


@pytest.mark.parametrize("lang", ["fa", "he"])
@pytest.mark.parametrize("name", list(FIGURES))
def test_no_sentence_mixes_latin_and_persian_digits(name, lang):
    figure = FIGURES[name]
    seen = []
    for state in STATES.get(name, [{}]):
        markup = figure.render(state, lang=lang, strings=strings(lang), instance="digits")
        found = sentences(markup)
        seen += found
        assert mixed(found) == [], f"{name} {state} in {lang}: sentences that mix Latin and Persian digits"
    assert seen, f"{name}: no sentence found to check"


def test_the_check_finds_a_mixed_sentence():
    """The reading above sees a mixed sentence where there is one, and skips tables."""
    markup = (
        '<div class="apy-fig"><p class="apy-fig__readout">گام ۱۲۰: زیان <span dir="ltr">0.00</span>. بعدی</p>'
        "<table><caption>جدول</caption><tr><td>۱ 0.50</td></tr></table></div>"
    )
    assert mixed(sentences(markup)) == ["گام ۱۲۰: زیان 0.00."]


def test_a_sentence_writes_its_numbers_in_the_prose_digits_and_a_table_keeps_its_own():
    from attention_py.figures.kit.strings import Num, Pct, Text

    t = Text(strings("fa"), "fa", "training_replay", ("training",))
    said = t.sentence("readout", step=120, loss=Num(0.004, 2), accuracy=Pct(100, 0), word="x", probability=Pct(99.5, 0))
    assert [n in said for n in ("۱۲۰", "۰٫۰۰", "۱۰۰٪")] == [True, True, True]
    assert not LATIN.search(said)
    assert t.num(0.004, 2) == "0.00", "a table's number keeps common.measured (latin in Persian)"
    with pytest.raises(TypeError, match="Num, a Pct or an int"):
        t.sentence("readout", step=120, loss=0.004, accuracy=Pct(100, 0), word="x", probability=Pct(99.5, 0))
