"""The little linear algebra attention needs: dot products, lengths, transposes, products.

Matrices are lists of rows. Every dot product is ``math.sumprod``: one call into C per
pair of rows, and accurate to the last bit in nearly every case. It measured fastest both
natively and inside Pyodide, ahead of ``sum(map(operator.mul, a, b))`` and the rest
(bench/README.md has the table).
"""

from __future__ import annotations

import math
from typing import Any

from ._checks import Matrix, as_matrix, as_vector, shape


def dot(a: Any, b: Any) -> float:
    """Dot product a · b = Σ_i a_i b_i of two vectors of the same length."""
    a, b = as_vector(a, "a"), as_vector(b, "b")
    if len(a) != len(b):
        raise ValueError(f"dot(a, b) needs vectors of the same length, got {len(a)} and {len(b)}")
    return math.sumprod(a, b)


def norm(a: Any) -> float:
    """Euclidean length |a| = √(a · a)."""
    a = as_vector(a, "a")
    return math.sqrt(math.sumprod(a, a))


def transpose(A: Any) -> Matrix:
    """Aᵀ: row i of A becomes column i."""
    return [list(column) for column in zip(*as_matrix(A, "A"))]


def matmul(A: Any, B: Any) -> Matrix:
    """Matrix product (A B)_ij = Σ_k A_ik B_kj = row i of A · column j of B.

    A is n x m and B is m x p; the result is n x p.
    """
    A, B = as_matrix(A, "A"), as_matrix(B, "B")
    if shape(A)[1] != shape(B)[0]:
        raise ValueError(
            f"matmul(A, B): A has shape {shape(A)} and B has shape {shape(B)}; "
            f"A's column count must equal B's row count"
        )
    return matrix_product(A, B)


def matrix_product(A: Matrix, B: Matrix) -> Matrix:
    """A B for matrices already checked to fit: what ``matmul`` computes, and what the layers call."""
    columns = list(zip(*B))  # B's columns, taken out once and reused by every row of A
    return [[math.sumprod(row, column) for column in columns] for row in A]
