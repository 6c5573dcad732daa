"""A content-addressed cache for the products the site build makes (wheel, widget bundle).

Why: static-i18n runs every hook once per language, and ``mkdocs serve`` rebuilds on each
save. Rebuilding the wheel or re-running esbuild every time would make each reload slow, so
a product is kept in ``.cache/site-assets/<name>-<digest>/``, keyed by a digest of its
inputs, and made again only when an input changes. Products are written to a temporary
folder and renamed into place, so two builds running at once never see half a product.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE_ROOT = ROOT / ".cache" / "site-assets"
_SKIPPED_PARTS = {"__pycache__", ".pytest_cache", ".mypy_cache", "node_modules"}


def _files_under(path: Path) -> Iterable[Path]:
    if path.is_file():
        yield path
        return
    for child in sorted(path.rglob("*")):
        if child.is_file() and not _SKIPPED_PARTS.intersection(child.parts) and child.suffix != ".pyc":
            yield child


def digest(paths: Iterable[Path]) -> str:
    """SHA-256 over the relative names and bytes of every file under ``paths`` (missing ones skipped)."""
    hasher = hashlib.sha256()
    for path in paths:
        for file in _files_under(path):
            hasher.update(file.relative_to(ROOT).as_posix().encode() + b"\0")
            hasher.update(file.read_bytes() + b"\0")
    return hasher.hexdigest()


def product_files(folder: Path) -> list[Path]:
    """Every file of a cached product, in a stable order."""
    return sorted(p for p in folder.rglob("*") if p.is_file())


def cached_product(name: str, key: str, produce: Callable[[Path], None]) -> Path:
    """The folder holding product ``name`` for inputs ``key``; calls ``produce(folder)`` if absent.

    Older versions of the same product are pruned, so the cache stays small.
    """
    target = CACHE_ROOT / f"{name}-{key[:20]}"
    if target.is_dir():
        return target
    CACHE_ROOT.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=CACHE_ROOT))
    try:
        produce(scratch)
        try:
            os.rename(scratch, target)
        except OSError:  # a concurrent build got there first: keep its copy
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    for stale in CACHE_ROOT.glob(f"{name}-*"):
        if stale != target and stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)
    return target
