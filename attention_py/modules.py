"""Self-attention and multi-head attention: layers that own their projection matrices.

Tokens are rows: X is n x d_model, and the projections are Q = X W_Q, K = X W_K,
V = X W_V: row i of Q is q_i = x_i W_Q, as in the articles. The weights start from a deterministic
Glorot-uniform initialisation (see ``rng``) and are plain lists of rows: read them, or
assign new ones (checked as they are assigned), so a page can show or set every number.

The classes check what they are given and call two functions on checked matrices, which
are also the learning package's attention layer (attention_py/learning/layer.py):
``project_and_attend`` (one head: project, then attend) and ``mix_heads`` (the heads side
by side, times W_O).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ._checks import Matrix, as_matrix, as_size, require_shape, shape
from .attention import allowed_keys, attention
from .linalg import matrix_product
from .rng import glorot_uniform


@dataclass
class Head:
    """One head's matrices from one call (``project_and_attend``)."""

    Q: Matrix  # the queries of the rows asked for
    K: Matrix
    V: Matrix
    scores: Matrix  # Q Kᵀ / √d_k, before masking
    weights: Matrix  # softmax of the scores, one row per query
    output: Matrix  # weights V


def project_and_attend(
    queries: Matrix,
    keys: Matrix,
    values: Matrix,
    projections: tuple[Matrix, Matrix, Matrix],
    allowed: list[list[bool]] | None = None,
) -> Head:
    """One head on checked matrices: Q = queries W_Q, K = keys W_K, V = values W_V, then
    softmax(Q Kᵀ / √d_k) V. The three inputs are the same token rows in self-attention;
    ``queries`` may be a few of them (the rows a model reads next), and an ablation may read
    keys or values from elsewhere. ``allowed[i][j]``: may query i see key j (None: all)."""
    W_Q, W_K, W_V = projections
    Q = matrix_product(queries, W_Q)  # what each token is looking for
    K = matrix_product(keys, W_K)  # what each token can be found by
    V = matrix_product(values, W_V)  # what each token passes on
    output, weights, scores = attention(Q, K, V, scale=1 / math.sqrt(len(W_Q[0])), allowed=allowed)
    return Head(Q, K, V, scores, weights, output)


def mix_heads(outputs: list[Matrix], W_O: Matrix) -> tuple[Matrix, Matrix]:
    """(concat, concat W_O): the heads' outputs side by side, row by row, then mixed by W_O."""
    concat = [[x for row in rows for x in row] for rows in zip(*outputs)]
    return concat, matrix_product(concat, W_O)


class SelfAttention:
    """One attention head: softmax(Q Kᵀ / √d_k) V with Q, K, V projected from X.

    ``W_Q`` and ``W_K`` are d_model x d_k, ``W_V`` is d_model x d_v (d_v defaults to d_k);
    assigning one checks its shape and numbers. After a call, ``Q``, ``K``, ``V``, ``scores`` (Q Kᵀ / √d_k, before masking) and
    ``weights`` hold the matrices of that call.
    """

    def __init__(self, d_model: int, d_k: int, d_v: int | None = None, *, seed: int = 0) -> None:
        self.d_model = as_size(d_model, "d_model")
        self.d_k = as_size(d_k, "d_k")
        self.d_v = self.d_k if d_v is None else as_size(d_v, "d_v")
        rng = random.Random(seed)
        self.W_Q: Matrix = glorot_uniform(rng, self.d_model, self.d_k)
        """The query projection, d_model x d_k: Q = X W_Q."""
        self.W_K: Matrix = glorot_uniform(rng, self.d_model, self.d_k)
        """The key projection, d_model x d_k: K = X W_K."""
        self.W_V: Matrix = glorot_uniform(rng, self.d_model, self.d_v)
        """The value projection, d_model x d_v: V = X W_V."""
        self.Q: Matrix | None = None
        self.K: Matrix | None = None
        self.V: Matrix | None = None
        self.scores: Matrix | None = None
        self.weights: Matrix | None = None

    def __call__(self, X: Any, *, mask: Any = None, causal: bool = False) -> tuple[Matrix, Matrix]:
        """(output, weights) for the token rows X; output is n x d_v, weights n x n."""
        X = self._checked_tokens(X)
        allowed = allowed_keys(mask, causal, len(X), len(X))
        head = project_and_attend(X, X, X, (self.W_Q, self.W_K, self.W_V), allowed)
        self.Q, self.K, self.V, self.scores, self.weights = head.Q, head.K, head.V, head.scores, head.weights
        return head.output, head.weights

    def _checked_tokens(self, X: Any) -> Matrix:
        tokens = as_matrix(X, "X")
        if shape(tokens)[1] != self.d_model:
            raise ValueError(f"X has shape {shape(tokens)} but this layer expects rows of width d_model={self.d_model}")
        return tokens

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("W_Q", "W_K", "W_V"):  # a bad matrix fails where it is assigned, not at the next call
            width = self.d_v if name == "W_V" else self.d_k
            value = as_matrix(value, name)
            require_shape(value, name, (self.d_model, width))
        super().__setattr__(name, value)


class MultiHeadAttention:
    """Several heads side by side, each with its own W_Q, W_K, W_V of width d_model / n_heads.

    MultiHead(X) = Concat(head_1, ..., head_h) W_O. Each head can learn to look for a
    different kind of relation. With d_model / n_heads columns per head the concatenation
    already has d_model columns; ``W_O`` mixes the heads, so every output feature can draw
    on all of them.
    After a call, ``head_outputs``, ``head_weights`` and ``concat`` hold that call's values.
    """

    def __init__(self, d_model: int, n_heads: int, *, seed: int = 0, causal: bool = False) -> None:
        self.d_model = as_size(d_model, "d_model")
        self.n_heads = as_size(n_heads, "n_heads")
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}; "
                f"each head gets d_model / n_heads columns"
            )
        self.d_head = self.d_model // self.n_heads
        self.causal = bool(causal)
        rng = random.Random(seed)
        self.heads = [SelfAttention(self.d_model, self.d_head, seed=rng.getrandbits(32)) for _ in range(self.n_heads)]
        self.W_O: Matrix = glorot_uniform(rng, self.d_model, self.d_model)
        """The output projection, d_model x d_model, applied to the heads' concatenation."""
        self.head_outputs: list[Matrix] | None = None
        self.head_weights: list[Matrix] | None = None
        self.concat: Matrix | None = None

    def __call__(self, X: Any, *, mask: Any = None) -> tuple[Matrix, list[Matrix]]:
        """(output, weights per head); output is n x d_model."""
        X = as_matrix(X, "X")
        results = [head(X, mask=mask, causal=self.causal) for head in self.heads]
        self.head_outputs = [output for output, _ in results]
        self.head_weights = [weights for _, weights in results]
        self.concat, output = mix_heads(self.head_outputs, self.W_O)
        return output, self.head_weights

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "W_O":  # a bad matrix fails where it is assigned, not at the next call
            value = as_matrix(value, name)
            require_shape(value, name, (self.d_model, self.d_model))
        super().__setattr__(name, value)
