"""The page's Python as a memory snapshot: made once per change of its inputs, at build time.

Why: restoring a Pyodide memory image (attention_py and the session runtime already
imported) makes Python ready in the browser in a fraction of a normal boot, which has to
initialise the interpreter and import everything first. ``make_snapshot.mjs`` (beside this file) makes
the image under Node.js with the pinned Pyodide (the private, experimental ``_makeSnapshot``
API of pyodide 314.0.7) and gzips it; static hosts do not compress arbitrary binary files,
so the worker decompresses it itself (``DecompressionStream``).

The file's name carries a digest of everything the image was made from: the Pyodide files
the site ships, the attention_py wheel, ``session_runtime.py``, its loader ``session_loader.py``
and the maker script. A new
input gives a new name, so a browser's cached copy can never be an image of other files, and
the HTTP cache may keep it as long as it likes. Anything unexpected in the browser falls back
to the normal boot (docs/widgets/README.md, "The memory snapshot").

Without Node.js or node_modules the build goes on without a snapshot (one info line): the
pages then boot Python the normal way.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from site_hooks import ROOT
from site_hooks.assets import products
from site_hooks.assets.vendored import NODE_MODULES, PYODIDE_FILES

log = logging.getLogger("mkdocs.hooks.snapshot")

MAKER = ROOT / "site_hooks" / "assets" / "make_snapshot.mjs"
RUNTIME = ROOT / "docs" / "widgets" / "runtime" / "python" / "session_runtime.py"
LOADER = RUNTIME.with_name("session_loader.py")  # loads RUNTIME, in the maker and the worker alike
SITE_FOLDER = "assets/snapshot"


@dataclass(frozen=True)
class Snapshot:
    path: Path  # the gzipped image in the cache
    key: str  # digest of its inputs

    @property
    def name(self) -> str:
        return f"python-{self.key[:20]}.gz"

    @property
    def dest_uri(self) -> str:
        return f"{SITE_FOLDER}/{self.name}"


def inputs(wheel: Path) -> list[Path]:
    """Every file the image depends on (its key is their digest)."""
    return [*(NODE_MODULES / "pyodide" / name for name in PYODIDE_FILES), wheel, RUNTIME, LOADER, MAKER]


def key_for(wheel: Path) -> str:
    return products.digest(inputs(wheel))


def _maker(wheel: Path, key: str):
    def produce(outdir: Path) -> None:
        out = outdir / "snapshot.gz"
        result = subprocess.run(
            ["node", str(MAKER), "--wheel", str(wheel), "--runtime", str(RUNTIME), "--key", key, "--out", str(out)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if result.returncode or not out.is_file():
            raise RuntimeError(f"make_snapshot.mjs failed:\n{result.stdout}\n{result.stderr}")
        (outdir / "info.json").write_text(result.stdout.strip().splitlines()[-1] + "\n")

    return produce


def snapshot(wheel: Path) -> Snapshot | None:
    """The gzipped image for ``wheel`` and the current runtime, made if absent; None (with an
    info line) where it cannot be made here."""
    if shutil.which("node") is None or not (NODE_MODULES / "pyodide" / "pyodide.mjs").is_file():
        log.info(
            "no Python memory snapshot: Node.js or node_modules/pyodide is missing; pages boot Python the normal way"
        )
        return None
    key = key_for(wheel)
    try:
        folder = products.cached_product("snapshot", key, _maker(wheel, key))
    except (OSError, RuntimeError, subprocess.SubprocessError) as error:
        log.warning(f"no Python memory snapshot ({error}); pages boot Python the normal way")
        return None
    return Snapshot(folder / "snapshot.gz", key)


def image_digest(image: Snapshot) -> str:
    """SHA-256 (hex) of the inflated image, computed once per image and kept beside it."""
    kept = image.path.parent / "sha256.txt"
    if not kept.is_file():
        kept.write_text(hashlib.sha256(gzip.decompress(image.path.read_bytes())).hexdigest() + "\n")
    return kept.read_text().strip()


def manifest_entry(image: Snapshot | None) -> dict[str, object]:
    """What assets/wheels/manifest.json says about the image (python-worker.js reads it)."""
    if image is None:
        return {}
    info = json.loads((image.path.parent / "info.json").read_text())
    return {
        "snapshot": image.name,
        "snapshot_bytes": image.path.stat().st_size,
        "snapshot_memory": info["memory"],
        # The inflated image's SHA-256: the worker checks it before restoring a copy it kept in
        # Cache Storage (which code in the page can rewrite), and before keeping one.
        "snapshot_sha256": image_digest(image),
        # A restored Python does not download the standard library to start (the worker's
        # progress bar leaves it out): stdlib_on_demand.py fetches it when code needs it.
        "stdlib_bytes": (NODE_MODULES / "pyodide" / "python_stdlib.zip").stat().st_size,
    }
