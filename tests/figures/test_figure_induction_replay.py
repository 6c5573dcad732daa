"""The induction_replay figure: each history point of the build's run, its curves and the
attention it saved, in every language."""

from __future__ import annotations

import pytest

from attention_py.figures import FIGURES
from attention_py.figures.induction import views as views
from attention_py.figures.kit.strings import Num, Text
from tests.figures.support import LANGS, parse, sentence_numbers, strings

FIGURE = FIGURES["induction_replay"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("index", [0, 10, 9999])
def test_the_readout_is_the_history_point_of_the_step(lang, index):
    data = views.data()
    root = parse(FIGURE.render({"checkpoint": index}, lang=lang, strings=strings(lang)))
    saved = data["replay"][min(index, len(data["replay"]) - 1)]
    point = next(p for p in data["history"] if p["step"] == saved["step"])
    readout = root.by_class("apy-fig__readout")[0].text
    numbers = sentence_numbers(lang)
    assert numbers.count(saved["step"]) in readout
    assert numbers.pct(100 * point["test_copied_accuracy"], 0) in readout
    assert numbers.num(views.best(point, 1, "prefix"), 2) in readout
    maps = root.by_class("apy-induction__map")
    assert len(maps) == len(saved["attention"]) * len(saved["attention"][0])  # every layer's every head
    cells = [
        float(c.text)
        for c in maps[-1].find_all(lambda e: e.has_class("apy-cell") and not e.has_class("apy-cell--masked"))
    ]
    assert cells == [w for row in saved["attention"][-1][-1] for w in row]


def test_the_replay_ends_with_the_trained_model():
    data = views.data()
    last = data["replay"][-1]
    assert last["step"] == data["settings"]["steps"] == data["history"][-1]["step"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("index", [0, 8, 9999])
def test_each_map_has_its_heads_score_at_the_step(lang, index):
    """Beside each map, its head's score in the history point of the step shown: layer 1's
    previous-token score, layer 2's prefix-matching score, in the page's digits."""
    data = views.data()
    saved = data["replay"][min(index, len(data["replay"]) - 1)]
    point = next(p for p in data["history"] if p["step"] == saved["step"])
    t = Text(strings(lang), lang, "induction_replay", ("training", "induction"))
    root = parse(FIGURE.render({"checkpoint": index}, lang=lang, strings=strings(lang)))
    written = [s.text for s in root.by_class("apy-induction__score")]
    expected = [
        parse(
            "<p>"
            + t.sentence(f"induction.score_{kind}", score=Num(point[f"test_layer{layer}.head0_{kind}"], 2))
            + "</p>"
        ).text
        for layer, kind in enumerate(("previous", "prefix"))
    ]
    assert written == expected
    assert sentence_numbers(lang).num(point["test_layer1.head0_prefix"], 2) in written[1]


def test_the_layer_2_map_rings_the_expected_cells():
    root = parse(FIGURE.render({}, lang="en", strings=strings("en")))
    first, second = root.by_class("apy-induction__map")
    ringed = [
        (i, j)
        for i, row in enumerate(second.find_all(lambda e: e.tag == "tr")[1:])
        for j, cell in enumerate(row.find_all(lambda e: e.tag == "td"))
        if cell.has_class("apy-cell--marked")
    ]
    cells = views.expected_cells(views.data()["example"]["ids"])
    assert ringed == [(i, j) for i, js in cells.items() for j in js]
    assert not [c for c in first.iter() if c.has_class("apy-cell--marked")]


@pytest.mark.parametrize("lang", LANGS)
def test_the_axes_are_in_the_pages_digits(lang):
    """The curves' ticks are written as the page's sentences write numbers (Persian digits on
    a Persian page), like the readout beside them."""
    data = views.data()
    root = parse(FIGURE.render({}, lang=lang, strings=strings(lang)))
    ticks = [e.text for e in root.iter() if e.has_class("apy-tick")]
    numbers = sentence_numbers(lang)
    top = max(p["test_copied_loss"] for p in data["history"])
    assert ticks == [
        numbers.count(0),
        numbers.num(top, 1),
        numbers.count(0),
        numbers.num(0.5, 1),
        numbers.count(1),
        numbers.count(0),
        numbers.count(data["settings"]["steps"]),
    ]
