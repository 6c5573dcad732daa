"""The reader's own puzzle in "Train it yourself", natively: a puzzle with a give-away is
refused naming its cue and cannot be trained; a fair one trains to the end, is kept on the
shelf, and its file imports back (the checks themselves: tests/figures/test_own_puzzle.py)."""

from __future__ import annotations

import json

import pytest

from attention_py.figures import update
from attention_py.figures.kit.strings import Text
from attention_py.figures.learning.training_app.own_puzzle import own_puzzle, refusal_text
from attention_py.figures.learning.training_app.run import OWN_SPEC
from tests.figures.support import LANGS, parse, strings
from tests.figures.test_figures_learning import LIVE, SESSIONS, live_update, session_of

ANIMALS = {"en": "cat\ndog\nfox\nowl", "he": "חתול\nכלב\nשועל\nינשוף", "fa": "گربه\nسگ\nروباه\nجغد"}


def check_line(html):
    return parse(html).by_class("apy-own__check")[0].text


def train_button(html):
    return next(e for e in parse(html).find_all(lambda e: e.attrs.get("data-focus-key") == "train"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_puzzle_with_a_giveaway_is_refused_naming_the_cue_and_cannot_be_trained(lang):
    from attention_py.figures.learning import views as views

    site = views.puzzle(lang)
    patient = [f"{reason} {reason.split()[-1]}" for reason in site.reasons_patient]  # one word longer each
    instance = f"test-own-giveaway-{lang}"
    answer = live_update({}, {"own_open": True, "data": "own", "own_patient": "\n".join(patient)}, lang, instance)
    made = own_puzzle(
        site, {"people": "", "actions": "", "actor": "", "patient": "\n".join(patient)} | _site_rest(lang)
    )
    expected = refusal_text(made, Text(strings(lang), lang, LIVE))
    assert made.key.startswith("own_cue_lengths"), made
    assert check_line(answer["html"]) == expected
    assert "disabled" in train_button(answer["html"]).attrs
    pressed = live_update(answer["state"], {"running": True}, lang, instance)
    assert pressed["state"]["running"] is False, "nothing to train"
    assert session_of(instance, lang).work.step == 0


def _site_rest(lang):
    from attention_py.figures.learning import views as views
    from attention_py.figures.learning.training_app.own_puzzle import reader_text

    texts = reader_text(views.puzzle(lang))
    return {k: texts[k] for k in ("people", "actions", "actor")}


@pytest.mark.parametrize("lang", LANGS)
def test_a_fair_puzzle_of_ones_own_trains_is_kept_and_imports_back(lang):
    instance = f"test-own-fair-{lang}"
    answer = live_update({}, {"own_open": True, "own_people": ANIMALS[lang]}, lang, instance)
    assert "disabled" not in train_button(answer["html"]).attrs
    use = next(e for e in parse(answer["html"]).find_all(lambda e: e.attrs.get("data-focus-key") == "own_use"))
    answer = live_update(answer["state"], {**json.loads(use.attrs["data-set"]), "steps": 60}, lang, instance)
    answer = live_update(answer["state"], {"running": True}, lang, instance)
    while answer["state"]["running"]:
        answer = live_update(answer["state"], {}, lang, instance)
    assert answer["state"]["step"] == 60
    people = set(session_of(instance, lang).work.trainer.puzzle.people)
    assert people == set(ANIMALS[lang].split("\n")), "trained on the reader's people"
    assert "apy-verdict" in answer["html"]
    menu = parse(answer["html"]).find_all(lambda e: e.tag == "option")
    assert any(ANIMALS[lang].split("\n")[0] in o.text for o in menu), "the maps read the reader's sentences"
    runs = answer["stored"]["runs"]
    file = json.loads(runs[-1])
    assert file["recipe"]["data"] == "own"
    assert file["recipe"]["own_people"] == ANIMALS[lang]
    fresh = update(LIVE, {}, {"do.import": runs[-1]}, lang, strings(lang), f"test-own-import-{lang}", sessions=SESSIONS)
    assert fresh["ok"], fresh
    assert session_of(f"test-own-import-{lang}", lang).kept.runs[-1].record["history"] == file["history"]


@pytest.mark.parametrize("value", [7, None, ["cat"], "x" * (OWN_SPEC["own_people"].limit + 1)])
def test_a_box_value_that_is_not_text_or_far_too_long_is_refused_like_any_bad_value(value):
    answer = update(LIVE, {}, {"own_people": value}, "en", strings("en"), "test-own-hostile", sessions=SESSIONS)
    assert answer["ok"] is False
    assert answer["key"] == "own_people"
