"""Self-attention and multi-head attention layers with learnable-looking weights.

Tokens are rows: X is n x d_model, and the projections are Q = X W_Q, K = X W_K,
V = X W_V (the row-vector form of q_i = W_Q x_i). Weights start from a deterministic
Glorot-uniform initialisation (see ``rng``) and can be read and replaced, so a page can
show or set every number.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ._checks import Matrix, Vector, as_mask_matrix, as_matrix, as_size, as_vector, require_shape, shape
from .attention import _attention
from .linalg import _add_row, _hstack, _matmul, _matmul_transposed, _transpose
from .rng import glorot_bound, uniform_matrix


class SelfAttention:
    """One attention head: softmax(Q K^T / sqrt(d_k)) V with Q, K, V projected from X.

    ``W_Q`` and ``W_K`` are d_model x d_k, ``W_V`` is d_model x d_v (d_v defaults to d_k).
    With ``bias=True`` the projections add ``b_Q``, ``b_K``, ``b_V``. After a call, ``Q``,
    ``K``, ``V`` and ``weights`` hold the matrices of that call.
    """

    def __init__(
        self, d_model: int, d_k: int, d_v: int | None = None, *, seed: int = 0, bias: bool = False
    ) -> None:
        self.d_model = as_size(d_model, "d_model")
        self.d_k = as_size(d_k, "d_k")
        self.d_v = self.d_k if d_v is None else as_size(d_v, "d_v")
        rng = random.Random(seed)
        # Stored transposed (one row per output column): every projection entry is then one
        # C-level math.sumprod of two rows, the fastest dot product pure Python has.
        self._W_Q_T = _transpose(uniform_matrix(rng, self.d_model, self.d_k, glorot_bound(self.d_model, self.d_k)))
        self._W_K_T = _transpose(uniform_matrix(rng, self.d_model, self.d_k, glorot_bound(self.d_model, self.d_k)))
        self._W_V_T = _transpose(uniform_matrix(rng, self.d_model, self.d_v, glorot_bound(self.d_model, self.d_v)))
        self.bias = bool(bias)
        self._b_Q: Vector | None = None
        self._b_K: Vector | None = None
        self._b_V: Vector | None = None
        if self.bias:  # like a linear layer: uniform within 1/sqrt(fan_in)
            bound = self.d_model ** -0.5
            self._b_Q = uniform_matrix(rng, 1, self.d_k, bound)[0]
            self._b_K = uniform_matrix(rng, 1, self.d_k, bound)[0]
            self._b_V = uniform_matrix(rng, 1, self.d_v, bound)[0]
        self.Q: Matrix | None = None
        self.K: Matrix | None = None
        self.V: Matrix | None = None
        self.weights: Matrix | None = None

    # Weights: readable, and settable with a shape check.
    @property
    def W_Q(self) -> Matrix:
        """The query projection, d_model x d_k: Q = X W_Q. A copy; assign a matrix to replace it."""
        return _transpose(self._W_Q_T)

    @W_Q.setter
    def W_Q(self, value: Any) -> None:
        self._W_Q_T = self._checked_weight(value, "W_Q", self.d_k)

    @property
    def W_K(self) -> Matrix:
        """The key projection, d_model x d_k: K = X W_K. A copy; assign a matrix to replace it."""
        return _transpose(self._W_K_T)

    @W_K.setter
    def W_K(self, value: Any) -> None:
        self._W_K_T = self._checked_weight(value, "W_K", self.d_k)

    @property
    def W_V(self) -> Matrix:
        """The value projection, d_model x d_v: V = X W_V. A copy; assign a matrix to replace it."""
        return _transpose(self._W_V_T)

    @W_V.setter
    def W_V(self, value: Any) -> None:
        self._W_V_T = self._checked_weight(value, "W_V", self.d_v)

    @property
    def biases(self) -> tuple[Vector, Vector, Vector] | None:
        """(b_Q, b_K, b_V) copies, or None without bias."""
        if self._b_Q is None or self._b_K is None or self._b_V is None:
            return None
        return (self._b_Q[:], self._b_K[:], self._b_V[:])

    @biases.setter
    def biases(self, value: Any) -> None:
        if not self.bias:
            raise ValueError("this layer was made with bias=False; it has no biases to set")
        b_q, b_k, b_v = value
        self._b_Q = self._checked_bias(b_q, "b_Q", self.d_k)
        self._b_K = self._checked_bias(b_k, "b_K", self.d_k)
        self._b_V = self._checked_bias(b_v, "b_V", self.d_v)

    def _checked_weight(self, value: Any, name: str, cols: int) -> Matrix:
        """The transpose of a checked d_model x cols weight matrix."""
        matrix = as_matrix(value, name)
        require_shape(matrix, name, (self.d_model, cols))
        return _transpose(matrix)

    @staticmethod
    def _checked_bias(value: Any, name: str, length: int) -> Vector:
        vector = as_vector(value, name)
        if len(vector) != length:
            raise ValueError(f"{name} must have {length} entries, got {len(vector)}")
        return vector

    def project(self, X: Any) -> tuple[Matrix, Matrix, Matrix]:
        """(Q, K, V) = (X W_Q, X W_K, X W_V), plus biases when the layer has them."""
        x = as_matrix(X, "X")
        if shape(x)[1] != self.d_model:
            raise ValueError(f"X has shape {shape(x)} but this layer expects rows of width d_model={self.d_model}")
        q, k, v = (_matmul_transposed(x, w_t) for w_t in (self._W_Q_T, self._W_K_T, self._W_V_T))
        if self._b_Q is not None and self._b_K is not None and self._b_V is not None:
            q, k, v = _add_row(q, self._b_Q), _add_row(k, self._b_K), _add_row(v, self._b_V)
        return q, k, v

    def __call__(self, X: Any, *, mask: Any = None, causal: bool = False) -> tuple[Matrix, Matrix]:
        """(output, weights) for the token rows X; output is n x d_v, weights n x n."""
        self.Q, self.K, self.V = self.project(X)
        keep = None if mask is None else as_mask_matrix(mask, "mask", (len(self.Q), len(self.K)))
        output, self.weights = _attention(
            self.Q, self.K, self.V, keep=keep, causal=causal, scale=1.0 / math.sqrt(self.d_k)
        )
        return output, self.weights


class MultiHeadAttention:
    """Several heads side by side, each with its own W_Q, W_K, W_V of width d_model / n_heads.

    MultiHead(X) = Concat(head_1, ..., head_h) W_O. Each head can learn to look for a
    different kind of relation; the concatenation is mixed back to d_model by ``W_O``.
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
        self.heads = [
            SelfAttention(self.d_model, self.d_head, seed=rng.getrandbits(32))
            for _ in range(self.n_heads)
        ]
        self._W_O = uniform_matrix(rng, self.d_model, self.d_model, glorot_bound(self.d_model, self.d_model))
        self.head_outputs: list[Matrix] | None = None
        self.head_weights: list[Matrix] | None = None
        self.concat: Matrix | None = None

    @property
    def W_O(self) -> Matrix:
        """The output projection, d_model x d_model, applied to the heads' concatenation. A copy."""
        return [row[:] for row in self._W_O]

    @W_O.setter
    def W_O(self, value: Any) -> None:
        matrix = as_matrix(value, "W_O")
        require_shape(matrix, "W_O", (self.d_model, self.d_model))
        self._W_O = matrix

    def __call__(self, X: Any, *, mask: Any = None) -> tuple[Matrix, list[Matrix]]:
        """(output, weights per head); output is n x d_model."""
        x = as_matrix(X, "X")
        results = [head(x, mask=mask, causal=self.causal) for head in self.heads]
        self.head_outputs = [out for out, _ in results]
        self.head_weights = [w for _, w in results]
        self.concat = _hstack(self.head_outputs)
        return _matmul(self.concat, self._W_O), self.head_weights
