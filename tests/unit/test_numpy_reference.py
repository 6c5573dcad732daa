"""Agreement to 1e-12 with an independent numpy float64 implementation.

numpy is a test dependency only; inside Pyodide (no numpy offline) this module is skipped,
and the Pyodide runner checks that nothing else was skipped.
"""

import pytest

np = pytest.importorskip("numpy")

from attention_py import (  # noqa: E402
    MultiHeadAttention,
    SelfAttention,
    scaled_dot_product_attention,
    softmax,
    softmax_rows,
)

TOL = 1e-12


def np_softmax(z, axis=-1):
    z = z - z.max(axis=axis, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def np_attention(q, k, v, causal=False):
    scores = q @ k.T / np.sqrt(q.shape[1])
    if causal:
        scores = np.where(np.tril(np.ones(scores.shape, dtype=bool)), scores, -np.inf)
    w = np_softmax(scores)
    return w @ v, w


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)


def test_softmax_matches(rng):
    for _ in range(20):
        z = rng.normal(scale=30, size=rng.integers(1, 20))
        assert np.allclose(softmax(z), np_softmax(z), rtol=0, atol=TOL)
        assert np.allclose(softmax(z, scale=0.3), np_softmax(0.3 * z), rtol=0, atol=TOL)


def test_softmax_rows_matches(rng):
    z = rng.normal(size=(7, 5))
    assert np.allclose(softmax_rows(z), np_softmax(z, axis=1), rtol=0, atol=TOL)


@pytest.mark.parametrize("causal", [False, True])
def test_scaled_dot_product_attention_matches(rng, causal):
    q, k, v = rng.normal(size=(6, 8)), rng.normal(size=(6, 8)), rng.normal(size=(6, 3))
    out, w = scaled_dot_product_attention(q, k, v, causal=causal)
    ref_out, ref_w = np_attention(q, k, v, causal=causal)
    assert np.allclose(w, ref_w, rtol=0, atol=TOL)
    assert np.allclose(out, ref_out, rtol=0, atol=TOL)


def test_self_attention_matches(rng):
    layer = SelfAttention(16, 4, d_v=6, seed=9)
    x = rng.normal(size=(10, 16))
    out, w = layer(x)
    wq, wk, wv = (np.array(m) for m in (layer.W_Q, layer.W_K, layer.W_V))
    ref_out, ref_w = np_attention(x @ wq, x @ wk, x @ wv)
    assert np.allclose(w, ref_w, rtol=0, atol=TOL)
    assert np.allclose(out, ref_out, rtol=0, atol=TOL)


@pytest.mark.parametrize(("heads", "causal"), [(1, False), (2, True), (4, False)])
def test_multi_head_matches(rng, heads, causal):
    mha = MultiHeadAttention(16, heads, seed=4, causal=causal)
    x = rng.normal(size=(9, 16))
    out, weights = mha(x)
    outs = []
    for head, w in zip(mha.heads, weights):
        wq, wk, wv = (np.array(m) for m in (head.W_Q, head.W_K, head.W_V))
        ref_out, ref_w = np_attention(x @ wq, x @ wk, x @ wv, causal=causal)
        assert np.allclose(w, ref_w, rtol=0, atol=TOL)
        outs.append(ref_out)
    ref = np.concatenate(outs, axis=1) @ np.array(mha.W_O)
    assert np.allclose(out, ref, rtol=0, atol=TOL)
