"""What both models of the learning package share besides their layer (layer.py): parameters
checked against their shapes, tokens turned into ids, and the loss's floor for a probability."""

from __future__ import annotations

from .._checks import Matrix

SMALLEST_P = 1e-300  # a loss reads p at least this: a certain wrong answer costs about 690, not infinity


def check_parameters(parameters: dict[str, Matrix], shapes: list[tuple[str, tuple[int, int]]]) -> None:
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
