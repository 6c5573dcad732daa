"""What every model of the learning package is besides its layers: named weight matrices of
fixed shapes, drawn from a seed, saved to JSON and read back, and tokens turned into ids.

``ParameterModel`` is the base of both models (model.py reads a puzzle, next_token.py predicts
text): each says its shapes, how it saves its settings and vocabulary (``to_dict``,
``from_dict``), and inherits the rest. ``Gradients`` (gradients.py) takes any of them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Self

from .._checks import Matrix
from ..rng import glorot_uniform, uniform_matrix

SMALLEST_P = 1e-300  # a loss reads p at least this: a certain wrong answer costs about 690, not infinity
LOOKED_UP = ("E", "P")  # matrices read a row at a time (embeddings, positions), not multiplied

Shapes = list[tuple[str, tuple[int, int]]]
"""(name, (rows, cols)) of every parameter, in a model's order."""


class ParameterModel:
    """A model's parameters by name (``parameters``, in the order of ``shapes()``) and its
    vocabulary's index. A subclass sets them and ``_shapes``, and writes
    ``to_dict`` / ``from_dict``; ``copy`` and ``ids_of`` come from here."""

    parameters: dict[str, Matrix]
    index: dict[str, int]
    _shapes: Shapes

    def shapes(self) -> Shapes:
        """(name, (rows, cols)) of every parameter, in the order of ``parameters``."""
        return list(self._shapes)

    def ids_of(self, tokens: tuple[str, ...] | list[str]) -> list[int]:
        """The token ids of ``tokens``; a clear error for a token outside the vocabulary."""
        return token_ids(self.index, tokens)

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        raise NotImplementedError

    def copy(self) -> Self:
        """The same model with its own matrices: training one leaves the other as it was."""
        return self.from_dict(self.to_dict())


def draw_parameters(shapes: Shapes, seed: int, embedding_scale: float = 1.0) -> dict[str, Matrix]:
    """Fresh parameters, drawn in the order of ``shapes`` from ``random.Random(seed)``:
    embeddings and positions uniform in ±embedding_scale, weight matrices Glorot-uniform
    (attention_py.rng)."""
    rng = random.Random(seed)
    return {
        name: uniform_matrix(rng, rows, cols, embedding_scale) if name in LOOKED_UP else glorot_uniform(rng, rows, cols)
        for name, (rows, cols) in shapes
    }


def saved_parameters(parameters: Mapping[str, Matrix]) -> dict[str, list[list[float]]]:
    """The parameters as JSON-able lists of rows (copies)."""
    return {name: [list(row) for row in m] for name, m in parameters.items()}


def read_parameters(data: Mapping[str, Any], format_name: str) -> dict[str, Matrix]:
    """The parameters of a dict ``to_dict`` saved, after checking it is of ``format_name``."""
    if data.get("format") != format_name:
        raise ValueError(f"not a saved model of this format ({format_name}): {data.get('format')!r}")
    return {name: [[float(x) for x in row] for row in m] for name, m in data["parameters"].items()}


def check_parameters(parameters: dict[str, Matrix], shapes: Shapes) -> None:
    """A clear error unless ``parameters`` holds exactly the matrices of ``shapes``, in order."""
    expected = dict(shapes)
    if list(parameters) != list(expected):
        raise ValueError(f"parameters must be {list(expected)}, got {list(parameters)}")
    for name, (rows, cols) in expected.items():
        m = parameters[name]
        if len(m) != rows or any(len(row) != cols for row in m):
            raise ValueError(f"{name} must be {rows} x {cols}")


def token_ids(index: dict[str, int], tokens: tuple[str, ...] | list[str]) -> list[int]:
    """The ids ``index`` gives ``tokens``; a clear error for a token outside the vocabulary."""
    try:
        return [index[t] for t in tokens]
    except KeyError as error:
        raise ValueError(f"{error.args[0]!r} is not in the model's vocabulary") from None
