"""MkDocs hook: publish the runtime assets of the site under ``assets/``.

- ``assets/wheels/<wheel>`` and ``assets/wheels/manifest.json`` ({"attention_py": "<wheel>"}),
  so the browser can find the wheel without knowing the version;
- ``assets/snapshot/python-<digest>.gz``, the page's Python as a gzipped memory image
  (site_hooks/assets/snapshot.py), named in the manifest (``snapshot``, ``snapshot_bytes``)
  and in ``config.extra.python_snapshot`` for the pages' preload links (docs/overrides/main.html);
- ``assets/pyodide/python_stdlib_core.zip``, the standard library a normal boot starts with
  (site_hooks/assets/stdlib_core.py), named in the manifest (``stdlib_core``);
- ``assets/pyodide/`` (the Python runtime; its lock file lists no package, vendored.pyodide_lock), ``assets/widgets/`` (whatever
  scripts/build-widgets.mjs produces, subpaths kept), ``assets/katex/``, ``assets/fonts/`` (each built language's
  face and the CSS rule that gives it to the language's pages; the code face, for every page;
  a CJK face's rules in a stylesheet of its own, linked by its languages' pages only).

Why ``on_files`` at priority -200: the files must be added after static-i18n has rebuilt the
file list (it runs at -100 and crashes on generated files); added then, they land once at
the site root, ``mkdocs serve`` serves them, and links to them pass ``--strict``. Pages in
/he/ and /fa/ reach them by relative URLs, like every other root asset.
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from site_hooks.assets import offline, products, snapshot, stdlib_core, vendored
from site_hooks.content import figures
from site_hooks.i18n import languages


def _publish(
    files: Files, config: MkDocsConfig, dest_uri: str, *, path: Path | None = None, content: str | None = None
) -> None:
    existing = files.get_file_from_path(dest_uri)
    if existing is not None:
        files.remove(existing)
    if path is not None:
        files.append(File.generated(config, dest_uri, abs_src_path=str(path)))
    else:
        files.append(File.generated(config, dest_uri, content=content or ""))


@event_priority(-200)
def on_files(files: Files, config: MkDocsConfig) -> Files:
    wheel = products.wheel()
    _publish(files, config, f"assets/wheels/{wheel.name}", path=wheel)
    image = snapshot.snapshot(wheel)
    if image is not None:
        _publish(files, config, image.dest_uri, path=image.path)
    core = stdlib_core.core_archive(image)
    if core is not None:
        _publish(files, config, stdlib_core.DEST_URI, path=core)
    manifest = {"attention_py": wheel.name, **snapshot.manifest_entry(image), **stdlib_core.manifest_entry(core)}
    _publish(files, config, "assets/wheels/manifest.json", content=json.dumps(manifest) + "\n")
    # What pages with a live cell or a figure fetch while they parse (docs/overrides/main.html):
    # the wasm, and the standard library a normal boot starts with (the snapshot boot needs
    # the wasm only: page-boot.js leaves the archive out then).
    stdlib = stdlib_core.DEST_URI if core is not None else "assets/pyodide/python_stdlib.zip"
    config.extra["python_preload"] = ["assets/pyodide/pyodide.asm.wasm", stdlib]
    # The image itself only where the worker will use it (a fast connection, no Data Saver).
    config.extra["python_snapshot"] = image.dest_uri if image is not None else ""

    for name, path in products.widget_files().items():
        if name != offline.WORKER_SOURCE:  # published as sw.js at the root, with the build's file list
            _publish(files, config, f"assets/widgets/{name}", path=path)

    # each built language's face (its entry's extra.font), checked by site_hooks/i18n/languages.py,
    # and the code face in the subsets those languages need
    built = languages.site_languages(config)
    code = vendored.code_face()
    fonts = vendored.font_assets(
        ((lang.locale, lang.face, lang.subsets) for lang in built), (code, languages.code_subsets(built, code))
    )
    numbering = "".join(list_numbering(lang.locale, figures.page_numbers(lang.locale)["digits"]) for lang in built)
    _publish(files, config, "assets/fonts/fonts.css", content=fonts.stylesheet + numbering)
    # a sliced (CJK) face's own stylesheet, which docs/overrides/main.html links on the pages
    # of the languages whose entry names that face (extra.font)
    config.extra["face_stylesheets"] = {
        lang.face.name: sheet for lang in built if (sheet := vendored.face_sheet(lang.face)) in fonts.face_sheets
    }
    for sheet, css in fonts.face_sheets.items():
        _publish(files, config, sheet, content=css)
    _publish(files, config, f"assets/pyodide/{vendored.PYODIDE_LOCK}", content=vendored.pyodide_lock())
    for group in (vendored.pyodide_assets(), vendored.katex_assets(), fonts.files):
        for dest_uri, path in group.items():
            _publish(files, config, dest_uri, path=path)
    return files


def list_numbering(locale: str, digits: str) -> str:
    """The rules that number a language's lists in its prose digits (its strings' ``common.digits``):
    Material numbers ``<ol>`` with CSS, in Latin digits whatever the Markdown wrote, and a
    Persian reader saw "1." among Persian prose. None for Latin digits."""
    if digits == "0123456789":
        return ""
    symbols = " ".join(f'"{d}"' for d in digits)
    style = f"apy-digits-{locale}"
    return (
        f'@counter-style {style}{{system:numeric;symbols:{symbols};suffix:". "}}\n'
        f':root[lang="{locale}"] .md-typeset ol:not([type]){{list-style-type:{style}}}\n'
    )
