"""The little linear algebra attention needs: dot products, transposes, matrix products.

Matrices are lists of rows. ``math.sumprod`` (Python 3.12+) does each dot product in C
with extra precision, which keeps pure Python fast enough for an interactive page
(a 32-token, 64-wide self-attention in a few milliseconds).
"""

from __future__ import annotations

import math
from typing import Any

from ._checks import Matrix, Vector, as_matrix, as_vector, shape


def dot(a: Any, b: Any) -> float:
    """Dot product a . b = sum_i a_i * b_i of two vectors of the same length."""
    u, v = as_vector(a, "a"), as_vector(b, "b")
    if len(u) != len(v):
        raise ValueError(f"dot(a, b) needs vectors of the same length, got {len(u)} and {len(v)}")
    return math.sumprod(u, v)


def norm(a: Any) -> float:
    """Euclidean length |a| = sqrt(a . a)."""
    u = as_vector(a, "a")
    return math.sqrt(math.sumprod(u, u))


def transpose(a: Any) -> Matrix:
    """A^T: rows become columns."""
    return _transpose(as_matrix(a, "A"))


def matmul(a: Any, b: Any) -> Matrix:
    """Matrix product (A B)_ij = sum_k A_ik B_kj; A is n x m, B is m x p."""
    left, right = as_matrix(a, "A"), as_matrix(b, "B")
    if shape(left)[1] != shape(right)[0]:
        raise ValueError(
            f"matmul(A, B): A has shape {shape(left)} and B has shape {shape(right)}; "
            f"A's column count must equal B's row count"
        )
    return _matmul(left, right)


def _transpose(a: Matrix) -> Matrix:
    return [list(column) for column in zip(*a)]


def _matmul(a: Matrix, b: Matrix) -> Matrix:
    """A B for matrices already checked to fit."""
    return _matmul_transposed(a, _transpose(b))


def _matmul_transposed(a: Matrix, b_t: Matrix) -> Matrix:
    """A B^T for checked matrices: every row of A dotted with every row of B."""
    sumprod = math.sumprod
    return [[sumprod(row, other) for other in b_t] for row in a]


def _add_row(a: Matrix, row: Vector) -> Matrix:
    """A + 1 r^T: add the same row vector to every row (a bias)."""
    return [[x + y for x, y in zip(a_row, row)] for a_row in a]


def _hstack(blocks: list[Matrix]) -> Matrix:
    """Concatenate matrices with equal row counts side by side."""
    return [[x for block in blocks for x in block[i]] for i in range(len(blocks[0]))]
