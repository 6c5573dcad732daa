"""The next-token model's read-out: a score for every token, and the loss, forward and backward side by side.

    forward                                          backward (dZ is ∂loss/∂Z)
    L = (1/m) Σ_(f ≤ i < n-1) -log p_i[t_(i+1)]      d logits_i = (p_i - onehot(t_(i+1))) / m,  m = n - 1 - f
    p_i = softmax(logits_i)                          (a position outside the sum has d logits 0: the
                                                     last guesses nothing, those before f are not asked)
    logits = x W_U                                   dW_U = xᵀ d logits,  dx = d logits W_Uᵀ

``W_U`` (the *unembedding*, d_model x vocabulary) turns the last vector of each position into
one score per token; the softmax of those scores is the position's guess of the token after
it. The loss and the softmax go back in one line, as for any cross-entropy of a softmax.

``first`` (f above, 0 by default) leaves the guesses of the positions before it out of the
loss: where the tokens are random until a pattern begins (the copy task), the early guesses
cannot be right, and their loss is noise in the gradient of the ones that can.
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


def asked(ids: list[int], first: int = 0) -> range:
    """The positions whose guess of the next token the loss counts: ``first`` to the one
    before the last (the last guesses nothing); ValueError when none is left."""
    if not 0 <= first < len(ids) - 1:
        raise ValueError(f"the loss counts positions {first} to {len(ids) - 2}: none, in {len(ids)} tokens")
    return range(first, len(ids) - 1)


def next_token_loss(probabilities: Matrix, ids: list[int], first: int = 0) -> float:
    """The mean cross-entropy of the guess of the token after it, at every position from ``first``."""
    counted = asked(ids, first)
    return sum(-math.log(max(probabilities[i][ids[i + 1]], SMALLEST_P)) for i in counted) / len(counted)


def unembed_backward(
    x: Matrix, probabilities: Matrix, ids: list[int], W_U: Matrix, grads: Gradients, weight: float = 1.0, first: int = 0
) -> Matrix:
    """``weight`` times the gradients of ``next_token_loss`` (from position ``first``) through
    the read-out: dW_U is recorded in ``grads`` (under "W_U"), d x (every position) is returned."""
    counted = asked(ids, first)
    m = len(counted)
    d_logits = []
    for i, p in enumerate(probabilities):
        row = [weight * pj / m for pj in p] if i in counted else [0.0] * len(p)
        if i in counted:
            row[ids[i + 1]] -= weight / m
        d_logits.append(row)
    grads.add_product("W_U", x, d_logits)
    return times_transpose(d_logits, W_U)
