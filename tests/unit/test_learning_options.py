"""The options a model is made with (attention_py.learning.model): learned, sinusoidal or no
positions, and the causal mask; what each does to the answers, and that they save, load and
train with every size. (Their gradients are checked with the rest: test_learning_gradients.py
and test_learning_numpy_reference.py.) Standard library only: this file runs inside Pyodide too."""

import itertools
import json
import math

import pytest

from attention_py.learning import Model, Puzzle, Trainer, loss_and_gradients, train_with_checkpoints
from attention_py.learning.model import sinusoidal_positions
from tests.unit.puzzles import SIX


def test_the_sinusoidal_table_is_the_papers_and_is_not_a_parameter():
    table = sinusoidal_positions(12, 6)
    assert table[0] == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]  # sin 0, cos 0
    for i in (1, 5, 11):
        for c in range(3):
            angle = i / 10000 ** (2 * c / 6)
            assert table[i][2 * c] == pytest.approx(math.sin(angle), abs=1e-15)
            assert table[i][2 * c + 1] == pytest.approx(math.cos(angle), abs=1e-15)
    puzzle = Puzzle.from_dict(SIX)
    model = Model.initial(puzzle, seed=0, d_model=6, heads=2, positions="sinusoidal")
    assert "P" not in model.parameters
    assert model.position_table == sinusoidal_positions(puzzle.max_length, 6)
    assert "P" not in loss_and_gradients(model, puzzle.sentences()[:4])[2]
    trainer = Trainer(puzzle, seed=0, d_model=6, heads=2, positions="sinusoidal", eval_every=5)
    trainer.run(5)
    assert trainer.model.position_table == sinusoidal_positions(puzzle.max_length, 6)  # fixed: training leaves it


def test_one_seed_gives_the_same_starting_numbers_with_every_option():
    """So two recipes that differ in one option start from the same weights."""
    puzzle = Puzzle.from_dict(SIX)
    default = Model.initial(puzzle, seed=4, d_model=8)
    for positions, causal in itertools.product(("learned", "sinusoidal", "none"), (False, True)):
        other = Model.initial(puzzle, seed=4, d_model=8, positions=positions, causal=causal)
        assert other.parameters == {
            name: m for name, m in default.parameters.items() if name != "P" or positions == "learned"
        }


def test_without_positions_a_sentence_and_its_swapped_twin_get_the_same_answer():
    """A model without positions reads a bag of words: it cannot tell who did what to whom,
    so of a sentence and its twin (the people swapped, the other answer) it gets exactly one
    right, however long it trains; with learned positions the same recipe learns them all."""
    puzzle = Puzzle.from_dict(SIX)
    sentences = puzzle.sentences()
    trained = {}
    for positions in ("none", "learned"):
        trainer = Trainer(puzzle, seed=0, d_model=8, positions=positions, eval_every=40)
        trainer.held_out = {}  # the steps only
        trainer.run(40)
        trained[positions] = trainer.model
    bag = trained["none"]
    for s in sentences[::7]:
        p, q = bag.forward(s).probabilities, bag.forward(puzzle.twin(s)).probabilities
        assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(p, q))
        assert max(p) > 0.5 + 1e-6  # no tie: the two sentences get one answer, right for one of them
    assert bag.accuracy(sentences) == 0.5
    assert trained["learned"].accuracy(sentences) > 0.9


def test_the_causal_mask_hides_later_words_but_not_the_people_from_the_pronoun():
    puzzle = Puzzle.from_dict(SIX)
    model = Model.initial(puzzle, seed=1, d_model=8, layers=3, heads=2, causal=True)
    s = puzzle.sentence("nurse", "glared at", "pilot", "was late")
    reading = model.read(s)
    n = len(s.tokens)
    for layer in reading.attention[:-1]:
        for head in layer:
            assert all(head[i][j] == 0.0 for i in range(n) for j in range(i + 1, n))
            assert all(math.fsum(row) == pytest.approx(1.0) for row in head)
    last = reading.attention[-1]
    for head in last:  # words before the first person may point at nobody; the pronoun at both people
        assert all(not any(head[i]) for i in range(s.people[0]))
        assert math.fsum(head[s.pronoun][j] for j in s.people) == pytest.approx(1.0)
    # the people come before the pronoun: the mask changes nothing in the answer layer
    run = model.forward(s)
    unmasked = model.pointer_forward(run.pointer.x, [s.pronoun], run.pointer.candidates)
    assert [h.weights for h in unmasked.heads] == [h.weights for h in run.pointer.heads]


def test_with_the_causal_mask_the_pronoun_cannot_read_the_reason_after_it():
    """The reason comes after the pronoun, and the answer is the pronoun's attention: under
    the causal mask sentences that differ only in the reason get the same answer, so the model
    is at chance (both groups of reasons are as large) whatever it learns."""
    puzzle = Puzzle.from_dict(SIX)
    trainer = Trainer(puzzle, seed=0, d_model=8, causal=True, eval_every=20)
    trainer.run(20)
    model = trainer.model
    a, b = (
        puzzle.sentence("teacher", "yelled at", "student", "was rude"),
        puzzle.sentence("teacher", "yelled at", "student", "was angry"),
    )
    assert model.forward(a).probabilities == model.forward(b).probabilities
    assert model.accuracy(puzzle.sentences()) == 0.5


@pytest.mark.parametrize("positions", ["learned", "sinusoidal", "none"])
@pytest.mark.parametrize("causal", [False, True])
def test_every_option_trains_with_every_size(positions, causal):
    puzzle = Puzzle.from_dict(SIX)
    s = puzzle.sentences()[3]
    for layers, heads, d_model in itertools.product((1, 2), (1, 2), (4, 8)):
        settings = {"d_model": d_model, "layers": layers, "heads": heads, "positions": positions, "causal": causal}
        trainer = Trainer(puzzle, seed=2, batch_size=4, eval_every=1, **settings)
        trainer.held_out = {}  # only the step itself here
        before = trainer.model.copy()
        trainer.run(1)
        assert trainer.model.parameters != before.parameters
        assert trainer.model.settings == settings
        reading = trainer.model.read(s)
        assert len(reading.attention) == layers
        assert all(len(layer) == heads for layer in reading.attention)
        assert math.fsum(reading.probabilities) == pytest.approx(1.0)


def test_the_options_are_saved_and_models_saved_before_them_load_with_the_defaults():
    puzzle = Puzzle.from_dict(SIX)
    for positions, causal in itertools.product(("learned", "sinusoidal", "none"), (False, True)):
        model = Model.initial(puzzle, seed=3, d_model=4, heads=2, positions=positions, causal=causal)
        saved = json.loads(json.dumps(model.to_dict()))
        assert saved["settings"] == {"d_model": 4, "layers": 2, "heads": 2, "positions": positions, "causal": causal}
        assert ("P" in saved["parameters"]) == (positions == "learned")
        again = Model.from_dict(saved)
        assert (again.positions, again.causal) == (positions, causal)
        assert again.read(puzzle.sentences()[5]) == model.read(puzzle.sentences()[5])
    old = Model.initial(puzzle, seed=3, d_model=4).to_dict()
    old["settings"] = {"d_model": 4, "layers": 2, "heads": 1}  # as saved before the options existed
    loaded = Model.from_dict(old)
    assert (loaded.positions, loaded.causal) == ("learned", False)
    assert loaded.position_table is loaded.parameters["P"]


def test_training_records_the_options():
    puzzle = Puzzle.from_dict(SIX)
    result = train_with_checkpoints(puzzle, seed=0, steps=2, checkpoint_every=1, eval_every=1, positions="none")
    assert (result["settings"]["positions"], result["settings"]["causal"]) == ("none", False)
    assert result["model"]["settings"]["positions"] == "none"
    assert "P" not in result["model"]["parameters"]


def test_bad_options_are_refused():
    puzzle = Puzzle.from_dict(SIX)
    with pytest.raises(ValueError, match="positions must be one of learned, sinusoidal, none"):
        Model.initial(puzzle, positions="sine")
    with pytest.raises(TypeError, match="causal must be True or False"):
        Model.initial(puzzle, causal="yes")
    saved = Model.initial(puzzle, d_model=4).to_dict()
    with pytest.raises(ValueError, match="parameters must be"):  # learned positions need P
        Model.from_dict({**saved, "settings": {**saved["settings"], "positions": "none"}})
