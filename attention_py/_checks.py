"""Input checks shared by every public function.

Every public function accepts plain nested sequences of numbers (lists, tuples) or
anything with a ``.tolist()`` method (a numpy array, for instance), and hands back plain
lists of floats. The checks live here so that every function refuses bad input the same
way: with an error that names the argument and the shapes involved, never with a silent
wrong answer.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from itertools import chain
from typing import Any

Vector = list[float]
Matrix = list[list[float]]
BoolMatrix = list[list[bool]]


def _unwrap(value: Any) -> Any:
    """Turn array-like objects (numpy arrays and the like) into nested lists."""
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and not isinstance(value, (str, bytes)):
        return tolist()
    return value


def _number(value: Any, name: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}{where} must be a real number, got {type(value).__name__} {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name}{where} must be finite, got {number!r}")
    return number


def _sequence(value: Any, name: str, what: str) -> Sequence[Any]:
    value = _unwrap(value)
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be a {what}, got {type(value).__name__}")
    if len(value) == 0:
        raise ValueError(f"{name} must not be empty")
    return value


def as_scalar(value: Any, name: str) -> float:
    """A finite real number (not a bool)."""
    return _number(value, name, "")


def as_vector(value: Any, name: str) -> Vector:
    """A non-empty sequence of finite real numbers, as a list of floats."""
    items = _sequence(value, name, "sequence of numbers")
    if _all_finite_floats(items):  # the common case, checked quickly
        return list(items)
    return [_number(item, name, f"[{i}]") for i, item in enumerate(items)]


def _all_finite_floats(items: Any) -> bool:
    """True when every item is a float and none is inf or nan, checked without a Python loop.

    A sum that is finite has no inf or nan among its terms (a sum that overflows just takes
    the slow path, which then accepts the numbers one by one).
    """
    return set(map(type, items)) == {float} and math.isfinite(sum(items))


def as_matrix(value: Any, name: str) -> Matrix:
    """A non-empty rectangular table of finite real numbers, as a list of rows."""
    rows = _sequence(value, name, "matrix (a sequence of rows)")
    if (
        set(map(type, rows)) == {list}
        and len(set(map(len, rows))) == 1
        and rows[0]
        and _all_finite_floats(list(chain.from_iterable(rows)))  # the common case, checked quickly
    ):
        return [row[:] for row in rows]
    matrix: Matrix = []
    for i, row in enumerate(rows):
        row_items = _sequence(row, f"{name}[{i}]", "row (a sequence of numbers)")
        matrix.append([_number(item, name, f"[{i}][{j}]") for j, item in enumerate(row_items)])
        if len(matrix[i]) != len(matrix[0]):
            raise ValueError(
                f"{name} is ragged: row {i} has {len(matrix[i])} entries but row 0 has "
                f"{len(matrix[0])}; every row must have the same length"
            )
    return matrix


def _flag(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError(f"{name} must be True/False (or 1/0), got {value!r}")


def as_mask_vector(value: Any, name: str, length: int) -> list[bool]:
    """A sequence of booleans of the given length (True = keep, False = masked out)."""
    items = _sequence(value, name, "sequence of booleans")
    if len(items) != length:
        raise ValueError(f"{name} has {len(items)} entries but the scores have {length}")
    if set(map(type, items)) == {bool}:  # the common case, checked quickly
        return list(items)
    return [_flag(item, f"{name}[{i}]") for i, item in enumerate(items)]


def as_mask_matrix(value: Any, name: str, shape: tuple[int, int]) -> BoolMatrix:
    """A rows x cols table of booleans (True = may attend, False = masked out)."""
    rows = _sequence(value, name, "matrix of booleans")
    if len(rows) != shape[0]:
        raise ValueError(f"{name} has shape ({len(rows)}, ...) but the scores have shape {shape}")
    return [as_mask_vector(row, f"{name}[{i}]", shape[1]) for i, row in enumerate(rows)]


def as_size(value: Any, name: str) -> int:
    """A positive integer (a dimension or a count)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {value}")
    return int(value)


def shape(matrix: Matrix) -> tuple[int, int]:
    """(rows, columns) of a matrix that already passed ``as_matrix``."""
    return (len(matrix), len(matrix[0]))


def require_shape(matrix: Matrix, name: str, expected: tuple[int, int]) -> None:
    """Raise a ValueError naming both shapes unless ``matrix`` has ``expected`` shape."""
    if shape(matrix) != expected:
        raise ValueError(f"{name} must have shape {expected}, got {shape(matrix)}")
