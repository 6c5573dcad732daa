"""Deterministic random numbers: the same seed gives the same numbers everywhere.

Only ``random.Random.random()`` is used (Mersenne Twister, 53-bit floats, seeded from an
int), followed by exact IEEE arithmetic and ``math.sqrt``, which is correctly rounded.
No ``log``/``cos`` from the platform's maths library is involved, so CPython on Linux,
macOS or Windows and Pyodide in a browser produce bit-identical weights.
"""

from __future__ import annotations

import math
import random

from ._checks import Matrix, Vector, as_size

_SQRT3 = math.sqrt(3.0)


def uniform_matrix(rng: random.Random, rows: int, cols: int, bound: float) -> Matrix:
    """rows x cols entries drawn uniformly from [-bound, bound), row by row."""
    return [[bound * (2.0 * rng.random() - 1.0) for _ in range(cols)] for _ in range(rows)]


def glorot_uniform(rng: random.Random, fan_in: int, fan_out: int) -> Matrix:
    """A fan_in x fan_out weight matrix, uniform within the Glorot/Xavier bound √(6 / (fan_in + fan_out)).

    That bound keeps the variance of activations about the same from layer to layer.
    """
    return uniform_matrix(rng, fan_in, fan_out, math.sqrt(6.0 / (fan_in + fan_out)))


def unit_variance_vector(rng: random.Random, d: int) -> Vector:
    """d entries uniform on [-sqrt(3), sqrt(3)): mean 0 and variance exactly 1."""
    return [_SQRT3 * (2.0 * rng.random() - 1.0) for _ in range(d)]


def dot_product_samples(d_k: int, n_pairs: int = 1000, *, seed: int = 0) -> Vector:
    """Dot products q . k of ``n_pairs`` random pairs of d_k-dimensional vectors.

    Each entry of q and k has mean 0 and variance 1, so each product q_i k_i has variance 1
    and the sum of d_k of them has variance d_k: the spread (standard deviation) of the
    samples grows like sqrt(d_k). Dividing by sqrt(d_k) brings it back to about 1, which is
    why attention scales its scores by 1/sqrt(d_k).
    """
    d = as_size(d_k, "d_k")
    count = as_size(n_pairs, "n_pairs")
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        q = unit_variance_vector(rng, d)
        k = unit_variance_vector(rng, d)
        samples.append(math.sumprod(q, k))
    return samples
