"""The standard library a page's Python starts with: python_stdlib.zip cut to what it reads.

Why: a normal boot (no memory image: a slow connection, Data Saver, a browser that cannot
restore one) downloads Pyodide's whole standard library, 2.5 MB of zip that gzip cannot
shrink, though the page's Python reads about a tenth of its files to start. The memory
image's maker (make_snapshot.mjs) does what the page's worker does at start and lists the
files of the archive Python has read by then; this module copies just those into
``python_stdlib_core.zip`` (about 0.8 MB), which the worker gives Pyodide in place of the
whole archive. Any other module (the reader's own ``import difflib``) makes the worker fetch
the whole archive then, once (docs/widgets/stdlib_on_demand.py), so nothing is lost, only
deferred.

No image, no list: without Node.js the build has neither, and pages download the whole
archive as before.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from site_hooks.assets import products
from site_hooks.assets.snapshot import Snapshot
from site_hooks.assets.vendored import NODE_MODULES

FULL = NODE_MODULES / "pyodide" / "python_stdlib.zip"
NAME = "python_stdlib_core.zip"
DEST_URI = f"assets/pyodide/{NAME}"


def files_read(image: Snapshot) -> list[str]:
    """The archive's files the image's maker had imported (paths inside the zip)."""
    info = json.loads((image.path.parent / "info.json").read_text())
    read: list[str] = info["stdlib"]
    return read


def _maker(wanted: set[str]):
    def produce(outdir: Path) -> None:
        with zipfile.ZipFile(FULL) as full, zipfile.ZipFile(outdir / NAME, "w", zipfile.ZIP_DEFLATED) as core:
            present = set(full.namelist())
            missing = sorted(wanted - present)
            if missing:
                raise RuntimeError(f"{FULL.name} lacks files the page's Python read: {missing[:5]}")
            for info in full.infolist():
                if info.filename in wanted:
                    core.writestr(info, full.read(info), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)

    return produce


def core_archive(image: Snapshot | None) -> Path | None:
    """``python_stdlib_core.zip`` for this image's list (made once per image), or None
    without an image."""
    if image is None:
        return None
    folder = products.cached_product("stdlib-core", image.key, _maker(set(files_read(image))))
    return folder / NAME


def manifest_entry(core: Path | None) -> dict[str, object]:
    """What assets/wheels/manifest.json says of it (worker-boot.js reads it): its name and bytes."""
    return {} if core is None else {"stdlib_core": NAME, "stdlib_core_bytes": core.stat().st_size}
