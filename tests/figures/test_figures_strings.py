"""Translations: every key a figure uses is declared, present in every language, and used."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager

import pytest
import yaml

from attention_py.figures import FIGURES, Sessions, required_strings
from attention_py.figures.kit.strings import OPTIONAL, Text, check_strings
from site_hooks.content.figures import GALLERY_SECTIONS, check_strings_dir, check_strings_file
from tests.figures.support import LANGS, MADE_UP, ROOT, STRINGS_DIR, saved_resources, strings

# States that between them reach every branch that picks a different string.
TOUR = {
    "embedding_space": [{}, {"words": ["car"]}],
    "weighted_average": [{}, {"w": [0, 0, 0]}],
    "dot_product": [{}, {"a": [0, 0]}, {"b": [-1, -2]}, {"b": [-1, 2]}],
    "qkv": [{"word": i} for i in range(10)],
    "attention_sentence": [{}, {"layer": 1}],
    "causal_attention": [{}, {"causal": False}, {"step": 1}, {"causal": False, "step": 5}],
    "induction_heads": [
        {},
        {"position": 3, "on": "01"},
        {"letters": "?"},
        {"letters": "ab" * 10 + "אב" * 10 + "اب" * 10},
    ],
    "information_flow": [{"table": t} for t in ("Q", "K", "V", "scores", "weights", "output")],
}


def used_keys(name: str, lang: str) -> set[str]:
    figure = FIGURES[name]
    text = Text(strings(lang), lang, name, figure.shared)
    if name in LEARNING_TOURS:
        LEARNING_TOURS[name](figure, text, lang)
        return text.used
    for state in TOUR.get(name, [{}]):
        clean = figure.normalise(state)
        figure.frame(clean, text, figure.draw(clean, text), None)
    return text.used


# The training figures: their strings depend on the trained model (right or wrong answers,
# mistakes, the end of training), so the tour also runs them on the build's training cut
# short after its first checkpoint (an untrained final model, a short run to train).


TOUR_SESSIONS = Sessions()  # the tours' running figures' work


def tour_draw(figure, text, state, instance="tour-strings", actions=None):
    panel, shown = figure.panel(figure.normalise(state), text, instance, actions or {}, TOUR_SESSIONS)
    figure.frame(shown, text, panel, instance)
    return shown


@contextmanager
def training_cut_at(lang: str, last: int | None, **changes):
    """The resource training/<lang> as if the build had stopped at checkpoint ``last``
    (None: where it did stop), with ``changes``."""
    from attention_py.resources import provide, resource

    key = f"training/{lang}"
    full = resource(key)
    cut = dict(full)
    if last is not None:
        checkpoints = full["checkpoints"][: last + 1]
        step = checkpoints[-1]["step"]
        cut = {
            **full,
            "checkpoints": checkpoints,
            "model": checkpoints[-1]["model"],
            "steps": step,
            "history": [p for p in full["history"] if p["step"] <= step],
        }
        del cut["mistakes"]  # the reader scores the held-out sentences itself
    with saved_resources():
        provide(key, {**cut, **changes})
        yield


def tour_replay(figure, text, lang):
    for state in [{}, *({"checkpoint": 0, "sentence": k} for k in range(4))]:
        tour_draw(figure, text, state)


def tour_reader(figure, text, lang):
    states = [{"reason": r, "first": f, "second": 1 - f} for r in range(8) for f in (0, 1)] + [{"second": 0}]
    for state in states:
        tour_draw(figure, text, state)
    with training_cut_at(lang, 0):
        for state in states:
            tour_draw(figure, text, state)
    with training_cut_at(lang, None, mistakes=[]):  # as if it got every held-out sentence right
        tour_draw(figure, text, {})


def tour_live(figure, text, lang):
    from attention_py.figures.learning import train_live as live

    for k in range(4):  # the untrained model: right on some sentences, wrong on others
        tour_draw(figure, text, {"sentence": k})
    with training_cut_at(lang, 1):
        state = tour_draw(figure, text, {"running": True})
        while state["step"] == 0:
            state = tour_draw(figure, text, state)
        paused = tour_draw(figure, text, {**state, "running": False})
        tour_draw(figure, text, {**paused, "step": 0})
    # another recipe: untrained, unscored; then a short cheap run to its end and its report
    state = tour_draw(figure, text, {"d_model": 8, "steps": 60})
    state = {**state, "running": True}
    while state["running"]:
        state = tour_draw(figure, text, state)
    # the shelf: the build's run kept (the site's recipe), and every reason a file is refused
    from attention_py.figures.kit.figure import ActionRefused
    from attention_py.figures.learning.training_app.shelf import FORMAT

    tour_draw(figure, text, figure.default_state(lang), actions={"keep": True})
    # the editor of the reader's own puzzle, open: not chosen yet, then chosen
    for data in ("fair", "own"):
        tour_draw(figure, text, {**figure.default_state(lang), "own_open": True, "data": data})
    deep, infinite = "[" * 40, {"language": lang, "history": [{"loss": float("inf")}]}
    for bad in (None, "{", "[]", deep, infinite, {"language": "xx"}, {"language": lang, "recipe": {"layers": 7}}):
        file = json.dumps({"format": FORMAT, **bad}) if isinstance(bad, dict) else bad
        with pytest.raises(ActionRefused):
            tour_draw(figure, text, figure.default_state(lang), actions={"import": file})
    # imported runs that are not the site's: a recipe it has no run of, and its run's numbers changed
    site_run = live.prepared_run(lang, figure.default_state(lang)).record
    other_seed = {**site_run, "recipe": {**site_run["recipe"], "seed": 1}}
    edited = {**site_run, "step_losses": [2 * x for x in site_run["step_losses"]]}
    for record in (other_seed, edited):
        file = json.dumps({"format": FORMAT, "language": lang, **record})
        tour_draw(figure, text, figure.default_state(lang), actions={"import": file})
    tour_own_puzzle(text, lang)
    # every verdict and the give-away's and no-positions' reports, on made-up scores
    end = 60
    scores = {name: made_up_scores(live) for name in ("test", "fair", "twins")}
    for recipe in ({"data": "giveaway"}, {"positions": "none"}, {"causal": True}, {}):
        chosen = live.recipe_of(figure.normalise(recipe))
        live.report(chosen, scores, text, end)
        live.report(chosen, None, text, end)
        for key in live.STRINGS:
            if not key.startswith("verdict_"):
                continue
            live.verdict_html(key, text, scores, end)


def own_puzzle_tour(pronoun: str, actor: str, slot: str) -> list[dict]:
    """Changes of the site's boxes of train_live's own puzzle, one per message (and a box per
    empty box: each names its box). The reasons in Latin letters have the same form in every
    language; ``pronoun`` and ``actor`` are the language's pronoun and actor reasons, ``slot``
    what its actions must hold ("{second} " where the template leaves that to the action)."""
    return [
        {},
        {"people": None},
        {"people": "x" * 2000},
        {"people": ""},
        {"actions": ""},
        {"actor": ""},
        {"patient": ""},
        {"people": "\n".join(f"p{k}" for k in range(9))},
        {"people": "a"},
        {"actions": "x" * 41},
        {"actions": f"{slot}a b c d e f"},
        {"actor": "<b>"},
        {"actor": "{x}"},
        {"actor": "a\u200bb"},
        {"people": "a b\nc"},
        {"people": f"a\n{pronoun}"},
        {"people": "a\na"},
        {"patient": actor},
        {"actor": "a b\nc d\ne f\ng h", "patient": "i j k\nl m n\no p q\nr s t"},  # lengths
        {"actor": "a b\nc d\ne f\ng h", "patient": "i\nj\nk\nl"},  # one-word reasons
        {"actor": "x a\nx b\nx c\nx d", "patient": "e x\nf x\ng x\nh x"},  # a shared word
        {"actor": "w v a\nb c d\nw v e\nf g h", "patient": "w i j\nk v l\nw m n\no v p"},  # a shape
        {"people": "a\nb\nc", "actions": f"{slot}c"},
    ]


def tour_own_puzzle(text, lang):
    """Every message of the reader's own puzzle, refused or made, in ``text``'s language; the
    action that must place the one acted upon on the Persian template (which leaves it to the
    action) in every language."""
    from attention_py.figures.learning import views as views
    from attention_py.figures.learning.training_app.own_puzzle import (
        Refusal,
        own_puzzle,
        reader_text,
        ready_text,
        refusal_text,
    )

    site, persian = views.puzzle(lang), views.puzzle("fa")
    boxes = reader_text(site)
    slot = "" if "{second}" in site.template else "{second} "
    tour = [(site, {**boxes, **changes}) for changes in own_puzzle_tour(site.pronoun, boxes["actor"], slot)]
    for template, texts in [*tour, (persian, {**reader_text(persian), "actions": "c"})]:
        made = own_puzzle(template, texts)
        assert (refusal_text(made, text) if isinstance(made, Refusal) else ready_text(made, text)).strip()


def made_up_scores(live):
    """7 of 10 right: the actor group's five, two of the patient group's."""
    from attention_py.figures.learning import views as views
    from attention_py.learning.train import Tally

    sentences = [s for s in views.test_sentences("en") if s.points_at == "actor"][:5]
    sentences += [s for s in views.test_sentences("en") if s.points_at == "patient"][:5]
    tally = Tally()
    for right in [True] * 7 + [False] * 3:
        tally.count(0.5, right)
    return live.Scored(tally, sentences)


def tour_induction_live(figure, text, lang):
    """Idle, running (with and without the time left), paused, done (formed, not formed, one
    layer) and the run before; the
    finished runs are the build's history cut at a step, on an untrained trainer."""
    from attention_py.figures.induction import induction_live as live
    from attention_py.figures.induction import views as views
    from attention_py.figures.kit.live import Session, TrainingWork
    from attention_py.learning import CopyTask
    from attention_py.learning.induction import CopyTrainer

    state = figure.default_state(lang)
    tour_draw(figure, text, state, "tour-induction")  # idle, the build's run faint

    def work_at(step):
        trainer = CopyTrainer(CopyTask(), 0)
        trainer.history = [dict(p) for p in views.data()["history"] if p["step"] <= step]
        trainer.step = step
        return TrainingWork(trainer)

    for states, previous in (
        ([{**state, "running": True}, {**state, "steps": 400}, {**state, "steps": 200}], None),
        ([{**state, "steps": 400}, {**state, "steps": 200, "layers": 1, "seed": 1}], work_at(100)),
    ):
        for shown in states:
            session = Session(
                asked=(), work=work_at(shown["steps"] if shown["steps"] == 200 else 200), previous=previous
            )
            if shown["steps"] == 400 and previous is not None:
                session.work = work_at(400)
            figure.frame(shown, text, live.draw(shown, text, session), None)
            if shown["running"]:  # and once its session has measured a pace: the time left
                session.paces.extend([(0.0, 100), (5.0, 200)])
                figure.frame(shown, text, live.draw(shown, text, session), None)


LEARNING_TOURS = {
    "training_replay": tour_replay,
    "trained_reader": tour_reader,
    "train_live": tour_live,
    "induction_live": tour_induction_live,
}


def test_strings_files_are_complete_and_consistent():
    assert check_strings_dir(STRINGS_DIR) == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(FIGURES))
def test_used_keys_are_exactly_the_declared_keys(name, lang):
    used = used_keys(name, lang)
    declared = {f"{name}.{k}" for k in FIGURES[name].strings}
    common = {f"common.{k}" for k in (*required_strings()["common"], *OPTIONAL["common"])}
    shared = {f"{section}.{k}" for section in FIGURES[name].shared for k in required_strings()[section]}
    assert used - declared - common - shared == set(), "keys used but not declared"
    assert declared - used == set(), "keys declared but never used (dead translations)"


def test_check_reports_missing_extra_and_placeholder_problems():
    broken = {section: dict(table) for section, table in strings("fa").items()}
    del broken["softmax"]["caption"]
    broken["softmax"]["readout"] = "{values}"  # lost {total}
    broken["softmax"]["typo"] = "x"
    broken["softmax"]["title"] = "  "
    broken["sofmax"] = {}
    broken["common"]["digits"] = "۰۱۲"
    problems = check_strings(broken, required_strings(), source="docs/figure-strings/fa.yml", reference=strings("en"))
    assert "docs/figure-strings/fa.yml: softmax.caption: missing" in problems
    assert any(p.startswith("docs/figure-strings/fa.yml: softmax.readout: uses placeholders") for p in problems)
    assert "docs/figure-strings/fa.yml: softmax.typo: unknown key (nothing reads it)" in problems
    assert "docs/figure-strings/fa.yml: softmax.title: must be a non-empty string" in problems
    assert (
        "docs/figure-strings/fa.yml: unknown section 'sofmax' (neither a figure nor a section of the page)" in problems
    )
    assert "docs/figure-strings/fa.yml: common.digits: must be the ten digits 0-9 of the language, in order" in problems


NUMBER_PROBLEMS = [
    ("digits", "0123456798", "must be the ten digits 0-9 of the language, in order"),
    ("decimal", ",,", 'must be the one character between whole and fraction: ".", "," or "٫"'),
    ("decimal", "5", 'must be the one character between whole and fraction: ".", "," or "٫"'),
    ("percent", "%", "must be {value} once and the percent sign where the language puts it"),
    ("percent", "{value}", "must be {value} once and the percent sign where the language puts it"),
    ("percent", "{value}<b>%</b>", "must be {value} once and the percent sign where the language puts it"),
    ("percent", "{value} %", "the space may break the line between the number and its sign"),
    ("measured", "persian", "must be 'prose' or 'latin'"),
]


def english_with(tmp_path, **common):
    """A strings file ``xx.yml``: the English one with ``common`` changed (a value None: the
    key removed), beside a copy of ``en.yml``; the check's problems with it."""
    (tmp_path / "en.yml").write_text((STRINGS_DIR / "en.yml").read_text(encoding="utf-8"), encoding="utf-8")
    data = yaml.safe_load((STRINGS_DIR / "en.yml").read_text(encoding="utf-8"))
    for key, value in common.items():
        if value is None:
            del data["common"][key]
        else:
            data["common"][key] = value
    where = tmp_path / "xx.yml"
    where.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return [p.replace(f"{where}: ", "xx.yml: ", 1) for p in check_strings_file(where)]


@pytest.mark.parametrize(("key", "value", "problem"), NUMBER_PROBLEMS)
def test_a_malformed_number_key_is_one_clear_problem(tmp_path, key, value, problem):
    """common.digits, decimal, percent and measured say how the language writes numbers; a
    value the figures cannot use is one line naming the file, the key and what it must be."""
    problems = english_with(tmp_path, **{key: value})
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"xx.yml: common.{key}: {problem}"), problems


@pytest.mark.parametrize("key", ["decimal", "percent", "measured"])
def test_a_missing_number_key_is_named(tmp_path, key):
    assert english_with(tmp_path, **{key: None}) == [f"xx.yml: common.{key}: missing"]


def test_a_decimal_comma_and_a_spaced_percent_sign_are_a_valid_format(tmp_path):
    """Russian, French: 0,56 and 99,2 % (a no-break space, or a narrow one, before the sign);
    Turkish puts the sign first (%99,2)."""
    for percent in ("{value}\u00a0%", "{value}\u202f%", "%{value}"):
        assert english_with(tmp_path, decimal=",", percent=percent) == []


def test_check_strings_file_names_the_file(tmp_path):
    (tmp_path / "en.yml").write_text((STRINGS_DIR / "en.yml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "xx.yml").write_text("common:\n  digits: '0123456789'\n", encoding="utf-8")
    where = tmp_path / "xx.yml"
    problems = check_strings_file(where)
    # Every figure's section and the page's section are missing, and the common keys but
    # digits (and direction, which the build derives from the language code).
    sections = [*FIGURES, *{section for f in FIGURES.values() for section in f.shared}, "page", *GALLERY_SECTIONS]
    common = [key for key in required_strings()["common"] if key not in ("direction", "digits")]
    expected = {f"{where}: missing section {section!r}" for section in sections}
    expected |= {f"{where}: common.{key}: missing" for key in common}
    assert set(problems) == expected
    assert len(problems) == len(expected), "each problem once"


def test_the_page_section_must_have_the_english_keys_and_placeholders(tmp_path):
    """The page's own strings (live cells, loading, figure host) are checked like a figure's,
    against the keys and placeholders of en.yml."""
    (tmp_path / "en.yml").write_text((STRINGS_DIR / "en.yml").read_text(encoding="utf-8"), encoding="utf-8")
    fa = yaml.safe_load((STRINGS_DIR / "fa.yml").read_text(encoding="utf-8"))  # the file, not the build's view
    del fa["page"]["stop"]
    fa["page"]["done"] = "تمام شد"  # lost {seconds}
    fa["page"]["stpo"] = "x"
    (tmp_path / "fa.yml").write_text(yaml.safe_dump(fa, allow_unicode=True), encoding="utf-8")
    problems = check_strings_file(tmp_path / "fa.yml")
    where = tmp_path / "fa.yml"
    assert f"{where}: page.stop: missing" in problems
    assert any(
        p.startswith(f"{where}: page.done: uses placeholders [] but the English text uses ['seconds']")
        for p in problems
    ), problems
    assert f"{where}: page.stpo: unknown key (nothing reads it)" in problems
    assert len(problems) == 3, problems


def test_math_between_dollars_becomes_an_isolated_ltr_span():
    text = Text({"common": {}, "x": {"title": "למה מחלקים ב-$√dₖ$"}}, "he", "x")
    assert text.html("title") == 'למה מחלקים ב-<span class="apy-math" dir="ltr">√dₖ</span>'
    assert text.plain("title") == "למה מחלקים ב-√dₖ"


def test_translations_cannot_inject_markup():
    text = Text({"common": {}, "x": {"title": '<img src=x onerror="alert(1)">'}}, "en", "x")
    assert "<img" not in text.html("title")


def test_whole_numbers_in_sentences_use_the_languages_digits():
    assert Text(strings("fa"), "fa", "x").count(2017) == "۲۰۱۷"
    assert Text(strings("he"), "he", "x").count(10) == "10"
    assert Text(strings("en"), "en", "x").count(10) == "10"


def test_each_language_writes_measured_values_as_its_strings_file_says():
    """English and Hebrew write the figures' values like their prose; Persian keeps them as
    Python prints them, like its articles' mathematics, while its prose writes ۰٫۵۶ and ۹۹٫۲٪."""
    shown = {
        lang: (Text(strings(lang), lang, "x").num(0.5612), Text(strings(lang), lang, "x").pct(99.24))
        for lang in ("en", "he", "fa")
    }
    assert shown == {"en": ("0.56", "99.2%"), "he": ("0.56", "99.2%"), "fa": ("0.56", "99.2%")}
    prose = Text(strings("fa"), "fa", "x").prose_numbers
    assert (prose.num(0.5612), prose.pct(99.24)) == ("۰٫۵۶", "۹۹٫۲٪")
    made_up = Text(strings(MADE_UP), "en", "x")
    assert (made_up.num(-0.5612), made_up.pct(99.24), made_up.numbers.join(["0,50", "1,00"])) == (
        "\u22120,56",
        "99,2\u00a0%",
        "0,50; 1,00",
    )


def test_persian_strings_write_digits_as_persian_prose_does():
    """Persian prose writes ۰ and ۱ in a sentence; Latin digits belong to the mathematics
    between dollar signs (and to the measured values the figures put in LTR spans)."""
    latin = re.compile("[0-9]")
    found = [
        f"{section}.{key}: {value}"
        for section, table in strings("fa").items()
        for key, value in table.items()
        if isinstance(value, str) and latin.search(re.sub(r"\$[^$]*\$", "", value))
    ]
    assert found == []


# Masculine present-tense forms that would make softmax masculine ("softmax הופך").
HEBREW_MASCULINE = ("הופך", "נותן", "נשאר", "מחזיר", "ממיר", "מחדד", "משטיח", "מתחדד", "מקבל", "מנרמל", "לוקח")


def test_hebrew_softmax_is_feminine_as_on_every_page():
    he = "\n".join(v for table in strings("he").values() for v in table.values() if isinstance(v, str))
    for verb in HEBREW_MASCULINE:
        assert not re.search(rf"softmax\s+{verb}(?!\w)", he, flags=re.I), f"softmax {verb}: feminine, please"
    assert "softmax הופכת" in he


# Masculine forms after a matrix's name ("$W_O$ הוא שמאפשר", "W_O מערבב"): a matrix (מטריצה) is
# feminine on every page. "הוא" alone may be another noun's ("מאיזו עמודה של $W_Q$ הוא נוצר": the cell).
MATRIX = r"W_\{?[QKVOR]\}?\$?\s+"
HEBREW_MASCULINE_AFTER_MATRIX = (
    r"הוא ש\S+",
    "מערבב",
    "שמאפשר",
    "מאפשר",
    "נותן",
    "הופך",
    "מחזיר",
    "לומד",
    "ממיר",
    "מקבל",
    "מכפיל",
    "קובע",
    "יוצר",
)


def test_hebrew_matrices_are_feminine_on_every_page():
    masculine = re.compile(MATRIX + "(?:" + "|".join(HEBREW_MASCULINE_AFTER_MATRIX) + r")(?![\u0590-\u05FF])")
    found = [
        f"{where}: …{text[max(m.start() - 20, 0) : m.end() + 20]}…"
        for where, text in texts_of("he").items()
        for m in masculine.finditer(text)
    ]
    assert found == [], "a matrix is feminine: $W_O$ היא שמאפשרת, W_O מערבבת"
    assert masculine.search("ו־$W_O$ מערבב אותם")
    assert masculine.search("$W_O$ הוא שמאפשר")
    assert not masculine.search("W_O מערבבת ביניהם")
    assert not masculine.search("של $W_Q$ הוא נוצר")


# One word per idea: where a language's glossary (docs/<lang>/glossary.md) fixes the word for
# an idea, the figure strings and the pages use it, not a synonym. Each row: the language, the
# glossary's word (which must still be in its glossary, or the row is stale), and a synonym
# that must not appear. The English name of a term may follow its word in parentheses, as a
# gloss ("קשב עצמי (self-attention)"), but is not used instead of it.
# "self-attention" by itself, not as a gloss "(self-attention)" nor in an anchor or an address.
ENGLISH_NAME = r"(?<![(#/\w-])self-attention(?![)\w-])"
GLOSSARY_WORDS = [
    ("fa", "درایه", "مؤلفه"),  # entry (of a vector)
    ("he", "תכונה", "מאפיינ|מאפיין"),  # feature
    ("he", "ממד", "מימד"),  # dimension
    ("he", "קשב עצמי", ENGLISH_NAME),  # the English name as the heading's word
    ("fa", "خودتوجهی", ENGLISH_NAME),
    ("he", "פעפוע לאחור", "התפשטות לאחור"),  # backpropagation
    ("he", "שיכון מיקום", "קידוד מיקום"),  # position embedding
    ("he", "הוגן", "מדד ישר|מדידה ישרה"),  # the fair measure
    ("fa", "تعبیهٔ موقعیت", "رمزگذاری موقعیت"),  # position embedding
    ("fa", "کلمه", r"واژه(?!\u200cنامه|نامه)"),  # word (واژه‌نامه, the glossary, is another word)
    ("fa", "لایهٔ خودتوجه", "لایهٔ خودتوجهی"),  # the adjective: a self-attention layer
]


def glossary_text(lang: str) -> str:
    return (ROOT / "docs" / lang / "glossary.md").read_text(encoding="utf-8")


def texts_of(lang: str) -> dict[str, str]:
    """Where the words are read: the figure strings and the pages and notebooks, but the glossary."""
    found = {
        f"docs/figure-strings/{lang}.yml {section}.{key}": value
        for section, table in strings(lang).items()
        for key, value in table.items()
        if isinstance(value, str)
    }
    folder = ROOT / "docs" / lang
    for path in sorted([*folder.glob("*.md"), *folder.glob("notebooks/*.ipynb")]):
        if path.name != "glossary.md":
            found[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return found


@pytest.mark.parametrize(("lang", "word", "synonym"), GLOSSARY_WORDS)
def test_figure_strings_and_pages_use_the_glossarys_word(lang, word, synonym):
    assert word in glossary_text(lang), (
        f"docs/{lang}/glossary.md no longer uses {word!r}: update GLOSSARY_WORDS in {__file__}"
    )
    pattern = re.compile(synonym, flags=re.I)
    offending = [
        f"{where}: …{text[max(m.start() - 30, 0) : m.end() + 30]}…"
        for where, text in texts_of(lang).items()
        for m in [pattern.search(text)]
        if m
    ]
    assert offending == [], f"the glossary's word is {word!r}, not {synonym!r}"


def test_the_glossary_words_check_finds_a_synonym():
    pattern = re.compile(GLOSSARY_WORDS[0][2], flags=re.I)
    assert pattern.search(strings("fa")["information_flow"]["explain_q"].replace("درایه", "مؤلفه"))
    english_name = re.compile(GLOSSARY_WORDS[3][2], flags=re.I)
    assert english_name.search("## Self-attention בגרסה פשוטה")
    assert not english_name.search("קשב עצמי (self-attention) בגרסה מפושטת { #self-attention-simple }")
    assert not english_name.search("[קשב עצמי](glossary.md#self-attention)")
