"""The next-token model (attention_py.learning.next_token), its copy task and trainer
(attention_py.learning.induction): hand-derived gradients against finite differences, the
causal mask, the cuts, the task's promises and the resumable training. Standard library
only: this file runs inside Pyodide too."""

import math
import random

import pytest

from attention_py.learning import CopyTask
from attention_py.learning.induction import CUTS, CopyTrainer, circuit, copy_scores, head_scores
from attention_py.learning.next_token import Cut, NextTokenModel, token_gradients
from attention_py.pieces import drain, take

LETTERS = tuple("abcdefg")
EPS = 1e-6


def small_model(layers, heads, seed=3):
    return NextTokenModel.initial(LETTERS, 8, seed, d_model=4, layers=layers, heads=heads)


@pytest.mark.parametrize(("layers", "heads", "first"), [(1, 1, 0), (2, 1, 0), (2, 2, 0), (3, 1, 0), (2, 2, 4)])
def test_every_gradient_matches_finite_differences(layers, heads, first):
    model = small_model(layers, heads)
    ids = [0, 3, 2, 5, 0, 3, 2, 6]
    _, grads = token_gradients(model, ids, first=first)
    worst = largest = 0.0
    for name, W in model.parameters.items():
        for i, row in enumerate(W):
            for j, old in enumerate(row):
                row[j] = old + EPS
                up = model.loss(model.forward(ids), first)
                row[j] = old - EPS
                down = model.loss(model.forward(ids), first)
                row[j] = old
                worst = max(worst, abs((up - down) / (2 * EPS) - grads[name][i][j]))
                largest = max(largest, abs(grads[name][i][j]))
    assert largest > 1e-3  # not vacuous
    assert worst < 1e-7
    assert all(any(v for row in grads[name] for v in row) for name in model.parameters if name != "E")


def test_the_loss_from_a_position_counts_only_the_guesses_from_there():
    """``first`` leaves the earlier guesses out: the loss is the mean of the later positions'
    cross-entropies alone, and a position the loss does not ask about changes nothing of it
    when its next token is a different one... unless a later position reads it."""
    model = small_model(2, 1)
    ids = [0, 3, 2, 5, 0, 3, 2, 6]
    run = model.forward(ids)
    each = [-math.log(run.probabilities[i][ids[i + 1]]) for i in range(len(ids) - 1)]
    assert model.loss(run) == pytest.approx(sum(each) / 7)
    assert model.loss(run, 4) == pytest.approx(sum(each[4:]) / 3)
    for bad in (-1, 7, 8):
        with pytest.raises(ValueError, match="the loss counts positions"):
            model.loss(run, bad)
    _, all_positions = token_gradients(model, ids)
    _, later = token_gradients(model, ids, first=4)
    assert later["W_U"] != all_positions["W_U"]


def test_the_copy_trainer_takes_adams_recipe_and_the_loss_positions():
    task = CopyTask(tuple("abcdefghij"), length=10, segment=(2, 4))
    trainer = CopyTrainer(
        task, seed=1, d_model=4, batch_size=2, test_size=2, warmup=3, beta1=0.8, beta2=0.99, loss_from=5
    )
    adam = trainer.optimiser
    assert (adam.warmup, adam.beta1, adam.beta2) == (3, 0.8, 0.99)
    plain = CopyTrainer(
        task, seed=1, d_model=4, batch_size=2, test_size=2, warmup=3, beta1=0.8, beta2=0.99, loss_from=0
    )
    trainer.run(2)
    plain.run(2)
    assert trainer.model.parameters != plain.model.parameters  # the later positions' loss is another objective
    assert trainer.history[0]["test_copied_accuracy"] == plain.history[0]["test_copied_accuracy"]


def test_the_causal_mask_hides_the_future():
    """Changing a later token changes no earlier position's guess, and every weight on a
    later key is exactly 0."""
    model = small_model(2, 2)
    a = model.forward([1, 2, 3, 4, 5, 6])
    b = model.forward([1, 2, 3, 0, 0, 0])
    assert a.probabilities[:3] == b.probabilities[:3]
    assert a.probabilities[3] != b.probabilities[3]
    for layer in range(2):
        for h in range(2):
            A = a.attention(layer, h)
            assert all(A[i][j] == 0.0 for i in range(6) for j in range(i + 1, 6))
            assert all(abs(sum(row) - 1) < 1e-12 for row in A)


def test_cuts():
    model = small_model(2, 2)
    ids = [1, 2, 3, 1, 2, 3]
    whole = model.forward(ids).probabilities
    assert model.forward(ids, Cut()).probabilities == whole
    # layer 0 reads the embeddings anyway: cutting its composition changes nothing
    layer0 = Cut(keys_from_embedding=frozenset({0}), queries_from_embedding=frozenset({0}))
    assert model.forward(ids, layer0).probabilities == whole
    for cut in (
        Cut(heads_off=frozenset({(0, 1)})),
        Cut(keys_from_embedding=frozenset({1})),
        Cut(values_from_embedding=frozenset({1})),
    ):
        assert model.forward(ids, cut).probabilities != whole
    off = model.forward(ids, Cut(heads_off=frozenset({(1, 0), (1, 1)})), shares=True)
    assert all(v == 0.0 for share in off.head_outputs[1] for row in share for v in row)


def test_clear_errors():
    with pytest.raises(ValueError, match="divisible"):
        NextTokenModel.initial(LETTERS, 8, d_model=5, layers=1, heads=2)
    model = small_model(1, 1)
    with pytest.raises(ValueError, match="1 to 8 tokens"):
        model.forward([0] * 9)
    with pytest.raises(ValueError, match="token ids"):
        model.forward([0, 7])
    with pytest.raises(ValueError, match="not in the model's vocabulary"):
        model.ids_of(["a", "z"])
    with pytest.raises(ValueError, match="do not fit"):
        CopyTask(LETTERS, length=8, segment=(3, 5))
    with pytest.raises(ValueError, match="vocabulary of more than"):
        CopyTask(LETTERS, length=20, segment=(3, 7))


def test_a_saved_model_comes_back_exactly():
    model = small_model(2, 2)
    assert NextTokenModel.from_dict(model.to_dict()).parameters == model.parameters
    with pytest.raises(ValueError, match="not a saved model"):
        NextTokenModel.from_dict({"format": "something else"})


@pytest.mark.parametrize("repeat", [False, True])
def test_the_copy_task_keeps_its_promises(repeat):
    """Inside the copy each next token is the one after the current token's earlier
    occurrence; the segment's tokens are all different and occur nowhere else; lengths and
    distances vary."""
    task = CopyTask(tuple("abcdefghijklmnop"), length=16, segment=(3, 6), repeat=repeat)
    rng = random.Random(5)
    sizes, distances = set(), set()
    for _ in range(300):
        example = task.sequence(rng)
        ids = example.ids
        assert len(ids) == 16
        segment = ids[example.first : example.first + example.size]
        assert len(set(segment)) == example.size
        copies = {*range(example.first, example.first + example.size), *range(example.second, example.end + 1)}
        assert not {t for k, t in enumerate(ids) if k not in copies} & set(segment)
        for i in example.copied:
            j = example.source(i)
            assert ids[j] == ids[i]
            assert ids[j + 1] == ids[i + 1]
            assert [k for k in range(i) if ids[k] == ids[i]][-1] == j  # the last time it occurred
        sizes.add(example.size)
        distances.add(example.second - example.first)
    assert sizes == {3, 4, 5, 6}
    assert len(distances) >= 4


def test_training_is_resumable_to_the_last_bit():
    """Ten steps then ten more, or twenty in short pieces, give the same model and history."""
    task = CopyTask(tuple("abcdefghij"), length=10, segment=(2, 4))
    settings = {"d_model": 4, "batch_size": 4, "eval_every": 5, "test_size": 4}
    whole = CopyTrainer(task, seed=2, **settings)
    whole.run(20)
    halves = CopyTrainer(task, seed=2, **settings)
    halves.run(10)
    halves.run(10)
    pieces = CopyTrainer(task, seed=2, **settings)
    work = pieces.pieces(20)
    while take(work, 0.001):
        pass
    drain(work)
    for other in (halves, pieces):
        assert other.model.parameters == whole.model.parameters
        assert other.history == whole.history
    point = whole.history[-1]
    assert point["step"] == 20
    for key in ("test_copied_accuracy", "test_other_loss", "test_layer1.head0_prefix", "test_layer0.head0_previous"):
        assert 0 <= point[key] < 10
    assert whole.history[0]["loss"] > whole.history[-1]["loss"]  # it learns something


def test_the_measures_on_a_hand_made_model():
    """A model whose every head looks only at the token itself has a previous-token score
    of 0; the scores are shares, and copy_scores splits the positions in two."""
    task = CopyTask(tuple("abcdefghij"), length=10, segment=(2, 4))
    model = NextTokenModel.initial(task.vocabulary, 10, 1, d_model=4, layers=2, heads=1)
    for layer in range(2):
        model.parameters[f"layer{layer}.head0.W_Q"] = [[0.0] * 4 for _ in range(4)]  # uniform attention
    examples = task.sequences(9, 20)
    scores = head_scores(model, examples)
    for name in ("previous", "prefix", "copying"):
        assert all(0 <= v <= 1 for row in scores[name] for v in row)
    # uniform causal attention: position i gives 1 / (i + 1) to the one before it
    expected = sum(1 / (i + 1) for i in range(1, 10)) / 9
    assert abs(scores["previous"][0][0] - expected) < 1e-12
    split = copy_scores(model, examples)
    assert set(split) == {"copied_loss", "copied_accuracy", "other_loss", "other_accuracy"}


def test_the_circuit_names_heads_and_runs_every_cut():
    task = CopyTask(tuple("abcdefghij"), length=10, segment=(2, 4))
    model = NextTokenModel.initial(task.vocabulary, 10, 4, d_model=4, layers=2, heads=2)
    found = circuit(model, task.sequences(3, 8))
    assert set(found.ablations) == set(CUTS)
    assert found.previous
    assert found.induction
    assert found.ablations["none"] == copy_scores(model, task.sequences(3, 8))
    with pytest.raises(ValueError, match="two layers"):
        circuit(NextTokenModel.initial(task.vocabulary, 10, d_model=4, layers=1, heads=1), task.sequences(3, 2))
