"""The unit tests again, inside Pyodide 314 (CPython 3.14, WebAssembly) under Node.js.

The same files as the native run; the only modules allowed to skip there are the numpy
references (numpy for Pyodide cannot be had offline) and the check of the puzzle files (PyYAML). Every other native unit test must
pass inside Pyodide too: the ids are compared, so a test that silently disappeared fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from devtools.wheels import ROOT, pyodide_test_wheels
from site_hooks.assets.wheels import build_attention_wheel

UNIT_TESTS = ROOT / "tests" / "unit"
ALLOWED_TO_SKIP = {
    "tests/unit/test_numpy_reference.py",
    "tests/unit/test_learning_numpy_reference.py",  # numpy
    "tests/unit/test_learning_puzzle_files.py",  # PyYAML, to read docs/puzzles/*.yml
}


def native_test_ids() -> set[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(UNIT_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return {line for line in result.stdout.splitlines() if "::" in line}


def test_unit_tests_pass_inside_pyodide(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed to run the tests inside Pyodide")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        pytest.fail("node_modules/pyodide is missing: run `npm ci` (./run test does)")
    wheels = tmp_path / "wheels"
    build_attention_wheel(wheels)
    for wheel in pyodide_test_wheels():
        shutil.copy(wheel, wheels)
    out = tmp_path / "out"
    out.mkdir()
    summary_file = out / "summary.json"
    run = subprocess.run(
        [
            node,
            "devtools/run_in_pyodide.mjs",
            "--wheels",
            str(wheels),
            "--out",
            str(out),
            "devtools/pytest_in_pyodide.py",
            "tests/unit",
            "-q",
            "-rs",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(run.stdout[-4000:], run.stderr[-4000:], sep="\n")
    assert summary_file.exists(), f"Pyodide run ended without a summary (exit {run.returncode})"
    summary = json.loads(summary_file.read_text())
    assert summary["failed"] == [], f"failed inside Pyodide: {summary['failed']}"
    assert set(summary["skipped"]) <= ALLOWED_TO_SKIP, f"unexpected skips inside Pyodide: {summary['skipped']}"
    expected = {i for i in native_test_ids() if i.split("::")[0] not in ALLOWED_TO_SKIP}
    assert len(expected) > 50, f"could not list the native unit tests: {sorted(expected)}"
    missing = expected - set(summary["passed"])
    assert not missing, f"native unit tests that did not pass inside Pyodide: {sorted(missing)}"
    assert run.returncode == 0
