"""The notebooks' rendering cache is keyed by what a notebook is, not where the clone is
(site_hooks/content/notebooks.py, fix 2): a ``.cache`` copied into another clone or worktree
is used, not run again."""

from __future__ import annotations

import shutil
from pathlib import Path

import mkdocs_jupyter.plugin

from site_hooks import ROOT
from site_hooks.content.notebooks import cache_key

NOTEBOOK = Path("docs/en/notebooks/first-steps.ipynb")
OPTIONS = {"execute": True, "allow_errors": False, "cache_dir": "/somewhere/a"}


def clone_with_notebook(root: Path, relative: Path = NOTEBOOK) -> Path:
    target = root / relative
    target.parent.mkdir(parents=True)
    shutil.copyfile(ROOT / NOTEBOOK, target)
    return target


def test_two_clones_share_a_key(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    key_a = cache_key(str(clone_with_notebook(a)), OPTIONS, True, root=a)
    key_b = cache_key(str(clone_with_notebook(b)), {**OPTIONS, "cache_dir": "/elsewhere"}, True, root=b)
    assert key_a == key_b


def test_what_the_output_depends_on_changes_the_key(tmp_path):
    a = tmp_path / "a"
    path = clone_with_notebook(a)
    key = cache_key(str(path), OPTIONS, True, root=a)
    assert cache_key(str(path), OPTIONS, False, root=a) != key  # not executed
    assert cache_key(str(path), {**OPTIONS, "allow_errors": True}, True, root=a) != key
    moved = clone_with_notebook(a, Path("docs/he/notebooks/first-steps.ipynb"))
    assert cache_key(str(moved), OPTIONS, True, root=a) != key  # another language's page
    path.write_bytes(path.read_bytes().replace(b"attention", b"Attention", 1))
    assert cache_key(str(path), OPTIONS, True, root=a) != key


def test_the_build_uses_it():
    assert mkdocs_jupyter.plugin._compute_cache_key is cache_key  # replaced when the hook is imported
