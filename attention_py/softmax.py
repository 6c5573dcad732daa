"""Softmax: turning any list of scores into weights that are positive and sum to 1.

softmax(z)_i = exp(s z_i) / Σ_j exp(s z_j), where s is the ``scale`` (an inverse
temperature). The largest scaled score is subtracted before exponentiating: the result is
mathematically the same and no exponent can overflow, so scores as large as 1e6 (or
1e300) are fine. Masked-out entries get exactly 0.
"""

from __future__ import annotations

import math
from typing import Any

from ._checks import Matrix, Vector, as_mask_matrix, as_mask_vector, as_matrix, as_scalar, as_vector, shape


def softmax(z: Any, *, scale: float = 1.0, mask: Any = None) -> Vector:
    """Stable softmax of a vector.

    ``scale`` multiplies every score first: above 1 it sharpens the distribution towards
    the one-hot argmax, below 1 it flattens it towards uniform. ``mask`` is a sequence of
    booleans, True where the entry takes part; masked entries come out as exactly 0.0.

    >>> [round(p, 3) for p in softmax([1.5, 2.0, 3.0])]
    [0.14, 0.231, 0.629]
    """
    z = as_vector(z, "z")
    keep = None if mask is None else _kept_entries(as_mask_vector(mask, "mask", len(z)), "z")
    scale = as_scalar(scale, "scale")
    return stable_softmax([scale * x for x in z], keep, name=f"z times scale={scale!r}")


def softmax_rows(Z: Any, *, scale: float = 1.0, mask: Any = None) -> Matrix:
    """Softmax of each row of a matrix; ``mask`` is a matrix of booleans of the same shape."""
    Z = as_matrix(Z, "Z")
    keep = None if mask is None else as_mask_matrix(mask, "mask", shape(Z))
    if keep is not None:
        keep = [_kept_entries(row, f"Z[{i}]") for i, row in enumerate(keep)]
    scale = as_scalar(scale, "scale")
    return [
        stable_softmax(
            [scale * x for x in row], None if keep is None else keep[i], name=f"Z[{i}] times scale={scale!r}"
        )
        for i, row in enumerate(Z)
    ]


def stable_softmax(scores: Vector, keep: list[bool] | None = None, *, name: str = "scores") -> Vector:
    """exp(z_i - max z) / Σ_j exp(z_j - max z), on checked scores; ``keep`` marks the entries that take part.

    Masked entries get exactly 0 and play no part in the maximum or the sum, so ``keep``
    must keep at least one entry. ``name`` names the scores if they overflow a float.
    """
    kept = scores if keep is None else [z for z, k in zip(scores, keep) if k]
    top = max(kept)
    if keep is None:
        exps = [math.exp(z - top) for z in scores]
    else:  # a masked entry may be above ``top``: it is never exponentiated
        exps = [math.exp(z - top) if k else 0.0 for z, k in zip(scores, keep)]
    total = math.fsum(exps)  # at least 1 (the top entry gives exp(0)), unless something overflowed
    if not math.isfinite(total):
        raise ValueError(f"{name} overflows a float; use a smaller scale")
    return [e / total for e in exps]


def _kept_entries(keep: list[bool], name: str) -> list[bool]:
    if not any(keep):
        raise ValueError(f"every entry of {name} is masked out; softmax needs at least one entry to keep")
    return keep
