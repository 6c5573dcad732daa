"""The induction_heads figure: the build's model on the reader's letters, heads switched off,
in every language: its maps, guesses and readout are the package's own numbers."""

from __future__ import annotations

import pytest

from attention_py.figures import FIGURES, Text, update
from attention_py.figures.induction import views as views
from attention_py.figures.induction.induction_heads import read_letters
from attention_py.learning.induction_run import heads_of, switch_key
from attention_py.learning.next_token import Cut
from tests.figures.support import LANGS, parse, sentence_numbers, strings

FIGURE = FIGURES["induction_heads"]


def drawn(lang: str, **state):
    return parse(FIGURE.render(state, lang=lang, strings=strings(lang)))


def text(lang: str) -> Text:
    return Text(strings(lang), lang, "induction_heads", ("training", "induction"))


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_one_letter_per_token(lang):
    letters = views.alphabet(text(lang))
    assert len(set(letters)) == views.final_model().vocabulary.__len__() == 20


@pytest.mark.parametrize("lang", LANGS)
def test_the_example_guesses_are_the_models_and_copy_the_segment(lang):
    model, letters = views.final_model(), views.alphabet(text(lang))
    ids = views.data()["example"]["ids"]
    run = model.forward(ids)
    guesses = model.guesses(run)
    root = drawn(lang)
    shown = [cell.text for cell in root.by_class("apy-induction__guess")]
    assert shown == [letters[g] for g in guesses]
    second = views.data()["example"]["second"]
    assert all(guesses[i] == ids[i + 1] for i in range(second, len(ids) - 1)), "the build's model copies the example"
    readout = root.by_class("apy-fig__readout")[0].text
    last = guesses[-1]
    numbers = sentence_numbers(lang)
    assert letters[last] in readout
    assert numbers.pct(100 * run.probabilities[-1][last], 0) in readout
    scores = views.switch_table()[views.all_on(model)]
    assert numbers.pct(100 * scores["copied_accuracy"], 0) in readout
    assert numbers.pct(100 * scores["other_accuracy"], 0) in readout


@pytest.mark.parametrize("lang", LANGS)
def test_a_head_switched_off_is_the_model_without_it(lang):
    model, letters = views.final_model(), views.alphabet(text(lang))
    typed = "".join(letters[i] for i in (5, 1, 9, 2, 7, 4, 9, 2, 7, 4, 9, 2))
    induction = views.data()["circuit"]["induction"][0]
    off = switch_key([head != (1, induction) for head in heads_of(model)])
    root = drawn(lang, letters=typed, on=off)
    ids = [letters.index(c) for c in typed]
    run = model.forward(ids, Cut(heads_off=frozenset({(1, induction)})))
    assert [c.text for c in root.by_class("apy-induction__guess")] == [letters[g] for g in model.guesses(run)]
    scores = views.switch_table()[off]
    assert sentence_numbers(lang).pct(100 * scores["copied_accuracy"], 0) in root.by_class("apy-fig__readout")[0].text
    pressed = [
        b.attrs.get("aria-pressed")
        for b in root.by_class("apy-induction__switches")[0].find_all(lambda e: e.tag == "button")
    ]
    assert pressed == ["true" if c == "1" else "false" for c in off]


def test_letters_outside_the_alphabet_are_named_and_left_out():
    letters = views.alphabet(text("en"))
    assert read_letters("a b,c\u200cd", letters, 16) == ([0, 1, 2, 3], [","], False)
    assert read_letters("ab" * 10, letters, 16)[2] is True
    root = drawn("en", letters="<b>xyz</b> abcabc")
    assert "< > x y z /" in root.by_class("apy-fig__notes")[0].text
    assert not root.find_all(lambda e: e.tag == "b"), "typed markup is shown as text"
    assert [c.text for c in root.by_class("apy-induction__token")] == list("bbabcabc")


@pytest.mark.parametrize("lang", LANGS)
def test_too_few_letters_show_the_example_and_say_so(lang):
    root = drawn(lang, letters="??")
    assert len(root.by_class("apy-induction__guess")) == len(views.data()["example"]["ids"])
    assert text(lang).plain("empty") in root.by_class("apy-fig__notes")[0].text


def test_the_page_call_refuses_a_set_of_heads_that_does_not_exist():
    answer = update("induction_heads", FIGURE.default_state("en"), {"on": "11111"}, "en", strings("en"))
    assert answer["ok"] is False
    assert answer["key"] == "on"
