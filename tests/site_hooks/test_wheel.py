"""The attention_py wheel is the same bytes for the same sources (site_hooks/assets/wheels.py)."""

from __future__ import annotations

import os
import shutil
import zipfile

from site_hooks.assets import wheels


def test_the_same_sources_give_the_same_wheel_whenever_the_files_were_written(tmp_path, monkeypatch):
    source = tmp_path / "source"
    source.mkdir()
    for name in wheels.WHEEL_INPUTS:
        path = wheels.ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif path.is_file():
            shutil.copy2(path, source / name)
    monkeypatch.setattr(wheels, "ROOT", source)
    first = wheels.build_attention_wheel(tmp_path / "first").read_bytes()
    for path in source.rglob("*"):
        os.utime(path, (1_900_000_000, 1_900_000_000))  # as a later checkout would date them
    second = wheels.build_attention_wheel(tmp_path / "second")
    assert second.read_bytes() == first
    assert {info.date_time for info in zipfile.ZipFile(second).infolist()} == {(1980, 1, 1, 0, 0, 0)}
