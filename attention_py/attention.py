"""Scaled dot-product attention and the pieces around it.

Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V

Rows are tokens. Row i of Q is what token i is looking for, row j of K is what token j
offers to be found by, row j of V is what token j passes on. Row i of the weight matrix
says how much token i takes from every token j; the output row i is the matching weighted
average of the rows of V.
"""

from __future__ import annotations

import math
from typing import Any

from ._checks import (
    BoolMatrix,
    Matrix,
    Vector,
    as_mask_matrix,
    as_matrix,
    as_scalar,
    as_size,
    as_vector,
    shape,
)
from .linalg import _matmul, _matmul_transposed
from .softmax import _softmax


def causal_mask(n: int) -> BoolMatrix:
    """n x n mask, True where query i may attend to key j, that is where j <= i.

    A token sees itself and the tokens before it, never the ones after it.
    """
    size = as_size(n, "n")
    return [[j <= i for j in range(size)] for i in range(size)]


def weighted_average(weights: Any, vectors: Any) -> Vector:
    """y = sum_j w_j x_j / sum_j w_j: the point that the weights pull the vectors towards.

    Weights must be non-negative with a positive sum; they are normalised here, so
    [1, 1, 2] and [0.25, 0.25, 0.5] give the same point.
    """
    w = as_vector(weights, "weights")
    xs = as_matrix(vectors, "vectors")
    if len(w) != len(xs):
        raise ValueError(f"weights has {len(w)} entries but there are {len(xs)} vectors")
    if any(x < 0 for x in w):
        raise ValueError(f"weights must not be negative, got {w}")
    total = math.fsum(w)
    if total <= 0:
        raise ValueError("weights must not all be zero")
    return [math.fsum(wj * x[col] for wj, x in zip(w, xs)) / total for col in range(len(xs[0]))]


def scaled_dot_product_attention(
    Q: Any,
    K: Any,
    V: Any,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[Matrix, Matrix]:
    """softmax(Q K^T * scale) V, returned as ``(output, weights)``.

    Q is n_q x d_k, K is n_k x d_k, V is n_k x d_v. ``scale`` defaults to 1/sqrt(d_k), which
    keeps the scores' spread independent of d_k. ``mask`` (n_q x n_k booleans) is True where
    query i may attend to key j; ``causal=True`` additionally forbids keys after the query
    (j > i). Each row of ``weights`` sums to 1; ``output`` is ``weights`` times V.
    """
    q, k, v = as_matrix(Q, "Q"), as_matrix(K, "K"), as_matrix(V, "V")
    if shape(q)[1] != shape(k)[1]:
        raise ValueError(
            f"Q has shape {shape(q)} and K has shape {shape(k)}: "
            f"queries and keys must have the same width d_k"
        )
    if shape(k)[0] != shape(v)[0]:
        raise ValueError(
            f"K has shape {shape(k)} and V has shape {shape(v)}: "
            f"there must be one value row per key row"
        )
    n_q, n_k = len(q), len(k)
    keep = None if mask is None else as_mask_matrix(mask, "mask", (n_q, n_k))
    factor = 1.0 / math.sqrt(len(k[0])) if scale is None else as_scalar(scale, "scale")
    return _attention(q, k, v, keep=keep, causal=causal, scale=factor)


def _attention(
    q: Matrix, k: Matrix, v: Matrix, *, keep: BoolMatrix | None, causal: bool, scale: float
) -> tuple[Matrix, Matrix]:
    """softmax(Q K^T * scale) V for inputs already checked to fit."""
    if causal:
        keep = [
            [j <= i and (keep is None or keep[i][j]) for j in range(len(k))] for i in range(len(q))
        ]
    scores = _matmul_transposed(q, k)
    weights = [
        _softmax(row, scale, None if keep is None else keep[i], f"scores row {i}")
        for i, row in enumerate(scores)
    ]
    return _matmul(weights, v), weights
