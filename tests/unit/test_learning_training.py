"""Adam, saving and loading, determinism, and a short training run of attention_py.learning.
Standard library only: this file runs inside Pyodide too."""

import json
import math

import pytest

from attention_py.learning import Adam, Model, Puzzle, Trainer, train_with_checkpoints
from tests.unit.puzzles import SIX


def test_adam_steps_follow_the_formula():
    w = [[1.0, -2.0]]
    adam = Adam({"w": w}, lr=0.1, beta1=0.9, beta2=0.999, eps=1e-8)
    grads = [[[0.5, -4.0]], [[0.3, 1.0]]]
    m, v = [0.0, 0.0], [0.0, 0.0]
    expected = [1.0, -2.0]
    for t, g in enumerate(grads, start=1):
        adam.step({"w": g})
        for j in range(2):
            m[j] = 0.9 * m[j] + 0.1 * g[0][j]
            v[j] = 0.999 * v[j] + 0.001 * g[0][j] ** 2
            m_hat, v_hat = m[j] / (1 - 0.9**t), v[j] / (1 - 0.999**t)
            expected[j] -= 0.1 * m_hat / (math.sqrt(v_hat) + 1e-8)
        assert w[0] == pytest.approx(expected, rel=1e-14)
    # the first step moves every number by about lr, whatever its gradient's size
    fresh = [[0.0, 0.0]]
    Adam({"w": fresh}, lr=0.1).step({"w": [[1e-3, 1e3]]})
    assert fresh[0] == pytest.approx([-0.1, -0.1], rel=1e-4)


def test_adams_warm_up_grows_the_step_linearly_then_holds_it():
    """With warmup=4 the first steps move by lr/4, 2lr/4, 3lr/4 (Adam's first steps move by
    about lr whatever the gradient), then by lr; betas outside [0, 1) are refused."""
    w = [[0.0]]
    adam = Adam({"w": w}, lr=0.1, beta1=0.0, beta2=0.0, warmup=4)
    moves = []
    for _ in range(6):
        before = w[0][0]
        adam.step({"w": [[1.0]]})
        moves.append(before - w[0][0])
    assert moves == pytest.approx([0.025, 0.05, 0.075, 0.1, 0.1, 0.1], rel=1e-6)
    for bad in ({"beta1": 1.0}, {"beta2": -0.1}, {"warmup": -1}):
        with pytest.raises(ValueError, match="warmup >= 0 and betas"):
            Adam({"w": [[0.0]]}, **bad)


def test_a_model_round_trips_through_json_exactly():
    puzzle = Puzzle.from_dict(SIX)
    trainer = Trainer(puzzle, seed=3, d_model=8, heads=2, eval_every=5)
    trainer.run(5)
    saved = json.loads(json.dumps(trainer.model.to_dict()))
    again = Model.from_dict(saved)
    assert again.parameters == trainer.model.parameters
    assert again.settings == {"d_model": 8, "layers": 2, "heads": 2, "positions": "learned", "causal": False}
    s = puzzle.sentences()[11]
    assert again.read(s) == trainer.model.read(s)
    with pytest.raises(ValueError, match="format"):
        Model.from_dict({**saved, "format": "something else"})


def test_the_same_seed_trains_the_same_weights_and_another_seed_does_not():
    puzzle = Puzzle.from_dict(SIX)
    a, b, c = (Trainer(puzzle, seed=s, d_model=8, eval_every=4) for s in (5, 5, 6))
    for t in (a, b, c):
        t.run(8)
    assert a.model.parameters == b.model.parameters
    assert a.history == b.history
    assert a.model.parameters != c.model.parameters


def test_reading_gives_every_layers_attention_and_a_prediction():
    puzzle = Puzzle.from_dict(SIX)
    model = Model.initial(puzzle, seed=0, d_model=8, layers=2, heads=2)
    s = puzzle.sentence("teacher", "yelled at", "student", "was angry")
    reading = model.read(s)
    assert len(reading.probabilities) == len(puzzle.people)
    assert math.fsum(reading.probabilities) == pytest.approx(1.0)
    assert reading.prediction == max(range(6), key=reading.probabilities.__getitem__)
    n = len(s.tokens)
    assert len(reading.attention) == 2
    assert all(len(layer) == 2 for layer in reading.attention)
    for layer in reading.attention:
        for head in layer:
            assert len(head) == n
            assert all(len(row) == n and math.fsum(row) == pytest.approx(1.0) for row in head)


def test_training_learns_the_small_puzzle_and_generalises():
    puzzle = Puzzle.from_dict(SIX)
    result = train_with_checkpoints(
        puzzle, seed=0, until_accuracy=0.95, max_steps=150, checkpoint_every=20, eval_every=10
    )
    history = result["history"]
    assert result["reached"] is True, history[-1]
    assert history[0]["step"] == 0
    assert history[0]["validation_accuracy"] < 0.8
    assert history[-1]["validation_accuracy"] >= 0.95  # the stopping rule reads validation only
    assert history[-1]["test_accuracy"] >= 0.9
    assert history[-1]["validation_loss"] < history[0]["validation_loss"] / 2
    steps = [c["step"] for c in result["checkpoints"]]
    assert steps[0] == 0
    assert steps[-1] == result["steps"]
    assert steps == sorted(set(steps))
    assert result["model"] == result["checkpoints"][-1]["model"]
    json.dumps(result)  # JSON-able
    final = Model.from_dict(result["model"])
    _, validation, test = puzzle.split()
    assert final.accuracy(validation) == history[-1]["validation_accuracy"]
    assert final.accuracy(test) == history[-1]["test_accuracy"]
    assert result["test_size"] == len(test)
    assert [puzzle.sentence(*m) for m in result["mistakes"]] == [s for s in test if final.predict(s) != s.label]


def test_training_settings_are_checked():
    puzzle = Puzzle.from_dict(SIX)
    with pytest.raises(TypeError, match="unknown"):
        Trainer(puzzle, learning_rat=0.1)
    with pytest.raises(TypeError, match="either"):
        train_with_checkpoints(puzzle, steps=10, until_accuracy=0.9)
    with pytest.raises(ValueError, match="multiple"):
        train_with_checkpoints(puzzle, steps=10, checkpoint_every=7, eval_every=5)


def test_checkpoints_can_be_rounded_but_the_final_model_stays_exact():
    puzzle = Puzzle.from_dict(SIX)
    exact = train_with_checkpoints(puzzle, seed=1, steps=10, checkpoint_every=5, eval_every=5, d_model=8)
    rounded = train_with_checkpoints(
        puzzle, seed=1, steps=10, checkpoint_every=5, eval_every=5, d_model=8, checkpoint_digits=3
    )
    assert rounded["model"] == exact["model"] == exact["checkpoints"][-1]["model"]
    first = rounded["checkpoints"][1]["model"]["parameters"]["E"][0][0]
    assert first == float(f"{exact['checkpoints'][1]['model']['parameters']['E'][0][0]:.3g}")
    assert [c["step"] for c in rounded["checkpoints"]] == [0, 5, 10]


def test_the_training_loop_takes_any_model_with_its_objective():
    """Training is given the model and its objective, not the puzzle: here a one-number model,
    y = w x, fitted by squared error with Adam; the same loop, pieces and history."""
    from attention_py.learning.train import Objective, Training

    class Line:
        def __init__(self) -> None:
            self.parameters = {"w": [[0.0]]}

    class Sum:
        def __init__(self, model: Line) -> None:
            self.g = 0.0

        def total(self, name: str) -> list[list[float]]:
            return [[self.g]]

    def score(model, example):
        x, y = example
        error = model.parameters["w"][0][0] * x - y
        return error * error, abs(error) < 0.05

    def add_gradients(model, example, grads, weight):
        x, y = example
        grads.g += weight * 2 * (model.parameters["w"][0][0] * x - y) * x
        return score(model, example)

    import random

    examples = [(x / 10, 3 * x / 10) for x in range(1, 11)]
    training = Training(
        Line(),
        Objective(score=score, add_gradients=add_gradients, new_gradients=Sum),
        examples,
        {"test": examples[::3]},
        order=random.Random(0),
        learning_rate=0.1,
        batch_size=4,
        eval_every=50,
    )
    points = training.run(300)
    assert [p["step"] for p in points] == [0, 50, 100, 150, 200, 250, 300]
    assert training.model.parameters["w"][0][0] == pytest.approx(3.0, abs=0.02)
    assert points[-1]["test_accuracy"] == 1.0
    assert points[-1]["loss"] < points[0]["loss"] / 100
