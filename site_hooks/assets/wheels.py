"""The attention_py wheel: what the site ships for Pyodide, and what the tests install in it.

Pyodide installs pure-Python ``py3-none-any`` wheels; ``python -m build --wheel`` makes
exactly that for attention_py (``pyodide build`` would try to download a cross-build
environment). The build caches it per change of ``WHEEL_INPUTS`` (products.py); the tests
and devtools build their own copies with ``build_attention_wheel``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from site_hooks import ROOT

# Every file in the wheel is dated 1980-01-01 (zip's earliest date), not when the checkout was
# made: the same sources give the same wheel, so the same memory image and the same site.
REPRODUCIBLE = {"SOURCE_DATE_EPOCH": "315532800"}

# Everything setuptools may read to build the wheel (the missing ones are skipped).
WHEEL_INPUTS = ("pyproject.toml", "setup.cfg", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "attention_py")


def build_attention_wheel(outdir: Path) -> Path:
    """Build the attention_py wheel into ``outdir`` and return its path.

    The build runs on a temporary copy of the packaging files, so concurrent builds (tests,
    the site, a benchmark) never race over ``build/`` or ``*.egg-info`` in the checkout; the
    same files give the same bytes (``REPRODUCIBLE``).
    """
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="attention-py-src-") as source:
        for name in WHEEL_INPUTS:
            path = ROOT / name
            if path.is_dir():
                shutil.copytree(path, Path(source) / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif path.is_file():
                shutil.copy2(path, Path(source) / name)
        result = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(outdir), source],
            cwd=source,
            env={**os.environ, **REPRODUCIBLE},
            capture_output=True,
            text=True,
        )
    if result.returncode:
        raise RuntimeError(f"building the attention_py wheel failed:\n{result.stdout}\n{result.stderr}")
    wheels = sorted(outdir.glob("attention_py-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"building the attention_py wheel gave {len(wheels)} wheels in {outdir}")
    return wheels[0]
