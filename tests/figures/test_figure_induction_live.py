"""induction_live: training in the page is attention_py.learning's CopyTrainer, bit for bit,
and what the figure says of a run is what the run did."""

from __future__ import annotations

import dataclasses

import pytest

from attention_py.figures import FIGURES, Sessions, Text, update
from attention_py.figures.induction import views as views
from attention_py.figures.induction.induction_live import verdict
from attention_py.learning import CopyTask
from attention_py.learning.induction import CopyTrainer
from tests.figures.support import LANGS, parse, sentence_numbers, strings

FIGURE = FIGURES["induction_live"]
SESSIONS = Sessions()  # this module's running figures' work; cleared: a fresh Python


def text(lang: str) -> Text:
    return Text(strings(lang), lang, "induction_live", ("training", "induction"))


def test_training_in_the_figure_is_the_trainers_to_the_last_bit():
    SESSIONS.clear()
    state = {**FIGURE.default_state("en"), "seed": 1, "heads": 1, "steps": 200}
    answer = update("induction_live", state, {"running": True}, "en", strings("en"), "live", sessions=SESSIONS)
    history = SESSIONS.get(("induction_live", "live", "en")).work.training.history
    while not history or history[-1]["step"] < 20:  # the step and its history point
        answer = update("induction_live", answer["state"], {}, "en", strings("en"), "live", sessions=SESSIONS)
    answer = update(
        "induction_live", answer["state"], {"running": False}, "en", strings("en"), "live", sessions=SESSIONS
    )
    work = SESSIONS.get(("induction_live", "live", "en")).work
    reference = CopyTrainer(CopyTask(), 1, heads=1)
    reference.run(work.step)
    assert work.training.history == reference.history
    assert work.training.model.parameters == reference.model.parameters
    readout = parse(answer["html"]).by_class("apy-fig__readout")[0].text
    point = reference.history[-1]
    assert sentence_numbers("en").pct(100 * point["test_copied_accuracy"], 0) in readout
    SESSIONS.clear()


def test_a_call_that_ends_inside_a_step_gives_the_last_drawing_without_drawing_again():
    """A step is many calls' work: those that end inside it draw nothing new, so the figure
    answers with the drawing it made, which is what drawing again would make."""
    SESSIONS.clear()
    drawn = []

    def counting(shown, text, session):
        drawn.append(shown["step"])
        return FIGURE.draw(shown, text, session)

    figure = dataclasses.replace(FIGURE, draw=counting, budget=0.0)  # one piece a call
    clean = figure.normalise({**FIGURE.default_state("en"), "running": True, "steps": 200})
    answers = []
    while len(answers) < 2 or answers[-1][1]["step"] < 2:
        html, clean, _ = figure.drawn(clean, lang="en", strings=strings("en"), instance="live", sessions=SESSIONS)
        session = SESSIONS.get(("induction_live", "live", "en"))
        fresh = FIGURE.frame(clean, text("en"), FIGURE.draw(clean, text("en"), session), "live")
        answers.append((html, clean))
        assert html == fresh
    assert len(answers) > 2 * len(drawn) > 0, (len(answers), drawn)
    assert len(drawn) <= 2 * len(set(drawn)), "a step is drawn when reached and when its history point is added"
    SESSIONS.clear()


@pytest.mark.parametrize("lang", LANGS)
def test_the_verdict_is_the_runs(lang):
    history = views.data()["history"]
    numbers = sentence_numbers(lang)
    assert numbers.count(views.data()["formed_at"]) in verdict(history, 2, text(lang))
    early = [p for p in history if p["step"] <= 200]
    assert verdict(early, 2, text(lang)) == text(lang).sentence("verdict_not_formed", steps=200)
    one = views.control()["history"]
    assert verdict(one, 1, text(lang)) == text(lang).sentence(
        "verdict_one_layer", steps=views.control()["settings"]["steps"]
    )


@pytest.mark.parametrize("lang", LANGS)
def test_untouched_it_shows_where_the_builds_recipe_goes(lang):
    SESSIONS.clear()
    root = parse(FIGURE.render(None, lang=lang, strings=strings(lang), instance="induction-train", sessions=SESSIONS))
    faint = [e for e in root.iter() if e.has_class("apy-curve--previous")]
    assert faint
    assert faint[0].attrs.get("visibility") is None
    other = parse(
        FIGURE.render({"seed": 2}, lang=lang, strings=strings(lang), instance="induction-train", sessions=SESSIONS)
    )
    assert next(e for e in other.iter() if e.has_class("apy-curve--previous")).attrs.get("visibility") == "hidden"
    SESSIONS.clear()


def test_the_link_to_one_layer_shows_where_the_builds_one_layer_run_went():
    """The article's link to one layer opens the recipe of the build's control: its curve is
    drawn faint until the reader trains, point for point."""
    SESSIONS.clear()
    root = parse(
        FIGURE.render({"layers": 1}, lang="en", strings=strings("en"), instance="induction-train", sessions=SESSIONS)
    )
    faint = next(e for e in root.iter() if e.has_class("apy-curve--previous"))
    assert faint.attrs.get("visibility") is None
    assert len(faint.attrs["points"].split()) == len(views.control()["history"])
    SESSIONS.clear()


def test_a_link_opens_a_recipe():
    assert FIGURE.address({**FIGURE.default_state("en"), "layers": 1}, "induction-train") == "#induction-train?layers=1"


@pytest.mark.parametrize("name", ["train_live", "induction_live"])
def test_a_fresh_python_brings_a_run_back_paused_at_step_0(name):
    """A reload (or a replaced worker) keeps the page's state, `running` and the step
    reached, but the new Python has no run: the figure comes back paused at step 0, as its
    docstring says, and Train starts it from there. Train on an untouched figure runs at once."""
    SESSIONS.clear()
    figure = FIGURES[name]
    state = {**figure.default_state("en"), "running": True}
    answer = update(name, state, {}, "en", strings("en"), "live", sessions=SESSIONS)
    assert answer["state"]["running"] is True, "Train on a figure at step 0 runs"
    SESSIONS.clear()  # the reload: a fresh Python
    answer = update(
        name, {**answer["state"], "running": True, "step": 57}, {}, "en", strings("en"), "live", sessions=SESSIONS
    )
    assert (answer["state"]["running"], answer["state"]["step"]) == (False, 0)
    answer = update(name, answer["state"], {"running": True}, "en", strings("en"), "live", sessions=SESSIONS)
    assert answer["state"]["running"] is True
    SESSIONS.clear()


@pytest.mark.parametrize("lang", LANGS)
def test_buttons_and_axes_are_in_the_pages_digits_and_one_order(lang):
    """Issue 45: the step buttons, the learning-rate buttons and the axes write their numbers
    alike, in the page's digits, and every group of buttons runs in the page's direction
    (none turned left to right on its own)."""
    numbers = sentence_numbers(lang)
    root = parse(FIGURE.render(None, lang=lang, strings=strings(lang), sessions=Sessions()))
    groups = {}
    for group in root.by_class("apy-seg"):
        buttons = group.find_all(lambda e: e.tag == "button")
        key = buttons[0].attrs["data-focus-key"].split(":")[0]
        groups[key] = ([b.text for b in buttons], group.by_class("apy-seg__buttons")[0].attrs.get("dir"))
    assert groups["steps"][0] == [numbers.count(v) for v in (200, 400, 1000)]
    assert groups["learning_rate"][0] == [numbers.num(v, 2) for v in (0.01, 0.02, 0.03)]
    assert {direction for _, direction in groups.values()} == {None}
    ticks = [e.text for e in root.iter() if e.has_class("apy-tick")]
    assert ticks[-1] == numbers.count(400)
    assert numbers.num(0.5, 1) in ticks


def test_each_map_has_its_score_from_the_last_history_point_and_says_its_step():
    SESSIONS.clear()
    state = {**FIGURE.default_state("en"), "steps": 200}
    answer = update("induction_live", state, {"running": True}, "en", strings("en"), "live", sessions=SESSIONS)
    work = SESSIONS.get(("induction_live", "live", "en")).work
    while work.step < 21:
        answer = update("induction_live", answer["state"], {}, "en", strings("en"), "live", sessions=SESSIONS)
    answer = update(
        "induction_live", answer["state"], {"running": False}, "en", strings("en"), "live", sessions=SESSIONS
    )
    point = work.training.history[-1]
    assert point["step"] != work.step
    written = [s.text for s in parse(answer["html"]).by_class("apy-induction__score")]
    numbers = sentence_numbers("en")
    assert numbers.num(point["test_layer0.head0_previous"], 2) in written[0]
    assert numbers.num(point["test_layer1.head0_prefix"], 2) in written[1]
    assert all(f"step {point['step']}" in w for w in written)
    SESSIONS.clear()
