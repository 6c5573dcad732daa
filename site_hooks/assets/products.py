"""The two things the site build makes from this repository, the attention_py wheel and the
widget bundle, and the cache that keeps them.

Why a wheel: the page's worker unpacks this pure-Python wheel into Pyodide's site-packages
(tens of milliseconds), so the browser runs exactly the package the tests check. ``python -m
build`` runs on a copy of the packaging files, so builds never race with other work in the
checkout over ``build/`` or ``*.egg-info``.

Why a cache: static-i18n runs every hook once per language, and ``mkdocs serve`` rebuilds on
each save. Rebuilding the wheel or re-running esbuild every time would make each reload
slow, so a product is kept in ``.cache/site-assets/<name>-<digest>/``, keyed by a digest of
its inputs, and made again only when an input changes. Products are written to a temporary
folder and renamed into place, so two builds running at once never see half a product.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from mkdocs.exceptions import PluginError

from site_hooks import ROOT
from site_hooks.assets.vendored import NODE_MODULES
from site_hooks.assets.wheels import WHEEL_INPUTS, build_attention_wheel

# The widget bundle depends on its sources, the bundling script and the pinned packages.
WIDGET_INPUTS = ("docs/widgets", "scripts", "package-lock.json")
WIDGET_SCRIPT = ROOT / "scripts" / "build-widgets.mjs"


def package_digest() -> str:
    """Digest of the attention_py sources and packaging files (also keys notebook outputs)."""
    return digest(ROOT / name for name in WHEEL_INPUTS)


def _run(command: list[str], what: str, cwd: Path) -> None:
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError as error:
        raise PluginError(f"{what} failed: {error}") from error
    if result.returncode:
        raise PluginError(f"{what} failed ({' '.join(command)}):\n{result.stdout}\n{result.stderr}")


def _build_wheel(outdir: Path) -> None:
    try:
        build_attention_wheel(outdir)
    except RuntimeError as error:
        raise PluginError(str(error)) from error


def wheel() -> Path:
    """The attention_py wheel for the current sources (py3-none-any, what Pyodide loads)."""
    folder = cached_product("wheel", package_digest(), _build_wheel)
    return next(folder.glob("*.whl"))


def _bundle_widgets(outdir: Path) -> None:
    if not NODE_MODULES.is_dir():
        raise PluginError("node_modules/ is missing, so the widgets cannot be bundled: run `./run build` or `npm ci`.")
    if not WIDGET_SCRIPT.is_file():
        raise PluginError(f"{WIDGET_SCRIPT.relative_to(ROOT)} is missing")
    _run(["node", str(WIDGET_SCRIPT), "--outdir", str(outdir)], "bundling the widgets", cwd=ROOT)
    if not product_files(outdir):
        raise PluginError(f"{WIDGET_SCRIPT.relative_to(ROOT)} produced no file")


def widget_files() -> dict[str, Path]:
    """Path under the bundle folder -> file, for every file scripts/build-widgets.mjs produced."""
    folder = cached_product("widgets", digest(ROOT / name for name in WIDGET_INPUTS), _bundle_widgets)
    return {path.relative_to(folder).as_posix(): path for path in product_files(folder)}


# The cache

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


def cached_product_folder(name: str, key: str) -> Path:
    """Where product ``name`` for inputs ``key`` is cached (it may not exist yet)."""
    return CACHE_ROOT / f"{name}-{key[:20]}"


def cached_product(name: str, key: str, produce: Callable[[Path], None]) -> Path:
    """The folder holding product ``name`` for inputs ``key``; calls ``produce(folder)`` if absent.

    Older versions of the same product are pruned, so the cache stays small.
    """
    target = cached_product_folder(name, key)
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
        # only this product's own versions: "training-en-<key>", not "training-en-runs-<key>"
        own = re.fullmatch(r"[0-9a-f]{20}", stale.name.removeprefix(f"{name}-"))
        if own and stale != target and stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)
    return target
