"""induction_live: training in the page is attention_py.learning's CopyTrainer, bit for bit,
and what the figure says of a run is what the run did."""

from __future__ import annotations

import dataclasses
import itertools
import re
from pathlib import Path

import pytest

from attention_py.figures import FIGURES, Sessions, Text, update
from attention_py.figures.induction import views as views
from attention_py.figures.induction.induction_live import verdict
from attention_py.learning import CopyTask
from attention_py.learning.induction import CopyTrainer
from tests.figures.support import LANGS, parse, sentence_numbers, strings

FIGURE = FIGURES["induction_live"]
ROOT = Path(__file__).resolve().parents[2]
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


def test_a_run_is_drawn_a_few_times_a_second_whatever_its_step_rate():
    """While a run goes on, a call draws only when ``redraw_every`` seconds of the store's
    clock have passed since the last drawing and something drawn changed; the others answer
    "nothing new to draw" (html None) with the state reached. Each drawing is what drawing
    that state afresh makes, and a Pause is drawn at once."""
    now = [0.0]
    store = Sessions(clock=lambda: now[0])
    drawn = []

    def counting(shown, text, session):
        drawn.append(now[0])
        return FIGURE.draw(shown, text, session)

    figure = dataclasses.replace(FIGURE, draw=counting, budget=0.0)  # one piece a call
    clean = figure.normalise({**FIGURE.default_state("en"), "steps": 200})
    figure.drawn(clean, lang="en", strings=strings("en"), instance="live", sessions=store)
    clean = {**clean, "running": True}
    answers = []
    while clean["step"] < 3:
        now[0] += 0.1
        html, clean, _ = figure.drawn(clean, lang="en", strings=strings("en"), instance="live", sessions=store)
        answers.append(html)
        if html is not None:
            session = store.get(("induction_live", "live", "en"))
            assert html == FIGURE.frame(clean, text("en"), FIGURE.draw(clean, text("en"), session), "live")
    gaps = [later - earlier for earlier, later in itertools.pairwise(drawn[1:])]  # after Train's own drawing
    assert gaps
    assert min(gaps) >= figure.redraw_every - 1e-9, gaps
    assert answers.count(None) > 2 * (len(answers) - answers.count(None)), "most calls draw nothing"
    paused = len(drawn)
    html, clean, _ = figure.drawn(
        {**clean, "running": False}, lang="en", strings=strings("en"), instance="live", sessions=store
    )
    assert html is not None
    assert len(drawn) == paused + 1
    assert FIGURE.render(clean, lang="en", strings=strings("en"), instance="live", sessions=store) == html


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


def work_at(step):
    """An untrained trainer with the build's history up to ``step`` (what the figure reads)."""
    from attention_py.figures.kit.live import TrainingWork

    trainer = CopyTrainer(CopyTask(), 0)
    trainer.history = [dict(p) for p in views.data()["history"] if p["step"] <= step]
    trainer.step = step
    return TrainingWork(trainer)


@pytest.mark.parametrize("lang", LANGS)
def test_the_verdict_comes_the_moment_the_head_forms_while_the_run_goes_on(lang):
    from attention_py.figures.induction.induction_live import draw
    from attention_py.figures.kit.live import Session

    formed_at = views.data()["formed_at"]
    running = {**FIGURE.default_state(lang), "running": True, "steps": 400}
    said = text(lang).sentence("verdict_formed", step=formed_at)
    before = draw(running, text(lang), Session(asked=(), work=work_at(formed_at - 1)))
    assert said not in before.readout
    at = draw(running, text(lang), Session(asked=(), work=work_at(formed_at)))
    assert said in at.readout
    assert formed_at < 400


@pytest.mark.parametrize("lang", LANGS)
def test_while_it_trains_it_says_the_step_and_the_time_left_at_the_pace_measured(lang):
    from attention_py.figures.induction.induction_live import draw
    from attention_py.figures.kit.live import Session

    t = text(lang)
    running = {**FIGURE.default_state(lang), "running": True, "steps": 400}
    session = Session(asked=(), work=work_at(100))
    counter = t.sentence("status_step", step=100, steps=400)
    assert counter in draw(running, t, session).body
    assert t.sentence("time_left", seconds=24) not in draw(running, t, session).body, "no pace yet"
    session.paces.extend([(0.0, 80), (1.6, 100)])  # 0.08 s a step: 300 steps left, 24 s
    assert t.sentences(counter, t.sentence("time_left", seconds=24)) in draw(running, t, session).body
    paused = draw({**running, "running": False}, t, session).body
    assert counter not in paused


@pytest.mark.parametrize("lang", LANGS)
def test_every_experiment_the_article_links_to_has_its_faint_curve(lang):
    """Each ``#induction-train?…`` link of the article opens a recipe the build trained (the
    replay's, the one-layer control or one of ``induction_run.EXPERIMENTS``), so the live
    figure draws, faint, where the reader's run of it is going; the curve is that recipe's."""
    from urllib.parse import parse_qsl

    from attention_py.figures.induction.induction_live import RECIPE, prepared_history
    from attention_py.figures.kit.figure import address_value

    text = (ROOT / "docs" / lang / "induction.md").read_text(encoding="utf-8")
    links = re.findall(r"\(#induction-train\?([^)]*)\)", text)
    assert len(links) >= 4
    for query in links:
        state = dict(FIGURE.default_state(lang))
        for name, written in parse_qsl(query):
            state[name] = next(v for v in FIGURE.spec.fields[name].options if address_value(v) == written)
        history = prepared_history(state)
        assert history is not None, query
        trained = next(r for r in (views.data(), views.control(), *views.experiments()) if r["history"] is history)
        assert all(trained["settings"][k] == state[k] for k in RECIPE)
        assert history[-1]["step"] >= state["steps"]
