"""softmax and softmax_rows: known values, stability, scale, masks."""

import math

import pytest

from attention_py import softmax, softmax_rows


def test_seed_example_percentages():
    p = softmax([1.5, 2.0, 3.0])
    assert [round(100 * x, 1) for x in p] == [14.0, 23.1, 62.9]
    assert math.isclose(sum(p), 1.0)


def test_equal_scores_give_uniform_weights():
    assert softmax([7, 7, 7, 7]) == [0.25, 0.25, 0.25, 0.25]


def test_single_entry_is_certain():
    assert softmax([-1234.5]) == [1.0]


@pytest.mark.parametrize("big", [1e6, -1e6, 1e300])
def test_huge_scores_do_not_overflow(big):
    p = softmax([big, 0.0, big / 2])
    assert all(math.isfinite(x) for x in p)
    assert math.isclose(sum(p), 1.0)


def test_scale_1e6_gives_one_hot_without_nan():
    assert softmax([1.0, 2.0, 3.0], scale=1e6) == [0.0, 0.0, 1.0]


def test_scale_zero_is_uniform():
    assert softmax([1.0, 5.0], scale=0.0) == [0.5, 0.5]


def test_scale_is_inverse_temperature():
    sharp = softmax([1.0, 2.0], scale=4.0)
    flat = softmax([1.0, 2.0], scale=0.25)
    assert sharp[1] > softmax([1.0, 2.0])[1] > flat[1] > 0.5


def test_scale_equals_scaling_the_scores():
    assert softmax([1.0, 2.0, 4.0], scale=0.5) == pytest.approx(softmax([0.5, 1.0, 2.0]), abs=1e-15)


def test_masked_entries_are_exactly_zero_and_rest_renormalise():
    p = softmax([1.5, 2.0, 3.0], mask=[True, False, True])
    assert p[1] == 0.0
    assert p == pytest.approx([1 / (1 + math.exp(1.5)), 0.0, 1 / (1 + math.exp(-1.5))])


def test_masked_entry_larger_than_the_rest_does_not_overflow():
    assert softmax([1e308, 0.0], mask=[False, True]) == [0.0, 1.0]


def test_all_masked_row_raises():
    with pytest.raises(ValueError, match="every entry of z is masked out"):
        softmax([1.0, 2.0], mask=[False, False])


def test_mask_length_must_match():
    with pytest.raises(ValueError, match="mask has 2 entries but the scores have 3"):
        softmax([1, 2, 3], mask=[True, False])


def test_mask_entries_must_be_booleans():
    with pytest.raises(TypeError, match=r"mask\[1\] must be True/False"):
        softmax([1, 2], mask=[True, "no"])


def test_overflowing_scale_is_refused_clearly():
    with pytest.raises(ValueError, match="overflows"):
        softmax([1e300, 1.0], scale=1e300)


def test_softmax_rows_each_row_sums_to_one():
    rows = softmax_rows([[1, 2, 3], [0, 0, 0], [-5, 10, 2]])
    for row in rows:
        assert math.isclose(sum(row), 1.0)
    assert rows[1] == [1 / 3, 1 / 3, 1 / 3]


def test_softmax_rows_with_mask_matrix():
    rows = softmax_rows([[1, 2], [3, 4]], mask=[[True, False], [True, True]])
    assert rows[0] == [1.0, 0.0]


def test_softmax_rows_mask_shape_checked():
    with pytest.raises(ValueError, match=r"mask has shape \(1, \.\.\.\) but the scores have shape \(2, 2\)"):
        softmax_rows([[1, 2], [3, 4]], mask=[[True, True]])


def test_all_masked_row_in_matrix_names_the_row():
    with pytest.raises(ValueError, match=r"Z\[1\] is masked out"):
        softmax_rows([[1, 2], [3, 4]], mask=[[True, True], [False, False]])
