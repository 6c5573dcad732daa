"""Bad input is refused with an error that names the argument, never answered silently."""

import math

import pytest

from attention_py import (
    MultiHeadAttention,
    SelfAttention,
    dot,
    dot_product_samples,
    matmul,
    scaled_dot_product_attention,
    softmax,
)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: softmax([]), ValueError, "z must not be empty"),
        (lambda: softmax("abc"), TypeError, "z must be a sequence of numbers"),
        (lambda: softmax([1, None]), TypeError, r"z\[1\] must be a real number, got NoneType"),
        (lambda: softmax([1, "2"]), TypeError, r"z\[1\] must be a real number, got str"),
        (lambda: softmax([True, 1.0]), TypeError, r"z\[0\] must be a real number, got bool"),
        (lambda: softmax([1.0, math.nan]), ValueError, r"z\[1\] must be finite, got nan"),
        (lambda: softmax([math.inf]), ValueError, r"z\[0\] must be finite, got inf"),
        (lambda: softmax([1.0], scale=math.nan), ValueError, "scale must be finite"),
        (lambda: softmax([1.0], scale="2"), TypeError, "scale must be a real number"),
        (lambda: dot([[1]], [1]), TypeError, r"a\[0\] must be a real number, got list"),
        (lambda: matmul([[1, 2], [3]], [[1], [2]]), ValueError, "A is ragged: row 1 has 1 entries but row 0 has 2"),
        (lambda: matmul([], [[1]]), ValueError, "A must not be empty"),
        (lambda: matmul([[]], [[1]]), ValueError, r"A\[0\] must not be empty"),
        (lambda: matmul([1, 2], [[1]]), TypeError, r"A\[0\] must be a row"),
        (
            lambda: scaled_dot_product_attention([[1.0, math.inf]], [[1, 2]], [[1]]),
            ValueError,
            r"Q\[0\]\[1\] must be finite",
        ),
        (lambda: SelfAttention(0, 2), ValueError, "d_model must be a positive integer, got 0"),
        (lambda: SelfAttention(4, -1), ValueError, "d_k must be a positive integer, got -1"),
        (lambda: SelfAttention(4, 2.5), TypeError, "d_k must be a positive integer"),
        (lambda: SelfAttention(4, 2, d_v=0), ValueError, "d_v must be a positive integer"),
        (lambda: MultiHeadAttention(6, 4), ValueError, "d_model=6 is not divisible by n_heads=4"),
        (lambda: MultiHeadAttention(8, 0), ValueError, "n_heads must be a positive integer"),
        (lambda: dot_product_samples(0), ValueError, "d_k must be a positive integer"),
        (lambda: dot_product_samples(4, n_pairs=0), ValueError, "n_pairs must be a positive integer"),
    ],
)
def test_bad_input_is_refused_clearly(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_self_attention_checks_input_width():
    layer = SelfAttention(3, 2)
    with pytest.raises(ValueError, match=r"X has shape \(2, 4\) but this layer expects rows of width d_model=3"):
        layer([[1, 2, 3, 4], [5, 6, 7, 8]])


def test_a_weight_of_the_wrong_shape_is_refused_where_it_is_assigned():
    layer = SelfAttention(3, 2)
    with pytest.raises(ValueError, match=r"W_Q must have shape \(3, 2\), got \(2, 3\)"):
        layer.W_Q = [[1, 2, 3], [4, 5, 6]]
    with pytest.raises(TypeError, match=r"W_V\[1\]\[1\] must be a real number"):
        layer.W_V = [[1, 2], [3, None], [5, 6]]
    layer.W_K = ((1, 2), (3, 4), (5, 6))  # any rows of numbers: stored as lists of floats
    assert layer.W_K == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def test_output_projection_of_the_wrong_shape_is_refused_where_it_is_assigned():
    with pytest.raises(ValueError, match=r"W_O must have shape \(4, 4\)"):
        MultiHeadAttention(4, 2).W_O = [[1.0] * 4] * 3


def test_a_mask_that_leaves_a_query_nothing_is_refused():
    with pytest.raises(ValueError, match="leaves query 1 no key"):
        SelfAttention(2, 2)([[1, 0], [0, 1]], mask=[[True, True], [False, False]])
