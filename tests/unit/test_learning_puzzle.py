"""Sentences and answers of the pronoun puzzle (attention_py.learning.tasks.puzzle), from inline
dicts in the three languages' grammar (this file runs inside Pyodide, without YAML or the
docs folder; tests/unit/test_learning_puzzle_files.py reads the real files natively)."""

import pytest

from attention_py.learning import Puzzle

EN = {
    "sentence": "the {first} {action} the {second} because {pronoun} {reason}",
    "pronoun": "she",
    "people": ["teacher", "student", "nurse", "doctor"],
    "actions": ["yelled at", "glared at"],
    "reasons": {"actor": ["was angry", "was tired", "was grumpy"], "patient": ["was rude", "was late", "was noisy"]},
}
HE = {
    "sentence": "{first} {action} {second} כי {pronoun} {reason}",
    "pronoun": "היא",
    "people": ["המורה", "התלמידה", "האחות"],
    "actions": ["צעקה על", "רטנה על"],
    "reasons": {
        "actor": ["הייתה עצבנית", "הייתה עייפה", "התעצבנה"],
        "patient": ["הייתה חצופה", "הייתה רשלנית", "איחרה"],
    },
}
FA = {  # the action carries {second}: the verb comes last
    "sentence": "{first} {action} چون {pronoun} {reason}",
    "pronoun": "او",
    "people": ["معلم", "دانش\u200cآموز", "پرستار"],
    "actions": ["سر {second} داد زد", "به {second} پرخاش کرد"],
    "reasons": {
        "actor": ["عصبانی بود", "خسته بود", "کلافه بود"],
        "patient": ["بی\u200cادب بود", "تنبل بود", "بی\u200cدقت بود"],
    },
}


def test_the_articles_sentence_and_its_answers():
    puzzle = Puzzle.from_dict(EN)
    angry = puzzle.sentence("teacher", "yelled at", "student", "was angry")
    assert angry.text == "the teacher yelled at the student because she was angry"
    assert (angry.pronoun, angry.people, angry.label, angry.referent) == (7, (1, 5), 0, "teacher")
    rude = puzzle.sentence(0, 0, 1, "was rude")
    assert rude.tokens[-1] == "rude"
    assert rude.referent == "student"
    assert rude.label == 1
    assert rude.points_at == "patient"
    assert angry.points_at == "actor"


def test_hebrew_sentences_keep_each_verbs_preposition():
    puzzle = Puzzle.from_dict(HE)
    s = puzzle.sentence("המורה", "רטנה על", "התלמידה", "איחרה")
    assert s.tokens == ("המורה", "רטנה", "על", "התלמידה", "כי", "היא", "איחרה")
    assert s.referent == "התלמידה"
    assert s.pronoun == 5
    assert s.people == (0, 3)
    s = puzzle.sentence("התלמידה", "צעקה על", "המורה", "הייתה עצבנית")
    assert s.referent == "התלמידה"
    assert s.tokens[s.people[0]] == "התלמידה"


def test_persian_puts_the_second_person_inside_the_action():
    puzzle = Puzzle.from_dict(FA)
    s = puzzle.sentence(0, 0, 1, 0)
    assert s.text == "معلم سر دانش\u200cآموز داد زد چون او عصبانی بود"
    assert s.people == (0, 2)
    assert s.pronoun == 6
    assert s.referent == "معلم"
    rude = puzzle.sentence(0, 0, 1, "بی\u200cادب بود")
    assert rude.referent == "دانش\u200cآموز"
    assert rude.tokens[-2] == "بی\u200cادب"


@pytest.mark.parametrize("data", [EN, HE, FA], ids=["en", "he", "fa"])
def test_every_sentence_is_labelled_by_its_reason_and_both_orders_occur(data):
    puzzle = Puzzle.from_dict(data)
    sentences = puzzle.sentences()
    n = len(puzzle.people)
    assert len(sentences) == n * (n - 1) * len(puzzle.actions) * len(puzzle.reasons)
    pairs = set()
    for s in sentences:
        first, second = s.tokens[s.people[0]], s.tokens[s.people[1]]
        assert (first, second) == (puzzle.people[s.first], puzzle.people[s.second])
        assert s.tokens[s.pronoun] == puzzle.pronoun
        assert s.referent == (first if s.reason in puzzle.reasons_actor else second)
        assert puzzle.people[s.label] == s.referent
        pairs.add((s.first, s.second))
    assert all((b, a) in pairs for a, b in pairs)


@pytest.mark.parametrize("data", [EN, HE, FA], ids=["en", "he", "fa"])
def test_validation_and_test_pairs_never_occur_in_training(data):
    """A held-out sentence's reason never points at its referent in training (nor in the other
    held-out set), though the person and the reason each occur in training."""
    puzzle = Puzzle.from_dict(data)
    train, validation, test = puzzle.split(seed=0)
    assert train
    assert validation
    assert test
    assert len(train) + len(validation) + len(test) == len(puzzle.sentences())
    key = lambda s: (s.label, s.reason)  # noqa: E731
    pairs = [{key(s) for s in part} for part in (train, validation, test)]
    assert not pairs[0] & pairs[1]
    assert not pairs[0] & pairs[2]
    assert not pairs[1] & pairs[2]
    for s in validation + test:
        assert any(t.reason == s.reason for t in train)
        assert any(t.label == s.label for t in train)
    # every person is still the answer in training, for both kinds of reason
    for person in range(len(puzzle.people)):
        assert {s.points_at for s in train if s.label == person} == {"actor", "patient"}
    assert puzzle.split(seed=0) == (train, validation, test)  # deterministic
    assert puzzle.split(seed=1) != (train, validation, test)


def test_a_side_with_fewer_than_three_reasons_cannot_be_split():
    puzzle = Puzzle.from_dict(
        {**EN, "reasons": {"actor": ["was angry", "was tired"], "patient": ["was rude", "was late"]}}
    )
    with pytest.raises(ValueError, match="at least 3 reasons"):
        puzzle.split()


def test_a_puzzle_round_trips_through_its_dict():
    puzzle = Puzzle.from_dict(FA)
    again = Puzzle.from_dict(puzzle.to_dict())
    assert again.sentences() == puzzle.sentences()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"people": ["teacher", "the student"]}, "one word"),
        ({"sentence": "the {first} {action} because {pronoun} {reason}"}, "{second}"),
        ({"reasons": {"actor": ["was rude"], "patient": ["was rude"]}}, "both"),
        ({"people": ["teacher", "teacher", "nurse"]}, "twice"),
    ],
)
def test_a_broken_puzzle_is_refused_with_a_reason(change, message):
    with pytest.raises(ValueError, match=message.replace("{", r"\{").replace("}", r"\}")):
        Puzzle.from_dict({**EN, **change})


def test_sentence_refuses_unknown_words_and_the_same_person_twice():
    puzzle = Puzzle.from_dict(EN)
    with pytest.raises(ValueError, match="not a person"):
        puzzle.sentence("pilot", 0, 1, 0)
    with pytest.raises(ValueError, match="must differ"):
        puzzle.sentence(1, 0, 1, 0)
