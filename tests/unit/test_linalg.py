"""dot, norm, transpose, matmul: values and the errors for shapes that don't fit."""

import math

import pytest

from attention_py import dot, matmul, norm, transpose


def test_dot_of_small_vectors():
    assert dot([1, 2, 3], [4, 5, 6]) == 32.0
    assert dot((0.5,), (4,)) == 2.0


def test_dot_of_perpendicular_vectors_is_zero():
    assert dot([1, 0], [0, 7]) == 0.0


def test_norm_is_length():
    assert norm([3, 4]) == 5.0
    assert math.isclose(norm([1, 1]), math.sqrt(2))


def test_transpose_swaps_rows_and_columns():
    assert transpose([[1, 2, 3], [4, 5, 6]]) == [[1, 4], [2, 5], [3, 6]]


def test_matmul_known_product():
    a = [[1, 2], [3, 4]]
    b = [[5, 6], [7, 8]]
    assert matmul(a, b) == [[19.0, 22.0], [43.0, 50.0]]


def test_matmul_non_square():
    assert matmul([[1, 2, 3]], [[1], [0], [-1]]) == [[-2.0]]


def test_results_are_plain_floats():
    out = matmul([[1]], [[2]])
    assert type(out) is list
    assert type(out[0]) is list
    assert type(out[0][0]) is float


def test_dot_length_mismatch_names_both_lengths():
    with pytest.raises(ValueError, match="same length, got 2 and 3"):
        dot([1, 2], [1, 2, 3])


def test_matmul_shape_mismatch_names_shapes():
    with pytest.raises(ValueError, match=r"A has shape \(2, 3\) and B has shape \(2, 3\)"):
        matmul([[1, 2, 3], [4, 5, 6]], [[1, 2, 3], [4, 5, 6]])


def test_tuple_of_tuples_and_tolist_objects_are_accepted():
    class ArrayLike:
        def tolist(self):
            return [[1.0, 2.0]]

    assert matmul(ArrayLike(), ((1,), (1,))) == [[3.0]]
