"""The reader's own puzzle (attention_py/figures/learning/training_app/own_puzzle.py): the site's puzzle written in
the boxes gives the same puzzle back, in every language; bad or hostile text is refused with
the key of a translated message and the values it names, before ``Puzzle`` could raise; a
puzzle with a give-away is refused naming its cue, in the page's language."""

from __future__ import annotations

from fractions import Fraction

import pytest

from attention_py.figures.kit.strings import Text, excerpt
from attention_py.figures.learning import views as views
from attention_py.figures.learning.training_app.own_puzzle import (
    FIELDS,
    MAX_ITEM,
    MAX_ITEMS,
    MAX_TEXT,
    MAX_WORDS,
    MIN_HELD_OUT,
    OwnPuzzle,
    Refusal,
    own_puzzle,
    reader_text,
    ready_text,
    refusal_text,
)
from attention_py.learning import Puzzle
from tests.figures.support import LANGS, strings

ZWNJ = "\u200c"


def site_boxes(lang: str) -> dict[str, str]:
    return reader_text(views.puzzle(lang))


def made(lang: str, **boxes) -> OwnPuzzle | Refusal:
    """The reader's puzzle in ``lang``: the site's boxes with ``boxes`` changed."""
    return own_puzzle(views.puzzle(lang), {**site_boxes(lang), **boxes})


def text(lang: str) -> Text:
    return Text(strings(lang), lang, "train_live")


@pytest.mark.parametrize("lang", LANGS)
def test_the_sites_puzzle_written_in_the_boxes_is_the_sites_puzzle(lang):
    site = views.puzzle(lang)
    result = own_puzzle(site, reader_text(site))
    assert isinstance(result, OwnPuzzle), result
    assert result.puzzle.to_dict() == site.to_dict()
    assert [s.tokens for s in result.puzzle.sentences()] == [s.tokens for s in site.sentences()]
    assert (result.train, result.validation, result.test) == tuple(len(part) for part in site.split())
    assert ready_text(result, text(lang)) == text(lang).plain(
        "own_ready",
        train=text(lang).count(result.train),
        validation=text(lang).count(result.validation),
        test=text(lang).count(result.test),
    )


def test_the_english_site_split_is_reported_in_each_languages_digits():
    result = made("en")
    assert ready_text(result, text("en")) == (
        "Your puzzle makes 1008 sentences to train on, 336 validation sentences and 336 test sentences."
    )
    fa = made("fa")
    assert "۱۰۰۸" in ready_text(fa, text("fa"))
    assert "1008" not in ready_text(fa, text("fa"))


def test_spaces_and_blank_lines_are_tidied_as_the_puzzle_reads_them():
    boxes = site_boxes("en")
    messy = {
        name: "\n\n".join(f"  {line.replace(' ', '   ')}\t" for line in value.splitlines()) + "\n"
        for name, value in boxes.items()
    }
    result = own_puzzle(views.puzzle("en"), {**messy, "actions": messy["actions"].replace("\n", "\r\n")})
    assert isinstance(result, OwnPuzzle), result
    assert result.puzzle.to_dict() == views.puzzle("en").to_dict()


def test_a_persian_zwnj_inside_a_word_is_kept_and_at_its_edge_dropped():
    people = site_boxes("fa")["people"]
    assert ZWNJ in people  # دانش‌آموز
    result = made("fa", people=people.replace("معلم", "معلم" + ZWNJ), actor=site_boxes("fa")["actor"] + "\n")
    assert isinstance(result, OwnPuzzle), result
    assert "دانش\u200cآموز" in result.puzzle.people
    assert "معلم" in result.puzzle.people  # the ZWNJ at its end joined nothing
    assert any(ZWNJ in reason for reason in result.puzzle.reasons_actor)  # بی‌حوصله بود


@pytest.mark.parametrize(
    ("lang", "box", "value", "key", "values"),
    [
        ("en", "people", None, "own_not_text", {"field": "people"}),
        ("en", "actions", ["yelled at"], "own_not_text", {"field": "actions"}),
        ("en", "actor", 7, "own_not_text", {"field": "actor"}),
        ("en", "people", "a" * 10_000, "own_text_too_long", {"field": "people", "limit": MAX_TEXT}),
        ("en", "patient", "was rude\n" * 2000, "own_text_too_long", {"field": "patient", "limit": MAX_TEXT}),
        ("en", "people", "", "own_empty", {"field": "people"}),
        ("en", "actor", " \n\t\n ", "own_empty", {"field": "actor"}),
        (
            "en",
            "people",
            "\n".join(f"p{k}" for k in range(9)),
            "own_too_many",
            {"field": "people", "limit": 8, "count": 9},
        ),
        ("en", "people", "teacher\nstudent", "own_too_few", {"field": "people", "minimum": 3, "count": 2}),
        ("en", "people", "teacher\nteacher", "own_duplicate", {"field": "people", "item": "teacher"}),
        ("en", "actor", "was angry\nwas tired\nwas cross", "own_too_few", {"field": "actor", "minimum": 4, "count": 3}),
        ("en", "people", "teacher\nthe student", "own_person_space", {"item": "the student"}),
        ("en", "people", "teacher\nshe", "own_pronoun", {"item": "she"}),
        ("en", "actions", "yelled at\n" + "x" * 41, "own_item_too_long", {"item": "x" * MAX_ITEM + "…", "limit": 40}),
        ("en", "actions", "yelled at\na b c d e f", "own_too_many_words", {"item": "a b c d e f", "limit": MAX_WORDS}),
        ("en", "actor", "<script>alert(1)</script>", "own_markup", {"item": "<script>alert(1)</script>", "char": "<"}),
        ("en", "people", "teacher\nTom&Jerry", "own_markup", {"item": "Tom&Jerry", "char": "&"}),
        ("en", "actor", "was {reason}", "own_braces", {"item": "was {reason}"}),
        ("en", "people", "teacher\n{first}", "own_braces", {"item": "{first}"}),
        ("en", "actions", "yelled at {second}", "own_braces", {"item": "yelled at {second}"}),
        ("en", "actions", "yelled {at", "own_braces", {"item": "yelled {at"}),
        ("en", "actor", "was\u200bangry", "own_invisible", {"item": "was\u200bangry", "code": "U+200B"}),
        ("en", "people", "teacher\nstu\u202edent", "own_invisible", {"item": "stu\u202edent", "code": "U+202E"}),
        ("en", "patient", "was\x00rude", "own_invisible", {"item": "was\x00rude", "code": "U+0000"}),
        ("fa", "actions", "سر {second} داد زد\nداد زد", "own_action_slot", {"item": "داد زد", "slot": "{second}"}),
        (
            "fa",
            "actions",
            "سر {second} و {second} داد زد",
            "own_action_slot",
            {"item": "سر {second} و {second} داد زد", "slot": "{second}"},
        ),
        ("fa", "actions", "سر {first} داد زد", "own_braces", {"item": "سر {first} داد زد"}),
        ("fa", "people", "معلم\nدانش آموز", "own_person_space", {"item": "دانش آموز"}),
        ("fa", "people", "معلم\nاو", "own_pronoun", {"item": "او"}),
        ("he", "people", "המורה\nהמורה", "own_duplicate", {"field": "people", "item": "המורה"}),
        ("he", "people", "המורה\u200f\nהתלמידה", "own_invisible", {"item": "המורה\u200f", "code": "U+200F"}),
    ],
)
def test_bad_text_is_refused_with_its_reason(lang, box, value, key, values):
    result = made(lang, **{box: value})
    assert result == Refusal(key, values)
    written = refusal_text(result, text(lang))
    assert written
    if "item" in values:  # quoted short, isolated, its invisible characters left out
        assert excerpt(values["item"]) in written
    for name, value in values.items():  # the reader's text may hold braces; the message's own are filled
        written = written.replace(excerpt(value) if name == "item" else str(value), "")
    assert "{" not in written


def test_a_missing_box_or_no_boxes_at_all_is_not_text():
    site = views.puzzle("en")
    assert own_puzzle(site, {"people": "a\nb\nc"}) == Refusal("own_not_text", {"field": "actions"})
    assert own_puzzle(site, "people") == Refusal("own_not_text", {"field": "people"})  # type: ignore[arg-type]


def test_a_reason_in_both_groups_is_refused():
    boxes = site_boxes("en")
    assert made("en", patient=boxes["patient"] + "\nwas angry") == Refusal("own_both_groups", {"item": "was angry"})


def test_the_persian_action_may_carry_second_with_punctuation_attached():
    result = made("fa", actions="سر {second}، داد زد\nبه {second} پرخاش کرد")
    assert isinstance(result, OwnPuzzle), result
    assert result.puzzle.sentence(0, 0, 1, 0).tokens[1:3] == ("سر", "دانش\u200cآموز،")


def test_the_limits_are_accepted_and_one_more_is_refused():
    people = [f"p{k}" for k in range(MAX_ITEMS["people"])]
    actions = [f"did{k} to" for k in range(MAX_ITEMS["actions"])]
    actor = [f"was a{k}" for k in range(MAX_ITEMS["actor"])]
    patient = [f"was b{k}" for k in range(MAX_ITEMS["patient"])]
    boxes = {"people": people, "actions": actions, "actor": actor, "patient": patient}
    result = made("en", **{name: "\n".join(items) for name, items in boxes.items()})
    assert isinstance(result, OwnPuzzle), result
    n, actions_n = MAX_ITEMS["people"], MAX_ITEMS["actions"]
    reasons_n = MAX_ITEMS["actor"] + MAX_ITEMS["patient"]
    assert result.train + result.validation + result.test == n * (n - 1) * actions_n * reasons_n
    assert result.validation == result.test == 2 * n * (n - 1) * actions_n  # two reasons held out per person
    for name in FIELDS:
        one_more = "\n".join([*boxes[name], boxes[name][-1] + "z"])
        refused = made("en", **{name: one_more})
        assert refused == Refusal(
            "own_too_many", {"field": name, "limit": MAX_ITEMS[name], "count": MAX_ITEMS[name] + 1}
        )
    longest = "x" * MAX_ITEM
    assert isinstance(made("en", people=f"teacher\n{longest}\nnurse"), OwnPuzzle)
    assert isinstance(made("en", actions="a b c d e"), OwnPuzzle)


def test_too_few_held_out_sentences_are_refused():
    # 3 people, 1 action: 3 x 2 x 2 x 1 = 12 sentences in each held-out set
    assert made("en", people="teacher\nstudent\nnurse", actions="yelled at") == Refusal(
        "own_split_small", {"validation": 12, "test": 12, "minimum": MIN_HELD_OUT}
    )
    assert isinstance(made("en", people="teacher\nstudent\nnurse", actions="yelled at\nglared at"), OwnPuzzle)


@pytest.mark.parametrize("lang", LANGS)
def test_a_giveaway_of_length_is_refused_naming_the_lengths(lang):
    """Every patient reason one word longer: the build's lengths cue, in the page's words."""
    site = views.puzzle(lang)
    longer = "\n".join(f"{reason} {reason.split()[-1]}" for reason in site.reasons_patient)
    result = made(lang, patient=longer)
    lengths = sorted({len(r.split()) for r in site.reasons_actor})
    n_a, n_p = len(site.reasons_actor), len(site.reasons_patient)
    shortest = lengths[0]
    in_actor = sum(len(r.split()) == shortest for r in site.reasons_actor)
    groups = {"in_actor": in_actor, "n_actor": n_a, "in_patient": 0, "n_patient": n_p}
    if shortest == 1:
        assert result == Refusal("own_cue_lengths_one", groups)
    else:
        assert result == Refusal("own_cue_lengths", {"length": shortest, **groups})
    t = text(lang)
    assert t.count(in_actor) in refusal_text(result, t)


def test_the_english_lengths_cue_reads_as_a_sentence():
    result = made("en", patient="was rude again\nwas late again\nwas noisy again\nwas lazy again\nwas careless again")
    assert refusal_text(result, text("en")) == (
        "A give-away: 5 of the 5 reasons pointing at the one who acts have 2 words, but 0 of the 5 pointing at the "
        "one acted upon. A model could answer by counting words: give both groups the same share of reasons of each "
        "length."
    )


def test_a_shared_word_in_other_places_is_refused_naming_the_word_and_place():
    result = made("en", patient="rude was\nlate was\nnoisy was\nlazy was\ncareless was")
    assert result == Refusal(
        "own_cue_shared_word", {"word": "was", "place": 1, "in_actor": 5, "n_actor": 5, "in_patient": 0, "n_patient": 5}
    )
    assert "“\u2068was\u2069” is word 1 in 5 of the 5 reasons pointing at the one who acts, but in 0" in refusal_text(
        result, text("en")
    )
    fa = made("fa", patient="بود بی\u200cادب\nبود تنبل\nبود بی\u200cدقت\nبود پرحرف\nبود حواس\u200cپرت")
    assert fa.key == "own_cue_shared_word"
    assert fa.values["word"] == "بود"
    assert "«\u2068بود\u2069»" in refusal_text(fa, text("fa"))
    assert "۵" in refusal_text(fa, text("fa"))


def test_a_shape_that_gives_the_answer_away_is_refused_with_its_accuracy():
    # "was" and "very" twice on each side, each in the same place, lengths equal, but only the
    # actor group has them together
    result = made(
        "en",
        actor="was very angry\nquite tired now\nwas very cross\nrather grumpy today",
        patient="was rude again\nshe very noisy\nwas lazy sometimes\nhe very careless",
    )
    assert result == Refusal(
        "own_cue_shape", {"words": ("very", "was"), "accuracy": Fraction(1), "chance": Fraction(1, 2)}
    )
    assert "(\u2068very, was\u2069)" in refusal_text(result, text("en"))
    assert "100%" in refusal_text(result, text("en"))
    assert "50%" in refusal_text(result, text("en"))
    assert "۱۰۰٪" in refusal_text(result, text("fa"))
    assert "(\u2068very، was\u2069)" in refusal_text(result, text("fa"))


def test_a_refusal_comes_before_puzzle_would_raise():
    """What ``Puzzle`` itself refuses (a person of two words, the pronoun as a person, a
    reason in both groups, an action with a slot) never reaches it."""
    site = views.puzzle("en")
    cases = [
        ({"people": "a\nb c"}, "one word"),
        ({"people": "a\nshe"}, "also a person"),
        ({"actions": "hit {second}"}, "slots"),
        ({"patient": "was angry\nwas rude"}, "both people"),
    ]
    for boxes, problem in cases:
        full = {**reader_text(site), **boxes}
        with pytest.raises(ValueError, match=problem):
            Puzzle(site.template, site.pronoun, *(tuple(full[name].splitlines()) for name in FIELDS))
        assert isinstance(own_puzzle(site, full), Refusal)
