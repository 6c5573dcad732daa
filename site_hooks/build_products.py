"""The two things the site build makes from this repository: the attention_py wheel and the
widget bundle. Both are cached by a digest of their inputs (see asset_cache.py).

Why a wheel: the page's worker unpacks this pure-Python wheel into Pyodide's site-packages
(tens of milliseconds), so the browser runs exactly the package the tests check. ``python -m build`` runs on
a copy of the packaging files, so builds never race with other work in the checkout over
``build/`` or ``*.egg-info``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from mkdocs.exceptions import PluginError

from devtools.wheels import WHEEL_INPUTS, build_attention_wheel
from site_hooks.asset_cache import ROOT, cached_product, digest, product_files
from site_hooks.vendored_assets import NODE_MODULES

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
