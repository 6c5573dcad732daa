"""One attention layer, its forward and backward pass side by side: what both of the learning
package's models are made of (model.py reads a puzzle, next_token.py predicts text).

    forward                                        backward (dZ is ∂loss/∂Z, the shape of Z)
    out = x[rows] + C W_O                          dx = dout (the residual connection),
                                                   dW_O = Cᵀ dout,  dC = dout W_Oᵀ
    C = [H_1 | ... | H_heads]                      dH_h = the columns of dC that head h wrote
    H_h = A_h V_h                                  dA_h = dH_h V_hᵀ,  dV_h = A_hᵀ dH_h
    A_h = softmax(S_h), S_h = Q_h K_hᵀ / √d_k      dS_ij = A_ij (dA_ij - Σ_k A_ik dA_ik) / √d_k
                                                   dQ_h = dS_h K_h,  dK_h = dS_hᵀ Q_h
    Q_h = x[rows] W_Q,h                            dW_Q,h = x[rows]ᵀ dQ_h,  dx[rows] += dQ_h W_Q,hᵀ
    K_h = x W_K,h,  V_h = x W_V,h                  dW_K,h = xᵀ dK_h,  dW_V,h = xᵀ dV_h,
                                                   dx += dK_h W_K,hᵀ + dV_h W_V,hᵀ

Each head is the package's own ``project_and_attend`` and the heads are mixed by its
``mix_heads`` (attention_py/modules.py, what ``MultiHeadAttention`` calls too). ``rows`` are the query rows computed (every
row, or the few a model reads next); the other rows pass the layer unchanged. ``allowed``
says which keys each query row may see (the causal mask, an ablation's cut); a key it may
not see has weight 0, so its dS is 0 and the mask needs no line of its own in the backward
pass. The three ways x reaches the heads go back in one product,
dx += [dQ_h | dK_h | dV_h]_h [W_Q,h | W_K,h | W_V,h]_hᵀ: the same sum as one product per
matrix, in a third of the Python calls.

Parameters are named ``layer{l}.head{h}.W_Q`` (``W_K``, ``W_V``) and ``layer{l}.W_O``;
``Gradients`` (gradients.py) collects each weight's gradient under its name.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from .._checks import Matrix
from ..attention import causal_mask
from ..linalg import matrix_product
from ..modules import Head, mix_heads, project_and_attend
from .gradients import Gradients, add_into, times_transpose, transpose_times


@dataclass
class LayerPass:
    x: Matrix  # the layer's input, every token
    rows: list[int]  # the query rows computed (the others pass the layer unchanged)
    heads: list[Head]  # Q (of the query rows), K, V, scores, weights and output of each head
    concat: Matrix  # the heads' outputs side by side, one row per query row
    output: Matrix  # x + concat W_O for the query rows


@dataclass(frozen=True)
class LayerCut:
    """Paths of one layer switched off, to test what a trained model relies on (next_token.Cut;
    never in training: the backward pass assumes no cut). The queries, keys or values marked
    are read from ``source`` (the embeddings) instead of the layer's input; the heads in
    ``heads_off`` add nothing."""

    source: Matrix
    queries: bool = False
    keys: bool = False
    values: bool = False
    heads_off: frozenset[int] = frozenset()

    def inputs(self, x: Matrix) -> tuple[Matrix, Matrix, Matrix]:
        """Where the queries, keys and values are read from."""
        source = self.source
        return (source if self.queries else x), (source if self.keys else x), (source if self.values else x)


@functools.cache
def causal_rows(n: int) -> list[list[bool]]:
    """The causal mask of ``n`` tokens (``attention_py.causal_mask``), made once per length
    and shared: every caller reads it, none changes it."""
    return causal_mask(n)


def head_weights(parameters: dict[str, Matrix], layer: int, head: int) -> tuple[Matrix, Matrix, Matrix]:
    """(W_Q, W_K, W_V) of one head of an attention layer."""
    prefix = f"layer{layer}.head{head}."
    return parameters[prefix + "W_Q"], parameters[prefix + "W_K"], parameters[prefix + "W_V"]


def layer_forward(
    parameters: dict[str, Matrix],
    layer: int,
    heads: int,
    x: Matrix,
    rows: list[int],
    allowed: list[list[bool]] | None = None,
    cut: LayerCut | None = None,
) -> LayerPass:
    """x[rows] + concat_h(attention of head h) W_O: each query row of ``rows`` looks at every
    key, or where ``allowed`` (one row per query row) says."""
    q_in, k_in, v_in = (x, x, x) if cut is None else cut.inputs(x)
    queries = [q_in[i] for i in rows]
    passes = [
        project_and_attend(queries, k_in, v_in, head_weights(parameters, layer, h), allowed) for h in range(heads)
    ]
    if cut is not None:
        for h in cut.heads_off:
            passes[h].output = [[0.0] * len(row) for row in passes[h].output]
    concat, update = mix_heads([head.output for head in passes], parameters[f"layer{layer}.W_O"])
    output = [[a + b for a, b in zip(x[i], u)] for i, u in zip(rows, update)]  # the residual connection
    return LayerPass(x, list(rows), passes, concat, output)


def layer_backward(
    parameters: dict[str, Matrix], layer: int, layer_pass: LayerPass, d_out: Matrix, grads: Gradients
) -> Matrix:
    """The layer's gradients from d out (every row of x): its weights' are recorded in
    ``grads``, d x (every row) is returned."""
    x, rows = layer_pass.x, layer_pass.rows
    d_x = [list(row) for row in d_out]  # the residual connection passes d out straight through
    d_out = [d_out[i] for i in rows]  # from here on, the rows the layer computed
    grads.add_product(f"layer{layer}.W_O", layer_pass.concat, d_out)
    d_concat = times_transpose(d_out, parameters[f"layer{layer}.W_O"])
    queries = [x[i] for i in rows]
    d_parts: list[list[float]] = [[] for _ in x]  # row i: [dQ_h | dK_h | dV_h] for every head h
    stacked: list[list[float]] = [[] for _ in x[0]]  # row k: [W_Q,h | W_K,h | W_V,h][k] for every head h
    start = 0
    for h, head in enumerate(layer_pass.heads):
        W_Q, W_K, W_V = head_weights(parameters, layer, h)
        width = len(W_V[0])
        d_H = [row[start : start + width] for row in d_concat]
        start += width
        scale = 1 / math.sqrt(len(W_Q[0]))
        d_S = [
            softmax_backward(weights, [math.sumprod(d_h, v) if a else 0.0 for a, v in zip(weights, head.V)], scale)
            for weights, d_h in zip(head.weights, d_H)
        ]  # d A = d H Vᵀ, where the row saw the key
        d_Q = matrix_product(d_S, head.K)
        d_K = transpose_times(d_S, head.Q)
        d_V = transpose_times(head.weights, d_H)
        prefix = f"layer{layer}.head{h}."
        grads.add_product(prefix + "W_Q", queries, d_Q)
        grads.add_product(prefix + "W_K", x, d_K)
        grads.add_product(prefix + "W_V", x, d_V)
        d_q_rows = dict(zip(rows, d_Q))
        zeros = [0.0] * len(W_Q[0])
        for i, (row, k, v) in enumerate(zip(d_parts, d_K, d_V)):
            row += d_q_rows.get(i, zeros) + k + v
        for row, w_q, w_k, w_v in zip(stacked, W_Q, W_K, W_V):
            row += w_q + w_k + w_v
    add_into(d_x, times_transpose(d_parts, stacked))
    return d_x


def softmax_backward(A_row: list[float], dA_row: list[float], scale: float) -> list[float]:
    """d scores of one row, through A = softmax(scale · scores): A_j (dA_j - Σ_k A_k dA_k) · scale
    (exactly 0 where A_j is 0: a key the row did not see)."""
    mean = math.sumprod(A_row, dA_row)
    return [a * (g - mean) * scale if a else 0.0 for a, g in zip(A_row, dA_row)]
