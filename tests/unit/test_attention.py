"""scaled_dot_product_attention, causal_mask and weighted_average."""

import math

import pytest

from attention_py import causal_mask, scaled_dot_product_attention, softmax, weighted_average


def test_causal_mask_is_lower_triangular():
    assert causal_mask(3) == [
        [True, False, False],
        [True, True, False],
        [True, True, True],
    ]


def test_weighted_average_normalises_weights():
    xs = [[0.0, 0.0], [4.0, 0.0], [0.0, 8.0]]
    assert weighted_average([1, 1, 2], xs) == weighted_average([0.25, 0.25, 0.5], xs) == [1.0, 4.0]


def test_weighted_average_one_hot_picks_a_vector():
    assert weighted_average([0, 1, 0], [[1, 2], [3, 4], [5, 6]]) == [3.0, 4.0]


def test_weighted_average_refuses_negative_and_zero_weights():
    with pytest.raises(ValueError, match="must not be negative"):
        weighted_average([1, -1], [[1], [2]])
    with pytest.raises(ValueError, match="must not all be zero"):
        weighted_average([0, 0], [[1], [2]])


def test_attention_by_hand():
    Q = [[1.0, 0.0]]
    K = [[1.0, 0.0], [0.0, 1.0]]
    V = [[10.0, 0.0], [0.0, 10.0]]
    out, w = scaled_dot_product_attention(Q, K, V)
    expected = softmax([1 / math.sqrt(2), 0.0])
    assert w == [pytest.approx(expected)]
    assert out[0] == pytest.approx([10 * expected[0], 10 * expected[1]])


def test_default_scale_is_one_over_sqrt_dk():
    Q = [[1.0, 2.0, 3.0, 4.0]]
    K = [[0.5, 0.1, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0]]
    V = [[1.0], [2.0]]
    _, default = scaled_dot_product_attention(Q, K, V)
    _, explicit = scaled_dot_product_attention(Q, K, V, scale=0.5)
    assert default == explicit


def test_output_shape_uses_value_width():
    out, w = scaled_dot_product_attention([[1, 0]] * 3, [[1, 0], [0, 1]], [[1, 2, 3], [4, 5, 6]])
    assert (len(out), len(out[0])) == (3, 3)
    assert (len(w), len(w[0])) == (3, 2)


def test_causal_first_token_only_sees_itself():
    X = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]
    out, w = scaled_dot_product_attention(X, X, X, causal=True)
    assert w[0] == [1.0, 0.0, 0.0]
    assert out[0] == X[0]
    assert w[1][2] == 0.0


def test_causal_combines_with_a_mask():
    X = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    keep = [[True, True, True], [False, True, True], [True, True, True]]
    _, w = scaled_dot_product_attention(X, X, X, causal=True, mask=keep)
    assert w[1] == [0.0, 1.0, 0.0]


def test_identical_keys_give_the_mean_of_values():
    K = [[0.3, -0.2]] * 3
    V = [[1.0, 0.0], [2.0, 3.0], [6.0, 3.0]]
    out, _ = scaled_dot_product_attention([[5.0, 1.0]], K, V)
    assert out[0] == pytest.approx([3.0, 2.0])


def test_q_and_k_widths_must_match():
    with pytest.raises(ValueError, match=r"Q has shape \(1, 2\) and K has shape \(2, 3\)"):
        scaled_dot_product_attention([[1, 2]], [[1, 2, 3], [4, 5, 6]], [[1], [2]])


def test_k_and_v_lengths_must_match():
    with pytest.raises(ValueError, match=r"K has shape \(2, 2\) and V has shape \(3, 1\)"):
        scaled_dot_product_attention([[1, 2]], [[1, 2], [3, 4]], [[1], [2], [3]])


def test_mask_shape_must_match_scores():
    with pytest.raises(ValueError, match=r"mask has shape \(2, \.\.\.\) but the scores have shape \(1, 2\)"):
        scaled_dot_product_attention([[1, 2]], [[1, 2], [3, 4]], [[1], [2]], mask=[[1, 1], [1, 1]])


def test_fully_masked_query_row_raises():
    with pytest.raises(ValueError, match="scores row 0 is masked out"):
        scaled_dot_product_attention([[1, 2]], [[1, 2], [3, 4]], [[1], [2]], mask=[[False, False]])
