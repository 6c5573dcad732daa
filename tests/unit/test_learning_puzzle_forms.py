"""Puzzles for languages whose nouns change with their role (issue 22): a person may have a
form per role (Russian учительница / учительницу), punctuation may be attached to a slot
("{second},"), and each distinct word stays one token; the model may point at any of a
person's words. Languages with one form per person (en, he, fa) read and train as before.
Standard library only: this file runs inside Pyodide too."""

import pytest

from attention_py.learning import Model, Puzzle, Trainer, loss_and_gradients
from tests.unit.test_learning_gradients import finite_difference_check

# A small case-inflecting puzzle (Russian): the one acted upon is in the accusative, and a
# comma closes the main clause.
FORMS = {
    "sentence": "{first} {action} {second}, потому что {pronoun} {reason}",
    "pronoun": "она",
    "people": [
        {"first": "учительница", "second": "учительницу"},
        {"first": "ученица", "second": "ученицу"},
        {"first": "медсестра", "second": "медсестру"},
        {"first": "соседка", "second": "соседку"},
    ],
    "actions": ["накричала на", "огрызнулась на"],
    "reasons": {
        "actor": ["была зла", "устала", "спешила"],
        "patient": ["грубила", "опоздала", "шумела"],
    },
}


def puzzle() -> Puzzle:
    return Puzzle.from_dict(FORMS)


def test_each_role_takes_its_form_and_the_comma_stays_on_its_word():
    s = puzzle().sentence("учительница", "накричала на", "ученица", "грубила")
    assert s.text == "учительница накричала на ученицу, потому что она грубила"
    assert [s.tokens[i] for i in s.people] == ["учительница", "ученицу,"]
    assert (s.referent, s.label) == ("ученица", 1), "the answer is the person, named by its first form"


def test_a_person_has_a_token_per_form_and_the_model_may_point_at_any():
    p = puzzle()
    assert p.person_tokens[0] == ("учительница", "учительницу,")
    model = Model.initial(p, seed=0, d_model=8)
    for s in p.sentences()[:40]:
        reading = model.read(s)
        assert abs(sum(reading.probabilities) - 1) < 1e-12
        assert sorted(i for i, p_ in enumerate(reading.probabilities) if p_ > 0) == sorted([s.first, s.second])


def test_the_dict_round_trips_and_older_puzzles_keep_their_plain_people():
    p = puzzle()
    assert Puzzle.from_dict(p.to_dict()).to_dict() == p.to_dict()
    assert p.to_dict()["people"][0] == {"first": "учительница", "second": "учительницу"}
    plain = {**FORMS, "people": ["анна", "мария", "ольга"]}
    assert Puzzle.from_dict(plain).to_dict()["people"] == ["анна", "мария", "ольга"]
    assert Puzzle.from_dict(plain).person_tokens == (("анна", "анна,"), ("мария", "мария,"), ("ольга", "ольга,"))


def test_a_saved_model_keeps_its_persons_words_and_a_plain_one_saves_none():
    model = Model.initial(puzzle(), seed=1, d_model=8)
    again = Model.from_dict(model.to_dict())
    assert again.person_tokens == model.person_tokens
    s = puzzle().sentences()[5]
    assert again.read(s).probabilities == model.read(s).probabilities
    plain = Puzzle.from_dict(
        {
            **FORMS,
            "sentence": "{first} {action} {second} потому что {pronoun} {reason}",
            "people": ["анна", "мария", "ольга"],
        }
    )
    assert "person_tokens" not in Model.initial(plain, seed=1, d_model=8).to_dict()


def test_the_gradients_with_forms_match_finite_differences():
    model = Model.initial(puzzle(), seed=2, d_model=4, layers=2, heads=1)
    batch = [s for s in puzzle().sentences() if s.points_at == "patient"][:3]
    worst, largest, _ = finite_difference_check(model, batch)
    assert largest > 1e-3
    assert worst < 1e-6


def test_training_with_forms_lowers_the_loss():
    trainer = Trainer(puzzle(), 0, d_model=8, eval_every=20)
    before = loss_and_gradients(trainer.model, trainer.train)[0]
    trainer.run(40)
    assert loss_and_gradients(trainer.model, trainer.train)[0] < before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"people": [{"first": "анна"}, "мария", "ольга"]}, "exactly first, second"),
        (
            {"people": [{"first": "анна", "second": "марию"}, {"first": "мария", "second": "марию"}, "ольга"]},
            "two people",
        ),
        ({"people": [{"first": "анна", "second": "ан ну"}, "мария", "ольга"]}, "one word"),
        ({"people": ["она", "мария", "ольга"]}, "pronoun"),
        ({"sentence": "{first} {action} {second}, {second} потому что {pronoun} {reason}"}, "2 {second} slots"),
        ({"sentence": "{first} {action} x{second} потому что {pronoun} {reason}"}, "glued to letters in 'x{second}'"),
    ],
)
def test_grammar_that_cannot_work_is_refused_naming_the_problem(change, message):
    with pytest.raises(ValueError, match=message.replace("{", r"\{").replace("}", r"\}")):
        Puzzle.from_dict({**FORMS, **change})
