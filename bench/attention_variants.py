"""The self-attention forward pass spelled several ways, timed natively and inside Pyodide.

    ./run bench attention_variants          # n = 32, d_model = 64
    ./run bench attention_variants --n 8

Why: attention_py picks the spelling of its dot products and matrix products by what
measures best in Pyodide *and* natively (see bench/README.md for the recorded table).
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import tempfile
from pathlib import Path

from bench.attention_variants_cases import run
from devtools.wheels import ROOT, build_attention_wheel


def in_pyodide(n: int) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        wheels, out = Path(scratch, "wheels"), Path(scratch, "out")
        out.mkdir()
        build_attention_wheel(wheels)
        subprocess.run(
            ["node", "devtools/run_in_pyodide.mjs", "--wheels", str(wheels), "--out", str(out),
             "bench/attention_variants_cases.py", str(n)],
            cwd=ROOT, check=True,
        )
        return json.loads((out / "variants.json").read_text())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench attention_variants", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=32, help="tokens (default 32)")
    parser.add_argument("--no-pyodide", action="store_true", help="skip the Pyodide run")
    args = parser.parse_args(argv)
    native = run(args.n)
    pyodide = None if args.no_pyodide else in_pyodide(args.n)
    head = f"CPython {platform.python_version()}" + ("" if pyodide is None else f" | Pyodide (Python {pyodide['python']})")
    print(f"n = {args.n}, d_model = d_k = 64, median ms of one self-attention forward pass; {head}")
    for name, ms in native.items():
        other = "" if pyodide is None else f"{pyodide['times'][name]:>10.2f}"
        print(f"  {name:<42} {ms:>8.2f} {other}")
    return 0
