"""Wheels for Pyodide: the pure-Python test dependencies (the attention_py wheel itself is
built by the site build's ``site_hooks/assets/wheels.py``).

The test dependencies are pinned in requirements/pyodide-test.txt and downloaded once for
CPython 3.14 (Pyodide's Python) into build/pyodide-wheels/.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYODIDE_TEST_REQUIREMENTS = ROOT / "requirements" / "pyodide-test.txt"
PYODIDE_WHEEL_CACHE = ROOT / "build" / "pyodide-wheels"
PYODIDE_PYTHON = "3.14"


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
