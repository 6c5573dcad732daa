"""Form cues (attention_py.learning.tasks.cues): a puzzle whose two groups of reasons differ in form
(length, a shared word in one group only, a shape) is caught, naming the words; a fair one is
not. Inline data (the English puzzle is test_learning_puzzle.py's), standard library only (runs
inside Pyodide too); the real files are checked in test_learning_puzzle_files.py."""

from fractions import Fraction

import pytest

from attention_py.learning import Puzzle
from attention_py.learning.tasks.cues import (
    LENGTHS,
    SHAPE,
    SHARED_WORD,
    Cue,
    cues,
    form_cues,
    giveaway_puzzle,
    shape,
    shared_words,
)
from tests.unit.test_learning_puzzle import EN

# The Hebrew and Persian reasons as they were before the review (issue 18): each has a form cue.
OLD_HE_REASONS = {
    "actor": ["הייתה עצבנית", "הייתה חסרת סבלנות", "הייתה עייפה", "הייתה לחוצה", "הייתה רגזנית"],
    "patient": ["התחצפה", "איחרה", "הרעישה", "התעצלה", "הייתה רשלנית"],
}
OLD_FA_REASONS = {
    "actor": ["عصبانی بود", "بی\u200cحوصله بود", "خسته بود", "کلافه بود", "بداخلاق بود"],
    "patient": ["بی\u200cادبی کرده بود", "دیر کرده بود", "شلوغ کرده بود", "تنبلی کرده بود", "بی\u200cدقتی کرده بود"],
}


def with_reasons(reasons):
    return Puzzle.from_dict({**EN, "reasons": reasons})


def test_a_fair_puzzle_has_no_cue():
    puzzle = Puzzle.from_dict(EN)
    assert shared_words(puzzle) == {"was"}
    assert shape("was angry", {"was"}) == "was _"
    assert form_cues(puzzle) == []


def test_the_old_persian_reasons_are_caught_by_length_by_a_shared_word_and_by_shape():
    cues = form_cues(with_reasons(OLD_FA_REASONS))
    text = "\n".join(cues)
    assert "reasons of 2 word(s): 5 of 5 actor reasons, 0 of 5 patient reasons" in text
    assert "'کرده'" in text  # the word that gives it away is named
    assert any("classifier" in cue and "100%" in cue for cue in cues)


def test_the_old_hebrew_reasons_are_caught():
    cues = form_cues(with_reasons(OLD_HE_REASONS))
    assert any("'הייתה'" in cue and "5 of 5 actor" in cue for cue in cues)
    assert any("classifier" in cue and "90%" in cue for cue in cues)


@pytest.mark.parametrize(
    ("reasons", "named"),
    [
        ({"actor": ["was angry", "was tired"], "patient": ["was rude", "had been late"]}, "word(s)"),
        # same lengths, but "really" only on one side
        (
            {"actor": ["was angry", "was tired", "really cross"], "patient": ["was rude", "was late", "really noisy"]},
            None,
        ),
        ({"actor": ["was angry", "was tired", "was cross"], "patient": ["was rude", "was late", "so noisy"]}, "'was'"),
        # a word shared within one group only
        (
            {"actor": ["very angry", "very tired", "was cross"], "patient": ["was rude", "was late", "so noisy"]},
            "'very'",
        ),
    ],
)
def test_each_kind_of_cue_is_named(reasons, named):
    cues = form_cues(with_reasons(reasons))
    if named is None:
        assert cues == []  # "really" occurs once on each side, in the same place: no cue
    else:
        assert cues, cues
        assert any(named in cue for cue in cues), cues


def test_a_shape_can_give_the_answer_away_even_when_each_word_is_balanced():
    # "was" occurs twice on each side, at the same place, and lengths match, but the shapes differ:
    # "was _ _" only on the actor side, "_ was _" only on the patient side
    reasons = {"actor": ["was very angry", "was tired out"], "patient": ["she was rude", "he was late"]}
    cues = form_cues(with_reasons(reasons))
    assert any("classifier" in cue for cue in cues), cues


def test_the_giveaway_puzzle_adds_one_word_to_every_patient_reason():
    data = {**EN, "giveaway": {"patient": ["was rude again", "was late again", "was noisy again"]}}
    giveaway = giveaway_puzzle(data)
    assert giveaway.reasons_patient == ("was rude again", "was late again", "was noisy again")
    assert giveaway.reasons_actor == Puzzle.from_dict(EN).reasons_actor
    assert any("'again'" in cue for cue in form_cues(giveaway))
    assert set(Puzzle.from_dict(EN).vocabulary) <= set(giveaway.vocabulary)


@pytest.mark.parametrize(
    ("patient", "message"),
    [
        (["was rude again", "was late again"], "3 reasons"),
        (["was rude again", "was late again", "was loud again"], "does not contain"),
        (["was rude again", "was late again", "was noisy"], "exactly one word"),
        (["was rude again", "was late again", "was noisy too"], "same word"),
    ],
)
def test_a_broken_giveaway_is_refused(patient, message):
    with pytest.raises(ValueError, match=message):
        giveaway_puzzle({**EN, "giveaway": {"patient": patient}})


def test_each_cue_is_numbers_and_words_and_its_english_sentence_is_made_from_them():
    """``cues`` is what ``form_cues`` says, as data a page can put in its own language."""
    found = cues(with_reasons(OLD_FA_REASONS))
    assert [cue.english() for cue in found] == form_cues(with_reasons(OLD_FA_REASONS))
    lengths = [cue for cue in found if cue.kind == LENGTHS]
    assert [(c.length, c.in_actor, c.n_actor, c.in_patient, c.n_patient) for c in lengths] == [
        (2, 5, 5, 0, 5),
        (3, 0, 5, 5, 5),
    ]
    assert Cue(SHARED_WORD, 5, 5, words=("کرده",), place=2, in_actor=0, in_patient=5) in found
    (shaped,) = [cue for cue in found if cue.kind == SHAPE]
    assert (shaped.accuracy, shaped.chance) == (1, Fraction(1, 2))
    assert shaped.words == ("بود", "کرده")
    assert shaped.shapes == (("_ بود", 5, 0), ("_ کرده بود", 0, 5))
