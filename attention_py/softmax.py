"""Softmax: turning any list of scores into weights that are positive and sum to 1.

softmax(z)_i = exp(s * z_i) / sum_j exp(s * z_j), where s is the ``scale`` (an inverse
temperature). The largest scaled score is subtracted before exponentiating; the result is
mathematically the same and no exponent can overflow, so scores as large as 1e6 (or
1e300) are fine. Masked-out entries get exactly 0.
"""

from __future__ import annotations

import math
from typing import Any

from ._checks import Matrix, Vector, as_mask_matrix, as_mask_vector, as_matrix, as_scalar, as_vector


def softmax(z: Any, *, scale: float = 1.0, mask: Any = None) -> Vector:
    """Stable softmax of a vector.

    ``scale`` multiplies every score first: above 1 it sharpens the distribution towards
    the one-hot argmax, below 1 it flattens it towards uniform. ``mask`` is a sequence of
    booleans, True where the entry takes part; masked entries come out as exactly 0.0.

    >>> [round(p, 3) for p in softmax([1.5, 2.0, 3.0])]
    [0.14, 0.231, 0.629]
    """
    scores = as_vector(z, "z")
    keep = None if mask is None else as_mask_vector(mask, "mask", len(scores))
    return _softmax(scores, as_scalar(scale, "scale"), keep, "z")


def softmax_rows(z: Any, *, scale: float = 1.0, mask: Any = None) -> Matrix:
    """Softmax of each row of a matrix; ``mask`` is a matrix of booleans of the same shape."""
    scores = as_matrix(z, "Z")
    keep = None if mask is None else as_mask_matrix(mask, "mask", (len(scores), len(scores[0])))
    factor = as_scalar(scale, "scale")
    return [
        _softmax(row, factor, None if keep is None else keep[i], f"Z[{i}]")
        for i, row in enumerate(scores)
    ]


def _softmax(scores: Vector, scale: float, keep: list[bool] | None, name: str) -> Vector:
    """Softmax of checked scores; ``keep`` marks the entries that take part."""
    scaled = [scale * x for x in scores]
    if not all(math.isfinite(x) for x in scaled):
        raise ValueError(f"{name} times scale={scale!r} overflows a float; use a smaller scale")
    if keep is None:
        kept = scaled
    else:
        kept = [x for x, k in zip(scaled, keep) if k]
        if not kept:
            raise ValueError(
                f"every entry of {name} is masked out; softmax needs at least one entry to keep"
            )
    top = max(kept)
    if keep is None:
        exps = [math.exp(x - top) for x in scaled]
    else:  # masked entries may exceed ``top``: never exponentiate them
        exps = [math.exp(x - top) if k else 0.0 for x, k in zip(scaled, keep)]
    total = math.fsum(exps)  # >= 1, since the top entry contributes exp(0)
    return [e / total for e in exps]
