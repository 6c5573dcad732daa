"""train_live's shelf of kept runs: keeping, comparing, exporting and importing runs, and the
actions that do it (attention_py/figures/README.md, "Actions"), natively."""

from __future__ import annotations

import functools
import json

import pytest

from attention_py.figures import FIGURES, update
from attention_py.figures._run_shelf import LIMIT, RunFileError, Shelf, read_run_file
from attention_py.figures._strings import Text
from tests.test_figures_learning import LIVE, live_update, run_to_end, session_of
from tests.test_figures_support import LANGS, parse, strings


def kept_answer(changes, lang="en", instance="test-shelf"):
    """The answer after opening the build's run of the recipe ``changes`` and keeping it."""
    answer = live_update({}, {**changes, "step": 0, "running": False}, lang, instance)
    return live_update(answer["state"], {"do.keep": True}, lang, instance)


def shelf_rows(html):
    return [row.attrs["data-run"] for row in parse(html).find_all(lambda e: e.tag == "tr") if "data-run" in row.attrs]


def chart_lines(html):
    chart = parse(html).by_class("apy-shelf__chart")[0]
    return [node.attrs["points"] for node in chart.find_all(lambda e: e.tag == "polyline")]


@pytest.mark.parametrize("lang", LANGS)
def test_two_kept_runs_are_listed_and_drawn_and_an_export_imports_back_identically(lang):
    instance = f"test-shelf-compare-{lang}"
    kept_answer({}, lang, instance)
    answer = kept_answer({"positions": "none"}, lang, instance)
    assert shelf_rows(answer["html"]) == ["1", "2"]
    lines = chart_lines(answer["html"])
    assert len(lines) == 2
    assert lines[0] != lines[1]
    label = parse(answer["html"]).by_class("apy-shelf__chart")[0].attrs["aria-label"]
    shelf = session_of(instance, lang).kept
    last = [k.run.history[-1]["test_accuracy"] for k in shelf.runs]
    assert last[0] > 0.9 > last[1], "the site's recipe learns; without positions it cannot"
    prose = Text(strings(lang), lang, LIVE).prose_numbers
    assert all(prose.pct(100 * share, 0) in label for share in last), "the chart's description names its numbers"
    # export run 2, forget it, import the file back: the same curves, as run 3
    exported = live_update(answer["state"], {"do.export": 2}, lang, instance)["file"]
    assert exported["name"] == f"run-2-{lang}.json"
    assert exported["type"] == "application/json"
    forgotten = live_update(answer["state"], {"do.forget": 2}, lang, instance)
    assert shelf_rows(forgotten["html"]) == ["1"]
    back = live_update(forgotten["state"], {"do.import": exported["text"]}, lang, instance)
    assert shelf_rows(back["html"]) == ["1", "3"]
    assert chart_lines(back["html"]) == lines
    assert shelf.get(3).record["history"] == json.loads(exported["text"])["history"]
    assert shelf.get(3).record["model"] == json.loads(exported["text"])["model"]


def test_a_finished_run_is_kept_by_itself_and_every_change_is_handed_to_the_page_to_store():
    instance = "test-shelf-finished"
    answer = run_to_end({"layers": 1, "steps": 60}, instance=instance)
    stored = answer["stored"]["runs"]
    assert len(stored) == 1
    assert json.loads(stored[0])["recipe"]["layers"] == 1
    again = live_update(answer["state"], {}, instance=instance)
    assert "stored" not in again, "an unchanged shelf is not sent again"
    assert shelf_rows(again["html"]) == ["1"]
    train = next(b for b in parse(again["html"]).find_all(lambda e: e.attrs.get("data-focus-key") == "train"))
    assert "disabled" not in train.attrs
    assert train.text == strings("en")[LIVE]["train_again"]
    retrained = live_update(again["state"], json.loads(train.attrs["data-set"]), instance=instance)
    assert retrained["state"]["running"] is True, "Train again: a new run of the same recipe"
    assert retrained["state"]["step"] == 0
    assert session_of(instance).previous.trainer.history == answer_history(answer, instance)
    keep = parse(again["html"]).by_class("apy-shelf")[0]
    assert any(
        b.attrs.get("data-set") == '{"do.keep":true}' and "disabled" in b.attrs
        for b in keep.find_all(lambda e: e.tag == "button")
    )


def answer_history(answer, instance):
    """The history of the run the answer's shelf kept last (the finished run)."""
    return session_of(instance).kept.runs[-1].record["history"]


def test_a_reload_restores_the_stored_runs_and_drops_those_this_build_refuses():
    answer = kept_answer({}, instance="test-shelf-before")
    files = answer["stored"]["runs"]
    fresh = update(LIVE, {}, {"do.restore": [*files, "{broken", 7]}, "en", strings("en"), "test-shelf-after")
    assert fresh["ok"]
    assert shelf_rows(fresh["html"]) == ["1"]
    assert fresh["stored"]["runs"] == files, "the page stores what was kept, the broken file goes"


def test_the_shelf_keeps_a_run_once_and_at_most_its_limit():
    record = json.loads(kept_answer({}, instance="test-shelf-limit")["stored"]["runs"][0])
    del record["format"], record["language"]
    shelf = Shelf("en")
    assert shelf.keep(record) is shelf.keep(record)
    for i in range(LIMIT + 2):
        shelf.keep({**record, "history": [*record["history"][:-1], {**record["history"][-1], "loss": i}]})
    assert len(shelf.runs) == LIMIT
    assert shelf.runs[0].number == 4


@functools.cache
def a_file() -> str:
    """The file of the build's one-layer run."""
    answer = kept_answer({"layers": 1}, "en", "test-shelf-file")
    return live_update(answer["state"], {"do.export": 1}, instance="test-shelf-file")["file"]["text"]


def edited(change):
    data = json.loads(a_file())
    change(data)
    return json.dumps(data)


BAD_FILES = {
    "not text": (None, "file_too_big", ""),
    "too large": ("x" * 1_000_001, "file_too_big", ""),
    "not JSON": ("{", "file_not_json", ""),
    "a list": ("[]", "file_not_run", ""),
    "a model file": (json.dumps({"format": "attention_py.learning.model/1"}), "file_not_run", ""),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_file_that_is_not_a_run_is_refused_saying_why(name):
    text, key, part = BAD_FILES[name]
    with pytest.raises(RunFileError) as refused:
        read_run_file(text, "en")
    assert (refused.value.key, refused.value.part) == (key, part)


EDITS = {
    "another language": (lambda d: d.update(language="fa"), "file_language", "fa"),
    "an unknown recipe value": (lambda d: d["recipe"].update(layers=3), "file_bad_part", "recipe.layers"),
    "a missing recipe key": (lambda d: d["recipe"].pop("seed"), "file_bad_part", "recipe"),
    "a history cut short": (lambda d: d["history"].pop(), "file_bad_part", "history"),
    "an accuracy above 1": (lambda d: d["history"][2].update(test_accuracy=1.5), "file_bad_part", "history[2]"),
    "a NaN loss": (lambda d: d["history"][1].update(loss=float("nan")), "file_bad_part", "history[1]"),
    "steps going back": (lambda d: d["history"][2].update(step=1), "file_bad_part", "history[2]"),
    "a step's loss missing": (lambda d: d["step_losses"].pop(), "file_bad_part", "step_losses"),
    "a negative step loss": (lambda d: d["step_losses"].__setitem__(3, -1.0), "file_bad_part", "step_losses"),
    "marks of another length": (lambda d: d["marks"].update(test="1"), "file_bad_part", "marks.test"),
    "marks that disagree with the history": (
        lambda d: d["marks"].update(test=d["marks"]["test"].replace("0", "1")),
        "file_bad_part",
        "marks.test",
    ),
    "a weight matrix of another shape": (
        lambda d: d["model"]["parameters"]["E"].pop(),
        "file_bad_part",
        "model.parameters.E",
    ),
    "a weight that is not a number": (
        lambda d: d["model"]["parameters"]["E"][0].__setitem__(0, "1"),
        "file_bad_part",
        "model.parameters.E",
    ),
    "another vocabulary": (lambda d: d["model"]["vocabulary"].reverse(), "file_bad_part", "model.vocabulary"),
}


@pytest.mark.parametrize("name", list(EDITS))
def test_an_edited_run_file_is_refused_naming_the_part(name):
    change, key, part = EDITS[name]
    with pytest.raises(RunFileError) as refused:
        read_run_file(edited(change), "en")
    assert (refused.value.key, refused.value.part) == (key, part)


@pytest.mark.parametrize("lang", LANGS)
def test_a_refused_import_changes_nothing_and_says_why_in_the_pages_language(lang):
    instance = f"test-shelf-refused-{lang}"
    answer = kept_answer({}, lang, instance)
    before = [k.number for k in session_of(instance, lang).kept.runs]
    refused = update(LIVE, answer["state"], {"do.import": "{", "running": True}, lang, strings(lang), instance)
    assert refused == {
        "ok": False,
        "error": strings(lang)[LIVE]["file_not_json"],
        "detail": "file_not_json",
        "key": "do.import",
    }
    assert [k.number for k in session_of(instance, lang).kept.runs] == before


@pytest.mark.parametrize("value", [None, "1", True, 1.5, [], {}, 99])
def test_a_hostile_export_or_forget_value_is_refused(value):
    answer = kept_answer({}, instance="test-shelf-hostile")
    for action in ("export", "forget"):
        if action == "forget" and value == 99:
            continue  # forgetting a run that is not there: nothing to do
        result = update(LIVE, answer["state"], {f"do.{action}": value}, "en", strings("en"), "test-shelf-hostile")
        assert result["ok"] is False, (action, value, result)
        assert result["key"] == f"do.{action}"


def test_an_unknown_action_or_an_action_on_a_plain_figure_is_refused_like_an_unknown_key():
    answer = update(LIVE, {}, {"do.delete_everything": 1}, "en", strings("en"), "test-shelf-unknown")
    assert answer["ok"] is False
    assert answer["key"] == "do.delete_everything"
    plain = update("softmax", FIGURES["softmax"].default_state(), {"do.keep": True}, "en", strings("en"))
    assert plain["ok"] is False
    assert plain["key"] == "do.keep"


def test_the_chart_as_a_file_carries_its_own_styles():
    answer = kept_answer({}, instance="test-shelf-svg")
    picture = live_update(answer["state"], {"do.export": "svg"}, instance="test-shelf-svg")["file"]
    assert picture["type"] == "image/svg+xml"
    assert picture["as"] == "svg"
    assert picture["text"].startswith("<?xml")
    assert "<style>" in picture["text"]
    assert "#1" in picture["text"]
    png = live_update(answer["state"], {"do.export": "png"}, instance="test-shelf-svg")["file"]
    assert png["as"] == "png"
    assert png["text"] == picture["text"], "the page draws the PNG from the same SVG"
