"""Wheels for Pyodide: the attention_py wheel, and the pure-Python test dependencies.

Pyodide installs pure-Python ``py3-none-any`` wheels; ``python -m build --wheel`` makes
exactly that for attention_py (``pyodide build`` would try to download a cross-build
environment). The test dependencies are pinned in requirements/pyodide-test.txt and
downloaded once for CPython 3.14 (Pyodide's Python) into build/pyodide-wheels/.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_TEST_REQUIREMENTS = ROOT / "requirements" / "pyodide-test.txt"
PYODIDE_WHEEL_CACHE = ROOT / "build" / "pyodide-wheels"
PYODIDE_PYTHON = "3.14"


# Everything setuptools may read to build the wheel (the missing ones are skipped).
WHEEL_INPUTS = ("pyproject.toml", "setup.cfg", "setup.py", "MANIFEST.in", "README.md", "LICENSE", "attention_py")


def build_attention_wheel(outdir: Path) -> Path:
    """Build the attention_py wheel into ``outdir`` and return its path.

    The build runs on a temporary copy of the packaging files, so concurrent builds (tests,
    the site, a benchmark) never race over ``build/`` or ``*.egg-info`` in the checkout.
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
            capture_output=True,
            text=True,
        )
    if result.returncode:
        raise RuntimeError(f"building the attention_py wheel failed:\n{result.stdout}\n{result.stderr}")
    wheels = sorted(outdir.glob("attention_py-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"building the attention_py wheel gave {len(wheels)} wheels in {outdir}")
    return wheels[0]


def pyodide_test_wheels() -> list[Path]:
    """The pinned test dependencies as wheels for Pyodide, downloaded on first use."""
    stamp = PYODIDE_WHEEL_CACHE / ".requirements"
    wanted = PYODIDE_TEST_REQUIREMENTS.read_text()
    if not stamp.exists() or stamp.read_text() != wanted:
        shutil.rmtree(PYODIDE_WHEEL_CACHE, ignore_errors=True)
        PYODIDE_WHEEL_CACHE.mkdir(parents=True)
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--only-binary=:all:",
                "--no-deps",
                "--python-version",
                PYODIDE_PYTHON,
                "--platform",
                "any",
                "-r",
                str(PYODIDE_TEST_REQUIREMENTS),
                "--dest",
                str(PYODIDE_WHEEL_CACHE),
            ],
            capture_output=True,
            text=True,
        )
        if result.returncode:
            raise RuntimeError(f"downloading the Pyodide test wheels failed:\n{result.stderr}")
        stamp.write_text(wanted)
    return sorted(PYODIDE_WHEEL_CACHE.glob("*.whl"))
