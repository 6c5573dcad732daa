"""SelfAttention and MultiHeadAttention: wiring, determinism, settable weights."""

import math

from attention_py import (
    MultiHeadAttention,
    SelfAttention,
    causal_mask,
    dot,
    dot_product_samples,
    matmul,
    scaled_dot_product_attention,
    softmax_rows,
)

X = [[1.0, 0.0, 0.5, -1.0], [0.0, 1.0, 0.0, 0.5], [2.0, -1.0, 1.0, 0.0]]


def test_self_attention_is_attention_of_projections():
    layer = SelfAttention(4, 3, seed=11)
    out, w = layer(X)
    q, k, v = matmul(X, layer.W_Q), matmul(X, layer.W_K), matmul(X, layer.W_V)
    assert (q, k, v) == (layer.Q, layer.K, layer.V)
    assert (out, w) == scaled_dot_product_attention(q, k, v)
    assert layer.weights == w


def test_d_v_sets_output_width():
    out, w = SelfAttention(4, 2, d_v=5)(X)
    assert len(out[0]) == 5
    assert len(w[0]) == 3


def test_same_seed_same_weights_other_seed_other_weights():
    a, b, c = SelfAttention(4, 2, seed=3), SelfAttention(4, 2, seed=3), SelfAttention(4, 2, seed=4)
    assert a.W_Q == b.W_Q
    assert a.W_K == b.W_K
    assert a.W_V == b.W_V
    assert a.W_Q != c.W_Q


def test_initialisation_is_bit_identical_on_every_platform():
    """Golden values recorded once; CPython and Pyodide must reproduce them exactly."""
    layer = SelfAttention(4, 2, seed=0)
    assert layer.W_Q[0] == [0.6888437030500962, 0.515908805880605]
    assert layer.W_V[3][1] == 0.36796786383088254
    mha = MultiHeadAttention(8, 2, seed=7)
    assert mha.W_O[0][0] == -0.42762068357810296
    assert mha.heads[1].W_K[2][1] == 0.23196109829874736
    assert dot_product_samples(16, 3, seed=5) == [-5.207473446485546, 1.8032535333563782, 3.225235440122822]


def test_glorot_bound_respected():
    layer = SelfAttention(6, 2)
    bound = (6 / (6 + 2)) ** 0.5
    assert all(abs(x) <= bound for row in layer.W_Q for x in row)


def test_weights_are_plain_lists_that_a_page_can_set():
    layer = SelfAttention(2, 2)
    layer.W_Q = layer.W_K = [[1, 0], [0, 1]]
    layer.W_V = [[2, 0], [0, 3]]
    out, _ = layer([[1, 0], [0, 1]])
    assert layer.Q == [[1.0, 0.0], [0.0, 1.0]]
    assert layer.V == [[2.0, 0.0], [0.0, 3.0]]
    assert out == matmul(layer.weights, layer.V)


def test_scores_are_kept_beside_the_weights():
    layer = SelfAttention(4, 2, seed=5)
    layer(X)
    expected = [[(1 / math.sqrt(2)) * dot(q, k) for k in layer.K] for q in layer.Q]  # Q Kᵀ / √d_k
    assert layer.scores == expected
    assert layer.weights == softmax_rows(layer.scores)


def test_masked_scores_stay_finite_and_the_mask_acts_in_the_softmax():
    layer = SelfAttention(4, 2, seed=5)
    layer(X, causal=True)
    assert layer.scores[0][2] == (1 / math.sqrt(2)) * dot(layer.Q[0], layer.K[2])
    assert layer.weights == softmax_rows(layer.scores, mask=causal_mask(3))


def test_multi_head_concatenates_heads_then_projects():
    mha = MultiHeadAttention(4, 2, seed=1)
    out, weights = mha(X)
    assert len(weights) == 2
    assert all(len(w) == 3 for w in weights)
    assert mha.concat == [a + b for a, b in zip(*mha.head_outputs)]
    assert out == matmul(mha.concat, mha.W_O)
    assert [h.d_k for h in mha.heads] == [2, 2]


def test_heads_differ():
    mha = MultiHeadAttention(4, 2, seed=1)
    _, weights = mha(X)
    assert weights[0] != weights[1]


def test_causal_multi_head_masks_the_future():
    mha = MultiHeadAttention(4, 4, causal=True)
    _, weights = mha(X)
    for w in weights:
        assert w[0][1:] == [0.0, 0.0]
        assert w[1][2] == 0.0


def test_one_head_equals_self_attention_then_output_projection():
    mha = MultiHeadAttention(4, 1, seed=2)
    out, (w,) = mha(X)
    head_out, head_w = mha.heads[0](X)
    assert w == head_w
    assert out == matmul(head_out, mha.W_O)


def test_dot_product_samples_variance_grows_like_d_k():
    for d_k in (1, 16, 256):
        samples = dot_product_samples(d_k, 4000, seed=1)
        mean = sum(samples) / len(samples)
        var = sum((s - mean) ** 2 for s in samples) / len(samples)
        assert 0.85 * d_k < var < 1.15 * d_k
