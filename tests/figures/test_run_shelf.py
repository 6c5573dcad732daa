"""train_live's shelf of kept runs: keeping, comparing, exporting and importing runs, and the
actions that do it (attention_py/figures/README.md, "Actions"), natively."""

from __future__ import annotations

import functools
import json
import time

import pytest

from attention_py.figures import FIGURES, update
from attention_py.figures.kit.strings import Text
from attention_py.figures.learning.training_app.shelf import LIMIT, RunFileError, Shelf, read_run_file
from tests.figures.support import LANGS, parse, strings
from tests.figures.test_figures_learning import LIVE, SESSIONS, live_update, run_to_end, session_of


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
    fresh = update(
        LIVE, {}, {"do.restore": [*files, "{broken", 7]}, "en", strings("en"), "test-shelf-after", sessions=SESSIONS
    )
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
    "a NaN loss": (lambda d: d["history"][1].update(loss=float("nan")), "file_not_finite", "history[1].loss"),
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
    refused = update(
        LIVE, answer["state"], {"do.import": "{", "running": True}, lang, strings(lang), instance, sessions=SESSIONS
    )
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
        result = update(
            LIVE, answer["state"], {f"do.{action}": value}, "en", strings("en"), "test-shelf-hostile", sessions=SESSIONS
        )
        assert result["ok"] is False, (action, value, result)
        assert result["key"] == f"do.{action}"


def test_an_unknown_action_or_an_action_on_a_plain_figure_is_refused_like_an_unknown_key():
    answer = update(LIVE, {}, {"do.delete_everything": 1}, "en", strings("en"), "test-shelf-unknown", sessions=SESSIONS)
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


def a_prepared_file(lang="en", **recipe) -> dict:
    """The record of the site's prepared run of the default recipe (changed by ``recipe``), as
    a file's JSON."""
    from attention_py.figures.learning.training_app.run import prepared_run
    from attention_py.figures.learning.training_app.shelf import FORMAT

    record = prepared_run(lang, FIGURES[LIVE].default_state(lang)).record
    return {"format": FORMAT, "language": lang, **json.loads(json.dumps(record)), **recipe}


DEEP = '{"format":' + "[" * 400_000 + "]" * 400_000 + "}"  # 800 KB: under the size limit


def test_a_deeply_nested_file_is_refused_before_any_parser_reads_it():
    from attention_py.figures.learning.training_app.reader_json import MAX_DEPTH

    started = time.perf_counter()
    with pytest.raises(RunFileError) as refused:
        read_run_file(DEEP, "en")
    assert (refused.value.key, refused.value.limit) == ("file_too_deep", MAX_DEPTH)
    assert time.perf_counter() - started < 1.0, "counted, not parsed"
    brackets_in_strings = json.dumps({"format": "[" * 400_000, "language": "{" * 100})
    with pytest.raises(RunFileError) as not_deep:
        read_run_file(brackets_in_strings, "en")
    assert not_deep.value.key == "file_not_run", "brackets inside strings are not nesting"
    escaped = '{"format": "\\"' + "[" * 100 + '"}'
    with pytest.raises(RunFileError) as quoted:
        read_run_file(escaped, "en")
    assert quoted.value.key == "file_not_run", "an escaped quote does not end the string"


@pytest.mark.parametrize("lang", LANGS)
def test_a_deeply_nested_import_is_refused_naming_the_limit_and_the_figure_goes_on(lang):
    instance = f"test-shelf-deep-{lang}"
    answer = kept_answer({}, lang, instance)
    refused = update(LIVE, answer["state"], {"do.import": DEEP}, lang, strings(lang), instance, sessions=SESSIONS)
    text = Text(strings(lang), lang, LIVE)
    assert refused["ok"] is False
    assert refused["error"] == text.plain("file_too_deep", limit=text.count(32))
    assert update(LIVE, answer["state"], {}, lang, strings(lang), instance, sessions=SESSIONS)["ok"]


NON_FINITE_FILES = {
    "an infinite last loss": (lambda d: d["history"][-1].update(loss=float("inf")), "history[6].loss"),
    "a NaN validation accuracy": (
        lambda d: d["history"][0].update(validation_accuracy=float("nan")),
        "history[0].validation_accuracy",
    ),
    "a step's loss of minus infinity": (lambda d: d["step_losses"].__setitem__(3, float("-inf")), "step_losses[3]"),
    "an infinite weight": (
        lambda d: d["model"]["parameters"]["E"][1].__setitem__(2, float("inf")),
        "model.parameters.E[1][2]",
    ),
}


@pytest.mark.parametrize("name", list(NON_FINITE_FILES))
def test_a_number_that_is_not_finite_is_refused_naming_where(name):
    change, part = NON_FINITE_FILES[name]
    with pytest.raises(RunFileError) as refused:
        read_run_file(edited(change), "en")
    assert (refused.value.key, refused.value.part) == ("file_not_finite", part)
    too_large = a_file().replace('"loss":', '"loss":1e999,"x":', 1)  # read as inf by Python's parser
    with pytest.raises(RunFileError) as overflow:
        read_run_file(too_large, "en")
    assert overflow.value.key == "file_not_finite"


@pytest.mark.parametrize("lang", LANGS)
def test_an_infinite_loss_is_refused_with_its_reason_and_the_figure_still_draws_and_trains(lang):
    instance = f"test-shelf-infinite-{lang}"
    state = live_update({}, {"steps": 120}, lang, instance)["state"]
    file = a_prepared_file(lang)
    file["history"][-1]["loss"] = float("inf")
    refused = update(LIVE, state, {"do.import": json.dumps(file)}, lang, strings(lang), instance, sessions=SESSIONS)
    text = Text(strings(lang), lang, LIVE)
    last = len(file["history"]) - 1
    assert refused["error"] == text.plain("file_not_finite", part=f"\u2068history[{last}].loss\u2069")
    assert session_of(instance, lang).kept is None or not session_of(instance, lang).kept.runs
    assert update(LIVE, state, {}, lang, strings(lang), instance, sessions=SESSIONS)["ok"], "the figure draws again"
    trained = update(LIVE, state, {"running": True}, lang, strings(lang), instance, sessions=SESSIONS)
    assert trained["ok"]
    assert trained["state"]["running"], "and trains"


def origin_lines(html):
    return [span.text for span in parse(html).by_class("apy-shelf__origin")]


@pytest.mark.parametrize("lang", LANGS)
def test_an_import_is_listed_as_the_sites_run_only_if_it_is_and_a_reload_keeps_what_it_is(lang):
    instance = f"test-shelf-origin-{lang}"
    texts = strings(lang)[LIVE]
    genuine = a_prepared_file(lang)
    claimed_seed = {**genuine, "recipe": {**genuine["recipe"], "seed": 1}}  # seed 0's numbers, said to be seed 1's
    forged = json.loads(json.dumps(genuine))
    forged["step_losses"][0] *= 1.5  # the site's recipe and history, one number changed
    state = FIGURES[LIVE].default_state(lang)
    answer = {"state": state}
    for file in (claimed_seed, forged, genuine):
        answer = update(
            LIVE, answer["state"], {"do.import": json.dumps(file)}, lang, strings(lang), instance, sessions=SESSIONS
        )
        assert answer["ok"], answer
    assert shelf_rows(answer["html"]) == ["1", "2", "3"]
    assert origin_lines(answer["html"]) == [texts["shelf_origin_imported"], texts["shelf_origin_differs"]]
    kept = session_of(instance, lang).kept.runs
    assert [k.origin for k in kept] == ["imported", "differs", None]
    assert kept[2].record == {k: v for k, v in genuine.items() if k not in ("format", "language")}
    # the site's own run is not hidden by the forged one: keeping it keeps the genuine run
    fresh = f"{instance}-keep"
    answer = update(LIVE, state, {"do.import": json.dumps(forged)}, lang, strings(lang), fresh, sessions=SESSIONS)
    assert "disabled" not in keep_button(answer["html"]).attrs
    answer = update(LIVE, answer["state"], {"do.keep": True}, lang, strings(lang), fresh, sessions=SESSIONS)
    assert [k.origin for k in session_of(fresh, lang).kept.runs] == ["differs", None]
    # a reload: the stored files come back with what each is
    stored = answer["stored"]["runs"]
    back = update(LIVE, state, {"do.restore": stored}, lang, strings(lang), f"{instance}-reloaded", sessions=SESSIONS)
    assert origin_lines(back["html"]) == [texts["shelf_origin_differs"]]
    assert json.loads(stored[0])["origin"] == "differs"
    exported = update(
        LIVE, back["state"], {"do.export": 1}, lang, strings(lang), f"{instance}-reloaded", sessions=SESSIONS
    )["file"]
    assert "origin" not in json.loads(exported["text"]), "a file says nothing of where it came from"
    claims = {**json.loads(exported["text"]), "origin": None}
    again = update(
        LIVE, state, {"do.import": json.dumps(claims)}, lang, strings(lang), f"{instance}-claims", sessions=SESSIONS
    )
    assert origin_lines(again["html"]) == [texts["shelf_origin_differs"]], "an imported file's own claim is not read"


def keep_button(html):
    return next(e for e in parse(html).find_all(lambda e: e.attrs.get("data-set") == '{"do.keep":true}'))


@pytest.mark.parametrize("lang", LANGS)
def test_a_file_whose_language_is_900_kb_is_refused_quoting_32_characters(lang):
    instance = f"test-shelf-language-{lang}"
    file = {**a_prepared_file(lang), "language": "\u202e" + "x" * 900_000}
    refused = update(LIVE, {}, {"do.import": json.dumps(file)}, lang, strings(lang), instance, sessions=SESSIONS)
    text = Text(strings(lang), lang, LIVE)
    quoted = "\u2068" + "x" * 32 + "…\u2069"
    assert refused["error"] == text.plain("file_language", language=quoted)
    assert len(json.dumps(refused, ensure_ascii=False)) < 1_000
