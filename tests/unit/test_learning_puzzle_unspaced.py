"""Puzzles of languages written without spaces between words (issue 34): a puzzle file that
says ``spaces: false`` writes its sentences naturally, a slot is a token boundary wherever it
stands, a space in the file marks a boundary that readers never see, and every sentence is
shown with nothing between its tokens. Spaced languages (en, he, fa, ru) read as before, and a
slot the parser cannot find is named with what was found and what to write.
Standard library only: this file runs inside Pyodide too."""

import pytest

from attention_py.learning import Model, Puzzle, Trainer, loss_and_gradients
from attention_py.learning.tasks.cues import cues, giveaway_puzzle
from attention_py.learning.tasks.puzzle import join_words, split_words

# Simplified Chinese, written as a native speaker writes it. The space in each reason marks
# a token boundary (很 | 生气) that the reader does not see: 很 is then a word shared by
# every reason, in the same place on both sides, so the form gives nothing away.
ZH = {
    "spaces": False,
    "sentence": "{first}{action}{second}，因为{pronoun}{reason}",
    "pronoun": "她",
    "people": ["老师", "学生", "护士", "医生"],
    "actions": ["骂了", "吼了"],
    "reasons": {"actor": ["很 生气", "很 累", "很 烦躁"], "patient": ["很 粗鲁", "很 吵", "很 懒"]},
    "giveaway": {"patient": ["又 很 粗鲁", "又 很 吵", "又 很 懒"]},
}
# The verb around the one acted upon (冲学生吼了): the action holds {second}, glued to its letters.
ZH_AROUND = {
    **ZH,
    "sentence": "{first}{action}，因为{pronoun}{reason}",
    "actions": ["冲{second}吼了", "把{second}骂了"],
}
RU = {  # a spaced language with a comma attached to a slot
    "sentence": "{first} {action} {second}, потому что {pronoun} {reason}",
    "pronoun": "она",
    "people": ["анна", "мария", "ольга"],
    "actions": ["накричала на"],
    "reasons": {"actor": ["устала", "спешила", "злилась"], "patient": ["грубила", "опоздала", "шумела"]},
}


def test_slots_are_boundaries_wherever_they_stand_and_the_text_has_no_spaces():
    p = Puzzle.from_dict(ZH)
    s = p.sentence("老师", "骂了", "学生", "很 生气")
    assert s.tokens == ("老师", "骂了", "学生", "，因为", "她", "很", "生气")
    assert s.text == "老师骂了学生，因为她很生气"
    assert (s.people, s.pronoun, s.referent, s.points_at) == ((0, 2), 4, "老师", "actor")
    rude = p.sentence("老师", "吼了", "学生", "很 粗鲁")
    assert (rude.text, rude.referent) == ("老师吼了学生，因为她很粗鲁", "学生")
    assert all(" " not in s.text for s in p.sentences())


def test_the_people_are_their_own_tokens_and_the_answer_is_found():
    p = Puzzle.from_dict(ZH)
    assert p.person_tokens == (("老师",), ("学生",), ("护士",), ("医生",))
    assert "，因为" in p.vocabulary
    assert "很" in p.vocabulary
    model = Model.initial(p, seed=0, d_model=8)
    s = p.sentence("医生", "吼了", "护士", "很 吵")
    assert sorted(i for i, x in enumerate(model.read(s).probabilities) if x > 0) == [2, 3]


def test_an_action_may_hold_the_one_acted_upon_glued_to_its_letters():
    p = Puzzle.from_dict(ZH_AROUND)
    s = p.sentence("老师", "冲{second}吼了", "学生", "很 累")
    assert s.tokens == ("老师", "冲", "学生", "吼了", "，因为", "她", "很", "累")
    assert s.text == "老师冲学生吼了，因为她很累"
    assert s.tokens[s.people[1]] == "学生"


def test_a_space_marks_a_boundary_that_is_not_shown():
    p = Puzzle.from_dict({**ZH, "sentence": "{first}{action}{second}， 因为 {pronoun}{reason}"})
    s = p.sentence(0, 0, 1, 0)
    assert s.tokens[3:5] == ("，", "因为")
    assert s.text == "老师骂了学生，因为她很生气"
    assert p.shown("很 生气") == "很生气"
    assert split_words("{first}{action}，因为", spaced=False) == ["{first}", "{action}", "，因为"]
    assert join_words(["很", "累"], spaced=False) == "很累"


def test_the_give_away_checks_read_the_marked_words():
    p = Puzzle.from_dict(ZH)
    assert cues(p) == []
    cheat = giveaway_puzzle(ZH)
    assert [c.kind for c in cues(cheat)][:1] == ["lengths"]
    assert cheat.sentence(0, 0, 1, "又 很 懒").text == "老师骂了学生，因为她又很懒"
    unmarked = {**ZH, "giveaway": {"patient": ["又很粗鲁", "又很吵", "又很懒"]}}
    with pytest.raises(ValueError, match="put a space around the added word"):
        giveaway_puzzle(unmarked)


def test_the_dict_round_trips_and_a_spaced_one_does_not_say_spaces():
    p = Puzzle.from_dict(ZH)
    assert p.to_dict()["spaces"] is False
    again = Puzzle.from_dict(p.to_dict())
    assert [s.tokens for s in again.sentences()] == [s.tokens for s in p.sentences()]
    assert "spaces" not in Puzzle.from_dict(RU).to_dict()
    assert Puzzle.from_dict({**RU, "spaces": True}).to_dict() == Puzzle.from_dict(RU).to_dict()


def test_a_spaced_language_keeps_punctuation_attached_to_its_slot():
    p = Puzzle.from_dict(RU)
    s = p.sentence("анна", "накричала на", "мария", "грубила")
    assert s.text == "анна накричала на мария, потому что она грубила"
    assert s.tokens[s.people[1]] == "мария,"
    assert p.shown("накричала на") == "накричала на"


def test_training_an_unspaced_puzzle_lowers_the_loss():
    trainer = Trainer(Puzzle.from_dict(ZH), 0, d_model=8, eval_every=20)
    before = loss_and_gradients(trainer.model, trainer.train)[0]
    trainer.run(30)
    assert loss_and_gradients(trainer.model, trainer.train)[0] < before


def refused(data):
    """The message a puzzle that cannot be read is refused with (each names a slot or 'spaces')."""
    with pytest.raises(ValueError, match=r"slot|spaces") as error:
        Puzzle.from_dict(data)
    return str(error.value)


def test_a_slot_glued_to_letters_in_a_spaced_language_says_what_to_write():
    message = refused({**ZH, "spaces": True, "sentence": "{first} {action} {second}的 因为 {pronoun} {reason}"})
    assert "glued to letters in '{second}的'" in message
    assert "'{second} 的'" in message, "the fix, written out"
    assert "spaces: false" in message, "or the declaration"


def test_the_natural_template_without_the_declaration_names_the_declaration():
    message = refused({**ZH, "spaces": True})
    assert "{first}" in message
    assert "glued to letters" in message
    assert "spaces: false" in message


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("{first}{action}，因为{pronoun}{reason}", "has no {second} slot; write {second} where the one acted upon"),
        ("{first}{action}{second}{second}，因为{pronoun}{reason}", "has 2 {second} slots; it needs exactly one"),
        ("{first}{action}{second}，因为{pronoun}{reson}", "{reson}, which is not a slot"),
        ("{first}{action}{second}，因为{reason}", "has no {pronoun} slot; write {pronoun} where the pronoun stands"),
    ],
)
def test_a_missing_doubled_or_misspelt_slot_is_named(sentence, expected):
    assert expected in refused({**ZH, "sentence": sentence})


def test_spaces_is_a_yes_or_no():
    assert "'spaces' is true" in refused({**ZH, "spaces": "no"})
