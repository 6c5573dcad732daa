"""Sentences and answers of the pronoun puzzle (attention_py.learning.puzzle), from inline
dicts in the three languages' grammar (this file runs inside Pyodide, without YAML or the
docs folder; tests/unit/test_learning_puzzle_files.py reads the real files natively)."""

import pytest

from attention_py.learning import Puzzle

EN = {
    "sentence": "the {first} {action} the {second} because {pronoun} {reason}",
    "pronoun": "she",
    "people": ["teacher", "student", "nurse", "doctor"],
    "actions": ["yelled at", "glared at"],
    "reasons": {"actor": ["was angry", "was tired"], "patient": ["was rude", "was late"]},
}
HE = {
    "sentence": "{first} {action} {second} כי {pronoun} {reason}",
    "pronoun": "היא",
    "people": ["המורה", "התלמידה", "האחות"],
    "actions": ["צעקה על", "האשימה את"],
    "reasons": {"actor": ["הייתה עצבנית", "הייתה עייפה"], "patient": ["התחצפה", "איחרה"]},
}
FA = {  # the action carries {second}: the verb comes last
    "sentence": "{first} {action} چون {pronoun} {reason}",
    "pronoun": "او",
    "people": ["معلم", "دانش\u200cآموز", "پرستار"],
    "actions": ["سر {second} داد زد", "از {second} شکایت کرد"],
    "reasons": {"actor": ["عصبانی بود", "خسته بود"], "patient": ["بی\u200cادبی کرده بود", "دیر کرده بود"]},
}


def test_the_articles_sentence_and_its_answers():
    puzzle = Puzzle.from_dict(EN)
    angry = puzzle.sentence("teacher", "yelled at", "student", "was angry")
    assert angry.text == "the teacher yelled at the student because she was angry"
    assert (angry.pronoun, angry.people, angry.label, angry.referent) == (7, (1, 5), 0, "teacher")
    rude = puzzle.sentence(0, 0, 1, "was rude")
    assert rude.tokens[-1] == "rude" and rude.referent == "student" and rude.label == 1
    assert rude.points_at == "patient" and angry.points_at == "actor"


def test_hebrew_sentences_keep_each_verbs_preposition():
    puzzle = Puzzle.from_dict(HE)
    s = puzzle.sentence("המורה", "האשימה את", "התלמידה", "התחצפה")
    assert s.tokens == ("המורה", "האשימה", "את", "התלמידה", "כי", "היא", "התחצפה")
    assert s.referent == "התלמידה" and s.pronoun == 5 and s.people == (0, 3)
    s = puzzle.sentence("התלמידה", "צעקה על", "המורה", "הייתה עצבנית")
    assert s.referent == "התלמידה" and s.tokens[s.people[0]] == "התלמידה"


def test_persian_puts_the_second_person_inside_the_action():
    puzzle = Puzzle.from_dict(FA)
    s = puzzle.sentence(0, 0, 1, 0)
    assert s.text == "معلم سر دانش\u200cآموز داد زد چون او عصبانی بود"
    assert s.people == (0, 2) and s.pronoun == 6 and s.referent == "معلم"
    rude = puzzle.sentence(0, 0, 1, "بی\u200cادبی کرده بود")
    assert rude.referent == "دانش\u200cآموز" and rude.tokens[-3] == "بی\u200cادبی"  # ZWNJ kept inside the word


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
def test_held_out_pairs_never_occur_in_training(data):
    puzzle = Puzzle.from_dict(data)
    train, held_out = puzzle.split(seed=0)
    assert train and held_out
    assert len(train) + len(held_out) == len(puzzle.sentences())
    key = lambda s: (s.label, s.reason)  # noqa: E731
    assert not {key(s) for s in train} & {key(s) for s in held_out}
    # every person is still the answer in training, for both kinds of reason
    for person in range(len(puzzle.people)):
        assert {s.points_at for s in train if s.label == person} == {"actor", "patient"}
    assert puzzle.split(seed=0) == (train, held_out)  # deterministic


def test_a_puzzle_round_trips_through_its_dict():
    puzzle = Puzzle.from_dict(FA)
    again = Puzzle.from_dict(puzzle.to_dict())
    assert again.sentences() == puzzle.sentences()


@pytest.mark.parametrize(
    "change, message",
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
