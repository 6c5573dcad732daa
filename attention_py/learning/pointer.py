"""The puzzle model's read-out: the last layer points at a person, forward and backward side by side.

    forward                                          backward (dZ is ∂loss/∂Z)
    A_h = softmax(S_h) over the candidates           dS_ij = A_ij (dA_ij - Σ_k A_ik dA_ik) / √d_k
    S_h = Q_h K_hᵀ / √d_k                            dQ_h = dS_h K_h,  dK_h = dS_hᵀ Q_h
    Q_h = x[rows] W_Q,h,  K_h = x[candidates] W_K,h  dW_Q,h = x[rows]ᵀ dQ_h,  dW_K,h = x[candidates]ᵀ dK_h,
                                                     dx[rows] += dQ_h W_Q,hᵀ,  dx[candidates] += dK_h W_K,hᵀ

It is an attention layer without values and without W_O: the pronoun's query scores the
keys of the people in the sentence (the *candidates*), and the weights are the answer, the
way pointer networks point at an input. A word that is not a candidate gets weight 0; a
query row that may see no candidate (under the causal mask, a word before the first person)
points at nobody. The answer's own line (p = the mean over heads of the weights at the
label's words, L = -log p) is backward.py's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._checks import Matrix
from ..linalg import matrix_product
from ..softmax import stable_softmax
from .gradients import Gradients, add_into, times_transpose, transpose_times
from .layer import softmax_backward


@dataclass
class PointerHead:
    Q: Matrix  # the query rows' queries
    K: Matrix  # the candidates' keys
    weights: Matrix  # one row per query row, over every token (0 but at the candidates)


@dataclass
class PointerPass:
    x: Matrix  # the layer's input, every token
    rows: list[int]  # the query rows computed
    candidates: list[int]  # the token indices it may point at (the people)
    heads: list[PointerHead]


def pointer_weights(parameters: dict[str, Matrix], layer: int, head: int) -> tuple[Matrix, Matrix]:
    """(W_Q, W_K) of one head of the pointing layer."""
    prefix = f"layer{layer}.head{head}."
    return parameters[prefix + "W_Q"], parameters[prefix + "W_K"]


def pointer_forward(
    parameters: dict[str, Matrix],
    layer: int,
    heads: int,
    x: Matrix,
    rows: list[int],
    candidates: list[int],
    allowed: list[list[bool]] | None = None,
) -> PointerPass:
    """Each head's attention from the query rows ``rows`` of x to the ``candidates`` only (and
    only where ``allowed``, one row per query row, says: the causal mask, an ablation)."""
    passes = []
    for h in range(heads):
        W_Q, W_K = pointer_weights(parameters, layer, h)
        scale = 1 / math.sqrt(len(W_Q[0]))
        Q = matrix_product([x[i] for i in rows], W_Q)
        K = matrix_product([x[j] for j in candidates], W_K)  # only the people's keys are ever scored
        weights = []
        for r, q in enumerate(Q):
            keep = None if allowed is None else [allowed[r][j] for j in candidates]
            row = [0.0] * len(x)  # every other word gets weight 0: it may not be pointed at
            if keep is None or any(keep):
                shares = stable_softmax([scale * math.sumprod(q, k) for k in K], keep)
                for j, share in zip(candidates, shares):
                    row[j] = share
            weights.append(row)
        passes.append(PointerHead(Q, K, weights))
    return PointerPass(x, rows, candidates, passes)


def pointer_backward(
    parameters: dict[str, Matrix], layer: int, pointer: PointerPass, row: int, d_A: list[float], grads: Gradients
) -> Matrix:
    """The pointing layer's gradients, given d A (over every token) of the query row ``row``
    alone, the same for every head: its weights' are recorded in ``grads``, d x (every row of
    x) is returned."""
    x, rows, people = pointer.x, pointer.rows, pointer.candidates
    k = rows.index(row)
    d_x = [[0.0] * len(x[0]) for _ in x]
    for h, head in enumerate(pointer.heads):
        W_Q, W_K = pointer_weights(parameters, layer, h)
        d_S = [[0.0] * len(people) for _ in rows]
        d_S[k] = softmax_backward(
            [head.weights[k][j] for j in people], [d_A[j] for j in people], 1 / math.sqrt(len(W_Q[0]))
        )
        d_Q = matrix_product(d_S, head.K)
        d_K = transpose_times(d_S, head.Q)
        prefix = f"layer{layer}.head{h}."
        grads.add_product(prefix + "W_Q", [x[i] for i in rows], d_Q)
        grads.add_product(prefix + "W_K", [x[j] for j in people], d_K)
        for i, d in zip(rows, times_transpose(d_Q, W_Q)):
            add_into([d_x[i]], [d])
        for j, d in zip(people, times_transpose(d_K, W_K)):
            add_into([d_x[j]], [d])
    return d_x
