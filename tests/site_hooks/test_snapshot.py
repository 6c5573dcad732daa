"""The build step that makes the page's Python memory snapshot (site_hooks/assets/snapshot.py).

The image is made under Node.js from the pinned Pyodide, once per change of its inputs; its
name carries their digest, so a change of any input (a Pyodide file, the wheel, the session
runtime, the maker) names a new file. Making one takes a few seconds the first time; later
runs take it from .cache/.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import logging
import shutil
import struct
import sys
import zipfile

import pytest

from site_hooks import ROOT
from site_hooks.assets import products, snapshot, stdlib_core

needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules" / "pyodide").is_dir(),
    reason="Node.js and node_modules/pyodide are needed to make the snapshot",
)


def test_the_key_covers_pyodide_the_wheel_the_runtime_its_loader_and_the_maker():
    wheel = products.wheel()
    names = {path.name for path in snapshot.inputs(wheel)}
    assert {"pyodide.asm.wasm", "python_stdlib.zip", "pyodide.mjs", "pyodide.asm.mjs", "pyodide-lock.json"} <= names
    assert {wheel.name, "session_runtime.py", "session_loader.py", "make_snapshot.mjs"} <= names


def test_the_name_changes_when_an_input_changes(tmp_path):
    scratch = ROOT / ".cache" / "test-snapshot"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        wheel = scratch / "attention_py-0.1.0-py3-none-any.whl"
        shutil.copy(products.wheel(), wheel)
        before = snapshot.key_for(wheel)
        assert snapshot.key_for(wheel) == before  # stable
        wheel.write_bytes(wheel.read_bytes() + b"\0")
        after = snapshot.key_for(wheel)
        assert after != before
        assert snapshot.Snapshot(wheel, before).name != snapshot.Snapshot(wheel, after).name
        assert snapshot.Snapshot(wheel, after).name == f"python-{after[:20]}.gz"
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@needs_node
def test_the_image_is_gzip_of_a_pyodide_memory_snapshot_with_its_key_inside():
    wheel = products.wheel()
    image = snapshot.snapshot(wheel)
    assert image is not None
    assert image.key == snapshot.key_for(wheel)
    packed = image.path.read_bytes()
    assert packed[:2] == b"\x1f\x8b"  # gzip: static hosts serve it as is, the worker inflates it
    memory = gzip.decompress(packed)
    entry = snapshot.manifest_entry(image)
    stdlib = (ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").stat().st_size
    assert entry == {
        "snapshot": image.name,
        "snapshot_bytes": len(packed),
        "snapshot_memory": len(memory),
        "snapshot_sha256": hashlib.sha256(memory).hexdigest(),  # the worker checks a kept copy against it
        "stdlib_bytes": stdlib,
    }
    header_bytes, json_bytes = struct.unpack_from("<II", memory, 4)
    assert 0 < json_bytes < header_bytes < len(memory)  # Pyodide's header: offsets of the JSON and the heap
    assert image.key.encode() in memory  # __snapshot__["key"], which the e2e test reads back in the browser
    assert len(packed) < 8 * 1024 * 1024, "the image has grown: see docs/widgets/README.md on bytes"


def test_without_node_the_build_goes_on_without_a_snapshot(monkeypatch, caplog):
    monkeypatch.setattr(snapshot.shutil, "which", lambda name: None)
    with caplog.at_level(logging.INFO, logger="mkdocs.hooks.snapshot"):
        assert snapshot.snapshot(products.wheel()) is None
    assert "no Python memory snapshot" in caplog.text
    assert snapshot.manifest_entry(None) == {}


@needs_node
def test_a_normal_boot_starts_with_the_standard_library_files_python_read_and_no_more():
    """python_stdlib_core.zip: the files the image's maker had imported (the package, every
    submodule, the session runtime), each as Pyodide ships it but for its comments, and every
    standard module a live cell imports; a third of the whole archive's bytes at most."""
    image = snapshot.snapshot(products.wheel())
    core = stdlib_core.core_archive(image)
    assert core is not None
    assert core.name == "python_stdlib_core.zip"
    read = stdlib_core.files_read(image)
    assert {"random.py", "statistics.py", "traceback.py", "json/__init__.py", "_pyodide/__init__.py"} <= set(read)
    with zipfile.ZipFile(core) as part, zipfile.ZipFile(stdlib_core.FULL) as whole:
        assert sorted(part.namelist()) == sorted(read)
        assert all(part.read(name) == stdlib_core.without_comments(whole.read(name)) for name in read)
        assert sum(part.getinfo(name).file_size for name in read) < 0.9 * sum(
            whole.getinfo(name).file_size for name in read
        )
        shipped = set(whole.namelist())
    for module in sorted(_standard_modules_the_cells_import()):
        files = {f"{module}.py", f"{module}/__init__.py"}
        if files & shipped:  # else compiled into Pyodide (math, itertools...)
            assert files & set(read), f"a live cell imports {module}, which the core archive lacks"
    assert core.stat().st_size < stdlib_core.FULL.stat().st_size / 3
    assert stdlib_core.manifest_entry(core) == {"stdlib_core": core.name, "stdlib_core_bytes": core.stat().st_size}


def _standard_modules_the_cells_import() -> set[str]:
    found = set()
    for path in (ROOT / "docs" / "examples").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            found.update(name.partition(".")[0] for name in names)
    assert {"math", "attention_py"} <= found  # the walk sees the cells' imports
    return found & set(sys.stdlib_module_names)


def test_without_a_snapshot_there_is_no_core_archive():
    assert stdlib_core.core_archive(None) is None
    assert stdlib_core.manifest_entry(None) == {}


def test_the_core_archive_cuts_comments_and_keeps_every_line_and_string():
    source = (
        '"""A docstring # with a hash."""\n'
        "x = 1  # one\n"
        "# a line of its own\n"
        "s = '#not a comment'  # but this is\r\n"
        'tpl = t"{x} # kept"\n'
        "def f():\n"
        "    return x  # two\n"
    )
    cut = stdlib_core.without_comments(source.encode()).decode()
    assert cut == (
        '"""A docstring # with a hash."""\n'
        "x = 1\n"
        "\n"
        "s = '#not a comment'\r\n"
        'tpl = t"{x} # kept"\n'
        "def f():\n"
        "    return x\n"
    )
