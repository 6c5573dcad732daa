"""The hand-derived gradients of attention_py.learning against finite differences, for every
entry of every parameter (embeddings, positions, each head's W_Q/W_K/W_V, each layer's W_O,
the pointing layer's W_Q/W_K), with one, two and three layers and one and two heads, and with
each option: learned, sinusoidal or no positions, with and without the causal mask. Standard
library only: this file runs inside Pyodide too."""

import math

import pytest

from attention_py.learning import Model, Puzzle, loss_and_gradients

SMALL = {
    "sentence": "the {first} {action} the {second} because {pronoun} {reason}",
    "pronoun": "she",
    "people": ["teacher", "student", "nurse"],
    "actions": ["yelled at", "glared at"],
    "reasons": {"actor": ["was angry", "was tired"], "patient": ["was rude", "was late"]},
}
EPS = 1e-6


def finite_difference_check(model, batch):
    """Largest |analytic - central difference| over every entry, and the gradients' size."""
    _, _, grads = loss_and_gradients(model, batch)
    worst, largest = 0.0, 0.0
    for name, W in model.parameters.items():
        for i, row in enumerate(W):
            for j, old in enumerate(row):
                row[j] = old + EPS
                up = loss_and_gradients(model, batch)[0]
                row[j] = old - EPS
                down = loss_and_gradients(model, batch)[0]
                row[j] = old
                numeric = (up - down) / (2 * EPS)
                worst = max(worst, abs(numeric - grads[name][i][j]))
                largest = max(largest, abs(grads[name][i][j]))
    return worst, largest, grads


SIZES = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)]
OPTIONS = [(positions, causal) for positions in ("learned", "sinusoidal", "none") for causal in (False, True)]
CASES = [(layers, heads, "learned", False) for layers, heads in SIZES] + [
    (layers, heads, positions, causal)
    for layers, heads in ((1, 2), (2, 2))
    for positions, causal in OPTIONS
    if (positions, causal) != ("learned", False)
]


@pytest.mark.parametrize(("layers", "heads", "positions", "causal"), CASES)
def test_every_gradient_matches_finite_differences(layers, heads, positions, causal):
    puzzle = Puzzle.from_dict(SMALL)
    model = Model.initial(puzzle, seed=7, d_model=4, layers=layers, heads=heads, positions=positions, causal=causal)
    sentences = puzzle.sentences()
    batch = [sentences[0], sentences[5], sentences[-1]]  # both kinds of reason, both orders
    worst, largest, grads = finite_difference_check(model, batch)
    assert largest > 1e-3  # the check is not vacuous
    assert worst < 1e-7
    # every parameter of this model gets a gradient (except embeddings of unused tokens);
    # P is one only with learned positions
    assert ("P" in grads) == (positions == "learned")
    for name, G in grads.items():
        if name != "E":
            assert any(abs(g) > 1e-9 for row in G for g in row), f"{name} got no gradient"


def test_the_gradient_of_a_layer_is_checked_row_by_row_with_every_query():
    """Training computes the last (pointing) layer for the pronoun's row only; a forward pass
    with every row gives the same answer, so the shortcut changes nothing."""
    puzzle = Puzzle.from_dict(SMALL)
    model = Model.initial(puzzle, seed=1, d_model=4, layers=2, heads=2)
    for s in puzzle.sentences()[:10]:
        short = model.forward(s).probabilities
        full = model.forward(s, every_row=True).probabilities
        assert all(math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15) for a, b in zip(short, full))


def test_a_gradient_step_lowers_the_loss():
    puzzle = Puzzle.from_dict(SMALL)
    model = Model.initial(puzzle, seed=2, d_model=4, layers=2, heads=1)
    batch = puzzle.sentences()[:8]
    before, _, grads = loss_and_gradients(model, batch)
    for name, W in model.parameters.items():
        for row, g in zip(W, grads[name]):
            for j, gj in enumerate(g):
                row[j] -= 0.01 * gj
    after = loss_and_gradients(model, batch)[0]
    assert after < before


def test_the_gradients_have_every_parameter_in_its_shape():
    puzzle = Puzzle.from_dict(SMALL)
    model = Model.initial(puzzle, seed=0, d_model=4, layers=2, heads=2)
    grads = loss_and_gradients(model, puzzle.sentences()[:3])[2]
    assert list(grads) == list(model.parameters)
    for name, W in model.parameters.items():
        assert [len(r) for r in grads[name]] == [len(r) for r in W]


def test_the_answer_is_the_pronouns_last_attention_over_the_people_in_the_sentence():
    puzzle = Puzzle.from_dict(SMALL)
    model = Model.initial(puzzle, seed=3, d_model=4, layers=2, heads=2)
    s = puzzle.sentence("teacher", "yelled at", "student", "was rude")
    reading = model.read(s)
    last = reading.attention[-1]
    mean = [sum(head[s.pronoun][j] for head in last) / 2 for j in range(len(s.tokens))]
    assert reading.probabilities[0] == pytest.approx(mean[s.people[0]])
    assert reading.probabilities[1] == pytest.approx(mean[s.people[1]])
    assert reading.probabilities[2] == 0.0  # the nurse is not in the sentence
    assert math.fsum(reading.probabilities) == pytest.approx(1.0)
    others = [j for j in range(len(s.tokens)) if j not in s.people]
    assert all(head[i][j] == 0.0 for head in last for i in range(len(s.tokens)) for j in others)
    assert "layer1.W_O" not in model.parameters
    assert "layer1.head0.W_V" not in model.parameters
