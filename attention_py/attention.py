"""Scaled dot-product attention: Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V.

Rows are tokens. Row i of Q is what token i is looking for, row j of K is what token j
offers to be found by, row j of V is what token j passes on. Row i of the weight matrix
says how much token i takes from every token j; output row i is the matching weighted
average of the rows of V.

``scaled_dot_product_attention`` checks its input and calls ``attention``, which is the
formula itself, one named step per line.
"""

from __future__ import annotations

import math
from typing import Any

from ._checks import BoolMatrix, Matrix, Vector, as_mask_matrix, as_matrix, as_scalar, as_size, as_vector, shape
from .linalg import matrix_product
from .softmax import stable_softmax


def scaled_dot_product_attention(
    Q: Any,
    K: Any,
    V: Any,
    *,
    mask: Any = None,
    causal: bool = False,
    scale: float | None = None,
) -> tuple[Matrix, Matrix]:
    """softmax(Q Kᵀ · scale) V, returned as ``(output, weights)``.

    Q is n_q x d_k, K is n_k x d_k, V is n_k x d_v. ``scale`` defaults to 1/√d_k, which
    keeps the scores' spread independent of d_k. ``mask`` (n_q x n_k booleans) is True where
    query i may attend to key j; ``causal=True`` additionally forbids keys after the query
    (j > i). Each row of ``weights`` sums to 1; ``output`` is ``weights`` times V.
    """
    Q, K, V = as_matrix(Q, "Q"), as_matrix(K, "K"), as_matrix(V, "V")
    if shape(Q)[1] != shape(K)[1]:
        raise ValueError(
            f"Q has shape {shape(Q)} and K has shape {shape(K)}: queries and keys must have the same width d_k"
        )
    if shape(K)[0] != shape(V)[0]:
        raise ValueError(f"K has shape {shape(K)} and V has shape {shape(V)}: there must be one value row per key row")
    allowed = allowed_keys(mask, causal, len(Q), len(K))
    scale = 1 / math.sqrt(len(K[0])) if scale is None else as_scalar(scale, "scale")
    output, weights, _ = attention(Q, K, V, scale=scale, allowed=allowed)
    return output, weights


def attention(
    Q: Matrix, K: Matrix, V: Matrix, *, scale: float, allowed: BoolMatrix | None = None
) -> tuple[Matrix, Matrix, Matrix]:
    """The formula on checked matrices: ``(output, weights, scores)``.

    ``allowed[i][j]`` says whether query i may look at key j (None: every key).
    """
    scores = [[scale * math.sumprod(q, k) for k in K] for q in Q]  # Q Kᵀ · scale
    if allowed is None:
        weights = [stable_softmax(row) for row in scores]  # rows of positive weights summing to 1
    else:  # masking: a key that query i may not see gets weight 0
        weights = [stable_softmax(row, keep) for row, keep in zip(scores, allowed)]
    output = matrix_product(weights, V)  # row i = Σ_j weights[i][j] V[j], an average of values
    return output, weights, scores


def allowed_keys(mask: Any, causal: bool, n_q: int, n_k: int) -> BoolMatrix | None:
    """Which keys each query may look at: ``mask`` (checked), and with ``causal`` only j <= i."""
    allowed = None if mask is None else as_mask_matrix(mask, "mask", (n_q, n_k))
    if causal:
        allowed = [[j <= i and (allowed is None or allowed[i][j]) for j in range(n_k)] for i in range(n_q)]
    for i, row in enumerate(allowed or ()):
        if not any(row):
            raise ValueError(f"the mask leaves query {i} no key to attend to (scores row {i} is masked out)")
    return allowed


def causal_mask(n: int) -> BoolMatrix:
    """n x n mask, True where query i may attend to key j, that is where j <= i.

    A token sees itself and the tokens before it, never the ones after it.
    """
    n = as_size(n, "n")
    return [[j <= i for j in range(n)] for i in range(n)]


def weighted_average(weights: Any, vectors: Any) -> Vector:
    """y = Σ_j w_j x_j / Σ_j w_j: the point that the weights pull the vectors towards.

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
