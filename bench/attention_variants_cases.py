"""Ways to write the self-attention forward pass in pure Python, timed the same way.

Run natively and inside Pyodide by bench/attention_variants.py; standard library only. Each
variant computes softmax(X W_Q (X W_K)^T / sqrt(d_k)) X W_V for n tokens of width 64 with
64 x 64 weights, and must agree with the first variant to 1e-12 (checked before timing).
The variants differ only in how a dot product, and a matrix product around it, is spelled.
"""

from __future__ import annotations

import math
import operator
import random
from itertools import repeat

if __name__ == "__main__":  # inside Pyodide the repository is the working directory
    import sys

    sys.path.insert(0, ".")
from bench.attention_cases import D_MODEL, inputs, median_ms

mul = operator.mul
sumprod = getattr(math, "sumprod", None)


def softmax(row):
    top = max(row)
    exps = [math.exp(z - top) for z in row]
    total = math.fsum(exps)
    return [e / total for e in exps]


def forward(dot, x, wq_cols, wk_cols, wv_cols, scale):
    """Q K^T with K's rows, weights V with V's columns; every product is `dot` of two rows."""
    q = [[dot(r, c) for c in wq_cols] for r in x]
    k = [[dot(r, c) for c in wk_cols] for r in x]
    v = [[dot(r, c) for c in wv_cols] for r in x]
    weights = [softmax([scale * dot(qi, kj) for kj in k]) for qi in q]
    v_cols = [list(c) for c in zip(*v)]
    return [[dot(w, c) for c in v_cols] for w in weights]


def forward_map(dot, x, wq_cols, wk_cols, wv_cols, scale):
    """The same with the inner loop as map(dot, repeat(row), columns): no bytecode per entry."""

    def matmul_cols(a, b_cols):
        return [list(map(dot, repeat(r, len(b_cols)), b_cols)) for r in a]

    q, k, v = matmul_cols(x, wq_cols), matmul_cols(x, wk_cols), matmul_cols(x, wv_cols)
    scores = matmul_cols(q, k)
    weights = [softmax([scale * s for s in row]) for row in scores]
    return matmul_cols(weights, [list(c) for c in zip(*v)])


def forward_axpy(x, w_rows_q, w_rows_k, w_rows_v, scale):
    """Row-times-matrix as a sum of scaled rows (x_0 W_0 + x_1 W_1 + ...), no dot products."""

    def vecmat(r, w_rows):
        acc = [0.0] * len(w_rows[0])
        for xi, wi in zip(r, w_rows):
            acc = list(map(operator.add, acc, map(mul, repeat(xi), wi)))
        return acc

    q = [vecmat(r, w_rows_q) for r in x]
    k = [vecmat(r, w_rows_k) for r in x]
    v = [vecmat(r, w_rows_v) for r in x]
    weights = [softmax([scale * sum(map(mul, qi, kj)) for kj in k]) for qi in q]
    return [vecmat(w, v) for w in weights]


def dot_sum_map(a, b):
    return sum(map(mul, a, b))


def dot_sum_zip(a, b):
    return sum([p * r for p, r in zip(a, b)])


def dot_fsum_map(a, b):
    return math.fsum(map(mul, a, b))


def variants():
    out = {}
    if sumprod is not None:
        out["comprehension, math.sumprod"] = lambda *a: forward(sumprod, *a)
        out["map(dot, repeat(row)), math.sumprod"] = lambda *a: forward_map(sumprod, *a)
    out["comprehension, sum(map(mul))"] = lambda *a: forward(dot_sum_map, *a)
    out["comprehension, inline sum(map(mul))"] = None  # filled below (no function call per dot)
    out["map(dot, repeat(row)), sum(map(mul))"] = lambda *a: forward_map(dot_sum_map, *a)
    out["comprehension, sum(zip product)"] = lambda *a: forward(dot_sum_zip, *a)
    out["comprehension, fsum(map(mul))"] = lambda *a: forward(dot_fsum_map, *a)
    out["rows as axpy, map(add, map(mul))"] = "axpy"
    return out


def forward_inline(x, wq_cols, wk_cols, wv_cols, scale):
    q = [[sum(map(mul, r, c)) for c in wq_cols] for r in x]
    k = [[sum(map(mul, r, c)) for c in wk_cols] for r in x]
    v = [[sum(map(mul, r, c)) for c in wv_cols] for r in x]
    weights = [softmax([scale * sum(map(mul, qi, kj)) for kj in k]) for qi in q]
    v_cols = [list(c) for c in zip(*v)]
    return [[sum(map(mul, w, c)) for c in v_cols] for w in weights]


def run(n: int, repeat_count: int = 30) -> dict[str, float]:
    rng = random.Random(1)
    x = inputs(n)
    w = [[[rng.uniform(-0.3, 0.3) for _ in range(D_MODEL)] for _ in range(D_MODEL)] for _ in range(3)]
    cols = [[list(c) for c in zip(*m)] for m in w]
    scale = 1 / math.sqrt(D_MODEL)
    reference = None
    times = {}
    for name, fn in variants().items():
        if fn is None:
            call = lambda: forward_inline(x, *cols, scale)  # noqa: E731
        elif fn == "axpy":
            call = lambda: forward_axpy(x, *w, scale)  # noqa: E731
        else:
            call = lambda fn=fn: fn(x, *cols, scale)  # noqa: E731
        result = call()
        if reference is None:
            reference = result
        worst = max(abs(a - b) for ra, rb in zip(result, reference) for a, b in zip(ra, rb))
        assert worst < 1e-12, f"{name} disagrees by {worst}"
        times[name] = median_ms(call, repeat_count)
    return times


if __name__ == "__main__":  # inside Pyodide, called by bench/attention_variants.py
    import json

    n = int(sys.argv[1])
    with open("/out/result.json", "w") as out:
        json.dump({"python": sys.version.split()[0], "times": run(n)}, out)
