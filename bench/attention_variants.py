"""The self-attention forward pass spelled several ways, timed natively and inside Pyodide.

    ./run bench attention_variants          # n = 32, d_model = 64
    ./run bench attention_variants --n 8

Why: attention_py picks the spelling of its dot products and matrix products by what
measures best in Pyodide *and* natively (see bench/README.md for the recorded table).
"""

from __future__ import annotations

import argparse
import platform

from bench.attention_variants_cases import run
from devtools.pyodide_runs import in_chromium, in_node


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench attention_variants", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=32, help="tokens (default 32)")
    parser.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide runs")
    args = parser.parse_args(argv)
    columns = {f"CPython {platform.python_version()}": run(args.n)}
    if not args.no_pyodide:
        for where, runner in (("Node.js", in_node), ("Chromium", in_chromium)):
            result = runner("bench/attention_variants_cases.py", [str(args.n)])
            columns[f"Pyodide {result['python']}, {where}"] = result["times"]
    print(f"n = {args.n}, d_model = d_k = 64: median ms of one self-attention forward pass")
    print(f"  {'variant':<42}" + "".join(f"{name:>30}" for name in columns))
    for variant in next(iter(columns.values())):
        print(f"  {variant:<42}" + "".join(f"{times[variant]:>30.2f}" for times in columns.values()))
    return 0
