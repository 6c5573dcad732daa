"""Properties that hold for any input (hypothesis)."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from attention_py import SelfAttention, scaled_dot_product_attention, softmax

finite = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)
scores = st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=12)


def matrices(rows, cols):
    return st.lists(st.lists(finite, min_size=cols, max_size=cols), min_size=rows, max_size=rows)


@st.composite
def token_rows(draw, width=3):
    n = draw(st.integers(min_value=1, max_value=6))
    return draw(matrices(n, width))


@given(scores)
def test_softmax_is_a_distribution(z):
    p = softmax(z)
    assert all(0.0 <= x <= 1.0 for x in p)
    assert math.isclose(math.fsum(p), 1.0, abs_tol=1e-12)


@given(st.lists(finite, min_size=1, max_size=10), st.floats(min_value=-1e3, max_value=1e3))
def test_softmax_is_shift_invariant(z, c):
    shifted = softmax([x + c for x in z])
    for a, b in zip(softmax(z), shifted):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@given(st.lists(st.integers(min_value=-20, max_value=20), min_size=2, max_size=8, unique=True))
def test_large_scale_tends_to_one_hot_argmax(z):
    p = softmax(z, scale=1e4)
    assert p.index(max(p)) == z.index(max(z))
    assert p[z.index(max(z))] == 1.0


@settings(max_examples=50)
@given(token_rows(), st.randoms(use_true_random=False))
def test_attention_rows_sum_to_one(x, rnd):
    _, w = SelfAttention(3, 2, seed=rnd.randrange(1000))(x)
    for row in w:
        assert math.isclose(math.fsum(row), 1.0, abs_tol=1e-12)


@settings(max_examples=50)
@given(token_rows(), st.randoms(use_true_random=False))
def test_self_attention_is_permutation_equivariant(x, rnd):
    layer = SelfAttention(3, 2, seed=1)
    order = list(range(len(x)))
    rnd.shuffle(order)
    out, _ = layer(x)
    out_perm, _ = layer([x[i] for i in order])
    for new_row, i in zip(out_perm, order):
        for a, b in zip(new_row, out[i]):
            assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=50)
@given(token_rows(), st.data())
def test_causal_output_ignores_later_tokens(x, data):
    t = data.draw(st.integers(min_value=0, max_value=len(x) - 1))
    changed = [row if i <= t else data.draw(matrices(1, 3))[0] for i, row in enumerate(x)]
    layer = SelfAttention(3, 2, seed=5)
    before, _ = layer(x, causal=True)
    after, _ = layer(changed, causal=True)
    assert before[: t + 1] == after[: t + 1]


@given(matrices(1, 2), matrices(1, 2), matrices(4, 3), st.integers(min_value=1, max_value=4))
def test_identical_keys_give_mean_of_values(q, k, v, n):
    values = v[:n]
    out, w = scaled_dot_product_attention(q, k * n, values)
    assert all(math.isclose(x, 1 / n) for x in w[0])
    for col in range(3):
        mean = math.fsum(row[col] for row in values) / n
        assert math.isclose(out[0][col], mean, rel_tol=1e-9, abs_tol=1e-9)
