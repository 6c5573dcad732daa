"""The standard library a page's Python starts with: python_stdlib.zip cut to what it reads.

Why: a normal boot (no memory image: a slow connection, Data Saver, a browser that cannot
restore one) downloads Pyodide's whole standard library, 2.5 MB of zip that gzip cannot
shrink, though the page's Python reads about a tenth of its files to start. The memory
image's maker (make_snapshot.mjs) does what the page's worker does at start and lists the
files of the archive Python has read by then; this module copies just those into
``python_stdlib_core.zip`` (about 0.6 MB), which the worker gives Pyodide in place of the
whole archive. Their comments are cut (``without_comments``), a fifth of the archive's
bytes: every line stays where it was (tracebacks and ``linecache`` still point at the right
line) and every docstring stays (``help()`` still reads them). Any other module (the reader's own ``import difflib``) makes the worker fetch
the whole archive then, once (docs/widgets/runtime/python/stdlib_on_demand.py), so nothing is lost, only
deferred.

No image, no list: without Node.js the build has neither, and pages download the whole
archive as before.
"""

from __future__ import annotations

import hashlib
import io
import json
import tokenize
import zipfile
from pathlib import Path

from site_hooks.assets import products
from site_hooks.assets.snapshot import Snapshot
from site_hooks.assets.vendored import NODE_MODULES

FULL = NODE_MODULES / "pyodide" / "python_stdlib.zip"
NAME = "python_stdlib_core.zip"
DEST_URI = f"assets/pyodide/{NAME}"
RECIPE = "comments cut"  # part of the cached archive's key: a new recipe makes a new archive


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
                    body = full.read(info)
                    if info.filename.endswith(".py"):
                        body = without_comments(body)
                    core.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)

    return produce


def without_comments(source: bytes) -> bytes:
    """``source`` with every comment cut and each line where it was; refuses (ValueError) if
    anything but comments would change. A comment is what Python's tokenizer calls one, so a
    ``#`` inside a string stays; the newer syntax of Pyodide's Python that this one does not
    know (template strings, ``t"..."``) tokenizes as a name and a string, its ``#`` kept."""
    text = source.decode("utf-8")
    starts: dict[int, int] = {}
    code: list[tuple[int, str, int]] = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            starts.setdefault(token.start[0], token.start[1])
        elif token.type != tokenize.NL:
            code.append((token.type, token.string, token.start[0]))
    lines = text.splitlines(keepends=True)
    for number, column in starts.items():
        line = lines[number - 1]
        ending = line[len(line.rstrip("\r\n")) :]
        lines[number - 1] = line[:column].rstrip() + ending
    cut = "".join(lines)
    if _code_tokens(cut) != code or cut.count("\n") != text.count("\n"):
        raise ValueError("cutting the comments would change more than the comments")
    return cut.encode("utf-8")


def _code_tokens(text: str) -> list[tuple[int, str, int]]:
    """The tokens that are code, with their line: what ``without_comments`` must not change."""
    skipped = {tokenize.COMMENT, tokenize.NL}
    return [
        (t.type, t.string, t.start[0])
        for t in tokenize.generate_tokens(io.StringIO(text).readline)
        if t.type not in skipped
    ]


def core_archive(image: Snapshot | None) -> Path | None:
    """``python_stdlib_core.zip`` for this image's list (made once per image), or None
    without an image."""
    if image is None:
        return None
    key = hashlib.sha256(f"{image.key} {RECIPE}".encode()).hexdigest()
    folder = products.cached_product("stdlib-core", key, _maker(set(files_read(image))))
    return folder / NAME


def manifest_entry(core: Path | None) -> dict[str, object]:
    """What assets/wheels/manifest.json says of it (worker-boot.js reads it): its name and bytes."""
    return {} if core is None else {"stdlib_core": NAME, "stdlib_core_bytes": core.stat().st_size}
