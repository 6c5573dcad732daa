"""attention_py.learning's gradients against an independent numpy model, differentiated by the
complex step: f'(w) = Im f(w + ih) / h, exact to rounding (no subtraction of nearly equal
numbers, unlike finite differences). numpy is a native test dependency only: inside Pyodide
this module is skipped (tests/pyodide allows it)."""

import pytest

np = pytest.importorskip("numpy")

from attention_py.learning import Model, Puzzle, loss_and_gradients  # noqa: E402

PUZZLE = {
    "sentence": "{first} {action} {second} כי {pronoun} {reason}",
    "pronoun": "היא",
    "people": ["המורה", "התלמידה", "האחות", "הרופאה"],
    "actions": ["צעקה על", "האשימה את"],
    "reasons": {"actor": ["הייתה עצבנית", "הייתה עייפה"], "patient": ["התחצפה", "איחרה"]},
}
H = 1e-30


def np_positions(n, d):
    """The sinusoidal table, from the paper's formula: PE(i, 2c) = sin(i / 10000^(2c/d)),
    PE(i, 2c+1) = cos(i / 10000^(2c/d))."""
    i = np.arange(n)[:, None]
    angles = i / 10000 ** (2 * (np.arange(d) // 2) / d)
    return np.where(np.arange(d) % 2 == 0, np.sin(angles), np.cos(angles))


def np_loss(params, model, batch):
    """The model's mean cross-entropy, written again with numpy's matrices (every row, every
    layer): the last layer's attention from the pronoun, over the people only, is the answer.
    With the causal mask, key j is removed from query i's softmax when j > i."""
    total = 0
    for s in batch:
        ids = [model.index[t] for t in s.tokens]
        n = len(ids)
        x = params["E"][ids]
        if model.positions == "learned":
            x = x + params["P"][:n]
        elif model.positions == "sinusoidal":
            x = x + np_positions(n, model.d_model)
        sees = np.tril(np.ones((n, n), dtype=bool)) if model.causal else np.ones((n, n), dtype=bool)
        for layer in range(model.layers - 1):
            heads = []
            for h in range(model.heads):
                q, k, v = (x @ params[f"layer{layer}.head{h}.{w}"] for w in ("W_Q", "W_K", "W_V"))
                scores = q @ k.T / np.sqrt(model.d_head)
                e = np.where(sees, np.exp(scores - scores.real.max(axis=1, keepdims=True)), 0)
                heads.append((e / e.sum(axis=1, keepdims=True)) @ v)
            x = x + np.concatenate(heads, axis=1) @ params[f"layer{layer}.W_O"]
        people = list(s.people)  # the candidates: the two people's words
        p = 0
        for h in range(model.heads):
            last = model.layers - 1
            q = x[s.pronoun] @ params[f"layer{last}.head{h}.W_Q"]
            scores = (x[people] @ params[f"layer{last}.head{h}.W_K"]) @ q / np.sqrt(model.d_head)
            e = np.where(sees[s.pronoun, people], np.exp(scores - scores.real.max()), 0)
            p = p + (e / e.sum())[people.index(s.people[0] if s.points_at == "actor" else s.people[1])]
        total = total - np.log(p / model.heads)
    return total / len(batch)


CASES = [(layers, heads, "learned", False) for layers, heads in ((1, 1), (2, 1), (2, 2), (3, 2))] + [
    (layers, heads, positions, causal)
    for layers, heads in ((1, 2), (2, 2), (3, 1))
    for positions in ("learned", "sinusoidal", "none")
    for causal in (False, True)
    if (positions, causal) != ("learned", False)
]


@pytest.mark.parametrize(("layers", "heads", "positions", "causal"), CASES)
def test_gradients_agree_with_numpy_complex_step(layers, heads, positions, causal):
    puzzle = Puzzle.from_dict(PUZZLE)
    model = Model.initial(puzzle, seed=11, d_model=6, layers=layers, heads=heads, positions=positions, causal=causal)
    sentences = puzzle.sentences()
    batch = sentences[::37][:4]
    loss, _, grads = loss_and_gradients(model, batch)
    params = {name: np.array(m, dtype=complex) for name, m in model.parameters.items()}
    assert ("P" in params) == (positions == "learned")  # a sinusoidal table is not a parameter
    assert np_loss(params, model, batch).real == pytest.approx(loss, rel=1e-12)
    for name, W in params.items():
        reference = np.zeros(W.shape)
        for index in np.ndindex(W.shape):
            W[index] += 1j * H
            reference[index] = np_loss(params, model, batch).imag / H
            W[index] -= 1j * H
        np.testing.assert_allclose(np.array(grads[name]), reference, rtol=1e-9, atol=1e-13, err_msg=name)
