"""What the next-token model learns on the copy task, proven by ablation, natively
(attention_py.learning.induction; the numbers of bench/README.md, "Induction heads").

Seed 0 of the recipe forms its induction head by step 300; trained for 400 steps, each
mechanism sentence is tested by cutting what it names, on the 64 test sequences (never
trained on). One layer, with the same budget, stays far below. Each training takes about a
minute, hence the slow tier."""

import pytest

from attention_py.learning import CopyTask
from attention_py.learning.induction import CopyTrainer, circuit, formed

pytestmark = pytest.mark.slow
STEPS = 400


@pytest.fixture(scope="module")
def two_layers():
    trainer = CopyTrainer(CopyTask(), seed=0)
    trainer.run(STEPS)
    return trainer


def test_the_head_forms_suddenly_after_a_plateau(two_layers):
    history = two_layers.history
    first = next(point["step"] for point in history if formed(point, 2))
    assert first <= STEPS
    # the plateau: for the first 100 steps, copied tokens stay near what the other ones get
    early = [p for p in history if p["step"] <= 100]
    assert all(p["test_copied_accuracy"] < 0.4 for p in early)
    assert history[-1]["test_copied_accuracy"] >= 0.95
    assert history[-1]["test_other_accuracy"] < 0.1  # the random tokens stay unguessable (chance 5%)


def test_every_mechanism_sentence_by_ablation(two_layers):
    found = circuit(two_layers.model, two_layers.test)
    copied = {name: scores["copied_accuracy"] for name, scores in found.ablations.items()}
    assert copied["none"] >= 0.95
    # a previous-token head in layer 1, an induction head in layer 2, one each
    assert len(found.previous) == 1
    assert len(found.induction) >= 1
    assert found.scores["previous"][0][found.previous[0]] >= 0.6
    assert max(found.scores["prefix"][1]) >= 0.6
    # remove either and the copy fails; the other heads do not matter
    assert copied["previous_off"] < 0.4
    assert copied["induction_off"] < 0.3
    assert copied["other_first_off"] >= 0.9
    assert copied["other_last_off"] >= 0.9
    # the induction head's keys need layer 1 (K-composition); its queries and values do not
    assert copied["keys_cut"] < 0.4
    assert copied["queries_cut"] >= 0.9
    assert copied["values_cut"] >= 0.9
    # the induction head copies: its own output raises the token it attends to
    assert max(found.scores["copying"][1]) >= 0.5


def test_one_layer_with_the_same_budget_does_not():
    trainer = CopyTrainer(CopyTask(), seed=0, layers=1)
    trainer.run(STEPS)
    point = trainer.history[-1]
    assert not any(formed(p, 1) for p in trainer.history)
    assert 0.15 <= point["test_copied_accuracy"] <= 0.4  # its own level: 28-32% (bench/README.md)
