"""Where the gradients of a batch are collected, for any model of the learning package, and
the three matrix products every backward pass uses."""

from __future__ import annotations

import math

from .._checks import Matrix
from ..linalg import matrix_product
from .parameters import LOOKED_UP, ParameterModel


def times_transpose(A: Matrix, B: Matrix) -> Matrix:
    """A Bᵀ: row i of A dotted with row j of B."""
    return [[math.sumprod(a, b) for b in B] for a in A]


def transpose_times(A: Matrix, B: Matrix) -> Matrix:
    """Aᵀ B, as a sum over rows of outer products (A and B have the same number of rows)."""
    return matrix_product([list(column) for column in zip(*A)], B)


def add_into(total: Matrix, part: Matrix) -> None:
    """total += part, entry by entry, in place."""
    for row, extra in zip(total, part):
        row[:] = [a + b for a, b in zip(row, extra)]


class Gradients:
    """Collects the gradients of a batch.

    A weight matrix W used as ``y = x W`` gets dW = xᵀ dy = Σ over rows of x_rowᵀ dy_row.
    Rather than multiply small matrices sentence by sentence, the rows of x and dy are
    stacked over the whole batch and multiplied once at the end (``totals``): the same sum,
    in far fewer Python calls. The embeddings ``E`` and positions ``P`` are looked up, not
    multiplied: their rows are added to directly (``direct``).
    """

    def __init__(self, model: ParameterModel) -> None:
        self.shapes = dict(model.shapes())
        self.direct: dict[str, Matrix] = {
            name: [[0.0] * cols for _ in range(rows)] for name, (rows, cols) in self.shapes.items() if name in LOOKED_UP
        }
        self.stacked: dict[str, tuple[Matrix, Matrix]] = {
            name: ([], []) for name in self.shapes if name not in self.direct
        }

    def add_product(self, name: str, x: Matrix, d_y: Matrix) -> None:
        """Record that W = parameters[name] was used as y = x W and y got the gradient d_y."""
        left, right = self.stacked[name]
        left.extend(x)
        right.extend(d_y)

    def add_embedded(self, ids: list[int], d_x: Matrix) -> None:
        """Through x_i = E[t_i] + P[i] (P when it is a parameter): both get d x_i."""
        E, P = self.direct["E"], self.direct.get("P")
        for i, (t, d) in enumerate(zip(ids, d_x)):
            add_into([E[t]], [d])
            if P is not None:
                add_into([P[i]], [d])

    def total(self, name: str) -> Matrix:
        """The gradient of one parameter matrix, summed over everything recorded."""
        if name in self.direct:
            return self.direct[name]
        rows, cols = self.shapes[name]
        left, right = self.stacked[name]
        return transpose_times(left, right) if left else [[0.0] * cols for _ in range(rows)]

    def totals(self) -> dict[str, Matrix]:
        return {name: self.total(name) for name in self.shapes}
