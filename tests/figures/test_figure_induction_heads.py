"""The induction_heads figure: the build's model on the reader's letters, heads switched off,
in every language: its maps, guesses and readout are the package's own numbers."""

from __future__ import annotations

import pytest

from attention_py.figures import FIGURES, Text
from attention_py.figures.induction import views as views
from attention_py.figures.induction.induction_heads import SKIPPED_SHOWN, read_letters
from attention_py.figures.kit.strings import Num
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


def test_capitals_are_read_as_their_small_letters():
    letters = views.alphabet(text("en"))
    assert read_letters("ABC abc", letters, 16) == ([0, 1, 2, 0, 1, 2], [], False)
    assert read_letters("\uff21\uff22", letters, 16)[0] == [0, 1], "full-width capitals are the letters too"
    root = drawn("en", letters="PQ PQ PQ")
    assert [c.text for c in root.by_class("apy-induction__token")] == list("pqpqpq")


def test_hebrew_final_forms_are_read_as_their_letters():
    letters = views.alphabet(text("he"))
    for final, plain in zip("םןץףך", "מנצפכ"):
        assert read_letters(final, letters, 16) == ([letters.index(plain)], [], False), final
    root = drawn("he", letters="אם אם אם")
    assert [c.text for c in root.by_class("apy-induction__token")] == list("אמאמאמ")
    assert not root.by_class("apy-induction__skipped")


def test_arabic_yeh_and_kaf_are_read_as_the_persian_letters():
    letters = views.alphabet(text("fa"))
    yeh, keheh = letters.index("ی"), letters.index("ک")
    assert read_letters("ي ك ى", letters, 16) == ([yeh, keheh, yeh], [], False)
    assert read_letters("\ufef2\ufedb", letters, 16)[0] == [yeh, keheh], "their presentation forms too"
    root = drawn("fa", letters="بي بك بي بك")
    assert [c.text for c in root.by_class("apy-induction__token")] == list("بیبکبیبک")


@pytest.mark.parametrize(
    ("lang", "typed", "left_out"),
    [("en", "ab 7 ß ab", "7 ß"), ("he", "אב ײ ש? אב", "ײ ?"), ("fa", "اب ة ٤ اب", "ة ٤"), ("fa", "ab", "a b")],
)
def test_what_is_no_letter_of_the_page_is_named_not_dropped(lang, typed, left_out):
    """Only spaces and invisible marks go unnamed: every other character that is none of
    the page's letters is listed in the note, even a letter of another language's alphabet."""
    root = drawn(lang, letters=typed)
    assert root.by_class("apy-induction__skipped")[0].text == left_out


def test_a_long_list_of_left_out_characters_says_there_are_more():
    others = "0123456789!?"
    root = drawn("en", letters="abab" + others)
    shown = root.by_class("apy-induction__skipped")[0].text.split()
    assert shown == [*others[:SKIPPED_SHOWN], "…"]


@pytest.mark.parametrize("lang", LANGS)
def test_each_map_has_its_heads_score_from_the_build(lang):
    scores = views.data()["circuit"]["scores"]
    numbers = sentence_numbers(lang)
    root = drawn(lang)
    written = [s.text for s in root.by_class("apy-induction__score")]
    assert len(written) == 2
    said = [
        parse(
            "<p>" + text(lang).sentence(f"induction.score_{kind}", score=Num(scores[kind][layer][0], 2)) + "</p>"
        ).text
        for layer, kind in enumerate(("previous", "prefix"))
    ]
    assert written == said
    assert numbers.num(scores["prefix"][1][0], 2) in written[1]


def test_layer_2s_score_is_not_claimed_while_layer_1_is_cut():
    """The build scored every head with every head on: with layer 1's head off, layer 2's
    attention reads another input, so its map keeps no score; layer 1's stays true."""
    model = views.final_model()
    off = switch_key([layer != 0 for layer, _ in heads_of(model)])
    written = [s.text for s in drawn("en", on=off).by_class("apy-induction__score")]
    assert written[0]
    assert written[1] == ""
    induction_off = switch_key([layer != 1 for layer, _ in heads_of(model)])
    assert all(s.text for s in drawn("en", on=induction_off).by_class("apy-induction__score"))


def test_the_expected_cells_are_after_each_earlier_occurrence():
    assert views.expected_cells([5, 1, 9, 5, 1, 9, 5]) == {3: [1], 4: [2], 5: [3], 6: [1, 4]}
    assert views.expected_cells([2, 2, 2]) == {1: [1], 2: [1, 2]}, "a letter repeated at once: the one after is itself"
    example = views.data()["example"]
    first, second, ids = example["first"], example["second"], example["ids"]
    cells = views.expected_cells(ids)
    assert sorted(cells) == list(range(second, len(ids))), "the copy's positions, and only they"
    assert all(i - (second - first) + 1 in cells[i] for i in cells), "the cell the prefix-matching score reads"


@pytest.mark.parametrize("lang", LANGS)
def test_the_induction_heads_map_rings_the_expected_cells_and_attends_there(lang):
    """Layer 2's map rings the cells each position should attend to, layer 1's rings none; on
    the copied positions (Copied.copied: the last position has no next letter to learn) the
    build's induction head puts most of its weight there."""
    example = views.data()["example"]
    ids = example["ids"]
    root = drawn(lang)
    first, second = root.by_class("apy-induction__map")
    assert not [c for c in first.iter() if c.has_class("apy-cell--marked")]
    rows = second.find_all(lambda e: e.tag == "tr")[1:]  # after the header
    ringed: dict[int, list[int]] = {}
    weights = {}
    for i, row in enumerate(rows):
        for j, cell in enumerate(row.find_all(lambda e: e.tag == "td")):
            if cell.has_class("apy-cell--marked"):
                ringed.setdefault(i, []).append(j)
                weights[i] = weights.get(i, 0.0) + float(cell.text)
    assert ringed == views.expected_cells(ids)
    copied = range(example["second"], len(ids) - 1)
    assert all(weights[i] > 0.8 for i in copied), weights
    assert "hidden" not in root.by_class("apy-induction__expected")[0].attrs


def test_the_readout_counts_positions_from_0_as_the_article_does():
    """The article numbers positions from 0 (the loss counts "positions 9 to 14")."""
    letters = views.alphabet(text("en"))
    typed = "".join(letters[i] for i in (5, 1, 9, 2, 7, 4, 9, 2, 7, 4))
    readout = drawn("en", letters=typed, position=3).by_class("apy-fig__readout")[0].text
    assert "at position 3 " in readout
    last = drawn("en", letters=typed).by_class("apy-fig__readout")[0].text
    assert "at position 9," in last
