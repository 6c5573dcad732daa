"""The timed cases, shared by the native run and the Pyodide run (standard library only).

Each case: n tokens of width d_model = 64, inputs from a fixed seed, one forward pass of
SelfAttention(64, 64) or MultiHeadAttention(64, 4). Timing takes the median of repeated
runs after a warm-up, with time.perf_counter.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from attention_py import MultiHeadAttention, SelfAttention

D_MODEL = 64


def inputs(n: int, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.uniform(-1, 1) for _ in range(D_MODEL)] for _ in range(n)]


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def repeats_for(n: int) -> int:
    return {8: 200, 32: 50, 128: 10}.get(n, 10)


def time_attention_py(n: int) -> dict[str, float]:
    x = inputs(n)
    single = SelfAttention(D_MODEL, D_MODEL, seed=0)
    multi = MultiHeadAttention(D_MODEL, 4, seed=0)
    return {
        "self_attention_ms": median_ms(lambda: single(x), repeats_for(n)),
        "multi_head_4_ms": median_ms(lambda: multi(x), repeats_for(n)),
    }


if __name__ == "__main__":  # run inside Pyodide by bench/attention.py
    import json
    import sys

    results = {str(n): time_attention_py(n) for n in map(int, sys.argv[1:])}
    with open("/out/result.json", "w") as out:
        json.dump({"python": sys.version.split()[0], "platform": sys.platform, "results": results}, out)
