"""The induction_replay figure: each history point of the build's run, its curves and the
attention it saved, in every language."""

from __future__ import annotations

import pytest

from attention_py.figures import FIGURES
from attention_py.figures.induction import views as views
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
