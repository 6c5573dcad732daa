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


def build_attention_wheel(outdir: Path) -> Path:
    """Build the attention_py wheel into ``outdir`` and return its path."""
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        result = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", scratch, str(ROOT)],
            capture_output=True,
            text=True,
        )
        if result.returncode:
            raise RuntimeError(f"building the attention_py wheel failed:\n{result.stdout}\n{result.stderr}")
        # setuptools leaves build/lib behind; remove only what it made.
        shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)
        shutil.rmtree(ROOT / "build" / "bdist.linux-x86_64", ignore_errors=True)
        (wheel,) = Path(scratch).glob("attention_py-*.whl")
        target = outdir / wheel.name
        shutil.move(str(wheel), target)
    return target


def pyodide_test_wheels() -> list[Path]:
    """The pinned test dependencies as wheels for Pyodide, downloaded on first use."""
    stamp = PYODIDE_WHEEL_CACHE / ".requirements"
    wanted = PYODIDE_TEST_REQUIREMENTS.read_text()
    if not stamp.exists() or stamp.read_text() != wanted:
        shutil.rmtree(PYODIDE_WHEEL_CACHE, ignore_errors=True)
        PYODIDE_WHEEL_CACHE.mkdir(parents=True)
        result = subprocess.run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                "--only-binary=:all:", "--no-deps", "--python-version", PYODIDE_PYTHON,
                "--platform", "any", "-r", str(PYODIDE_TEST_REQUIREMENTS),
                "--dest", str(PYODIDE_WHEEL_CACHE),
            ],
            capture_output=True,
            text=True,
        )
        if result.returncode:
            raise RuntimeError(f"downloading the Pyodide test wheels failed:\n{result.stderr}")
        stamp.write_text(wanted)
    return sorted(PYODIDE_WHEEL_CACHE.glob("*.whl"))
