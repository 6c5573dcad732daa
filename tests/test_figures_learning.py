"""The trained model's figures: their numbers are attention_py.learning's, read back from the markup.

training_replay, trained_reader and train_live read the resource ``training/<lang>`` (the
build's trained model, natively through site_hooks.content.figures.load_resource). Every
prediction, probability and attention weight they show is compared here with the model's
own ``read``/``predict`` called directly; train_live is driven through ``update`` like the
page does, and must retrace the build's training (same seed, same settings).
"""

from __future__ import annotations

import json

import pytest

from attention_py import resources
from attention_py.figures import FIGURES, update
from attention_py.figures import _learning_views as views
from attention_py.figures._format import num
from attention_py.learning import Model, Puzzle
from attention_py.resources import _PROVIDED, MissingResource, provide
from site_hooks.content.figures import load_resource
from tests.test_figures_support import LANGS, parse, skeleton, strings

NAMES = ("training_replay", "trained_reader", "train_live")


def draw(name, state=None, lang="en", instance="figure-1"):
    return parse(FIGURES[name].render(state, lang=lang, strings=strings(lang), instance=instance))


def data(lang):
    return load_resource(f"training/{lang}")


def model(lang, index):
    return Model.from_dict(data(lang)["checkpoints"][index]["model"])


def example(lang, k):
    p = Puzzle.from_dict(data(lang)["puzzle"])
    actor, patient = 0, len(p.reasons_actor)
    return [
        p.sentence(0, 0, 1, actor),
        p.sentence(0, 0, 1, patient),
        p.sentence(1, 0, 0, actor),
        p.sentence(1, 0, 0, patient),
    ][k]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_roots_name_their_resource(name, lang):
    assert draw(name, lang=lang).attrs["data-resource"] == f"training/{lang}"


def test_without_a_loader_a_figure_names_the_missing_data_and_works_once_provided():
    saved = dict(_PROVIDED)
    loader = resources._loader
    try:
        resources.set_loader(None)
        _PROVIDED.clear()
        with pytest.raises(MissingResource, match=r"assets/training/en\.json"):
            update("trained_reader", {}, {"reason": 3}, "en", strings("en"), "figure-1")
        provide("training/en", data("en"))
        assert update("trained_reader", {}, {"reason": 3}, "en", strings("en"), "figure-1")["ok"] is True
        with pytest.raises(ValueError, match="lower-case words"):
            provide("../secret", {})
    finally:
        resources.set_loader(loader)
        _PROVIDED.clear()
        _PROVIDED.update(saved)


def test_a_loader_reads_each_key_once_and_only_checked_keys():
    saved = dict(_PROVIDED)
    loader = resources._loader
    asked = []
    try:
        resources.set_loader(lambda key: asked.append(key) or {"key": key})
        _PROVIDED.clear()
        assert resources.resource("training/xx") == {"key": "training/xx"}
        assert resources.resource("training/xx") == {"key": "training/xx"}
        for bad in ("../training/en", "training/../../etc", "Training/en", "training/en.json", ""):
            with pytest.raises(ValueError, match="lower-case words"):
                resources.resource(bad)
        assert asked == ["training/xx"]
    finally:
        resources.set_loader(loader)
        _PROVIDED.clear()
        _PROVIDED.update(saved)


def cells(root, cls):
    return [
        [td.text.strip() for td in tr.children if td.tag == "td" and "apy-cell" in td.attrs.get("class", "")]
        for table in root.by_class(cls)
        for tr in table.iter()
        if tr.tag == "tr"
    ]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("checkpoint", "sentence", "view"), [(0, 0, "pronoun"), (9999, 1, "full"), (1, 3, "pronoun")])
def test_replay_maps_and_answer_are_the_checkpoints_own(lang, checkpoint, sentence, view):
    root = draw("training_replay", {"checkpoint": checkpoint, "sentence": sentence, "view": view}, lang)
    index = min(checkpoint, len(data(lang)["checkpoints"]) - 1)
    s = example(lang, sentence)
    reading = model(lang, index).read(s)
    rows = [s.pronoun] if view == "pronoun" else range(len(s.tokens))
    expected = [[num(w) for w in layer[0][i]] for layer in reading.attention for i in rows]
    assert [row for row in cells(root, "apy-replay") if row] == expected
    readout = root.by_class("apy-fig__readout")[0].text
    assert reading.probabilities[reading.prediction] >= 0
    assert num(100 * reading.probabilities[reading.prediction], 0) + "%" in readout
    assert Puzzle.from_dict(data(lang)["puzzle"]).people[reading.prediction] in readout


@pytest.mark.parametrize("lang", LANGS)
def test_reader_bars_probabilities_verdict_and_mistakes_are_the_models(lang):
    p = Puzzle.from_dict(data(lang)["puzzle"])
    final = model(lang, -1)
    for first, action, second, reason in [(0, 0, 1, 0), (2, 1, 3, len(p.reasons_actor)), (4, 0, 5, 2)]:
        root = draw("trained_reader", {"first": first, "action": action, "second": second, "reason": reason}, lang)
        s = p.sentence(first, action, second, reason)
        reading = final.read(s)
        shown = [
            [e.text for e in layer.iter() if "apy-token__weight" in e.attrs.get("class", "")]
            for layer in root.by_class("apy-layer")
        ]
        assert shown == [[num(100 * w, 0) + "%" for w in layer[0][s.pronoun]] for layer in reading.attention]
        readout = root.by_class("apy-fig__readout")[0].text
        assert f"{num(100 * reading.probabilities[reading.prediction], 1)}%" in readout
        verdict = strings(lang)["trained_reader"]["right"]
        assert (verdict in readout) == (reading.prediction == s.label)
    test = p.split(seed=data(lang)["settings"].get("split_seed", 0)).test
    wrong = [s for s in test if final.predict(s) != s.label]
    root = draw("trained_reader", None, lang)
    listed = [b.text for ul in root.by_class("apy-mistakes") for b in ul.iter() if b.tag == "button"]
    assert listed == [s.text for s in wrong[:6]]


def test_reader_never_reads_one_person_twice():
    root = draw("trained_reader", {"first": 2, "second": 2})
    sentence = root.by_class("apy-reader__sentence")[0].text
    people = Puzzle.from_dict(data("en")["puzzle"]).people
    assert people[2] in sentence
    assert people[3] in sentence


def test_train_live_retraces_the_builds_training_and_pauses_and_resets():
    lang = "en"
    saved = data(lang)
    every = saved["settings"]["checkpoint_every"]
    state = FIGURES["train_live"].default_state()
    answer = update("train_live", state, {"running": True}, lang, strings(lang), "test-live")
    assert answer["ok"]
    assert answer["state"]["running"] is True
    while answer["state"]["step"] < every:
        state = answer["state"]
        assert state["running"] is True
        answer = update("train_live", state, {}, lang, strings(lang), "test-live")
    from attention_py.figures.train_live import _TRAINERS

    trainer = _TRAINERS[("test-live", lang)].trainer
    at = next(c for c in saved["checkpoints"] if c["step"] == trainer.step) if trainer.step % every == 0 else None
    if at is not None:  # the same seed and settings give the build's model at that step
        digits = saved["settings"]["checkpoint_digits"]  # the build kept that many significant digits
        ours = trainer.model.to_dict()["parameters"]
        for name, matrix in at["model"]["parameters"].items():
            assert all(a == float(f"{b:.{digits}g}") for ra, rb in zip(matrix, ours[name]) for a, b in zip(ra, rb)), (
                name
            )
    if trainer.history[-1]["step"] > 0:  # its history points are the build's
        assert trainer.history == saved["history"][: len(trainer.history)]
    paused = update("train_live", answer["state"], {"running": False}, lang, strings(lang), "test-live")
    assert paused["state"]["running"] is False
    assert paused["state"]["step"] == answer["state"]["step"]
    again = update("train_live", paused["state"], {}, lang, strings(lang), "test-live")
    assert again["state"]["step"] == paused["state"]["step"], "a paused figure does not train"
    reset = update("train_live", again["state"], {"step": 0, "running": False}, lang, strings(lang), "test-live")
    assert reset["state"] == {**again["state"], "step": 0, "running": False}
    assert reset["html"] == FIGURES["train_live"].render(
        reset["state"], lang=lang, strings=strings(lang), instance="test-live"
    )


@pytest.mark.parametrize(
    ("name", "a", "b"),
    [
        ("training_replay", {"checkpoint": 0}, {"checkpoint": 9999, "sentence": 1}),
        ("trained_reader", {"reason": 0}, {"reason": 1, "first": 3, "second": 4}),
    ],
)
def test_structure_is_stable_across_states(name, a, b):
    html = lambda state: FIGURES[name].render(state, lang="en", strings=strings("en"))  # noqa: E731
    assert skeleton(html(a)) == skeleton(html(b))


def test_default_states_round_trip_through_json():
    for name in NAMES:
        assert json.loads(draw(name).attrs["data-state"]) == FIGURES[name].default_state()


def test_live_training_in_small_pieces_gives_runs_history_and_model():
    """train_live trains with LiveTraining.work (steps and validation/test scores cut into short
    pieces); that must be the same training as Trainer.run."""
    from attention_py.figures.train_live import LiveTraining
    from attention_py.learning import Trainer

    p = Puzzle.from_dict(data("en")["puzzle"])
    whole = Trainer(p, 0, eval_every=3, d_model=8)
    whole.run(7)
    live = LiveTraining(p, 0, eval_every=3, d_model=8)
    pieces = live.trainer
    assert pieces.history == []
    assert live.scoring
    calls = 0
    while pieces.step < 7 or live.scoring:
        live.work(7, 0.0)  # one piece per call: a step or one scored sentence
        calls += 1
    assert calls > 3 * (len(pieces.validation) + len(pieces.test))  # the scoring was cut into pieces
    assert pieces.history == whole.history
    assert pieces.step == whole.step == 7
    assert pieces.model.parameters == whole.model.parameters


def test_the_readers_mistakes_are_the_final_models_own():
    for lang in LANGS:
        d = data(lang)
        final = Model.from_dict(d["model"])
        p = Puzzle.from_dict(d["puzzle"])
        test = p.split(seed=d["settings"]["split_seed"]).test
        wrong = [s.text for s in test if final.predict(s) != s.label]
        assert [s.text for s in views.final_mistakes(lang)] == wrong
        assert views.test_size(lang) == d["test_size"] == len(test)
        assert 1 - len(wrong) / len(test) == d["history"][-1]["test_accuracy"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_readers_menus_show_words_not_slots(lang):
    html = FIGURES["trained_reader"].render(None, lang=lang, strings=strings(lang))
    assert "{second}" not in html
    assert "{first}" not in html
