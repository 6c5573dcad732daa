"""The next-token model's read-out: a score for every token, and the loss, forward and backward side by side.

    forward                                          backward (dZ is ∂loss/∂Z)
    L = (1/m) Σ_(i < n-1) -log p_i[t_(i+1)]          d logits_i = (p_i - onehot(t_(i+1))) / m,  m = n - 1
    p_i = softmax(logits_i)                          (the last position guesses nothing: its d logits are 0)
    logits = x W_U                                   dW_U = xᵀ d logits,  dx = d logits W_Uᵀ

``W_U`` (the *unembedding*, d_model x vocabulary) turns the last vector of each position into
one score per token; the softmax of those scores is the position's guess of the token after
it. The loss and the softmax go back in one line, as for any cross-entropy of a softmax.
"""

from __future__ import annotations

import math

from .._checks import Matrix
from ..linalg import matrix_product
from ..softmax import stable_softmax
from .gradients import Gradients, times_transpose
from .parameters import SMALLEST_P


def unembed(x: Matrix, W_U: Matrix) -> Matrix:
    """Each position's distribution of the next token: softmax(x_i W_U), one row per position."""
    return [stable_softmax(row) for row in matrix_product(x, W_U)]


def next_token_loss(probabilities: Matrix, ids: list[int]) -> float:
    """The mean cross-entropy of every position's guess of the token after it."""
    return sum(-math.log(max(probabilities[i][ids[i + 1]], SMALLEST_P)) for i in range(len(ids) - 1)) / max(
        len(ids) - 1, 1
    )


def unembed_backward(
    x: Matrix, probabilities: Matrix, ids: list[int], W_U: Matrix, grads: Gradients, weight: float = 1.0
) -> Matrix:
    """``weight`` times the loss's gradients through the read-out: dW_U is recorded in
    ``grads`` (under "W_U"), d x (every position) is returned."""
    n = len(ids)
    m = max(n - 1, 1)
    d_logits = []
    for i, p in enumerate(probabilities):
        row = [weight * pj / m for pj in p] if i < n - 1 else [0.0] * len(p)
        if i < n - 1:
            row[ids[i + 1]] -= weight / m
        d_logits.append(row)
    grads.add_product("W_U", x, d_logits)
    return times_transpose(d_logits, W_U)
