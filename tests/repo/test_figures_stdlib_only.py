"""attention_py, figures included, imports nothing but the standard library.

It has to run in bare Pyodide, which has no PyYAML (nor anything else installed). The check
imports every module of the package in a fresh interpreter whose import system refuses any
top-level module outside ``sys.stdlib_module_names``, so a stray ``import yaml`` (or numpy,
or a site_hooks helper) anywhere in the package fails here, naming the module.
"""

from __future__ import annotations

import subprocess
import sys

from tests.figures.support import ROOT

PROBE = r"""
import importlib, importlib.abc, pkgutil, sys

class RefuseNonStdlib(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top != "attention_py" and top not in sys.stdlib_module_names:
            raise ImportError(f"attention_py must not import {name!r} (not in the standard library)")
        return None

sys.meta_path.insert(0, RefuseNonStdlib())
for name in [m for m in sys.modules if m.partition(".")[0] not in sys.stdlib_module_names]:
    del sys.modules[name]  # whatever site-packages hooks loaded at start-up must load again

import attention_py
names = ["attention_py"] + [m.name for m in pkgutil.walk_packages(attention_py.__path__, "attention_py.")]
for name in names:
    importlib.import_module(name)
outside = sorted(m for m in sys.modules if m.partition(".")[0] not in sys.stdlib_module_names | {"attention_py"})
assert not outside, outside
print("\n".join(names))
"""


def test_every_module_imports_with_only_the_standard_library():
    run = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    imported = set(run.stdout.split())
    assert {"attention_py.figures", "attention_py.figures.what_matters.why_sqrt_dk", "attention_py.softmax"} <= imported
    assert "attention_py.figures.build" not in imported, "the YAML build helpers live in site_hooks"
