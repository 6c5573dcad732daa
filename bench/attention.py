"""Forward-pass time of attention_py natively, beside a numpy reference, and inside Pyodide.

    ./run bench attention            # n in 8, 32, 128 natively; n = 32 inside Pyodide (Node.js and Chromium)
    ./run bench attention --no-pyodide

The page target: n = 32, d_model = 64 self-attention within 20 ms inside Pyodide.
Times are medians; on a busy machine they swing widely, so compare runs made back to back.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import sys

import numpy as np

from attention_py import MultiHeadAttention, SelfAttention
from bench.attention_cases import D_MODEL, inputs, median_ms, repeats_for, time_attention_py
from devtools.pyodide_runs import in_chromium, in_node

SIZES = (8, 32, 128)
PYODIDE_SIZES = (32,)
TARGET_MS = 20.0


def np_softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def np_head(x: np.ndarray, wq: np.ndarray, wk: np.ndarray, wv: np.ndarray) -> np.ndarray:
    q, k, v = x @ wq, x @ wk, x @ wv
    return np_softmax(q @ k.T / np.sqrt(q.shape[1])) @ v


def time_numpy(n: int) -> dict[str, float]:
    x = np.array(inputs(n))
    single = SelfAttention(D_MODEL, D_MODEL, seed=0)
    s_w = [np.array(m) for m in (single.W_Q, single.W_K, single.W_V)]
    multi = MultiHeadAttention(D_MODEL, 4, seed=0)
    heads = [[np.array(m) for m in (h.W_Q, h.W_K, h.W_V)] for h in multi.heads]
    w_o = np.array(multi.W_O)
    return {
        "self_attention_ms": median_ms(lambda: np_head(x, *s_w), repeats_for(n) * 5),
        "multi_head_4_ms": median_ms(
            lambda: np.concatenate([np_head(x, *h) for h in heads], axis=1) @ w_o, repeats_for(n) * 5
        ),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench attention", description=__doc__.splitlines()[0])
    parser.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide run")
    args = parser.parse_args(argv)

    print(
        f"d_model = {D_MODEL}; median of repeated forward passes; CPython {platform.python_version()}, "
        f"numpy {np.__version__}, {platform.machine()}"
    )
    print(f"{'n':>5} {'case':<16} {'attention_py':>14} {'numpy':>10} {'ratio':>8}")
    for n in SIZES:
        ours, ref = time_attention_py(n), time_numpy(n)
        for key, label in (("self_attention_ms", "self-attention"), ("multi_head_4_ms", "4-head")):
            print(f"{n:>5} {label:<16} {ours[key]:>11.3f} ms {ref[key]:>7.3f} ms {ours[key] / ref[key]:>7.0f}x")
    if not args.no_pyodide:
        if shutil.which("node") is None:
            print("node not found: skipping the Pyodide run", file=sys.stderr)
            return 1
        sizes = [str(n) for n in PYODIDE_SIZES]
        for where, run in (("Node.js", in_node), ("headless Chromium, in a Web Worker", in_chromium)):
            result = run("bench/attention_cases.py", sizes)
            print(f"\nInside Pyodide (Python {result['python']}, {where}):")
            for n, times in result["results"].items():
                verdict = "within" if times["self_attention_ms"] <= TARGET_MS else "OVER"
                print(
                    f"{n:>5} self-attention {times['self_attention_ms']:.3f} ms ({verdict} the {TARGET_MS:.0f} ms target), "
                    f"4-head {times['multi_head_4_ms']:.3f} ms"
                )
    return 0
